"""GJK: distance and closest points of two convex shapes (numba).

The simplex loop over the Minkowski difference of the shapes' cores
(spheres as points, capsules as segments; radii added afterwards), its
sub-simplex reduction and the compass polish used when it stalls. See
``gjk`` for the algorithm as a whole.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from engine.ode.collision.pairs.support_shapes import (
    _GJK_ITERS,
    _GJK_REL,
    _TOUCH_REL,
    _minkowski,
    support,
)
from engine.ode.kernels import detmath
from engine.ode.kernels.vec import dot3


# ----------------------------------------------------------------------------- GJK
@njit(cache=True, nogil=True)
def _keep(W: np.ndarray, WA: np.ndarray, WB: np.ndarray, lam: np.ndarray,
          i0: int, i1: int, i2: int, l0: float, l1: float, l2: float) -> int:
    """Reduce the simplex to rows i0, i1, i2 (ascending; -1: unused) with
    weights l0..l2, dropping the rows of weight 0; returns the new size."""
    k = 0
    for j in range(3):
        i = i0 if j == 0 else (i1 if j == 1 else i2)
        w = l0 if j == 0 else (l1 if j == 1 else l2)
        if i < 0 or w <= 0.0:
            continue
        if i != k:                  # i > k: row k is no longer needed
            for c in range(3):
                W[k, c] = W[i, c]
                WA[k, c] = WA[i, c]
                WB[k, c] = WB[i, c]
        lam[k] = w
        k += 1
    if k == 0:      # (no weight > 0 cannot happen for a valid region) keep i0
        for c in range(3):
            W[0, c] = W[i0, c]
            WA[0, c] = WA[i0, c]
            WB[0, c] = WB[i0, c]
        lam[0] = 1.0
        k = 1
    return k


@njit(cache=True, nogil=True)
def _closest_triangle(W: np.ndarray, i: int, j: int, k: int) -> tuple:
    """Barycentric weights (la, lb, lc) of the point of triangle (W[i], W[j],
    W[k]) closest to the origin (Voronoi-region tests, Ericson 5.1.5)."""
    a = W[i]
    b = W[j]
    c = W[k]
    ab = b - a
    ac = c - a
    d1 = -(ab[0] * a[0] + ab[1] * a[1] + ab[2] * a[2])
    d2 = -(ac[0] * a[0] + ac[1] * a[1] + ac[2] * a[2])
    if d1 <= 0.0 and d2 <= 0.0:
        return 1.0, 0.0, 0.0
    d3 = -(ab[0] * b[0] + ab[1] * b[1] + ab[2] * b[2])
    d4 = -(ac[0] * b[0] + ac[1] * b[1] + ac[2] * b[2])
    if d3 >= 0.0 and d4 <= d3:
        return 0.0, 1.0, 0.0
    vc = d1 * d4 - d3 * d2
    if vc <= 0.0 and d1 >= 0.0 and d3 <= 0.0:
        t = d1 / (d1 - d3)
        return 1.0 - t, t, 0.0
    d5 = -(ab[0] * c[0] + ab[1] * c[1] + ab[2] * c[2])
    d6 = -(ac[0] * c[0] + ac[1] * c[1] + ac[2] * c[2])
    if d6 >= 0.0 and d5 <= d6:
        return 0.0, 0.0, 1.0
    vb = d5 * d2 - d1 * d6
    if vb <= 0.0 and d2 >= 0.0 and d6 <= 0.0:
        t = d2 / (d2 - d6)
        return 1.0 - t, 0.0, t
    va = d3 * d6 - d5 * d4
    if va <= 0.0 and (d4 - d3) >= 0.0 and (d5 - d6) >= 0.0:
        t = (d4 - d3) / ((d4 - d3) + (d5 - d6))
        return 0.0, 1.0 - t, t
    den = va + vb + vc
    if den <= 0.0:       # degenerate (collinear) triangle: its longest edge
        return _closest_degenerate(a, b, c)
    v = vb / den
    w = vc / den
    return 1.0 - v - w, v, w


@njit(cache=True, nogil=True)
def _closest_degenerate(a: np.ndarray, b: np.ndarray, c: np.ndarray) -> tuple:
    """Weights of the closest point of a collinear triangle: its best edge."""
    best = np.inf
    res = (1.0, 0.0, 0.0)
    for e in range(3):
        p = a if e != 1 else b
        q = b if e == 0 else c
        pq = q - p
        ll = pq[0] * pq[0] + pq[1] * pq[1] + pq[2] * pq[2]
        t = 0.0
        if ll > 0.0:
            t = min(1.0, max(0.0, -(p[0] * pq[0] + p[1] * pq[1] + p[2] * pq[2]) / ll))
        x = p + t * pq
        dd = x[0] * x[0] + x[1] * x[1] + x[2] * x[2]
        if dd < best:
            best = dd
            if e == 0:
                res = (1.0 - t, t, 0.0)
            elif e == 1:
                res = (0.0, 1.0 - t, t)
            else:
                res = (1.0 - t, 0.0, t)
    return res


@njit(cache=True, nogil=True)
def _reduce(W: np.ndarray, WA: np.ndarray, WB: np.ndarray, lam: np.ndarray, n: int) -> int:
    """Closest point of the simplex W[:n] to the origin: keep the sub-simplex
    that holds it, with its barycentric weights in lam; returns its size
    (4 means the origin is inside the tetrahedron)."""
    if n == 1:
        lam[0] = 1.0
        return 1
    if n == 2:
        ab = W[1] - W[0]
        ll = ab[0] * ab[0] + ab[1] * ab[1] + ab[2] * ab[2]
        t = 0.0
        if ll > 0.0:
            t = -(W[0, 0] * ab[0] + W[0, 1] * ab[1] + W[0, 2] * ab[2]) / ll
        t = min(1.0, max(0.0, t))
        return _keep(W, WA, WB, lam, 0, 1, -1, 1.0 - t, t, 0.0)
    if n == 3:
        la, lb, lc = _closest_triangle(W, 0, 1, 2)
        return _keep(W, WA, WB, lam, 0, 1, 2, la, lb, lc)
    # tetrahedron: the faces whose plane separates the origin from the 4th
    # vertex (all of them when it is flat: the signs are then noise)
    scale = 0.0
    for i in range(4):
        scale = max(scale, dot3(W[i], W[i]))
    scale = math.sqrt(scale)
    best = np.inf
    bf = -1
    bl = (0.0, 0.0, 0.0)
    inside = True
    for f in range(4):
        # the other three, ascending (for _keep)
        i = 1 if f == 0 else 0
        j = 2 if f <= 1 else 1
        k = 2 if f == 3 else 3
        nrm = np.cross(W[j] - W[i], W[k] - W[i])
        sp = -(nrm[0] * W[i, 0] + nrm[1] * W[i, 1] + nrm[2] * W[i, 2])
        sd = (nrm[0] * (W[f, 0] - W[i, 0]) + nrm[1] * (W[f, 1] - W[i, 1])
              + nrm[2] * (W[f, 2] - W[i, 2]))
        if sp * sd > 0.0 and abs(sd) > 1e-9 * scale * math.sqrt(dot3(nrm, nrm)):
            continue
        inside = False
        la, lb, lc = _closest_triangle(W, i, j, k)
        x = la * W[i] + lb * W[j] + lc * W[k]
        dd = x[0] * x[0] + x[1] * x[1] + x[2] * x[2]
        if dd < best:
            best = dd
            bf = f
            bl = (la, lb, lc)
    if inside:
        return 4
    i = 1 if bf == 0 else 0
    j = 2 if bf <= 1 else 1
    k = 2 if bf == 3 else 3
    return _keep(W, WA, WB, lam, i, j, k, bl[0], bl[1], bl[2])


@njit(cache=True, nogil=True)
def _closest_point(W: np.ndarray, lam: np.ndarray, n: int) -> tuple:
    """The point sum lam_i W_i of the reduced simplex, computed for a triangle
    as the projection of the origin on its plane (the weights lose digits on
    thin triangles, the normal does not: the direction of v stays exact when
    the shapes nearly touch)."""
    if n == 3:
        nrm = np.cross(W[1] - W[0], W[2] - W[0])
        ln = math.sqrt(dot3(nrm, nrm))
        if ln > 0.0:
            t = dot3(W[0], nrm) / (ln * ln)
            return t * nrm[0], t * nrm[1], t * nrm[2]
    v0 = v1 = v2 = 0.0
    for i in range(n):
        v0 += lam[i] * W[i, 0]
        v1 += lam[i] * W[i, 1]
        v2 += lam[i] * W[i, 2]
    return v0, v1, v2


@njit(cache=True, nogil=True)
def gjk(ka: int, pa: np.ndarray, posa: np.ndarray, Ra: np.ndarray, ma: float,
        kb: int, pb: np.ndarray, posb: np.ndarray, Rb: np.ndarray, mb: float,
        W: np.ndarray, WA: np.ndarray, WB: np.ndarray, out: np.ndarray) -> int:
    """GJK between A and B (cores inflated by ma, mb).

    W, WA, WB (5, 3) receive the final simplex (points of D, A, B) in their
    first rows. Returns the simplex size; ``out`` (10,) = distance, closest
    point on A (3,), on B (3,), unit direction A -> B (3,). A distance of 0
    (within 1e-12 of the size) means the shapes touch or overlap (the simplex
    then holds the origin: input for :func:`epa`)."""
    lam = np.zeros(4)
    v0 = posa[0] - posb[0]
    v1 = posa[1] - posb[1]
    v2 = posa[2] - posb[2]
    if v0 * v0 + v1 * v1 + v2 * v2 == 0.0:
        v0 = 1.0
    n = 0
    prev = np.inf
    size2 = 0.0
    for _ in range(_GJK_ITERS):
        _minkowski(ka, pa, posa, Ra, ma, kb, pb, posb, Rb, mb, -v0, -v1, -v2, W, WA, WB, n)
        w = W[n]
        size2 = max(size2, w[0] * w[0] + w[1] * w[1] + w[2] * w[2])
        if n > 0:
            vv = v0 * v0 + v1 * v1 + v2 * v2
            converged = vv - (v0 * w[0] + v1 * w[1] + v2 * w[2]) <= _GJK_REL * vv
            for i in range(n):
                e = W[i] - w
                if e[0] * e[0] + e[1] * e[1] + e[2] * e[2] <= 1e-30 * size2:
                    converged = True      # w is already a vertex: v is the answer
            if converged:
                break
        n = _reduce(W, WA, WB, lam, n + 1)
        if n == 4:
            break
        v0, v1, v2 = _closest_point(W, lam, n)
        vv = v0 * v0 + v1 * v1 + v2 * v2
        if vv <= 1e-24 * size2 or vv >= prev:
            break
        prev = vv
    out[:] = 0.0
    if n == 4:
        return 4
    for i in range(n):
        for j in range(3):
            out[1 + j] += lam[i] * WA[i, j]
            out[4 + j] += lam[i] * WB[i, j]
    d = math.sqrt(v0 * v0 + v1 * v1 + v2 * v2)
    if d <= _TOUCH_REL * math.sqrt(size2):
        out[0] = 0.0
        return n
    # the distance is at least the gap between the supporting planes normal
    # to v, equal to |v| on convergence; GJK can stall short of it on curved
    # shapes (a cylinder's rims). That lower bound is the answer, and <= 0
    # means not apart
    out[7] = -v0 / d
    out[8] = -v1 / d
    out[9] = -v2 / d
    out[0] = max(_gap(ka, pa, posa, Ra, ma, kb, pb, posb, Rb, mb, out[7:10]), 0.0)
    return n


@njit(cache=True, nogil=True)
def _gap(ka: int, pa: np.ndarray, posa: np.ndarray, Ra: np.ndarray, ma: float,
         kb: int, pb: np.ndarray, posb: np.ndarray, Rb: np.ndarray, mb: float,
         n: np.ndarray) -> float:
    """min over B of x.n - max over A of x.n for the unit n: the gap between
    the shapes' projections on n (negative: they overlap along n)."""
    a0, a1, a2 = support(ka, pa, posa, Ra, ma, n[0], n[1], n[2])
    b0, b1, b2 = support(kb, pb, posb, Rb, mb, -n[0], -n[1], -n[2])
    return (b0 - a0) * n[0] + (b1 - a1) * n[1] + (b2 - a2) * n[2]


