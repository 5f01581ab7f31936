"""Exact boxed LCP solver of ODE's dWorldStep (the pivoting "Dantzig" method).

Problem.  Given A (n x n, symmetric, positive definite once the CFM is on the
diagonal), b, bounds lo <= 0 <= hi (possibly infinite), find x and w with
``A x = b + w`` where every pair (x_i, w_i) lies on one of three segments:

    x_i = lo_i and w_i >= 0,   x_i = hi_i and w_i <= 0,   lo_i < x_i < hi_i and w_i = 0.

The first ``nub`` rows are unbounded.  A row with ``findex[i] >= 0`` is a
friction row: its bounds become ``+-|hi_i * x[findex[i]]|``, computed from the
normal force it points to once all the other rows are solved.

Method.  The indexes already processed are split into a clamped set C
(w = 0, x free between its bounds) and a set N (x pinned at lo or hi).  Row i
is taken next; if (x_i = 0, w_i) already lies on a segment it joins a set
directly.  Otherwise x_i is *driven* (increased if w_i < 0, decreased if
w_i > 0) while x_C moves to keep w_C = 0; the step stops at the first event:
w_i reaches 0 (i joins C), x_i reaches a bound (i joins N), some w_N changes
sign (that index moves N -> C) or some x_C reaches a bound (C -> N).  The last
two events continue the drive with the new sets.

Data layout.  A, x, b, w, lo, hi, findex are permuted in place so that C
occupies positions [0, nC), N positions [nC, nC + nN), the driving row is at
position i = nC + nN and the rows not yet processed follow (their x is 0).
``perm[k]`` is the original index of position k.  A[C, C] is factored as
L D L' in an order of its own: ``cidx[j]`` is the position of the j-th
factored index.  Removing an index from C then swaps only two positions of
the problem (see `_leave_clamped`).  Only the lower triangle of A is read.

Everything here (order of the rows, the pivot choices, the tie-breaking of the
step length, the degenerate-case exits) follows ODE 0.16 so that the same
active sets come out; the floating-point summation order differs from ODE's
hand-unrolled kernels, so results agree to rounding, not bit for bit.
"""

from __future__ import annotations

import warnings

import numpy as np
from numba import njit

from engine.ode.kernels.options import NO_ALLOC
from engine.ode.solvers.lcp_ldlt import (
    append_row,
    dot_row,
    factor_leading_block,
    remove_row,
    row_terms,
    solve_factored,
    solve_unit_lower_t,
)

#: Pivots allowed per call: PIVOTS_PER_ROW * n + PIVOTS_EXTRA.  ODE has no
#: bound; typical problems need about 1-2 pivots per row.
PIVOTS_PER_ROW = 32
PIVOTS_EXTRA = 64

# Events ending a step of the drive (which index moves where).
_CMD_I_TO_C = 1
_CMD_I_TO_LO = 2
_CMD_I_TO_HI = 3
_CMD_N_TO_C = 4
_CMD_C_TO_LO = 5
_CMD_C_TO_HI = 6


# ---------------------------------------------------------------------------
# Permutation of the problem
# ---------------------------------------------------------------------------


# Exchanging positions i1 < i2 of a symmetric matrix stored in its lower
# triangle: the entries of row/column i1 and row/column i2 trade places.
# Below i1 both rows are stored as rows; between i1 and i2 the entries of i1
# live in column i1 and those of i2 in row i2; beyond i2 both are columns.
# The diagonal entries swap; the coupling entry A[i2, i1] stays.
@njit(**NO_ALLOC)
def _swap_lower(A: np.ndarray, n: int, i1: int, i2: int) -> None:
    """Swap rows and columns i1 < i2 of the lower-triangle matrix A (float64[n, n])."""
    for k in range(i1):
        t = A[i1, k]
        A[i1, k] = A[i2, k]
        A[i2, k] = t
    for k in range(i1 + 1, i2):
        t = A[k, i1]
        A[k, i1] = A[i2, k]
        A[i2, k] = t
    t = A[i1, i1]
    A[i1, i1] = A[i2, i2]
    A[i2, i2] = t
    for k in range(i2 + 1, n):
        t = A[k, i1]
        A[k, i1] = A[k, i2]
        A[k, i2] = t


