"""Device nodes of the schema: sensors, LED, Camera (Solid-derived) and Brake.

Same row format as `engine.world.schema_nodes` (``(type name, base types,
rows)``; a row is ``(field name, field type, default[, allowed node types |
string choices])``); `schema_nodes` appends `DEVICE_TABLE` to its table and
lists `DEVICE_SOLIDS` among the Solids. The Solid-derived devices inherit
Solid's fields and override ``name``. Field names and defaults follow
Webots' ``resources/nodes/*.wrl`` (R2023b-era); deprecated fields
(InertialUnit's lookupTable, Camera's spherical) are not listed.
"""

from __future__ import annotations

#: device types that derive from Solid (legal in ``children``)
DEVICE_SOLIDS = ("TouchSensor", "Accelerometer", "Gyro", "InertialUnit", "GPS", "Compass",
                 "LED", "Camera")

TOUCH_TYPES = ("bumper", "force", "force-3d")
GPS_TYPES = ("satellite", "laser")
CAMERA_PROJECTIONS = ("planar", "cylindrical", "spherical")

_AXES = [
    ("xAxis", "SFBool", True),
    ("yAxis", "SFBool", True),
    ("zAxis", "SFBool", True),
]

# Accelerometer, Gyro and Compass: an empty table (raw values), three axes, resolution
_VECTOR_SENSOR_ROWS = [("lookupTable", "MFVec3f", [])] + _AXES + [
    ("resolution", "SFFloat", -1.0),
]

DEVICE_TABLE: list[tuple[str, tuple[str, ...], list[tuple]]] = [
    ("TouchSensor", ("Solid",), [
        ("name", "SFString", "touch sensor"),
        ("type", "SFString", "bumper", TOUCH_TYPES),
        ("lookupTable", "MFVec3f", [[0.0, 0.0, 0.0], [5000.0, 50000.0, 0.0]]),
        ("resolution", "SFFloat", -1.0),
    ]),
    ("Accelerometer", ("Solid",), [("name", "SFString", "accelerometer")]
     + _VECTOR_SENSOR_ROWS),
    ("Gyro", ("Solid",), [("name", "SFString", "gyro")] + _VECTOR_SENSOR_ROWS),
    ("Compass", ("Solid",), [("name", "SFString", "compass")] + _VECTOR_SENSOR_ROWS),
    ("InertialUnit", ("Solid",), [
        ("name", "SFString", "inertial unit"),
        ("noise", "SFFloat", 0.0),
    ] + _AXES + [("resolution", "SFFloat", -1.0)]),
    ("GPS", ("Solid",), [
        ("name", "SFString", "gps"),
        ("type", "SFString", "satellite", GPS_TYPES),
        ("accuracy", "SFFloat", 0.0),
        ("noiseCorrelation", "SFFloat", 0.0),
        ("resolution", "SFFloat", -1.0),
        ("speedNoise", "SFFloat", 0.0),
        ("speedResolution", "SFFloat", -1.0),
    ]),
    ("LED", ("Solid",), [
        ("name", "SFString", "led"),
        ("color", "MFColor", [[1.0, 0.0, 0.0]]),
        ("gradual", "SFBool", False),
    ]),
    ("Camera", ("Solid",), [
        ("name", "SFString", "camera"),
        ("fieldOfView", "SFFloat", 0.785398),
        ("width", "SFInt32", 64),
        ("height", "SFInt32", 64),
        ("projection", "SFString", "planar", CAMERA_PROJECTIONS),
        ("near", "SFFloat", 0.01),
        ("far", "SFFloat", 0.0),
        ("exposure", "SFFloat", 1.0),
        ("antiAliasing", "SFBool", False),
        ("ambientOcclusionRadius", "SFFloat", 0.0),
        ("bloomThreshold", "SFFloat", -1.0),
        ("motionBlur", "SFFloat", 0.0),
        ("noise", "SFFloat", 0.0),
        ("noiseMaskUrl", "SFString", ""),
        ("lens", "SFNode", None, ("Lens",)),
        ("focus", "SFNode", None, ("Focus",)),
        ("zoom", "SFNode", None, ("Zoom",)),
        ("recognition", "SFNode", None, ("Recognition",)),
        ("lensFlare", "SFNode", None, ("LensFlare",)),
    ]),
    # a joint device (HingeJoint.device etc.), not a Solid
    ("Brake", (), [("name", "SFString", "brake")]),
]
