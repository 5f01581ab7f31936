"""Sphere colliders (ODE's sphere-sphere and sphere-box).

Thin wrappers around ``@njit`` kernels that take plain arrays (positions (3,),
rotations (3, 3), lengths in metres) and return contact rows ``(k, 9)``
float64: ``pos (3), normal (3), depth, side1, side2`` with ODE's convention (the
normal points into g1, i.e. from g2 towards g1; depth > 0 when penetrating;
sides -1). Point sets and order follow ODE 0.16.2. Sphere-plane is in
:mod:`colliders_plane`, sphere-capsule in :mod:`colliders_capsule`.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from engine.ode.collision.geoms.geom import Geom
from engine.ode.collision.pairs.common import as_f64, spheres_contact
from engine.ode.kernels.options import NO_ALLOC


@njit(cache=True, nogil=True)
def sphere_sphere_kernel(p1: np.ndarray, r1: float, p2: np.ndarray, r2: float) -> np.ndarray:
    """Contacts (0 or 1, 9) of two spheres (centres (3,) m, radii m)."""
    out = np.empty((1, 9))
    n = spheres_contact(p1, r1, p2, r2, out[0])
    return out[:n]


#: Length of the float64 scratch of :func:`sphere_box_into`.
SPHERE_BOX_WS = 15


@njit(cache=True, nogil=True)
def sphere_box_kernel(p1: np.ndarray, r: float, p2: np.ndarray, R2: np.ndarray,
                      sides: np.ndarray) -> np.ndarray:
    """Contacts (0 or 1, 9) of a sphere (centre (3,), radius) with a box
    (centre (3,), rotation (3, 3), full side lengths (3,))."""
    out = np.empty((1, 9))
    n = sphere_box_into(p1, r, p2, R2, sides, np.empty(SPHERE_BOX_WS), out, 0)
    return out[:n]


@njit(**NO_ALLOC)
def sphere_box_into(p1: np.ndarray, r: float, p2: np.ndarray, R2: np.ndarray,
                    sides: np.ndarray, ws: np.ndarray, out: np.ndarray, k: int) -> int:
    """The contact of :func:`sphere_box_kernel` written into row ``k`` of
    ``out`` (m, 9); returns 0 or 1 (with 0, only the row's side columns
    were written). ``ws`` (``SPHERE_BOX_WS``,) float64: scratch."""
    out[k, 7] = -1.0
    out[k, 8] = -1.0
    p = ws[0:3]
    for i in range(3):
        p[i] = p1[i] - p2[i]
    # sphere centre in box coordinates, clamped to the box
    t = ws[3:6]
    half = ws[6:9]
    onborder = False
    for j in range(3):
        half[j] = 0.5 * sides[j]
        t[j] = p[0] * R2[0, j] + p[1] * R2[1, j] + p[2] * R2[2, j]
        if t[j] < -half[j]:
            t[j] = -half[j]
            onborder = True
        if t[j] > half[j]:
            t[j] = half[j]
            onborder = True
    if not onborder:
        # centre inside: push out through the nearest face (first axis on ties)
        mind = half[0] - abs(t[0])
        mini = 0
        for j in range(1, 3):
            fd = half[j] - abs(t[j])
            if fd < mind:
                mind = fd
                mini = j
        s = 1.0 if t[mini] > 0 else -1.0
        for i in range(3):
            out[k, i] = p1[i]
            out[k, 3 + i] = R2[i, mini] * s
        out[k, 6] = mind + r
        return 1
    q = ws[9:12]
    rr = ws[12:15]
    for i in range(3):
        q[i] = R2[i, 0] * t[0] + R2[i, 1] * t[1] + R2[i, 2] * t[2]
        rr[i] = p[i] - q[i]
    dist = math.sqrt(rr[0] * rr[0] + rr[1] * rr[1] + rr[2] * rr[2])
    depth = r - dist
    if depth < 0.0:
        return 0
    for i in range(3):
        out[k, i] = q[i] + p2[i]
    if dist > 0.0:
        for i in range(3):
            out[k, 3 + i] = rr[i] / dist
    else:
        # centre exactly on the surface: ODE's dNormalize3 falls back to +x
        out[k, 3] = 1.0
        out[k, 4] = 0.0
        out[k, 5] = 0.0
    out[k, 6] = depth
    return 1


def sphere_sphere(g1: Geom, g2: Geom, max_contacts: int) -> np.ndarray:
    """Sphere-sphere contacts (0 or 1, 9)."""
    return sphere_sphere_kernel(as_f64(g1.pos), float(g1.radius), as_f64(g2.pos), float(g2.radius))


def sphere_box(g1: Geom, g2: Geom, max_contacts: int) -> np.ndarray:
    """Sphere-box contacts (0 or 1, 9)."""
    return sphere_box_kernel(as_f64(g1.pos), float(g1.radius), as_f64(g2.pos), as_f64(g2.R),
                             as_f64(g2.lengths))
