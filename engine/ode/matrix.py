"""ODE's matrix functions (matrix.h, misc.h) for the flat API.

Conventions (see also engine.ode.odemath):

* **Out-parameters are returned** (``dMultiply0(B, C, p, q, r) -> A``,
  ``dFactorLDLT(A, n, nskip) -> (L, d)``); the other arguments keep C's order.
* **In/out arguments**: the result is returned, and a writable float64 numpy
  array passed for that argument is ALSO updated in place.
* ``dFactorCholesky`` and ``dInvertPDMatrix`` return ``None`` where C returns
  0 (not positive definite; nothing is modified then).
* **Matrices** (n rows x m columns) may be given as a 2-D array (its top-left
  n x m block is used, so a bigger array plays C's ``nskip``), or flat in C's
  layout, row i starting at ``i * skip`` (skip = ``nskip`` where the function
  takes one, else ODE's padding ``dPAD(m)``: m rounded up to a multiple of 4),
  or flat and dense (exactly n*m numbers). Results come back in the layout of
  the (first) matrix argument.
* Misuse (NaN/inf input, wrong sizes, a singular pivot) raises ODEError.

These agree with ODE 0.16.2 to rounding (ODE's blocked loops sum in another order).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from engine.ode.errors import ODEError
from engine.ode.kernels.detlinalg import dot
from engine.ode.kernels.linalg import (
    factor_cholesky,
    factor_ldlt,
    ldlt_add_tl,
    matmul,
    remove_row_col,
    solve_cholesky,
    solve_l1,
    solve_l1t,
    solve_ldlt,
)
from engine.ode.odemath import _count, _dpad, _update_in_place
from engine.ode.rng import dRandReal
from engine.ode.rotation import as_real


# ---------------------------------------------------------------------------
# matrix argument handling
# ---------------------------------------------------------------------------
class _Mat:
    """A matrix argument: its n x m block as a dense array plus its layout."""

    __slots__ = ("block", "index", "kind", "orig", "store")

    def __init__(self, A: Any, rows: int, cols: int, skip: int | None,
                 function: str, argument: str) -> None:
        try:
            a = np.array(A, dtype=np.float64)
        except (TypeError, ValueError):
            raise ODEError(function, argument, "expected a matrix of numbers") from None
        self.orig, self.store = A, a
        if a.ndim == 2:
            if a.shape[0] < rows or a.shape[1] < cols:
                raise ODEError(function, argument,
                               f"expected at least {rows}x{cols}, got shape {a.shape}")
            self.kind, self.index = "2d", (slice(0, rows), slice(0, cols))
        elif a.ndim == 1:
            skip = _dpad(cols) if skip is None else skip
            if a.size >= (rows - 1) * skip + cols:
                self.kind = "padded"
            elif a.size == rows * cols:
                self.kind, skip = "dense", cols
            else:
                raise ODEError(function, argument,
                               f"{a.size} numbers cannot hold a {rows}x{cols} matrix "
                               f"with row stride {skip}")
            self.index = np.arange(rows)[:, None] * skip + np.arange(cols)[None, :]
        else:
            raise ODEError(function, argument, f"expected a 1-D or 2-D array, got {a.shape}")
        self.block = np.ascontiguousarray(a[self.index])
        if not np.isfinite(self.block).all():
            raise ODEError(function, argument, "must be finite")

    def result(self, block: np.ndarray | None = None) -> np.ndarray:
        """The argument with its block replaced (new array; in place too)."""
        out = self.store.copy()
        out[self.index] = self.block if block is None else block
        _update_in_place(self.orig, out)
        return out

    def new_like(self, block: np.ndarray) -> np.ndarray:
        """A new matrix holding ``block`` in this argument's kind of layout."""
        rows, cols = block.shape
        if self.kind == "2d":
            return block.copy()
        if self.kind == "dense":
            return block.reshape(-1).copy()
        out = np.zeros(rows * _dpad(cols))
        out.reshape(rows, -1)[:, :cols] = block
        return out


class _Vec:
    """A vector argument of at least n numbers; its first n are used."""

    __slots__ = ("head", "orig", "store")

    def __init__(self, v: Any, n: int, function: str, argument: str) -> None:
        try:
            a = np.array(v, dtype=np.float64).reshape(-1)
        except (TypeError, ValueError):
            raise ODEError(function, argument, "expected a vector of numbers") from None
        if a.size < n:
            raise ODEError(function, argument, f"expected at least {n} numbers, got {a.size}")
        if not np.isfinite(a[:n]).all():
            raise ODEError(function, argument, "must be finite")
        self.orig, self.store, self.head = v, a, a[:n].copy()

    def result(self) -> np.ndarray:
        out = self.store.copy()
        out[:self.head.size] = self.head
        _update_in_place(self.orig, out)
        return out


