"""Colliders for the basic convex primitives: sphere, box, capsule and plane.

Each registered function is a thin wrapper around an ``@njit`` kernel that
takes plain arrays (positions (3,), rotations (3, 3), lengths in metres) and
returns contact rows ``(k, 9)`` float64: ``pos (3), normal (3), depth,
side1, side2`` with ODE's convention (the normal points into g1, i.e. from
g2 towards g1; depth > 0 when penetrating; sides are always -1 here). The
point sets and their order follow ODE 0.16.2's sphere/box/capsule colliders.

Pairs served: sphere-sphere, sphere-plane, sphere-box, box-plane,
capsule-plane, capsule-sphere (and sphere-capsule by swapping),
capsule-capsule, capsule-box (and box-capsule by swapping), box-box (ODE's
dBoxBox: 15-axis separating-axis test, edge axes preferred unless 5%
shallower, reference-face clipping, culling to the requested count).
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from engine.ode.collision.dispatch import register
from engine.ode.collision.geoms.geom import Geom
from engine.ode.constants import dBoxClass, dCapsuleClass, dPlaneClass, dSphereClass
from engine.ode.kernels import detmath

__all__: list[str] = []


# --------------------------------------------------------------------------
# kernels
# --------------------------------------------------------------------------
@njit(cache=True, nogil=True)
def _spheres(p1: np.ndarray, r1: float, p2: np.ndarray, r2: float, out: np.ndarray) -> int:
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


@njit(cache=True, nogil=True)
def sphere_sphere_kernel(p1: np.ndarray, r1: float, p2: np.ndarray, r2: float) -> np.ndarray:
    """Contacts (0 or 1, 9) of two spheres (centres (3,) m, radii m)."""
    out = np.empty((1, 9))
    n = _spheres(p1, r1, p2, r2, out[0])
    return out[:n]


@njit(cache=True, nogil=True)
def sphere_plane_kernel(p: np.ndarray, r: float, plane: np.ndarray) -> np.ndarray:
    """Contacts (0 or 1, 9) of a sphere (centre (3,), radius) with plane (4,) = n, d."""
    out = np.empty((1, 9))
    depth = plane[3] - (p[0] * plane[0] + p[1] * plane[1] + p[2] * plane[2]) + r
    if depth < 0.0:
        return out[:0]
    for i in range(3):
        out[0, i] = p[i] - plane[i] * r
        out[0, 3 + i] = plane[i]
    out[0, 6] = depth
    out[0, 7] = -1.0
    out[0, 8] = -1.0
    return out


@njit(cache=True, nogil=True)
def sphere_box_kernel(p1: np.ndarray, r: float, p2: np.ndarray, R2: np.ndarray,
                      sides: np.ndarray) -> np.ndarray:
    """Contacts (0 or 1, 9) of a sphere (centre (3,), radius) with a box
    (centre (3,), rotation (3, 3), full side lengths (3,))."""
    out = np.empty((1, 9))
    out[0, 7] = -1.0
    out[0, 8] = -1.0
    work = np.empty((5, 3))     # p, t, half, q, rr: one allocation
    p = work[0]
    for i in range(3):
        p[i] = p1[i] - p2[i]
    # sphere centre in box coordinates, clamped to the box
    t = work[1]
    half = work[2]
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
            out[0, i] = p1[i]
            out[0, 3 + i] = R2[i, mini] * s
        out[0, 6] = mind + r
        return out
    q = work[3]
    rr = work[4]
    for i in range(3):
        q[i] = R2[i, 0] * t[0] + R2[i, 1] * t[1] + R2[i, 2] * t[2]
        rr[i] = p[i] - q[i]
    dist = math.sqrt(rr[0] * rr[0] + rr[1] * rr[1] + rr[2] * rr[2])
    depth = r - dist
    if depth < 0.0:
        return out[:0]
    for i in range(3):
        out[0, i] = q[i] + p2[i]
    if dist > 0.0:
        for i in range(3):
            out[0, 3 + i] = rr[i] / dist
    else:
        # centre exactly on the surface: ODE's dNormalize3 falls back to +x
        out[0, 3] = 1.0
        out[0, 4] = 0.0
        out[0, 5] = 0.0
    out[0, 6] = depth
    return out


@njit(cache=True, nogil=True)
def box_plane_kernel(pos: np.ndarray, R: np.ndarray, sides: np.ndarray, plane: np.ndarray,
                     max_contacts: int) -> np.ndarray:
    """Contacts (0..4, 9) of a box (centre (3,), rotation (3, 3), side lengths (3,))
    with a plane (4,): the deepest corner first, then the corners along the
    box edges whose projection on the normal is shortest, then (when 4 are
    asked for) the corner completing the face, as ODE's dCollideBoxPlane."""
    out = np.empty((4, 9))
    # A[j]: signed projection of side j on the plane normal; B[j] = |A[j]|
    A = np.empty(3)
    B = np.empty(3)
    for j in range(3):
        A[j] = sides[j] * (plane[0] * R[0, j] + plane[1] * R[1, j] + plane[2] * R[2, j])
        B[j] = abs(A[j])
    depth = plane[3] + 0.5 * (B[0] + B[1] + B[2]) - (
        plane[0] * pos[0] + plane[1] * pos[1] + plane[2] * pos[2])
    if depth < 0.0:
        return out[:0]
    maxc = min(max_contacts, 4)
    # the deepest corner: step half a side against the normal on every axis
    p = np.empty(3)
    for i in range(3):
        p[i] = pos[i]
    for j in range(3):
        s = -0.5 if A[j] > 0 else 0.5
        for i in range(3):
            p[i] += s * sides[j] * R[i, j]
    for i in range(3):
        out[0, i] = p[i]
    out[0, 6] = depth
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
        for k in range(2):
            e = e1 if k == 0 else e2
            if k == 1 and maxc == 2:
                break
            d = depth - B[e]
            if d < 0.0:
                break
            s = 1.0 if A[e] > 0 else -1.0
            for i in range(3):
                out[ret, i] = p[i] + s * sides[e] * R[i, e]
            out[ret, 6] = d
            ret += 1
        if maxc == 4 and ret == 3:
            # the fourth corner of the face spanned by the two edges
            d4 = out[1, 6] + out[2, 6] - depth
            if d4 > 0.0:
                for i in range(3):
                    out[3, i] = out[1, i] + out[2, i] - p[i]
                out[3, 6] = d4
                ret = 4
    for k in range(ret):
        for i in range(3):
            out[k, 3 + i] = plane[i]
        out[k, 7] = -1.0
        out[k, 8] = -1.0
    return out[:ret]


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
    n = _spheres(c, r1, p2, r2, out[0])
    return out[:n]


