"""Collision utilities of ODE's public headers: segment and box tests, the
infinite AABB, geom-frame point/vector conversions, low-level geom control
and the space manual-cleanup flag.

Vectors are (3,) float64 arrays in metres (directions unitless); rotations
are accepted as 12-/9-sequences or (3, 3) arrays, returned nowhere here.
"""

from __future__ import annotations

import math
import weakref

import numpy as np
from numba import njit

from engine.ode import checks
from engine.ode.collision.geoms.geom import Geom, geom_of
from engine.ode.collision.pairs.colliders_box_box import box_box_core
from engine.ode.collision.pairs.colliders_capsule import closest_segment_points
from engine.ode.collision.spaces.space import Space, space_of
from engine.ode.errors import ODEError
from engine.ode.kernels.detlinalg import matmul
from engine.ode.structs import dContactGeom

# --- dGeomLowLevelControl classes, codes and values (collision.h) ---
dGeomCommonControlClass = 0
dGeomColliderControlClass = 1
dGeomCommonAnyControlCode = 0
dGeomColliderSetMergeSphereContactsControlCode = 1
dGeomColliderGetMergeSphereContactsControlCode = 2
dGeomColliderMergeContactsValue__Default = 0
dGeomColliderMergeContactsValue_None = 1
dGeomColliderMergeContactsValue_Normals = 2
dGeomColliderMergeContactsValue_Full = 3

_INT_SIZE = 4   # sizeof(int): the data size of the merge-contacts codes


# ----------------------------------------------------------------------------- segments
def dClosestLineSegmentPoints(a1, a2, b1, b2) -> tuple[np.ndarray, np.ndarray]:
    """Closest points (cp1 on segment a1-a2, cp2 on b1-b2), each (3,) m.

    Parallel segments give a solution at an endpoint of at least one segment;
    zero-length segments are fine.
    """
    fn = "dClosestLineSegmentPoints"
    pts = [checks.vector(v, 3, fn, name) for v, name in
           ((a1, "a1"), (a2, "a2"), (b1, "b1"), (b2, "b2"))]
    cp1 = np.empty(3)
    cp2 = np.empty(3)
    closest_segment_points(pts[0], pts[1], pts[2], pts[3], cp1, cp2)
    return cp1, cp2


# ----------------------------------------------------------------------------- boxes
@njit(cache=True, nogil=True)
def boxes_touch(p1: np.ndarray, R1: np.ndarray, side1: np.ndarray, p2: np.ndarray,
                R2: np.ndarray, side2: np.ndarray) -> bool:
    """True unless one of the 15 separating axes of two boxes (centres (3,),
    rotations (3, 3), full sides (3,)) separates them; touching counts."""
    d = np.empty(3)
    for i in range(3):
        d[i] = p2[i] - p1[i]
    # candidate axes: the 3 face normals of each box and the 9 cross products
    # of an edge of box 1 with an edge of box 2 (a zero cross product, from
    # parallel edges, never separates: 0 > 0 is false)
    axes = np.empty((15, 3))
    for i in range(3):
        for k in range(3):
            axes[i, k] = R1[k, i]
            axes[3 + i, k] = R2[k, i]
    for i in range(3):
        for j in range(3):
            u0, u1, u2 = R1[0, i], R1[1, i], R1[2, i]
            v0, v1, v2 = R2[0, j], R2[1, j], R2[2, j]
            row = 6 + 3 * i + j
            axes[row, 0] = u1 * v2 - u2 * v1
            axes[row, 1] = u2 * v0 - u0 * v2
            axes[row, 2] = u0 * v1 - u1 * v0
    for a in range(15):
        dist = abs(d[0] * axes[a, 0] + d[1] * axes[a, 1] + d[2] * axes[a, 2])
        # projected half extent of each box on the axis: sum of |edge . axis|
        reach = 0.0
        for k in range(3):
            reach += 0.5 * side1[k] * abs(R1[0, k] * axes[a, 0] + R1[1, k] * axes[a, 1]
                                          + R1[2, k] * axes[a, 2])
            reach += 0.5 * side2[k] * abs(R2[0, k] * axes[a, 0] + R2[1, k] * axes[a, 1]
                                          + R2[2, k] * axes[a, 2])
        if dist > reach:
            return False
    return True


def _box_args(fn: str, p1, R1, side1, p2, R2, side2):
    return (checks.vector(p1, 3, fn, "p1"), checks.rotation(R1, fn, "R1"),
            checks.vector(side1, 3, fn, "side1"), checks.vector(p2, 3, fn, "p2"),
            checks.rotation(R2, fn, "R2"), checks.vector(side2, 3, fn, "side2"))


def dBoxTouchesBox(p1, R1, side1, p2, R2, side2) -> int:
    """1 if the boxes (centre p (3,), rotation R, full sides (3,)) intersect or
    touch, else 0."""
    args = _box_args("dBoxTouchesBox", p1, R1, side1, p2, R2, side2)
    return int(boxes_touch(*args))


