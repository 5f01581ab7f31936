"""Tests of engine.ode.odemath (vector, matrix and misc support functions).

Numbers marked "ODE 0.16.2" were produced by the real libode (double
precision) and are hard-coded; "ODE unit test" marks facts checked by
ODE's own tests/odemath.cpp.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import ode as om
from engine.ode.errors import ODEError
from engine.ode.rng import dRandSetSeed
from engine.ode.rotation import dRFromAxisAndAngle

finite = st.floats(-100.0, 100.0, allow_nan=False, allow_infinity=False)
vec3 = st.tuples(finite, finite, finite).filter(lambda v: max(abs(x) for x in v) > 1e-3)


def dpad(n: int) -> int:
    return ((n - 1) | 3) + 1 if n > 1 else n


def padded(A: np.ndarray) -> np.ndarray:
    n, m = A.shape
    out = np.zeros(n * dpad(m))
    out.reshape(n, -1)[:, :m] = A
    return out


def unpad(a: np.ndarray, n: int, m: int) -> np.ndarray:
    return a.reshape(n, -1)[:, :m]


def spd(n: int, seed: int) -> np.ndarray:
    X = np.random.default_rng(seed).normal(size=(n, n))
    return X @ X.T + n * np.eye(n)


# --------------------------------------------------------------------------- normalisation
@pytest.mark.parametrize("axis", range(3))
@pytest.mark.parametrize("scale", [1.0, 0.1, 1e-20, -1.0, -0.1, -1e-20])
def test_safe_normalize3_axis_vectors_exact(axis, scale):
    # ODE unit test: the length of a normalised axis vector is exactly 1.0
    v = np.zeros(3)
    v[axis] = scale
    for f in (om.dSafeNormalize3, om.dNormalize3):
        u = f(v.copy())
        assert om.dCalcVectorLength3(u) == 1.0
        assert u[axis] == math.copysign(1.0, scale)


def test_safe_normalize3_extreme_vectors():
    # ODE unit test
    assert om.dCalcVectorLength3(om.dSafeNormalize3([9999999999.0, 0.0, 1e-20])) == 1.0
    u = om.dNormalize3([9999999999.0, 9999.0, 9.0])
    assert om.dCalcVectorLength3(u) == pytest.approx(1.0, abs=1e-3)
    # ODE 0.16.2
    np.testing.assert_allclose(u, [0.9999999999995002, 9.999000000994903e-07, 9.0000000008955e-10],
                               rtol=1e-15)
    np.testing.assert_allclose(om.dNormalize4([1.0, 2, 3, 4]),
                               [0.18257418583505536, 0.3651483716701107, 0.5477225575051661,
                                0.7302967433402214], rtol=1e-15)
    # tiny vectors (even subnormal) still normalise
    np.testing.assert_allclose(om.dNormalize3([3e-310, 4e-310, 0.0]), [0.6, 0.8, 0.0],
                               rtol=1e-12)


def test_normalize_zero_and_in_place():
    with pytest.raises(ODEError, match="dNormalize3: argument 'a'"):
        om.dNormalize3([0.0, 0.0, 0.0])
    with pytest.raises(ODEError, match="dNormalize4"):
        om.dNormalize4([0.0, 0.0, 0.0, 0.0])
    np.testing.assert_array_equal(om.dSafeNormalize3([0.0, 0.0, 0.0]), [0.0, 0.0, 0.0])
    np.testing.assert_array_equal(om.dSafeNormalize4(np.zeros(4)), np.zeros(4))
    v = np.array([3.0, 0.0, 4.0])
    r = om.dNormalize3(v)
    np.testing.assert_allclose(v, [0.6, 0.0, 0.8])  # in/out: updated in place
    assert r is not v
    v4 = np.array([0.0, 2.0, 0.0, 7.0])  # a padded dVector3: only 3 elements change
    om.dNormalize3(v4)
    np.testing.assert_array_equal(v4, [0.0, 1.0, 0.0, 7.0])
    lst = [3.0, 0.0, 4.0]
    om.dNormalize3(lst)
    assert lst == [3.0, 0.0, 4.0]  # plain sequences are only read
    with pytest.raises(ODEError, match="finite"):
        om.dNormalize3([np.nan, 1.0, 0.0])


@settings(deadline=None)  # the first call may compile numba kernels
@given(vec3)
def test_normalize3_unit_and_parallel(v):
    u = om.dNormalize3(v)
    assert np.linalg.norm(u) == pytest.approx(1.0, abs=2e-16 * 4)
    np.testing.assert_allclose(u, np.array(v) / np.linalg.norm(v), atol=1e-15)


# --------------------------------------------------------------------------- plane space
def test_plane_space_matches_ode():
    # ODE 0.16.2, both branches
    p, q = om.dPlaneSpace([0.6, 0.0, 0.8])
    np.testing.assert_allclose(p, [0.0, -1.0, 0.0], atol=1e-16)
    np.testing.assert_allclose(q, [0.8000000000000002, 0.0, -0.6], atol=1e-16)
    p, q = om.dPlaneSpace([0.0, 0.6, 0.7])
    np.testing.assert_allclose(p, [-1.0, 0.0, 0.0], atol=1e-16)
    np.testing.assert_allclose(q, [0.0, -0.7, 0.6], atol=1e-16)
    with pytest.raises(ODEError, match="dPlaneSpace"):
        om.dPlaneSpace([0, 0, 0])


@settings(deadline=None)  # the first call may compile numba kernels
@given(vec3)
def test_plane_space_orthonormal(v):
    n = om.dNormalize3(v)
    p, q = om.dPlaneSpace(n)
    B = np.array([n, p, q])
    np.testing.assert_allclose(B @ B.T, np.eye(3), atol=1e-14)
    np.testing.assert_allclose(q, np.cross(n, p), atol=1e-15)


# --------------------------------------------------------------------------- orthogonalize
@pytest.mark.parametrize("R", [
    # ODE unit test: proper rotations are returned bit-for-bit unchanged
    [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0],
    [0, 1, 0, 0, 0, 0, 1, 0, 1, 0, 0, 0],
    [0, 0, 1, 0, 1, 0, 0, 0, 0, 1, 0, 0],
    [-1, 0, 0, 0, 0, 1, 0, 0, 0, 0, -1, 0],
    [0, -1, 0, 0, 0, 0, 1, 0, -1, 0, 0, 0],
    [0, 0, -1, 0, 0, -1, 0, 0, -1, 0, 0, 0],
])
def test_orthogonalize_keeps_rotations(R):
    np.testing.assert_array_equal(om.dOrthogonalizeR(np.array(R, float)), R)


def test_orthogonalize_matches_ode_quirks():
    # ODE 0.16.2: when row 1 is not perpendicular to row 0 it is left as given
    out = om.dOrthogonalizeR([1.0, 0.1, 0, 0, 0.2, 1, 0, 0, 0, 0, 1, 0])
    np.testing.assert_allclose(out, [0.9950371902099893, 0.09950371902099893, 0, 0,
                                     0.2, 1.0, 0, 0, 0, 0, 1.0000000000000002, 0], atol=1e-16)
    # ODE 0.16.2: perpendicular rows are normalised, row 2 recomputed
    R = np.array([2.0, 0, 0, 0, 0, 3, 0, 0, 5, 5, 5, 0])
    out = om.dOrthogonalizeR(R)
    np.testing.assert_array_equal(out, [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0])
    np.testing.assert_array_equal(R, out)  # in/out
    R33 = np.diag([2.0, 3.0, 5.0])
    om.dOrthogonalizeR(R33)
    np.testing.assert_array_equal(R33, np.eye(3))
    # degenerate input: unchanged (C returns 0)
    np.testing.assert_array_equal(om.dOrthogonalizeR(np.zeros(12)), np.zeros(12))


@settings(deadline=None)  # the first call may compile numba kernels
@given(st.tuples(finite, finite, finite), st.floats(-3, 3), st.integers(0, 2 ** 31))
def test_orthogonalize_properties(axis, angle, seed):
    if np.linalg.norm(axis) < 1e-3:
        return
    R = dRFromAxisAndAngle(*axis, angle)
    noisy = R + np.random.default_rng(seed).normal(size=12) * 1e-4
    noisy[3::4] = 0
    out = om.dOrthogonalizeR(noisy).reshape(3, 4)[:, :3]
    n = noisy.reshape(3, 4)[:, :3]
    # rows 0 and 2 orthonormal; row 2 perpendicular to the given rows 0 and 1
    assert np.linalg.norm(out[0]) == pytest.approx(1.0, abs=1e-15)
    assert np.linalg.norm(out[2]) == pytest.approx(1.0, abs=1e-14)
    assert abs(out[0] @ out[2]) < 1e-14 and abs(n[1] @ out[2]) < 1e-12
    np.testing.assert_allclose(out, R.reshape(3, 4)[:, :3], atol=1e-3)


# --------------------------------------------------------------------------- small vector ops
@settings(deadline=None)  # the first call may compile numba kernels
@given(st.tuples(finite, finite, finite), st.tuples(finite, finite, finite))
def test_dot_and_cross(a, b):
    assert om.dCalcVectorDot3(a, b) == pytest.approx(float(np.dot(a, b)), abs=1e-9)
    np.testing.assert_allclose(om.dCalcVectorCross3(a, b), np.cross(a, b), atol=1e-9)
    assert om.dDot(a, b, 3) == pytest.approx(float(np.dot(a, b)), abs=1e-9)
    assert om.dDot(a, b, 2) == pytest.approx(a[0] * b[0] + a[1] * b[1], abs=1e-9)


def test_dot_edge_cases_and_constants():
    assert om.dDot([], [], 0) == 0.0
    with pytest.raises(ODEError, match="dDot"):
        om.dDot([1.0], [1.0], 2)
    with pytest.raises(ODEError, match="dDot: argument 'n'"):
        om.dDot([1.0], [1.0], "one")
    assert om.dInfinity == math.inf and om.M_PI == math.pi
    assert 1.0 + om.dEpsilon != 1.0 and 1.0 + om.dEpsilon / 2 == 1.0


def test_set_zero_set_value_scale():
    np.testing.assert_array_equal(om.dSetZero(3), np.zeros(3))
    np.testing.assert_array_equal(om.dSetValue(2, 7.5), [7.5, 7.5])
    a = np.array([1.0, 2.0, 3.0, 4.0])
    np.testing.assert_array_equal(om.dSetZero(a, 2), [0, 0, 3, 4])
    np.testing.assert_array_equal(a, [0, 0, 3, 4])  # in/out
    np.testing.assert_array_equal(om.dSetValue(a, 3, -1.0), [-1, -1, -1, 4])
    np.testing.assert_array_equal(om.dScaleVector([1.0, 2, 3], [2.0, 3, 4], 2), [2, 6, 3])
    np.testing.assert_array_equal(om.dVectorScale([1.0, 2, 3], [2.0, 3, 4], 3), [2, 6, 12])


# --------------------------------------------------------------------------- matrices
@pytest.mark.parametrize("p, q, r", [(1, 1, 1), (2, 3, 4), (5, 7, 3), (4, 4, 4), (3, 9, 6)])
def test_multiply_variants_and_layouts(p, q, r):
    rng = np.random.default_rng(p * 100 + q * 10 + r)
    B, C = rng.normal(size=(p, q)), rng.normal(size=(q, r))
    expected = B @ C
    # 2-D in -> 2-D out
    np.testing.assert_allclose(om.dMultiply0(B, C, p, q, r), expected, atol=1e-13)
    np.testing.assert_allclose(om.dMultiply1(B.T, C, p, q, r), expected, atol=1e-13)
    np.testing.assert_allclose(om.dMultiply2(B, C.T, p, q, r), expected, atol=1e-13)
    # C layout (rows padded to a multiple of 4) in -> C layout out
    out = om.dMultiply0(padded(B), padded(C), p, q, r)
    assert out.shape == (p * dpad(r),)
    np.testing.assert_allclose(unpad(out, p, r), expected, atol=1e-13)
    np.testing.assert_array_equal(out.reshape(p, -1)[:, r:], 0.0)
    # dense flat in -> dense flat out
    out = om.dMultiply0(B.reshape(-1), C.reshape(-1), p, q, r)
    np.testing.assert_allclose(out, expected.reshape(-1), atol=1e-13)


def test_matrix_argument_errors():
    with pytest.raises(ODEError, match="dMultiply0: argument 'B'"):
        om.dMultiply0(np.zeros(5), np.zeros((3, 3)), 2, 3, 3)
    with pytest.raises(ODEError, match="dMultiply0: argument 'C'"):
        om.dMultiply0(np.zeros((3, 3)), np.full((3, 3), np.nan), 3, 3, 3)
    with pytest.raises(ODEError, match="nskip"):
        om.dFactorLDLT(np.eye(4), 4, 3)
    with pytest.raises(ODEError, match="argument 'n'"):
        om.dFactorCholesky(np.eye(2), 0)


def test_cholesky_matches_ode():
    A = np.array([[4.0, 2, 1], [2, 5, 3], [1, 3, 6]])
    L = om.dFactorCholesky(padded(A), 3)
    # ODE 0.16.2 (upper triangle untouched)
    np.testing.assert_allclose(L, [2.0, 2.0, 1.0, 0.0, 1.0, 2.0, 3.0, 0.0,
                                   0.5, 1.25, 2.0463381929681126, 0.0], rtol=0, atol=1e-15)


@settings(max_examples=30, deadline=None)
@given(st.integers(1, 12), st.integers(0, 10 ** 6))
def test_cholesky_solve_and_inverse(n, seed):
    A = spd(n, seed)
    b = np.random.default_rng(seed + 1).normal(size=n)
    Ain = A.copy()
    L = om.dFactorCholesky(Ain, n)
    np.testing.assert_array_equal(Ain, L)  # in place too
    Ll = np.tril(L)
    np.testing.assert_allclose(Ll @ Ll.T, A, rtol=1e-12, atol=1e-12)
    np.testing.assert_array_equal(np.triu(L, 1), np.triu(A, 1))
    x = om.dSolveCholesky(L, b.copy(), n)
    np.testing.assert_allclose(x, np.linalg.solve(A, b), rtol=1e-10, atol=1e-12)
    inv = om.dInvertPDMatrix(padded(A), n)
    np.testing.assert_allclose(unpad(inv, n, n), np.linalg.inv(A), rtol=1e-10, atol=1e-12)
    np.testing.assert_array_equal(inv.reshape(n, -1)[:, n:], 0.0)
    assert om.dIsPositiveDefinite(A, n) == 1


def test_not_positive_definite():
    A = np.array([[1.0, 2.0], [2.0, 1.0]])
    before = A.copy()
    assert om.dFactorCholesky(A, 2) is None
    np.testing.assert_array_equal(A, before)  # untouched on failure
    assert om.dInvertPDMatrix(A, 2) is None
    assert om.dIsPositiveDefinite(A, 2) == 0
    assert om.dIsPositiveDefinite(-np.eye(3), 3) == 0
    # only the lower triangle is read
    assert om.dIsPositiveDefinite([[1.0, 99.0], [0.0, 1.0]], 2) == 1


def test_ldlt_matches_ode():
    A = padded(np.array([[4.0, 2, 1], [2, 5, 3], [1, 3, 6]]))
    L, d = om.dFactorLDLT(A, 3, 4)
    # ODE 0.16.2: L in the strict lower triangle, diagonal/upper untouched, d = 1/D
    np.testing.assert_allclose(L, [4.0, 2.0, 1.0, 0.0, 0.5, 5.0, 3.0, 0.0,
                                   0.25, 0.625, 6.0, 0.0], rtol=0, atol=1e-15)
    np.testing.assert_allclose(d, [0.25, 0.25, 0.23880597014925373], rtol=0, atol=1e-15)


@settings(max_examples=30, deadline=None)
@given(st.integers(1, 12), st.integers(0, 10 ** 6))
def test_ldlt_factor_and_solves(n, seed):
    A = spd(n, seed)
    b = np.random.default_rng(seed + 7).normal(size=n)
    nskip = dpad(n)
    L, d = om.dFactorLDLT(padded(A), n, nskip)
    Lm = np.tril(unpad(L, n, n), -1) + np.eye(n)
    np.testing.assert_allclose(Lm @ np.diag(1.0 / d) @ Lm.T, A, rtol=1e-12, atol=1e-12)
    np.testing.assert_array_equal(np.diag(unpad(L, n, n)), np.diag(A))
    # (b is in/out: pass copies)
    np.testing.assert_allclose(om.dSolveLDLT(L, d, b.copy(), n, nskip), np.linalg.solve(A, b),
                               rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(om.dSolveL1(L, b.copy(), n, nskip), np.linalg.solve(Lm, b),
                               rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(om.dSolveL1T(L, b.copy(), n, nskip), np.linalg.solve(Lm.T, b),
                               rtol=1e-10, atol=1e-12)


def test_ldlt_singular_raises():
    with pytest.raises(ODEError, match="dFactorLDLT"):
        om.dFactorLDLT(np.zeros((2, 2)), 2, 2)


@settings(max_examples=30, deadline=None)
@given(st.integers(2, 10), st.integers(0, 10 ** 6))
def test_ldlt_add_tl(n, seed):
    rng = np.random.default_rng(seed)
    A = spd(n, seed)
    a = rng.normal(size=n) * 0.3
    L, d = om.dFactorLDLT(A.copy(), n, n)
    L2, d2 = om.dLDLTAddTL(L.copy(), d.copy(), a, n, n)
    # the updated matrix, and its factors computed from scratch
    U = np.zeros((n, n))
    U[0, 0] = a[0]
    U[1:, 0] = U[0, 1:] = a[1:]
    Lr, dr = om.dFactorLDLT(A + U, n, n)
    # all but the first column of L and d[0] match; those are left as they were
    np.testing.assert_allclose(np.tril(L2, -1)[:, 1:], np.tril(Lr, -1)[:, 1:], atol=1e-10)
    np.testing.assert_allclose(d2[1:], dr[1:], rtol=1e-10)
    np.testing.assert_array_equal(L2[:, 0], L[:, 0])
    assert d2[0] == d[0]


@settings(max_examples=30, deadline=None)
@given(st.integers(1, 9), st.integers(0, 10 ** 6))
def test_ldlt_remove(n2, seed):
    rng = np.random.default_rng(seed)
    n1 = n2 + 2
    A = spd(n1, seed)
    p = rng.permutation(n1)[:n2]
    Ap = A[np.ix_(p, p)]
    L, d = om.dFactorLDLT(Ap.copy(), n2, n2)
    for r in range(n2):
        L2, d2 = om.dLDLTRemove([list(row) for row in A], p, L.copy(), d.copy(), n1, n2, r, n1)
        keep = [i for i in range(n2) if i != r]
        if len(keep) == 0:
            continue
        Lr, dr = om.dFactorLDLT(Ap[np.ix_(keep, keep)].copy(), n2 - 1, n2 - 1)
        k = n2 - 1
        np.testing.assert_allclose(np.tril(L2[:k, :k], -1), np.tril(Lr, -1), atol=1e-10)
        np.testing.assert_allclose(d2[:k], dr, rtol=1e-10)


def test_remove_row_col():
    A = np.arange(25.0).reshape(5, 5)
    out = om.dRemoveRowCol(A.copy(), 5, 5, 1)
    keep = [0, 2, 3, 4]
    np.testing.assert_array_equal(out[:4, :4], A[np.ix_(keep, keep)])
    # the last row and column are left as they were
    np.testing.assert_array_equal(out[4], A[4])
    np.testing.assert_array_equal(out[:, 4], A[:, 4])
    flat = padded(A)
    res = om.dRemoveRowCol(flat, 5, 8, 0)
    np.testing.assert_array_equal(unpad(res, 5, 5)[:4, :4], A[1:, 1:])
    np.testing.assert_array_equal(flat, res)  # in/out
    with pytest.raises(ODEError, match="dRemoveRowCol: argument 'r'"):
        om.dRemoveRowCol(A, 5, 5, 5)


# --------------------------------------------------------------------------- misc.h
def test_random_vector_and_matrix_match_ode():
    dRandSetSeed(12345)
    v = om.dMakeRandomVector(5, 2.5)
    # ODE 0.16.2 after dRandSetSeed(12345)
    np.testing.assert_array_equal(v, [-2.3979865712807484, -2.417260758792344,
                                      0.2157789731202131, 0.67452028118412, 2.0501475698664198])
    dRandSetSeed(12345)
    M = om.dMakeRandomMatrix(1, 5, 2.5)
    assert M.shape == (1, 5)
    np.testing.assert_array_equal(M[0], v)
    dRandSetSeed(3)
    M = om.dMakeRandomMatrix(4, 3, 1.0)
    assert M.shape == (4, 3) and np.abs(M).max() <= 1.0


def test_max_difference_and_clear_upper():
    A = np.arange(12.0).reshape(3, 4)
    B = A.copy()
    B[0, 3] = 100.0
    B[2, 0] = 5.0
    assert om.dMaxDifference(A, B, 3, 4) == 97.0
    assert om.dMaxDifference(A, B, 3, 3) == 3.0
    S = np.arange(9.0).reshape(3, 3)
    T = S.copy()
    T[0, 2] = 50.0
    T[2, 1] = 10.0
    assert om.dMaxDifferenceLowerTriangle(S, T, 3) == 3.0
    C = om.dClearUpperTriangle(S, 3)
    np.testing.assert_array_equal(C, np.tril(np.arange(9.0).reshape(3, 3)))
    np.testing.assert_array_equal(S, C)  # in/out