@njit(cache=True, nogil=True)
def _polish(ka: int, pa: np.ndarray, posa: np.ndarray, Ra: np.ndarray, ma: float,
            kb: int, pb: np.ndarray, posb: np.ndarray, Rb: np.ndarray, mb: float,
            n: np.ndarray, gap: float) -> float:
    """Compass search on the unit sphere from n (updated in place) for the
    largest gap (minus the least overlap); returns it. Eight tangent steps
    turned by a golden angle every round, the step halved when none gains,
    from 1e-2 rad down to 1e-10 rad."""
    step = 1e-2
    turn = 0.0
    m = np.empty(3)
    for _ in range(600):
        if step < 1e-10:
            break
        k = 0
        if abs(n[1]) < abs(n[k]):
            k = 1
        if abs(n[2]) < abs(n[k]):
            k = 2
        ax = np.zeros(3)
        ax[k] = 1.0
        t1 = np.cross(n, ax)
        t1 /= math.sqrt(dot3(t1, t1))
        t2 = np.cross(n, t1)
        gained = False
        for j in range(8):
            th = turn + j * math.pi / 4.0
            m[:] = n + step * (detmath.cos(th) * t1 + detmath.sin(th) * t2)
            m /= math.sqrt(dot3(m, m))
            gm = _gap(ka, pa, posa, Ra, ma, kb, pb, posb, Rb, mb, m)
            if gm > gap:
                gap = gm
                n[:] = m
                gained = True
        turn += 2.399963
        if not gained:
            step *= 0.5
    return gap
