"""The editable model: typed set/get, MF edits, notifications, DEF lookup, copy."""

from __future__ import annotations

import pytest

from engine.world import (
    FieldValueError,
    Node,
    StructureError,
    UseNode,
    World,
    allowed_node_types,
    parse_world,
    tree_equal,
)

H = "#VRML_SIM R2025a utf8\n"


def test_typed_set_get_and_coercion() -> None:
    solid = Node("Solid")
    solid.set("translation", [1, 2, 3])
    assert solid.get("translation") == (1.0, 2.0, 3.0)
    solid.set("locked", True)
    solid.set("name", "box")
    solid.set("translationStep", 1)
    assert solid.get("translationStep") == 1.0 and isinstance(solid.get("translationStep"), float)
    info = Node("WorldInfo", randomSeed=7, stepper="quickstep")
    assert info.get("randomSeed") == 7 and info.field("stepper").value == "quickstep"


@pytest.mark.parametrize(
    ("type_name", "field", "value", "words"),
    [
        ("Solid", "translation", (1, 2), ["translation", "Solid", "(1, 2)", "expected 3 numbers, got 2"]),
        ("Solid", "translation", "abc", ["translation", "expected 3 numbers"]),
        ("Solid", "locked", 1, ["locked", "expected TRUE or FALSE"]),
        ("Solid", "name", 5, ["name", "expected a string"]),
        ("Solid", "translationStep", float("nan"), ["translationStep", "finite"]),
        ("Solid", "translationStep", True, ["translationStep", "expected a number"]),
        ("WorldInfo", "randomSeed", 1.5, ["randomSeed", "expected an integer"]),
        ("WorldInfo", "randomSeed", 2**40, ["randomSeed", "32-bit"]),
        ("WorldInfo", "stepper", "fast", ["stepper", "'fast'", '"step", "quickstep"']),
        ("Background", "skyColor", [(1, 1)], ["skyColor", "expected 3 numbers"]),
        ("Solid", "physics", "Physics", ["physics", "expected a node"]),
    ],
)
def test_invalid_values_name_node_field_and_value(type_name, field, value, words) -> None:
    node = Node(type_name, def_name="N")
    before = node.get(field)
    with pytest.raises(FieldValueError) as info:
        node.set(field, value)
    message = str(info.value)
    for word in words:
        assert word in message
    assert "DEF N" in message
    assert node.get(field) == before


def test_unknown_field_and_type() -> None:
    with pytest.raises(FieldValueError, match="Solid has no field 'tranlation'"):
        Node("Solid").get("tranlation")
    with pytest.raises(StructureError, match="unknown node type 'Nope'"):
        Node("Nope")


def test_illegal_node_placement() -> None:
    shape = Node("Shape")
    with pytest.raises(StructureError, match="Solid is not allowed in field 'geometry' of Shape"):
        shape.set("geometry", Node("Solid"))
    box = Node("Box")
    shape.set("geometry", box)
    with pytest.raises(StructureError, match="already in the tree"):
        Node("Shape").set("geometry", box)
    group = Node("Group")
    inner = Node("Group")
    group.append("children", inner)
    with pytest.raises(StructureError, match="inside itself"):
        inner.append("children", group)
    assert allowed_node_types("Solid", "physics") == ("Physics",)
    assert "HingeJoint" in allowed_node_types("Robot", "children")
    assert allowed_node_types("HingeJoint", "device") == ("Brake", "PositionSensor", "RotationalMotor")


def test_mf_edits_and_field_view() -> None:
    group = Node("Group")
    a, b, c = Node("Pose"), Node("Shape"), Node("Solid")
    children = group.field("children")
    children.append(a)
    children.append(c)
    children.insert(1, b)
    assert list(children) == [a, b, c] and len(children) == 3 and children[1] is b
    assert b.parent is group and b.parent_field == "children"
    assert children.remove(0) is a
    assert a.parent is None
    group.remove_node(c)
    assert group.get("children") == (b,)
    info = Node("WorldInfo")
    info.append("info", "x")
    info.insert("info", 0, "w")
    assert info.get("info") == ("w", "x")
    with pytest.raises(FieldValueError, match="not an MF field"):
        info.append("title", "x")
    with pytest.raises(IndexError):
        info.insert("info", 5, "z")
    with pytest.raises(FieldValueError):
        info.append("info", 3)
    assert info.get("info") == ("w", "x")
    info.field("info").reset()
    assert info.is_default("info")