def _skip(nskip: Any, n: int, function: str) -> int:
    s = _count(nskip, function, "nskip")
    if s < n:
        raise ODEError(function, "nskip", f"must be >= n ({n}), got {s}")
    return s


# ---------------------------------------------------------------------------
# matrix.h
# ---------------------------------------------------------------------------
def dSetZero(a: Any, n: int | None = None) -> np.ndarray:
    """``dSetZero(n)`` -> zeros (n,); ``dSetZero(a, n)`` -> a with a[:n] = 0 (in/out)."""
    if n is None:
        return np.zeros(_count(a, "dSetZero", "n", 0))
    return dSetValue(a, n, 0.0)


def dSetValue(a: Any, n: Any, value: Any = None) -> np.ndarray:
    """``dSetValue(n, value)`` -> new (n,) array; ``dSetValue(a, n, value)`` (in/out)."""
    if value is None:
        return np.full(_count(a, "dSetValue", "n", 0), as_real(n, "dSetValue", "value"))
    k = _count(n, "dSetValue", "n", 0)
    v = _Vec(a, k, "dSetValue", "a")
    v.head[:] = as_real(value, "dSetValue", "value")
    return v.result()


def dDot(a: Any, b: Any, n: int) -> float:
    """Dot product of the first n elements of a and b (0 if n <= 0)."""
    if _count(n, "dDot", "n", -(2 ** 62)) <= 0:
        return 0.0
    k = int(n)
    x = _Vec(a, k, "dDot", "a").head
    y = _Vec(b, k, "dDot", "b").head
    s = 0.0
    for i in range(k):
        s += float(x[i]) * float(y[i])
    return s


def _multiply(function: str, B: Any, C: Any, p: Any, q: Any, r: Any,
              b_shape: tuple[str, str], c_shape: tuple[str, str]) -> np.ndarray:
    dims = {"p": _count(p, function, "p"), "q": _count(q, function, "q"),
            "r": _count(r, function, "r")}
    mb = _Mat(B, dims[b_shape[0]], dims[b_shape[1]], None, function, "B")
    mc = _Mat(C, dims[c_shape[0]], dims[c_shape[1]], None, function, "C")
    A = np.empty((dims["p"], dims["r"]))
    matmul(mb.block, mc.block, A, b_shape[0] == "q", c_shape[0] == "r")
    return mb.new_like(A)


def dMultiply0(B: Any, C: Any, p: int, q: int, r: int) -> np.ndarray:
    """A = B C, with B p x q, C q x r; returns A (p x r)."""
    return _multiply("dMultiply0", B, C, p, q, r, ("p", "q"), ("q", "r"))


def dMultiply1(B: Any, C: Any, p: int, q: int, r: int) -> np.ndarray:
    """A = B' C, with B stored q x p, C q x r; returns A (p x r)."""
    return _multiply("dMultiply1", B, C, p, q, r, ("q", "p"), ("q", "r"))


def dMultiply2(B: Any, C: Any, p: int, q: int, r: int) -> np.ndarray:
    """A = B C', with B p x q, C stored r x q; returns A (p x r)."""
    return _multiply("dMultiply2", B, C, p, q, r, ("p", "q"), ("r", "q"))


def dFactorCholesky(A: Any, n: int) -> np.ndarray | None:
    """Cholesky factor L (L L' = A) of the n x n symmetric A, in A's lower triangle.

    Only the lower triangle of A is read; the upper one is left as it was.
    Returns the factored matrix (in/out), or None if A is not positive
    definite (C returns 0); A is then left untouched.
    """
    k = _count(n, "dFactorCholesky", "n")
    m = _Mat(A, k, k, None, "dFactorCholesky", "A")
    if not factor_cholesky(m.block, k):
        return None
    return m.result()


def dSolveCholesky(L: Any, b: Any, n: int) -> np.ndarray:
    """x with L L' x = b (L from dFactorCholesky, lower triangle); returns b := x."""
    k = _count(n, "dSolveCholesky", "n")
    m = _Mat(L, k, k, None, "dSolveCholesky", "L")
    if (np.diag(m.block) == 0.0).any():
        raise ODEError("dSolveCholesky", "L", "zero on the diagonal")
    v = _Vec(b, k, "dSolveCholesky", "b")
    solve_cholesky(m.block, v.head, k)
    return v.result()


def dInvertPDMatrix(A: Any, n: int) -> np.ndarray | None:
    """Inverse of the n x n positive definite A (A's layout), or None if not PD."""
    k = _count(n, "dInvertPDMatrix", "n")
    m = _Mat(A, k, k, None, "dInvertPDMatrix", "A")
    L = m.block.copy()
    if not factor_cholesky(L, k):
        return None
    inv = np.empty((k, k))
    for i in range(k):
        e = np.zeros(k)
        e[i] = 1.0
        solve_cholesky(L, e, k)
        inv[:, i] = e
    return m.new_like(inv)


