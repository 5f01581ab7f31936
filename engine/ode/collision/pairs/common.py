"""Helpers shared by the narrow-phase modules of the basic primitives (sphere, box,
capsule, plane): argument conversion and the sphere-sphere contact they all build on."""

from __future__ import annotations

import math

import numpy as np
from numba import njit


def as_f64(a) -> np.ndarray:
    """``a`` as a C-contiguous float64 array (a view when it already is one)."""
    return np.ascontiguousarray(a, dtype=np.float64)


@njit(cache=True, nogil=True)
def spheres_contact(p1: np.ndarray, r1: float, p2: np.ndarray, r2: float, out: np.ndarray) -> int:
    """Contact of sphere (p1 (3,), r1) with sphere (p2 (3,), r2) into ``out`` (9,).

    Returns 1 if they touch (distance <= r1 + r2) else 0. Coincident centres
    give the normal +x and depth r1 + r2 at p1, as ODE does.
    """
    dx = p1[0] - p2[0]
    dy = p1[1] - p2[1]
    dz = p1[2] - p2[2]
    d = math.sqrt(dx * dx + dy * dy + dz * dz)
    if d > r1 + r2:
        return 0
    out[7] = -1.0
    out[8] = -1.0
    if d <= 0.0:
        out[0] = p1[0]
        out[1] = p1[1]
        out[2] = p1[2]
        out[3] = 1.0
        out[4] = 0.0
        out[5] = 0.0
        out[6] = r1 + r2
        return 1
    inv = 1.0 / d
    n0 = dx * inv
    n1 = dy * inv
    n2 = dz * inv
    # the point halfway between the two surfaces along the centre line
    k = 0.5 * (r2 - r1 - d)
    out[0] = p1[0] + n0 * k
    out[1] = p1[1] + n1 * k
    out[2] = p1[2] + n2 * k
    out[3] = n0
    out[4] = n1
    out[5] = n2
    out[6] = r1 + r2 - d
    return 1
