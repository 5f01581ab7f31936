"""Two triangle meshes against each other, and contact reduction (numba).

``trimesh_pairs_kernel``: touching triangle pairs, a direction admissible
for both (or a face normal when none is), their points and the crossing
points of the two triangles; ``reduce_contacts`` keeps ``max_contacts``
rows, deepest first, then the farthest from those kept. See
``colliders_trimesh_convex``.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from engine.ode.collision.pairs.convex_triangles import (
    _witness,
)
from engine.ode.collision.pairs.mesh_surface import (
    _EPS,
    _clip_seg,
    _cross_unit,
    _prism_points,
    _put,
    _ring,
    _tri_h,
    _tri_min,
    admissible,
)
from engine.ode.kernels.vec import dot3


# --------------------------------------------------------------------------
# triangle against triangle (two meshes)
# --------------------------------------------------------------------------
@njit(cache=True, nogil=True)
def _tris_touch(A: np.ndarray, B: np.ndarray, na: np.ndarray, nb: np.ndarray) -> bool:
    """Separating-axis test of two flat triangles A, B (3, 3) with unit
    normals na, nb: True when they overlap or touch."""
    scale = 0.0
    for c in range(3):
        for j in range(3):
            scale = max(scale, abs(A[c, j] - A[(c + 1) % 3, j]), abs(B[c, j] - B[(c + 1) % 3, j]))
    tol = _EPS * max(scale, 1.0)
    ax = np.empty(3)
    # axes: both normals, the 9 edge-edge crosses, and the in-plane edge
    # normals of each triangle (needed when they are coplanar)
    for m in range(17):
        if m == 0:
            ax[:] = na
        elif m == 1:
            ax[:] = nb
        elif m < 11:
            i = (m - 2) // 3
            j = (m - 2) % 3
            if not _cross_unit(A[(i + 1) % 3] - A[i], B[(j + 1) % 3] - B[j], ax):
                continue
        elif m < 14:
            i = m - 11
            if not _cross_unit(na, A[(i + 1) % 3] - A[i], ax):
                continue
        else:
            i = m - 14
            if not _cross_unit(nb, B[(i + 1) % 3] - B[i], ax):
                continue
        amin = min(dot3(ax, A[0]), min(dot3(ax, A[1]), dot3(ax, A[2])))
        amax = max(dot3(ax, A[0]), max(dot3(ax, A[1]), dot3(ax, A[2])))
        bmin = min(dot3(ax, B[0]), min(dot3(ax, B[1]), dot3(ax, B[2])))
        bmax = max(dot3(ax, B[0]), max(dot3(ax, B[1]), dot3(ax, B[2])))
        if amin > bmax + tol or bmin > amax + tol:
            return False
    return True


@njit(cache=True, nogil=True)
def _tri_tri_point(A: np.ndarray, B: np.ndarray, nb: np.ndarray) -> np.ndarray:
    """A point (3,) where touching triangles A and B (3, 3) meet: the middle
    of A's crossing of B's plane clipped to B (unit normal nb, corners
    counter-clockwise about it), or A's corner nearest that plane."""
    da = np.empty(3)
    for c in range(3):
        da[c] = dot3(nb, A[c] - B[0])
    pts = np.empty((3, 3))
    m = 0
    for c in range(3):
        e = (c + 1) % 3
        if (da[c] <= 0.0 <= da[e]) or (da[e] <= 0.0 <= da[c]):
            if da[c] == da[e]:
                continue
            s = da[c] / (da[c] - da[e])
            pts[m] = A[c] + s * (A[e] - A[c])
            m += 1
    if m < 2:
        i = 0
        for c in range(3):
            if abs(da[c]) < abs(da[i]):
                i = c
        return A[i].copy()
    p = pts[0]
    q = pts[1]
    if m == 3:
        # a corner on the plane counted twice: take the two farthest apart
        best = -1.0
        for i in range(3):
            for j in range(i + 1, 3):
                w = pts[i] - pts[j]
                if dot3(w, w) > best:
                    best = dot3(w, w)
                    p = pts[i]
                    q = pts[j]
    rng = np.array([0.0, 1.0])
    out_n = np.empty(3)
    for c in range(3):
        e = B[(c + 1) % 3] - B[c]
        if not _cross_unit(e, nb, out_n):
            continue
        if not _clip_seg(p, q, rng, out_n, dot3(out_n, B[c]) + 1e-12):
            return 0.5 * (p + q)
    return p + 0.5 * (rng[0] + rng[1]) * (q - p)


