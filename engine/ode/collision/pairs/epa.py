"""EPA: penetration depth and direction of two overlapping convex shapes (numba).

Blows GJK's final simplex up to a tetrahedron, expands the polytope toward
the boundary of the Minkowski difference, resolves ties between equally
deep faces and computes the witness points. See ``gjk`` for the algorithm
as a whole.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from engine.ode.collision.pairs.gjk_distance import (
    _polish,
    gjk,
)
from engine.ode.collision.pairs.support_shapes import (
    _DEAD,
    _DONE,
    _EPA_FACES,
    _EPA_FLAT,
    _EPA_OK,
    _EPA_POINT,
    _EPA_REL,
    _EPA_VERTS,
    _GOING,
    _OPEN,
    _SAME_NORMAL,
    _TIE_REL,
    _minkowski,
    support,
)
from engine.ode.kernels import detmath
from engine.ode.kernels.vec import dot3


# ----------------------------------------------------------------------------- EPA
@njit(cache=True, nogil=True)
def _blow_up(ka: int, pa: np.ndarray, posa: np.ndarray, Ra: np.ndarray, ma: float,
             kb: int, pb: np.ndarray, posb: np.ndarray, Rb: np.ndarray, mb: float,
             V: np.ndarray, VA: np.ndarray, VB: np.ndarray, nv: int, tol: float,
             direction: np.ndarray) -> int:
    """Grow the simplex V[:nv] (holding the origin) to a tetrahedron of points
    of D; returns 4, or the dimension + 1 of D when D is flat (3), a segment
    (2) or a point (1), with ``direction`` set to its normal / its line."""
    if nv == 1:
        for k in range(6):
            d = np.zeros(3)
            d[k // 2] = 1.0 if k % 2 == 0 else -1.0
            _minkowski(ka, pa, posa, Ra, ma, kb, pb, posb, Rb, mb, d[0], d[1], d[2],
                       V, VA, VB, 1)
            e = V[1] - V[0]
            if math.sqrt(e[0] * e[0] + e[1] * e[1] + e[2] * e[2]) > tol:
                nv = 2
                break
        if nv == 1:
            return 1
    if nv == 2:
        u = V[1] - V[0]
        u = u / math.sqrt(u[0] * u[0] + u[1] * u[1] + u[2] * u[2])
        direction[:] = u
        k = 0
        if abs(u[1]) < abs(u[k]):
            k = 1
        if abs(u[2]) < abs(u[k]):
            k = 2
        ax = np.zeros(3)
        ax[k] = 1.0
        e1 = np.cross(u, ax)
        e1 = e1 / math.sqrt(e1[0] * e1[0] + e1[1] * e1[1] + e1[2] * e1[2])
        e2 = np.cross(u, e1)
        for k in range(6):
            th = k * math.pi / 3.0
            d = detmath.cos(th) * e1 + detmath.sin(th) * e2
            _minkowski(ka, pa, posa, Ra, ma, kb, pb, posb, Rb, mb, d[0], d[1], d[2],
                       V, VA, VB, 2)
            off = np.cross(V[2] - V[0], u)
            if math.sqrt(off[0] * off[0] + off[1] * off[1] + off[2] * off[2]) > tol:
                nv = 3
                break
        if nv == 2:
            return 2
    if nv == 3:
        nrm = np.cross(V[1] - V[0], V[2] - V[0])
        nrm = nrm / math.sqrt(nrm[0] * nrm[0] + nrm[1] * nrm[1] + nrm[2] * nrm[2])
        direction[:] = nrm
        best = 0.0
        for s in (1.0, -1.0):
            _minkowski(ka, pa, posa, Ra, ma, kb, pb, posb, Rb, mb, s * nrm[0], s * nrm[1],
                       s * nrm[2], V, VA, VB, 4)
            off = abs(nrm[0] * (V[4, 0] - V[0, 0]) + nrm[1] * (V[4, 1] - V[0, 1])
                      + nrm[2] * (V[4, 2] - V[0, 2]))
            if off > best:
                best = off
                V[3] = V[4]
                VA[3] = VA[4]
                VB[3] = VB[4]
        if best <= tol:
            return 3
    return 4


@njit(cache=True, nogil=True)
def _set_face(V: np.ndarray, FI: np.ndarray, FP: np.ndarray, g: int, i: int, j: int,
              k: int) -> None:
    """Face g = (i, j, k), counter-clockwise from outside, open: unit normal and
    plane distance from the origin in FP[g] (distance inf when degenerate)."""
    FI[g, 0], FI[g, 1], FI[g, 2] = i, j, k
    FI[g, 6] = _OPEN
    nrm = np.cross(V[j] - V[i], V[k] - V[i])
    ln = math.sqrt(dot3(nrm, nrm))
    if ln > 0.0:
        FP[g, 0:3] = nrm / ln
        FP[g, 3] = dot3(FP[g, 0:3], V[i])
    else:
        FP[g, 0:3] = 0.0
        FP[g, 3] = np.inf


@njit(cache=True, nogil=True)
def _tetrahedron(V: np.ndarray, FI: np.ndarray, FP: np.ndarray) -> None:
    """Faces 0..3 of the tetrahedron V[:4], wound outwards, with their neighbours."""
    for l in range(4):
        i, j, k = (l + 1) % 4, (l + 2) % 4, (l + 3) % 4
        if dot3(np.cross(V[j] - V[i], V[k] - V[i]), V[l] - V[i]) > 0.0:
            j, k = k, j
        _set_face(V, FI, FP, l, i, j, k)
    for g in range(4):
        for e in range(3):
            a, b = FI[g, e], FI[g, (e + 1) % 3]
            for h in range(4):
                for k in range(3):
                    if FI[h, k] == b and FI[h, (k + 1) % 3] == a:
                        FI[g, 3 + e] = h


@njit(cache=True, nogil=True)
def _expand(V: np.ndarray, FI: np.ndarray, FP: np.ndarray, f: int, m: int, vis: float,
            S: np.ndarray, byv: np.ndarray, cnt: np.ndarray) -> bool:
    """Remove the faces that see vertex m (by more than ``vis``), found by a
    walk over neighbours from face f, and join the horizon of the hole to m.

    Faces: FI[g] = 3 vertices, 3 neighbours (across edges v0v1, v1v2, v2v0),
    state; FP[g] = normal, distance. S (7, faces) is scratch (stack, removed,
    their states, new faces, free slots, horizon faces and edges), byv (2,
    verts) is -1 on entry and exit, cnt = (slots used, free slots). Returns
    False, changing nothing, when the horizon is not one simple loop or the
    faces would not fit."""
    stack, removed, was, newf, free, hface, hedge = S[0], S[1], S[2], S[3], S[4], S[5], S[6]
    w = V[m]
    nrem = 1
    removed[0] = f
    was[0] = FI[f, 6]
    FI[f, 6] = _GOING
    top = 1
    stack[0] = f
    nh = 0
    while top > 0:
        top -= 1
        g = stack[top]
        for e in range(3):
            h = FI[g, 3 + e]
            if FI[h, 6] == _GOING:
                continue
            i0 = FI[h, 0]
            if (FP[h, 0] * (w[0] - V[i0, 0]) + FP[h, 1] * (w[1] - V[i0, 1])
                    + FP[h, 2] * (w[2] - V[i0, 2])) > vis:
                removed[nrem] = h
                was[nrem] = FI[h, 6]
                nrem += 1
                FI[h, 6] = _GOING
                stack[top] = h
                top += 1
            else:
                for k in range(3):
                    if FI[h, 3 + k] == g:
                        hface[nh] = h
                        hedge[nh] = k
                        nh += 1
    # the new face on horizon edge (p, q) of h is (q, p, m): one per vertex as q and as p
    ok = cnt[1] + nrem + FI.shape[0] - cnt[0] >= nh
    for r in range(nh):
        h, k = hface[r], hedge[r]
        p, q = FI[h, k], FI[h, (k + 1) % 3]
        if byv[0, q] >= 0 or byv[1, p] >= 0:
            ok = False
        byv[0, q] = r
        byv[1, p] = r
    for r in range(nh):              # ... and the loop closes
        h, k = hface[r], hedge[r]
        if byv[0, FI[h, k]] < 0 or byv[1, FI[h, (k + 1) % 3]] < 0:
            ok = False
    if ok:
        for r in range(nrem):
            FI[removed[r], 6] = _DEAD
            free[cnt[1]] = removed[r]
            cnt[1] += 1
        for r in range(nh):
            if cnt[1] > 0:
                cnt[1] -= 1
                newf[r] = free[cnt[1]]
            else:
                newf[r] = cnt[0]
                cnt[0] += 1
        for r in range(nh):
            h, k = hface[r], hedge[r]
            p, q = FI[h, k], FI[h, (k + 1) % 3]
            g = newf[r]
            _set_face(V, FI, FP, g, q, p, m)
            FI[g, 3] = h
            FI[h, 3 + k] = g
            FI[g, 4] = newf[byv[0, p]]       # across (p, m): the face with q' = p
            FI[g, 5] = newf[byv[1, q]]       # across (m, q): the face with p' = q
    else:
        for r in range(nrem):
            FI[removed[r], 6] = was[r]
    for r in range(nh):
        h, k = hface[r], hedge[r]
        byv[0, FI[h, (k + 1) % 3]] = -1
        byv[1, FI[h, k]] = -1
    return ok


@njit(cache=True, nogil=True)
def _witness(V: np.ndarray, VA: np.ndarray, VB: np.ndarray, FI: np.ndarray,
             FP: np.ndarray, f: int, out: np.ndarray) -> bool:
    """out[4:7], out[7:10] = the points of A and B behind the origin's
    projection on face f (its barycentric weights on the A and B vertices);
    False if the projection falls outside the face (weights clamped)."""
    i, j, k = FI[f, 0], FI[f, 1], FI[f, 2]
    v0 = V[j] - V[i]
    v1 = V[k] - V[i]
    v2 = FP[f, 3] * FP[f, 0:3] - V[i]
    d00 = dot3(v0, v0)
    d01 = dot3(v0, v1)
    d11 = dot3(v1, v1)
    d20 = dot3(v2, v0)
    d21 = dot3(v2, v1)
    den = d00 * d11 - d01 * d01
    lv = 0.0
    lw = 0.0
    inside = False
    if den > 0.0:
        lv = (d11 * d20 - d01 * d21) / den
        lw = (d00 * d21 - d01 * d20) / den
        inside = min(lv, lw, 1.0 - lv - lw) >= -1e-9
        lv = min(1.0, max(0.0, lv))
        lw = min(1.0, max(0.0, lw))
        s = lv + lw
        if s > 1.0:
            lv /= s
            lw /= s
    lu = 1.0 - lv - lw
    for c in range(3):
        out[4 + c] = lu * VA[i, c] + lv * VA[j, c] + lw * VA[k, c]
        out[7 + c] = lu * VB[i, c] + lv * VB[j, c] + lw * VB[k, c]
    return inside


@njit(cache=True, nogil=True)
def epa(ka: int, pa: np.ndarray, posa: np.ndarray, Ra: np.ndarray, ma: float,
        kb: int, pb: np.ndarray, posb: np.ndarray, Rb: np.ndarray, mb: float,
        W: np.ndarray, WA: np.ndarray, WB: np.ndarray, n: int, out: np.ndarray) -> int:
    """Penetration of A and B (cores inflated by ma, mb) from GJK's final
    simplex W[:n] (WA, WB: the A and B points), which holds the origin.

    Returns 0 with ``out`` (10,) = depth, unit n (3,) from A to B, deepest
    points pA (3,), pB (3,); or, when D has no volume, 1 (flat: out[1:4] =
    its normal), 2 (a segment: out[1:4] = its direction) or 3 (a point)."""
    V = np.empty((_EPA_VERTS + 2, 3))
    VA = np.empty((_EPA_VERTS + 2, 3))
    VB = np.empty((_EPA_VERTS + 2, 3))
    V[:n] = W[:n]
    VA[:n] = WA[:n]
    VB[:n] = WB[:n]
    size = 1e-9
    for i in range(n):
        size = max(size, math.sqrt(dot3(V[i], V[i])))
    size = max(size, math.sqrt(dot3(posa - posb, posa - posb)))
    tol = _EPA_REL * size
    direction = np.zeros(3)
    nv = _blow_up(ka, pa, posa, Ra, ma, kb, pb, posb, Rb, mb, V, VA, VB, n, tol, direction)
    out[:] = 0.0
    if nv < 4:
        out[1:4] = direction
        return 4 - nv
    FI = np.empty((_EPA_FACES, 7), dtype=np.int64)
    FP = np.empty((_EPA_FACES, 4))
    S = np.empty((7, _EPA_FACES), dtype=np.int64)
    byv = np.full((2, _EPA_VERTS + 2), -1, dtype=np.int64)
    cnt = np.array([4, 0])
    _tetrahedron(V, FI, FP)
    for g in range(4):
        if FP[g, 3] < -10.0 * tol:
            # the origin is outside after all (GJK misjudged a flat simplex):
            # the shapes touch at most; along that face
            out[1:4] = -FP[g, 0:3]
            return _EPA_FLAT
    depth = np.inf
    tie = _TIE_REL * size
    last = -np.inf
    upper = np.inf                   # the least overlap h_D(n) seen, along ub[0:3]
    ub = np.zeros(9)
    while True:
        f = -1                       # the open face nearest the origin
        for g in range(cnt[0]):
            if FI[g, 6] == _OPEN and (f < 0 or FP[g, 3] < FP[f, 3]):
                f = g
        if f < 0 or FP[f, 3] == np.inf or FP[f, 3] > depth + tie:
            break
        if FP[f, 3] < last - 10.0 * tol:
            break                    # rounding broke the polytope: keep what we have
        last = FP[f, 3]
        _minkowski(ka, pa, posa, Ra, ma, kb, pb, posb, Rb, mb, FP[f, 0], FP[f, 1],
                   FP[f, 2], V, VA, VB, nv)
        h = dot3(FP[f, 0:3], V[nv])
        if h < upper:
            upper = h
            ub[0:3] = FP[f, 0:3]
            ub[3:6] = VA[nv]
            ub[6:9] = VB[nv]
        if h - FP[f, 3] <= tol:
            FI[f, 6] = _DONE                # a face of D (within tol)
            depth = min(depth, FP[f, 3])
            continue
        if nv >= _EPA_VERTS or not _expand(V, FI, FP, f, nv, tol, S, byv, cnt):
            break
        nv += 1
    if depth == np.inf:
        # no face converged (capacity, rounding; a continuum of equally deep
        # directions, as a sphere on a cylinder's axis, defeats EPA): the best
        # direction seen, polished, with its overlap, an upper bound of the
        # depth that still separates them
        upper = -_polish(ka, pa, posa, Ra, ma, kb, pb, posb, Rb, mb, ub[0:3], -upper)
        out[0] = max(upper, 0.0)
        out[1:4] = ub[0:3]
        out[4:7] = ub[3:6]
        out[7:10] = ub[6:9]
        _touch_witness(ka, pa, posa, Ra, ma, kb, pb, posb, Rb, mb, out)
        return _EPA_OK
    return _epa_result(ka, pa, posa, Ra, ma, kb, pb, posb, Rb, mb, V, VA, VB, FI, FP,
                       cnt[0], depth, tie, out)


@njit(cache=True, nogil=True)
def _epa_result(ka: int, pa: np.ndarray, posa: np.ndarray, Ra: np.ndarray, ma: float,
                kb: int, pb: np.ndarray, posb: np.ndarray, Rb: np.ndarray, mb: float,
                V: np.ndarray, VA: np.ndarray, VB: np.ndarray, FI: np.ndarray,
                FP: np.ndarray, nf: int, depth: float, tie: float, out: np.ndarray) -> int:
    """Fill ``out`` from the converged faces within ``tie`` of the depth: of
    those with different normals, the one most along the centre line A -> B;
    when several are (two tip-to-tip convexes), their mean direction; for
    concentric shapes, the nearest."""
    c = posb - posa
    tied = np.empty(8, dtype=np.int64)
    score = np.empty(8)
    nd = 0
    best = -1
    for g in range(nf):
        if FI[g, 6] != _DONE or FP[g, 3] > depth + tie:
            continue
        new = True
        for r in range(nd):
            if dot3(FP[g, 0:3], FP[tied[r], 0:3]) > 1.0 - _SAME_NORMAL:
                new = False             # the same minimum: keep the nearer face
                if FP[g, 3] < FP[tied[r], 3]:
                    tied[r] = g
                    score[r] = dot3(FP[g, 0:3], c)
        if new and nd < 8:
            tied[nd] = g
            score[nd] = dot3(FP[g, 0:3], c)
            nd += 1
    centred = dot3(c, c) <= tie * tie   # concentric: no line to rank by
    for r in range(nd):
        if best < 0:
            best = r
        elif centred:
            if FP[tied[r], 3] < FP[tied[best], 3]:
                best = r
        elif score[r] > score[best]:
            best = r
    if best < 0:                     # no usable face at all: answer as for a point
        return _EPA_POINT
    mean = np.zeros(3)
    nm = 0
    for r in range(nd):
        if not centred and score[r] >= score[best] - tie * (1.0 + math.sqrt(dot3(c, c))):
            mean += FP[tied[r], 0:3]
            nm += 1
    ln = math.sqrt(dot3(mean, mean))
    if nm < 2 or ln < 1e-6:
        f = tied[best]
        out[0] = max(FP[f, 3], 0.0)
        out[1:4] = FP[f, 0:3]
        if not _witness(V, VA, VB, FI, FP, f, out):
            _touch_witness(ka, pa, posa, Ra, ma, kb, pb, posb, Rb, mb, out)
        return _EPA_OK
    m = mean / ln
    a0, a1, a2 = support(ka, pa, posa, Ra, ma, m[0], m[1], m[2])
    b0, b1, b2 = support(kb, pb, posb, Rb, mb, -m[0], -m[1], -m[2])
    out[0] = max((a0 - b0) * m[0] + (a1 - b1) * m[1] + (a2 - b2) * m[2], 0.0)
    out[1:4] = m
    out[4], out[5], out[6] = a0, a1, a2
    out[7], out[8], out[9] = b0, b1, b2
    _touch_witness(ka, pa, posa, Ra, ma, kb, pb, posb, Rb, mb, out)
    return _EPA_OK


@njit(cache=True, nogil=True)
def _touch_witness(ka: int, pa: np.ndarray, posa: np.ndarray, Ra: np.ndarray, ma: float,
                   kb: int, pb: np.ndarray, posb: np.ndarray, Rb: np.ndarray, mb: float,
                   out: np.ndarray) -> None:
    """Deepest points for a depth and direction out[0:4] not read off an EPA
    face: the closest points of A and B moved by the depth (plus 1e-6 of the
    size) along n, moved back. Left as they are if GJK finds the moved shapes
    overlapping."""
    size = max(math.sqrt(dot3(posb - posa, posb - posa)), out[0], 1e-9)
    t = out[0] + 1e-6 * size
    moved = posb + t * out[1:4]
    W = np.empty((5, 3))
    WA = np.empty((5, 3))
    WB = np.empty((5, 3))
    g = np.empty(10)
    n = gjk(ka, pa, posa, Ra, ma, kb, pb, moved, Rb, mb, W, WA, WB, g)
    if n < 4:       # (even if GJK stalled short of proving them apart)
        out[4:7] = g[1:4]
        out[7:10] = g[4:7] - t * out[1:4]
