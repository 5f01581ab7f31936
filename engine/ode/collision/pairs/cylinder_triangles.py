"""A cylinder against a set of mesh triangles (numba kernel).

``cylinder_triangles_kernel``: as for polytopes, but the cylinder's support
function is curved, so sampled directions are refined by golden-section
searches along the normal arcs of ring edges and a compass search inside the
corners' normal cones. See ``colliders_trimesh_convex``.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from engine.ode.collision.pairs.convex_triangles import (
    _consider,
    _witness,
)
from engine.ode.collision.pairs.mesh_surface import (
    _CAP_COS,
    _EPS,
    _KEEP_SIDE,
    _NRIM,
    _PER_TRI,
    _clip_poly,
    _cross_unit,
    _ensure_full_depth,
    _prism_points,
    _put,
    _ring,
    _tri_h,
    admissible,
)
from engine.ode.kernels import detmath
from engine.ode.kernels.vec import dot3


# --------------------------------------------------------------------------
# cylinder against triangles
# --------------------------------------------------------------------------
@njit(cache=True, nogil=True)
def _cyl_min(c: np.ndarray, a: np.ndarray, r: float, hl: float, d: np.ndarray) -> float:
    """min over the cylinder (centre c, unit axis a, radius r, half length hl) of d.x."""
    an = dot3(a, d)
    return dot3(c, d) - hl * abs(an) - r * math.sqrt(max(0.0, dot3(d, d) - an * an))


@njit(cache=True, nogil=True)
def _cyl_touches_tri(c: np.ndarray, a: np.ndarray, r: float, hl: float, V: np.ndarray,
                     T: np.ndarray, t: int) -> bool:
    """Whether flat triangle t meets the solid cylinder (touching counts)."""
    poly = np.empty((6, 3))
    for i in range(3):
        poly[i] = V[T[t, i]]
    ca = dot3(a, c)
    tol = _EPS * max(1.0, r + hl)
    npts = _clip_poly(poly, 3, a, ca + hl + tol)
    npts = _clip_poly(poly, npts, -a, -ca + hl + tol)
    if npts == 0:
        return False
    # distance from the axis line to the clipped polygon
    rr = (r + tol) * (r + tol)
    for i in range(npts):
        p = poly[i]
        q = poly[(i + 1) % npts]
        # closest points of the line c + s a and segment [p, q]
        w = p - c
        e = q - p
        ee = dot3(e, e)
        ae = dot3(a, e)
        den = ee - ae * ae
        u = 0.0
        if den > 1e-30 * max(ee, 1e-30):
            u = min(max((ae * dot3(a, w) - dot3(e, w)) / den, 0.0), 1.0)
        x = w + u * e
        s = dot3(a, x)
        dist2 = dot3(x, x) - s * s
        if dist2 <= rr:
            return True
    # the axis crossing the polygon's inside (the polygon lies in t's plane)
    if npts < 3:
        return False
    n = np.cross(V[T[t, 1]] - V[T[t, 0]], V[T[t, 2]] - V[T[t, 0]])
    an = dot3(n, a)
    if abs(an) < 1e-300:
        return False
    s = dot3(n, poly[0] - c) / an
    x = c + s * a
    sign = 0.0
    for i in range(npts):
        cr = np.cross(poly[(i + 1) % npts] - poly[i], x - poly[i])
        v = dot3(cr, n)
        if v * sign < 0.0:
            return False
        if v != 0.0:
            sign = v
    return True


@njit(cache=True, nogil=True)
def _cyl_val(V: np.ndarray, T: np.ndarray, t: int, c: np.ndarray, a: np.ndarray, r: float,
             hl: float, d: np.ndarray) -> float:
    return _tri_h(V, T, t, d) - _cyl_min(c, a, r, hl, d)


@njit(cache=True, nogil=True)
def _arc_min(V: np.ndarray, T: np.ndarray, FN: np.ndarray, nb_ptr: np.ndarray,
             nb_idx: np.ndarray, t: int, c: np.ndarray, a: np.ndarray, r: float, hl: float,
             u: np.ndarray, w: np.ndarray, ang: float, best: np.ndarray) -> None:
    """Golden-section search of the overlap along the arc cos(s) u + sin(s) w,
    s in [0, ang] (the normal arc of a mesh edge), keeping the result in best."""
    g = 0.5 * (math.sqrt(5.0) - 1.0)
    lo, hi = 0.0, ang
    d = np.empty(3)
    x1 = hi - g * (hi - lo)
    x2 = lo + g * (hi - lo)
    d[:] = detmath.cos(x1) * u + detmath.sin(x1) * w
    f1 = _cyl_val(V, T, t, c, a, r, hl, d)
    d[:] = detmath.cos(x2) * u + detmath.sin(x2) * w
    f2 = _cyl_val(V, T, t, c, a, r, hl, d)
    for _ in range(60):
        if hi - lo < 1e-9:
            break
        if f1 <= f2:
            hi = x2
            x2 = x1
            f2 = f1
            x1 = hi - g * (hi - lo)
            d[:] = detmath.cos(x1) * u + detmath.sin(x1) * w
            f1 = _cyl_val(V, T, t, c, a, r, hl, d)
        else:
            lo = x1
            x1 = x2
            f1 = f2
            x2 = lo + g * (hi - lo)
            d[:] = detmath.cos(x2) * u + detmath.sin(x2) * w
            f2 = _cyl_val(V, T, t, c, a, r, hl, d)
    s = 0.5 * (lo + hi)
    d[:] = detmath.cos(s) * u + detmath.sin(s) * w
    _consider(V, T, FN, nb_ptr, nb_idx, t, d, _cyl_val(V, T, t, c, a, r, hl, d), best)


@njit(cache=True, nogil=True)
def _compass(V: np.ndarray, T: np.ndarray, FN: np.ndarray, nb_ptr: np.ndarray,
             nb_idx: np.ndarray, t: int, c: np.ndarray, a: np.ndarray, r: float, hl: float,
             best: np.ndarray) -> None:
    """Compass search on the sphere from best (4,) (improved in place),
    staying among admissible directions: 16 tangent steps, halved down to
    1e-3 rad when none improves (the minima inside a vertex's cone are smooth,
    so the overlap is then within ~r 1e-6 of it; minima on the cone's edges
    are found exactly by the arc searches)."""
    n = best[:3].copy()
    v = best[3]
    step = 0.05
    q = np.empty(3)
    while step > 1e-3:
        if abs(n[0]) < 0.6:
            tx, ty, tz = 0.0, -n[2], n[1]
        else:
            tx, ty, tz = n[2], 0.0, -n[0]
        tl = math.sqrt(tx * tx + ty * ty + tz * tz)
        tx, ty, tz = tx / tl, ty / tl, tz / tl
        ux = n[1] * tz - n[2] * ty
        uy = n[2] * tx - n[0] * tz
        uz = n[0] * ty - n[1] * tx
        improved = False
        for i in range(16):
            th = 2.0 * math.pi * i / 16
            ct, st = detmath.cos(th), detmath.sin(th)
            q[0] = n[0] + step * (ct * tx + st * ux)
            q[1] = n[1] + step * (ct * ty + st * uy)
            q[2] = n[2] + step * (ct * tz + st * uz)
            ql = math.sqrt(dot3(q, q))
            q[0], q[1], q[2] = q[0] / ql, q[1] / ql, q[2] / ql
            val = _cyl_val(V, T, t, c, a, r, hl, q)
            if val < v and admissible(V, T, FN, nb_ptr, nb_idx, t, q):
                v = val
                n[:] = q
                improved = True
        if not improved:
            step *= 0.5
    best[0], best[1], best[2], best[3] = n[0], n[1], n[2], v


@njit(cache=True, nogil=True)
def _edge_faces(T: np.ndarray, vt_ptr: np.ndarray, vt_idx: np.ndarray, a: int,
                b: int) -> tuple:
    """Up to two triangles containing both vertices a and b, and their count."""
    f0 = -1
    f1 = -1
    cnt = 0
    for j in range(vt_ptr[a], vt_ptr[a + 1]):
        f = vt_idx[j]
        if T[f, 0] == b or T[f, 1] == b or T[f, 2] == b:
            if cnt == 0:
                f0 = f
            elif cnt == 1:
                f1 = f
            cnt += 1
    return f0, f1, cnt


@njit(cache=True, nogil=True)
def _cyl_best_axis(c: np.ndarray, a: np.ndarray, r: float, hl: float, V: np.ndarray,
                   T: np.ndarray, FN: np.ndarray, nb_ptr: np.ndarray, nb_idx: np.ndarray,
                   vt_ptr: np.ndarray, vt_idx: np.ndarray, t: int) -> np.ndarray:
    """(4,): the admissible direction of least overlap of the cylinder and
    triangle t, and that overlap (inf if none)."""
    best = np.array([0.0, 0.0, 0.0, np.inf])
    faces, edges = _ring(T, vt_ptr, vt_idx, t)
    d = np.empty(3)
    # face normals around t and the cylinder's axis
    for i in range(faces.shape[0]):
        d[:] = FN[faces[i]]
        if dot3(d, d) > 0.5:
            _consider(V, T, FN, nb_ptr, nb_idx, t, d, _cyl_val(V, T, t, c, a, r, hl, d), best)
    for sg in (1.0, -1.0):
        d[:] = sg * a
        _consider(V, T, FN, nb_ptr, nb_idx, t, d, _cyl_val(V, T, t, c, a, r, hl, d), best)
    # edges: the direction across the edge and the axis, and the edge's normal arc
    w = np.empty(3)
    for i in range(edges.shape[0]):
        e = V[edges[i, 1]] - V[edges[i, 0]]
        if _cross_unit(e, a, d):
            for sg in (1.0, -1.0):
                dd = sg * d
                _consider(V, T, FN, nb_ptr, nb_idx, t, dd,
                          _cyl_val(V, T, t, c, a, r, hl, dd), best)
        f0, f1, cnt = _edge_faces(T, vt_ptr, vt_idx, edges[i, 0], edges[i, 1])
        if cnt == 0 or cnt > 2:
            continue
        u = FN[f0].copy()
        if cnt == 2:
            w[:] = FN[f1]
        else:
            # boundary edge: from the face normal to the outward side
            if not _cross_unit(e, u, w):
                continue
            third = 0
            for cc in range(3):
                if T[f0, cc] != edges[i, 0] and T[f0, cc] != edges[i, 1]:
                    third = T[f0, cc]
            if dot3(w, V[third] - V[edges[i, 0]]) > 0.0:
                w[:] = -w
        cosang = min(1.0, max(-1.0, dot3(u, w)))
        ang = detmath.acos(cosang)
        if ang < 1e-6 or ang > math.pi - 1e-6:
            continue
        # orthonormal pair spanning the arc from u towards w
        v2 = w - cosang * u
        v2 = v2 / math.sqrt(dot3(v2, v2))
        _arc_min(V, T, FN, nb_ptr, nb_idx, t, c, a, r, hl, u, v2, ang, best)
    # vertices: the outward radial direction of each corner and sampled directions
    for cc in range(3):
        x = V[T[t, cc]] - c
        x = x - dot3(x, a) * a
        ln = math.sqrt(dot3(x, x))
        if ln > 1e-12:
            d[:] = -x / ln
            _consider(V, T, FN, nb_ptr, nb_idx, t, d, _cyl_val(V, T, t, c, a, r, hl, d), best)
    nseed = 64
    golden = math.pi * (3.0 - math.sqrt(5.0))
    cand = np.array([0.0, 0.0, 0.0, np.inf])
    for i in range(nseed):
        z = 1.0 - (2.0 * i + 1.0) / nseed
        rr = math.sqrt(max(0.0, 1.0 - z * z))
        d[0] = rr * detmath.cos(golden * i)
        d[1] = rr * detmath.sin(golden * i)
        d[2] = z
        _consider(V, T, FN, nb_ptr, nb_idx, t, d, _cyl_val(V, T, t, c, a, r, hl, d), cand)
    if best[3] < np.inf:
        _compass(V, T, FN, nb_ptr, nb_idx, t, c, a, r, hl, best)
    if cand[3] < np.inf:
        _compass(V, T, FN, nb_ptr, nb_idx, t, c, a, r, hl, cand)
        if cand[3] < best[3]:
            best[:] = cand
    return best


@njit(cache=True, nogil=True)
def _cyl_chord(c: np.ndarray, a: np.ndarray, r: float, hl: float, p: np.ndarray,
               u: np.ndarray) -> float:
    """Distance from p (inside the cylinder) along unit u to its surface."""
    x = p - c
    xa = dot3(x, a)
    ua = dot3(u, a)
    s = np.inf
    if ua > 1e-12:
        s = (hl - xa) / ua
    elif ua < -1e-12:
        s = (-hl - xa) / ua
    # side: |x_perp + s u_perp| = r, the positive root
    xp = x - xa * a
    up = u - ua * a
    aa = dot3(up, up)
    if aa > 1e-18:
        bb = dot3(xp, up)
        cc = dot3(xp, xp) - r * r
        disc = bb * bb - aa * cc
        if disc >= 0.0:
            s = min(s, (-bb + math.sqrt(disc)) / aa)
    return max(s, 0.0) if s < np.inf else 0.0


@njit(cache=True, nogil=True)
def cylinder_triangles_kernel(c: np.ndarray, R: np.ndarray, radius: float, length: float,
                              V: np.ndarray, T: np.ndarray, FN: np.ndarray,
                              nb_ptr: np.ndarray, nb_idx: np.ndarray, vt_ptr: np.ndarray,
                              vt_idx: np.ndarray, tris: np.ndarray) -> np.ndarray:
    """Contacts (k, 9) of a cylinder (centre c (3,) m, rotation R (3, 3), axis
    = local z, radius, length m) with triangles ``tris`` of a mesh (world
    vertices V, triangles T, face normals FN and the topology of
    :func:`build_topology`). Normals point from the mesh into the cylinder;
    side1 -1, side2 the triangle."""
    a = np.ascontiguousarray(R[:, 2]).copy()
    a = a / math.sqrt(dot3(a, a))
    hl = 0.5 * length
    r = radius
    # inscribed prism standing for the side in the clip of the triangle
    e1 = np.empty(3)
    if abs(a[0]) < 0.6:
        _cross_unit(a, np.array([1.0, 0.0, 0.0]), e1)
    else:
        _cross_unit(a, np.array([0.0, 1.0, 0.0]), e1)
    e2 = np.cross(a, e1)
    planes = np.empty((_NRIM + 2, 4))
    ca = dot3(a, c)
    planes[0, :3] = a
    planes[0, 3] = ca + hl
    planes[1, :3] = -a
    planes[1, 3] = -ca + hl
    rin = r * detmath.cos(math.pi / _NRIM)
    for i in range(_NRIM):
        th = 2.0 * math.pi * (i + 0.5) / _NRIM
        nrm = detmath.cos(th) * e1 + detmath.sin(th) * e2
        planes[2 + i, :3] = nrm
        planes[2 + i, 3] = dot3(nrm, c) + rin
    poly = np.empty((3 + _NRIM + 4, 3))
    tv = np.empty((3, 3))
    rim = np.empty((2 * _NRIM, 3))
    tl = np.empty(tris.shape[0], dtype=np.int64)
    bs = np.empty((tris.shape[0], 4))
    m = 0
    for ti in range(tris.shape[0]):
        t = tris[ti]
        if dot3(FN[t], FN[t]) < 0.5 or not _cyl_touches_tri(c, a, r, hl, V, T, t):
            continue
        best = _cyl_best_axis(c, a, r, hl, V, T, FN, nb_ptr, nb_idx, vt_ptr, vt_idx, t)
        if best[3] < np.inf:
            tl[m] = t
            bs[m] = best
            m += 1
    # a triangle is redundant when moving the cylinder out of a shallower
    # triangle's overlap (along that one's direction) already clears it
    order = np.argsort(bs[:m, 3])
    cs = np.empty(3)
    for i in range(m):
        for jj in range(m):
            j = order[jj]
            if bs[j, 3] >= bs[i, 3] * (1.0 - 1e-6) - 1e-12:
                break
            shift = bs[j, 3] + 1e-6 * (1.0 + bs[j, 3])
            for x in range(3):
                cs[x] = c[x] + shift * bs[j, x]
            if not _cyl_touches_tri(cs, a, r, hl, V, T, tl[i]):
                bs[i, 3] = np.inf
                break
    out = np.zeros((m * _PER_TRI + 1, 9))
    side = np.zeros(m * _PER_TRI + 1, dtype=np.bool_)
    k = 0
    for i in range(m):
        if not bs[i, 3] < np.inf:
            continue
        t = tl[i]
        d = bs[i, :3].copy()
        depth = bs[i, 3]
        k0 = k
        for cc in range(3):
            poly[cc] = V[T[t, cc]]
            tv[cc] = V[T[t, cc]]
        npts = 3
        for f in range(planes.shape[0]):
            npts = _clip_poly(poly, npts, planes[f, :3], planes[f, 3])
        for ip in range(npts):
            s = min(_cyl_chord(c, a, r, hl, poly[ip], -d), depth)
            k = _put(out, k, poly[ip] - 0.5 * s * d, d, s, -1, t)
        # rim polygons starting at the rim point deepest along -d, and side lines
        an = dot3(a, d)
        wv = -(d - an * a)
        wl = math.sqrt(dot3(wv, wv))
        if wl > 1e-9:
            wv = wv / wl
        else:
            wv = e1.copy()
        wv2 = np.cross(a, wv)
        for ir in range(_NRIM):
            th = 2.0 * math.pi * ir / _NRIM
            off = r * (detmath.cos(th) * wv + detmath.sin(th) * wv2)
            rim[ir] = c + hl * a + off
            rim[_NRIM + ir] = c - hl * a + off
        for ir in range(_NRIM):
            j = (ir + 1) % _NRIM
            k = _prism_points(V, T, FN, t, d, rim[ir], rim[j], depth, out, k, d, -1, t,
                              False)
            k = _prism_points(V, T, FN, t, d, rim[_NRIM + ir], rim[_NRIM + j], depth,
                              out, k, d, -1, t, False)
            k = _prism_points(V, T, FN, t, d, rim[ir], rim[_NRIM + ir], depth, out, k, d, -1,
                              t, False)
        # the deepest features: rim point, side line or cap against t's corner or edge
        if abs(an) > 1e-9 and abs(abs(an) - 1.0) > 1e-9:
            cap = 0 if an < 0.0 else _NRIM
            k = _witness(tv, 3, rim[cap:cap + 1], 1, d, depth, 1e-9, out, k, -1, t)
        elif abs(an) <= 1e-9:
            sline = np.empty((2, 3))
            sline[0] = rim[0]
            sline[1] = rim[_NRIM]
            k = _witness(tv, 3, sline, 2, d, depth, 1e-9, out, k, -1, t)
        k = _ensure_full_depth(out, k0, k, poly, npts, d, depth, _tri_h(V, T, t, d), -1, t)
        for row in range(k0, k):
            side[row] = abs(an) < _CAP_COS
    # against the side (a line) only the points of the deepest feature: those
    # within 1 % of the deepest along the same direction, whichever triangle
    keep = np.ones(k, dtype=np.bool_)
    for row in range(k):
        if side[row]:
            deepest = 0.0
            for q in range(k):
                if abs(out[q, 3] - out[row, 3]) + abs(out[q, 4] - out[row, 4]) \
                        + abs(out[q, 5] - out[row, 5]) < 1e-6:
                    deepest = max(deepest, out[q, 6])
            keep[row] = out[row, 6] >= _KEEP_SIDE * deepest - 1e-9
    m2 = 0
    for row in range(k):
        if keep[row]:
            out[m2] = out[row]
            m2 += 1
    return out[:m2]
