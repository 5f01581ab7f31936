"""A convex polytope against a set of mesh triangles (numba kernel).

``convex_triangles_kernel``: per touching triangle the least overlap over
the admissible directions (face normals of the triangle's ring and cross
products of ring edges with the polytope's edges; exact for polytopes),
then the contact points of that triangle. See ``colliders_trimesh_convex``.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from engine.ode.collision.pairs.mesh_surface import (
    _EPS,
    _KEEP_POLY,
    _clip_poly,
    _cross_unit,
    _ensure_full_depth,
    _keep_deepest,
    _prism_points,
    _put,
    _ring,
    _seg_closest,
    _tri_h,
    _tri_min,
    admissible,
)
from engine.ode.kernels.vec import dot3


# --------------------------------------------------------------------------
# convex polytope against triangles
# --------------------------------------------------------------------------
@njit(cache=True, nogil=True)
def _poly_min(Q: np.ndarray, d: np.ndarray) -> float:
    m = np.inf
    for i in range(Q.shape[0]):
        m = min(m, dot3(d, Q[i]))
    return m


@njit(cache=True, nogil=True)
def _poly_touches_tri(Q: np.ndarray, P: np.ndarray, E: np.ndarray, V: np.ndarray,
                      T: np.ndarray, FN: np.ndarray, t: int) -> bool:
    """Separating-axis test of the convex polytope (points Q (n, 3), planes P
    (f, 4) n.x <= off, edges E (e, 2)) against flat triangle t: True when
    they overlap or touch."""
    scale = 0.0
    for c in range(3):
        for j in range(3):
            scale = max(scale, abs(V[T[t, c], j] - V[T[t, (c + 1) % 3], j]))
    tol = _EPS * max(scale, 1.0)
    n = FN[t].copy()
    if _poly_min(Q, n) > _tri_h(V, T, t, n) + tol or -_poly_min(Q, -n) < _tri_min(V, T, t, n) - tol:
        return False
    for f in range(P.shape[0]):
        if _tri_min(V, T, t, P[f, :3]) > P[f, 3] + tol:
            return False
    ax = np.empty(3)
    for c in range(3):
        e = V[T[t, (c + 1) % 3]] - V[T[t, c]]
        for j in range(E.shape[0]):
            if not _cross_unit(e, Q[E[j, 1]] - Q[E[j, 0]], ax):
                continue
            if _poly_min(Q, ax) > _tri_h(V, T, t, ax) + tol or \
                    -_poly_min(Q, -ax) < _tri_min(V, T, t, ax) - tol:
                return False
    return True


@njit(cache=True, nogil=True)
def _consider(V: np.ndarray, T: np.ndarray, FN: np.ndarray, nb_ptr: np.ndarray,
              nb_idx: np.ndarray, t: int, d: np.ndarray, val: float, best: np.ndarray) -> None:
    """Keep d in best (4,) = (direction, overlap) if admissible and smaller."""
    if val < best[3] and admissible(V, T, FN, nb_ptr, nb_idx, t, d):
        best[0], best[1], best[2], best[3] = d[0], d[1], d[2], val


@njit(cache=True, nogil=True)
def _poly_best_axis(Q: np.ndarray, P: np.ndarray, E: np.ndarray, V: np.ndarray,
                    T: np.ndarray, FN: np.ndarray, nb_ptr: np.ndarray, nb_idx: np.ndarray,
                    vt_ptr: np.ndarray, vt_idx: np.ndarray, t: int) -> np.ndarray:
    """(4,): the admissible direction of least overlap of polytope and
    triangle t, and that overlap (inf if none)."""
    best = np.array([0.0, 0.0, 0.0, np.inf])
    faces, edges = _ring(T, vt_ptr, vt_idx, t)
    d = np.empty(3)
    for i in range(faces.shape[0]):
        d[:] = FN[faces[i]]
        if dot3(d, d) > 0.5:
            _consider(V, T, FN, nb_ptr, nb_idx, t, d,
                      _tri_h(V, T, t, d) - _poly_min(Q, d), best)
    for f in range(P.shape[0]):
        d[:] = -P[f, :3]
        _consider(V, T, FN, nb_ptr, nb_idx, t, d, _tri_h(V, T, t, d) - _poly_min(Q, d), best)
    for i in range(edges.shape[0]):
        e = V[edges[i, 1]] - V[edges[i, 0]]
        for j in range(E.shape[0]):
            if not _cross_unit(e, Q[E[j, 1]] - Q[E[j, 0]], d):
                continue
            for sg in (1.0, -1.0):
                dd = sg * d
                _consider(V, T, FN, nb_ptr, nb_idx, t, dd,
                          _tri_h(V, T, t, dd) - _poly_min(Q, dd), best)
    return best


@njit(cache=True, nogil=True)
def _poly_chord(P: np.ndarray, p: np.ndarray, u: np.ndarray) -> float:
    """Distance from p (inside the polytope with planes P) along u to its boundary."""
    s = np.inf
    for f in range(P.shape[0]):
        nu = dot3(P[f, :3], u)
        if nu > 1e-12:
            s = min(s, (P[f, 3] - dot3(P[f, :3], p)) / nu)
    return max(s, 0.0) if s < np.inf else 0.0


@njit(cache=True, nogil=True)
def _feature(pts: np.ndarray, npts: int, d: np.ndarray, lo: bool, tol: float) -> tuple:
    """Indices (up to 2, count) of the points with the least (lo) or greatest
    d.x within tol; count 3 means a face (more than two)."""
    ext = np.inf if lo else -np.inf
    for i in range(npts):
        v = dot3(d, pts[i])
        ext = min(ext, v) if lo else max(ext, v)
    i0 = -1
    i1 = -1
    cnt = 0
    for i in range(npts):
        v = dot3(d, pts[i])
        if abs(v - ext) <= tol:
            if cnt == 0:
                i0 = i
            elif cnt == 1:
                i1 = i
            cnt += 1
    return i0, i1, min(cnt, 3)


@njit(cache=True, nogil=True)
def _witness(A: np.ndarray, na: int, B: np.ndarray, nb: int, d: np.ndarray, depth: float,
             tol: float, out: np.ndarray, k: int, s1: int, s2: int) -> int:
    """Contact between the deepest features of point sets A (mesh side,
    greatest d.x) and B (other side, least d.x) when both are points or
    segments whose closest points are in line with d: halfway between them."""
    a0, a1, ca = _feature(A, na, d, False, tol)
    b0, b1, cb = _feature(B, nb, d, True, tol)
    if ca > 2 or cb > 2:
        return k
    pa = A[a0]
    qa = A[a1] if ca == 2 else A[a0]
    pb = B[b0]
    qb = B[b1] if cb == 2 else B[b0]
    x, y = _seg_closest(pa, qa, pb, qb)
    # only when the closest points face each other along d (the triangle may
    # hold just an end of the supporting edge: its own feature is then off)
    w = x - y
    lat = w - dot3(w, d) * d
    if dot3(lat, lat) > 1e-12 * (1.0 + dot3(w, w)):
        return k
    return _put(out, k, 0.5 * (x + y), d, depth, s1, s2)


@njit(cache=True, nogil=True)
def convex_triangles_kernel(Q: np.ndarray, P: np.ndarray, E: np.ndarray, V: np.ndarray,
                            T: np.ndarray, FN: np.ndarray, nb_ptr: np.ndarray,
                            nb_idx: np.ndarray, vt_ptr: np.ndarray, vt_idx: np.ndarray,
                            tris: np.ndarray) -> np.ndarray:
    """Contacts (k, 9) of a convex polytope with triangles ``tris`` of a mesh.

    Polytope in world coordinates: points Q (n, 3) m, face planes P (f, 4)
    (unit outward normal, offset: n.x <= off inside), edges E (e, 2) point
    indices. Mesh: world vertices V (nv, 3), triangles T (nt, 3), unit face
    normals FN (nt, 3) and the topology of :func:`build_topology`. Normals
    point from the mesh into the polytope; side1 -1, side2 the triangle.
    """
    poly = np.empty((3 + P.shape[0] + 2, 3))
    tv = np.empty((3, 3))
    tl = np.empty(tris.shape[0], dtype=np.int64)
    bs = np.empty((tris.shape[0], 4))
    m = 0
    for ti in range(tris.shape[0]):
        t = tris[ti]
        if dot3(FN[t], FN[t]) < 0.5 or not _poly_touches_tri(Q, P, E, V, T, FN, t):
            continue
        best = _poly_best_axis(Q, P, E, V, T, FN, nb_ptr, nb_idx, vt_ptr, vt_idx, t)
        if best[3] < np.inf:
            tl[m] = t
            bs[m] = best
            m += 1
    # a triangle is redundant when moving the polytope out of a shallower
    # triangle's overlap (along that one's direction) already clears it
    order = np.argsort(bs[:m, 3])
    Qs = np.empty_like(Q)
    Ps = P.copy()
    for i in range(m):
        for jj in range(m):
            j = order[jj]
            if bs[j, 3] >= bs[i, 3] * (1.0 - 1e-6) - 1e-12:
                break
            shift = bs[j, 3] + 1e-6 * (1.0 + bs[j, 3])
            for q in range(Q.shape[0]):
                for x in range(3):
                    Qs[q, x] = Q[q, x] + shift * bs[j, x]
            for f in range(P.shape[0]):
                Ps[f, 3] = P[f, 3] + shift * (P[f, 0] * bs[j, 0] + P[f, 1] * bs[j, 1]
                                              + P[f, 2] * bs[j, 2])
            if not _poly_touches_tri(Qs, Ps, E, V, T, FN, tl[i]):
                bs[i, 3] = np.inf
                break
    out = np.zeros((m * (P.shape[0] + 2 * E.shape[0] + 6) + 1, 9))
    k = 0
    for i in range(m):
        if not bs[i, 3] < np.inf:
            continue
        t = tl[i]
        d = bs[i, :3].copy()
        depth = bs[i, 3]
        k0 = k
        # corners of the triangle clipped to the polytope: chord along -d
        for c in range(3):
            poly[c] = V[T[t, c]]
            tv[c] = V[T[t, c]]
        npts = 3
        for f in range(P.shape[0]):
            npts = _clip_poly(poly, npts, P[f, :3], P[f, 3])
        for ip in range(npts):
            s = min(_poly_chord(P, poly[ip], -d), depth)
            k = _put(out, k, poly[ip] - 0.5 * s * d, d, s, -1, t)
        # polytope edges inside the prism swept by the triangle
        for j in range(E.shape[0]):
            k = _prism_points(V, T, FN, t, d, Q[E[j, 0]], Q[E[j, 1]], depth, out, k, d, -1, t,
                              False)
        k = _witness(tv, 3, Q, Q.shape[0], d, depth, 1e-9, out, k, -1, t)
        k = _ensure_full_depth(out, k0, k, poly, npts, d, depth, _tri_h(V, T, t, d), -1, t)
        k = _keep_deepest(out, k0, k, _KEEP_POLY)
    return out[:k]
