"""Support mappings of the convex shapes GJK and EPA work on (numba).

Shape codes ``SPHERE, BOX, CAPSULE, CYLINDER, POLYTOPE, TRIANGLE, SEGMENT,
POINT`` with their parameter arrays, the support point of a posed shape
along a direction, and the tolerances shared by ``gjk_distance`` and
``epa``. See ``gjk`` for the algorithm as a whole.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

SPHERE, BOX, CAPSULE, CYLINDER, POLYTOPE, TRIANGLE, SEGMENT, POINT = range(8)

#: GJK: relative convergence |v|^2 - v.w <= _GJK_REL |v|^2, iteration cap.
_GJK_REL = 1e-10
_GJK_ITERS = 128
#: EPA: vertex and face capacity, convergence relative to the shape size.
_EPA_VERTS = 192
_EPA_FACES = 4 * _EPA_VERTS
_EPA_REL = 1e-10
#: Relative tolerance of equally deep faces (ties) and of touching shapes.
_TIE_REL = 1e-9
_TOUCH_REL = 1e-12
#: Tied faces whose normals differ by less than acos(1 - this) (0.08 deg) are one.
_SAME_NORMAL = 1e-6

# EPA status codes, face states
_EPA_OK, _EPA_FLAT, _EPA_LINE, _EPA_POINT = 0, 1, 2, 3
_DEAD, _OPEN, _DONE, _GOING = 0, 1, 2, 3



# ----------------------------------------------------------------------------- supports
@njit(cache=True, nogil=True)
def margin(kind: int, prm: np.ndarray) -> float:
    """The radius that rounds the core of a shape (sphere, capsule), else 0."""
    if kind == SPHERE or kind == CAPSULE:
        return prm[0]
    return 0.0


@njit(cache=True, nogil=True)
def local_support(kind: int, prm: np.ndarray, d0: float, d1: float, d2: float) -> tuple:
    """A point (x, y, z) of the shape's core furthest along the local direction d."""
    if kind == BOX:
        return (prm[0] if d0 >= 0.0 else -prm[0], prm[1] if d1 >= 0.0 else -prm[1],
                prm[2] if d2 >= 0.0 else -prm[2])
    if kind == SPHERE:
        return (0.0, 0.0, 0.0)
    if kind == CAPSULE:
        return (0.0, 0.0, prm[1] if d2 >= 0.0 else -prm[1])
    if kind == CYLINDER:
        z = prm[1] if d2 >= 0.0 else -prm[1]
        s = math.sqrt(d0 * d0 + d1 * d1)
        if s > 0.0:
            return (prm[0] * d0 / s, prm[0] * d1 / s, z)
        return (0.0, 0.0, z)
    # point sets: polytope, triangle, segment, point
    best = 0
    bv = -np.inf
    for i in range(prm.shape[0] // 3):
        v = prm[3 * i] * d0 + prm[3 * i + 1] * d1 + prm[3 * i + 2] * d2
        if v > bv:
            bv = v
            best = i
    return (prm[3 * best], prm[3 * best + 1], prm[3 * best + 2])


@njit(cache=True, nogil=True)
def support(kind: int, prm: np.ndarray, pos: np.ndarray, R: np.ndarray, mrg: float,
            d0: float, d1: float, d2: float) -> tuple:
    """World point (x, y, z) of the shape furthest along the world direction d,
    its core inflated by ``mrg`` (pass 0 for the bare core)."""
    l0 = R[0, 0] * d0 + R[1, 0] * d1 + R[2, 0] * d2
    l1 = R[0, 1] * d0 + R[1, 1] * d1 + R[2, 1] * d2
    l2 = R[0, 2] * d0 + R[1, 2] * d1 + R[2, 2] * d2
    s0, s1, s2 = local_support(kind, prm, l0, l1, l2)
    x = pos[0] + R[0, 0] * s0 + R[0, 1] * s1 + R[0, 2] * s2
    y = pos[1] + R[1, 0] * s0 + R[1, 1] * s1 + R[1, 2] * s2
    z = pos[2] + R[2, 0] * s0 + R[2, 1] * s1 + R[2, 2] * s2
    if mrg > 0.0:
        dn = math.sqrt(d0 * d0 + d1 * d1 + d2 * d2)
        if dn > 0.0:
            x += mrg * d0 / dn
            y += mrg * d1 / dn
            z += mrg * d2 / dn
    return (x, y, z)


@njit(cache=True, nogil=True)
def support_value(kind: int, prm: np.ndarray, pos: np.ndarray, R: np.ndarray,
                  d0: float, d1: float, d2: float) -> float:
    """h(d) = max over the (rounded) shape of x.d, for a unit world direction d."""
    x, y, z = support(kind, prm, pos, R, margin(kind, prm), d0, d1, d2)
    return x * d0 + y * d1 + z * d2


@njit(cache=True, nogil=True)
def _minkowski(ka: int, pa: np.ndarray, posa: np.ndarray, Ra: np.ndarray, ma: float,
               kb: int, pb: np.ndarray, posb: np.ndarray, Rb: np.ndarray, mb: float,
               d0: float, d1: float, d2: float, W: np.ndarray, WA: np.ndarray,
               WB: np.ndarray, i: int) -> None:
    """Row i of W = s_A(d) - s_B(-d), with s_A(d) in WA[i] and s_B(-d) in WB[i]."""
    a0, a1, a2 = support(ka, pa, posa, Ra, ma, d0, d1, d2)
    b0, b1, b2 = support(kb, pb, posb, Rb, mb, -d0, -d1, -d2)
    WA[i, 0], WA[i, 1], WA[i, 2] = a0, a1, a2
    WB[i, 0], WB[i, 1], WB[i, 2] = b0, b1, b2
    W[i, 0], W[i, 1], W[i, 2] = a0 - b0, a1 - b1, a2 - b2
