"""Incrementally updated L*D*L' factorization used by the Dantzig LCP solver.

The LCP solver keeps a factorization of the "clamped" block A[C, C] of its
matrix, and the set C changes by one index per pivot.  Refactorizing after
every pivot would cost O(m^3); the kernels here update the factorization in
O(m^2) instead:

* appending an index (a new last row and column) is one forward substitution;
* removing an index (any row and column) is a positive rank-one update of the
  trailing part of the factor.

Storage conventions (m = current size of the factorization):

* ``L``: float64[n, n]; row k holds the strictly-lower part ``L[k, :k]`` of the
  unit lower triangular factor.  The diagonal (implicitly 1) and the upper
  triangle are never read nor written.
* ``lstart``: int64[n]; ``L[k, j]`` is zero for every j < lstart[k] (the
  row's "envelope" start).  Those entries are neither stored nor read.
* ``diag``: float64[n]; ``diag[k]`` is the pivot D_k of the factorization.
* ``dinv``: float64[n]; ``dinv[k] = 1 / D_k`` (kept to multiply, not divide,
  in the solves).

Only the first m rows / entries of these arrays are meaningful.

Sparsity.  Constraint matrices are sparse (a chain of joints gives a banded
A), and LDL' keeps the zeros that come before the first nonzero of each row
(fill-in only happens to the right of it).  Every kernel therefore skips the
leading zeros: right-hand sides are solved from their first nonzero and rows
of L are used from their envelope start.  For a banded matrix the
factorization then costs O(m b^2) instead of O(m^3).  The zeros skipped are
exact, so only the grouping of the floating-point sums depends on it.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from engine.ode.kernels.options import NO_ALLOC


# Numba performance notes for the two hot loops below.  An index that numba
# cannot prove non-negative gets a wrap-around test (Python's a[-1]) on every
# access, which stops LLVM from vectorizing: the dot product therefore works
# on slices indexed from 0, and the axpy of `solve_unit_lower_t` runs over an
# unsigned range.
@njit(**NO_ALLOC)
def dot_row(M: np.ndarray, row: int, v: np.ndarray, start: int, stop: int) -> float:
    """Return ``sum_{start <= j < stop} M[row, j] * v[j]``.

    ``M``: float64[:, :], ``v``: float64[:].  Four independent partial sums
    (fixed order, so the result is reproducible) let the CPU overlap the
    additions instead of waiting on one long dependency chain.
    """
    a = M[row, start:stop]
    u = v[start:stop]
    m = stop - start
    s0 = 0.0
    s1 = 0.0
    s2 = 0.0
    s3 = 0.0
    q = m // 4
    for t in range(q):
        j = 4 * t
        s0 += a[j] * u[j]
        s1 += a[j + 1] * u[j + 1]
        s2 += a[j + 2] * u[j + 2]
        s3 += a[j + 3] * u[j + 3]
    for j in range(4 * q, m):
        s0 += a[j] * u[j]
    return (s0 + s1) + (s2 + s3)


@njit(**NO_ALLOC)
def first_nonzero(v: np.ndarray, m: int) -> int:
    """Index of the first nonzero of ``v[:m]`` (float64[:]), m if there is none."""
    for j in range(m):
        if v[j] != 0.0:
            return j
    return m


# Forward substitution with the unit lower factor: L z = r.
# Row k gives z_k = r_k - sum_{j<k} L[k, j] z_j, a dot product over the
# contiguous row k of L, so the solve walks L row by row.  z_j = 0 before the
# first nonzero f of r, and L[k, j] = 0 before lstart[k]: the sum starts at
# the larger of the two.
@njit(**NO_ALLOC)
def solve_unit_lower(L: np.ndarray, lstart: np.ndarray, m: int, z: np.ndarray) -> int:
    """Overwrite ``z[:m]`` (float64[n]) with ``L[:m, :m]^-1 z``; return z's first nonzero."""
    f = first_nonzero(z, m)
    for k in range(f + 1, m):
        z[k] -= dot_row(L, k, z, max(f, lstart[k]), k)
    return f


