"""Schema consistency, field types and the package's import boundary."""

from __future__ import annotations

import subprocess
import sys

import pytest

from engine.world import (
    NODE_SPECS,
    ROOT_NODE_TYPES,
    Node,
    default_value,
    is_solid_type,
    use_forbidden,
)
from engine.world import fieldtypes as ft

# node types referenced by the schema that Odeon keeps as opaque nodes
OPAQUE_REFERENCED = {
    "ImageTexture", "TextureTransform", "Normal", "TextureCoordinate", "Color", "LensFlare",
    "ImmersionProperties", "SolidReference", "JointLink", "Muscle", "Lens", "Focus", "Zoom",
    "Recognition",
}

DESIGN_NODE_SET = {
    "WorldInfo", "Viewpoint", "Background", "DirectionalLight", "PointLight", "SpotLight",
    "Solid", "Robot", "Pose", "Transform", "Group", "Shape", "Appearance", "PBRAppearance",
    "Material", "Box", "Sphere", "Capsule", "Cylinder", "Plane", "IndexedFaceSet", "Coordinate",
    "ElevationGrid", "Mesh", "Physics", "Damping", "ContactProperties", "HingeJoint",
    "HingeJointParameters", "Hinge2Joint", "SliderJoint", "BallJoint", "JointParameters",
    "BallJointParameters", "Emitter", "Receiver", "RotationalMotor", "LinearMotor",
    "PositionSensor", "DistanceSensor",
}


def test_design_node_set_present() -> None:
    assert DESIGN_NODE_SET <= set(NODE_SPECS)


@pytest.mark.parametrize("type_name", sorted(NODE_SPECS))
def test_defaults_are_valid_values(type_name: str) -> None:
    for name, spec in NODE_SPECS[type_name].fields.items():
        assert spec.type in ft.ALL_TYPES
        if not spec.type.endswith("Node"):
            assert ft.normalize(spec.type, spec.default) == spec.default, name
        if spec.choices is not None:
            assert spec.default in spec.choices
        if spec.node_types is not None:
            assert spec.node_types <= set(NODE_SPECS) | OPAQUE_REFERENCED, name
    Node(type_name)  # constructible with defaults


def test_inheritance_and_use_rules() -> None:
    robot = list(NODE_SPECS["Robot"].fields)
    assert robot[: len(NODE_SPECS["Solid"].fields)] == list(NODE_SPECS["Solid"].fields)
    assert default_value("Robot", "name") == "robot"
    assert default_value("Emitter", "name") == "emitter"
    for device in ("Emitter", "Receiver", "DistanceSensor", "Robot"):
        assert is_solid_type(device) and use_forbidden(device)
    for joint in ("HingeJoint", "Hinge2Joint", "SliderJoint", "BallJoint", "HingeJointParameters",
                  "JointParameters", "BallJointParameters"):
        assert use_forbidden(joint)
    assert not use_forbidden("Box") and not use_forbidden("Shape")
    assert set(ROOT_NODE_TYPES) <= set(NODE_SPECS)


def test_normalize_rejects_bad_values() -> None:
    with pytest.raises(TypeError):
        ft.normalize("SFInt32", 1.0)
    with pytest.raises(ValueError):
        ft.normalize("SFRotation", (0, 0, 1))
    with pytest.raises(TypeError):
        ft.normalize("MFFloat", "123")
    assert ft.normalize("MFVec2f", [[1, 2]]) == ((1.0, 2.0),)
    assert ft.format_float(0.1 + 0.2) == "0.3"  # 15 significant digits (decision 0015)
    assert ft.format_float(1e-05) == "1e-05"
    assert ft.format_float(32.0) == "32"


def test_package_import_boundary() -> None:
    code = (
        "import sys, engine.world\n"
        "bad = [m for m in sys.modules if m.split('.')[0] in "
        "('numba', 'PySide6', 'OpenGL', 'pyqtgraph', 'app') or m.startswith('engine.ode')]\n"
        "print(bad)\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert result.stdout.strip() == "[]"


def test_docstring_examples_run() -> None:
    import doctest

    from engine.world import node

    result = doctest.testmod(node)
    assert result.attempted >= 4 and result.failed == 0
