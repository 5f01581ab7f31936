"""Writer: Webots style, defaults omitted, DEF/USE order, atomic save."""

from __future__ import annotations

import os

import pytest

from engine.world import Node, UseNode, World, format_world, parse_world, read_world, write_world
from engine.world import writer as writer_module

H = "#VRML_SIM R2025a utf8\n"


def test_defaults_omitted_and_style() -> None:
    world = World("R2023b")
    info = Node("WorldInfo", basicTimeStep=16, CFM=1e-5, stepper="quickstep")
    world.add_node(info)
    solid = Node("Solid", def_name="BOX", translation=(0, 0, 0.5), name="solid")
    shape = Node("Shape", geometry=Node("Box", size=(0.1, 0.2, 0.30000000000000004)))
    solid.append("children", shape)
    solid.set("physics", Node("Physics"))
    world.add_node(solid)
    assert format_world(world) == (
        "#VRML_SIM R2023b utf8\n"
        "\n"
        "WorldInfo {\n"
        "  stepper \"quickstep\"\n"
        "  basicTimeStep 16\n"
        "}\n"
        "DEF BOX Solid {\n"
        "  translation 0 0 0.5\n"
        "  children [\n"
        "    Shape {\n"
        "      geometry Box {\n"
        "        size 0.1 0.2 0.3\n"
        "      }\n"
        "    }\n"
        "  ]\n"
        "  physics Physics {\n"
        "  }\n"
        "}\n"
    )


def test_mf_and_strings_formatting() -> None:
    world = World()
    world.add_node(Node("WorldInfo", info=['say "hi"', "a\\b\nc"], title="t"))
    world.add_node(Node("Background", skyColor=[(1, 0, 0), (0, 0.5, 1)]))
    text = format_world(world)
    assert '  info [\n    "say \\"hi\\""\n    "a\\\\b\\nc"\n  ]\n' in text
    assert "  skyColor [\n    1 0 0\n    0 0.5 1\n  ]\n" in text
    assert parse_world(text) == world


def test_non_default_empty_mf_written() -> None:
    world = World()
    world.add_node(Node("Background", skyColor=[]))
    text = format_world(world)
    assert "skyColor []" in text
    assert parse_world(text).nodes[0].get("skyColor") == ()


def test_externproto_and_opaque_written_back() -> None:
    text = (
        H + '\nEXTERNPROTO "https://x/Arena.proto"\n\nArena {\n  floorSize 2 2   # odd  spacing\n}\n'
        "Group {\n  children [\n    Thing {\n      a [ 1 2 ]\n    }\n  ]\n}\n"
    )
    world = parse_world(text)
    assert format_world(world) == text


def test_use_before_def_in_schema_order_is_swapped() -> None:
    # boundingObject comes after children in schema order; the file had it first
    world = parse_world(
        H + "Solid { boundingObject DEF G Box { size 1 1 1 } children [ Shape { geometry USE G } ] }"
    )
    text = format_world(world)
    assert text.index("DEF G Box") < text.index("USE G")
    again = parse_world(text)
    assert again == world
    assert isinstance(again.nodes[0].get("boundingObject"), UseNode)


def test_deleted_def_node_written_at_first_use() -> None:
    world = parse_world(H + "Shape { geometry DEF G Box { size 3 3 3 } }\nShape { geometry USE G }")
    first = world.nodes[0]
    first.set("geometry", None)
    text = format_world(world)
    assert "DEF G Box" in text and "USE G" not in text
    assert parse_world(text).nodes[1].get("geometry").get("size") == (3.0, 3.0, 3.0)


def test_shadowed_def_is_written_in_full() -> None:
    world = parse_world(
        H + "Shape { geometry DEF G Box { size 1 1 1 } }\n"
        "Shape { geometry DEF G Sphere {} }\n"
        "Shape { geometry USE G }\n"
    )
    third = world.nodes[2].get("geometry")
    assert third.type_name == "Sphere"
    # point the third USE at the first (now shadowed) Box
    world.nodes[2].set("geometry", UseNode(world.nodes[0].get("geometry")))
    text = format_world(world)
    again = parse_world(text)
    assert again.nodes[2].get("geometry").type_name == "Box"
    assert again == world


def test_write_world_atomic(tmp_path) -> None:
    path = tmp_path / "w.wbt"
    world = parse_world(H + "WorldInfo { basicTimeStep 8 }")
    write_world(world, path)
    assert read_world(path) == world
    assert world.filename == str(path)
    assert [p.name for p in tmp_path.iterdir()] == ["w.wbt"]


def test_failed_write_leaves_old_file_intact(tmp_path, monkeypatch) -> None:
    path = tmp_path / "w.wbt"
    path.write_text(H + "WorldInfo {}\n")
    world = parse_world(H + "WorldInfo { basicTimeStep 8 }")

    def broken_replace(src, dst):
        raise OSError("disk full")

    monkeypatch.setattr(writer_module.os, "replace", broken_replace)
    with pytest.raises(OSError, match="disk full"):
        write_world(world, path)
    assert path.read_text() == H + "WorldInfo {}\n"
    assert [p.name for p in tmp_path.iterdir()] == ["w.wbt"]


def test_failed_format_leaves_old_file_intact(tmp_path, monkeypatch) -> None:
    path = tmp_path / "w.wbt"
    path.write_text(H + "WorldInfo {}\n")
    original_fsync = os.fsync

    def broken_fsync(fd):
        original_fsync(fd)
        raise OSError("I/O error")

    monkeypatch.setattr(writer_module.os, "fsync", broken_fsync)
    with pytest.raises(OSError, match="I/O error"):
        write_world(parse_world(H + "Viewpoint {}"), path)
    assert path.read_text() == H + "WorldInfo {}\n"
    assert len(list(tmp_path.iterdir())) == 1


@pytest.mark.parametrize(
    "body",
    [
        "Group { children [\n      Foo {\n    a 1\n  }\n] }",
        "Foo { a 1\n      b 2 }",
        "Group { children [ Foo {\n\t\tx 1\n\t} ] }",
        "Group {\n  children [\n    Foo {\n      \n  x \"multi\n line\"\n    }\n  ]\n}",
        "   Foo {\n}",
    ],
)
def test_opaque_indentation_round_trip(body: str) -> None:
    world = parse_world(H + body)
    text = format_world(world)
    again = parse_world(text)
    assert again == world
    assert format_world(again) == text


def test_opaque_node_reindented_when_moved() -> None:
    world = parse_world(H + "Foo {\n  a [\n    1\n  ]\n}\nGroup {}")
    foo, group = world.nodes
    world.remove_node(foo)
    group.append("children", foo)
    assert format_world(world) == (
        H + "\nGroup {\n  children [\n    Foo {\n      a [\n        1\n      ]\n    }\n  ]\n}\n"
    )


def test_leading_comments_kept() -> None:
    world = parse_world(H + "# made by hand\n#second\nWorldInfo { } # not kept\n")
    assert world.comments == [" made by hand", "second"]
    assert format_world(world) == H + "# made by hand\n#second\n\nWorldInfo {\n}\n"
