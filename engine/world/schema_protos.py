"""Interfaces of the built-in PROTO stand-ins (`engine.world.protos`) for the node table.

Each interface lists the PROTO's fields with Webots' defaults, written from
the documented interface of the PROTO (R2023b, ENU; not copied from the
PROTO files, which are licensed for Webots only). Row format as in
`engine.world.schema_nodes`. SFNode defaults that are PROTOs in Webots
(``Parquetry``, ``BrushedAluminium``...) are NULL here: the stand-in then
draws its own plain colour.

`PROTO_TABLE` holds two entries per PROTO: the interface itself, then the
same name again with ``(name, base)`` as bases. `engine.world.schema` copies
the *first* base's fields, so the second entry keeps the interface's fields
(not the base's, e.g. not Solid's ``children``) while ``is_a(base)`` holds:
a RectangleArena is a Solid (legal in ``children``, found by
``findSolidByDef``), a TexturedBackgroundLight is a DirectionalLight.

This module imports nothing from `engine.world` (schema_nodes imports it).
"""

from __future__ import annotations

APPEARANCES = ("Appearance", "PBRAppearance")

_POSE_ROWS = [
    ("translation", "SFVec3f", (0.0, 0.0, 0.0)),
    ("rotation", "SFRotation", (0.0, 0.0, 1.0, 0.0)),
]

#: PROTO name -> (base node type, interface rows)
PROTO_INTERFACES: dict[str, tuple[str, list[tuple]]] = {
    "RectangleArena": ("Solid", _POSE_ROWS + [
        ("name", "SFString", "rectangle arena"),
        ("contactMaterial", "SFString", "default"),
        ("floorSize", "SFVec2f", (1.0, 1.0)),
        ("floorTileSize", "SFVec2f", (0.5, 0.5)),
        ("floorAppearance", "SFNode", None, APPEARANCES),
        ("wallThickness", "SFFloat", 0.01),
        ("wallHeight", "SFFloat", 0.1),
        ("wallAppearance", "SFNode", None, APPEARANCES),
    ]),
    "Floor": ("Solid", _POSE_ROWS + [
        ("name", "SFString", "floor"),
        ("contactMaterial", "SFString", "default"),
        ("size", "SFVec2f", (10.0, 10.0)),
        ("tileSize", "SFVec2f", (0.5, 0.5)),
        ("appearance", "SFNode", None, APPEARANCES),
    ]),
    "SolidBox": ("Solid", [
        ("translation", "SFVec3f", (0.0, 0.0, 1.0)),
        ("rotation", "SFRotation", (0.0, 0.0, 1.0, 0.0)),
        ("name", "SFString", "box"),
        ("size", "SFVec3f", (2.0, 2.0, 2.0)),
        ("contactMaterial", "SFString", "default"),
        ("appearance", "SFNode", None, APPEARANCES),
        ("physics", "SFNode", None, ("Physics",)),
        ("enableBoundingObject", "SFBool", True),
        ("castShadows", "SFBool", True),
    ]),
    "WoodenBox": ("Solid", [
        ("translation", "SFVec3f", (0.0, 0.0, 0.3)),
        ("rotation", "SFRotation", (0.0, 0.0, 1.0, 0.0)),
        ("name", "SFString", "wooden box"),
        ("size", "SFVec3f", (0.6, 0.6, 0.6)),
        ("mass", "SFFloat", 0.0),
        ("immersionProperties", "MFNode", [], ("ImmersionProperties",)),
        ("locked", "SFBool", False),
    ]),
    "TexturedBackground": ("Background", [
        ("texture", "SFString", "mountains"),
        ("luminosity", "SFFloat", 1.0),
        ("skybox", "SFBool", True),
        ("skyColor", "MFColor", [[0.0, 0.0, 0.0]]),
    ]),
    "TexturedBackgroundLight": ("DirectionalLight", [
        ("texture", "SFString", "mountains"),
        ("luminosity", "SFFloat", 1.0),
        ("castShadows", "SFBool", True),
    ]),
}


def _entries(name: str, base: str, rows: list[tuple]) -> list[tuple[str, tuple[str, ...], list]]:
    """The interface entry, then the re-declaration that adds ``base`` (module docstring)."""
    return [(name, (), rows), (name, (name, base), [])]


PROTO_TABLE: list[tuple[str, tuple[str, ...], list[tuple]]] = [
    entry for name, (base, rows) in PROTO_INTERFACES.items()
    for entry in _entries(name, base, rows)
]

#: the stand-ins are all legal at the top level of a world (their bases are)
PROTO_ROOT: tuple[str, ...] = tuple(PROTO_INTERFACES)