@njit(**NO_ALLOC)
def _swap_entries(v: np.ndarray, i1: int, i2: int) -> None:
    """Exchange ``v[i1]`` and ``v[i2]`` (any 1-d array)."""
    t = v[i1]
    v[i1] = v[i2]
    v[i2] = t


# The per-row arrays travel together as the tuple
#     prob = (x, b, w, lo, hi, findex, perm, upper)
# (float64[n] x5, int[n] x2, bool[n]); `upper[k]` tells, for k in N, whether
# x_k is pinned at hi_k (True) or at lo_k (False).
@njit(**NO_ALLOC)
def _swap_problem(A: np.ndarray, n: int, i1: int, i2: int, prob: tuple) -> None:
    """Exchange problem positions i1 <= i2 in A (float64[n, n]) and in ``prob``."""
    if i1 == i2:
        return
    x, b, w, lo, hi, findex, perm, upper = prob
    _swap_lower(A, n, i1, i2)
    _swap_entries(x, i1, i2)
    _swap_entries(b, i1, i2)
    _swap_entries(w, i1, i2)
    _swap_entries(lo, i1, i2)
    _swap_entries(hi, i1, i2)
    _swap_entries(findex, i1, i2)
    _swap_entries(perm, i1, i2)
    _swap_entries(upper, i1, i2)


@njit(**NO_ALLOC)
def _unpermute(perm: np.ndarray, n: int, v: np.ndarray, tmp: np.ndarray) -> None:
    """Put ``v`` (float64[n] or int[n]) back in original order: v_orig[perm[k]] = v[k]."""
    for k in range(n):
        tmp[perm[k]] = v[k]
    for k in range(n):
        v[k] = tmp[k]


# ---------------------------------------------------------------------------
# The direction of a drive and the resulting step
# ---------------------------------------------------------------------------


# Moving x_i by sgn (sgn = +1 or -1) while keeping w_C = 0 needs
#     A_CC dx_C + sgn A_Ci = 0   =>   dx_C = -sgn A_CC^-1 A_Ci.
# With A_CC = L D L' (in factor order, a = A[cidx, i]):
#     q = L^-1 a ("dell"),  l = D^-1 q ("ell"),  dx = -sgn L'^-1 l.
# dell and ell are exactly the terms `append_row` needs if i joins C, so they
# are kept.  `tmp` receives L'^-1 l so that ell survives.
@njit(**NO_ALLOC)
def _direction(
    A: np.ndarray,
    i: int,
    nc: int,
    cidx: np.ndarray,
    fact: tuple,
    dx: np.ndarray,
    sgn: float,
    terms_only: bool,
) -> None:
    """Set ``dx[:nc]`` (by position) for driving row i; with terms_only just dell, ell."""
    L, lstart, diag, dinv, dell, ell, tmp = fact
    if nc == 0:
        return
    for j in range(nc):
        dell[j] = A[i, cidx[j]]
    row_terms(L, lstart, dinv, nc, dell, ell)
    if terms_only:
        return
    for j in range(nc):
        tmp[j] = ell[j]
    solve_unit_lower_t(L, lstart, nc, tmp)
    for j in range(nc):
        dx[cidx[j]] = -sgn * tmp[j]


# The change of w per unit step: dw = A dx with dx_i = sgn, needed on N and
# on i itself (w_C stays 0 by construction; rows after i are ignored).
@njit(**NO_ALLOC)
def _response(
    A: np.ndarray, i: int, nc: int, nn: int, dx: np.ndarray, dw: np.ndarray, sgn: float
) -> None:
    """Set ``dw[nc:nc+nn]`` and ``dw[i]`` (float64[n]) from ``dx[:nc]``."""
    for k in range(nc, nc + nn):
        dw[k] = dot_row(A, k, dx, 0, nc) + sgn * A[i, k]
    dw[i] = dot_row(A, i, dx, 0, nc) + sgn * A[i, i]