def test_notifications() -> None:
    world = parse_world(H + "WorldInfo {}\nDEF R Robot { children [ Pose {} ] }")
    fields, structure = [], []
    world.add_field_observer(lambda node, name, old, new: fields.append((node.type_name, name, old, new)))
    world.add_structure_observer(
        lambda event, parent, name, index, node: structure.append(
            (event, parent.type_name if parent else None, name, index, node.type_name)
        )
    )
    robot = world.find_by_def("R")
    robot.set("translation", (0, 0, 1))
    robot.set("translation", (0, 0, 1))  # no change: no notification
    pose = robot.get("children")[0]
    pose.set("translation", (1, 0, 0))
    shape = Node("Shape")
    robot.append("children", shape)
    robot.remove("children", 0)
    world.add_node(Node("Solid"))
    robot.def_name = "ROBOT"
    world.remove_node(shape)
    assert fields[0] == ("Robot", "translation", (0.0, 0.0, 0.0), (0.0, 0.0, 1.0))
    assert fields[1] == ("Pose", "translation", (0.0, 0.0, 0.0), (1.0, 0.0, 0.0))
    assert fields[2][:2] == ("Robot", "children") and len(fields[2][3]) == 2
    assert ("Robot", "DEF", "R", "ROBOT") in fields
    assert structure == [
        ("added", "Robot", "children", 1, "Shape"),
        ("removed", "Robot", "children", 0, "Pose"),
        ("added", None, None, 2, "Solid"),
        ("removed", "Robot", "children", 0, "Shape"),
    ]
    # detached nodes notify nobody
    pose.set("translation", (5, 5, 5))
    assert len(fields) == 6


DOTTED = H + """
DEF A Solid {
  name "a"
  children [
    DEF A Solid { name "inner a" }
    Pose {
      children [
        DEF B Solid {
          name "b"
          children [
            HingeJoint { endPoint DEF C Solid { name "c" boundingObject DEF D Box {} } }
          ]
        }
      ]
    }
    DEF P Pose {}
  ]
}
DEF B Solid { name "second b" physics DEF E Physics {} }
"""


@pytest.mark.parametrize(
    ("path", "name"),
    [
        ("A", "a"),
        ("A.A", "a"),  # the start node itself is tested first
        ("A.B", "b"),
        ("B", "b"),  # pre-order: the nested B comes before the root-level one
        ("A.C", "c"),  # a dot skips any number of nodes, through joint endPoints
        ("B.C", "c"),
        ("A.B.C", "c"),
        ("C", "c"),
        ("A.P", None),  # not a Solid
        ("D", None),  # boundingObject is not searched
        ("E", None),  # physics is not searched
        ("C.B", None),
        ("X", None),
        ("", None),
    ],
)
def test_dotted_def_lookup(path: str, name: str | None) -> None:
    world = parse_world(DOTTED)
    solid = world.find_solid_by_def(path)
    assert (solid.get("name") if solid is not None else None) == name


def test_find_by_def_any_type() -> None:
    world = parse_world(DOTTED)
    assert world.find_by_def("A.P").type_name == "Pose"
    assert world.find_by_def("D") is None


def test_iteration_helpers() -> None:
    world = parse_world(DOTTED)
    names = [s.get("name") for s in world.solids()]
    assert names == ["a", "inner a", "b", "c", "second b"]
    assert [n.type_name for n in world.nodes_of_type("Pose")] == ["Pose", "Pose"]
    all_types = [n.type_name for n in world.iter_nodes()]
    assert all_types.count("Box") == 1 and all_types.count("Physics") == 1
    robot_world = parse_world(H + "Robot { children [ Emitter {} ] }")
    assert [n.type_name for n in robot_world.solids()] == ["Robot", "Emitter"]
    assert robot_world.nodes_of_type("Solid", derived=False) == []


def test_use_nodes() -> None:
    world = parse_world(H + "Shape { geometry DEF G Box { size 1 1 1 } }\nShape { geometry USE G }")
    box = world.nodes[0].get("geometry")
    use = world.nodes[1].get("geometry")
    assert isinstance(use, UseNode) and use.target is box
    box.set("size", (3, 3, 3))
    assert use.get("size") == (3.0, 3.0, 3.0)
    with pytest.raises(StructureError, match="edit the DEF node"):
        use.set("size", (1, 1, 1))
    box.def_name = "GEOM"
    assert use.def_name == "GEOM"
    with pytest.raises(StructureError, match="USE of Solid nodes is not allowed"):
        UseNode(Node("Solid", def_name="S"))
    with pytest.raises(StructureError, match="no DEF name"):
        UseNode(Node("Box"))
    group = Node("Group", def_name="G2")
    with pytest.raises(StructureError, match="inside itself"):
        group.append("children", UseNode(group))


