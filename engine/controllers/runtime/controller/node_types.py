"""Webots' node type constants (``Node.ROBOT``, ``Node.ROTATIONAL_MOTOR``...),
numbered in the order of Webots' ``WbNodeType`` enumeration."""

from __future__ import annotations

#: Node type names (Webots' node names) in enumeration order, from 0.
NODE_TYPE_NAMES = (
    "NO_NODE",
    "Appearance", "Background", "Billboard", "Box", "CadShape", "Capsule", "Color", "Cone",
    "Coordinate", "Cylinder", "DirectionalLight", "ElevationGrid", "Fog", "Group",
    "ImageTexture", "IndexedFaceSet", "IndexedLineSet", "Material", "Mesh", "Muscle",
    "Normal", "PBRAppearance", "Plane", "PointLight", "PointSet", "Pose", "Shape", "Sphere",
    "SpotLight", "TextureCoordinate", "TextureTransform", "Transform", "Viewpoint",
    "Robot",
    "Accelerometer", "Altimeter", "Brake", "Camera", "Compass", "Connector", "Display",
    "DistanceSensor", "Emitter", "GPS", "Gyro", "InertialUnit", "LED", "Lidar",
    "LightSensor", "LinearMotor", "Pen", "PositionSensor", "Propeller", "Radar",
    "RangeFinder", "Receiver", "RotationalMotor", "Skin", "Speaker", "TouchSensor",
    "VacuumGripper",
    "BallJoint", "BallJointParameters", "Charger", "ContactProperties", "Damping", "Fluid",
    "Focus", "HingeJoint", "HingeJointParameters", "Hinge2Joint", "ImmersionProperties",
    "JointParameters", "Lens", "LensFlare", "Physics", "Recognition", "SliderJoint", "Slot",
    "Solid", "SolidReference", "Track", "TrackWheel", "WorldInfo", "Zoom",
    "Microphone", "Radio",
)

#: Webots' constant name of a node type name: "RotationalMotor" -> "ROTATIONAL_MOTOR".
_SPECIAL = {"NO_NODE": "NO_NODE", "GPS": "GPS", "LED": "LED", "PBRAppearance": "PBR_APPEARANCE",
            "Hinge2Joint": "HINGE_2_JOINT", "CadShape": "CAD_SHAPE"}


def constant_name(type_name: str) -> str:
    """The ``Node.X`` constant name of a node type name."""
    if type_name in _SPECIAL:
        return _SPECIAL[type_name]
    out = []
    for i, ch in enumerate(type_name):
        if ch.isupper() and i and not type_name[i - 1].isupper():
            out.append("_")
        out.append(ch.upper())
    return "".join(out)


#: Node type name -> its number.
NODE_TYPE_NUMBERS = {name: i for i, name in enumerate(NODE_TYPE_NAMES)}


def node_type_number(type_name: str) -> int:
    """The number of a node type (0, NO_NODE, for types Webots does not list, e.g. PROTOs)."""
    return NODE_TYPE_NUMBERS.get(type_name, 0)
