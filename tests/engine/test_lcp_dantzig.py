"""Tests of the exact boxed LCP solver (ODE's Dantzig pivoting, dSolveLCP)."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.ode.solvers.lcp_dantzig import solve_boxed_lcp, solve_lcp
from engine.ode.solvers.lcp_ldlt import factor_leading_block, remove_row, solve_factored

INF = np.inf
SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


# ---------------------------------------------------------------------------
# Problem generators and independent checks
# ---------------------------------------------------------------------------


def random_spd(rng: np.random.Generator, n: int, shift: float = 0.1) -> np.ndarray:
    """A random symmetric positive definite (n, n) matrix."""
    m = rng.standard_normal((n, n))
    return m @ m.T / n + shift * np.eye(n)


def random_sparse_spd(rng: np.random.Generator, n: int, cfm: float = 1e-3) -> np.ndarray:
    """J M^-1 J' + cfm I for rows coupling one or two of n // 3 + 2 "bodies"
    (3 coordinates each), like constraint rows: sparse, with zero envelopes."""
    nbody = n // 3 + 2
    J = np.zeros((n, 3 * nbody))
    for i in range(n):
        for body in rng.choice(nbody, size=rng.integers(1, 3), replace=False):
            J[i, 3 * body : 3 * body + 3] = rng.standard_normal(3)
    return J @ J.T + cfm * np.eye(n)


def banded_spd(rng: np.random.Generator, n: int, band: int) -> np.ndarray:
    """A random positive definite matrix with the given half bandwidth."""
    m = np.triu(np.tril(rng.standard_normal((n, n)), band), -band)
    return m @ m.T + 0.1 * np.eye(n)


def random_bounds(rng: np.random.Generator, n: int) -> tuple[np.ndarray, np.ndarray]:
    """Bounds lo <= 0 <= hi of every kind ODE meets: one-sided, boxed, 0-width, free."""
    lo = np.empty(n)
    hi = np.empty(n)
    for i in range(n):
        kind = rng.integers(7)
        a, c = rng.uniform(0.05, 2.0, size=2)
        kinds = [(0, INF), (-INF, 0), (-a, c), (0, 0), (-INF, INF), (-a, INF), (0, c)]
        lo[i], hi[i] = kinds[kind]
    return lo, hi


def assert_lcp(A, b, lo, hi, x, w, tol=1e-8):
    """A x = b + w, lo <= x <= hi and complementarity, all within tol (relative)."""
    scale = 1.0 + np.abs(b).max(initial=0.0) + np.abs(A).max() * np.abs(x).max(initial=0.0)
    t = tol * scale
    assert np.all(np.isfinite(x)) and np.all(np.isfinite(w))
    assert np.abs(A @ x - b - w).max(initial=0.0) <= t
    assert np.all(x >= lo - t) and np.all(x <= hi + t)
    at_lo = x <= lo + t
    at_hi = x >= hi - t
    inside = ~at_lo & ~at_hi
    assert np.all(w[at_lo & ~at_hi] >= -t)
    assert np.all(w[at_hi & ~at_lo] <= t)
    assert np.all(np.abs(w[inside]) <= t)


def brute_force(A, b, lo, hi, tol=1e-9):
    """Solve the box LCP of a positive definite A by trying every active set (n <= 7)."""
    n = len(b)
    choices = []
    for i in range(n):
        c = []
        if lo[i] == hi[i]:
            c.append(3)  # 0-width: x fixed, w of either sign
        else:
            if lo[i] > -INF:
                c.append(0)
            if hi[i] < INF:
                c.append(1)
            c.append(2)
        choices.append(c)
    for states in itertools.product(*choices):
        states = np.array(states)
        x = np.where(states == 0, lo, np.where(states == 1, hi, 0.0))  # 3: lo = hi = 0
        x[~np.isfinite(x)] = 0.0
        free = states == 2
        if free.any():
            rhs = b[free] - A[np.ix_(free, ~free)] @ x[~free]
            x[free] = np.linalg.solve(A[np.ix_(free, free)], rhs)
        w = A @ x - b
        t = tol * (1 + np.abs(b).max() + np.abs(x).max())
        ok = (
            np.all(x[free] >= lo[free] - t)
            and np.all(x[free] <= hi[free] + t)
            and np.all(w[states == 0] >= -t)
            and np.all(w[states == 1] <= t)
        )
        if ok:
            return x
    raise AssertionError("brute force found no solution")


def projected_gauss_seidel(A, b, lo, hi, tol=1e-14, max_sweeps=200_000):
    """Reference for larger problems: projected Gauss-Seidel run to convergence."""
    n = len(b)
    x = np.clip(np.zeros(n), lo, hi)
    for _ in range(max_sweeps):
        change = 0.0
        for i in range(n):
            xi = x[i] - (A[i] @ x - b[i]) / A[i, i]
            xi = min(max(xi, lo[i]), hi[i])
            change = max(change, abs(xi - x[i]))
            x[i] = xi
        if change < tol:
            return x
    raise AssertionError("projected Gauss-Seidel did not converge")


def friction_reference(A, b, lo, hi, findex, solver):
    """ODE's friction semantics with a reference solver.

    The rows without findex are solved on their own (the friction rows at 0),
    then each friction row gets bounds +-|hi * x_normal| and the whole problem
    is solved with those fixed bounds.  Returns (x, lo_eff, hi_eff).
    """
    normal = findex < 0
    sub = solver(A[np.ix_(normal, normal)], b[normal], lo[normal], hi[normal])
    x1 = np.zeros(len(b))
    x1[normal] = sub
    lo2, hi2 = lo.copy(), hi.copy()
    for k in np.flatnonzero(~normal):
        f = x1[findex[k]]
        hi2[k] = 0.0 if f == 0.0 else abs(hi[k] * f)
        lo2[k] = -hi2[k]
    return solver(A, b, lo2, hi2), lo2, hi2


def random_contacts(rng, n_unbounded, n_contacts, mu_inf=False):
    """Rows: n_unbounded free rows, then per contact normal + 2 friction rows."""
    n = n_unbounded + 3 * n_contacts
    lo = np.full(n, -INF)
    hi = np.full(n, INF)
    findex = np.full(n, -1, dtype=np.int32)
    for c in range(n_contacts):
        k = n_unbounded + 3 * c
        lo[k], hi[k] = 0.0, INF
        mu = INF if mu_inf else rng.uniform(0.1, 1.5)
        for f in (k + 1, k + 2):
            lo[f], hi[f] = -mu, mu
            findex[f] = k
    return lo, hi, findex


def run_kernel(A, b, lo, hi, nub=0, findex=None):
    """Call the kernel directly; return (ok, x, w, lo_used, hi_used, b_after, findex_after)."""
    n = len(b)
    fidx = np.full(n, -1, np.int32) if findex is None else np.array(findex, np.int32)
    x, w = np.zeros(n), np.zeros(n)
    b2, lo2, hi2 = b.copy(), lo.copy(), hi.copy()
    ok = solve_boxed_lcp(n, A.copy(), x, b2, w, nub, lo2, hi2, fidx)
    return ok, x, w, lo2, hi2, b2, fidx


# ---------------------------------------------------------------------------
# The factorization kernels
# ---------------------------------------------------------------------------


def ldlt_product(L, lstart, diag, m):
    """L D L' from the kernels' storage (entries before lstart are not stored)."""
    full = np.eye(m)
    for k in range(m):
        full[k, lstart[k] : k] = L[k, lstart[k] : k]
    return full @ np.diag(diag[:m]) @ full.T


@settings(max_examples=40, deadline=None)
@given(n=st.integers(1, 30), seed=st.integers(0, 2**32 - 1), kind=st.integers(0, 2))
def test_ldlt_factor_solve_and_remove(n, seed, kind):
    rng = np.random.default_rng(seed)
    A = [random_spd(rng, n), random_sparse_spd(rng, n), banded_spd(rng, n, 2)][kind]
    L = np.full((n, n), np.nan)  # entries the kernels must never read
    lstart = np.zeros(n, np.int64)
    diag, dinv, s1, s2 = np.zeros(n), np.zeros(n), np.zeros(n), np.zeros(n)
    factor_leading_block(A, n, L, lstart, diag, dinv, s1, s2)
    np.testing.assert_allclose(ldlt_product(L, lstart, diag, n), A, atol=1e-10)
    y = rng.standard_normal(n)
    expected = np.linalg.solve(A, y)
    solve_factored(L, lstart, dinv, n, y)
    np.testing.assert_allclose(y, expected, rtol=1e-8, atol=1e-8)
    # Delete random positions one after the other.
    keep = list(range(n))
    for m in range(n, 1, -1):
        r = int(rng.integers(m))
        remove_row(L, lstart, diag, dinv, m, r, s1, s2)
        del keep[r]
        sub = A[np.ix_(keep, keep)]
        np.testing.assert_allclose(ldlt_product(L, lstart, diag, m - 1), sub, atol=1e-9)
        np.testing.assert_allclose(dinv[: m - 1], 1.0 / diag[: m - 1])


# ---------------------------------------------------------------------------
# Unbounded problems
# ---------------------------------------------------------------------------


@SETTINGS
@given(n=st.integers(1, 40), seed=st.integers(0, 2**32 - 1), by_nub=st.booleans())
def test_unbounded_equals_linear_solve(n, seed, by_nub):
    rng = np.random.default_rng(seed)
    A = random_spd(rng, n)
    b = rng.standard_normal(n)
    lo, hi = np.full(n, -INF), np.full(n, INF)
    # Either declared by nub or found by the solver from the infinite bounds.
    x, w = solve_lcp(A, b, lo, hi, nub=n if by_nub else 0)
    np.testing.assert_allclose(x, np.linalg.solve(A, b), rtol=1e-9, atol=1e-9)
    np.testing.assert_array_equal(w, 0.0)


# ---------------------------------------------------------------------------
# Random bounded problems against references
# ---------------------------------------------------------------------------


@SETTINGS
@given(n=st.integers(1, 6), seed=st.integers(0, 2**32 - 1), data=st.data())
def test_matches_brute_force(n, seed, data):
    rng = np.random.default_rng(seed)
    A = random_spd(rng, n)
    b = 2.0 * rng.standard_normal(n)
    lo, hi = random_bounds(rng, n)
    nub = data.draw(st.integers(0, n))
    lo[:nub], hi[:nub] = -INF, INF
    x, w = solve_lcp(A, b, lo, hi, nub=nub)
    assert_lcp(A, b, lo, hi, x, w)
    np.testing.assert_allclose(x, brute_force(A, b, lo, hi), atol=1e-8)


@settings(max_examples=25, deadline=None)
@given(n=st.integers(7, 30), seed=st.integers(0, 2**32 - 1))
def test_matches_projected_gauss_seidel(n, seed):
    rng = np.random.default_rng(seed)
    A = random_spd(rng, n, shift=1.0)
    b = 2.0 * rng.standard_normal(n)
    lo, hi = random_bounds(rng, n)
    x, w = solve_lcp(A, b, lo, hi)
    assert_lcp(A, b, lo, hi, x, w)
    np.testing.assert_allclose(x, projected_gauss_seidel(A, b, lo, hi), atol=1e-9)


@settings(max_examples=20, deadline=None)
@given(n=st.integers(50, 200), seed=st.integers(0, 2**32 - 1), data=st.data())
def test_larger_problems_satisfy_lcp(n, seed, data):
    rng = np.random.default_rng(seed)
    A = random_spd(rng, n, shift=1e-3)
    b = rng.standard_normal(n)
    lo, hi = random_bounds(rng, n)
    nub = data.draw(st.integers(0, n // 2))
    lo[:nub], hi[:nub] = -INF, INF
    ok, x, w, *_ = run_kernel(A, b, lo, hi, nub)
    assert ok
    assert_lcp(A, b, lo, hi, x, w, tol=1e-7)


@settings(max_examples=40, deadline=None)
@given(n=st.integers(5, 40), seed=st.integers(0, 2**32 - 1), banded=st.booleans())
def test_sparse_problems_match_projected_gauss_seidel(n, seed, banded):
    # Sparse matrices exercise the envelope (skipped leading zeros) paths.
    rng = np.random.default_rng(seed)
    A = banded_spd(rng, n, int(rng.integers(1, 4))) if banded else random_sparse_spd(rng, n, 0.3)
    b = 2.0 * rng.standard_normal(n)
    lo, hi = random_bounds(rng, n)
    x, w = solve_lcp(A, b, lo, hi)
    assert_lcp(A, b, lo, hi, x, w)
    np.testing.assert_allclose(x, projected_gauss_seidel(A, b, lo, hi), atol=1e-8)


def test_only_lower_triangle_is_read():
    rng = np.random.default_rng(7)
    n = 25
    A = random_spd(rng, n)
    b = rng.standard_normal(n)
    lo, hi = random_bounds(rng, n)
    garbage = A + np.triu(rng.standard_normal((n, n)) * 1e3, k=1)
    x1, w1 = solve_lcp(A, b, lo, hi, nub=3)
    x2, w2 = solve_lcp(garbage, b, lo, hi, nub=3)
    np.testing.assert_array_equal(x1, x2)
    np.testing.assert_array_equal(w1, w2)


# ---------------------------------------------------------------------------
# Friction index
# ---------------------------------------------------------------------------


@SETTINGS
@given(
    n_unb=st.integers(0, 1),
    n_contacts=st.integers(1, 2),
    seed=st.integers(0, 2**32 - 1),
    mu_inf=st.booleans(),
)
def test_friction_matches_two_stage_brute_force(n_unb, n_contacts, seed, mu_inf):
    rng = np.random.default_rng(seed)
    n = n_unb + 3 * n_contacts
    A = random_spd(rng, n)
    b = 2.0 * rng.standard_normal(n)
    lo, hi, findex = random_contacts(rng, n_unb, n_contacts, mu_inf)
    ok, x, w, lo_used, hi_used, b_after, f_after = run_kernel(A, b, lo, hi, n_unb, findex)
    assert ok
    x_ref, lo_ref, hi_ref = friction_reference(A, b, lo, hi, findex, brute_force)
    np.testing.assert_allclose(lo_used, lo_ref, atol=1e-9)
    np.testing.assert_allclose(hi_used, hi_ref, atol=1e-9)
    np.testing.assert_allclose(x, x_ref, atol=1e-8)
    assert_lcp(A, b, lo_used, hi_used, x, w)
    # b and findex come back in their original order.
    np.testing.assert_array_equal(b_after, b)
    np.testing.assert_array_equal(f_after, findex)


@settings(max_examples=20, deadline=None)
@given(n_contacts=st.integers(3, 10), seed=st.integers(0, 2**32 - 1))
def test_friction_matches_two_stage_gauss_seidel(n_contacts, seed):
    rng = np.random.default_rng(seed)
    n_unb = int(rng.integers(0, 4))
    n = n_unb + 3 * n_contacts
    A = random_spd(rng, n, shift=1.0)
    b = 2.0 * rng.standard_normal(n)
    lo, hi, findex = random_contacts(rng, n_unb, n_contacts)
    # Interleave the rows so that friction rows are not already last.
    order = rng.permutation(n)
    inverse = np.argsort(order)
    A, b, lo, hi = A[np.ix_(order, order)], b[order], lo[order], hi[order]
    findex = np.where(findex[order] >= 0, inverse[np.maximum(findex[order], 0)], -1)
    ok, x, w, lo_used, hi_used, *_ = run_kernel(A, b, lo, hi, 0, findex)
    assert ok
    x_ref, lo_ref, hi_ref = friction_reference(A, b, lo, hi, findex, projected_gauss_seidel)
    np.testing.assert_allclose(hi_used, hi_ref, atol=1e-9)
    np.testing.assert_allclose(x, x_ref, atol=1e-9)
    assert_lcp(A, b, lo_used, hi_used, x, w)


def test_zero_normal_force_gives_zero_friction():
    # The normal row is pushed apart (b < 0): its force is 0, so even an
    # infinite friction coefficient gives 0-width friction bounds.
    A = np.array([[2.0, 0.3, 0.1], [0.3, 1.0, 0.2], [0.1, 0.2, 1.0]])
    b = np.array([-1.0, 5.0, -4.0])
    ok, x, w, lo_used, hi_used, *_ = run_kernel(
        A, b, np.array([0.0, -INF, -INF]), np.array([INF, INF, INF]), 0, [-1, 0, 0]
    )
    assert ok
    np.testing.assert_array_equal(x, 0.0)
    np.testing.assert_array_equal(lo_used[1:], 0.0)
    np.testing.assert_array_equal(hi_used[1:], 0.0)
    np.testing.assert_allclose(w, -b)


# ---------------------------------------------------------------------------
# A box on a plane (one rigid body, contact rows as ODE builds them)
# ---------------------------------------------------------------------------


def box_on_plane(points, mu, cfm, force=(0.0, 0.0, 0.0), mass=2.0, g=9.81):
    """LCP of a unit cube resting on z = 0 at the given contact points.

    Rows per contact: normal (lo 0, hi inf) then two friction rows along x
    and y (hi = mu, findex -> normal).  A = J M^-1 J' + cfm I and
    b = -J M^-1 f_ext: the constraint forces that cancel the acceleration.
    """
    inv_m = np.diag([1 / mass] * 3 + [6.0 / mass] * 3)
    rows, lo, hi, findex = [], [], [], []
    for p in points:
        r = np.asarray(p, dtype=float)
        base = len(rows)
        for k, d in enumerate(np.eye(3)[[2, 0, 1]]):
            rows.append(np.concatenate([d, np.cross(r, d)]))
            lo.append(0.0 if k == 0 else -mu)
            hi.append(INF if k == 0 else mu)
            findex.append(-1 if k == 0 else base)
    J = np.array(rows)
    f_ext = np.array([force[0], force[1], force[2] - mass * g, 0.0, 0.0, 0.0])
    A = J @ inv_m @ J.T + cfm * np.eye(len(rows))
    b = -J @ inv_m @ f_ext
    return A, b, np.array(lo), np.array(hi), np.array(findex, dtype=np.int32)


CORNERS = [(-0.5, -0.5, -0.5), (0.5, -0.5, -0.5), (0.5, 0.5, -0.5), (-0.5, 0.5, -0.5)]


def test_box_resting_on_plane_has_equal_normal_forces():
    A, b, lo, hi, findex = box_on_plane(CORNERS, mu=0.5, cfm=1e-5)
    ok, x, w, lo_used, hi_used, *_ = run_kernel(A, b, lo, hi, 0, findex)
    assert ok
    normals = x[0::3]
    np.testing.assert_allclose(normals, normals.mean(), rtol=1e-9)
    # The weight, up to the softening by the CFM.
    assert normals.sum() == pytest.approx(2.0 * 9.81, rel=1e-4)
    np.testing.assert_allclose(normals, np.linalg.solve(A[::3, ::3], b[::3]), rtol=1e-9)
    np.testing.assert_allclose(x[1::3], 0.0, atol=1e-9)
    np.testing.assert_allclose(x[2::3], 0.0, atol=1e-9)
    assert_lcp(A, b, lo_used, hi_used, x, w)


@pytest.mark.parametrize("push", [3.0, 20.0])
def test_box_pushed_sideways(push):
    # Friction holds a push below mu * m * g and saturates above it.
    mu, mass, g = 0.5, 2.0, 9.81
    A, b, lo, hi, findex = box_on_plane(CORNERS, mu=mu, cfm=1e-5, force=(push, 0, 0))
    ok, x, w, lo_used, hi_used, *_ = run_kernel(A, b, lo, hi, 0, findex)
    assert ok
    assert_lcp(A, b, lo_used, hi_used, x, w)
    np.testing.assert_allclose(hi_used[1::3], mu * mass * g / 4, rtol=1e-4)  # CFM
    friction_x = x[1::3].sum()
    if push < mu * mass * g:
        assert friction_x == pytest.approx(-push, rel=1e-4)
    else:
        np.testing.assert_allclose(x[1::3], -hi_used[1::3], rtol=1e-12)
        assert np.all(w[1::3] > 0)  # still accelerating along +x


def test_chain_of_ball_joints_is_banded_and_exact():
    # 3 rows per joint between neighbouring bodies: all unbounded.
    rng = np.random.default_rng(11)
    nb = 60
    J = np.zeros((3 * (nb - 1), 6 * nb))
    for k in range(nb - 1):
        J[3 * k : 3 * k + 3, 6 * k : 6 * k + 6] = rng.standard_normal((3, 6))
        J[3 * k : 3 * k + 3, 6 * k + 6 : 6 * k + 12] = rng.standard_normal((3, 6))
    A = J @ J.T + 1e-5 * np.eye(len(J))
    b = rng.standard_normal(len(J))
    n = len(b)
    x, w = solve_lcp(A, b, np.full(n, -INF), np.full(n, INF), nub=n)
    np.testing.assert_allclose(A @ x, b, atol=1e-9)


@pytest.mark.parametrize("copies", [1, 2, 3])
def test_degenerate_redundant_contacts_terminate(copies):
    # 4 coplanar contacts (rank 3 normal block), optionally duplicated, with
    # a tiny CFM: A is nearly singular; the solver must finish within bounds.
    A, b, lo, hi, findex = box_on_plane(CORNERS * copies, mu=0.8, cfm=1e-10)
    ok, x, w, lo_used, hi_used, *_ = run_kernel(A, b, lo, hi, 0, findex)
    assert np.all(np.isfinite(x)) and np.all(np.isfinite(w))
    assert np.all(x >= lo_used - 1e-9) and np.all(x <= hi_used + 1e-9)
    if ok:
        assert x[0::3].sum() == pytest.approx(2.0 * 9.81, rel=1e-6)  # CFM effect ~1e-9
        assert np.abs(A @ x - b - w).max() < 1e-6


@settings(max_examples=30, deadline=None)
@given(n=st.integers(4, 60), rank=st.integers(1, 12), seed=st.integers(0, 2**32 - 1))
def test_rank_deficient_random_terminates(n, rank, seed):
    rng = np.random.default_rng(seed)
    J = rng.standard_normal((n, min(rank, n)))
    A = J @ J.T + 1e-10 * np.eye(n)
    b = rng.standard_normal(n)
    lo, hi = random_bounds(rng, n)
    ok, x, w, *_ = run_kernel(A, b, lo, hi)
    assert np.all(x >= lo - 1e-9) and np.all(x <= hi + 1e-9)
    assert not np.any(np.isnan(x))


# ---------------------------------------------------------------------------
# Failure paths
# ---------------------------------------------------------------------------


def test_infeasible_problem_stops_like_ode():
    # A singular, no solution: x0 >= x1 and x1 >= x0 + 1.  ODE hits a zero
    # step ("LCP internal error, s <= 0"), keeps what it solved, zeroes the rest.
    A = np.array([[1.0, -1.0], [-1.0, 1.0]])
    b = np.array([0.0, 1.0])
    lo, hi = np.zeros(2), np.full(2, INF)
    ok, x, w, *_ = run_kernel(A, b, lo, hi)
    assert not ok
    np.testing.assert_array_equal(x, 0.0)
    with pytest.warns(RuntimeWarning, match="LCP"):
        solve_lcp(A, b, lo, hi)


def test_nan_input_terminates():
    rng = np.random.default_rng(3)
    n = 12
    A = random_spd(rng, n)
    b = rng.standard_normal(n)
    b[4] = np.nan
    lo, hi = random_bounds(rng, n)
    ok, x, w, *_ = run_kernel(A, b, lo, hi)
    assert x.shape == (n,)


def test_wrapper_validates_and_copies():
    A = np.array([[2.0, 0.5], [0.5, 1.0]])
    b = np.array([1.0, -1.0])
    lo, hi = np.array([0.0, -1.0]), np.array([INF, 1.0])
    saved = [a.copy() for a in (A, b, lo, hi)]
    x, w = solve_lcp(A, b, lo, hi)
    for a, s in zip((A, b, lo, hi), saved, strict=True):
        np.testing.assert_array_equal(a, s)
    assert_lcp(A, b, lo, hi, x, w)
    with pytest.raises(ValueError):
        solve_lcp(A, b, lo, hi, findex=[-1, 5])
    with pytest.raises(ValueError):
        solve_lcp(A[:1], b, lo, hi)