def test_def_name_validation() -> None:
    node = Node("Solid")
    for bad in ("A.B", "1A", "TRUE", "a b", ""):
        with pytest.raises(FieldValueError, match="invalid DEF name"):
            node.def_name = bad
    node.def_name = "OK_name-2"
    assert node.def_name == "OK_name-2"


def test_deep_copy_is_independent() -> None:
    world = parse_world(H + "DEF R Robot { children [ DEF S Shape { geometry Box {} } ] "
                             "boundingObject USE S physics Physics { mass 2 } }")
    robot = world.nodes[0]
    clone = robot.copy()
    assert tree_equal(clone, robot)
    clone.get("physics").set("mass", 3)
    assert robot.get("physics").get("mass") == 2.0
    assert not tree_equal(clone, robot)
    assert clone.get("boundingObject").target is clone.get("children")[0]
    world.add_node(clone)
    assert clone.world is world and len(world.nodes) == 2


def test_world_add_remove_root() -> None:
    world = World()
    solid = Node("Solid")
    world.add_node(solid)
    with pytest.raises(StructureError, match="already in a tree"):
        world.add_node(solid)
    with pytest.raises(StructureError, match="not allowed at the top level"):
        world.add_node(Node("Box"))
    world.remove_node(solid)
    assert world.nodes == () and solid.world is None
    with pytest.raises(StructureError, match="not in this world"):
        world.remove_node(solid)


def test_numpy_values_and_path() -> None:
    import numpy as np
    solid = Node("Solid")
    solid.set("translation", np.array([1.0, 2.0, 3.0]))
    assert solid.get("translation") == (1.0, 2.0, 3.0)
    assert all(type(v) is float for v in solid.get("translation"))
    info = Node("WorldInfo")
    info.set("randomSeed", np.int64(5))
    assert info.get("randomSeed") == 5 and type(info.get("randomSeed")) is int
    world = parse_world(H + "DEF R Robot { children [ HingeJoint { endPoint Solid {} } ] }")
    end = world.solids()[1]
    assert end.path() == "Robot (DEF R) > children > HingeJoint > endPoint > Solid"


class _Snapshot:
    """A `PoseSnapshot`: every row at ``translation``/``rotation``."""

    def __init__(self, epoch: int, translation: tuple, rotation: tuple) -> None:
        self.epoch, self.translation, self.rotation = epoch, translation, rotation
        self.reads = 0

    def pose(self, row: int) -> tuple[tuple, tuple]:
        self.reads += 1
        return self.translation, self.rotation


class _Feed:
    current = None


def test_a_pose_feed_gives_the_pose_fields_when_read() -> None:
    world = parse_world(H + "DEF R Robot { translation 1 2 3 }")
    fields = []
    world.add_field_observer(lambda node, name, old, new: fields.append(name))
    robot = world.find_by_def("R")
    feed = _Feed()
    robot.bind_pose_feed(feed, 0)
    assert robot.get("translation") == (1.0, 2.0, 3.0)          # nothing published yet
    feed.current = _Snapshot(1, (0.0, 0.0, 1.0), (0.0, 1.0, 0.0, 0.5))
    assert robot.get("translation") == (0.0, 0.0, 1.0)
    assert robot.get("rotation") == (0.0, 1.0, 0.0, 0.5)
    assert robot.get("name") == "robot" and feed.current.reads == 1   # read once per step
    assert fields == []                                             # pulled, not notified
    robot.set("translation", (5.0, 0.0, 0.0))                       # a user's edit is kept
    assert robot.get("translation") == (5.0, 0.0, 0.0)
    assert fields == ["translation"]
    feed.current = _Snapshot(2, (0.0, 0.0, 2.0), (0.0, 0.0, 1.0, 0.0))
    robot.bind_pose_feed(None)                                      # unbound: keeps what it read
    assert robot.get("translation") == (0.0, 0.0, 2.0)
    feed.current = _Snapshot(3, (9.0, 9.0, 9.0), (0.0, 0.0, 1.0, 0.0))
    assert robot.get("translation") == (0.0, 0.0, 2.0)