def dIsPositiveDefinite(A: Any, n: int) -> int:
    """1 if the n x n symmetric A (lower triangle read) is positive definite, else 0."""
    k = _count(n, "dIsPositiveDefinite", "n")
    m = _Mat(A, k, k, None, "dIsPositiveDefinite", "A")
    return int(factor_cholesky(m.block, k))


def dFactorLDLT(A: Any, n: int, nskip: int) -> tuple[np.ndarray, np.ndarray]:
    """L D L' factorisation of the n x n symmetric A (lower triangle read).

    Returns (A with L in its strict lower triangle (in/out), d (n,) the
    reciprocals of D's diagonal).  C: ``dFactorLDLT(A, d, n, nskip)``.
    A zero pivot raises ODEError.
    """
    k = _count(n, "dFactorLDLT", "n")
    m = _Mat(A, k, k, _skip(nskip, k, "dFactorLDLT"), "dFactorLDLT", "A")
    d = np.empty(k)
    if not factor_ldlt(m.block, d, k):
        raise ODEError("dFactorLDLT", "A", "singular matrix (zero pivot)")
    return m.result(), d


def dSolveL1(L: Any, b: Any, n: int, nskip: int) -> np.ndarray:
    """x with L x = b, L unit lower triangular (n x n); returns b := x."""
    k = _count(n, "dSolveL1", "n")
    m = _Mat(L, k, k, _skip(nskip, k, "dSolveL1"), "dSolveL1", "L")
    v = _Vec(b, k, "dSolveL1", "b")
    solve_l1(m.block, v.head, k)
    return v.result()


def dSolveL1T(L: Any, b: Any, n: int, nskip: int) -> np.ndarray:
    """x with L' x = b, L unit lower triangular (n x n); returns b := x."""
    k = _count(n, "dSolveL1T", "n")
    m = _Mat(L, k, k, _skip(nskip, k, "dSolveL1T"), "dSolveL1T", "L")
    v = _Vec(b, k, "dSolveL1T", "b")
    solve_l1t(m.block, v.head, k)
    return v.result()


def dScaleVector(a: Any, d: Any, n: int) -> np.ndarray:
    """a[:n] *= d[:n] element-wise; returns a (in/out)."""
    k = _count(n, "dScaleVector", "n")
    v = _Vec(a, k, "dScaleVector", "a")
    v.head *= _Vec(d, k, "dScaleVector", "d").head
    return v.result()


def dVectorScale(a: Any, d: Any, n: int) -> np.ndarray:
    """Deprecated ODE name of :func:`dScaleVector`."""
    return dScaleVector(a, d, n)


def dSolveLDLT(L: Any, d: Any, b: Any, n: int, nskip: int) -> np.ndarray:
    """x with L D L' x = b (L, d from dFactorLDLT); returns b := x."""
    k = _count(n, "dSolveLDLT", "n")
    m = _Mat(L, k, k, _skip(nskip, k, "dSolveLDLT"), "dSolveLDLT", "L")
    dd = _Vec(d, k, "dSolveLDLT", "d").head
    v = _Vec(b, k, "dSolveLDLT", "b")
    solve_ldlt(m.block, dd, v.head, k)
    return v.result()


def dLDLTAddTL(L: Any, d: Any, a: Any, n: int, nskip: int) -> tuple[np.ndarray, np.ndarray]:
    """Update the factors (L, d) of A to those of A + [[a0, a1..'], [a1.., 0]].

    As in ODE, L's first column and d[0] are not modified (callers remove
    that row and column afterwards).  Returns (L, d), both in/out.
    """
    fn = "dLDLTAddTL"
    k = _count(n, fn, "n")
    m = _Mat(L, k, k, _skip(nskip, k, fn), fn, "L")
    dv = _Vec(d, k, fn, "d")
    av = _Vec(a, k, fn, "a")
    if not ldlt_add_tl(m.block, dv.head, av.head, k):
        raise ODEError(fn, "a", "update makes the matrix singular")
    return m.result(), dv.result()