@njit(cache=True, nogil=True)
def _pair_consider(V1, T1, FN1, nb1p, nb1i, t1, V2, T2, FN2, nb2p, nb2i, t2,
                   d: np.ndarray, best: np.ndarray) -> None:
    """Keep d in best if admissible for t2 (mesh 2) and -d for t1 (mesh 1)
    and the overlap is smaller."""
    val = _tri_h(V2, T2, t2, d) - _tri_min(V1, T1, t1, d)
    if val < best[3] and admissible(V2, T2, FN2, nb2p, nb2i, t2, d) and \
            admissible(V1, T1, FN1, nb1p, nb1i, t1, -d):
        best[0], best[1], best[2], best[3] = d[0], d[1], d[2], val


@njit(cache=True, nogil=True)
def trimesh_pairs_kernel(V1: np.ndarray, T1: np.ndarray, FN1: np.ndarray, nb1p: np.ndarray,
                         nb1i: np.ndarray, vt1p: np.ndarray, vt1i: np.ndarray,
                         tris1: np.ndarray, V2: np.ndarray, T2: np.ndarray, FN2: np.ndarray,
                         nb2p: np.ndarray, nb2i: np.ndarray, vt2p: np.ndarray,
                         vt2i: np.ndarray, tris2: np.ndarray) -> np.ndarray:
    """Contacts (k, 9) between triangles ``tris1`` of mesh 1 and ``tris2`` of
    mesh 2 (each: world vertices, triangles, unit face normals and the
    topology of :func:`build_topology`). Normals point from mesh 2 into mesh
    1; side1/side2 are the triangles of mesh 1/2."""
    # pass 1: the touching pairs and their own least-overlap directions
    nmax = tris1.shape[0] * tris2.shape[0]
    pairs = np.empty((min(nmax, 1024), 2), dtype=np.int64)
    bests = np.empty((min(nmax, 1024), 4))
    npair = 0
    A = np.empty((3, 3))
    B = np.empty((3, 3))
    d = np.empty(3)
    for i1 in range(tris1.shape[0]):
        t1 = tris1[i1]
        if dot3(FN1[t1], FN1[t1]) < 0.5:
            continue
        for c in range(3):
            A[c] = V1[T1[t1, c]]
        for i2 in range(tris2.shape[0]):
            t2 = tris2[i2]
            if dot3(FN2[t2], FN2[t2]) < 0.5:
                continue
            for c in range(3):
                B[c] = V2[T2[t2, c]]
            if not _tris_touch(A, B, FN1[t1], FN2[t2]):
                continue
            best = np.array([0.0, 0.0, 0.0, np.inf])
            f1, e1 = _ring(T1, vt1p, vt1i, t1)
            f2, e2 = _ring(T2, vt2p, vt2i, t2)
            for i in range(f2.shape[0]):
                d[:] = FN2[f2[i]]
                _pair_consider(V1, T1, FN1, nb1p, nb1i, t1, V2, T2, FN2, nb2p, nb2i, t2, d, best)
            for i in range(f1.shape[0]):
                d[:] = -FN1[f1[i]]
                _pair_consider(V1, T1, FN1, nb1p, nb1i, t1, V2, T2, FN2, nb2p, nb2i, t2, d, best)
            for i in range(e2.shape[0]):
                ea = V2[e2[i, 1]] - V2[e2[i, 0]]
                for j in range(e1.shape[0]):
                    if not _cross_unit(ea, V1[e1[j, 1]] - V1[e1[j, 0]], d):
                        continue
                    _pair_consider(V1, T1, FN1, nb1p, nb1i, t1, V2, T2, FN2, nb2p, nb2i, t2,
                                   d, best)
                    d[:] = -d
                    _pair_consider(V1, T1, FN1, nb1p, nb1i, t1, V2, T2, FN2, nb2p, nb2i, t2,
                                   d, best)
            if not best[3] < np.inf:
                # smooth surfaces crossing at a steep angle share no admissible
                # direction: fall back to the face normal of either triangle,
                # with the other one's reach behind it
                d[:] = FN2[t2]
                best[3] = _tri_h(V2, T2, t2, d) - _tri_min(V1, T1, t1, d)
                best[:3] = d
                d[:] = -FN1[t1]
                val = _tri_h(V2, T2, t2, d) - _tri_min(V1, T1, t1, d)
                if val < best[3]:
                    best[:3] = d
                    best[3] = val
            if npair == pairs.shape[0]:
                p2 = np.empty((2 * npair, 2), dtype=np.int64)
                b2 = np.empty((2 * npair, 4))
                p2[:npair] = pairs[:npair]
                b2[:npair] = bests[:npair]
                pairs = p2
                bests = b2
            pairs[npair, 0] = t1
            pairs[npair, 1] = t2
            bests[npair] = best
            npair += 1
    # pass 2: a pair whose own candidates miss the contact's direction (it
    # touches inside the contact region, away from both meshes' supporting
    # features) takes a direction another pair found, if admissible for it
    found = bests[:npair].copy()
    for i in range(npair):
        t1 = pairs[i, 0]
        t2 = pairs[i, 1]
        for j in range(npair):
            if found[j, 3] >= bests[i, 3]:
                continue
            d[:] = found[j, :3]
            _pair_consider(V1, T1, FN1, nb1p, nb1i, t1, V2, T2, FN2, nb2p, nb2i, t2, d,
                           bests[i])
    # pass 3: a pair is redundant when moving mesh 1 out of a shallower
    # pair's overlap (along that pair's direction) already separates it
    order = np.argsort(bests[:npair, 3])
    live = np.ones(npair, dtype=np.bool_)
    for i in range(npair):
        t1 = pairs[i, 0]
        t2 = pairs[i, 1]
        for c in range(3):
            B[c] = V2[T2[t2, c]]
        for jj in range(npair):
            j = order[jj]
            if bests[j, 3] >= bests[i, 3] * (1.0 - 1e-6) - 1e-12:
                break
            shift = bests[j, 3] + 1e-6 * (1.0 + bests[j, 3])
            for c in range(3):
                for x in range(3):
                    A[c, x] = V1[T1[t1, c], x] + shift * bests[j, x]
            if not _tris_touch(A, B, FN1[t1], FN2[t2]):
                live[i] = False
                break
    # contacts
    out = np.zeros((npair * 16 + 1, 9))
    k = 0
    for i in range(npair):
        if not live[i]:
            continue
        t1 = pairs[i, 0]
        t2 = pairs[i, 1]
        for c in range(3):
            A[c] = V1[T1[t1, c]]
            B[c] = V2[T2[t2, c]]
        dd = bests[i, :3].copy()
        depth = bests[i, 3]
        # edges of each triangle behind the other one (within its prism)
        for c in range(3):
            k = _prism_points(V2, T2, FN2, t2, dd, A[c], A[(c + 1) % 3], depth, out, k,
                              dd, t1, t2, True)
        nd = -dd
        for c in range(3):
            k = _prism_points(V1, T1, FN1, t1, nd, B[c], B[(c + 1) % 3], depth, out, k,
                              dd, t1, t2, True)
        k = _witness(B, 3, A, 3, dd, depth, 1e-9, out, k, t1, t2)
    # every pair adds a point where its triangles meet: with the pair's
    # overlap when no point along its direction reaches it (the meshes'
    # supporting features lie inside each other, away from every touching
    # pair: a deep overlap), else with depth 0 (the surfaces cross there; a
    # floor triangle beside the deepest one is not pushed harder)
    kn = k
    for i in range(npair):
        if not live[i]:
            continue
        depth = bests[i, 3]
        reached = False
        for r in range(kn):
            if out[r, 6] >= depth - 1e-9 * (1.0 + depth) and \
                    abs(out[r, 3] - bests[i, 0]) + abs(out[r, 4] - bests[i, 1]) \
                    + abs(out[r, 5] - bests[i, 2]) < 1e-9:
                reached = True
                break
        if k + 1 > out.shape[0]:
            grown = np.zeros((2 * out.shape[0] + 1, 9))
            grown[:k] = out[:k]
            out = grown
        t1 = pairs[i, 0]
        t2 = pairs[i, 1]
        for c in range(3):
            A[c] = V1[T1[t1, c]]
            B[c] = V2[T2[t2, c]]
        x = _tri_tri_point(A, B, FN2[t2])
        # where the surfaces cross the local penetration is nil: a point of
        # the patch's outline, unless the pair must carry the overlap itself
        k = _put(out, k, x, bests[i, :3].copy(), 0.0 if reached else depth, t1, t2)
    return out[:k]


