"""Colliders of the convex geom: with a plane, sphere, box, capsule, cylinder,
another convex, and a ray.

Contact rows are ``pos (3), normal (3), depth, side1, side2`` (float64,
shape (k, 9)) with ODE's convention: the normal points into g1 (from g2
towards g1), depth > 0 is penetration, sides are -1.

* convex-plane (as ODE): one contact per vertex on or below the plane, at
  the vertex, depth = its distance below the plane, normal = the plane's;
  deepest first (ODE: in vertex order), at most ``max_contacts``. ODE
  0.16.2 returns nothing when every vertex is strictly below the plane; we
  return the contacts (a sunk convex is pushed back out, as a sunk box is).
* convex-sphere, -box, -capsule, -cylinder, -convex: one contact (ODE 0.16.2
  returns one too, from libccd) from :mod:`gjk`: the exact penetration depth
  and direction (GJK on the cores, EPA when they overlap), at the midpoint of
  the two deepest points. Where libccd departs from the exact geometry
  (docs/ode-behaviour.md) we give the exact answer; where the minimum translation is
  not unique (two tip-to-tip convexes) the mean of the tied directions.
* ray-convex: the geometric first hit (see docs/decisions/0006-ray-convex.md;
  ODE 0.16.2 misses faces not perpendicular to the ray): the entry point
  with the face's outward normal and the distance from the ray's start as
  depth; a ray starting inside reports its exit point with the normal
  pointing inward (as ODE does for convexes, spheres, boxes and cylinders),
  unless the ray culls back faces. A convex is one solid, so FirstContact
  and ClosestHit change nothing: there is at most one hit.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from engine.ode.collision.geoms.convex import Convex
from engine.ode.collision.geoms.geom import Geom
from engine.ode.collision.pairs import gjk
from engine.ode.collision.table import NO_CONTACTS
from engine.ode.constants import (
    dBoxClass,
    dCapsuleClass,
    dConvexClass,
    dCylinderClass,
    dSphereClass,
)


# ----------------------------------------------------------------------------- kernels
@njit(cache=True, nogil=True)
def convex_plane_kernel(points: np.ndarray, pos: np.ndarray, R: np.ndarray,
                        plane: np.ndarray, max_contacts: int) -> np.ndarray:
    """Contacts (k, 9) of a convex (local points (n, 3), pos (3,), R (3, 3))
    with a plane (4,) = unit normal, offset: every vertex on or below the
    plane, deepest first, at most max_contacts; normal = the plane normal."""
    n = points.shape[0]
    world = np.empty((n, 3))
    depth = np.empty(n)
    for i in range(n):
        for j in range(3):
            world[i, j] = (pos[j] + R[j, 0] * points[i, 0] + R[j, 1] * points[i, 1]
                           + R[j, 2] * points[i, 2])
        depth[i] = plane[3] - (plane[0] * world[i, 0] + plane[1] * world[i, 1]
                               + plane[2] * world[i, 2])
    order = np.argsort(-depth, kind="mergesort")
    out = np.empty((min(n, max_contacts), 9))
    k = 0
    for oi in range(n):
        i = order[oi]
        if depth[i] < 0.0 or k >= max_contacts:
            break
        out[k, 0:3] = world[i]
        out[k, 3:6] = plane[0:3]
        out[k, 6] = depth[i]
        out[k, 7] = -1.0
        out[k, 8] = -1.0
        k += 1
    return out[:k]


@njit(cache=True, nogil=True)
def ray_convex_kernel(start: np.ndarray, d: np.ndarray, length: float, pos: np.ndarray,
                      R: np.ndarray, planes: np.ndarray, backface_cull: bool,
                      out: np.ndarray) -> bool:
    """Ray (start (3,), unit dir (3,), length m) vs convex (pos (3,), R (3, 3),
    local planes (p, 4)): clip the ray's line by every face plane. From
    outside (on a face counts as outside, as ODE) the entry point with the
    face's outward normal; from inside the exit point with the inward normal
    (none with back-face culling). Fills ``out`` (9,); True on a hit."""
    s = np.empty(3)
    u = np.empty(3)
    for i in range(3):
        s[i] = (R[0, i] * (start[0] - pos[0]) + R[1, i] * (start[1] - pos[1])
                + R[2, i] * (start[2] - pos[2]))
        u[i] = R[0, i] * d[0] + R[1, i] * d[1] + R[2, i] * d[2]
    t_in = -np.inf
    t_out = np.inf
    f_in = -1
    f_out = -1
    outside = False
    for i in range(planes.shape[0]):
        dist = planes[i, 0] * s[0] + planes[i, 1] * s[1] + planes[i, 2] * s[2] - planes[i, 3]
        dn = planes[i, 0] * u[0] + planes[i, 1] * u[1] + planes[i, 2] * u[2]
        if dist >= 0.0:
            outside = True
        if dn == 0.0:
            if dist > 0.0:
                return False          # parallel to the face, in front of it
            continue
        t = -dist / dn
        if dn < 0.0:
            if t > t_in:
                t_in = t
                f_in = i
        elif t < t_out:
            t_out = t
            f_out = i
    if t_in > t_out:
        return False
    if outside:
        if f_in < 0 or t_in < 0.0 or t_in > length:
            return False
        t = t_in
        f = f_in
        sign = 1.0
    else:
        if backface_cull or f_out < 0 or t_out > length:
            return False
        t = t_out
        f = f_out
        sign = -1.0
    for i in range(3):
        out[i] = start[i] + t * d[i]
        out[3 + i] = sign * (R[i, 0] * planes[f, 0] + R[i, 1] * planes[f, 1]
                             + R[i, 2] * planes[f, 2])
    out[6] = t
    out[7] = -1.0
    out[8] = -1.0
    return True


@njit(cache=True, nogil=True)
def convex_pair_kernel(k1: int, p1: np.ndarray, pos1: np.ndarray, R1: np.ndarray,
                       k2: int, p2: np.ndarray, pos2: np.ndarray, R2: np.ndarray) -> np.ndarray:
    """One contact (0 or 1, 9) of two gjk shapes (codes, params, poses):
    exact depth, normal into shape 1, at the midpoint of the deepest points."""
    res = np.empty(10)
    rows = np.empty((1, 9))
    if gjk.query(k1, p1, pos1, R1, k2, p2, pos2, R2, res) == 0:
        return rows[:0]
    for j in range(3):
        rows[0, j] = 0.5 * (res[4 + j] + res[7 + j])
        rows[0, 3 + j] = -res[1 + j]
    rows[0, 6] = -res[0]
    rows[0, 7] = -1.0
    rows[0, 8] = -1.0
    return rows


# ----------------------------------------------------------------------------- colliders
def shape_of(g: Geom) -> tuple[int, np.ndarray]:
    """(gjk shape code, float64 parameters) of a sphere, box, capsule, cylinder
    or convex geom."""
    cls = g.CLASS
    if cls == dConvexClass:
        return gjk.POLYTOPE, np.ascontiguousarray(g.points, dtype=np.float64).reshape(-1)
    if cls == dSphereClass:
        return gjk.SPHERE, np.array([float(g.radius)])
    if cls == dBoxClass:
        return gjk.BOX, 0.5 * np.asarray(g.lengths, dtype=np.float64)
    if cls == dCapsuleClass:
        return gjk.CAPSULE, np.array([float(g.radius), 0.5 * float(g.length)])
    if cls == dCylinderClass:
        return gjk.CYLINDER, np.array([float(g.radius), 0.5 * float(g.length)])
    raise TypeError(f"no support mapping for {g!r}")


def _frame(g: Geom) -> tuple[np.ndarray, np.ndarray]:
    return (np.ascontiguousarray(g.pos, dtype=np.float64),
            np.ascontiguousarray(g.R, dtype=np.float64))


def convex_support_pair(g1: Geom, g2: Geom, max_contacts: int) -> np.ndarray:
    """The single contact (k <= 1, 9) of two solids with support mappings."""
    k1, p1 = shape_of(g1)
    k2, p2 = shape_of(g2)
    pos1, R1 = _frame(g1)
    pos2, R2 = _frame(g2)
    return convex_pair_kernel(k1, p1, pos1, R1, k2, p2, pos2, R2)


def convex_plane(g1: Convex, g2: Geom, max_contacts: int) -> np.ndarray:
    """Contacts (k, 9) of convex ``g1`` with plane ``g2``: its vertices below."""
    pos, R = _frame(g1)
    return convex_plane_kernel(g1.points, pos, R,
                               np.ascontiguousarray(g2.params, dtype=np.float64),
                               int(max_contacts))


def ray_convex(ray: Geom, g2: Convex, max_contacts: int) -> np.ndarray:
    """Contacts (0 or 1, shape (k, 9)) of a ray with a convex."""
    pos, R = _frame(g2)
    out = np.empty(9)
    hit = ray_convex_kernel(np.ascontiguousarray(ray.pos, dtype=np.float64),
                            np.ascontiguousarray(ray.R[:, 2], dtype=np.float64),
                            float(ray.length), pos, R, g2.planes, bool(ray.backface_cull),
                            out)
    return out.reshape(1, 9) if hit else NO_CONTACTS
