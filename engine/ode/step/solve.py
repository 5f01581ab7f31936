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

from engine.ode.kernels.bundles import ExactScratch
from engine.ode.solvers.lcp_dantzig import solve_boxed_lcp_into


@njit(cache=True, nogil=True)
def exact_scratch(cap: int) -> ExactScratch:
    """:class:`ExactScratch` for islands of up to ``cap`` rows."""
    return ExactScratch(np.empty(cap * cap), np.empty(cap * cap), np.empty(cap * 12),
                        np.empty((5, cap)), np.empty((7, cap)),
                        np.empty((3, cap), dtype=np.int64),
                        np.empty((3, 2 * cap), dtype=np.int64),
                        np.empty(cap, dtype=np.int32), np.empty(cap, dtype=np.bool_))


@njit(cache=True, nogil=True)
def _jinvm(J, jb, invmass, invI, out) -> None:
    """J M⁻¹ row by row into ``out`` (m, 12)."""
    m = J.shape[0]
    for i in range(m):
        for k in range(12):
            out[i, k] = 0.0
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


@njit(cache=True, nogil=True)
def _assemble_A(J, JinvM, jb, A, entries) -> None:
    """A = J M⁻¹ Jᵀ into ``A`` (m, m), visiting only row pairs that share a body.

    Rows are grouped by body (each row appears under each of its bodies);
    within a group every pair (i, j ≥ i) gets that body's contribution
    (J M⁻¹)_i · J_j. Cost Σ_bodies (rows on it)² instead of m².
    ``entries`` (3, >= 2 m) int64 scratch.
    """
    m = J.shape[0]
    ent_body = entries[0]
    ent_row = entries[1]
    ent_slot = entries[2]
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
    for i in range(m):
        for j in range(m):
            A[i, j] = 0.0
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


@njit(cache=True, nogil=True)
def exact_solve(rows, jb, nub, ib, bodies, invI, h, lam, cforce, scratch) -> None:
    """Solve the island's LCP exactly; write λ (m,) and per-body Jᵀλ (n, 6).

    ``rows`` :class:`Rows` of exactly m rows (the first ``nub`` unbounded),
    ``jb`` (m, 2) their body rows, ``ib`` the island's body rows, ``bodies``
    :class:`Bodies`, ``invI`` (n, 3, 3) world-frame inverse inertia, ``h`` s,
    ``scratch`` an :class:`ExactScratch` for at least m rows (its arrays are
    the island's matrix, factor and vectors: nothing is allocated per island
    but the sort of the rows by body).
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
    JinvM = scratch.JinvM[:m * 12].reshape((m, 12))
    _jinvm(J, jb, invmass, invI, JinvM)
    A = scratch.A[:m * m].reshape((m, m))
    _assemble_A(J, JinvM, jb, A, scratch.entries)
    for i in range(m):
        A[i, i] += cfm[i] * rh
    # tmp = v / h + M⁻¹ fe, per body (6,)
    vectors = scratch.vectors
    rhs = vectors[0, :m]
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
    w = vectors[1, :m]
    x = vectors[2, :m]
    lo2 = vectors[3, :m]
    hi2 = vectors[4, :m]
    fi = scratch.findex[:m]
    for i in range(m):    # (x and w are zeroed by the solver)
        lo2[i] = lo[i]
        hi2[i] = hi[i]
        fi[i] = findex[i]
    solve_boxed_lcp_into(m, A, x, rhs, w, nub, lo2, hi2, fi, scratch.L[:m * m].reshape((m, m)),
                         scratch.lcp_ints, scratch.lcp_vectors, scratch.upper)
    lam[:m] = x
    for b in ib:
        cforce[b, :] = 0.0
    for i in range(m):
        for s in range(2):
            b = jb[i, s]
            if b >= 0:
                for k in range(6):
                    cforce[b, k] += J[i, 6 * s + k] * x[i]
