"""Parsing: every node type of the schema, every field type, DEF/USE, PROTOs, defaults."""

from __future__ import annotations

import math

import pytest

from engine.world import (
    NODE_SPECS,
    Node,
    OpaqueNode,
    UseNode,
    parse_world,
    read_world,
    tree_equal,
)
from engine.world import fieldtypes as ft

H = "#VRML_SIM R2025a utf8\n"


def first(text: str) -> Node:
    return parse_world(H + text).nodes[0]  # type: ignore[return-value]


def wrap(type_name: str, body: str = "") -> str:
    """Text placing a node of ``type_name`` somewhere it is legal."""
    node = f"{type_name} {{ {body} }}"
    containers = {
        "Box": "Shape {{ geometry {} }}",
        "Appearance": "Shape {{ appearance {} }}",
        "Material": "Shape {{ appearance Appearance {{ material {} }} }}",
        "Coordinate": "Shape {{ geometry IndexedFaceSet {{ coord {} }} }}",
        "Physics": "Solid {{ physics {} }}",
        "Damping": "WorldInfo {{ defaultDamping {} }}",
        "ContactProperties": "WorldInfo {{ contactProperties [ {} ] }}",
        "HingeJointParameters": "Solid {{ children [ HingeJoint {{ jointParameters {} }} ] }}",
        "JointParameters": "Solid {{ children [ SliderJoint {{ jointParameters {} }} ] }}",
        "BallJointParameters": "Solid {{ children [ BallJoint {{ jointParameters {} }} ] }}",
        "RotationalMotor": "Solid {{ children [ HingeJoint {{ device [ {} ] }} ] }}",
        "LinearMotor": "Solid {{ children [ SliderJoint {{ device [ {} ] }} ] }}",
        "PositionSensor": "Solid {{ children [ HingeJoint {{ device [ {} ] }} ] }}",
        "Brake": "Solid {{ children [ HingeJoint {{ device [ {} ] }} ] }}",
    }
    geometry = {"Sphere", "Capsule", "Cylinder", "Plane", "IndexedFaceSet", "ElevationGrid", "Mesh"}
    joints = {"HingeJoint", "Hinge2Joint", "SliderJoint", "BallJoint"}
    if type_name in geometry:
        return containers["Box"].format(node)
    if type_name == "PBRAppearance":
        return containers["Appearance"].format(node)
    if type_name in joints:
        return f"Solid {{ children [ {node} ] }}"
    return containers.get(type_name, "{}").format(node)


def find(world, type_name: str) -> Node:
    nodes = world.nodes_of_type(type_name, derived=False)
    assert len(nodes) == 1
    return nodes[0]


@pytest.mark.parametrize("type_name", sorted(NODE_SPECS))
def test_every_node_type_parses_with_defaults(type_name: str) -> None:
    world = parse_world(H + wrap(type_name))
    node = find(world, type_name)
    assert node.type_name == type_name
    for name, spec in NODE_SPECS[type_name].fields.items():
        assert node.get(name) == spec.default
        assert node.is_default(name)
    assert world.warnings == []


def test_webots_defaults() -> None:
    info = first("WorldInfo {}")
    assert info.get("gravity") == 9.81
    assert info.get("CFM") == 1e-5
    assert info.get("ERP") == 0.2
    assert info.get("basicTimeStep") == 32.0
    assert info.get("physics") == "<none>"
    assert info.get("stepper") == "step"
    assert info.get("coordinateSystem") == "ENU"
    assert info.get("defaultDamping") is None
    assert info.get("contactProperties") == ()
    solid = first("Solid {}")
    assert solid.get("rotation") == (0.0, 0.0, 1.0, 0.0)
    assert solid.get("name") == "solid"
    assert solid.get("contactMaterial") == "default"
    robot = first("Robot {}")
    assert robot.get("name") == "robot"
    assert robot.get("controller") == "<generic>"
    assert robot.is_a("Solid")
    hinge = parse_world(H + wrap("HingeJointParameters")).nodes_of_type("HingeJointParameters")[0]
    assert hinge.get("axis") == (1.0, 0.0, 0.0)
    slider = parse_world(H + wrap("JointParameters")).nodes_of_type("JointParameters")[0]
    assert slider.get("axis") == (0.0, 0.0, 1.0)
    contact = parse_world(H + wrap("ContactProperties")).nodes_of_type("ContactProperties")[0]
    assert contact.get("coulombFriction") == (1.0,)
    assert contact.get("bounce") == 0.5
    assert contact.get("softCFM") == 0.001
    assert contact.get("maxContactJoints") == 10


