"""Real Webots files load as Webots loads them (issue 13, "Real Webots worlds").

USE names the most recent complete DEF, an unknown field is a warning (its
text is kept and written back), a UTF-8 byte-order mark is accepted.
"""

from __future__ import annotations

import os

import pytest

from engine.world import Node, UseNode, format_world, parse_world, read_world

from .conftest import HEADER, WORLDS


def _solid(world, def_name: str) -> Node:
    return next(n for n in world.nodes if n.def_name == def_name)


def test_use_names_the_most_recent_complete_def() -> None:
    # Webots' own sample: Solid DEF BOX2 holds a Box DEF BOX2, boundingObject USE BOX2
    world = read_world(WORLDS / "asymmetric_friction1.wbt")
    box2 = _solid(world, "BOX2")
    bounding = box2.get("boundingObject")
    assert isinstance(bounding, UseNode)
    assert bounding.target.type_name == "Box"
    assert bounding.target.get("size") == (1.7, 1.7, 0.1)
    assert bounding.target is box2.get("children")[0].get("geometry")
    plane = _solid(world, "PLANE").get("boundingObject")
    assert plane.target.type_name == "Plane"


def test_asymmetric_friction_world_round_trips() -> None:
    world = read_world(WORLDS / "asymmetric_friction1.wbt")
    text = format_world(world)
    again = parse_world(text)
    assert format_world(again) == text
    assert again == parse_world(text)
    box2 = _solid(again, "BOX2")
    assert box2.get("boundingObject").target is box2.get("children")[0].get("geometry")
    # the 17-digit numbers Webots wrote are kept to 15 significant digits
    view = next(n for n in again.nodes if n.type_name == "Viewpoint")
    assert view.get("orientation") == pytest.approx(
        next(n for n in world.nodes if n.type_name == "Viewpoint").get("orientation"),
        rel=1e-14)


def test_asymmetric_friction_world_builds_a_simulation() -> None:
    from engine.sim.simulation import Simulation

    sim = Simulation(str(WORLDS / "asymmetric_friction1.wbt"))
    names = {rec.node.def_name for rec in sim.model.bodies}
    assert names == {"BOX1"}  # BOX2 and PLANE have no Physics
    assert sim.step()


def test_later_use_sees_the_outer_def_once_complete() -> None:
    text = HEADER + ("DEF A Transform { children [ DEF A Shape {} USE A ] }\n"
                     "Transform { children [ USE A ] }\n")
    world = parse_world(text)
    outer, user = world.nodes
    assert outer.get("children")[1].target.type_name == "Shape"
    assert user.get("children")[0].target is outer


def test_unknown_field_is_a_warning_and_is_written_back() -> None:
    text = HEADER + (
        "Solid {\n"
        "  tranlation 0 0 1\n"
        "  futureList [\n"
        "    1 2\n"
        "    3\n"
        "  ]\n"
        "  futureNode DEF F Thing {\n"
        "    a 1\n"
        "  }\n"
        "  futureFlag TRUE\n"
        '  futureText "a" "b"\n'
        "  name \"kept\"\n"
        "}\n"
        "Transform { children [ USE F ] }\n"
    )
    world = parse_world(text, "w.wbt")
    assert world.warnings[0] == ("w.wbt:3:3: unknown field 'tranlation' in Solid "
                                 "(did you mean 'translation'?) is kept as is")
    assert len(world.warnings) == 5  # one per unknown field; USE F is opaque, silently
    solid = world.nodes[0]
    assert solid.get("name") == "kept"
    assert solid.get("translation") == (0.0, 0.0, 0.0)
    assert [name for name, _ in solid.unknown_fields] == [
        "tranlation", "futureList", "futureNode", "futureFlag", "futureText"]
    out = format_world(world)
    assert "  tranlation 0 0 1\n" in out
    assert "  futureList [\n    1 2\n    3\n  ]\n" in out
    assert "  futureNode DEF F Thing {\n    a 1\n  }\n" in out
    assert '  futureText "a" "b"\n' in out
    again = parse_world(out)
    assert world == again
    assert format_world(again) == out


def test_utf8_byte_order_mark_is_accepted(tmp_path) -> None:
    path = tmp_path / "bom.wbt"
    path.write_bytes(b"\xef\xbb\xbf" + (HEADER + "WorldInfo { basicTimeStep 8 }\n").encode())
    world = read_world(path)
    assert world.version == "R2025a"
    assert world.nodes[0].get("basicTimeStep") == 8.0
    assert not format_world(world).startswith("\ufeff")


def test_non_regular_files_are_refused_by_name(tmp_path) -> None:
    from engine.world import WorldError

    fifo = tmp_path / "pipe.wbt"
    os.mkfifo(fifo)
    for path in ("/dev/zero", str(fifo), str(tmp_path)):
        with pytest.raises(WorldError, match=r"not a regular file") as info:
            read_world(path)
        assert str(info.value).startswith(path + ":")


def test_files_above_the_size_limit_are_refused(tmp_path, monkeypatch) -> None:
    from engine.world import WorldError
    from engine.world import parser as parser_module

    path = tmp_path / "big.wbt"
    path.write_text(HEADER + "WorldInfo {}\n" + "# padding\n" * 20)
    monkeypatch.setattr(parser_module, "MAX_WORLD_BYTES", 100)
    with pytest.raises(WorldError, match=r"larger than 0 MiB are refused") as info:
        read_world(path)
    assert str(info.value).startswith(str(path) + ":")
    monkeypatch.setattr(parser_module, "MAX_WORLD_BYTES", 1000)
    assert read_world(path).nodes[0].type_name == "WorldInfo"
