"""One-sided triangle-mesh surfaces for the mesh colliders.

Mesh topology (triangle neighbours, triangles around each vertex), the
directions a triangle may push a shape out along ("admissible": not behind
the triangle and inside the mesh's normal cone at its furthest corner), and
the polygon/segment clipping and point bookkeeping the per-triangle kernels
share. See ``colliders_trimesh_convex`` for how they fit together.
"""

from __future__ import annotations

import math
import weakref

import numpy as np
from numba import njit

from engine.ode.kernels.detlinalg import norm
from engine.ode.kernels.vec import dot3

#: Relative tolerance of the admissibility test (d.(w - v) <= tol |w - v|).
_ADM_TOL = 1e-7
#: Tolerance (m, relative to the sizes involved) of touching tests and clips.
_EPS = 1e-9
#: Sides of the inscribed polygon standing for a cylinder's side surface and rims.
_NRIM = 16
#: |axis . d| above which a cylinder touches with a cap (keeps all points).
_CAP_COS = math.sqrt(0.5)
#: Points kept of a polytope's triangle: at least this fraction of its deepest.
_KEEP_POLY = 0.5
#: Points kept of a cylinder touching with its side: at least this fraction of
#: the deepest along the same direction (the side line, its deepest feature).
_KEEP_SIDE = 0.99
#: Rows reserved per triangle (or triangle pair) in the pooled contact buffer.
_PER_TRI = 160


# --------------------------------------------------------------------------
# mesh topology
# --------------------------------------------------------------------------
@njit(cache=True, nogil=True)
def build_topology(T: np.ndarray, nv: int) -> tuple:
    """Adjacency of a triangle list T (t, 3) int64 over nv vertices.

    Returns (nb_ptr (nv+1,), nb_idx, vt_ptr (nv+1,), vt_idx) int64 CSR arrays:
    the neighbour vertices of vertex v are ``nb_idx[nb_ptr[v]:nb_ptr[v+1]]``
    (sharing a triangle with it, each once) and its triangles
    ``vt_idx[vt_ptr[v]:vt_ptr[v+1]]``.
    """
    nt = T.shape[0]
    vt_ptr = np.zeros(nv + 1, dtype=np.int64)
    for t in range(nt):
        for c in range(3):
            vt_ptr[T[t, c] + 1] += 1
    for v in range(nv):
        vt_ptr[v + 1] += vt_ptr[v]
    vt_idx = np.empty(vt_ptr[nv], dtype=np.int64)
    fill = vt_ptr[:nv].copy()
    for t in range(nt):
        for c in range(3):
            v = T[t, c]
            vt_idx[fill[v]] = t
            fill[v] += 1
    # neighbours: the other corners of each incident triangle, deduplicated
    nb_ptr = np.zeros(nv + 1, dtype=np.int64)
    tmp = np.empty(2 * vt_ptr[nv], dtype=np.int64)
    k = 0
    for v in range(nv):
        start = k
        for j in range(vt_ptr[v], vt_ptr[v + 1]):
            t = vt_idx[j]
            for c in range(3):
                w = T[t, c]
                if w == v:
                    continue
                seen = False
                for i in range(start, k):
                    if tmp[i] == w:
                        seen = True
                        break
                if not seen:
                    tmp[k] = w
                    k += 1
        nb_ptr[v + 1] = k
    return nb_ptr, tmp[:k].copy(), vt_ptr, vt_idx


_TOPOLOGY: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def mesh_topology(data) -> tuple:
    """Cached :func:`build_topology` of a TriMeshData (rebuilt when its
    triangle array is replaced or its vertex count changes)."""
    T = data.triangles
    nv = int(data.vertices.shape[0])
    hit = _TOPOLOGY.get(data)
    if hit is not None and hit[0] is T and hit[1] == nv:
        return hit[2]
    topo = build_topology(np.ascontiguousarray(T, dtype=np.int64), nv)
    _TOPOLOGY[data] = (T, nv, topo)
    return topo