def test_every_field_type() -> None:
    world = parse_world(
        H
        + """
WorldInfo {
  info [ "a" "b" ]
  gravity 3
  optimalThreadCount 4
  physics "p"
  stepper "quickstep"
  contactProperties [ ContactProperties { coulombFriction [ 0.5 2 ] frictionRotation 0.1 -0.2 } ]
}
Background { skyColor [ 0.1 0.2 0.3, 1 1 1 ] }
Solid {
  translation 1 2 3
  rotation 0 1 0 1.5707963267948966
  locked TRUE
  recognitionColors [ 1 0 0 ]
  children [ Shape { geometry Plane { size 2 3 } } ]
  boundingObject NULL
}
Robot { battery [ 1 2 3 ] controllerArgs "--x" }
Solid { children [ Shape { geometry IndexedFaceSet {
  coord Coordinate { point [ 0 0 0, 1 0 0, 0 1 0 ] } coordIndex [ 0 1 2 -1 ] } } ] }
"""
    )
    info, background, solid, robot, mesh_solid = world.nodes
    assert info.get("info") == ("a", "b")
    assert info.get("gravity") == 3.0 and isinstance(info.get("gravity"), float)
    assert info.get("optimalThreadCount") == 4
    assert info.get("stepper") == "quickstep"
    contact = info.get("contactProperties")[0]
    assert contact.get("coulombFriction") == (0.5, 2.0)
    assert contact.get("frictionRotation") == (0.1, -0.2)
    assert background.get("skyColor") == ((0.1, 0.2, 0.3), (1.0, 1.0, 1.0))
    assert solid.get("translation") == (1.0, 2.0, 3.0)
    assert solid.get("rotation") == (0.0, 1.0, 0.0, 1.5707963267948966)
    assert solid.get("locked") is True
    assert solid.get("recognitionColors") == ((1.0, 0.0, 0.0),)
    assert solid.get("boundingObject") is None
    plane = solid.get("children")[0].get("geometry")
    assert plane.get("size") == (2.0, 3.0)
    assert plane.parent.type_name == "Shape" and plane.parent_field == "geometry"
    assert robot.get("battery") == (1.0, 2.0, 3.0)
    assert robot.get("controllerArgs") == ("--x",)  # MF value without brackets
    ifs = mesh_solid.get("children")[0].get("geometry")
    assert ifs.get("coordIndex") == (0, 1, 2, -1)
    assert ifs.get("coord").get("point") == ((0, 0, 0), (1, 0, 0), (0, 1, 0))


def test_hex_integer() -> None:
    info = first("WorldInfo { randomSeed 0x10 }")
    assert info.get("randomSeed") == 16


def test_def_use_shares_node() -> None:
    world = parse_world(
        H + "DEF S Solid { children [ DEF SH Shape { geometry DEF G Box { size 1 2 3 } } ]"
        " boundingObject USE G }\nSolid { name \"b\" children [ USE SH ] }"
    )
    first_solid, second = world.nodes
    use_g = first_solid.get("boundingObject")
    assert isinstance(use_g, UseNode)
    assert use_g.target is first_solid.get("children")[0].get("geometry")
    assert use_g.get("size") == (1.0, 2.0, 3.0)
    assert use_g.def_name == "G" and use_g.parent is first_solid
    use_sh = second.get("children")[0]
    assert isinstance(use_sh, UseNode) and use_sh.type_name == "Shape"


