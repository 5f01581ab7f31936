"""The device nodes of the schema: Webots' field names, order and defaults."""

from __future__ import annotations

import pytest

from engine.world import NODE_SPECS, default_value, is_solid_type, parse_world, use_forbidden
from engine.world.schema_devices import DEVICE_SOLIDS

H = "#VRML_SIM R2025a utf8\n"

# the fields after Solid's, in Webots' order (resources/nodes/<type>.wrl), with defaults
WEBOTS_FIELDS = {
    "TouchSensor": [("type", "bumper"), ("lookupTable", ((0.0, 0.0, 0.0), (5000.0, 50000.0, 0.0))),
                    ("resolution", -1.0)],
    "Accelerometer": [("lookupTable", ()), ("xAxis", True), ("yAxis", True), ("zAxis", True),
                      ("resolution", -1.0)],
    "Gyro": [("lookupTable", ()), ("xAxis", True), ("yAxis", True), ("zAxis", True),
             ("resolution", -1.0)],
    "Compass": [("lookupTable", ()), ("xAxis", True), ("yAxis", True), ("zAxis", True),
                ("resolution", -1.0)],
    "InertialUnit": [("noise", 0.0), ("xAxis", True), ("yAxis", True), ("zAxis", True),
                     ("resolution", -1.0)],
    "GPS": [("type", "satellite"), ("accuracy", 0.0), ("noiseCorrelation", 0.0),
            ("resolution", -1.0), ("speedNoise", 0.0), ("speedResolution", -1.0)],
    "LED": [("color", ((1.0, 0.0, 0.0),)), ("gradual", False)],
    "Camera": [("fieldOfView", 0.785398), ("width", 64), ("height", 64), ("projection", "planar"),
               ("near", 0.01), ("far", 0.0), ("exposure", 1.0), ("antiAliasing", False),
               ("ambientOcclusionRadius", 0.0), ("bloomThreshold", -1.0), ("motionBlur", 0.0),
               ("noise", 0.0), ("noiseMaskUrl", ""), ("lens", None), ("focus", None),
               ("zoom", None), ("recognition", None), ("lensFlare", None)],
}
NAMES = {"TouchSensor": "touch sensor", "Accelerometer": "accelerometer", "Gyro": "gyro",
         "Compass": "compass", "InertialUnit": "inertial unit", "GPS": "gps", "LED": "led",
         "Camera": "camera"}


@pytest.mark.parametrize("type_name", sorted(WEBOTS_FIELDS))
def test_solid_devices_have_webots_fields_and_defaults(type_name: str) -> None:
    spec = NODE_SPECS[type_name]
    solid = list(NODE_SPECS["Solid"].fields)
    fields = list(spec.fields)
    assert fields[: len(solid)] == solid
    assert fields[len(solid):] == [name for name, _ in WEBOTS_FIELDS[type_name]]
    for name, default in WEBOTS_FIELDS[type_name]:
        assert default_value(type_name, name) == default, name
    assert default_value(type_name, "name") == NAMES[type_name]
    assert is_solid_type(type_name) and use_forbidden(type_name)


def test_enumerated_strings_are_webots_choices() -> None:
    assert NODE_SPECS["TouchSensor"].fields["type"].choices == ("bumper", "force", "force-3d")
    assert NODE_SPECS["GPS"].fields["type"].choices == ("satellite", "laser")
    assert NODE_SPECS["Camera"].fields["projection"].choices == (
        "planar", "cylindrical", "spherical")


def test_brake_is_a_joint_device_not_a_solid() -> None:
    assert list(NODE_SPECS["Brake"].fields) == ["name"]
    assert default_value("Brake", "name") == "brake"
    assert not is_solid_type("Brake")
    world = parse_world(H + "Solid { children [ HingeJoint { device [ Brake { name \"b\" } "
                            "RotationalMotor { } ] } ] }")
    assert world.warnings == []
    brake = world.nodes_of_type("Brake")[0]
    assert brake.get("name") == "b" and not brake.is_opaque


def test_devices_are_children_of_robots_and_parse_their_fields() -> None:
    devices = " ".join(f"{t} {{ name \"{t.lower()}\" }}" for t in DEVICE_SOLIDS)
    world = parse_world(H + f"Robot {{ children [ {devices} "
                            "TouchSensor { type \"force-3d\" lookupTable [] resolution 0.5 } ] }")
    assert world.warnings == []
    for t in DEVICE_SOLIDS:
        node = world.nodes_of_type(t, derived=False)[0]
        assert not node.is_opaque and node.is_a("Solid")
    touch = world.nodes_of_type("TouchSensor")[1]
    assert touch.get("type") == "force-3d"
    assert touch.get("lookupTable") == ()
    assert touch.get("resolution") == 0.5


def test_existing_devices_keep_webots_defaults() -> None:
    assert default_value("DistanceSensor", "lookupTable") == ((0.0, 0.0, 0.0), (0.1, 1000.0, 0.0))
    assert default_value("DistanceSensor", "aperture") == 1.5708
    assert default_value("DistanceSensor", "numberOfRays") == 1
    assert default_value("PositionSensor", "resolution") == -1.0
    assert default_value("RotationalMotor", "maxTorque") == 10.0
    assert default_value("Receiver", "signalStrengthNoise") == 0.0
    assert default_value("Emitter", "range") == -1.0
