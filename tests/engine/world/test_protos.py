"""PROTO stand-ins in the world model: interface, round trip, expansion geometry."""

from __future__ import annotations

import os

import pytest

from engine.world import BaseNode, Node, parse_world, read_world, tree_equal
from engine.world.protos import STAND_INS, expanded, instance_of, world_node_of
from engine.world.schema_protos import PROTO_INTERFACES
from engine.world.writer import format_world

H = "#VRML_SIM R2023b utf8\n"
WORLDS = os.path.join(os.path.dirname(__file__), "..", "..", "resources", "worlds")
WEBOTS = os.path.join(WORLDS, "webots")


def test_instance_is_saved_as_written() -> None:
    text = H + "RectangleArena {\n  floorSize 2 2\n}\n"
    world = parse_world(text)
    assert world.warnings == []
    expanded(world.nodes[0])  # expanding never touches the instance
    assert format_world(world) == H + "\n" + "RectangleArena {\n  floorSize 2 2\n}\n"


def test_instance_shows_its_interface_and_type_name() -> None:
    world = parse_world(H + "DEF ARENA RectangleArena { wallHeight 0.3 }\n")
    arena = world.nodes[0]
    assert arena.type_name == "RectangleArena"  # getTypeName()
    assert arena.field_names() == [r[0] for r in PROTO_INTERFACES["RectangleArena"][1]]
    assert "children" not in arena.field_names()
    assert arena.is_a("Solid")
    assert world.find_solid_by_def("ARENA") is arena
    assert STAND_INS["RectangleArena"].rows == tuple(PROTO_INTERFACES["RectangleArena"][1])


def test_rectangle_arena_walls_close_the_floor() -> None:
    X, Y, t, h = 2.0, 3.0, 0.02, 0.2
    arena = parse_world(H + f"RectangleArena {{ floorSize {X} {Y} wallThickness {t} "
                            f"wallHeight {h} }}\n").nodes[0]
    root = expanded(arena)
    floor, *walls = root.get("children")
    assert floor.type_name == "Floor" and floor.get("size") == (X, Y)
    boxes = {(w.get("translation"), w.get("size")) for w in walls}
    assert boxes == {
        ((X / 2 + t / 2, 0.0, h / 2), (t, Y, h)),
        ((-(X / 2 + t / 2), 0.0, h / 2), (t, Y, h)),
        ((0.0, Y / 2 + t / 2, h / 2), (X + 2 * t, t, h)),
        ((0.0, -(Y / 2 + t / 2), h / 2), (X + 2 * t, t, h)),
    }
    wall = expanded(walls[0])
    assert wall.get("boundingObject").get("size") == walls[0].get("size")
    assert wall.get("physics") is None  # static walls
    plane = expanded(floor).get("boundingObject")
    assert plane.type_name == "Plane" and plane.get("size") == (X, Y)
    assert world_node_of(wall) is arena  # a wall picked in the view selects the arena


def test_edits_change_the_expansion_and_moves_keep_it() -> None:
    arena = parse_world(H + "RectangleArena { }\n").nodes[0]
    first = expanded(arena)
    arena.set("translation", (1.0, 2.0, 0.0))
    assert expanded(arena) is first and first.get("translation") == (1.0, 2.0, 0.0)
    arena.set("floorSize", (4.0, 4.0))
    second = expanded(arena)
    assert second is not first and instance_of(second) is arena
    assert second.get("children")[0].get("size") == (4.0, 4.0)


def test_solid_box_owns_a_copy_of_its_physics() -> None:
    world = parse_world(H + "DEF P Solid { physics DEF PH Physics { mass 3 } }\n"
                            "SolidBox { size 0.1 0.2 0.3 physics USE PH }\n")
    root = expanded(world.nodes[1])
    physics = root.get("physics")
    assert physics.type_name == "Physics" and physics.get("mass") == 3.0
    assert physics is not world.nodes[0].get("physics")
    assert root.get("boundingObject").get("size") == (0.1, 0.2, 0.3)
    world.nodes[1].set("enableBoundingObject", False)
    assert expanded(world.nodes[1]).get("boundingObject") is None


def test_wooden_box_mass_gives_physics() -> None:
    static = expanded(Node("WoodenBox", size=(0.1, 0.1, 5.0)))
    assert static.get("physics") is None
    assert static.get("boundingObject").get("size") == (0.1, 0.1, 3.0)  # clamped to 3 m
    heavy = expanded(Node("WoodenBox", mass=2.5))
    assert heavy.get("physics").get("mass") == 2.5


def test_backgrounds_become_background_and_light() -> None:
    sky = expanded(Node("TexturedBackground", skybox=False, skyColor=[(0.1, 0.2, 0.3)]))
    assert sky.type_name == "Background" and sky.get("skyColor") == ((0.1, 0.2, 0.3),)
    light = expanded(Node("TexturedBackgroundLight", luminosity=2.0))
    assert light.type_name == "DirectionalLight" and light.get("intensity") == 2.0


def test_unknown_protos_stay_opaque_with_a_warning() -> None:
    world = read_world(os.path.join(WEBOTS, "e-puck.wbt"))
    opaque = [n.type_name for n in world.nodes if n.is_opaque]
    assert opaque == ["E-puck"]
    assert len([w for w in world.warnings if "opaque" in w]) == 1
    assert [n.type_name for n in world.nodes if not n.is_opaque].count("WoodenBox") == 5


@pytest.mark.parametrize("name", sorted(f for f in os.listdir(WEBOTS) if f.endswith(".wbt")))
def test_real_worlds_load_and_write_back(name: str) -> None:
    world = read_world(os.path.join(WEBOTS, name))
    text = format_world(world)
    again = parse_world(text)
    assert format_world(again) == text  # (floats are written to 15 digits: a fixpoint)
    instances = [n for n in world.iter_nodes() if n.type_name in STAND_INS]
    copies = [n for n in again.iter_nodes() if n.type_name in STAND_INS]
    assert all(not n.is_opaque for n in instances)
    assert len(copies) == len(instances)
    for a, b in zip(instances, copies, strict=True):
        written = [f for f in a.field_names() if not a.is_default(f)]
        assert [f for f in b.field_names() if not b.is_default(f)] == written
        for f in written:
            va, vb = a.get(f), b.get(f)
            if isinstance(va, tuple) and all(isinstance(v, float) for v in va):
                assert vb == pytest.approx(va, rel=1e-14, abs=1e-30)
            elif isinstance(va, BaseNode):
                assert tree_equal(va, vb)
            else:
                assert vb == va
