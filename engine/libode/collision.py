"""Spaces, geoms and collision of the flat API over libode, for what the
reference scenes use: simple and hash spaces; sphere, box, capsule and plane
geoms; ``dCollide`` and ``dSpaceCollide``.

``dCollide(o1, o2, max_contacts)`` returns a list of
:class:`~engine.libode.structs.dContactGeom` (no flags/array/skip arguments),
``dSpaceCollide(space, data, callback)`` calls the Python
``callback(data, o1, o2)`` for each candidate pair; an exception raised in
the callback is re-raised once ODE has returned.
"""

from __future__ import annotations

import ctypes
from collections.abc import Callable
from ctypes import CFUNCTYPE, POINTER, c_double, c_int, c_void_p

import numpy as np

from engine.libode.handles import BODIES, GEOMS, Handle
from engine.libode.loader import bind
from engine.libode.structs import CContactGeom, dContactGeom, vector3

NEAR_CALLBACK = CFUNCTYPE(None, c_void_p, c_void_p, c_void_p)
CONTACT_COUNT_MASK = 0xFFFF           # dCollide's flags: low 16 bits = max contacts

_simple_space_create = bind("dSimpleSpaceCreate", c_void_p, c_void_p)
_hash_space_create = bind("dHashSpaceCreate", c_void_p, c_void_p)
_space_destroy = bind("dSpaceDestroy", None, c_void_p)
_space_collide = bind("dSpaceCollide", None, c_void_p, c_void_p, NEAR_CALLBACK)
_collide = bind("dCollide", c_int, c_void_p, c_void_p, c_int, POINTER(CContactGeom), c_int)
_create_sphere = bind("dCreateSphere", c_void_p, c_void_p, c_double)
_create_box = bind("dCreateBox", c_void_p, c_void_p, c_double, c_double, c_double)
_create_capsule = bind("dCreateCapsule", c_void_p, c_void_p, c_double, c_double)
_create_plane = bind("dCreatePlane", c_void_p, c_void_p, c_double, c_double, c_double, c_double)
_geom_destroy = bind("dGeomDestroy", None, c_void_p)
_geom_set_body = bind("dGeomSetBody", None, c_void_p, c_void_p)
_geom_get_body = bind("dGeomGetBody", c_void_p, c_void_p)
_geom_get_class = bind("dGeomGetClass", c_int, c_void_p)
_geom_set_position = bind("dGeomSetPosition", None, c_void_p, c_double, c_double, c_double)
_geom_get_position = bind("dGeomGetPosition", POINTER(c_double), c_void_p)
_geom_get_aabb = bind("dGeomGetAABB", None, c_void_p, c_double * 6)


# --- spaces ------------------------------------------------------------------
def dSimpleSpaceCreate(parent: Handle | None) -> Handle:
    """A simple (all pairs) space, inside ``parent`` unless None."""
    return GEOMS.new(_simple_space_create(parent))


def dHashSpaceCreate(parent: Handle | None) -> Handle:
    """A multi-resolution hash space (default levels), inside ``parent`` unless None."""
    return GEOMS.new(_hash_space_create(parent))


def dSpaceDestroy(space: Handle) -> None:
    """Destroy the space and (cleanup mode, the default) the geoms in it."""
    _space_destroy(space)


def dSpaceCollide(space: Handle, data: object,
                  callback: Callable[[object, Handle, Handle], None]) -> None:
    """Call ``callback(data, o1, o2)`` for every pair of geoms in the space
    whose bounding boxes overlap."""
    errors: list[BaseException] = []

    def near(_data: int | None, o1: int, o2: int) -> None:
        if errors:
            return
        try:
            callback(data, GEOMS.find(o1), GEOMS.find(o2))
        except BaseException as exc:   # noqa: BLE001 - re-raised below, outside C
            errors.append(exc)

    _space_collide(space, None, NEAR_CALLBACK(near))
    if errors:
        raise errors[0]


# --- geoms -------------------------------------------------------------------
def dCreateSphere(space: Handle | None, radius: float) -> Handle:
    """A sphere geom of ``radius`` m."""
    return GEOMS.new(_create_sphere(space, radius))


def dCreateBox(space: Handle | None, lx: float, ly: float, lz: float) -> Handle:
    """A box geom with side lengths (m)."""
    return GEOMS.new(_create_box(space, lx, ly, lz))


def dCreateCapsule(space: Handle | None, radius: float, length: float) -> Handle:
    """A capsule geom along its local z: radius and cylinder length (m)."""
    return GEOMS.new(_create_capsule(space, radius, length))


def dCreatePlane(space: Handle | None, a: float, b: float, c: float, d: float) -> Handle:
    """The plane a x + b y + c z = d (non-placeable)."""
    return GEOMS.new(_create_plane(space, a, b, c, d))


def dGeomDestroy(g: Handle) -> None:
    """Destroy a geom (removing it from its space)."""
    _geom_destroy(g)


def dGeomSetBody(g: Handle, b: Handle | None) -> None:
    """Attach the geom to a body (None: detach, keeping its pose)."""
    _geom_set_body(g, b)


def dGeomGetBody(g: Handle) -> Handle | None:
    """The geom's body; None for a static geom."""
    return BODIES.find(_geom_get_body(g))


def dGeomGetClass(g: Handle) -> int:
    """The geom's class constant (dSphereClass, dBoxClass, ...)."""
    return _geom_get_class(g)


def dGeomSetPosition(g: Handle, x: float, y: float, z: float) -> None:
    """Position (m) of a placeable geom (moves its body too)."""
    _geom_set_position(g, x, y, z)


def dGeomGetPosition(g: Handle) -> np.ndarray:
    """Position (3,) m of a placeable geom."""
    return vector3(_geom_get_position(g)[:3])


def dGeomGetAABB(g: Handle) -> tuple[float, float, float, float, float, float]:
    """Axis-aligned bounding box (minx, maxx, miny, maxy, minz, maxz) in m."""
    out = (c_double * 6)()
    _geom_get_aabb(g, out)
    return tuple(out[:])


# --- narrow phase --------------------------------------------------------------
def dCollide(o1: Handle, o2: Handle, max_contacts: int) -> list[dContactGeom]:
    """Up to ``max_contacts`` contact points between two geoms; each normal
    points into o1, ``g1``/``g2`` are the geoms as ODE reports them."""
    buf = (CContactGeom * max_contacts)()
    n = _collide(o1, o2, max_contacts & CONTACT_COUNT_MASK, buf, ctypes.sizeof(CContactGeom))
    return [dContactGeom(vector3(c.pos), vector3(c.normal), c.depth, GEOMS.find(c.g1),
                         GEOMS.find(c.g2), c.side1, c.side2) for c in buf[:n]]