# Longest step s >= 0 along (dx, dw) before an event; the first candidate in
# this order wins ties (strict comparisons), as in ODE:
#   1. w_i reaches 0: s = -w_i / dw_i.  If dw_i = 0 ODE takes an infinite step
#      with the sign of -w_i (so a negative drive fails); kept as is.
#   2/3. x_i reaches the bound it is heading to: s = hi_i - x_i or x_i - lo_i.
#   4. a w_k, k in N, would leave its sign (w >= 0 at lo, w <= 0 at hi):
#      s = -w_k / dw_k.  Rows with lo = hi = 0 are never moved.
#   5/6. an x_k, k in C (bounded ones, positions >= nub), reaches lo_k / hi_k.
@njit(**NO_ALLOC)
def _step_length(
    i: int,
    nub: int,
    nc: int,
    nn: int,
    positive: bool,
    x: np.ndarray,
    w: np.ndarray,
    lo: np.ndarray,
    hi: np.ndarray,
    upper: np.ndarray,
    dx: np.ndarray,
    dw: np.ndarray,
) -> tuple[float, int, int]:
    """Return (s, event, index of the row that switches set for events 4-6)."""
    if dw[i] != 0.0:
        s = -w[i] / dw[i]
    elif w[i] != 0.0:
        s = np.inf if w[i] < 0.0 else -np.inf
    else:
        s = 0.0
    cmd = _CMD_I_TO_C
    si = 0
    if positive:
        if hi[i] < np.inf and hi[i] - x[i] < s:
            s = hi[i] - x[i]
            cmd = _CMD_I_TO_HI
    elif lo[i] > -np.inf and x[i] - lo[i] < s:
        s = x[i] - lo[i]
        cmd = _CMD_I_TO_LO
    for k in range(nc, nc + nn):
        if (dw[k] > 0.0) if upper[k] else (dw[k] < 0.0):
            if lo[k] == 0.0 and hi[k] == 0.0:
                continue
            s2 = -w[k] / dw[k]
            if s2 < s:
                s = s2
                cmd = _CMD_N_TO_C
                si = k
    for k in range(nub, nc):
        if dx[k] < 0.0 and lo[k] > -np.inf:
            s2 = (lo[k] - x[k]) / dx[k]
            if s2 < s:
                s = s2
                cmd = _CMD_C_TO_LO
                si = k
        if dx[k] > 0.0 and hi[k] < np.inf:
            s2 = (hi[k] - x[k]) / dx[k]
            if s2 < s:
                s = s2
                cmd = _CMD_C_TO_HI
                si = k
    return s, cmd, si


# ---------------------------------------------------------------------------
# Moving indexes between the sets
# ---------------------------------------------------------------------------
# The factorization tuple is
#     fact = (L, lstart, diag, dinv, dell, ell, tmp)
# with L float64[n, n], lstart int64[n] and the others float64[n] (see
# lcp_ldlt; dell, ell and tmp are scratch vectors).


# Row k (the driving row, or a member of N) joins C.  Its factor row is
# appended last (needs dell, ell for row k; `fresh_terms` computes them), then
# position k trades places with position nc, the first of N, so that C becomes
# [0, nc + 1) and N stays contiguous right after it.
@njit(**NO_ALLOC)
def _join_clamped(
    A: np.ndarray, n: int, k: int, nc: int, cidx: np.ndarray, prob: tuple, fact: tuple,
    fresh_terms: bool,
) -> None:
    """Add position k (>= nc) to C, which grows to nc + 1 members."""
    L, lstart, diag, dinv, dell, ell, tmp = fact
    if fresh_terms:
        for j in range(nc):
            dell[j] = A[k, cidx[j]]
        row_terms(L, lstart, dinv, nc, dell, ell)
    append_row(L, lstart, diag, dinv, nc, dell, ell, A[k, k])
    _swap_problem(A, n, nc, k, prob)
    cidx[nc] = nc


# Position k (< nc) leaves C for N.  Its factor row j (cidx[j] = k) is
# deleted, then k trades places with position nc - 1, the last of C, which
# becomes the first of N.  The factored index that lived at position nc - 1
# now lives at k, so its cidx entry is relabelled.
@njit(**NO_ALLOC)
def _leave_clamped(
    A: np.ndarray, n: int, k: int, nc: int, cidx: np.ndarray, prob: tuple, fact: tuple,
    scratch: np.ndarray,
) -> None:
    """Remove position k from C, which shrinks to nc - 1 members.

    ``scratch``: float64[n] (with ``fact``'s dell and ell, free at this point).
    """
    L, lstart, diag, dinv, dell, ell, tmp = fact
    j = 0
    while cidx[j] != k:
        j += 1
    remove_row(L, lstart, diag, dinv, nc, j, dell, scratch)
    for t in range(j, nc - 1):
        cidx[t] = cidx[t + 1]
    last = nc - 1
    if k != last:
        for t in range(nc - 1):
            if cidx[t] == last:
                cidx[t] = k
                break
        _swap_problem(A, n, k, last, prob)