def triangle_mesh_arrays(vertices: np.ndarray, triangles: np.ndarray) -> tuple:
    """Plain arrays of a mesh given in world coordinates, for the kernels:
    (V (n, 3), T (t, 3) int64, FN (t, 3) unit normals, nb_ptr, nb_idx,
    vt_ptr, vt_idx)."""
    V = np.ascontiguousarray(vertices, dtype=np.float64).reshape(-1, 3)
    T = np.ascontiguousarray(triangles, dtype=np.int64).reshape(-1, 3)
    n = np.cross(V[T[:, 1]] - V[T[:, 0]], V[T[:, 2]] - V[T[:, 0]])
    ln = norm(n, axis=1)
    ok = ln > 0.0
    n[ok] /= ln[ok, None]
    n[~ok] = 0.0
    return (V, T, np.ascontiguousarray(n)) + build_topology(T, V.shape[0])


# --------------------------------------------------------------------------
# small vector helpers
# --------------------------------------------------------------------------
@njit(cache=True, nogil=True)
def _cross_unit(a: np.ndarray, b: np.ndarray, out: np.ndarray) -> bool:
    """out = a x b normalised; False (out untouched) if a, b are parallel."""
    x = a[1] * b[2] - a[2] * b[1]
    y = a[2] * b[0] - a[0] * b[2]
    z = a[0] * b[1] - a[1] * b[0]
    ln = math.sqrt(x * x + y * y + z * z)
    if ln <= 1e-12 * math.sqrt(dot3(a, a) * dot3(b, b)) or ln == 0.0:
        return False
    out[0] = x / ln
    out[1] = y / ln
    out[2] = z / ln
    return True


@njit(cache=True, nogil=True)
def _put(out: np.ndarray, k: int, p: np.ndarray, d: np.ndarray, depth: float,
         s1: int, s2: int) -> int:
    """Write row k (pos p, normal d, depth clamped at 0, sides); returns k + 1."""
    if k >= out.shape[0]:
        return k
    out[k, 0] = p[0]
    out[k, 1] = p[1]
    out[k, 2] = p[2]
    out[k, 3] = d[0]
    out[k, 4] = d[1]
    out[k, 5] = d[2]
    out[k, 6] = depth if depth > 0.0 else 0.0
    out[k, 7] = s1
    out[k, 8] = s2
    return k + 1


# --------------------------------------------------------------------------
# admissible directions and the ring of a triangle
# --------------------------------------------------------------------------
@njit(cache=True, nogil=True)
def admissible(V: np.ndarray, T: np.ndarray, FN: np.ndarray, nb_ptr: np.ndarray,
               nb_idx: np.ndarray, t: int, d: np.ndarray) -> bool:
    """Whether the unit direction d (3,) may push a shape out of the mesh
    through triangle t: not behind t, and t's vertex furthest along d (any
    of them on a tie) is a local maximum of d.x over its mesh neighbours."""
    if dot3(d, FN[t]) < -1e-9 or dot3(d, d) < 0.5:
        return False
    h = -np.inf
    scale = 0.0
    for c in range(3):
        v = V[T[t, c]]
        h = max(h, dot3(d, v))
        for j in range(3):
            scale = max(scale, abs(v[j] - V[T[t, (c + 1) % 3], j]))
    for c in range(3):
        vi = T[t, c]
        v = V[vi]
        if dot3(d, v) < h - 1e-9 * max(scale, 1e-12):
            continue
        ok = True
        for j in range(nb_ptr[vi], nb_ptr[vi + 1]):
            w = V[nb_idx[j]]
            e0, e1, e2 = w[0] - v[0], w[1] - v[1], w[2] - v[2]
            if d[0] * e0 + d[1] * e1 + d[2] * e2 > _ADM_TOL * math.sqrt(e0 * e0 + e1 * e1
                                                                        + e2 * e2):
                ok = False
                break
        if ok:
            return True
    return False


