"""Geometry transforms (deprecated in ODE in favour of geom offsets).

A geom transform is a placeable geom that encapsulates one other geom (its
"object"). The object is not in a space and has no body; its own position
and rotation are read *relative to the transform*, so in the world it sits
at ``p = R_t p_obj + p_t`` with rotation ``R_t R_obj``. The transform's
bounding box is the object's at that pose, and colliding the transform
collides the object at that pose.

Options, as ODE 0.16.2: ``cleanup`` (default 0; non-zero: destroying the
transform, or replacing its object, destroys the object) and ``info``
(default 0: contacts name the object as their g1/g2; non-zero: they name the
transform). Nested transforms resolve ``info`` level by level; the geom a
contact names is :meth:`Geom.contact_geom` (overridden here), which the
code that fills dContactGeom objects (dispatch) calls for each side. Its
collider (the transform against any geom) is
:mod:`engine.ode.collision.pairs.colliders_transform`.

Placing the object in the world is done by temporarily writing the world pose
into the object (as ODE does), so that colliders and user callbacks see the
object itself; a re-entrant lock keeps this safe if several threads collide.
"""

from __future__ import annotations

import threading
from contextlib import contextmanager

import numpy as np

from engine.ode import checks
from engine.ode.collision.geoms.geom import Geom, geom_of
from engine.ode.constants import (
    dGeomTransformClass,
)
from engine.ode.errors import ODEError
from engine.ode.kernels.detlinalg import matmul

#: Serialises the temporary placement of encapsulated geoms (re-entrant for nesting).
_PLACING = threading.RLock()


class GeomTransform(Geom):
    """ODE's dxGeomTransform: ``obj`` (a Geom or None), ``cleanup``, ``info``."""

    CLASS = dGeomTransformClass
    NAME = "geom transform"
    CREATOR = "dCreateGeomTransform"
    __slots__ = ("obj", "cleanup", "info")

    def __init__(self, space) -> None:
        self.obj: Geom | None = None
        self.cleanup = 0
        self.info = 0
        super().__init__(space)

    def compute_aabb(self) -> np.ndarray:
        """The object's AABB (6,) at its world pose; all zeros without an object (as ODE)."""
        obj = self.obj
        if obj is None:
            return np.zeros(6)
        check_object(self, "dGeomGetAABB", need_free=False)
        with placed(self) as o:
            return np.array(o.compute_aabb(), dtype=float)

    def contact_geom(self) -> Geom:
        """The geom that contacts of this transform name as g1/g2: the transform
        itself if ``info`` is set or it holds nothing, else (recursively) its
        object's."""
        obj = self.obj
        if self.info or obj is None:
            return self
        return obj.contact_geom()

    def destroy(self) -> None:
        obj = self.obj
        if self.cleanup and obj is not None and obj.alive:
            obj.destroy()
        self.obj = None
        super().destroy()


def check_object(tr: GeomTransform, function: str, need_free: bool = True) -> Geom:
    """The transform's object, checked usable: alive, no body, and (for
    collisions, as ODE asserts) not in a space."""
    obj = tr.obj
    if not obj.alive:
        raise ODEError(function, "geom", "the geom transform's encapsulated geom has been "
                       "destroyed")
    if obj.body is not None:
        raise ODEError(function, "geom", "a geom transform's encapsulated geom must not be "
                       "attached to a body")
    if need_free and obj.space is not None:
        raise ODEError(function, "geom", "a geom transform's encapsulated geom must not be "
                       "in a space")
    return obj


@contextmanager
def placed(tr: GeomTransform):
    """Context in which ``tr.obj`` has its world pose (own_pos/own_R swapped
    in); yields the object and restores its relative pose afterwards."""
    obj = tr.obj
    with _PLACING:
        rel_pos, rel_R = obj.own_pos, obj.own_R
        Rt = np.asarray(tr.R, dtype=float)
        # world pose of the object: rotate its relative position by the
        # transform's rotation and add the transform's position
        obj.own_pos = matmul(Rt, rel_pos) + np.asarray(tr.pos, dtype=float)
        obj.own_R = matmul(Rt, rel_R)
        try:
            yield obj
        finally:
            obj.own_pos, obj.own_R = rel_pos, rel_R


# ----------------------------------------------------------------------------- API
def _transform_of(g, function: str) -> GeomTransform:
    return geom_of(g, function, "g", GeomTransform)


def dCreateGeomTransform(space) -> GeomTransform:
    """A geom transform in ``space`` (None: none), holding no geom, cleanup and info 0."""
    return GeomTransform(space)


def dGeomTransformSetGeom(g, obj) -> None:
    """Encapsulate ``obj`` (None: nothing). ``obj`` must be placeable, must not be
    in a space or on a body when collided, and is positioned relative to ``g``.
    With cleanup set, the previously held geom is destroyed."""
    fn = "dGeomTransformSetGeom"
    tr = _transform_of(g, fn)
    new = None
    if obj is not None:
        new = geom_of(obj, fn, "obj")
        if not new.PLACEABLE:
            raise ODEError(fn, "obj", f"a {new.NAME} geom is not placeable and cannot be "
                           "encapsulated")
        inner = new
        while isinstance(inner, GeomTransform):
            if inner is tr:
                raise ODEError(fn, "obj", "a geom transform cannot encapsulate itself")
            inner = inner.obj
    old = tr.obj
    if old is not None and old is not new and tr.cleanup and old.alive:
        old.destroy()
    tr.obj = new


def dGeomTransformGetGeom(g) -> Geom | None:
    """The encapsulated geom, or None."""
    return _transform_of(g, "dGeomTransformGetGeom").obj


def dGeomTransformSetCleanup(g, mode: int) -> None:
    """Non-zero: destroying ``g`` (or replacing its geom) destroys the encapsulated geom."""
    _transform_of(g, "dGeomTransformSetCleanup").cleanup = checks.integer(
        mode, "dGeomTransformSetCleanup", "mode")


def dGeomTransformGetCleanup(g) -> int:
    return _transform_of(g, "dGeomTransformGetCleanup").cleanup


def dGeomTransformSetInfo(g, mode: int) -> None:
    """0: contacts name the encapsulated geom as g1/g2; non-zero: they name ``g``."""
    _transform_of(g, "dGeomTransformSetInfo").info = checks.integer(
        mode, "dGeomTransformSetInfo", "mode")


def dGeomTransformGetInfo(g) -> int:
    return _transform_of(g, "dGeomTransformGetInfo").info