# Back substitution with the transposed factor: L' y = z.
# Unknown y_j only appears in the equations of rows k < j, through L[j, k].
# Going from the last unknown to the first, each finished y_j is pushed into
# the right-hand side of the earlier rows: y[:j] -= y_j * L[j, :j], an axpy on
# the contiguous row j (no reduction, so it vectorizes), from lstart[j] on.
@njit(**NO_ALLOC)
def solve_unit_lower_t(L: np.ndarray, lstart: np.ndarray, m: int, y: np.ndarray) -> None:
    """Overwrite ``y[:m]`` (float64[n]) with the solution of ``L[:m, :m]' y = y``."""
    for j in range(m - 1, 0, -1):
        yj = y[j]
        if yj != 0.0:
            for k in range(np.uint64(lstart[j]), np.uint64(j)):
                y[k] -= L[j, k] * yj


@njit(**NO_ALLOC)
def safe_pivot(a_ii: float, reduction: float) -> float:
    """The new pivot ``a_ii - reduction``, never exactly zero.

    When the new row is an exact linear combination of the factored ones the
    difference is exactly 0 and the reciprocal would be infinite.  As ODE
    does, the diagonal is then nudged to the next representable number above
    it, which leaves a tiny positive pivot instead.
    """
    if a_ii == reduction:
        a_ii = np.nextafter(a_ii, np.inf)
    return a_ii - reduction


# Appending index m to the factorization.  With a = A[C, new] (the new
# column restricted to the factored indices, in factorization order) and
# alpha = A[new, new]:
#     [ A_CC  a     ]   [ L   0 ] [ D  0   ] [ L'  l ]
#     [ a'    alpha ] = [ l'  1 ] [ 0  D_m ] [ 0   1 ]
# so L D l = a, i.e. l = D^-1 (L^-1 a), and D_m = alpha - l' D l.
# The caller first computes q = L^-1 a ("dell") and l = D^-1 q ("ell") with
# `row_terms` (they also give the solver's search direction), then D_m is
# alpha - l . q.  The new row starts where a does (its first nonzero).
@njit(**NO_ALLOC)
def row_terms(
    L: np.ndarray, lstart: np.ndarray, dinv: np.ndarray, m: int, dell: np.ndarray,
    ell: np.ndarray,
) -> None:
    """Turn ``dell[:m]`` from ``a`` into ``L^-1 a`` and set ``ell[:m] = D^-1 dell``.

    ``dell``, ``ell``: float64[n]; on entry ``dell[:m]`` holds the column
    ``a = A[C, new]`` in factorization order.
    """
    solve_unit_lower(L, lstart, m, dell)
    for j in range(m):
        ell[j] = dell[j] * dinv[j]


@njit(**NO_ALLOC)
def append_row(
    L: np.ndarray,
    lstart: np.ndarray,
    diag: np.ndarray,
    dinv: np.ndarray,
    m: int,
    dell: np.ndarray,
    ell: np.ndarray,
    a_ii: float,
) -> None:
    """Grow the m x m factorization to (m+1) x (m+1).

    ``dell[:m]``, ``ell[:m]`` (float64[n]) must come from `row_terms` for the
    new index; ``a_ii`` is its diagonal entry of A.
    """
    f = first_nonzero(ell, m)
    lstart[m] = f
    reduction = 0.0
    for j in range(f, m):
        L[m, j] = ell[j]
        reduction += ell[j] * dell[j]
    dm = safe_pivot(a_ii, reduction)
    diag[m] = dm
    dinv[m] = 1.0 / dm


