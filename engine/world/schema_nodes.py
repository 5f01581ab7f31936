"""The node table behind `engine.world.schema`: field rows per node type.

Each entry is ``(type name, base types, rows)``; the first base's fields
come first (in its order), then the rows; a row that repeats an inherited
field name overrides its default in place. A row is
``(field name, field type, default[, allowed node types | string choices])``.
MF defaults are lists. Values follow Webots' `resources/nodes/*.wrl`.
"""

from __future__ import annotations

from engine.world.schema_devices import DEVICE_SOLIDS, DEVICE_TABLE
from engine.world.schema_protos import PROTO_ROOT, PROTO_TABLE

GEOMETRY = ("Box", "Sphere", "Capsule", "Cylinder", "Plane", "IndexedFaceSet",
            "ElevationGrid", "Mesh")
SOLIDS = ("Solid", "Robot", "Emitter", "Receiver", "DistanceSensor") + DEVICE_SOLIDS
LIGHTS = ("DirectionalLight", "PointLight", "SpotLight")
JOINTS = ("HingeJoint", "Hinge2Joint", "SliderJoint", "BallJoint")
GROUPS = ("Group", "Pose", "Transform")
# nodes legal in a `children` field
CHILDREN = GROUPS + SOLIDS + LIGHTS + JOINTS + ("Shape",) + GEOMETRY
# nodes legal at the top level of a world
ROOT = ("WorldInfo", "Viewpoint", "Background") + GROUPS + SOLIDS + LIGHTS + ("Shape",)
# nodes legal in a boundingObject
BOUNDING = GEOMETRY + ("Shape", "Pose", "Transform", "Group")
ROTATIONAL_DEVICES = ("RotationalMotor", "PositionSensor", "Brake")
LINEAR_DEVICES = ("LinearMotor", "PositionSensor", "Brake")
END_POINTS = SOLIDS + ("SolidReference",)
RADIO_TYPES = ("infra-red", "radio", "serial")

_SOLID_ROWS = [
    ("translation", "SFVec3f", (0.0, 0.0, 0.0)),
    ("rotation", "SFRotation", (0.0, 0.0, 1.0, 0.0)),
    ("children", "MFNode", [], CHILDREN),
    ("name", "SFString", "solid"),
    ("model", "SFString", ""),
    ("description", "SFString", ""),
    ("contactMaterial", "SFString", "default"),
    ("immersionProperties", "MFNode", [], ("ImmersionProperties",)),
    ("boundingObject", "SFNode", None, BOUNDING),
    ("physics", "SFNode", None, ("Physics",)),
    ("locked", "SFBool", False),
    ("translationStep", "SFFloat", 0.01),
    ("rotationStep", "SFFloat", 0.261799387),
    ("radarCrossSection", "SFFloat", 0.0),
    ("recognitionColors", "MFColor", []),
    ("linearVelocity", "SFVec3f", (0.0, 0.0, 0.0)),
    ("angularVelocity", "SFVec3f", (0.0, 0.0, 0.0)),
]

_JOINT_PARAM_ROWS = [
    ("position", "SFFloat", 0.0),
    ("axis", "SFVec3f", (0.0, 0.0, 1.0)),
    ("minStop", "SFFloat", 0.0),
    ("maxStop", "SFFloat", 0.0),
    ("springConstant", "SFFloat", 0.0),
    ("dampingConstant", "SFFloat", 0.0),
    ("staticFriction", "SFFloat", 0.0),
]

_MOTOR_ROWS = [
    ("acceleration", "SFFloat", -1.0),
    ("consumptionFactor", "SFFloat", 10.0),
    ("controlPID", "SFVec3f", (10.0, 0.0, 0.0)),
    ("maxVelocity", "SFFloat", 10.0),
    ("minPosition", "SFFloat", 0.0),
    ("maxPosition", "SFFloat", 0.0),
]

_LIGHT_ROWS = [
    ("ambientIntensity", "SFFloat", 0.0),
    ("attenuation", "SFVec3f", (1.0, 0.0, 0.0)),
    ("color", "SFColor", (1.0, 1.0, 1.0)),
    ("intensity", "SFFloat", 1.0),
    ("location", "SFVec3f", (0.0, 0.0, 0.0)),
    ("on", "SFBool", True),
    ("radius", "SFFloat", 100.0),
    ("castShadows", "SFBool", False),
]

