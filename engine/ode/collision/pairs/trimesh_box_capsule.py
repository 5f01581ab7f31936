"""Box and capsule against a set of world-space triangles (trimesh colliders).

Kernels for ``colliders_trimesh``: ``trimesh_box_kernel`` (separating-axis
test per triangle, then the triangle clipped by the box or the box face by
the triangle) and ``trimesh_capsule_kernel`` (axis search over the capsule
segment and the triangle's used edges/vertices, then the segment clipped to
the triangle's prism). Contacts are rows ``pos (3), normal (3), depth, side1,
side2`` with the triangle index in side1 and the normal pointing into the
mesh side, as the registered colliders expect.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from engine.ode.constants import dEpsilon as _DEPS


# ----------------------------------------------------------------------------- box
@njit(cache=True, nogil=True)
def _add_contact(out: np.ndarray, count: int, max_contacts: int, pos: np.ndarray,
                 normal: np.ndarray, depth: float, tri: int) -> int:
    """Store a contact unless one at the same place with the same normal exists
    (then keep the deeper); when full, replace the shallowest if deeper."""
    shallow = -1
    shallow_depth = np.inf
    for i in range(count):
        dx = pos[0] - out[i, 0]
        dy = pos[1] - out[i, 1]
        dz = pos[2] - out[i, 2]
        if dx * dx + dy * dy + dz * dz < _DEPS:
            cosine = normal[0] * out[i, 3] + normal[1] * out[i, 4] + normal[2] * out[i, 5]
            if 1.0 - cosine < _DEPS:
                if depth > out[i, 6]:
                    out[i, 6] = depth
                    out[i, 7] = tri
                return count
        if out[i, 6] < shallow_depth:
            shallow_depth = out[i, 6]
            shallow = i
    k = count
    if count == max_contacts:
        if not shallow_depth < depth:
            return count
        k = shallow
    else:
        count += 1
    out[k, 0:3] = pos
    out[k, 3:6] = normal
    out[k, 6] = depth
    out[k, 7] = tri
    out[k, 8] = -1.0
    return count


@njit(cache=True, nogil=True)
def _clip_polygon(src: np.ndarray, n_in: int, pn: np.ndarray, pd: float,
                  dst: np.ndarray) -> int:
    """Keep the part of polygon src[:n_in] where pn.p + pd >= 0; returns the
    vertex count written to dst."""
    n_out = 0
    if n_in == 0:
        return 0
    i0 = n_in - 1
    for i1 in range(n_in):
        f0 = pn[0] * src[i0, 0] + pn[1] * src[i0, 1] + pn[2] * src[i0, 2] + pd
        f1 = pn[0] * src[i1, 0] + pn[1] * src[i1, 1] + pn[2] * src[i1, 2] + pd
        if f0 >= 0.0:
            dst[n_out] = src[i0]
            n_out += 1
        if (f0 > 0.0 and f1 < 0.0) or (f0 < 0.0 and f1 > 0.0):
            s = f0 / (f0 - f1)
            dst[n_out] = src[i0] - (src[i0] - src[i1]) * s
            n_out += 1
        i0 = i1
    return n_out


@njit(cache=True, nogil=True)
def _box_best_axis(v0, v1, v2, c, R, h, best_n):
    """Separating-axis test of a triangle against a box (centre c, rotation R,
    half sizes h). Returns (axis code, depth): 0 when separated or degenerate;
    1 triangle normal, 2..4 box face, 5..13 box axis (k - 5) // 3 crossed
    with triangle edge (k - 5) % 3. ``best_n`` gets the unit normal (from the
    box towards the triangle)."""
    e = np.empty((3, 3))
    e[0] = v1 - v0
    e[1] = v2 - v0
    e[2] = e[1] - e[0]
    N = np.cross(e[0], e[1])
    nl = math.sqrt(N[0] ** 2 + N[1] ** 2 + N[2] ** 2)
    if nl == 0.0:
        return 0, 0.0
    D = v0 - c
    p = np.empty(3)
    # triangle normal: one sided, the box must reach below the plane
    r = 0.0
    for i in range(3):
        r += h[i] * abs(N[0] * R[0, i] + N[1] * R[1, i] + N[2] * R[2, i])
    depth = r + (N[0] * D[0] + N[1] * D[1] + N[2] * D[2])
    if depth < 0.0:
        return 0, 0.0
    best = depth / nl
    axis = 1
    best_n[:] = -N / nl
    # box face axes
    for i in range(3):
        L = R[:, i]
        p[0] = L[0] * D[0] + L[1] * D[1] + L[2] * D[2]
        p[1] = p[0] + L[0] * e[0, 0] + L[1] * e[0, 1] + L[2] * e[0, 2]
        p[2] = p[0] + L[0] * e[1, 0] + L[1] * e[1, 1] + L[2] * e[1, 2]
        dmin = h[i] - min(p[0], min(p[1], p[2]))
        dmax = max(p[0], max(p[1], p[2])) + h[i]
        if dmin < 0.0 or dmax < 0.0:
            return 0, 0.0
        sgn = 1.0
        d = dmin
        if dmin > dmax:
            d = dmax
            sgn = -1.0
        if d < best:
            best = d
            axis = 2 + i
            best_n[:] = sgn * L
    # box axis x triangle edge; edges must be clearly shallower than faces
    for i in range(3):
        A = R[:, i]
        for j in range(3):
            L = np.cross(A, e[j])
            l2 = L[0] ** 2 + L[1] ** 2 + L[2] ** 2
            if l2 <= _DEPS:
                continue
            lo = np.inf
            hi = -np.inf
            for vtx in (v0, v1, v2):
                s = L[0] * (vtx[0] - c[0]) + L[1] * (vtx[1] - c[1]) + L[2] * (vtx[2] - c[2])
                lo = min(lo, s)
                hi = max(hi, s)
            r = 0.0
            for k in range(3):
                r += h[k] * abs(L[0] * R[0, k] + L[1] * R[1, k] + L[2] * R[2, k])
            dmin = r - lo
            dmax = hi + r
            if dmin < 0.0 or dmax < 0.0:
                return 0, 0.0
            sgn = 1.0
            d = dmin
            if dmin > dmax:
                d = dmax
                sgn = -1.0
            ll = math.sqrt(l2)
            d /= ll
            if d * 1.5 < best:
                best = d
                axis = 5 + 3 * i + j
                best_n[:] = sgn * L / ll
    return axis, best


@njit(cache=True, nogil=True)
def _closest_line_params(pa, ua, pb, ub):
    """Parameters (s, t) of the closest points pa + s ua, pb + t ub of two lines
    (unit directions); (0, 0) for parallel lines."""
    w = pa - pb
    b = ua[0] * ub[0] + ua[1] * ub[1] + ua[2] * ub[2]
    denom = 1.0 - b * b
    if denom <= 1e-12:
        return 0.0, 0.0
    d = ua[0] * w[0] + ua[1] * w[1] + ua[2] * w[2]
    e = ub[0] * w[0] + ub[1] * w[1] + ub[2] * w[2]
    s = (b * e - d) / denom
    t = (e - b * d) / denom
    return s, t


@njit(cache=True, nogil=True)
def _box_triangle_contacts(v0, v1, v2, tri, c, R, h, out, count, max_contacts):
    """Contacts of one triangle with the box, merged into out[:count]."""
    bn = np.empty(3)
    axis, best = _box_best_axis(v0, v1, v2, c, R, h, bn)
    if axis == 0:
        return count
    buf1 = np.empty((9, 3))
    buf2 = np.empty((9, 3))
    pn = np.empty(3)
    if axis >= 5:
        # edge against edge: midway between the closest points of the box
        # edge (through the corner furthest along the normal) and the triangle edge
        pa = c.copy()
        for i in range(3):
            col = R[:, i]
            s = 1.0 if bn[0] * col[0] + bn[1] * col[1] + bn[2] * col[2] > 0 else -1.0
            pa += s * h[i] * col
        j = (axis - 5) % 3
        if j == 0:
            pb = v0.copy()
            ub = v1 - v0
        elif j == 1:
            pb = v2.copy()
            ub = v2 - v0
        else:
            pb = v1.copy()
            ub = v2 - v1
        ub = ub / math.sqrt(ub[0] ** 2 + ub[1] ** 2 + ub[2] ** 2)
        ua = R[:, (axis - 5) // 3].copy()
        s, t = _closest_line_params(pa, ua, pb, ub)
        pos = 0.5 * (pa + s * ua + pb + t * ub)
        return _add_contact(out, count, max_contacts, pos, bn, best, tri)
    if axis == 1:
        # triangle face: clip the box face that faces the triangle by the
        # triangle's prism (below its plane, inside its three edges)
        N = np.cross(v1 - v0, v2 - v0)
        N /= math.sqrt(N[0] ** 2 + N[1] ** 2 + N[2] ** 2)
        a = np.empty(3)
        for i in range(3):
            a[i] = abs(R[0, i] * N[0] + R[1, i] * N[1] + R[2, i] * N[2])
        if a[1] > a[0]:
            b0, b1, b2 = (1, 0, 2) if a[1] > a[2] else (2, 0, 1)
        else:
            b0, b1, b2 = (0, 1, 2) if a[0] > a[2] else (2, 0, 1)
        s0 = 1.0 if R[0, b0] * N[0] + R[1, b0] * N[1] + R[2, b0] * N[2] > 0 else -1.0
        centre = c - v0 - s0 * h[b0] * R[:, b0]
        u1 = h[b1] * R[:, b1]
        u2 = h[b2] * R[:, b2]
        buf1[0] = centre + u1 - u2
        buf1[1] = centre - u1 - u2
        buf1[2] = centre - u1 + u2
        buf1[3] = centre + u1 + u2
        m = _clip_polygon(buf1, 4, -N, 0.0, buf2)
        for k in range(3):
            pa = (v0, v1, v2)[k]
            pb = (v0, v1, v2)[(k + 1) % 3]
            en = np.cross(N, pb - pa)
            en /= math.sqrt(en[0] ** 2 + en[1] ** 2 + en[2] ** 2)
            off = pa - v0
            pd = -(en[0] * off[0] + en[1] * off[1] + en[2] * off[2])
            if k % 2 == 0:
                m = _clip_polygon(buf2, m, en, pd, buf1)
            else:
                m = _clip_polygon(buf1, m, en, pd, buf2)
        for k in range(m):
            p = buf1[k]
            d = -(N[0] * p[0] + N[1] * p[1] + N[2] * p[2])
            count = _add_contact(out, count, max_contacts, p + v0, bn, max(d, 0.0), tri)
        return count
    # box face: clip the triangle by the box's slab under that face
    i0 = axis - 2
    i1 = 1 if i0 == 0 else 0
    i2 = 1 if i0 == 2 else 2
    buf1[0] = v0 - c
    buf1[1] = v1 - c
    buf1[2] = v2 - c
    m = _clip_polygon(buf1, 3, -bn, h[i0], buf2)
    pn[:] = R[:, i1]
    m = _clip_polygon(buf2, m, pn, h[i1], buf1)
    m = _clip_polygon(buf1, m, -pn, h[i1], buf2)
    pn[:] = R[:, i2]
    m = _clip_polygon(buf2, m, pn, h[i2], buf1)
    m = _clip_polygon(buf1, m, -pn, h[i2], buf2)
    for k in range(m):
        p = buf2[k]
        d = h[i0] - (bn[0] * p[0] + bn[1] * p[1] + bn[2] * p[2])
        count = _add_contact(out, count, max_contacts, p + c, bn, max(d, 0.0), tri)
    return count


@njit(cache=True, nogil=True)
def trimesh_box_kernel(tris: np.ndarray, idx: np.ndarray, c: np.ndarray, R: np.ndarray,
                       sides: np.ndarray, max_contacts: int, out: np.ndarray) -> int:
    """Contacts of triangles ``tris`` (k, 3, 3) (world, m; indices ``idx``)
    with a box (centre (3,), rotation (3, 3), side lengths (3,) m) into
    ``out`` (max_contacts, 9); returns the count."""
    h = 0.5 * sides
    count = 0
    for t in range(tris.shape[0]):
        count = _box_triangle_contacts(tris[t, 0].copy(), tris[t, 1].copy(), tris[t, 2].copy(),
                                       idx[t], c, R, h, out, count, max_contacts)
    return count


# ----------------------------------------------------------------------------- capsule
@njit(cache=True, nogil=True)
def _capsule_axis(L, tv, ax, half, radius, no_flip, state, best_n) -> bool:
    """Test axis L (not unit) for a capsule at the origin (unit axis ``ax``,
    segment half length ``half``, radius) against the triangle ``tv`` (3, 3)
    relative to the capsule centre. False when L separates them; otherwise
    keeps in ``state`` = [depth, centre, half interval] and ``best_n`` the axis
    with the least penetration (depth closest to 0)."""
    ll = math.sqrt(L[0] ** 2 + L[1] ** 2 + L[2] ** 2)
    if ll < 1e-5:
        return True
    u = L / ll
    frc = abs(ax[0] * u[0] + ax[1] * u[1] + ax[2] * u[2]) * half + radius
    lo = np.inf
    hi = -np.inf
    for k in range(3):
        s = tv[k, 0] * u[0] + tv[k, 1] * u[1] + tv[k, 2] * u[2]
        lo = min(lo, s)
        hi = max(hi, s)
    centre = 0.5 * (lo + hi)
    rt = 0.5 * (hi - lo)
    if abs(centre) > frc + rt:
        return False
    depth = abs(centre) - (frc + rt)
    if depth > state[0]:
        state[0] = depth
        state[1] = centre
        state[2] = rt
        best_n[:] = u
        if centre < 0.0 and not no_flip:
            best_n[:] = -u
            state[1] = -centre
    return True


@njit(cache=True, nogil=True)
def _clip_segment(p0, p1, pn, pd) -> bool:
    """Clip segment (p0, p1) in place to pn.p + pd >= 0; False if it is
    wholly behind."""
    f0 = pn[0] * p0[0] + pn[1] * p0[1] + pn[2] * p0[2] + pd
    f1 = pn[0] * p1[0] + pn[1] * p1[1] + pn[2] * p1[2] + pd
    if f0 < 0.0 and f1 < 0.0:
        return False
    if (f0 > 0.0 and f1 < 0.0) or (f0 < 0.0 and f1 > 0.0):
        x = p0 - (p0 - p1) * (f0 / (f0 - f1))
        if f0 < 0.0:
            p0[:] = x
        else:
            p1[:] = x
    return True


@njit(cache=True, nogil=True)
def _capsule_separating(v, tv, cp, ax, half, radius, flags, state, best_n) -> bool:
    """ODE's axes for capsule vs triangle: the face normal, then (as the use
    flags allow) the capsule axis crossed with each edge, the perpendiculars
    from the segment ends to each edge line, from each vertex to the axis
    line, and the directions from the segment ends to each vertex."""
    e = np.empty((3, 3))
    e[0] = v[1] - v[0]
    e[1] = v[2] - v[1]
    e[2] = v[0] - v[2]
    N = np.cross(e[1], v[0] - v[1])
    N /= math.sqrt(N[0] ** 2 + N[1] ** 2 + N[2] ** 2)
    if not _capsule_axis(-N, tv, ax, half, radius, True, state, best_n):
        return False
    ends = np.empty((2, 3))
    ends[0] = cp + ax * half
    ends[1] = cp - ax * half
    for k in range(3):
        if flags & (1 << k):
            L = np.cross(ax, e[k])
            if L[0] ** 2 + L[1] ** 2 + L[2] ** 2 > 1e-6:
                if not _capsule_axis(L, tv, ax, half, radius, False, state, best_n):
                    return False
    for j in range(2):
        for k in range(3):
            if flags & (1 << k):
                L = np.cross(np.cross(ends[j] - v[k], e[k]), e[k])
                if L[0] ** 2 + L[1] ** 2 + L[2] ** 2 > 1e-6:
                    if not _capsule_axis(L, tv, ax, half, radius, False, state, best_n):
                        return False
    for k in range(3):
        if flags & (8 << k):
            L = np.cross(np.cross(v[k] - ends[0], ax), ax)
            if L[0] ** 2 + L[1] ** 2 + L[2] ** 2 > 1e-6:
                if not _capsule_axis(L, tv, ax, half, radius, False, state, best_n):
                    return False
    for j in range(2):
        for k in range(3):
            if flags & (8 << k):
                L = v[k] - ends[j]
                if L[0] ** 2 + L[1] ** 2 + L[2] ** 2 > 1e-6:
                    if not _capsule_axis(L, tv, ax, half, radius, False, state, best_n):
                        return False
    return True


@njit(cache=True, nogil=True)
def trimesh_capsule_kernel(tris: np.ndarray, idx: np.ndarray, flags: np.ndarray,
                           cp: np.ndarray, ax: np.ndarray, radius: float, length: float,
                           max_contacts: int, out: np.ndarray) -> int:
    """Contacts of triangles ``tris`` (k, 3, 3) (world, m; indices ``idx``,
    use flags ``flags`` (k,)) with a capsule (centre (3,), unit axis (3,),
    radius, length m) into ``out`` (max_contacts, 9); returns the count
    after merging near duplicates (within 1e-4 in position and normal)."""
    half = 0.5 * length
    local = np.zeros((max_contacts, 9))
    keep = np.zeros(max_contacts, dtype=np.bool_)
    n_local = 0
    state = np.empty(3)
    bn = np.empty(3)
    tv = np.empty((3, 3))
    for t in range(tris.shape[0]):
        if n_local >= max_contacts:
            break
        v = tris[t]
        N = np.cross(v[2] - v[1], v[0] - v[1])
        nl = math.sqrt(N[0] ** 2 + N[1] ** 2 + N[2] ** 2)
        if nl == 0.0:
            continue
        N /= nl
        # one sided: the capsule centre must be in front of the plane
        if N[0] * (cp[0] - v[0, 0]) + N[1] * (cp[1] - v[0, 1]) + N[2] * (cp[2] - v[0, 2]) < 0:
            continue
        for k in range(3):
            tv[k] = v[k] - cp
        state[0] = -np.inf
        state[1] = 0.0
        state[2] = 0.0
        if not _capsule_separating(v, tv, cp, ax, half, radius, flags[t], state, bn):
            continue
        if state[0] == -np.inf:
            continue
        # the side segment moved by the radius towards the triangle, clipped
        # to below the triangle's plane and inside its edges (1e-5 slack)
        shift = cp + bn * radius
        p0 = shift + ax * half - v[0]
        p1 = shift - ax * half - v[0]
        if not _clip_segment(p0, p1, -N, 0.0):
            continue
        e0 = v[1] - v[0]
        e1 = v[2] - v[1]
        e2 = v[0] - v[2]
        w = np.cross(N, e0)
        if not _clip_segment(p0, p1, w, 1e-5):
            continue
        w = np.cross(N, e1)
        if not _clip_segment(p0, p1, w, -((e0[0] * w[0] + e0[1] * w[1] + e0[2] * w[2]) - 1e-5)):
            continue
        w = np.cross(N, e2)
        if not _clip_segment(p0, p1, w, 1e-5):
            continue
        for p in (p0, p1):
            if n_local >= max_contacts:
                break
            q = p + v[0]
            d = ((q[0] - cp[0]) * bn[0] + (q[1] - cp[1]) * bn[1] + (q[2] - cp[2]) * bn[2]
                 - (state[1] - state[2]))
            local[n_local, 0:3] = q
            local[n_local, 3:6] = bn
            local[n_local, 6] = max(d, 0.0)
            local[n_local, 7] = idx[t]
            local[n_local, 8] = -1.0
            keep[n_local] = True
            n_local += 1
    # of two contacts at (nearly) the same place with the same normal, keep the deeper
    for i in range(n_local - 1):
        for j in range(i + 1, n_local):
            near = True
            for k in range(6):
                if abs(local[i, k] - local[j, k]) >= 1e-4:
                    near = False
            if near:
                if local[j, 6] > local[i, 6]:
                    keep[i] = False
                else:
                    keep[j] = False
    count = 0
    for i in range(n_local):
        if keep[i]:
            out[count] = local[i]
            count += 1
    return count