def test_redefined_def_shadows_earlier_one() -> None:
    world = parse_world(
        H + "Group { children [ DEF B Box { size 1 1 1 } ] }\n"
        "Shape { geometry USE B }\n"
        "Group { children [ DEF B Box { size 2 2 2 } ] }\n"
        "Shape { geometry USE B }\n"
    )
    assert world.nodes[1].get("geometry").get("size") == (1.0, 1.0, 1.0)
    assert world.nodes[3].get("geometry").get("size") == (2.0, 2.0, 2.0)


def test_externproto_kept() -> None:
    world = parse_world(
        H + 'EXTERNPROTO "https://x/y/A.proto"\nIMPORTABLE EXTERNPROTO "../protos/B.proto"\n'
    )
    assert [(p.url, p.importable) for p in world.externprotos] == [
        ("https://x/y/A.proto", False),
        ("../protos/B.proto", True),
    ]
    assert world.version == "R2025a"


def test_opaque_proto_kept_verbatim(worlds_dir) -> None:
    world = read_world(worlds_dir / "unknown_proto.wbt")
    blimp = world.find_by_def("blimp_lis")
    assert isinstance(blimp, OpaqueNode) and blimp.type_name == "Blimp"
    assert "rotation 0 0 1 0.3 # heading" in blimp.text
    assert blimp.text.startswith("Blimp {\n  translation -3.59 -1.28 1.196\n")
    assert blimp.text.endswith("\n}")
    # TexturedBackground and RectangleArena have built-in stand-ins (engine/world/protos)
    assert len(world.warnings) == 2
    assert "unknown_proto.wbt:22:15: PROTO 'Blimp'" in world.warnings[0]
    assert "unknown node type 'ImageTexture'" in world.warnings[1]
    appearance = world.nodes[-1].get("children")[0].get("appearance")
    assert isinstance(appearance.get("texture"), OpaqueNode)


def test_use_of_def_inside_opaque_node_stays_opaque() -> None:
    world = parse_world(H + "Foo { slot [ DEF IN Box {} ] }\nShape { geometry USE IN }")
    use = world.nodes[1].get("geometry")
    assert isinstance(use, OpaqueNode) and use.text == "USE IN"


def test_hidden_fields_kept() -> None:
    node = first("Robot {\n  hidden position_0_0 0.5\n  hidden linearVelocity_0 1 2 3\n}")
    assert node.hidden == [("position_0_0", "0.5"), ("linearVelocity_0", "1 2 3")]


def test_sample_worlds_parse(worlds_dir) -> None:
    world = read_world(worlds_dir / "hinge_robot.wbt")
    assert world.filename.endswith("hinge_robot.wbt")
    assert [s.get("name") for s in world.solids()][:4] == ["floor", "MyBot", "left wing", "right wing"]
    robot = world.find_solid_by_def("ROBOT")
    assert robot.get("selfCollision") is True
    bo = robot.get("boundingObject")
    assert bo.type_name == "Group" and len(bo.get("children")) == 2
    contact = read_world(worlds_dir / "contact_properties.wbt")
    info = contact.world_info
    assert info.get("stepper") == "quickstep"
    props = info.get("contactProperties")
    assert props[1].get("coulombFriction") == (2.0, 0.5)
    assert props[1].get("maxContactJoints") == 4
    assert info.get("defaultDamping").get("angular") == 0.3


def test_copy_equals_original(worlds_dir) -> None:
    world = read_world(worlds_dir / "hinge_robot.wbt")
    robot = world.find_by_def("ROBOT")
    clone = robot.copy()
    assert clone is not robot and clone.parent is None and clone.world is None
    assert tree_equal(clone, robot)
    # USE nodes inside the copy point into the copy
    wing = clone.get("children")[1].get("endPoint")
    use = wing.get("boundingObject")
    assert isinstance(use, UseNode) and use.target is wing.get("children")[0].get("geometry")


def test_float_values_are_exact() -> None:
    node = first("Solid { translation 0.1 1e-05 -0 }")
    assert node.get("translation") == (0.1, 1e-05, 0.0)
    assert math.copysign(1.0, node.get("translation")[2]) == -1.0
    assert ft.format_float(node.get("translation")[2]) == "0"  # written without the sign
