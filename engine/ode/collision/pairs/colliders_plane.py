"""Plane colliders of the basic primitives: sphere-plane, box-plane, capsule-plane.

Kernels take plain arrays (positions (3,), rotations (3, 3), lengths in metres,
the plane as (4,) ``a, b, c, d`` with ``a x + b y + c z = d``) and return
contact rows ``(k, 9)`` float64 (``pos, normal, depth, side1, side2``; the
normal points into g1; depth > 0 when penetrating; sides -1), with ODE
0.16.2's point sets and order.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from engine.ode.collision.geoms.geom import Geom
from engine.ode.collision.pairs.common import as_f64
from engine.ode.kernels.options import NO_ALLOC


@njit(cache=True, nogil=True)
def sphere_plane_kernel(p: np.ndarray, r: float, plane: np.ndarray) -> np.ndarray:
    """Contacts (0 or 1, 9) of a sphere (centre (3,), radius) with plane (4,) = n, d."""
    out = np.empty((1, 9))
    return out[:sphere_plane_into(p, r, plane, out, 0)]


@njit(**NO_ALLOC)
def sphere_plane_into(p: np.ndarray, r: float, plane: np.ndarray, out: np.ndarray,
                      k: int) -> int:
    """The contact of :func:`sphere_plane_kernel` written into row ``k`` of
    ``out`` (m, 9); returns 0 or 1."""
    depth = plane[3] - (p[0] * plane[0] + p[1] * plane[1] + p[2] * plane[2]) + r
    if depth < 0.0:
        return 0
    for i in range(3):
        out[k, i] = p[i] - plane[i] * r
        out[k, 3 + i] = plane[i]
    out[k, 6] = depth
    out[k, 7] = -1.0
    out[k, 8] = -1.0
    return 1


#: Length of the float64 scratch of :func:`box_plane_into`.
BOX_PLANE_WS = 9


@njit(cache=True, nogil=True)
def box_plane_kernel(pos: np.ndarray, R: np.ndarray, sides: np.ndarray, plane: np.ndarray,
                     max_contacts: int) -> np.ndarray:
    """Contacts (0..4, 9) of a box (centre (3,), rotation (3, 3), side lengths (3,))
    with a plane (4,): the deepest corner first, then the corners along the
    box edges whose projection on the normal is shortest, then (when 4 are
    asked for) the corner completing the face, as ODE's dCollideBoxPlane."""
    out = np.empty((4, 9))
    return out[:box_plane_into(pos, R, sides, plane, max_contacts, np.empty(BOX_PLANE_WS),
                               out, 0)]