def dLDLTRemove(A: Any, p: Any, L: Any, d: Any, n1: int, n2: int, r: int,
                nskip: int) -> tuple[np.ndarray, np.ndarray]:
    """Factors of the permuted matrix A[p][:, p] (n2 x n2) with row/column r removed.

    A: n1 x n1 symmetric (lower triangle read; 2-D, list of rows or flat
    with ``nskip``); p: n2 indices into A; (L, d): the current factors.
    Returns the new (L, d) (in/out): the leading (n2-1) block of L and
    d[:n2-1]; the last row/column of L and last element of d are undefined.
    """
    fn = "dLDLTRemove"
    k1, k2 = _count(n1, fn, "n1"), _count(n2, fn, "n2")
    rr = _count(r, fn, "r", 0)
    if k2 > k1 or rr >= k2:
        raise ODEError(fn, "r", f"need 0 <= r < n2 <= n1, got r={rr}, n2={k2}, n1={k1}")
    skip = _skip(nskip, k1, fn)
    ma = _Mat(A, k1, k1, skip, fn, "A")
    perm = np.array(p, dtype=np.int64).reshape(-1)[:k2]
    if perm.size < k2 or (perm < 0).any() or (perm >= k1).any():
        raise ODEError(fn, "p", f"expected {k2} indices in [0, {k1})")
    m = _Mat(L, k2, k2, skip, fn, "L")
    dv = _Vec(d, k2, fn, "d")
    if rr == k2 - 1:
        return m.result(), dv.result()
    Lb, dd = m.block, dv.head

    def lower(i: int, j: int) -> float:
        return float(ma.block[max(i, j), min(i, j)])

    # Add a top-left update to the trailing factor from row r on, chosen so
    # that row/column r of the updated matrix becomes the unit vector: then
    # the factor of everything after r is that of the reduced matrix.
    t = Lb[rr, :rr] / dd[:rr]
    upd = np.array([dot(Lb[rr + i, :rr], t) - lower(perm[rr + i], perm[rr])
                    for i in range(k2 - rr)])
    upd[0] += 1.0
    sub = np.ascontiguousarray(Lb[rr:, rr:])
    if not ldlt_add_tl(sub, dd[rr:], upd, k2 - rr):
        raise ODEError(fn, "L", "factors inconsistent with A (singular update)")
    Lb[rr:, rr:] = sub
    remove_row_col(Lb, k2, rr)
    dd[rr:k2 - 1] = dd[rr + 1:k2].copy()
    return m.result(), dv.result()


def dRemoveRowCol(A: Any, n: int, nskip: int, r: int) -> np.ndarray:
    """Remove row and column r of the n x n A by moving elements up/left.

    The result is the leading (n-1) x (n-1) block; A's last row and column
    are left as they were.  Returns A (in/out).
    """
    k = _count(n, "dRemoveRowCol", "n")
    rr = _count(r, "dRemoveRowCol", "r", 0)
    if rr >= k:
        raise ODEError("dRemoveRowCol", "r", f"must be < n ({k}), got {rr}")
    m = _Mat(A, k, k, _skip(nskip, k, "dRemoveRowCol"), "dRemoveRowCol", "A")
    remove_row_col(m.block, k, rr)
    return m.result()


# ---------------------------------------------------------------------------
# misc.h
# ---------------------------------------------------------------------------
def dMakeRandomVector(n: int, range: float) -> np.ndarray:
    """(n,) values uniform in [-range, range] from ODE's generator (dRandReal)."""
    k = _count(n, "dMakeRandomVector", "n", 0)
    s = as_real(range, "dMakeRandomVector", "range")
    return np.array([(dRandReal() * 2.0 - 1.0) * s for _ in np.arange(k)])


def dMakeRandomMatrix(n: int, m: int, range: float) -> np.ndarray:
    """(n, m) values uniform in [-range, range], drawn row by row as ODE does."""
    rows = _count(n, "dMakeRandomMatrix", "n", 0)
    cols = _count(m, "dMakeRandomMatrix", "m", 0)
    s = as_real(range, "dMakeRandomMatrix", "range")
    return np.array([[(dRandReal() * 2.0 - 1.0) * s for _ in np.arange(cols)]
                     for _ in np.arange(rows)]).reshape(rows, cols)


def dClearUpperTriangle(A: Any, n: int) -> np.ndarray:
    """Zero the strict upper triangle of the n x n A; returns A (in/out)."""
    k = _count(n, "dClearUpperTriangle", "n")
    m = _Mat(A, k, k, None, "dClearUpperTriangle", "A")
    return m.result(np.tril(m.block))


def dMaxDifference(A: Any, B: Any, n: int, m: int) -> float:
    """Largest |A[i, j] - B[i, j]| over n x m matrices."""
    rows, cols = _count(n, "dMaxDifference", "n"), _count(m, "dMaxDifference", "m")
    a = _Mat(A, rows, cols, None, "dMaxDifference", "A").block
    b = _Mat(B, rows, cols, None, "dMaxDifference", "B").block
    return float(np.abs(a - b).max())


def dMaxDifferenceLowerTriangle(A: Any, B: Any, n: int) -> float:
    """Largest |A[i, j] - B[i, j]| over the lower triangle (j <= i) of n x n matrices."""
    k = _count(n, "dMaxDifferenceLowerTriangle", "n")
    a = _Mat(A, k, k, None, "dMaxDifferenceLowerTriangle", "A").block
    b = _Mat(B, k, k, None, "dMaxDifferenceLowerTriangle", "B").block
    return float(np.abs(np.tril(a - b)).max())