@njit(cache=True, nogil=True)
def _ring(T: np.ndarray, vt_ptr: np.ndarray, vt_idx: np.ndarray, t: int) -> tuple:
    """Faces sharing a vertex with t (t first) and the edges (pairs of vertex
    indices, each once) of those faces that touch a vertex of t."""
    nf = 0
    for c in range(3):
        v = T[t, c]
        nf += vt_ptr[v + 1] - vt_ptr[v]
    faces = np.empty(nf + 1, dtype=np.int64)
    faces[0] = t
    k = 1
    for c in range(3):
        v = T[t, c]
        for j in range(vt_ptr[v], vt_ptr[v + 1]):
            f = vt_idx[j]
            seen = False
            for i in range(k):
                if faces[i] == f:
                    seen = True
                    break
            if not seen:
                faces[k] = f
                k += 1
    faces = faces[:k].copy()
    edges = np.empty((3 * k, 2), dtype=np.int64)
    m = 0
    for i in range(k):
        f = faces[i]
        for c in range(3):
            a = T[f, c]
            b = T[f, (c + 1) % 3]
            if a != T[t, 0] and a != T[t, 1] and a != T[t, 2] and \
                    b != T[t, 0] and b != T[t, 1] and b != T[t, 2]:
                continue
            lo, hi = min(a, b), max(a, b)
            seen = False
            for j in range(m):
                if edges[j, 0] == lo and edges[j, 1] == hi:
                    seen = True
                    break
            if not seen:
                edges[m, 0] = lo
                edges[m, 1] = hi
                m += 1
    return faces, edges[:m].copy()


@njit(cache=True, nogil=True)
def _tri_h(V: np.ndarray, T: np.ndarray, t: int, d: np.ndarray) -> float:
    """max over the corners of triangle t of d.x."""
    return max(dot3(d, V[T[t, 0]]), max(dot3(d, V[T[t, 1]]), dot3(d, V[T[t, 2]])))


@njit(cache=True, nogil=True)
def _tri_min(V: np.ndarray, T: np.ndarray, t: int, d: np.ndarray) -> float:
    """min over the corners of triangle t of d.x."""
    return min(dot3(d, V[T[t, 0]]), min(dot3(d, V[T[t, 1]]), dot3(d, V[T[t, 2]])))


# --------------------------------------------------------------------------
# clipping and closest points
# --------------------------------------------------------------------------
@njit(cache=True, nogil=True)
def _clip_poly(poly: np.ndarray, npts: int, n: np.ndarray, off: float) -> int:
    """Clip the convex polygon poly[:npts] in place to n.x <= off; new count
    (poly needs npts + 1 spare rows)."""
    if npts == 0:
        return 0
    tmp = np.empty((npts + 1, 3))
    k = 0
    for i in range(npts):
        a = poly[i]
        b = poly[(i + 1) % npts]
        da = dot3(n, a) - off
        db = dot3(n, b) - off
        if da <= 0.0:
            tmp[k] = a
            k += 1
        if (da < 0.0 < db) or (db < 0.0 < da):
            s = da / (da - db)
            tmp[k] = a + s * (b - a)
            k += 1
    for i in range(k):
        poly[i] = tmp[i]
    return k


@njit(cache=True, nogil=True)
def _clip_seg(p: np.ndarray, q: np.ndarray, lo_hi: np.ndarray, n: np.ndarray,
              off: float) -> bool:
    """Shrink the parameter range lo_hi (2,) of segment p + s (q - p) to
    n.x <= off; False when it becomes empty."""
    dp = dot3(n, p) - off
    dq = dot3(n, q) - off
    if dp > 0.0 and dq > 0.0:
        return False
    if dp > 0.0:
        lo_hi[0] = max(lo_hi[0], dp / (dp - dq))
    elif dq > 0.0:
        lo_hi[1] = min(lo_hi[1], dp / (dp - dq))
    return lo_hi[0] <= lo_hi[1]


@njit(cache=True, nogil=True)
def _seg_closest(p1: np.ndarray, q1: np.ndarray, p2: np.ndarray, q2: np.ndarray) -> tuple:
    """Closest points (a on [p1, q1], b on [p2, q2]) of two segments."""
    d1 = q1 - p1
    d2 = q2 - p2
    r = p1 - p2
    a = dot3(d1, d1)
    e = dot3(d2, d2)
    f = dot3(d2, r)
    if a <= 1e-30 and e <= 1e-30:
        return p1.copy(), p2.copy()
    if a <= 1e-30:
        s = 0.0
        tt = min(max(f / e, 0.0), 1.0)
    else:
        c = dot3(d1, r)
        if e <= 1e-30:
            tt = 0.0
            s = min(max(-c / a, 0.0), 1.0)
        else:
            b = dot3(d1, d2)
            den = a * e - b * b
            s = min(max((b * f - c * e) / den, 0.0), 1.0) if den > 1e-30 * a * e else 0.0
            tt = (b * s + f) / e
            if tt < 0.0:
                tt = 0.0
                s = min(max(-c / a, 0.0), 1.0)
            elif tt > 1.0:
                tt = 1.0
                s = min(max((b - c) / a, 0.0), 1.0)
    return p1 + s * d1, p2 + tt * d2


