"""Dense linear-algebra kernels of ODE's matrix.h (compiled, in place).

Matrix products, Cholesky and LDLᵀ factorizations and solves, rank updates
of an LDLᵀ factorization, row/column removal. Used by engine.ode.matrix (the
flat API) and by the engine's hot loops.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit


# ---------------------------------------------------------------------------
# matrix kernels: in place on the top-left n x n block of 2-D float64 arrays
# ---------------------------------------------------------------------------
@njit(cache=True, nogil=True)
def matmul(B: np.ndarray, C: np.ndarray, A: np.ndarray, tb: bool, tc: bool) -> None:
    """A (p, r) = op(B) op(C), op = transpose if tb / tc; sums in index order."""
    p, r = A.shape
    q = B.shape[0] if tb else B.shape[1]
    for i in range(p):
        for j in range(r):
            s = 0.0
            for k in range(q):
                s += (B[k, i] if tb else B[i, k]) * (C[j, k] if tc else C[k, j])
            A[i, j] = s


@njit(cache=True, nogil=True)
def factor_cholesky(A: np.ndarray, n: int) -> bool:
    """Cholesky factor of A into its lower triangle (upper untouched); False if not PD.

    Row by row: L[i, j] = (A[i, j] - L[i, :j] . L[j, :j]) / L[j, j], then
    L[i, i] = sqrt(A[i, i] - |L[i, :i]|^2), which must be > 0.
    """
    recip = np.empty(n)
    for i in range(n):
        for j in range(i):
            s = A[i, j]
            for k in range(j):
                s -= A[i, k] * A[j, k]
            A[i, j] = s * recip[j]
        s = A[i, i]
        for k in range(i):
            s -= A[i, k] * A[i, k]
        if not s > 0.0:
            return False
        A[i, i] = math.sqrt(s)
        recip[i] = 1.0 / A[i, i]
    return True


@njit(cache=True, nogil=True)
def solve_cholesky(L: np.ndarray, b: np.ndarray, n: int) -> None:
    """b := x with L L' x = b (L lower triangular, non-zero diagonal)."""
    for i in range(n):  # forward: L y = b
        s = b[i]
        for k in range(i):
            s -= L[i, k] * b[k]
        b[i] = s / L[i, i]
    for i in range(n - 1, -1, -1):  # backward: L' x = y
        s = b[i]
        for k in range(i + 1, n):
            s -= L[k, i] * b[k]
        b[i] = s / L[i, i]


@njit(cache=True, nogil=True)
def factor_ldlt(A: np.ndarray, d: np.ndarray, n: int) -> bool:
    """A = L D L': L into A's strict lower triangle, d[i] = 1 / D[i]; False on a zero pivot.

    Row i: z = D L[i, :i] solves L[:i, :i] z = A[i, :i] (unit lower
    triangular), then L[i, j] = z[j] / D[j] and D[i] = A[i, i] - z . L[i, :i].
    The diagonal and upper triangle of A are not written.
    """
    for i in range(n):
        for j in range(i):  # z stored in A[i, :i] while solving
            s = A[i, j]
            for k in range(j):
                s -= A[j, k] * A[i, k]
            A[i, j] = s
        s = A[i, i]
        for j in range(i):
            z = A[i, j]
            lij = z * d[j]
            s -= z * lij
            A[i, j] = lij
        if s == 0.0:
            return False
        d[i] = 1.0 / s
    return True


@njit(cache=True, nogil=True)
def solve_l1(L: np.ndarray, b: np.ndarray, n: int) -> None:
    """b := x with L x = b, L unit lower triangular."""
    for i in range(n):
        s = b[i]
        for k in range(i):
            s -= L[i, k] * b[k]
        b[i] = s


@njit(cache=True, nogil=True)
def solve_l1t(L: np.ndarray, b: np.ndarray, n: int) -> None:
    """b := x with L' x = b, L unit lower triangular."""
    for i in range(n - 1, -1, -1):
        s = b[i]
        for k in range(i + 1, n):
            s -= L[k, i] * b[k]
        b[i] = s


@njit(cache=True, nogil=True)
def solve_ldlt(L: np.ndarray, d: np.ndarray, b: np.ndarray, n: int) -> None:
    """b := x with L D L' x = b, d the reciprocals of D."""
    solve_l1(L, b, n)
    for i in range(n):
        b[i] *= d[i]
    solve_l1t(L, b, n)


@njit(cache=True, nogil=True)
def _rank1(L: np.ndarray, D: np.ndarray, w: np.ndarray, alpha: float, n: int) -> bool:
    """L D L' += alpha w w' (w destroyed), D the diagonal itself; False if singular.

    The classic column sweep (Gill, Golub, Murray & Saunders 1974, method C1).
    """
    for j in range(n):
        pj = w[j]
        dnew = D[j] + alpha * pj * pj
        if dnew == 0.0:
            return False
        beta = alpha * pj / dnew
        alpha = alpha * D[j] / dnew
        D[j] = dnew
        for i in range(j + 1, n):
            w[i] -= pj * L[i, j]
            L[i, j] += beta * w[i]
    return True


@njit(cache=True, nogil=True)
def ldlt_add_tl(L: np.ndarray, d: np.ndarray, a: np.ndarray, n: int) -> bool:
    """Factors (L, d = 1/D) of A := A + [[a0, a1..'], [a1.., 0]], in place.

    With u = (a0/2, a1, ..) the update is u e0' + e0 u' = w1 w1' - w2 w2',
    w1 = (u + e0)/sqrt 2, w2 = (u - e0)/sqrt 2: one rank-1 update and one
    downdate.  L[:, 0] and d[0] are kept as they were (ODE's contract).
    False (nothing sensible written) if a pivot becomes zero.
    """
    if n < 2:
        return True
    col0 = L[:n, 0].copy()
    d0 = d[0]
    D = np.empty(n)
    for i in range(n):
        if d[i] == 0.0:
            return False
        D[i] = 1.0 / d[i]
    h = math.sqrt(0.5)
    w1 = np.empty(n)
    w2 = np.empty(n)
    for i in range(1, n):
        w1[i] = w2[i] = a[i] * h
    w1[0] = (0.5 * a[0] + 1.0) * h
    w2[0] = (0.5 * a[0] - 1.0) * h
    if not (_rank1(L, D, w1, 1.0, n) and _rank1(L, D, w2, -1.0, n)):
        return False
    for i in range(1, n):
        d[i] = 1.0 / D[i]
    d[0] = d0
    L[:n, 0] = col0
    return True


@njit(cache=True, nogil=True)
def remove_row_col(A: np.ndarray, n: int, r: int) -> None:
    """Delete row and column r of the n x n block, shifting the rest up/left.

    Row n-1 and column n-1 keep their old values.
    """
    for i in range(n - 1):
        si = i + 1 if i >= r else i
        for j in range(n - 1):
            A[i, j] = A[si, j + 1 if j >= r else j]