# ---------------------------------------------------------------------------
# The drive of one row
# ---------------------------------------------------------------------------


# Push x_i towards the valid region (up if w_i <= 0, down otherwise) until
# (x_i, w_i) lands on a segment, switching other indexes between C and N on
# the way.  Each pass: direction, response, step length, step, switch.
# Returns (ok, nc, nn, pivots left); ok is False when the step length is not
# positive (ODE's "LCP internal error, s <= 0"), infinite, or the pivot budget
# is spent: the caller then stops with the solution found so far.
@njit(**NO_ALLOC)
def _drive(
    A: np.ndarray, n: int, i: int, nub: int, nc: int, nn: int, cidx: np.ndarray,
    prob: tuple, fact: tuple, dx: np.ndarray, dw: np.ndarray, budget: int,
) -> tuple[bool, int, int, int]:
    """Drive row i (= nc + nn) into its set; see the comment above."""
    x, b, w, lo, hi, findex, perm, upper = prob
    while True:
        if budget <= 0:
            return False, nc, nn, budget
        budget -= 1
        positive = w[i] <= 0.0
        sgn = 1.0 if positive else -1.0
        _direction(A, i, nc, cidx, fact, dx, sgn, False)
        _response(A, i, nc, nn, dx, dw, sgn)
        s, cmd, si = _step_length(i, nub, nc, nn, positive, x, w, lo, hi, upper, dx, dw)
        if s <= 0.0 or s == np.inf:
            return False, nc, nn, budget
        for k in range(nc):
            x[k] += s * dx[k]
        x[i] += sgn * s
        for k in range(nc, nc + nn):
            w[k] += s * dw[k]
        w[i] += s * dw[i]
        if cmd == _CMD_I_TO_C:
            w[i] = 0.0
            _join_clamped(A, n, i, nc, cidx, prob, fact, False)
            return True, nc + 1, nn, budget
        if cmd == _CMD_I_TO_LO or cmd == _CMD_I_TO_HI:
            x[i] = lo[i] if cmd == _CMD_I_TO_LO else hi[i]
            upper[i] = cmd == _CMD_I_TO_HI
            return True, nc, nn + 1, budget
        if cmd == _CMD_N_TO_C:
            w[si] = 0.0
            _join_clamped(A, n, si, nc, cidx, prob, fact, True)
            nc += 1
            nn -= 1
        else:
            x[si] = lo[si] if cmd == _CMD_C_TO_LO else hi[si]
            upper[si] = cmd == _CMD_C_TO_HI
            _leave_clamped(A, n, si, nc, cidx, prob, fact, dw)
            nc -= 1
            nn += 1


# ---------------------------------------------------------------------------
# Set-up and main loop
# ---------------------------------------------------------------------------


# Rows past `nub` that are unbounded anyway (lo = -inf, hi = +inf, no
# findex) are moved up to join the leading block, which is solved by one
# factorization.  Friction rows keep their place: their bounds change later.
@njit(**NO_ALLOC)
def _gather_unbounded(A: np.ndarray, n: int, nub: int, prob: tuple) -> int:
    """Return the enlarged nub after moving the unbounded rows to the front."""
    x, b, w, lo, hi, findex, perm, upper = prob
    for k in range(nub, n):
        if findex[k] < 0 and lo[k] == -np.inf and hi[k] == np.inf:
            _swap_problem(A, n, nub, k, prob)
            nub += 1
    return nub


