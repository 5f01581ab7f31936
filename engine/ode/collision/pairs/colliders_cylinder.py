"""Colliders of the cylinder: with a plane, sphere, box, cylinder and capsule.

A cylinder (radius ``r``, length ``l`` in metres) lies along its local z
axis, centred on its position; its caps are at local z = +-l/2. Every
collider returns contact rows ``pos (3), normal (3), depth, side1, side2``
(float64, shape (k, 9)) with ODE's convention: the normal points into g1
(from g2 towards g1), depth > 0 is penetration, sides are -1.

* cylinder-plane follows ODE's layout: face-on (axis parallel to the plane
  normal within 1e-7) up to 4 points on the penetrating cap rim, 90 degrees
  apart; otherwise the deepest rim point of each cap at or below the plane.
* cylinder-sphere: one contact from the exact geometry (closest point of the
  solid cylinder, or the least-penetration face when the centre is inside).
* cylinder-box, cylinder-cylinder, capsule-cylinder: exact penetration
  depth and direction (GJK/EPA, see the gjk module), then contact points: a
  box face under the cylinder gets an octagon of the facing cap's rim
  (cylinder axis within acos 0.9 of the normal) or the cylinder's lowest
  side line, clipped to the face and its plane (up to 8 / 2 points, as
  ODE's layout); two caps face to
  face get the rim points 45 degrees apart lying over the other cap (8 for
  equal coaxial caps); otherwise one point halfway between the deepest
  points. ODE 0.16.2 uses libccd for cylinder-cylinder and capsule-cylinder
  and departs from the exact geometry there (docs/ode-behaviour.md).
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from engine.ode.collision.geoms.primitives import Box, Capsule, Cylinder, Plane, Sphere
from engine.ode.collision.pairs import gjk
from engine.ode.kernels import detmath

#: Tolerance on |axis . normal| - 1 for the face-on cylinder-plane case.
_FACE_ON_TOL = 1e-7


@njit(cache=True, nogil=True)
def _row(out: np.ndarray, k: int, p0: float, p1: float, p2: float,
         n0: float, n1: float, n2: float, depth: float) -> None:
    """Write contact row ``k`` of ``out`` (k_max, 9): position, normal, depth, sides -1."""
    out[k, 0] = p0
    out[k, 1] = p1
    out[k, 2] = p2
    out[k, 3] = n0
    out[k, 4] = n1
    out[k, 5] = n2
    out[k, 6] = depth
    out[k, 7] = -1.0
    out[k, 8] = -1.0


@njit(cache=True, nogil=True)
def cylinder_plane_kernel(pos: np.ndarray, R: np.ndarray, radius: float, length: float,
                          plane: np.ndarray, max_contacts: int) -> np.ndarray:
    """Contacts of a cylinder (pos (3,) m, R (3,3), radius, length m) with a
    plane (params (4,): unit normal, offset d; n.x = d on the plane).

    Returns (k, 9) rows, k <= min(4, max_contacts); normal = the plane normal.
    """
    out = np.zeros((4, 9))
    nx, ny, nz = plane[0], plane[1], plane[2]
    d = plane[3]
    ax, ay, az = R[0, 2], R[1, 2], R[2, 2]
    h = 0.5 * length
    cos_an = ax * nx + ay * ny + az * nz
    k = 0
    if abs(abs(cos_an) - 1.0) < _FACE_ON_TOL:
        # Face-on: 4 rim points of the cap nearer the plane's inside.
        dep_lo = d - (nx * (pos[0] - h * ax) + ny * (pos[1] - h * ay) + nz * (pos[2] - h * az))
        dep_hi = d - (nx * (pos[0] + h * ax) + ny * (pos[1] + h * ay) + nz * (pos[2] + h * az))
        sgn = -1.0 if dep_lo >= dep_hi else 1.0
        if max(dep_lo, dep_hi) < 0.0:
            return out[:0]
        cx = pos[0] + sgn * h * ax
        cy = pos[1] + sgn * h * ay
        cz = pos[2] + sgn * h * az
        # Rim directions: a helper axis (x, or y when the axis has an x part)
        # made perpendicular to the cylinder axis, and its cross with the axis.
        if abs(ax) < _FACE_ON_TOL:
            hx, hy, hz = 1.0, 0.0, 0.0
        else:
            hx, hy, hz = 0.0, 1.0, 0.0
        t = hx * ax + hy * ay + hz * az
        e1x, e1y, e1z = hx - t * ax, hy - t * ay, hz - t * az
        s = radius / math.sqrt(e1x * e1x + e1y * e1y + e1z * e1z)
        e1x *= s
        e1y *= s
        e1z *= s
        e2x = ay * e1z - az * e1y
        e2y = az * e1x - ax * e1z
        e2z = ax * e1y - ay * e1x
        for i in range(4):
            if i == 0:
                px, py, pz = cx + e1x, cy + e1y, cz + e1z
            elif i == 1:
                px, py, pz = cx - e1x, cy - e1y, cz - e1z
            elif i == 2:
                px, py, pz = cx + e2x, cy + e2y, cz + e2z
            else:
                px, py, pz = cx - e2x, cy - e2y, cz - e2z
            dep = d - (nx * px + ny * py + nz * pz)
            if dep > 0.0 and k < max_contacts:
                _row(out, k, px, py, pz, nx, ny, nz, dep)
                k += 1
        return out[:k]
    # Tilted: the deepest rim point of each cap, radius r along -(n - (n.a) a).
    cx_ = cos_an * ax - nx
    cy_ = cos_an * ay - ny
    cz_ = cos_an * az - nz
    s = radius / math.sqrt(cx_ * cx_ + cy_ * cy_ + cz_ * cz_)
    cx_ *= s
    cy_ *= s
    cz_ *= s
    for i in range(2):
        sgn = -1.0 if i == 0 else 1.0
        px = pos[0] + sgn * h * ax + cx_
        py = pos[1] + sgn * h * ay + cy_
        pz = pos[2] + sgn * h * az + cz_
        dep = d - (nx * px + ny * py + nz * pz)
        if dep >= 0.0 and k < max_contacts:
            _row(out, k, px, py, pz, nx, ny, nz, dep)
            k += 1
    return out[:k]


def cylinder_plane(g1: Cylinder, g2: Plane, max_contacts: int) -> np.ndarray:
    """Contacts (k, 9) of cylinder ``g1`` with plane ``g2``."""
    return cylinder_plane_kernel(np.ascontiguousarray(g1.pos, dtype=np.float64),
                                 np.ascontiguousarray(g1.R, dtype=np.float64),
                                 float(g1.radius), float(g1.length),
                                 np.ascontiguousarray(g2.params, dtype=np.float64),
                                 int(max_contacts))


@njit(cache=True, nogil=True)
def cylinder_sphere_kernel(pos: np.ndarray, R: np.ndarray, radius: float, length: float,
                           spos: np.ndarray, sradius: float) -> np.ndarray:
    """Contact of a cylinder (pos (3,) m, R (3,3), radius, length m) with a
    sphere (centre spos (3,) m, radius m): (0 or 1, 9) row, normal from the
    sphere into the cylinder, position halfway through the overlap.
    """
    out = np.zeros((1, 9))
    h = 0.5 * length
    dx = spos[0] - pos[0]
    dy = spos[1] - pos[1]
    dz = spos[2] - pos[2]
    # Sphere centre in cylinder coordinates.
    lx = R[0, 0] * dx + R[1, 0] * dy + R[2, 0] * dz
    ly = R[0, 1] * dx + R[1, 1] * dy + R[2, 1] * dz
    lz = R[0, 2] * dx + R[1, 2] * dy + R[2, 2] * dz
    rho = math.sqrt(lx * lx + ly * ly)
    if rho > 0.0:
        ux, uy = lx / rho, ly / rho
    else:
        ux, uy = 1.0, 0.0
    if rho <= radius and abs(lz) <= h:
        # Centre inside: leave through the nearest face.
        side_pen = radius - rho
        cap_pen = h - abs(lz)
        if cap_pen <= side_pen:
            sz = 1.0 if lz >= 0.0 else -1.0
            ox, oy, oz = 0.0, 0.0, sz           # outward direction (local)
            qx, qy, qz = lx, ly, sz * h         # surface point (local)
            depth = sradius + cap_pen
        else:
            ox, oy, oz = ux, uy, 0.0
            qx, qy, qz = radius * ux, radius * uy, lz
            depth = sradius + side_pen
    else:
        qr = min(rho, radius)
        qx, qy = qr * ux, qr * uy
        qz = min(max(lz, -h), h)
        ex, ey, ez = lx - qx, ly - qy, lz - qz
        dist = math.sqrt(ex * ex + ey * ey + ez * ez)
        if dist > sradius:
            return out[:0]
        if dist > 0.0:
            ox, oy, oz = ex / dist, ey / dist, ez / dist
        else:
            ox, oy, oz = ux, uy, 0.0
        depth = sradius - dist
    # World normal = -outward; position = surface point moved half the depth inwards.
    nx = -(R[0, 0] * ox + R[0, 1] * oy + R[0, 2] * oz)
    ny = -(R[1, 0] * ox + R[1, 1] * oy + R[1, 2] * oz)
    nz = -(R[2, 0] * ox + R[2, 1] * oy + R[2, 2] * oz)
    wx = pos[0] + R[0, 0] * qx + R[0, 1] * qy + R[0, 2] * qz
    wy = pos[1] + R[1, 0] * qx + R[1, 1] * qy + R[1, 2] * qz
    wz = pos[2] + R[2, 0] * qx + R[2, 1] * qy + R[2, 2] * qz
    _row(out, 0, wx + 0.5 * depth * nx, wy + 0.5 * depth * ny, wz + 0.5 * depth * nz,
         nx, ny, nz, depth)
    return out


def cylinder_sphere(g1: Cylinder, g2: Sphere, max_contacts: int) -> np.ndarray:
    """Contact (k <= 1, 9) of cylinder ``g1`` with sphere ``g2``."""
    return cylinder_sphere_kernel(np.ascontiguousarray(g1.pos, dtype=np.float64),
                                  np.ascontiguousarray(g1.R, dtype=np.float64),
                                  float(g1.radius), float(g1.length),
                                  np.ascontiguousarray(g2.pos, dtype=np.float64),
                                  float(g2.radius))


# ----------------------------------------------------------------------------
# Convex pairs (cylinder-box, cylinder-cylinder, capsule-cylinder)
#
# The penetration depth of two convex solids A, B is the minimum over unit
# directions n of the support function of A - B, h(n) = h_A(n) + h_B(-n);
# they are apart when it is negative. gjk.query finds it exactly (GJK on the
# cores, EPA when they overlap: see the gjk module) with the direction n*
# from A towards B and the deepest points; the contact normal for g1 = A is
# -n*.
# ----------------------------------------------------------------------------

#: Shape kinds: the gjk module's shape codes (dims = its parameters). numba
#: compiles GJK/EPA once per pair of literal kinds (tens of seconds at install
#: time each) and that version is ~10 % faster than the one for kinds known
#: only at run time: cylinder-box, the common pair, passes its kinds as
#: constants, the rarer pairs as np.int64 values (decision 0029).
_CYL, _BOX, _CAPS = gjk.CYLINDER, gjk.BOX, gjk.CAPSULE
#: |normal . feature normal| above which a flat feature counts as face-on.
_ALIGNED = 0.9999


@njit(cache=True, nogil=True)
def _min_overlap(k1: int, c1: np.ndarray, R1: np.ndarray, d1: np.ndarray,
                 k2: int, c2: np.ndarray, R2: np.ndarray, d2: np.ndarray) -> np.ndarray:
    """(10,) = unit n* (3,) from A to B, the depth (m; < 0: the distance apart),
    the deepest points pA (3,) of A and pB (3,) of B. Shapes: kind _CYL
    (dims = radius, half length), _BOX (dims = half sizes (3,)) or _CAPS
    (radius, half length), centre c (3,), rotation R (3,3)."""
    res = np.empty(10)
    gjk.query(k1, d1, c1, R1, k2, d2, c2, R2, res)
    out = np.empty(10)
    out[0:3] = res[1:4]
    out[3] = -res[0]
    out[4:10] = res[4:10]
    return out


@njit(cache=True, nogil=True)
def _clip(poly: np.ndarray, npts: int, pn: np.ndarray, off: float) -> int:
    """Clip polygon poly[:npts] (rows (3,)) in place to pn.x <= off; new count.

    poly must have room for npts + 1 rows beyond the input (convex clip)."""
    tmp = np.empty((npts + 2, 3))
    k = 0
    for i in range(npts):
        a = poly[i]
        b = poly[(i + 1) % npts]
        da = pn[0] * a[0] + pn[1] * a[1] + pn[2] * a[2] - off
        db = pn[0] * b[0] + pn[1] * b[1] + pn[2] * b[2] - off
        if da <= 0.0:
            tmp[k] = a
            k += 1
        if (da < 0.0 < db) or (db < 0.0 < da):
            t = da / (da - db)
            tmp[k] = a + t * (b - a)
            k += 1
        if npts == 2:
            # a segment: its single edge only
            if db <= 0.0:
                tmp[k] = b
                k += 1
            break
    for i in range(k):
        poly[i] = tmp[i]
    return k


@njit(cache=True, nogil=True)
def _emit(out: np.ndarray, pts: np.ndarray, npts: int, nrm: np.ndarray,
          plane_p: np.ndarray, plane_n: np.ndarray, sign: float, max_contacts: int) -> int:
    """Contacts of points pts[:npts] with depth sign * (plane_p - x).plane_n
    (kept when >= 0, deepest first, at most max_contacts, near-duplicates
    dropped); normal nrm. Returns the number written to out."""
    depth = np.empty(npts)
    for i in range(npts):
        depth[i] = sign * ((plane_p[0] - pts[i, 0]) * plane_n[0]
                           + (plane_p[1] - pts[i, 1]) * plane_n[1]
                           + (plane_p[2] - pts[i, 2]) * plane_n[2])
    order = np.argsort(-depth)
    k = 0
    for oi in range(npts):
        i = order[oi]
        if depth[i] < -1e-12 or k >= max_contacts:
            continue
        dup = False
        for j in range(k):
            e0 = out[j, 0] - pts[i, 0]
            e1 = out[j, 1] - pts[i, 1]
            e2 = out[j, 2] - pts[i, 2]
            if e0 * e0 + e1 * e1 + e2 * e2 < 1e-18:
                dup = True
                break
        if dup:
            continue
        _row(out, k, pts[i, 0], pts[i, 1], pts[i, 2], nrm[0], nrm[1], nrm[2],
             max(depth[i], 0.0))
        k += 1
    return k


@njit(cache=True, nogil=True)
def _rim_polygon(cc: np.ndarray, axis: np.ndarray, w: np.ndarray, radius: float,
                 n: int, room: int) -> np.ndarray:
    """(room, 3) array whose first n rows are rim points of the circle (centre
    cc, unit axis, radius), the first one along w (any unit vector not
    parallel to the axis), 2 pi / n apart."""
    t = w[0] * axis[0] + w[1] * axis[1] + w[2] * axis[2]
    e1 = w - t * axis
    ln = math.sqrt(e1[0] ** 2 + e1[1] ** 2 + e1[2] ** 2)
    if ln < 1e-9:
        e1 = np.zeros(3)
        if abs(axis[0]) < 0.6:
            e1[0] = 1.0
        else:
            e1[1] = 1.0
        t = e1[0] * axis[0] + e1[1] * axis[1] + e1[2] * axis[2]
        e1 = e1 - t * axis
        ln = math.sqrt(e1[0] ** 2 + e1[1] ** 2 + e1[2] ** 2)
    e1 = e1 / ln
    e2 = np.empty(3)
    e2[0] = axis[1] * e1[2] - axis[2] * e1[1]
    e2[1] = axis[2] * e1[0] - axis[0] * e1[2]
    e2[2] = axis[0] * e1[1] - axis[1] * e1[0]
    poly = np.zeros((room, 3))
    for k in range(n):
        th = 2.0 * math.pi * k / n
        poly[k] = cc + radius * (detmath.cos(th) * e1 + detmath.sin(th) * e2)
    return poly


@njit(cache=True, nogil=True)
def _single(out: np.ndarray, res: np.ndarray) -> np.ndarray:
    """One contact from _min_overlap's res: halfway between the deepest
    points, normal -n*."""
    for j in range(3):
        out[0, j] = 0.5 * (res[4 + j] + res[7 + j])
    _row(out, 0, out[0, 0], out[0, 1], out[0, 2], -res[0], -res[1], -res[2], res[3])
    return out[:1]


@njit(cache=True, nogil=True)
def cylinder_box_kernel(cpos: np.ndarray, cR: np.ndarray, radius: float, length: float,
                        bpos: np.ndarray, bR: np.ndarray, lengths: np.ndarray,
                        max_contacts: int) -> np.ndarray:
    """Contacts (k, 9) of a cylinder (pos (3,), R (3,3), radius, length m) with
    a box (pos (3,), R (3,3), side lengths (3,) m); normal into the cylinder.

    Exact depth and normal; when the box face is the contact feature, a rim
    octagon of the facing cap (cylinder axis within acos 0.9 of the normal)
    or the cylinder's lowest side line is clipped to that face and to its
    plane, giving up to 8 (or 2) points."""
    d1 = np.array([radius, 0.5 * length, 0.0])
    d2 = 0.5 * lengths
    res = _min_overlap(_CYL, cpos, cR, d1, _BOX, bpos, bR, d2)
    if res[3] <= 0.0:
        return np.zeros((0, 9))
    nstar = res[:3].copy()
    nrm = -nstar
    out = np.zeros((max(max_contacts, 1) + 16, 9))
    # box face facing the cylinder: outward normal ~ nrm
    fi = 0
    fdot = 0.0
    for i in range(3):
        s = bR[0, i] * nrm[0] + bR[1, i] * nrm[1] + bR[2, i] * nrm[2]
        if abs(s) > abs(fdot):
            fi = i
            fdot = s
    if abs(fdot) < _ALIGNED:
        return _single(out, res)
    fsg = 1.0 if fdot > 0.0 else -1.0
    fn = fsg * bR[:, fi].copy()
    fp = bpos + d2[fi] * fn
    axis = cR[:, 2].copy()
    an = axis[0] * nstar[0] + axis[1] * nstar[1] + axis[2] * nstar[2]
    asg = 1.0 if an >= 0.0 else -1.0
    if abs(an) >= 0.9:
        cc = cpos + asg * 0.5 * length * axis
        poly = _rim_polygon(cc, axis, nstar, radius, 8, 40)
        npts = 8
    else:
        w = nstar - an * axis
        w = w / math.sqrt(w[0] ** 2 + w[1] ** 2 + w[2] ** 2)
        poly = np.zeros((40, 3))
        poly[0] = cpos + radius * w + 0.5 * length * axis
        poly[1] = cpos + radius * w - 0.5 * length * axis
        npts = 2
    # clip to the face's four side planes and to the face plane
    for i in range(3):
        if i == fi or npts == 0:
            continue
        e = bR[:, i].copy()
        ce = e[0] * bpos[0] + e[1] * bpos[1] + e[2] * bpos[2]
        npts = _clip(poly, npts, e, ce + d2[i])
        if npts == 0:
            break
        npts = _clip(poly, npts, -e, -ce + d2[i])
    if npts > 0:
        npts = _clip(poly, npts, fn, fn[0] * fp[0] + fn[1] * fp[1] + fn[2] * fp[2])
    k = _emit(out, poly, npts, nrm, fp, fn, 1.0, max_contacts)
    if k == 0:
        return _single(out, res)
    return out[:k]


def cylinder_box(g1: Cylinder, g2: Box, max_contacts: int) -> np.ndarray:
    """Contacts (k, 9) of cylinder ``g1`` with box ``g2``."""
    return cylinder_box_kernel(np.ascontiguousarray(g1.pos, dtype=np.float64),
                               np.ascontiguousarray(g1.R, dtype=np.float64),
                               float(g1.radius), float(g1.length),
                               np.ascontiguousarray(g2.pos, dtype=np.float64),
                               np.ascontiguousarray(g2.R, dtype=np.float64),
                               np.ascontiguousarray(g2.lengths, dtype=np.float64),
                               int(max_contacts))


@njit(cache=True, nogil=True)
def cylinder_cylinder_kernel(p1: np.ndarray, R1: np.ndarray, r1: float, l1: float,
                             p2: np.ndarray, R2: np.ndarray, r2: float, l2: float,
                             max_contacts: int) -> np.ndarray:
    """Contacts (k, 9) of two cylinders (pos (3,), R (3,3), radius, length m);
    normal into the first. Exact depth and normal; caps face to face (both
    axes along the normal) give the rim points 45 degrees apart of each cap
    that lie over the other cap (8 for equal coaxial caps)."""
    d1 = np.array([r1, 0.5 * l1, 0.0])
    d2 = np.array([r2, 0.5 * l2, 0.0])
    res = _min_overlap(np.int64(_CYL), p1, R1, d1, np.int64(_CYL), p2, R2, d2)
    if res[3] <= 0.0:
        return np.zeros((0, 9))
    nstar = res[:3].copy()
    nrm = -nstar
    out = np.zeros((max(max_contacts, 1) + 16, 9))
    a1 = R1[:, 2].copy()
    a2 = R2[:, 2].copy()
    an1 = a1[0] * nstar[0] + a1[1] * nstar[1] + a1[2] * nstar[2]
    an2 = a2[0] * nstar[0] + a2[1] * nstar[1] + a2[2] * nstar[2]
    if abs(an1) < _ALIGNED or abs(an2) < _ALIGNED:
        return _single(out, res)
    # cap of 1 facing 2 (along n*) and cap of 2 facing 1 (along -n*)
    c1 = p1 + (1.0 if an1 >= 0.0 else -1.0) * 0.5 * l1 * a1
    c2 = p2 - (1.0 if an2 >= 0.0 else -1.0) * 0.5 * l2 * a2
    rim1 = _rim_polygon(c1, a1, a2, r1, 8, 8)
    rim2 = _rim_polygon(c2, a2, a1, r2, 8, 8)
    pts = np.zeros((16, 3))
    src = np.zeros(16)
    k = 0
    for i in range(8):
        # rim point of one cap over the other cap's disc (radial distance)
        v = rim1[i] - p2
        t = v[0] * a2[0] + v[1] * a2[1] + v[2] * a2[2]
        q = v - t * a2
        if q[0] ** 2 + q[1] ** 2 + q[2] ** 2 <= r2 * r2 * (1.0 + 1e-9):
            pts[k] = rim1[i]
            src[k] = 1.0
            k += 1
    for i in range(8):
        v = rim2[i] - p1
        t = v[0] * a1[0] + v[1] * a1[1] + v[2] * a1[2]
        q = v - t * a1
        if q[0] ** 2 + q[1] ** 2 + q[2] ** 2 <= r1 * r1 * (1.0 + 1e-9):
            pts[k] = rim2[i]
            src[k] = 2.0
            k += 1
    # depth along the normal: the gap between the two cap planes
    depth = ((c2[0] - c1[0]) * nrm[0] + (c2[1] - c1[1]) * nrm[1]
             + (c2[2] - c1[2]) * nrm[2])
    if k == 0 or depth < 0.0:
        return _single(out, res)
    m = 0
    for i in range(k):
        if m >= max_contacts:
            break
        dup = False
        for j in range(m):
            e = out[j, :3] - pts[i]
            if e[0] ** 2 + e[1] ** 2 + e[2] ** 2 < 1e-18:
                dup = True
                break
        if not dup:
            _row(out, m, pts[i, 0], pts[i, 1], pts[i, 2], nrm[0], nrm[1], nrm[2], depth)
            m += 1
    return out[:m]


def cylinder_cylinder(g1: Cylinder, g2: Cylinder, max_contacts: int) -> np.ndarray:
    """Contacts (k, 9) of cylinder ``g1`` with cylinder ``g2``."""
    return cylinder_cylinder_kernel(np.ascontiguousarray(g1.pos, dtype=np.float64),
                                    np.ascontiguousarray(g1.R, dtype=np.float64),
                                    float(g1.radius), float(g1.length),
                                    np.ascontiguousarray(g2.pos, dtype=np.float64),
                                    np.ascontiguousarray(g2.R, dtype=np.float64),
                                    float(g2.radius), float(g2.length),
                                    int(max_contacts))


@njit(cache=True, nogil=True)
def capsule_cylinder_kernel(p1: np.ndarray, R1: np.ndarray, r1: float, l1: float,
                            p2: np.ndarray, R2: np.ndarray, r2: float, l2: float) -> np.ndarray:
    """Contact (0 or 1, 9) of a capsule (pos (3,), R (3,3), radius, length of
    the cylindrical part m) with a cylinder (pos, R, radius, length m);
    exact depth and normal, into the capsule."""
    d1 = np.array([r1, 0.5 * l1, 0.0])
    d2 = np.array([r2, 0.5 * l2, 0.0])
    res = _min_overlap(np.int64(_CAPS), p1, R1, d1, np.int64(_CYL), p2, R2, d2)
    if res[3] <= 0.0:
        return np.zeros((0, 9))
    out = np.zeros((1, 9))
    return _single(out, res)


def capsule_cylinder(g1: Capsule, g2: Cylinder, max_contacts: int) -> np.ndarray:
    """Contact (k <= 1, 9) of capsule ``g1`` with cylinder ``g2``."""
    return capsule_cylinder_kernel(np.ascontiguousarray(g1.pos, dtype=np.float64),
                                   np.ascontiguousarray(g1.R, dtype=np.float64),
                                   float(g1.radius), float(g1.length),
                                   np.ascontiguousarray(g2.pos, dtype=np.float64),
                                   np.ascontiguousarray(g2.R, dtype=np.float64),
                                   float(g2.radius), float(g2.length))