@njit(cache=True, nogil=True)
def _dot(a: np.ndarray, b: np.ndarray) -> float:
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]


@njit(cache=True, nogil=True)
def _closest_segment_points(a1: np.ndarray, a2: np.ndarray, b1: np.ndarray, b2: np.ndarray,
                            cp1: np.ndarray, cp2: np.ndarray) -> None:
    """Closest points cp1 on segment a1-a2 and cp2 on segment b1-b2 (all (3,)).

    Same feature order as ODE's dClosestLineSegmentPoints (Voronoi clipping):
    vertex-vertex pairs first, then edge-vertex, then edge-edge; parallel
    segments resolve to an endpoint of at least one segment.
    """
    da = a2 - a1
    db = b2 - b1
    a1b1 = b1 - a1
    # d_ak / d_bk: projections of the vertex-to-vertex vectors on each segment
    da1 = _dot(da, a1b1)
    db1 = _dot(db, a1b1)
    if da1 <= 0 and db1 >= 0:
        cp1[:] = a1
        cp2[:] = b1
        return
    a1b2 = b2 - a1
    da2 = _dot(da, a1b2)
    db2 = _dot(db, a1b2)
    if da2 <= 0 and db2 <= 0:
        cp1[:] = a1
        cp2[:] = b2
        return
    a2b1 = b1 - a2
    da3 = _dot(da, a2b1)
    db3 = _dot(db, a2b1)
    if da3 >= 0 and db3 >= 0:
        cp1[:] = a2
        cp2[:] = b1
        return
    a2b2 = b2 - a2
    da4 = _dot(da, a2b2)
    db4 = _dot(db, a2b2)
    if da4 >= 0 and db4 <= 0:
        cp1[:] = a2
        cp2[:] = b2
        return
    # edge of A against a vertex of B (segments have non-zero length here)
    la = _dot(da, da)
    if da1 >= 0 and da3 <= 0:
        k = da1 / la
        if _dot(db, a1b1 - k * da) >= 0:
            cp1[:] = a1 + k * da
            cp2[:] = b1
            return
    if da2 >= 0 and da4 <= 0:
        k = da2 / la
        if _dot(db, a1b2 - k * da) <= 0:
            cp1[:] = a1 + k * da
            cp2[:] = b2
            return
    lb = _dot(db, db)
    if db1 <= 0 and db2 >= 0:
        k = -db1 / lb
        if _dot(da, -a1b1 - k * db) >= 0:
            cp1[:] = a1
            cp2[:] = b1 + k * db
            return
    if db3 <= 0 and db4 >= 0:
        k = -db3 / lb
        if _dot(da, -a2b1 - k * db) <= 0:
            cp1[:] = a2
            cp2[:] = b1 + k * db
            return
    # edge against edge: solve the 2x2 normal equations of the two lines
    k = _dot(da, db)
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
                if _spheres(s1, r1, s2, r2, out[0]):
                    for i in range(3):
                        s1[i] = p1[i] + hi * ax1[i]
                        s2[i] = p2[i] + (hi + k) * ax2[i]
                    if _spheres(s1, r1, s2, r2, out[1]):
                        return out
            mid = 0.5 * (lo + hi)
            for i in range(3):
                s1[i] = p1[i] + mid * ax1[i]
                s2[i] = p2[i] + (mid + k) * ax2[i]
            n = _spheres(s1, r1, s2, r2, out[0])
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
    _closest_segment_points(a1, a2, b1, b2, s1, s2)
    n = _spheres(s1, r1, s2, r2, out[0])
    return out[:n]