NODE_TABLE: list[tuple[str, tuple[str, ...], list[tuple]]] = [
    ("WorldInfo", (), [
        ("info", "MFString", []),
        ("title", "SFString", ""),
        ("window", "SFString", "<none>"),
        ("gravity", "SFFloat", 9.81),
        ("CFM", "SFFloat", 0.00001),
        ("ERP", "SFFloat", 0.2),
        ("physics", "SFString", "<none>"),
        ("stepper", "SFString", "step", ("step", "quickstep")),
        ("basicTimeStep", "SFFloat", 32.0),
        ("FPS", "SFFloat", 60.0),
        ("optimalThreadCount", "SFInt32", 1),
        ("physicsDisableTime", "SFFloat", 1.0),
        ("physicsDisableLinearThreshold", "SFFloat", 0.01),
        ("physicsDisableAngularThreshold", "SFFloat", 0.01),
        ("defaultDamping", "SFNode", None, ("Damping",)),
        ("inkEvaporation", "SFFloat", 0.0),
        ("coordinateSystem", "SFString", "ENU", ("ENU", "NUE", "EUN")),
        ("gpsCoordinateSystem", "SFString", "local", ("local", "WGS84")),
        ("gpsReference", "SFVec3f", (0.0, 0.0, 0.0)),
        ("lineScale", "SFFloat", 0.1),
        ("dragForceScale", "SFFloat", 30.0),
        ("dragTorqueScale", "SFFloat", 5.0),
        ("randomSeed", "SFInt32", 0),
        ("contactProperties", "MFNode", [], ("ContactProperties",)),
    ]),
    ("Viewpoint", (), [
        ("fieldOfView", "SFFloat", 0.785398),
        ("orientation", "SFRotation", (0.0, 0.0, 1.0, 0.0)),
        ("position", "SFVec3f", (0.0, 0.0, 10.0)),
        ("description", "SFString", ""),
        ("near", "SFFloat", 0.05),
        ("far", "SFFloat", 0.0),
        ("exposure", "SFFloat", 1.0),
        ("follow", "SFString", ""),
        ("followType", "SFString", "Tracking Shot",
         ("None", "Tracking Shot", "Mounted Shot", "Pan and Tilt Shot")),
        ("followSmoothness", "SFFloat", 0.5),
        ("lensFlare", "SFNode", None, ("LensFlare",)),
        ("ambientOcclusionRadius", "SFFloat", 2.0),
        ("bloomThreshold", "SFFloat", 21.0),
    ]),
    ("Background", (), [
        ("skyColor", "MFColor", [[0.0, 0.0, 0.0]]),
        ("backUrl", "MFString", []),
        ("bottomUrl", "MFString", []),
        ("frontUrl", "MFString", []),
        ("leftUrl", "MFString", []),
        ("rightUrl", "MFString", []),
        ("topUrl", "MFString", []),
        ("backIrradianceUrl", "MFString", []),
        ("bottomIrradianceUrl", "MFString", []),
        ("frontIrradianceUrl", "MFString", []),
        ("leftIrradianceUrl", "MFString", []),
        ("rightIrradianceUrl", "MFString", []),
        ("topIrradianceUrl", "MFString", []),
        ("luminosity", "SFFloat", 1.0),
    ]),
    ("DirectionalLight", (), [
        ("ambientIntensity", "SFFloat", 0.0),
        ("color", "SFColor", (1.0, 1.0, 1.0)),
        ("direction", "SFVec3f", (0.0, 0.0, -1.0)),
        ("intensity", "SFFloat", 1.0),
        ("on", "SFBool", True),
        ("castShadows", "SFBool", False),
        ("castLensFlares", "SFBool", False),
    ]),
    ("PointLight", (), _LIGHT_ROWS),
    ("SpotLight", (), _LIGHT_ROWS[:2] + [("beamWidth", "SFFloat", 1.570796)]
     + _LIGHT_ROWS[2:3] + [("cutOffAngle", "SFFloat", 0.785398),
                           ("direction", "SFVec3f", (0.0, 0.0, -1.0))] + _LIGHT_ROWS[3:]),
    ("Group", (), [("children", "MFNode", [], CHILDREN)]),
    ("Pose", (), [
        ("translation", "SFVec3f", (0.0, 0.0, 0.0)),
        ("rotation", "SFRotation", (0.0, 0.0, 1.0, 0.0)),
        ("children", "MFNode", [], CHILDREN),
    ]),
    ("Transform", (), [
        ("translation", "SFVec3f", (0.0, 0.0, 0.0)),
        ("rotation", "SFRotation", (0.0, 0.0, 1.0, 0.0)),
        ("scale", "SFVec3f", (1.0, 1.0, 1.0)),
        ("children", "MFNode", [], CHILDREN),
    ]),
    ("Shape", (), [
        ("appearance", "SFNode", None, ("Appearance", "PBRAppearance")),
        ("geometry", "SFNode", None, GEOMETRY),
        ("castShadows", "SFBool", True),
        ("isPickable", "SFBool", True),
    ]),
    ("Appearance", (), [
        ("material", "SFNode", None, ("Material",)),
        ("texture", "SFNode", None, ("ImageTexture",)),
        ("textureTransform", "SFNode", None, ("TextureTransform",)),
        ("name", "SFString", "appearance"),
    ]),
    ("PBRAppearance", (), [
        ("baseColor", "SFColor", (1.0, 1.0, 1.0)),
        ("baseColorMap", "SFNode", None, ("ImageTexture",)),
        ("transparency", "SFFloat", 0.0),
        ("roughness", "SFFloat", 0.0),
        ("roughnessMap", "SFNode", None, ("ImageTexture",)),
        ("metalness", "SFFloat", 1.0),
        ("metalnessMap", "SFNode", None, ("ImageTexture",)),
        ("IBLStrength", "SFFloat", 1.0),
        ("normalMap", "SFNode", None, ("ImageTexture",)),
        ("normalMapFactor", "SFFloat", 1.0),
        ("occlusionMap", "SFNode", None, ("ImageTexture",)),
        ("occlusionMapStrength", "SFFloat", 1.0),
        ("emissiveColor", "SFColor", (0.0, 0.0, 0.0)),
        ("emissiveColorMap", "SFNode", None, ("ImageTexture",)),
        ("emissiveIntensity", "SFFloat", 1.0),
        ("textureTransform", "SFNode", None, ("TextureTransform",)),
        ("name", "SFString", "PBRAppearance"),
    ]),
    ("Material", (), [
        ("ambientIntensity", "SFFloat", 0.2),
        ("diffuseColor", "SFColor", (0.8, 0.8, 0.8)),
        ("emissiveColor", "SFColor", (0.0, 0.0, 0.0)),
        ("shininess", "SFFloat", 0.2),
        ("specularColor", "SFColor", (0.0, 0.0, 0.0)),
        ("transparency", "SFFloat", 0.0),
    ]),
    ("Box", (), [("size", "SFVec3f", (2.0, 2.0, 2.0))]),
    ("Sphere", (), [
        ("radius", "SFFloat", 1.0),
        ("subdivision", "SFInt32", 1),
        ("ico", "SFBool", True),
    ]),
    ("Capsule", (), [
        ("bottom", "SFBool", True),
        ("height", "SFFloat", 2.0),
        ("radius", "SFFloat", 1.0),
        ("side", "SFBool", True),
        ("top", "SFBool", True),
        ("subdivision", "SFInt32", 12),
    ]),
    ("Cylinder", (), [
        ("bottom", "SFBool", True),
        ("height", "SFFloat", 2.0),
        ("radius", "SFFloat", 1.0),
        ("side", "SFBool", True),
        ("top", "SFBool", True),
        ("subdivision", "SFInt32", 36),
    ]),
    ("Plane", (), [("size", "SFVec2f", (1.0, 1.0))]),
    ("Coordinate", (), [("point", "MFVec3f", [])]),
    ("IndexedFaceSet", (), [
        ("coord", "SFNode", None, ("Coordinate",)),
        ("normal", "SFNode", None, ("Normal",)),
        ("texCoord", "SFNode", None, ("TextureCoordinate",)),
        ("ccw", "SFBool", True),
        ("convex", "SFBool", True),
        ("normalPerVertex", "SFBool", True),
        ("coordIndex", "MFInt32", []),
        ("normalIndex", "MFInt32", []),
        ("texCoordIndex", "MFInt32", []),
        ("creaseAngle", "SFFloat", 0.0),
    ]),
    ("ElevationGrid", (), [
        ("color", "SFNode", None, ("Color",)),
        ("height", "MFFloat", []),
        ("texCoord", "SFNode", None, ("TextureCoordinate",)),
        ("thickness", "SFFloat", 1.0),
        ("xDimension", "SFInt32", 0),
        ("xSpacing", "SFFloat", 1.0),
        ("yDimension", "SFInt32", 0),
        ("ySpacing", "SFFloat", 1.0),
    ]),
    ("Mesh", (), [
        ("url", "MFString", []),
        ("ccw", "SFBool", True),
        ("name", "SFString", ""),
        ("materialIndex", "SFInt32", -1),
    ]),
    ("Physics", (), [
        ("density", "SFFloat", 1000.0),
        ("mass", "SFFloat", -1.0),
        ("centerOfMass", "MFVec3f", []),
        ("inertiaMatrix", "MFVec3f", []),
        ("damping", "SFNode", None, ("Damping",)),
    ]),
    ("Damping", (), [
        ("linear", "SFFloat", 0.2),
        ("angular", "SFFloat", 0.2),
    ]),
    ("ContactProperties", (), [
        ("material1", "SFString", "default"),
        ("material2", "SFString", "default"),
        ("coulombFriction", "MFFloat", [1.0]),
        ("frictionRotation", "SFVec2f", (0.0, 0.0)),
        ("rollingFriction", "SFVec3f", (0.0, 0.0, 0.0)),
        ("bounce", "SFFloat", 0.5),
        ("bounceVelocity", "SFFloat", 0.01),
        ("forceDependentSlip", "MFFloat", [0.0]),
        ("softERP", "SFFloat", 0.2),
        ("softCFM", "SFFloat", 0.001),
        ("bumpSound", "SFString", "sounds/bump.wav"),
        ("rollSound", "SFString", "sounds/roll.wav"),
        ("slideSound", "SFString", "sounds/slide.wav"),
        ("maxContactJoints", "SFInt32", 10),
    ]),
    ("JointParameters", (), _JOINT_PARAM_ROWS),
    ("HingeJointParameters", ("JointParameters",), [
        ("axis", "SFVec3f", (1.0, 0.0, 0.0)),
        ("anchor", "SFVec3f", (0.0, 0.0, 0.0)),
        ("suspensionSpringConstant", "SFFloat", 0.0),
        ("suspensionDampingConstant", "SFFloat", 0.0),
        ("suspensionAxis", "SFVec3f", (1.0, 0.0, 0.0)),
        ("stopERP", "SFFloat", -1.0),
        ("stopCFM", "SFFloat", -1.0),
    ]),
    ("BallJointParameters", (), [
        ("position", "SFFloat", 0.0),
        ("anchor", "SFVec3f", (0.0, 0.0, 0.0)),
        ("minStop", "SFFloat", 0.0),
        ("maxStop", "SFFloat", 0.0),
        ("springConstant", "SFFloat", 0.0),
        ("dampingConstant", "SFFloat", 0.0),
        ("staticFriction", "SFFloat", 0.0),
    ]),
    ("HingeJoint", (), [
        ("jointParameters", "SFNode", None, ("HingeJointParameters",)),
        ("device", "MFNode", [], ROTATIONAL_DEVICES),
        ("endPoint", "SFNode", None, END_POINTS),
        ("position", "SFFloat", 0.0),
    ]),
    ("SliderJoint", (), [
        ("jointParameters", "SFNode", None, ("JointParameters",)),
        ("jointLink", "SFNode", None, ("JointLink",)),
        ("device", "MFNode", [], LINEAR_DEVICES),
        ("endPoint", "SFNode", None, END_POINTS),
        ("position", "SFFloat", 0.0),
    ]),
    ("Hinge2Joint", (), [
        ("jointParameters", "SFNode", None, ("HingeJointParameters",)),
        ("jointParameters2", "SFNode", None, ("JointParameters",)),
        ("device", "MFNode", [], ROTATIONAL_DEVICES),
        ("device2", "MFNode", [], ROTATIONAL_DEVICES),
        ("endPoint", "SFNode", None, END_POINTS),
        ("position", "SFFloat", 0.0),
        ("position2", "SFFloat", 0.0),
    ]),
    ("BallJoint", (), [
        ("jointParameters", "SFNode", None, ("BallJointParameters",)),
        ("jointParameters2", "SFNode", None, ("JointParameters",)),
        ("jointParameters3", "SFNode", None, ("JointParameters",)),
        ("device", "MFNode", [], ROTATIONAL_DEVICES),
        ("device2", "MFNode", [], ROTATIONAL_DEVICES),
        ("device3", "MFNode", [], ROTATIONAL_DEVICES),
        ("endPoint", "SFNode", None, END_POINTS),
        ("position", "SFFloat", 0.0),
        ("position2", "SFFloat", 0.0),
        ("position3", "SFFloat", 0.0),
    ]),
    ("RotationalMotor", (), [("name", "SFString", "rotational motor")] + _MOTOR_ROWS + [
        ("maxTorque", "SFFloat", 10.0),
        ("multiplier", "SFFloat", 1.0),
        ("sound", "SFString", "sounds/rotational_motor.wav"),
        ("muscles", "MFNode", [], ("Muscle",)),
    ]),
    ("LinearMotor", (), [("name", "SFString", "linear motor")] + _MOTOR_ROWS + [
        ("maxForce", "SFFloat", 10.0),
        ("multiplier", "SFFloat", 1.0),
        ("sound", "SFString", "sounds/linear_motor.wav"),
        ("muscles", "MFNode", [], ("Muscle",)),
    ]),
    ("PositionSensor", (), [
        ("name", "SFString", "position sensor"),
        ("noise", "SFFloat", 0.0),
        ("resolution", "SFFloat", -1.0),
    ]),
    ("Solid", (), _SOLID_ROWS),
    ("Robot", ("Solid",), [
        ("name", "SFString", "robot"),
        ("controller", "SFString", "<generic>"),
        ("controllerArgs", "MFString", []),
        ("customData", "SFString", ""),
        ("supervisor", "SFBool", False),
        ("synchronization", "SFBool", True),
        ("battery", "MFFloat", []),
        ("cpuConsumption", "SFFloat", 10.0),
        ("selfCollision", "SFBool", False),
        ("window", "SFString", "<generic>"),
        ("remoteControl", "SFString", "<none>"),
    ]),
    ("Emitter", ("Solid",), [
        ("name", "SFString", "emitter"),
        ("type", "SFString", "radio", RADIO_TYPES),
        ("range", "SFFloat", -1.0),
        ("maxRange", "SFFloat", -1.0),
        ("aperture", "SFFloat", -1.0),
        ("channel", "SFInt32", 0),
        ("baudRate", "SFInt32", -1),
        ("byteSize", "SFInt32", 8),
        ("bufferSize", "SFInt32", -1),
        ("allowedChannels", "MFInt32", []),
    ]),
    ("Receiver", ("Solid",), [
        ("name", "SFString", "receiver"),
        ("type", "SFString", "radio", RADIO_TYPES),
        ("aperture", "SFFloat", -1.0),
        ("channel", "SFInt32", 0),
        ("baudRate", "SFInt32", -1),
        ("byteSize", "SFInt32", 8),
        ("bufferSize", "SFInt32", -1),
        ("signalStrengthNoise", "SFFloat", 0.0),
        ("directionNoise", "SFFloat", 0.0),
        ("allowedChannels", "MFInt32", []),
    ]),
    ("DistanceSensor", ("Solid",), [
        ("name", "SFString", "distance sensor"),
        ("lookupTable", "MFVec3f", [[0.0, 0.0, 0.0], [0.1, 1000.0, 0.0]]),
        ("type", "SFString", "generic", ("generic", "infra-red", "sonar", "laser")),
        ("numberOfRays", "SFInt32", 1),
        ("aperture", "SFFloat", 1.5708),
        ("gaussianWidth", "SFFloat", 1.0),
        ("resolution", "SFFloat", -1.0),
        ("redColorSensitivity", "SFFloat", 1.0),
    ]),
]
NODE_TABLE += DEVICE_TABLE

# built-in PROTO stand-ins (engine/world/schema_protos.py): interfaces, legal at the top level
NODE_TABLE += PROTO_TABLE
ROOT += PROTO_ROOT