# --------------------------------------------------------------------------
# pooling
# --------------------------------------------------------------------------
@njit(cache=True, nogil=True)
def reduce_contacts(rows: np.ndarray, max_contacts: int) -> np.ndarray:
    """At most max_contacts of the contact rows (k, 9): exact duplicates
    (same point and normal within 1e-8) dropped, the deepest first, then
    repeatedly the row farthest from those kept (the deeper on a tie),
    taken among the rows at least a quarter as deep as the deepest while
    there are any left, then among the others."""
    n = rows.shape[0]
    keep = np.ones(n, dtype=np.bool_)
    for i in range(n):
        if not keep[i]:
            continue
        for j in range(i + 1, n):
            if keep[j]:
                same = True
                for c in range(6):
                    if abs(rows[i, c] - rows[j, c]) > 1e-8:
                        same = False
                        break
                if same:
                    keep[j] = False
                    if rows[j, 6] > rows[i, 6]:
                        rows[i, 6] = rows[j, 6]
    idx = np.nonzero(keep)[0]
    m = idx.shape[0]
    if m == 0:
        return np.zeros((0, 9))
    cnt = min(m, max(max_contacts, 1))
    out = np.empty((cnt, 9))
    first = 0
    for i in range(m):
        if rows[idx[i], 6] > rows[idx[first], 6]:
            first = i
    deep_lim = 0.25 * rows[idx[first], 6]
    dist = np.full(m, np.inf)
    used = np.zeros(m, dtype=np.bool_)
    cur = first
    for s in range(cnt):
        used[cur] = True
        out[s] = rows[idx[cur]]
        p = rows[idx[cur]]
        nxt = -1
        nxt_deep = False
        for i in range(m):
            if used[i]:
                continue
            q = rows[idx[i]]
            e = (q[0] - p[0]) ** 2 + (q[1] - p[1]) ** 2 + (q[2] - p[2]) ** 2
            dist[i] = min(dist[i], e)
            deep = q[6] >= deep_lim
            if nxt < 0 or (deep and not nxt_deep):
                better = True
            elif nxt_deep and not deep:
                better = False
            else:
                better = dist[i] > dist[nxt] + 1e-18 or \
                    (abs(dist[i] - dist[nxt]) <= 1e-18 and q[6] > rows[idx[nxt], 6])
            if better:
                nxt = i
                nxt_deep = deep
        cur = nxt
    return out