# --------------------------------------------------------------------------
# registered wrappers
# --------------------------------------------------------------------------
def _f(a) -> np.ndarray:
    return np.ascontiguousarray(a, dtype=np.float64)


@register(dSphereClass, dSphereClass)
def sphere_sphere(g1: Geom, g2: Geom, max_contacts: int) -> np.ndarray:
    """Sphere-sphere contacts (0 or 1, 9)."""
    return sphere_sphere_kernel(_f(g1.pos), float(g1.radius), _f(g2.pos), float(g2.radius))


@register(dSphereClass, dPlaneClass)
def sphere_plane(g1: Geom, g2: Geom, max_contacts: int) -> np.ndarray:
    """Sphere-plane contacts (0 or 1, 9)."""
    return sphere_plane_kernel(_f(g1.pos), float(g1.radius), _f(g2.params))


@register(dSphereClass, dBoxClass)
def sphere_box(g1: Geom, g2: Geom, max_contacts: int) -> np.ndarray:
    """Sphere-box contacts (0 or 1, 9)."""
    return sphere_box_kernel(_f(g1.pos), float(g1.radius), _f(g2.pos), _f(g2.R),
                             _f(g2.lengths))


@register(dBoxClass, dPlaneClass)
def box_plane(g1: Geom, g2: Geom, max_contacts: int) -> np.ndarray:
    """Box-plane contacts (0..min(4, max_contacts), 9)."""
    return box_plane_kernel(_f(g1.pos), _f(g1.R), _f(g1.lengths), _f(g2.params),
                            int(max_contacts))


@register(dCapsuleClass, dPlaneClass)
def capsule_plane(g1: Geom, g2: Geom, max_contacts: int) -> np.ndarray:
    """Capsule-plane contacts (0..2, 9)."""
    return capsule_plane_kernel(_f(g1.pos), _f(g1.R), float(g1.radius), float(g1.length),
                                _f(g2.params), int(max_contacts))


@register(dCapsuleClass, dSphereClass)
def capsule_sphere(g1: Geom, g2: Geom, max_contacts: int) -> np.ndarray:
    """Capsule-sphere contacts (0 or 1, 9) (sphere-capsule by swapping, as ODE)."""
    return capsule_sphere_kernel(_f(g1.pos), _f(g1.R), float(g1.radius), float(g1.length),
                                 _f(g2.pos), float(g2.radius))


@register(dCapsuleClass, dCapsuleClass)
def capsule_capsule(g1: Geom, g2: Geom, max_contacts: int) -> np.ndarray:
    """Capsule-capsule contacts (0..2, 9)."""
    return capsule_capsule_kernel(_f(g1.pos), _f(g1.R), float(g1.radius), float(g1.length),
                                  _f(g2.pos), _f(g2.R), float(g2.radius), float(g2.length),
                                  int(max_contacts))