@njit(**NO_ALLOC)
def box_plane_into(pos: np.ndarray, R: np.ndarray, sides: np.ndarray, plane: np.ndarray,
                   max_contacts: int, ws: np.ndarray, out: np.ndarray, k: int) -> int:
    """The contacts of :func:`box_plane_kernel` written into rows ``k`` ..
    ``k + 3`` of ``out`` (m, 9); returns how many (0..4). ``ws``
    (``BOX_PLANE_WS``,) float64: scratch."""
    # A[j]: signed projection of side j on the plane normal; B[j] = |A[j]|
    A = ws[0:3]
    B = ws[3:6]
    for j in range(3):
        A[j] = sides[j] * (plane[0] * R[0, j] + plane[1] * R[1, j] + plane[2] * R[2, j])
        B[j] = abs(A[j])
    depth = plane[3] + 0.5 * (B[0] + B[1] + B[2]) - (
        plane[0] * pos[0] + plane[1] * pos[1] + plane[2] * pos[2])
    if depth < 0.0:
        return 0
    maxc = min(max_contacts, 4)
    # the deepest corner: step half a side against the normal on every axis
    p = ws[6:9]
    for i in range(3):
        p[i] = pos[i]
    for j in range(3):
        s = -0.5 if A[j] > 0 else 0.5
        for i in range(3):
            p[i] += s * sides[j] * R[i, j]
    for i in range(3):
        out[k, i] = p[i]
    out[k, 6] = depth
    ret = 1
    if maxc > 1:
        # ODE's choice of the first and second edges from the deepest corner
        if B[0] < B[1]:
            if B[2] < B[0]:
                e1 = 2
                e2 = 0 if B[0] < B[1] else 1
            else:
                e1 = 0
                e2 = 1 if B[1] < B[2] else 2
        else:
            if B[2] < B[1]:
                e1 = 2
                e2 = 0 if B[0] < B[1] else 1
            else:
                e1 = 1
                e2 = 0 if B[0] < B[2] else 2
        for q in range(2):
            e = e1 if q == 0 else e2
            if q == 1 and maxc == 2:
                break
            d = depth - B[e]
            if d < 0.0:
                break
            s = 1.0 if A[e] > 0 else -1.0
            for i in range(3):
                out[k + ret, i] = p[i] + s * sides[e] * R[i, e]
            out[k + ret, 6] = d
            ret += 1
        if maxc == 4 and ret == 3:
            # the fourth corner of the face spanned by the two edges
            d4 = out[k + 1, 6] + out[k + 2, 6] - depth
            if d4 > 0.0:
                for i in range(3):
                    out[k + 3, i] = out[k + 1, i] + out[k + 2, i] - p[i]
                out[k + 3, 6] = d4
                ret = 4
    for r in range(k, k + ret):
        for i in range(3):
            out[r, 3 + i] = plane[i]
        out[r, 7] = -1.0
        out[r, 8] = -1.0
    return ret


@njit(cache=True, nogil=True)
def capsule_plane_kernel(pos: np.ndarray, R: np.ndarray, radius: float, length: float,
                         plane: np.ndarray, max_contacts: int) -> np.ndarray:
    """Contacts (0..2, 9) of a capsule (centre (3,), rotation (3, 3), radius,
    cylinder length; axis = local z) with a plane (4,): the deeper end sphere
    first, then the other end sphere if it also touches and 2 are asked for."""
    out = np.empty((2, 9))
    dot = plane[0] * R[0, 2] + plane[1] * R[1, 2] + plane[2] * R[2, 2]
    sign = -1.0 if dot > 0 else 1.0
    ret = 0
    for k in range(2):
        if k == 1 and max_contacts < 2:
            break
        s = sign if k == 0 else -sign
        p = np.empty(3)
        for i in range(3):
            p[i] = pos[i] + R[i, 2] * length * 0.5 * s
        depth = plane[3] - (p[0] * plane[0] + p[1] * plane[1] + p[2] * plane[2]) + radius
        if depth < 0.0:
            break
        for i in range(3):
            out[ret, i] = p[i] - plane[i] * radius
            out[ret, 3 + i] = plane[i]
        out[ret, 6] = depth
        out[ret, 7] = -1.0
        out[ret, 8] = -1.0
        ret += 1
    return out[:ret]


def sphere_plane(g1: Geom, g2: Geom, max_contacts: int) -> np.ndarray:
    """Sphere-plane contacts (0 or 1, 9)."""
    return sphere_plane_kernel(as_f64(g1.pos), float(g1.radius), as_f64(g2.params))


def box_plane(g1: Geom, g2: Geom, max_contacts: int) -> np.ndarray:
    """Box-plane contacts (0..min(4, max_contacts), 9)."""
    return box_plane_kernel(as_f64(g1.pos), as_f64(g1.R), as_f64(g1.lengths), as_f64(g2.params),
                            int(max_contacts))


def capsule_plane(g1: Geom, g2: Geom, max_contacts: int) -> np.ndarray:
    """Capsule-plane contacts (0..2, 9)."""
    return capsule_plane_kernel(as_f64(g1.pos), as_f64(g1.R), float(g1.radius), float(g1.length),
                                as_f64(g2.params), int(max_contacts))