# Removing index r from an m x m factorization.  Split the factor around r:
#         [ L11  0    0   ]        D = diag(D1, d_r, D3)
#     L = [ l21' 1    0   ]
#         [ L31  l32  L33 ]
# The matrix without row/column r is
#     [ A11  A13 ]   [ L11  0   ] [ D1 0  ] [ L11' L31' ]
#     [ A31  A33 ] = [ L31  L33~] [ 0  D3~] [ 0    L33~']
# where the trailing block must satisfy
#     L33~ D3~ L33~' = L33 D3 L33' + d_r l32 l32'.
# So rows above r are untouched, the rows below r lose column r and move up
# one place, and L33 D3 L33' receives the rank-one update sigma z z' with
# sigma = d_r and z = l32 (positive when A[C, C] is positive definite).
#
# Rank-one update (Gill, Golub, Murray & Saunders, "Methods for modifying
# matrix factorizations", 1974, method C1), column by column j = 0, 1, ...:
#     p = z_j;  D~_j = D_j + sigma p^2;  beta_j = sigma p / D~_j;
#     sigma <- sigma D_j / D~_j
#     for rows q > j:  z_q <- z_q - p L[q, j];  L[q, j] <- L[q, j] + beta_j z_q
# Row q only needs the p_j and beta_j of the columns to its left, so the same
# work can be done row by row (each row contiguous in memory): walk row q left
# to right carrying z_q, and once the row is finished z_q is its own p_q.
#
# Envelopes: a row starting before r keeps its start.  A row starting at
# s > r has z_q = 0 and zeros up to s, which the update leaves untouched
# (z_q stays 0 until the row's first nonzero): it now starts at s - 1.
@njit(**NO_ALLOC)
def remove_row(
    L: np.ndarray,
    lstart: np.ndarray,
    diag: np.ndarray,
    dinv: np.ndarray,
    m: int,
    r: int,
    pbuf: np.ndarray,
    betabuf: np.ndarray,
) -> None:
    """Shrink the m x m factorization to (m-1) x (m-1) by deleting position r.

    ``pbuf``, ``betabuf``: float64[n] scratch arrays.
    """
    sigma = diag[r]
    for q in range(r, m - 1):
        src = q + 1
        s = lstart[src]
        if s < r:
            for j in range(s, r):
                L[q, j] = L[src, j]
        if s <= r:
            lstart[q] = s
            zq = L[src, r]
            j0 = r
        else:
            lstart[q] = s - 1
            zq = 0.0
            j0 = s - 1
        for j in range(j0, q):
            v = L[src, j + 1]
            zq -= pbuf[j] * v
            v += betabuf[j] * zq
            L[q, j] = v
        dq = diag[src]
        dnew = dq + sigma * zq * zq
        if dnew == 0.0:
            dnew = np.nextafter(0.0, 1.0)
        pbuf[q] = zq
        betabuf[q] = sigma * zq / dnew
        sigma = sigma * dq / dnew
        diag[q] = dnew
        dinv[q] = 1.0 / dnew


@njit(**NO_ALLOC)
def factor_leading_block(
    A: np.ndarray,
    m: int,
    L: np.ndarray,
    lstart: np.ndarray,
    diag: np.ndarray,
    dinv: np.ndarray,
    dell: np.ndarray,
    ell: np.ndarray,
) -> None:
    """Factor ``A[:m, :m]`` (only its lower triangle is read) into L, lstart, diag, dinv.

    Built one row at a time with `row_terms` + `append_row`, which is the
    row-oriented (Crout) LDL' algorithm: m^3 / 6 multiply-adds when dense.
    ``A``: float64[n, n]; ``dell``, ``ell``: float64[n] scratch.
    """
    for k in range(m):
        for j in range(k):
            dell[j] = A[k, j]
        row_terms(L, lstart, dinv, k, dell, ell)
        append_row(L, lstart, diag, dinv, k, dell, ell, A[k, k])


@njit(**NO_ALLOC)
def solve_factored(
    L: np.ndarray, lstart: np.ndarray, dinv: np.ndarray, m: int, y: np.ndarray
) -> None:
    """Overwrite ``y[:m]`` with ``(L D L')^-1 y`` (float64[n])."""
    solve_unit_lower(L, lstart, m, y)
    for j in range(m):
        y[j] *= dinv[j]
    solve_unit_lower_t(L, lstart, m, y)
