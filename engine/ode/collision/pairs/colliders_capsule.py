"""Capsule colliders (ODE's capsule-sphere, capsule-capsule and capsule-box).

Kernels take plain arrays (positions (3,), rotations (3, 3), radius and
length in metres) and return contact rows ``(k, 9)`` float64 (``pos, normal,
depth, side1, side2``; the normal points into g1; depth > 0 when
penetrating; sides -1), with ODE 0.16.2's point sets and order. When the
capsule's axis enters a box, capsule-box collides the capsule's bounding box
with the box through the box-box core (:mod:`colliders_box_box`), as ODE
does. Capsule-plane is in :mod:`colliders_plane`.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from engine.ode.collision.geoms.geom import Geom
from engine.ode.collision.pairs.colliders_box_box import box_box_core
from engine.ode.collision.pairs.common import as_f64, spheres_contact
from engine.ode.kernels.vec import dot3


@njit(cache=True, nogil=True)
def capsule_sphere_kernel(p1: np.ndarray, R1: np.ndarray, r1: float, length: float,
                          p2: np.ndarray, r2: float) -> np.ndarray:
    """Contacts (0 or 1, 9) of a capsule (centre, rotation, radius, length) with a
    sphere (centre, radius): the sphere against the nearest point of the axis."""
    out = np.empty((1, 9))
    alpha = (R1[0, 2] * (p2[0] - p1[0]) + R1[1, 2] * (p2[1] - p1[1])
             + R1[2, 2] * (p2[2] - p1[2]))
    h = 0.5 * length
    alpha = min(max(alpha, -h), h)
    c = np.empty(3)
    for i in range(3):
        c[i] = p1[i] + alpha * R1[i, 2]
    n = spheres_contact(c, r1, p2, r2, out[0])
    return out[:n]


@njit(cache=True, nogil=True)
def closest_segment_points(a1: np.ndarray, a2: np.ndarray, b1: np.ndarray, b2: np.ndarray,
                           cp1: np.ndarray, cp2: np.ndarray) -> None:
    """Closest points cp1 on segment a1-a2 and cp2 on segment b1-b2 (all (3,)).

    Same feature order as ODE's dClosestLineSegmentPoints (Voronoi clipping):
    vertex-vertex pairs first, then edge-vertex, then edge-edge; parallel
    segments resolve to an endpoint of at least one segment. A zero-length
    segment is a point: its edge cases are skipped.
    """
    da = a2 - a1
    db = b2 - b1
    a1b1 = b1 - a1
    # d_ak / d_bk: projections of the vertex-to-vertex vectors on each segment
    da1 = dot3(da, a1b1)
    db1 = dot3(db, a1b1)
    if da1 <= 0 and db1 >= 0:
        cp1[:] = a1
        cp2[:] = b1
        return
    a1b2 = b2 - a1
    da2 = dot3(da, a1b2)
    db2 = dot3(db, a1b2)
    if da2 <= 0 and db2 <= 0:
        cp1[:] = a1
        cp2[:] = b2
        return
    a2b1 = b1 - a2
    da3 = dot3(da, a2b1)
    db3 = dot3(db, a2b1)
    if da3 >= 0 and db3 >= 0:
        cp1[:] = a2
        cp2[:] = b1
        return
    a2b2 = b2 - a2
    da4 = dot3(da, a2b2)
    db4 = dot3(db, a2b2)
    if da4 >= 0 and db4 <= 0:
        cp1[:] = a2
        cp2[:] = b2
        return
    # edge of A against a vertex of B
    la = dot3(da, da)
    if la > 0 and da1 >= 0 and da3 <= 0:
        k = da1 / la
        if dot3(db, a1b1 - k * da) >= 0:
            cp1[:] = a1 + k * da
            cp2[:] = b1
            return
    if la > 0 and da2 >= 0 and da4 <= 0:
        k = da2 / la
        if dot3(db, a1b2 - k * da) <= 0:
            cp1[:] = a1 + k * da
            cp2[:] = b2
            return
    lb = dot3(db, db)
    if lb > 0 and db1 <= 0 and db2 >= 0:
        k = -db1 / lb
        if dot3(da, -a1b1 - k * db) >= 0:
            cp1[:] = a1
            cp2[:] = b1 + k * db
            return
    if lb > 0 and db3 <= 0 and db4 >= 0:
        k = -db3 / lb
        if dot3(da, -a2b1 - k * db) <= 0:
            cp1[:] = a2
            cp2[:] = b1 + k * db
            return
    # edge against edge: solve the 2x2 normal equations of the two lines
    k = dot3(da, db)
    det = la * lb - k * k
    if det <= 0:
        cp1[:] = a1
        cp2[:] = b1
        return
    det = 1.0 / det
    alpha = (lb * da1 - k * db1) * det
    beta = (k * da1 - la * db1) * det
    cp1[:] = a1 + alpha * da
    cp2[:] = b1 + beta * db


@njit(cache=True, nogil=True)
def capsule_capsule_kernel(p1: np.ndarray, R1: np.ndarray, r1: float, l1: float,
                           p2: np.ndarray, R2: np.ndarray, r2: float, l2: float,
                           max_contacts: int) -> np.ndarray:
    """Contacts (0..2, 9) of two capsules (centre (3,), rotation (3, 3), radius,
    length each). Near-parallel axes with overlapping extents give up to 2
    points (the two ends of the overlap); otherwise the closest points of the
    two axis segments are collided as spheres."""
    out = np.empty((2, 9))
    h1 = 0.5 * l1
    h2 = 0.5 * l2
    ax1 = np.empty(3)
    ax2 = np.empty(3)
    for i in range(3):
        ax1[i] = R1[i, 2]
        ax2[i] = R2[i, 2]
    s1 = np.empty(3)
    s2 = np.empty(3)
    a1a2 = ax1[0] * ax2[0] + ax1[1] * ax2[1] + ax1[2] * ax2[2]
    # sin^2 of the angle between the axes
    if 1.0 - a1a2 * a1a2 < 1e-5:
        if a1a2 < 0:
            for i in range(3):
                ax2[i] = -ax2[i]
        # overlap of the two axis extents, in the parameter of axis 1
        k = (ax1[0] * (p1[0] - p2[0]) + ax1[1] * (p1[1] - p2[1])
             + ax1[2] * (p1[2] - p2[2]))
        lo = max(-h1, -h2 - k)
        hi = min(h1, h2 - k)
        if lo <= hi:
            if max_contacts >= 2 and lo < hi:
                for i in range(3):
                    s1[i] = p1[i] + lo * ax1[i]
                    s2[i] = p2[i] + (lo + k) * ax2[i]
                if spheres_contact(s1, r1, s2, r2, out[0]):
                    for i in range(3):
                        s1[i] = p1[i] + hi * ax1[i]
                        s2[i] = p2[i] + (hi + k) * ax2[i]
                    if spheres_contact(s1, r1, s2, r2, out[1]):
                        return out
            mid = 0.5 * (lo + hi)
            for i in range(3):
                s1[i] = p1[i] + mid * ax1[i]
                s2[i] = p2[i] + (mid + k) * ax2[i]
            n = spheres_contact(s1, r1, s2, r2, out[0])
            return out[:n]
    a1 = np.empty(3)
    a2 = np.empty(3)
    b1 = np.empty(3)
    b2 = np.empty(3)
    for i in range(3):
        a1[i] = p1[i] + ax1[i] * h1
        a2[i] = p1[i] - ax1[i] * h1
        b1[i] = p2[i] + ax2[i] * h2
        b2[i] = p2[i] - ax2[i] * h2
    closest_segment_points(a1, a2, b1, b2, s1, s2)
    n = spheres_contact(s1, r1, s2, r2, out[0])
    return out[:n]


@njit(cache=True, nogil=True)
def _closest_line_box_points(p1: np.ndarray, p2: np.ndarray, c: np.ndarray, R: np.ndarray,
                             side: np.ndarray, lret: np.ndarray, bret: np.ndarray) -> None:
    """Closest points lret on segment p1-p2 and bret on the box (centre c (3,),
    rotation R (3, 3), sides (3,)), as ODE's dClosestLineBoxPoints: walk t along
    the segment through the box's slab boundaries until d|D(t)|^2/dt >= 0."""
    tmp = p1 - c
    s = np.empty(3)
    v = np.empty(3)
    d12 = p2 - p1
    for j in range(3):
        s[j] = R[0, j] * tmp[0] + R[1, j] * tmp[1] + R[2, j] * tmp[2]
        v[j] = R[0, j] * d12[0] + R[1, j] * d12[1] + R[2, j] * d12[2]
    sign = np.empty(3)
    for i in range(3):
        if v[i] < 0:
            s[i] = -s[i]
            v[i] = -v[i]
            sign[i] = -1.0
        else:
            sign[i] = 1.0
    v2 = v * v
    h = 0.5 * side
    region = np.zeros(3, dtype=np.int64)
    tanchor = np.empty(3)
    for i in range(3):
        if v[i] > 1e-307:
            if s[i] < -h[i]:
                region[i] = -1
                tanchor[i] = (-h[i] - s[i]) / v[i]
            else:
                region[i] = 1 if s[i] > h[i] else 0
                tanchor[i] = (h[i] - s[i]) / v[i]
        else:
            region[i] = 0
            tanchor[i] = 2.0
    t = 0.0
    dd2dt = 0.0
    for i in range(3):
        if region[i] != 0:
            dd2dt -= v2[i] * tanchor[i]
    if dd2dt < 0:
        found = False
        while t < 1:
            next_t = 1.0
            for i in range(3):
                if tanchor[i] > t and tanchor[i] < 1 and tanchor[i] < next_t:
                    next_t = tanchor[i]
            nd = 0.0
            for i in range(3):
                if region[i] != 0:
                    nd += v2[i] * (next_t - tanchor[i])
            if nd >= 0:
                m = (nd - dd2dt) / (next_t - t)
                t -= dd2dt / m
                found = True
                break
            for i in range(3):
                if tanchor[i] == next_t:
                    tanchor[i] = (h[i] - s[i]) / v[i]
                    region[i] += 1
            t = next_t
            dd2dt = nd
        if not found:
            t = 1.0
    for i in range(3):
        lret[i] = p1[i] + t * d12[i]
    q = np.empty(3)
    for i in range(3):
        q[i] = sign[i] * (s[i] + t * v[i])
        if q[i] < -h[i]:
            q[i] = -h[i]
        elif q[i] > h[i]:
            q[i] = h[i]
    for i in range(3):
        bret[i] = R[i, 0] * q[0] + R[i, 1] * q[1] + R[i, 2] * q[2] + c[i]