# --------------------------------------------------------------------------
# box-box (ODE's dBoxBox) and capsule-box
# --------------------------------------------------------------------------
@njit(cache=True, nogil=True)
def _clip_rect_quad(h0: float, h1: float, quad: np.ndarray, ret: np.ndarray) -> int:
    """Clip the quadrilateral ``quad`` (4, 2) against the rectangle |x| < h0,
    |y| < h1 (Sutherland-Hodgman, 4 half-planes). Writes up to 8 points into
    ``ret`` (8, 2) and returns how many; stops early once 8 are produced, as
    ODE's intersectRectQuad does."""
    q = np.empty((8, 2))
    r = np.empty((8, 2))
    for i in range(4):
        q[i, 0] = quad[i, 0]
        q[i, 1] = quad[i, 1]
    h = (h0, h1)
    nq = 4
    nr = 0
    full = False
    for d in range(2):
        for sgn in (-1.0, 1.0):
            nr = 0
            for i in range(nq):
                nxt = i + 1 if i + 1 < nq else 0
                inside = sgn * q[i, d] < h[d]
                if inside:
                    r[nr, 0] = q[i, 0]
                    r[nr, 1] = q[i, 1]
                    nr += 1
                    if nr == 8:
                        full = True
                        break
                if inside != (sgn * q[nxt, d] < h[d]):
                    # the edge i -> nxt crosses the clip line x_d = sgn * h_d
                    o = 1 - d
                    r[nr, o] = q[i, o] + (q[nxt, o] - q[i, o]) / (q[nxt, d] - q[i, d]) * (
                        sgn * h[d] - q[i, d])
                    r[nr, d] = sgn * h[d]
                    nr += 1
                    if nr == 8:
                        full = True
                        break
            for i in range(nr):
                q[i, 0] = r[i, 0]
                q[i, 1] = r[i, 1]
            nq = nr
            if full:
                break
        if full:
            break
    for i in range(nr):
        ret[i, 0] = q[i, 0]
        ret[i, 1] = q[i, 1]
    return nr


@njit(cache=True, nogil=True)
def _cull_points(n: int, p: np.ndarray, m: int, i0: int) -> np.ndarray:
    """Indices (m,) of m of the n points p (n, 2) spread evenly in angle
    around their centroid, starting with point i0 (ODE's cullPoints)."""
    if n == 1:
        cx = p[0, 0]
        cy = p[0, 1]
    elif n == 2:
        cx = 0.5 * (p[0, 0] + p[1, 0])
        cy = 0.5 * (p[0, 1] + p[1, 1])
    else:
        # polygon centroid from the shoelace formula
        a = 0.0
        cx = 0.0
        cy = 0.0
        for i in range(n - 1):
            q = p[i, 0] * p[i + 1, 1] - p[i + 1, 0] * p[i, 1]
            a += q
            cx += q * (p[i, 0] + p[i + 1, 0])
            cy += q * (p[i, 1] + p[i + 1, 1])
        q = p[n - 1, 0] * p[0, 1] - p[0, 0] * p[n - 1, 1]
        a = 1.0 / (3.0 * (a + q))
        cx = a * (cx + q * (p[n - 1, 0] + p[0, 0]))
        cy = a * (cy + q * (p[n - 1, 1] + p[0, 1]))
    ang = np.empty(n)
    for i in range(n):
        ang[i] = detmath.atan2(p[i, 1] - cy, p[i, 0] - cx)
    avail = np.ones(n, dtype=np.bool_)
    avail[i0] = False
    iret = np.empty(m, dtype=np.int64)
    iret[0] = i0
    for j in range(1, m):
        a = j * (2.0 * math.pi / m) + ang[i0]
        if a > math.pi:
            a -= 2.0 * math.pi
        best = 1e9
        bi = i0
        for i in range(n):
            if avail[i]:
                diff = abs(ang[i] - a)
                if diff > math.pi:
                    diff = 2.0 * math.pi - diff
                if diff < best:
                    best = diff
                    bi = i
        avail[bi] = False
        iret[j] = bi
    return iret


