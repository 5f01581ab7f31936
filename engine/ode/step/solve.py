"""The exact (dWorldStep) island solve: form the LCP and hand it to Dantzig.

With M the block-diagonal mass matrix, fe the external forces and v the
velocities, the constraint forces λ (force units) satisfy

    A λ = rhs + w,   A = J M⁻¹ Jᵀ + diag(cfm / h),
    rhs = c / h - J (v / h + M⁻¹ fe),

with the box/friction bounds of each row; then v⁺ = v + h M⁻¹ (fe + Jᵀ λ).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from engine.ode.solvers.lcp_dantzig import solve_boxed_lcp


@njit(cache=True, nogil=True)
def _jinvm(J, jb, invmass, invI):
    """J M⁻¹ row by row, (m, 12)."""
    m = J.shape[0]
    out = np.zeros((m, 12))
    for i in range(m):
        for s in range(2):
            b = jb[i, s]
            if b < 0:
                continue
            o = 6 * s
            im = invmass[b]
            for k in range(3):
                out[i, o + k] = J[i, o + k] * im
            for k in range(3):
                acc = 0.0
                for t in range(3):
                    acc += J[i, o + 3 + t] * invI[b, t, k]
                out[i, o + 3 + k] = acc
    return out


@njit(cache=True, nogil=True)
def _assemble_A(J, JinvM, jb):
    """A = J M⁻¹ Jᵀ, (m, m), visiting only row pairs that share a body.

    Rows are grouped by body (each row appears under each of its bodies);
    within a group every pair (i, j ≥ i) gets that body's contribution
    (J M⁻¹)_i · J_j. Cost Σ_bodies (rows on it)² instead of m².
    """
    m = J.shape[0]
    ent_body = np.empty(2 * m, dtype=np.int64)
    ent_row = np.empty(2 * m, dtype=np.int64)
    ent_slot = np.empty(2 * m, dtype=np.int64)
    k = 0
    for i in range(m):
        for s in range(2):
            b = jb[i, s]
            if b >= 0:
                ent_body[k] = b
                ent_row[k] = i
                ent_slot[k] = s
                k += 1
    order = np.argsort(ent_body[:k], kind="mergesort")
    A = np.zeros((m, m))
    g0 = 0
    while g0 < k:
        b = ent_body[order[g0]]
        g1 = g0
        while g1 < k and ent_body[order[g1]] == b:
            g1 += 1
        for a in range(g0, g1):
            i = ent_row[order[a]]
            oi = 6 * ent_slot[order[a]]
            for c in range(g0, g1):
                j = ent_row[order[c]]
                if j < i:
                    continue
                oj = 6 * ent_slot[order[c]]
                acc = 0.0
                for t in range(6):
                    acc += JinvM[i, oi + t] * J[j, oj + t]
                A[i, j] += acc
        g0 = g1
    for i in range(m):
        for j in range(i + 1, m):
            A[j, i] = A[i, j]
    return A


@njit(cache=True, nogil=True)
def exact_solve(rows, jb, nub, ib, bodies, invI, h, lam, cforce) -> None:
    """Solve the island's LCP exactly; write λ (m,) and per-body Jᵀλ (n, 6).

    ``rows`` :class:`Rows` of exactly m rows (the first ``nub`` unbounded),
    ``jb`` (m, 2) their body rows, ``ib`` the island's body rows, ``bodies``
    :class:`Bodies`, ``invI`` (n, 3, 3) world-frame inverse inertia, ``h`` s.
    """
    J = rows.J
    c = rows.c
    cfm = rows.cfm
    lo = rows.lo
    hi = rows.hi
    findex = rows.findex
    invmass = bodies.invmass
    lvel = bodies.lvel
    avel = bodies.avel
    facc = bodies.facc
    tacc = bodies.tacc
    m = J.shape[0]
    rh = 1.0 / h
    JinvM = _jinvm(J, jb, invmass, invI)
    A = _assemble_A(J, JinvM, jb)
    for i in range(m):
        A[i, i] += cfm[i] * rh
    # tmp = v / h + M⁻¹ fe, per body (6,)
    rhs = np.empty(m)
    for i in range(m):
        acc = c[i] * rh
        for s in range(2):
            b = jb[i, s]
            if b < 0:
                continue
            o = 6 * s
            for k in range(3):
                t_lin = facc[b, k] * invmass[b] + lvel[b, k] * rh
                acc -= J[i, o + k] * t_lin
            for k in range(3):
                t_ang = (invI[b, k, 0] * tacc[b, 0] + invI[b, k, 1] * tacc[b, 1]
                         + invI[b, k, 2] * tacc[b, 2]) + avel[b, k] * rh
                acc -= J[i, o + 3 + k] * t_ang
        rhs[i] = acc
    w = np.zeros(m)
    x = np.zeros(m)
    lo2 = lo.copy()
    hi2 = hi.copy()
    fi = findex.astype(np.int32)
    solve_boxed_lcp(m, A, x, rhs, w, nub, lo2, hi2, fi)
    lam[:m] = x
    for b in ib:
        cforce[b, :] = 0.0
    for i in range(m):
        for s in range(2):
            b = jb[i, s]
            if b >= 0:
                for k in range(6):
                    cforce[b, k] += J[i, 6 * s + k] * x[i]