# Friction rows are moved to the end (scanning backwards and swapping each
# into the last free slot, ODE's order) so that every normal force they
# depend on is known when the first of them is reached.
@njit(**NO_ALLOC)
def _friction_rows_last(A: np.ndarray, n: int, nub: int, prob: tuple) -> None:
    """Permute positions >= nub so that the rows with findex >= 0 come last."""
    findex = prob[5]
    at_end = 0
    for k in range(n - 1, nub - 1, -1):
        if findex[k] >= 0:
            _swap_problem(A, n, k, n - 1 - at_end, prob)
            at_end += 1


# Bounds of the friction rows from the normal forces solved so far:
# hi = |mu * x_normal|, lo = -hi, where mu is the row's original hi.  A zero
# normal force gives lo = hi = 0 (taking 0 * inf as 0).
@njit(**NO_ALLOC)
def _set_friction_bounds(n: int, first: int, prob: tuple, tmp: np.ndarray) -> None:
    """Set lo/hi of positions >= first from x in original order (tmp: float64[n])."""
    x, b, w, lo, hi, findex, perm, upper = prob
    for k in range(n):
        tmp[perm[k]] = x[k]
    for k in range(first, n):
        f = findex[k]
        if f < 0:
            continue
        normal = tmp[f]
        if normal == 0.0:
            lo[k] = 0.0
            hi[k] = 0.0
        else:
            hi[k] = abs(hi[k] * normal)
            lo[k] = -hi[k]


@njit(**NO_ALLOC)
def _pivot_rows(
    A: np.ndarray, n: int, nub: int, cidx: np.ndarray, prob: tuple, fact: tuple,
    dx: np.ndarray, dw: np.ndarray,
) -> bool:
    """Process rows nub..n-1 in turn (C = [0, nub) on entry); False on failure."""
    x, b, w, lo, hi, findex, perm, upper = prob
    tmp = fact[6]
    nc = nub
    nn = 0
    budget = PIVOTS_PER_ROW * n + PIVOTS_EXTRA
    friction_ready = False
    for i in range(nub, n):
        if not friction_ready and findex[i] >= 0:
            _set_friction_bounds(n, i, prob, tmp)
            friction_ready = True
        # x is zero beyond i, so w_i = A[i, C u N] x - b_i.
        w[i] = dot_row(A, i, x, 0, i) - b[i]
        if lo[i] == 0.0 and w[i] >= 0.0:
            upper[i] = False
            nn += 1
        elif hi[i] == 0.0 and w[i] <= 0.0:
            upper[i] = True
            nn += 1
        elif w[i] == 0.0:
            # Already on the C segment (lo < 0 < hi here).
            _direction(A, i, nc, cidx, fact, dx, 1.0, True)
            _join_clamped(A, n, i, nc, cidx, prob, fact, False)
            nc += 1
        else:
            ok, nc, nn, budget = _drive(A, n, i, nub, nc, nn, cidx, prob, fact, dx, dw, budget)
            if not ok:
                # As ODE: keep what is solved, zero the rest.
                for k in range(i, n):
                    x[k] = 0.0
                    w[k] = 0.0
                return False
    return True


@njit(cache=True, nogil=True)
def solve_boxed_lcp(
    n: int,
    A: np.ndarray,
    x: np.ndarray,
    b: np.ndarray,
    w: np.ndarray,
    nub: int,
    lo: np.ndarray,
    hi: np.ndarray,
    findex: np.ndarray,
) -> bool:
    """Solve the boxed LCP ``A x = b + w`` with bounds lo, hi and friction index.

    Arguments (n rows):
        A: float64[n, n], symmetric; only the lower triangle is read.  Left
            permuted (overwritten) on return.
        x, w: float64[n], outputs (any input content is ignored).
        b: float64[n], right-hand side; restored on return.
        nub: the first nub rows are unbounded (their lo/hi/findex are ignored).
        lo, hi: float64[n], lo <= 0 <= hi, may be infinite.  On return they
            hold the bounds actually used (friction rows: +-|hi * x_normal|).
        findex: int32[n], -1 or the index of the normal row whose force
            bounds this (friction) row; restored on return.

    Returns True on success; False when the pivoting met a degenerate step
    (ODE's "LCP internal error, s <= 0") or ran out of pivots: x, w then hold
    ODE's fallback (rows not yet processed are zero).
    """
    if n <= 0:
        return True
    return solve_boxed_lcp_into(n, A, x, b, w, nub, lo, hi, findex, np.empty((n, n)),
                                np.empty((3, n), dtype=np.int64), np.empty((7, n)),
                                np.empty(n, dtype=np.bool_))