@njit(cache=True, nogil=True)
def box_box_core(p1: np.ndarray, R1: np.ndarray, side1: np.ndarray, p2: np.ndarray,
                 R2: np.ndarray, side2: np.ndarray, max_contacts: int):
    """ODE's dBoxBox for boxes (centre (3,), rotation (3, 3), full sides (3,)).

    Returns ``(rows (k, 9), normal (3,), depth, code)``: rows hold positions and
    depths only (normal columns 0, sides -1); ``normal`` points from box 1 to
    box 2; code 1-3 / 4-6 = a face of box 1 / box 2, 7-15 = edge-edge, 0 = no
    contact (k = 0). The separating axis of least penetration is chosen among
    the 15 candidates, edge axes winning over faces unless 5% shallower.
    """
    rows = np.zeros((8, 9))
    normal = np.zeros(3)
    # small work vectors and matrices, one allocation each
    vec = np.zeros((5, 3))
    mat = np.empty((2, 3, 3))
    p = vec[0]
    for i in range(3):
        p[i] = p2[i] - p1[i]
    pp = vec[1]
    for j in range(3):
        pp[j] = R1[0, j] * p[0] + R1[1, j] * p[1] + R1[2, j] * p[2]
    A = vec[2]
    B = vec[3]
    for i in range(3):
        A[i] = 0.5 * side1[i]
        B[i] = 0.5 * side2[i]
    # Rr[i, j] = column i of R1 . column j of R2 (R1^T R2); Q = |Rr|
    Rr = mat[0]
    Q = mat[1]
    for i in range(3):
        for j in range(3):
            Rr[i, j] = R1[0, i] * R2[0, j] + R1[1, i] * R2[1, j] + R1[2, i] * R2[2, j]
            Q[i, j] = abs(Rr[i, j])
    s = -math.inf
    invert = False
    code = 0
    nr_col = -1          # >= 0: normal = that column of R1 (code<=3) or R2
    nC = vec[4]          # normal in box-1 coordinates for edge axes (zeros)
    # face axes of box 1
    for i in range(3):
        e1 = pp[i]
        s2 = abs(e1) - (A[i] + B[0] * Q[i, 0] + B[1] * Q[i, 1] + B[2] * Q[i, 2])
        if s2 > 0:
            return rows[:0], normal, 0.0, 0
        if s2 > s:
            s = s2
            nr_col = i
            invert = e1 < 0
            code = i + 1
    # face axes of box 2
    for j in range(3):
        e1 = R2[0, j] * p[0] + R2[1, j] * p[1] + R2[2, j] * p[2]
        s2 = abs(e1) - (A[0] * Q[0, j] + A[1] * Q[1, j] + A[2] * Q[2, j] + B[j])
        if s2 > 0:
            return rows[:0], normal, 0.0, 0
        if s2 > s:
            s = s2
            nr_col = j
            invert = e1 < 0
            code = j + 4
    # edge axes u_i x v_j in box-1 coordinates: (u_i x v_j)_k = eps_ikl Rr[l, j]
    for i in range(3):
        i1 = (i + 1) % 3
        i2 = (i + 2) % 3
        for j in range(3):
            j1 = (j + 1) % 3
            j2 = (j + 2) % 3
            e1 = pp[i2] * Rr[i1, j] - pp[i1] * Rr[i2, j]
            lim = (A[i1] * Q[i2, j] + A[i2] * Q[i1, j] + B[j1] * Q[i, j2] + B[j2] * Q[i, j1])
            s2 = abs(e1) - lim
            if s2 > 0:
                return rows[:0], normal, 0.0, 0
            # the axis n: n[i] = 0, n[i1] = -Rr[i2, j], n[i2] = Rr[i1, j]
            n0 = -Rr[i2, j] if i1 == 0 else (Rr[i1, j] if i2 == 0 else 0.0)
            n1 = -Rr[i2, j] if i1 == 1 else (Rr[i1, j] if i2 == 1 else 0.0)
            n2 = -Rr[i2, j] if i1 == 2 else (Rr[i1, j] if i2 == 2 else 0.0)
            ln = math.sqrt(n0 * n0 + n1 * n1 + n2 * n2)
            if ln > 0:
                s2 /= ln
                # ODE's fudge factor: an edge axis wins unless 5% shallower
                if s2 * 1.05 > s:
                    s = s2
                    nr_col = -1
                    nC[0] = n0 / ln
                    nC[1] = n1 / ln
                    nC[2] = n2 / ln
                    invert = e1 < 0
                    code = 7 + 3 * i + j
    if code == 0:
        return rows[:0], normal, 0.0, 0
    if nr_col >= 0:
        Rn = R1 if code <= 3 else R2
        for k in range(3):
            normal[k] = Rn[k, nr_col]
    else:
        for k in range(3):
            normal[k] = R1[k, 0] * nC[0] + R1[k, 1] * nC[1] + R1[k, 2] * nC[2]
    if invert:
        for k in range(3):
            normal[k] = -normal[k]
    depth = -s

    if code > 6:
        # edge-edge: midpoint of the closest points of the two touching edges
        pa = p1.copy()
        for j in range(3):
            sg = 1.0 if (normal[0] * R1[0, j] + normal[1] * R1[1, j]
                         + normal[2] * R1[2, j]) > 0 else -1.0
            for i in range(3):
                pa[i] += sg * A[j] * R1[i, j]
        pb = p2.copy()
        for j in range(3):
            sg = -1.0 if (normal[0] * R2[0, j] + normal[1] * R2[1, j]
                          + normal[2] * R2[2, j]) > 0 else 1.0
            for i in range(3):
                pb[i] += sg * B[j] * R2[i, j]
        ua = R1[:, (code - 7) // 3].copy()
        ub = R2[:, (code - 7) % 3].copy()
        # closest approach of the infinite lines pa + alpha ua, pb + beta ub
        dp = pb - pa
        uaub = ua[0] * ub[0] + ua[1] * ub[1] + ua[2] * ub[2]
        q1 = ua[0] * dp[0] + ua[1] * dp[1] + ua[2] * dp[2]
        q2 = -(ub[0] * dp[0] + ub[1] * dp[1] + ub[2] * dp[2])
        dd = 1.0 - uaub * uaub
        alpha = 0.0
        beta = 0.0
        if dd > 0.0001:
            dd = 1.0 / dd
            alpha = (q1 + uaub * q2) * dd
            beta = (uaub * q1 + q2) * dd
        for i in range(3):
            rows[0, i] = 0.5 * (pa[i] + ua[i] * alpha + pb[i] + ub[i] * beta)
        rows[0, 6] = depth
        rows[0, 7] = -1.0
        rows[0, 8] = -1.0
        return rows[:1], normal, depth, code

    # face case: reference face on box a, incident face on box b
    face = np.empty((4, 3))      # normal2, nr, anr, center
    normal2 = face[0]
    if code <= 3:
        Ra, Rb, pa, pb, Sa, Sb = R1, R2, p1, p2, A, B
        for k in range(3):
            normal2[k] = normal[k]
    else:
        Ra, Rb, pa, pb, Sa, Sb = R2, R1, p2, p1, B, A
        for k in range(3):
            normal2[k] = -normal[k]
    nr = face[1]
    anr = face[2]
    for j in range(3):
        nr[j] = Rb[0, j] * normal2[0] + Rb[1, j] * normal2[1] + Rb[2, j] * normal2[2]
        anr[j] = abs(nr[j])
    # incident face = the face of b most anti-parallel to the normal
    if anr[1] > anr[0]:
        if anr[1] > anr[2]:
            a1, lanr, a2 = 0, 1, 2
        else:
            a1, a2, lanr = 0, 1, 2
    else:
        if anr[0] > anr[2]:
            lanr, a1, a2 = 0, 1, 2
        else:
            a1, a2, lanr = 0, 1, 2
    center = face[3]
    sc = 1.0 if nr[lanr] < 0 else -1.0
    for i in range(3):
        center[i] = pb[i] - pa[i] + sc * Sb[lanr] * Rb[i, lanr]
    codeN = code - 1 if code <= 3 else code - 4
    if codeN == 0:
        code1, code2 = 1, 2
    elif codeN == 1:
        code1, code2 = 0, 2
    else:
        code1, code2 = 0, 1
    c1 = center[0] * Ra[0, code1] + center[1] * Ra[1, code1] + center[2] * Ra[2, code1]
    c2 = center[0] * Ra[0, code2] + center[1] * Ra[1, code2] + center[2] * Ra[2, code2]
    m11 = Ra[0, code1] * Rb[0, a1] + Ra[1, code1] * Rb[1, a1] + Ra[2, code1] * Rb[2, a1]
    m12 = Ra[0, code1] * Rb[0, a2] + Ra[1, code1] * Rb[1, a2] + Ra[2, code1] * Rb[2, a2]
    m21 = Ra[0, code2] * Rb[0, a1] + Ra[1, code2] * Rb[1, a1] + Ra[2, code2] * Rb[2, a1]
    m22 = Ra[0, code2] * Rb[0, a2] + Ra[1, code2] * Rb[1, a2] + Ra[2, code2] * Rb[2, a2]
    # corners of the incident face in the reference face's 2D coordinates
    k1 = m11 * Sb[a1]
    k2 = m21 * Sb[a1]
    k3 = m12 * Sb[a2]
    k4 = m22 * Sb[a2]
    quad = np.empty((4, 2))
    quad[0, 0] = c1 - k1 - k3
    quad[0, 1] = c2 - k2 - k4
    quad[1, 0] = c1 - k1 + k3
    quad[1, 1] = c2 - k2 + k4
    quad[2, 0] = c1 + k1 + k3
    quad[2, 1] = c2 + k2 + k4
    quad[3, 0] = c1 + k1 - k3
    quad[3, 1] = c2 + k2 - k4
    ret = np.empty((8, 2))
    n = _clip_rect_quad(Sa[code1], Sa[code2], quad, ret)
    if n < 1:
        return rows[:0], normal, depth, 0
    # back from 2D to 3D on the incident face (inverse of the 2x2 map m),
    # keeping the points below the reference face
    point = np.empty((8, 3))
    dep = np.empty(8)
    det1 = 1.0 / (m11 * m22 - m12 * m21)
    m11 *= det1
    m12 *= det1
    m21 *= det1
    m22 *= det1
    cnum = 0
    for j in range(n):
        u = m22 * (ret[j, 0] - c1) - m12 * (ret[j, 1] - c2)
        v = -m21 * (ret[j, 0] - c1) + m11 * (ret[j, 1] - c2)
        for i in range(3):
            point[cnum, i] = center[i] + u * Rb[i, a1] + v * Rb[i, a2]
        dep[cnum] = Sa[codeN] - (normal2[0] * point[cnum, 0] + normal2[1] * point[cnum, 1]
                                 + normal2[2] * point[cnum, 2])
        if dep[cnum] >= 0:
            ret[cnum, 0] = ret[j, 0]
            ret[cnum, 1] = ret[j, 1]
            cnum += 1
    if cnum < 1:
        return rows[:0], normal, depth, 0
    maxc = min(max_contacts, cnum)
    if maxc < 1:
        maxc = 1
    if cnum <= maxc:
        idx = np.arange(cnum)
    else:
        i1 = 0
        md = dep[0]
        for i in range(1, cnum):
            if dep[i] > md:
                md = dep[i]
                i1 = i
        idx = _cull_points(cnum, ret, maxc, i1)
    k = idx.shape[0]
    for j in range(k):
        for i in range(3):
            rows[j, i] = point[idx[j], i] + pa[i]
        rows[j, 6] = dep[idx[j]]
        rows[j, 7] = -1.0
        rows[j, 8] = -1.0
    return rows[:k], normal, depth, code


@njit(cache=True, nogil=True)
def box_box_kernel(p1: np.ndarray, R1: np.ndarray, side1: np.ndarray, p2: np.ndarray,
                   R2: np.ndarray, side2: np.ndarray, max_contacts: int) -> np.ndarray:
    """Contacts (0..min(8, max_contacts), 9) of two boxes; normal into box 1."""
    rows, normal, _depth, _code = box_box_core(p1, R1, side1, p2, R2, side2, max_contacts)
    for j in range(rows.shape[0]):
        for i in range(3):
            rows[j, 3 + i] = -normal[i]
    return rows


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
    n = _spheres(pl, radius, pb, 0.0, out[0])
    return out[:n]


@register(dBoxClass, dBoxClass)
def box_box(g1: Geom, g2: Geom, max_contacts: int) -> np.ndarray:
    """Box-box contacts (0..min(8, max_contacts), 9), ODE's dBoxBox."""
    return box_box_kernel(_f(g1.pos), _f(g1.R), _f(g1.lengths), _f(g2.pos), _f(g2.R),
                          _f(g2.lengths), int(max_contacts))


@register(dCapsuleClass, dBoxClass)
def capsule_box(g1: Geom, g2: Geom, max_contacts: int) -> np.ndarray:
    """Capsule-box contacts (box-capsule by swapping, as ODE)."""
    return capsule_box_kernel(_f(g1.pos), _f(g1.R), float(g1.radius), float(g1.length),
                              _f(g2.pos), _f(g2.R), _f(g2.lengths), int(max_contacts))