@njit(cache=True, nogil=True)
def capsule_box_kernel(pos: np.ndarray, R: np.ndarray, radius: float, length: float,
                       bpos: np.ndarray, bR: np.ndarray, side: np.ndarray,
                       max_contacts: int) -> np.ndarray:
    """Contacts (0.., 9) of a capsule (centre, rotation, radius, length) with a box
    (centre, rotation, sides): the closest axis/box points collided as a sphere
    of the capsule radius; when the axis enters the box, the capsule is
    treated as its bounding box and collided with dBoxBox, as ODE does."""
    h = 0.5 * length
    a1 = np.empty(3)
    a2 = np.empty(3)
    for i in range(3):
        a1[i] = pos[i] + h * R[i, 2]
        a2[i] = pos[i] - h * R[i, 2]
    pl = np.empty(3)
    pb = np.empty(3)
    _closest_line_box_points(a1, a2, bpos, bR, side, pl, pb)
    dx = pl[0] - pb[0]
    dy = pl[1] - pb[1]
    dz = pl[2] - pb[2]
    if math.sqrt(dx * dx + dy * dy + dz * dz) < 1e-15:
        cside = np.array([2.0 * radius, 2.0 * radius, length + 2.0 * radius])
        rows, normal, _d, _c = box_box_core(bpos, bR, side, pos, R, cside, max_contacts)
        for j in range(rows.shape[0]):
            for i in range(3):
                rows[j, 3 + i] = normal[i]
        return rows
    out = np.empty((1, 9))
    n = spheres_contact(pl, radius, pb, 0.0, out[0])
    return out[:n]


def capsule_sphere(g1: Geom, g2: Geom, max_contacts: int) -> np.ndarray:
    """Capsule-sphere contacts (0 or 1, 9) (sphere-capsule by swapping, as ODE)."""
    return capsule_sphere_kernel(as_f64(g1.pos), as_f64(g1.R), float(g1.radius), float(g1.length),
                                 as_f64(g2.pos), float(g2.radius))


def capsule_capsule(g1: Geom, g2: Geom, max_contacts: int) -> np.ndarray:
    """Capsule-capsule contacts (0..2, 9)."""
    return capsule_capsule_kernel(as_f64(g1.pos), as_f64(g1.R), float(g1.radius), float(g1.length),
                                  as_f64(g2.pos), as_f64(g2.R), float(g2.radius), float(g2.length),
                                  int(max_contacts))


def capsule_box(g1: Geom, g2: Geom, max_contacts: int) -> np.ndarray:
    """Capsule-box contacts (box-capsule by swapping, as ODE)."""
    return capsule_box_kernel(as_f64(g1.pos), as_f64(g1.R), float(g1.radius), float(g1.length),
                              as_f64(g2.pos), as_f64(g2.R), as_f64(g2.lengths), int(max_contacts))