@njit(**NO_ALLOC)
def solve_boxed_lcp_into(
    n: int,
    A: np.ndarray,
    x: np.ndarray,
    b: np.ndarray,
    w: np.ndarray,
    nub: int,
    lo: np.ndarray,
    hi: np.ndarray,
    findex: np.ndarray,
    L: np.ndarray,
    ints: np.ndarray,
    vectors: np.ndarray,
    upper: np.ndarray,
) -> bool:
    """:func:`solve_boxed_lcp` in the caller's work arrays (nothing is
    allocated, so a caller solving many small problems reuses them): ``L``
    float64[n, n], ``ints`` int64[3, >= n] (the factor's row starts, the
    permutation, the factored positions), ``vectors`` float64[7, >= n],
    ``upper`` bool[>= n]."""
    if n <= 0:
        return True
    lstart, perm, cidx = ints[0], ints[1], ints[2]
    diag, dinv, dell, ell = vectors[0], vectors[1], vectors[2], vectors[3]
    tmp, dx, dw = vectors[4], vectors[5], vectors[6]
    fact = (L, lstart, diag, dinv, dell, ell, tmp)
    for k in range(n):
        x[k] = 0.0
        w[k] = 0.0
    if nub >= n:
        factor_leading_block(A, n, L, lstart, diag, dinv, dell, ell)
        for k in range(n):
            x[k] = b[k]
        solve_factored(L, lstart, dinv, n, x)
        return True
    for k in range(n):
        perm[k] = k
        upper[k] = False
    prob = (x, b, w, lo, hi, findex, perm, upper)
    nub = _gather_unbounded(A, n, max(nub, 0), prob)
    if nub > 0:
        factor_leading_block(A, nub, L, lstart, diag, dinv, dell, ell)
        for k in range(nub):
            x[k] = b[k]
            cidx[k] = k
        solve_factored(L, lstart, dinv, nub, x)
    _friction_rows_last(A, n, nub, prob)
    ok = _pivot_rows(A, n, nub, cidx, prob, fact, dx, dw)
    _unpermute(perm, n, x, tmp)
    _unpermute(perm, n, w, tmp)
    _unpermute(perm, n, b, tmp)
    _unpermute(perm, n, lo, tmp)
    _unpermute(perm, n, hi, tmp)
    _unpermute(perm, n, findex, cidx)
    return ok


def solve_lcp(
    A: np.ndarray,
    b: np.ndarray,
    lo: np.ndarray,
    hi: np.ndarray,
    nub: int = 0,
    findex: np.ndarray | None = None,
) -> tuple[np.ndarray, np.ndarray]:
    """Solve ``A x = b + w`` with box bounds (see `solve_boxed_lcp`); inputs are copied.

    A: (n, n); b, lo, hi: (n,); findex: (n,) integers, -1 for none (default).
    Returns (x, w), both float64[n].  Warns (RuntimeWarning) when the solver
    had to stop early on a degenerate problem, as ODE prints a message.
    """
    b = np.array(b, dtype=np.float64).ravel()
    n = b.shape[0]
    A = np.array(A, dtype=np.float64, order="C")
    lo = np.array(lo, dtype=np.float64).ravel()
    hi = np.array(hi, dtype=np.float64).ravel()
    if findex is None:
        fidx = np.full(n, -1, dtype=np.int32)
    else:
        fidx = np.array(findex, dtype=np.int32).ravel()
    if A.shape != (n, n) or lo.shape != (n,) or hi.shape != (n,) or fidx.shape != (n,):
        raise ValueError(f"solve_lcp: inconsistent shapes for n = {n}")
    if np.any(fidx >= n) or np.any(fidx < -1):
        raise ValueError("solve_lcp: findex entries must be -1 or a row index")
    x = np.zeros(n)
    w = np.zeros(n)
    if not solve_boxed_lcp(n, A, x, b, w, int(nub), lo, hi, fidx):
        warnings.warn("solve_lcp: LCP internal error, stopped early", RuntimeWarning, stacklevel=2)
    return x, w