def dBoxBox(p1, R1, side1, p2, R2, side2, flags: int
            ) -> tuple[np.ndarray, float, int, list[dContactGeom]]:
    """ODE's box-box test: ``(normal (3,), depth, return_code, contacts)``.

    ``flags``' low 16 bits are the maximum number of contacts (>= 1).
    ``normal`` points from box 1 towards box 2 (the contact normal for box 1
    is ``-normal``); ``depth`` is the penetration along it (m);
    ``return_code`` is 1-3 / 4-6 for a face of box 1 / box 2 as the separating
    axis, 7-15 for an edge-edge axis, 0 when they do not touch (no contacts,
    normal and depth left 0). As ODE's dBoxBox, the contacts carry only
    ``pos`` and ``depth`` (normal zero, g1/g2 None, sides -1).
    """
    fn = "dBoxBox"
    args = _box_args(fn, p1, R1, side1, p2, R2, side2)
    n = checks.integer(flags, fn, "flags") & 0xFFFF
    if n < 1:
        raise ODEError(fn, "flags", f"the low 16 bits (max contacts) must be >= 1, got {n}")
    rows, normal, depth, code = box_box_core(*args, n)
    if code == 0:
        return np.zeros(3), 0.0, 0, []
    contacts = [dContactGeom(r[0:3], (0.0, 0.0, 0.0), float(r[6])) for r in rows]
    return np.array(normal, dtype=float), float(depth), int(code), contacts


# ----------------------------------------------------------------------------- AABB
def dInfiniteAABB(geom) -> np.ndarray:
    """(6,) = -inf, +inf on every axis: an ``aabb`` function for user classes
    that do not want to compute tight bounds."""
    if geom is not None:
        geom_of(geom, "dInfiniteAABB")
    return np.array([-math.inf, math.inf, -math.inf, math.inf, -math.inf, math.inf])


# ----------------------------------------------------------------------------- frames
def _frame(g, function: str) -> Geom | None:
    """The geom if placeable; None for non-placeable geoms (identity frame, as ODE)."""
    geom = geom_of(g, function)
    return geom if geom.PLACEABLE else None


def dGeomGetRelPointPos(geom, px: float, py: float, pz: float) -> np.ndarray:
    """World position (3,) of a point given in the geom's frame (non-placeable
    geoms: the point unchanged)."""
    fn = "dGeomGetRelPointPos"
    g = _frame(geom, fn)
    p = checks.xyz(px, py, pz, fn, "px, py, pz")
    return p if g is None else matmul(np.asarray(g.R, dtype=float), p) + g.pos


def dGeomGetPosRelPoint(geom, px: float, py: float, pz: float) -> np.ndarray:
    """A world point (3,) expressed in the geom's frame (non-placeable geoms:
    unchanged)."""
    fn = "dGeomGetPosRelPoint"
    g = _frame(geom, fn)
    p = checks.xyz(px, py, pz, fn, "px, py, pz")
    return p if g is None else matmul(np.asarray(g.R, dtype=float).T, p - g.pos)


def dGeomVectorToWorld(geom, px: float, py: float, pz: float) -> np.ndarray:
    """A vector (3,) given in the geom's frame, rotated into the world frame."""
    fn = "dGeomVectorToWorld"
    g = _frame(geom, fn)
    v = checks.xyz(px, py, pz, fn, "px, py, pz")
    return v if g is None else matmul(np.asarray(g.R, dtype=float), v)


def dGeomVectorFromWorld(geom, px: float, py: float, pz: float) -> np.ndarray:
    """A world vector (3,) rotated into the geom's frame."""
    fn = "dGeomVectorFromWorld"
    g = _frame(geom, fn)
    v = checks.xyz(px, py, pz, fn, "px, py, pz")
    return v if g is None else matmul(np.asarray(g.R, dtype=float).T, v)


# ----------------------------------------------------------------------------- control
def dGeomLowLevelControl(geom, controlClass: int, controlCode: int, dataValue: int = 0
                         ) -> tuple[int, int, int]:
    """Geom-specific control: ``(result, dataValue, dataSize)``.

    Only geoms that have controls support it (in ODE 0.16.2: trimeshes, the
    sphere-contact merge codes); such a geom class defines
    ``low_level_control(control_class, control_code, value) -> (ok, value)``.
    For dGeomCommonAnyControlCode the result says whether the class has any
    code (dataSize 0); for the merge codes ``dataValue`` is the int passed in
    (Set) or returned (Get), dataSize 4. Any other geom, class or code is
    misuse (ODE asserts) and raises ODEError.
    """
    fn = "dGeomLowLevelControl"
    g = geom_of(geom, fn)
    cls = checks.integer(controlClass, fn, "controlClass")
    code = checks.integer(controlCode, fn, "controlCode")
    value = checks.integer(dataValue, fn, "dataValue")
    handler = getattr(g, "low_level_control", None)
    if handler is None:
        raise ODEError(fn, "geom", f"control class {cls} / code {code} is not supported "
                       f"for a {g.NAME} geom")
    ok, out = handler(cls, code, value)
    size = 0 if code == dGeomCommonAnyControlCode else _INT_SIZE
    return int(bool(ok)), int(out), size


# ----------------------------------------------------------------------------- spaces
#: Spaces whose manual-cleanup flag is set (the flag only matters to ODE's
#: per-thread caches, which this engine does not have).
_MANUAL_CLEANUP: weakref.WeakKeyDictionary[Space, int] = weakref.WeakKeyDictionary()


def dSpaceSetManualCleanup(space, mode: int) -> None:
    """Set (non-zero) or clear the space's manual-cleanup flag."""
    s = space_of(space, "dSpaceSetManualCleanup")
    m = checks.integer(mode, "dSpaceSetManualCleanup", "mode")
    if m:
        _MANUAL_CLEANUP[s] = 1
    else:
        _MANUAL_CLEANUP.pop(s, None)


def dSpaceGetManualCleanup(space) -> int:
    """The space's manual-cleanup flag, 0 or 1 (default 0), as in an ODE built
    with thread-local caches (a build without them, like Debian's libode
    0.16.2, answers 1 whatever was set)."""
    return _MANUAL_CLEANUP.get(space_of(space, "dSpaceGetManualCleanup"), 0)