@njit(cache=True, nogil=True)
def _prism_points(V: np.ndarray, T: np.ndarray, FN: np.ndarray, t: int, d: np.ndarray,
                  p: np.ndarray, q: np.ndarray, maxdepth: float, out: np.ndarray, k: int,
                  nrm: np.ndarray, s1: int, s2: int, both: bool) -> int:
    """Contacts from segment [p, q] of the other shape: the part whose ray
    along d hits triangle t from behind (within the prism swept by t along
    d, and also within the one swept along t's normal if ``both``: a point
    of another surface must be right behind t to be inside t's mesh), end
    points written with depth = distance to t along d (<= maxdepth +
    tolerance). Returns the new row count."""
    n = FN[t]
    nd = dot3(n, d)
    if nd <= 1e-6:
        return k
    v0 = V[T[t, 0]]
    scale = 0.0
    for c in range(3):
        for j in range(3):
            scale = max(scale, abs(V[T[t, c], j] - V[T[t, (c + 1) % 3], j]))
    tol = _EPS * max(scale, 1e-12)
    rng = np.array([0.0, 1.0])
    # behind the triangle's plane
    if not _clip_seg(p, q, rng, n, dot3(n, v0) + tol):
        return k
    m = np.empty(3)
    for sweep in range(2 if both else 1):
        u = d if sweep == 0 else n
        for c in range(3):
            a = V[T[t, c]]
            b = V[T[t, (c + 1) % 3]]
            e = b - a
            # side plane through edge (a, b) containing u; outward = away from the third corner
            if not _cross_unit(e, u, m):
                continue
            if dot3(m, V[T[t, (c + 2) % 3]] - a) > 0.0:
                m = -m
            if not _clip_seg(p, q, rng, m, dot3(m, a) + tol):
                return k
    for i in range(2):
        if i == 1 and rng[1] - rng[0] <= 1e-12:
            break
        x = p + rng[i] * (q - p)
        s = (dot3(n, v0) - dot3(n, x)) / nd
        if s < -tol or s > maxdepth + 1e-7 * max(scale, 1.0):
            continue
        k = _put(out, k, x + 0.5 * s * d, nrm, min(s, maxdepth), s1, s2)
    return k


@njit(cache=True, nogil=True)
def _keep_deepest(out: np.ndarray, k0: int, k: int, frac: float) -> int:
    """Keep, among rows k0..k-1, those at least ``frac`` times as deep as the
    deepest of them; returns the new row count."""
    m = k0
    deepest = 0.0
    for i in range(k0, k):
        deepest = max(deepest, out[i, 6])
    lim = frac * deepest - 1e-9
    for i in range(k0, k):
        if out[i, 6] >= lim:
            if m != i:
                out[m] = out[i]
            m += 1
    return m


@njit(cache=True, nogil=True)
def _ensure_full_depth(out: np.ndarray, k0: int, k: int, poly: np.ndarray, npts: int,
                       d: np.ndarray, depth: float, ht: float, s1: int, s2: int) -> int:
    """When the triangle reaches further along d (to ``ht``) than its part
    inside the other shape (the clipped polygon poly[:npts]), e.g. a wall
    whose lower edge passes under the shape, and no row k0..k-1 has the
    triangle's overlap ``depth``: add one with that depth at the polygon's
    corner furthest along d (or at the deepest row). A floor under a tilted
    shape keeps its own, shallower, points."""
    best = -1
    for i in range(k0, k):
        if best < 0 or out[i, 6] > out[best, 6]:
            best = i
    if best >= 0 and out[best, 6] >= depth - 1e-9 * (1.0 + depth):
        return k
    if npts > 0:
        j = 0
        for i in range(npts):
            if dot3(d, poly[i]) > dot3(d, poly[j]):
                j = i
        if dot3(d, poly[j]) >= ht - 1e-9 * (1.0 + abs(ht)):
            return k
        return _put(out, k, poly[j] - 0.5 * depth * d, d, depth, s1, s2)
    if best >= 0:
        return _put(out, k, out[best, :3].copy(), d, depth, s1, s2)
    return k
