"""Box-box collider: ODE's dBoxBox.

15-axis separating-axis test, edge axes preferred unless 5% shallower,
reference-face clipping, culling to the requested count. Kernels take plain
arrays (positions (3,), rotations (3, 3), side lengths (3,) in metres) and
return contact rows ``(k, 9)`` float64 (``pos, normal, depth, side1, side2``;
the normal points into g1; depth > 0 when penetrating; sides -1), with ODE
0.16.2's point sets and order. ``box_box_core`` also serves capsule-box and
dBoxBox of the flat API.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from engine.ode.collision.geoms.geom import Geom
from engine.ode.collision.pairs.common import as_f64
from engine.ode.kernels import detmath
from engine.ode.kernels.options import NO_ALLOC


@njit(**NO_ALLOC)
def _clip_rect_quad(h0: float, h1: float, quad: np.ndarray, ret: np.ndarray, q: np.ndarray,
                    r: np.ndarray) -> int:
    """Clip the quadrilateral ``quad`` (4, 2) against the rectangle |x| < h0,
    |y| < h1 (Sutherland-Hodgman, 4 half-planes). Writes up to 8 points into
    ``ret`` (8, 2) and returns how many; stops early once 8 are produced, as
    ODE's intersectRectQuad does. ``q``, ``r`` (8, 2): scratch. Points are
    read from and written to columns 0-1 (wider arrays may be given)."""
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


@njit(**NO_ALLOC)
def _cull_points(n: int, p: np.ndarray, m: int, i0: int, ang: np.ndarray, avail: np.ndarray,
                 iret: np.ndarray) -> None:
    """Indices ``iret[:m]`` of m of the n points p (n, 2) spread evenly in angle
    around their centroid, starting with point i0 (ODE's cullPoints).
    ``ang`` (n,) float, ``avail`` (n,) int64: scratch."""
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
    for i in range(n):
        ang[i] = detmath.atan2(p[i, 1] - cy, p[i, 0] - cx)
    for i in range(n):
        avail[i] = 1
    avail[i0] = 0
    iret[0] = i0
    for j in range(1, m):
        a = j * (2.0 * math.pi / m) + ang[i0]
        if a > math.pi:
            a -= 2.0 * math.pi
        best = 1e9
        bi = i0
        for i in range(n):
            if avail[i] != 0:
                diff = abs(ang[i] - a)
                if diff > math.pi:
                    diff = 2.0 * math.pi - diff
                if diff < best:
                    best = diff
                    bi = i
        avail[bi] = 0
        iret[j] = bi


@njit(**NO_ALLOC)
def box_box_rows(p1: np.ndarray, R1: np.ndarray, side1: np.ndarray, p2: np.ndarray,
                 R2: np.ndarray, side2: np.ndarray, max_contacts: int, ws3: np.ndarray,
                 ws: np.ndarray, iws: np.ndarray, rows: np.ndarray, k0: int,
                 normal: np.ndarray) -> tuple[int, float, int]:
    """ODE's dBoxBox for boxes (centre (3,), rotation (3, 3), full sides (3,)),
    writing its contacts into ``rows`` from row ``k0`` (room for 8 rows).

    Returns ``(k, depth, code)``: rows ``k0 .. k0 + k`` get positions (columns
    0-2), depths (6) and sides -1 (7, 8), their normal columns are left;
    ``normal`` (3,) gets the normal, pointing from box 1 to box 2; code 1-3 /
    4-6 = a face of box 1 / box 2, 7-15 = edge-edge, 0 = no contact (k = 0).
    The separating axis of least penetration is chosen among the 15
    candidates, edge axes winning over faces unless 5% shallower. Scratch,
    so that the kernel allocates nothing: ``ws3`` (``BOX_BOX_WS3``, 3) and
    ``ws`` (16,) float64, ``iws`` (16,) int64 (row and slice views of them
    cost nothing, unlike reshaped ones).
    """
    for k in range(3):
        normal[k] = 0.0
    # small work vectors and matrices: rows of the scratch
    vec = ws3[0:5]
    for r in range(5):
        for k in range(3):
            vec[r, k] = 0.0
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
    Rr = ws3[5:8]
    Q = ws3[8:11]
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
            return 0, 0.0, 0
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
            return 0, 0.0, 0
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
                return 0, 0.0, 0
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
        return 0, 0.0, 0
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
        pa = ws3[51]
        for i in range(3):
            pa[i] = p1[i]
        for j in range(3):
            sg = 1.0 if (normal[0] * R1[0, j] + normal[1] * R1[1, j]
                         + normal[2] * R1[2, j]) > 0 else -1.0
            for i in range(3):
                pa[i] += sg * A[j] * R1[i, j]
        pb = ws3[52]
        for i in range(3):
            pb[i] = p2[i]
        for j in range(3):
            sg = -1.0 if (normal[0] * R2[0, j] + normal[1] * R2[1, j]
                          + normal[2] * R2[2, j]) > 0 else 1.0
            for i in range(3):
                pb[i] += sg * B[j] * R2[i, j]
        ua = ws3[53]
        ub = ws3[54]
        dp = ws3[55]
        for i in range(3):
            ua[i] = R1[i, (code - 7) // 3]
            ub[i] = R2[i, (code - 7) % 3]
        # closest approach of the infinite lines pa + alpha ua, pb + beta ub
        for i in range(3):
            dp[i] = pb[i] - pa[i]
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
            rows[k0, i] = 0.5 * (pa[i] + ua[i] * alpha + pb[i] + ub[i] * beta)
        rows[k0, 6] = depth
        rows[k0, 7] = -1.0
        rows[k0, 8] = -1.0
        return 1, depth, code

    # face case: reference face on box a, incident face on box b
    face = ws3[11:15]      # normal2, nr, anr, center
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
    quad = ws3[15:19]     # (4, 2) in columns 0-1
    quad[0, 0] = c1 - k1 - k3
    quad[0, 1] = c2 - k2 - k4
    quad[1, 0] = c1 - k1 + k3
    quad[1, 1] = c2 - k2 + k4
    quad[2, 0] = c1 + k1 + k3
    quad[2, 1] = c2 + k2 + k4
    quad[3, 0] = c1 + k1 - k3
    quad[3, 1] = c2 + k2 - k4
    ret = ws3[19:27]      # (8, 2) in columns 0-1
    n = _clip_rect_quad(Sa[code1], Sa[code2], quad, ret, ws3[35:43], ws3[43:51])
    if n < 1:
        return 0, depth, 0
    # back from 2D to 3D on the incident face (inverse of the 2x2 map m),
    # keeping the points below the reference face
    point = ws3[27:35]
    dep = ws[0:8]
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
        return 0, depth, 0
    maxc = min(max_contacts, cnum)
    if maxc < 1:
        maxc = 1
    idx = iws[0:8]
    if cnum <= maxc:
        for j in range(cnum):
            idx[j] = j
        k = cnum
    else:
        i1 = 0
        md = dep[0]
        for i in range(1, cnum):
            if dep[i] > md:
                md = dep[i]
                i1 = i
        _cull_points(cnum, ret, maxc, i1, ws[8:16], iws[8:16], idx)
        k = maxc
    for j in range(k):
        for i in range(3):
            rows[k0 + j, i] = point[idx[j], i] + pa[i]
        rows[k0 + j, 6] = dep[idx[j]]
        rows[k0 + j, 7] = -1.0
        rows[k0 + j, 8] = -1.0
    return k, depth, code


#: Rows of the (rows, 3) float64 scratch of :func:`box_box_rows`.
BOX_BOX_WS3 = 56


@njit(cache=True, nogil=True)
def box_box_core(p1: np.ndarray, R1: np.ndarray, side1: np.ndarray, p2: np.ndarray,
                 R2: np.ndarray, side2: np.ndarray, max_contacts: int):
    """ODE's dBoxBox for boxes (centre (3,), rotation (3, 3), full sides (3,)).

    Returns ``(rows (k, 9), normal (3,), depth, code)``: rows hold positions and
    depths only (normal columns 0, sides -1); ``normal``, ``depth`` and
    ``code`` as :func:`box_box_rows` gives them.
    """
    rows = np.zeros((8, 9))
    normal = np.zeros(3)
    k, depth, code = box_box_rows(p1, R1, side1, p2, R2, side2, max_contacts,
                                  np.empty((BOX_BOX_WS3, 3)), np.empty(16),
                                  np.empty(16, dtype=np.int64), rows, 0, normal)
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


def box_box(g1: Geom, g2: Geom, max_contacts: int) -> np.ndarray:
    """Box-box contacts (0..min(8, max_contacts), 9), ODE's dBoxBox."""
    return box_box_kernel(as_f64(g1.pos), as_f64(g1.R), as_f64(g1.lengths),
                          as_f64(g2.pos), as_f64(g2.R), as_f64(g2.lengths), int(max_contacts))
