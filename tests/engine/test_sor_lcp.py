"""Tests of the QuickStep SOR-LCP kernel (engine/ode/solvers/sor_lcp.py).

References used here are independent of the kernel: dense matrices built
with numpy (``A = J M^-1 J^T + diag(cfm / h)``), ``numpy.linalg.solve``,
a plain dense projected Gauss-Seidel, KKT checks, a pure-Python LCG for the
random generator and, when the system's ``libode`` (0.16.2, double) is
present, ODE itself through ctypes.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.ode.kernels.bundles import Bodies, Rows, StepConfig
from engine.ode.rng import rand_int
from engine.ode.solvers.sor_lcp import _reshuffled_records, sor_lcp, sor_work_size

INF = np.inf


@dataclass
class System:
    """One island: rows, bodies (global arrays of size N) and step data."""

    J: np.ndarray
    jb: np.ndarray
    c: np.ndarray
    cfm: np.ndarray
    lo: np.ndarray
    hi: np.ndarray
    findex: np.ndarray
    bodies: np.ndarray
    invmass: np.ndarray
    invI: np.ndarray
    lvel: np.ndarray
    avel: np.ndarray
    facc: np.ndarray
    tacc: np.ndarray
    h: float

    @property
    def m(self) -> int:
        return len(self.c)


def run(s: System, iterations: int, sor_w: float = 1.0, seed: int = 0,
        lam0: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray, int]:
    """Call the kernel; return (lam, cforce, final rng state)."""
    state = np.array([seed], dtype=np.uint64)
    lam = np.zeros(s.m) if lam0 is None else np.array(lam0, dtype=np.float64)
    cforce = np.full((len(s.invmass), 6), 7.0)  # garbage the kernel must overwrite
    work = np.empty(sor_work_size(s.m, len(s.bodies)))
    sor_lcp(*kernel_args(s, iterations, sor_w), state, lam, cforce, work)
    return lam, cforce, int(state[0])


def kernel_args(s: System, iterations: int, sor_w: float) -> tuple:
    """sor_lcp's (rows, jb, seg, bodies, body state, invI, config) for system ``s``
    (one island of all its rows)."""
    n = len(s.invmass)
    state = Bodies(np.zeros((n, 3)), np.zeros((n, 3, 3)), np.zeros((n, 4)), s.lvel, s.avel,
                   s.facc, s.tacc, s.invmass)
    config = StepConfig(True, False, s.h, iterations, sor_w, np.zeros(3))
    seg = np.array([0, s.J.shape[0]], dtype=np.int64)
    return (Rows(s.J, s.c, s.cfm, s.lo, s.hi, s.findex), s.jb, seg, s.bodies, state, s.invI,
            config)


# ---------------------------------------------------------------- references


def dense(s: System) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Dense (Jg, A, b) in generalised coordinates (6 per global body)."""
    n = len(s.invmass)
    Jg = np.zeros((s.m, 6 * n))
    for r in range(s.m):
        b1, b2 = s.jb[r]
        Jg[r, 6 * b1:6 * b1 + 6] += s.J[r, :6]
        if b2 >= 0:
            Jg[r, 6 * b2:6 * b2 + 6] += s.J[r, 6:]
    Minv = np.zeros((6 * n, 6 * n))
    for b in range(n):
        Minv[6 * b:6 * b + 3, 6 * b:6 * b + 3] = s.invmass[b] * np.eye(3)
        Minv[6 * b + 3:6 * b + 6, 6 * b + 3:6 * b + 6] = s.invI[b]
    v = np.hstack([s.lvel, s.avel]).reshape(-1)
    f = np.hstack([s.facc, s.tacc]).reshape(-1)
    A = Jg @ Minv @ Jg.T + np.diag(s.cfm / s.h)
    b = s.c / s.h - Jg @ (v / s.h + Minv @ f)
    return Jg, A, b


def bounds_of(s: System, lam: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    lo, hi = s.lo.copy(), s.hi.copy()
    dep = s.findex >= 0
    hi[dep] = np.abs(s.hi[dep] * lam[s.findex[dep]])
    lo[dep] = -hi[dep]
    return lo, hi


def dense_pgs(s: System, sweeps: int = 200000, tol: float = 1e-15) -> np.ndarray:
    """Plain projected Gauss-Seidel on the dense system, rows in index order."""
    _, A, b = dense(s)
    lam = np.zeros(s.m)
    for _ in range(sweeps):
        prev = lam.copy()
        for r in range(s.m):
            lo, hi = bounds_of(s, lam)
            x = lam[r] + (b[r] - A[r] @ lam) / A[r, r]
            lam[r] = min(max(x, lo[r]), hi[r])
        if np.max(np.abs(lam - prev)) <= tol * (1.0 + np.max(np.abs(lam))):
            break
    return lam


def kkt_violation(s: System, lam: np.ndarray) -> float:
    """Largest violation of the boxed complementarity conditions (scaled)."""
    _, A, b = dense(s)
    w = A @ lam - b
    lo, hi = bounds_of(s, lam)
    scale = 1.0 + np.max(np.abs(b))
    err = 0.0
    for r in range(s.m):
        at_lo = lam[r] <= lo[r] + 1e-9 * scale
        at_hi = lam[r] >= hi[r] - 1e-9 * scale
        if at_lo and at_hi:
            continue
        if at_lo:
            err = max(err, -w[r])
        elif at_hi:
            err = max(err, w[r])
        else:
            err = max(err, abs(w[r]))
    return err / scale


def lcg_advance(seed: int, draws: int) -> int:
    for _ in range(draws):
        seed = (1664525 * seed + 1013904223) & 0xFFFFFFFF
    return seed


def expected_draws(m: int, iterations: int) -> int:
    """ODE reshuffles before sweeps 8, 16, ... with m - 1 draws each."""
    if iterations == 0 or m == 0:
        return 0
    return max(m - 1, 0) * ((iterations - 1) // 8)


def reference_quickstep(s: System, iterations: int, sor_w: float, seed: int,
                        reshuffle: bool = True) -> np.ndarray:
    """Dense restatement of QuickStep's sweep schedule (order, reshuffles, SOR)."""
    _, A, b = dense(s)
    state = np.array([seed], dtype=np.uint64)
    order = [r for r in range(s.m) if s.findex[r] < 0] + [r for r in range(s.m) if s.findex[r] >= 0]
    lam = np.zeros(s.m)
    for it in range(iterations):
        if reshuffle and it >= 8 and it % 8 == 0:
            for k in range(1, s.m):
                j = rand_int(state, k + 1)
                order[k], order[j] = order[j], order[k]
        for r in order:
            lo, hi = bounds_of(s, lam)
            x = lam[r] + sor_w * (b[r] - A[r] @ lam) / A[r, r]
            lam[r] = min(max(x, lo[r]), hi[r])
    return lam


# ---------------------------------------------------------------- systems


def skew(a: np.ndarray) -> np.ndarray:
    return np.array([[0.0, -a[2], a[1]], [a[2], 0.0, -a[0]], [-a[1], a[0], 0.0]])


def rotation(rng: np.random.Generator) -> np.ndarray:
    q, r = np.linalg.qr(rng.normal(size=(3, 3)))
    return q * np.sign(np.diag(r))


def body_arrays(n: int, rng: np.random.Generator) -> dict:
    invI = np.empty((n, 3, 3))
    for b in range(n):
        R = rotation(rng)
        invI[b] = R @ np.diag(1.0 / rng.uniform(0.05, 1.0, 3)) @ R.T
    return {"invmass": 1.0 / rng.uniform(0.5, 3.0, n), "invI": invI,
            "lvel": rng.normal(size=(n, 3)), "avel": rng.normal(size=(n, 3)),
            "facc": rng.normal(size=(n, 3)) * 5.0, "tacc": rng.normal(size=(n, 3))}


def ball_hang() -> System:
    """A box hanging from a world ball joint: 3 unbounded one-body rows."""
    a = np.array([0.1, 0.4, -0.2])  # anchor relative to the body centre
    J = np.zeros((3, 12))
    J[:, :3] = np.eye(3)
    J[:, 3:6] = -skew(a)
    inertia = np.array([0.2, 0.05, 0.3])
    return System(J=J, jb=np.array([[0, -1]] * 3, np.int32), c=np.array([0.02, -0.01, 0.03]),
                  cfm=np.full(3, 1e-5), lo=np.full(3, -INF), hi=np.full(3, INF),
                  findex=np.full(3, -1, np.int32), bodies=np.array([0], np.int32),
                  invmass=np.array([0.5]), invI=np.diag(1.0 / inertia)[None],
                  lvel=np.array([[0.3, 0.0, -0.2]]), avel=np.array([[0.0, 1.0, 0.5]]),
                  facc=np.array([[0.0, 0.0, -19.62]]), tacc=np.zeros((1, 3)), h=0.01)


def box_on_plane(mu: float = 0.5, vx: float = 2.0, cfm: float = 1e-3) -> System:
    """Box (2 kg) on the z=0 plane, 4 contacts: normal, then 2 friction rows each."""
    rows, c, lo, hi, fi = [], [], [], [], []
    depths = [0.01, 0.0, 0.02, 0.005]
    k = 0
    for sx in (-1, 1):
        for sy in (-1, 1):
            p = np.array([0.5 * sx, 0.3 * sy, -0.2])  # contact point from the centre
            for d, t in enumerate(np.eye(3)[[2, 0, 1]]):
                row = np.zeros(12)
                row[:3] = t
                row[3:6] = np.cross(p, t)
                rows.append(row)
                normal = d == 0
                c.append(20.0 * depths[k] if normal else 0.0)
                lo.append(0.0 if normal else -mu)
                hi.append(INF if normal else mu)
                fi.append(-1 if normal else 3 * k)
            k += 1
    m = len(rows)
    inertia = 2.0 / 12.0 * np.array([0.6**2 + 0.4**2, 1.0 + 0.4**2, 1.0 + 0.6**2])
    return System(J=np.array(rows), jb=np.array([[0, -1]] * m, np.int32), c=np.array(c),
                  cfm=np.full(m, cfm), lo=np.array(lo), hi=np.array(hi),
                  findex=np.array(fi, np.int32), bodies=np.array([0], np.int32),
                  invmass=np.array([0.5]), invI=np.diag(1.0 / inertia)[None],
                  lvel=np.array([[vx, -0.1, -0.5]]), avel=np.array([[0.2, 0.4, -0.3]]),
                  facc=np.array([[0.0, 0.0, -19.62]]), tacc=np.zeros((1, 3)), h=0.01)


def random_system(seed: int, nb: int, m: int, bounded: bool, cfm_range=(1e-3, 1e-1)) -> System:
    """nb island bodies among nb + 2 global ones; rows between random bodies.

    With ``bounded`` rows come in three kinds: fixed boxes, contact groups
    (normal lo=0, hi=inf, followed by two friction rows with findex) and
    unbounded rows.
    """
    rng = np.random.default_rng(seed)
    n = nb + 2
    bodies = rng.permutation(n)[:nb].astype(np.int32)
    J, jb, lo, hi, fi = [], [], [], [], []
    while len(J) < m:
        b1 = int(rng.choice(bodies))
        others = [int(b) for b in bodies if b != b1]
        b2 = int(rng.choice(others)) if rng.random() < 0.6 else -1
        kind = rng.integers(3) if bounded else 2
        group = 3 if kind == 1 and len(J) + 3 <= m else 1
        base = len(J)
        if group == 3:  # a contact: normal then two tangents at one point
            frame = rotation(rng)
            p1, p2 = rng.normal(size=3), rng.normal(size=3)
            for g in range(3):
                t = frame[g]
                arm2 = np.concatenate([-t, -np.cross(p2, t)]) if b2 >= 0 else np.zeros(6)
                J.append(np.concatenate([t, np.cross(p1, t), arm2]))
                jb.append((b1, b2))
                lo.append(0.0 if g == 0 else -0.6)
                hi.append(INF if g == 0 else 0.6)
                fi.append(-1 if g == 0 else base)
            continue
        J.append(rng.normal(size=12) * ([1.0] * 6 + [1.0 if b2 >= 0 else 0.0] * 6))
        jb.append((b1, b2))
        fi.append(-1)
        if kind == 0:
            lo.append(-rng.uniform(0.0, 2.0))
            hi.append(rng.uniform(0.0, 2.0))
        else:
            lo.append(-INF)
            hi.append(INF)
    return System(J=np.array(J), jb=np.array(jb, np.int32), c=rng.normal(size=m) * 0.1,
                  cfm=rng.uniform(*cfm_range, m), lo=np.array(lo), hi=np.array(hi),
                  findex=np.array(fi, np.int32), bodies=bodies, h=0.01, **body_arrays(n, rng))


# ---------------------------------------------------------------- tests


def test_ball_hang_converges_to_linear_solution() -> None:
    s = ball_hang()
    _, A, b = dense(s)
    lam, _, _ = run(s, 500, 1.0)
    np.testing.assert_allclose(lam, np.linalg.solve(A, b), rtol=1e-10, atol=1e-10)


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), nb=st.integers(2, 6), frac=st.floats(0.2, 0.5))
def test_random_unbounded_converges_to_linear_solution(seed: int, nb: int, frac: float) -> None:
    s = random_system(seed, nb, max(1, int(frac * 6 * nb)), bounded=False)
    _, A, b = dense(s)
    lam, _, _ = run(s, 500, 1.0, seed=seed)
    exact = np.linalg.solve(A, b)
    np.testing.assert_allclose(lam, exact, rtol=1e-7, atol=1e-7 * np.max(np.abs(exact)))


def test_box_contacts_converge_to_dense_pgs() -> None:
    s = box_on_plane()
    lam, _, _ = run(s, 3000, 1.0)
    ref = dense_pgs(s)
    assert np.all(ref[::3] > 0)  # the box is pressed onto the plane
    assert np.any(np.isclose(np.abs(ref[1::3]), 0.5 * ref[::3]))  # some friction saturates
    np.testing.assert_allclose(lam, ref, rtol=1e-8, atol=1e-8 * np.max(np.abs(ref)))
    assert kkt_violation(s, lam) < 1e-9


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), nb=st.integers(2, 6), frac=st.floats(0.2, 0.5))
def test_random_bounded_converges_to_kkt_point(seed: int, nb: int, frac: float) -> None:
    s = random_system(seed, nb, max(1, int(frac * 6 * nb)), bounded=True, cfm_range=(0.05, 0.2))
    lam, _, _ = run(s, 1500, 1.0, seed=seed)
    assert kkt_violation(s, lam) < 1e-7
    np.testing.assert_allclose(lam, dense_pgs(s), rtol=1e-6, atol=1e-6 * (1 + np.abs(lam).max()))


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), nb=st.integers(2, 6), m=st.integers(1, 30),
       iterations=st.integers(0, 40), w=st.floats(0.5, 1.9))
def test_bounds_always_hold(seed: int, nb: int, m: int, iterations: int, w: float) -> None:
    s = random_system(seed, nb, m, bounded=True)
    lam, _, _ = run(s, iterations, w, seed=seed)
    fixed = s.findex < 0
    assert np.all(lam[fixed] >= s.lo[fixed]) and np.all(lam[fixed] <= s.hi[fixed])
    dep = ~fixed
    if iterations <= 8:
        # Until the first reshuffle, every friction row is visited after its
        # normal row in each sweep, so it respects the final normal force.
        assert np.all(np.abs(lam[dep]) <= s.hi[dep] * np.abs(lam[s.findex[dep]]))


def test_box_friction_within_cone() -> None:
    s = box_on_plane(vx=5.0)
    for iterations in (1, 3, 8):
        lam, _, _ = run(s, iterations, 1.3)
        assert np.all(lam[::3] >= 0.0)
        assert np.all(np.abs(lam[1::3]) <= 0.5 * lam[0::3])
        assert np.all(np.abs(lam[2::3]) <= 0.5 * lam[0::3])
        assert np.any(np.abs(lam[1::3]) == 0.5 * lam[0::3])  # the clamp is exercised


@pytest.mark.parametrize("m,iterations", [(1, 100), (3, 0), (3, 8), (3, 9), (12, 16), (12, 17),
                                          (12, 20), (5, 64), (5, 65), (600, 20)])
def test_rng_consumed_like_quickstep(m: int, iterations: int) -> None:
    s = random_system(m, 4, m, bounded=True)
    seed = 0xDEADBEEF
    _, _, state = run(s, iterations, 1.3, seed=seed)
    assert state == lcg_advance(seed, expected_draws(m, iterations))


def test_reshuffle_copies_records_in_forward_fisher_yates_order() -> None:
    # an island of 10 rows at records 3..12 of m = 13, copied into the second set
    m, first, n = 13, 3, 10
    iwork = np.full(2 * 32 * m + m, -1, dtype=np.int64)
    for k in range(n):
        iwork[32 * (first + k):32 * (first + k + 1)] = k
    state = np.array([42], dtype=np.uint64)
    _reshuffled_records(iwork, first, m + first, n, state, 2 * 32 * m)
    order = [int(iwork[32 * (m + first + k)]) for k in range(n)]
    assert all(np.all(iwork[32 * (m + first + k):32 * (m + first + k + 1)] == order[k])
               for k in range(n))
    assert np.all(iwork[32 * (m + first + n):2 * 32 * m] == -1)  # nothing past the island
    expected = list(range(10))
    s = 42
    for k in range(1, 10):
        s = lcg_advance(s, 1)
        r = s ^ (s >> 16)  # ODE's dRandInt folding for n <= 16
        r ^= r >> 8
        r ^= r >> 4
        if k + 1 <= 2:
            r ^= r >> 2
            r ^= r >> 1
            j = r & ((k + 1) >> 1)
        elif k + 1 <= 4:
            r ^= r >> 2
            j = ((r & 3) * (k + 1)) >> 2
        else:
            j = ((r & 0xF) * (k + 1)) >> 4
        expected[k], expected[j] = expected[j], expected[k]
    assert order == expected and int(state[0]) == s


@pytest.mark.parametrize("iterations", [1, 8, 9, 17, 25])
def test_sweep_schedule_matches_dense_restatement(iterations: int) -> None:
    s = random_system(7, 5, 24, bounded=True, cfm_range=(1e-5, 1e-4))
    lam, _, _ = run(s, iterations, 1.3, seed=99)
    ref = reference_quickstep(s, iterations, 1.3, 99)
    np.testing.assert_allclose(lam, ref, rtol=1e-10, atol=1e-10 * np.abs(ref).max())
    if iterations > 8:  # the reshuffles matter: ignoring them gives other numbers
        plain = reference_quickstep(s, iterations, 1.3, 99, reshuffle=False)
        assert np.abs(lam - plain).max() > 1e-8 * np.abs(ref).max()


def test_deterministic_bit_identical() -> None:
    s = random_system(3, 6, 30, bounded=True)
    a = run(s, 37, 1.3, seed=5)
    b = run(s, 37, 1.3, seed=5)
    assert a[0].tobytes() == b[0].tobytes() and a[1].tobytes() == b[1].tobytes() and a[2] == b[2]


def test_warm_start_at_solution_stays() -> None:
    s = random_system(11, 4, 10, bounded=False)
    _, A, b = dense(s)
    exact = np.linalg.solve(A, b)
    lam, _, _ = run(s, 5, 1.3, lam0=exact)
    np.testing.assert_allclose(lam, exact, rtol=1e-11, atol=1e-11 * np.abs(exact).max())
    cold, _, _ = run(s, 5, 1.3)
    assert not np.allclose(cold, exact, rtol=1e-6)  # 5 cold sweeps are not enough
    box = box_on_plane()
    converged, _, _ = run(box, 3000, 1.0)
    lam, _, _ = run(box, 20, 1.3, lam0=converged)
    np.testing.assert_allclose(lam, converged, rtol=1e-9, atol=1e-9 * converged.max())


def test_cforce_is_constraint_wrench_and_other_bodies_untouched() -> None:
    s = random_system(5, 3, 12, bounded=True)
    state = np.array([1], dtype=np.uint64)
    lam = np.zeros(s.m)
    cforce = np.full((len(s.invmass), 6), 7.0)
    work = np.empty(sor_work_size(s.m, 3))
    sor_lcp(*kernel_args(s, 20, 1.3), state, lam, cforce, work)
    Jg, _, _ = dense(s)
    expect = (Jg.T @ lam).reshape(-1, 6)
    np.testing.assert_allclose(cforce[s.bodies], expect[s.bodies], rtol=1e-12, atol=1e-12)
    outside = np.setdiff1d(np.arange(len(s.invmass)), s.bodies)
    assert np.all(cforce[outside] == 7.0)


def test_no_rows_zeroes_cforce_and_keeps_rng() -> None:
    s = random_system(1, 2, 3, bounded=False)
    empty = System(J=np.zeros((0, 12)), jb=np.zeros((0, 2), np.int32), c=np.zeros(0),
                   cfm=np.zeros(0), lo=np.zeros(0), hi=np.zeros(0), findex=np.zeros(0, np.int32),
                   bodies=s.bodies, invmass=s.invmass, invI=s.invI, lvel=s.lvel, avel=s.avel,
                   facc=s.facc, tacc=s.tacc, h=s.h)
    lam, cforce, state = run(empty, 20, 1.3, seed=77)
    assert lam.size == 0 and state == 77 and np.all(cforce[s.bodies] == 0.0)


def test_work_too_small_raises() -> None:
    s = ball_hang()
    with pytest.raises(ValueError):
        sor_lcp(*kernel_args(s, 5, 1.0), np.zeros(1, np.uint64),
                np.zeros(3), np.zeros((1, 6)), np.empty(sor_work_size(3, 1) - 1))


# ------------------------------------------------ against libode 0.16.2 itself


def _load_ode():
    """ctypes handle on the system's double-precision libode, or None."""
    import ctypes as C
    import ctypes.util

    path = ctypes.util.find_library("ode")
    try:
        lib = C.CDLL(path or "libode.so")
        lib.dCheckConfiguration.argtypes = [C.c_char_p]
        if not lib.dCheckConfiguration(b"ODE_double_precision"):
            return None
    except (OSError, AttributeError):
        return None
    R, P = C.c_double, C.c_void_p
    sigs = {"dInitODE2": (C.c_int, [C.c_uint]), "dWorldCreate": (P, []),
            "dWorldDestroy": (None, [P]), "dWorldSetGravity": (None, [P, R, R, R]),
            "dWorldSetERP": (None, [P, R]), "dWorldSetCFM": (None, [P, R]),
            "dWorldSetQuickStepNumIterations": (None, [P, C.c_int]),
            "dWorldSetQuickStepW": (None, [P, R]), "dWorldQuickStep": (C.c_int, [P, R]),
            "dBodyCreate": (P, [P]), "dBodySetPosition": (None, [P, R, R, R]),
            "dBodySetLinearVel": (None, [P, R, R, R]), "dBodySetAngularVel": (None, [P, R, R, R]),
            "dBodyGetLinearVel": (C.POINTER(R), [P]), "dBodyGetAngularVel": (C.POINTER(R), [P]),
            "dBodySetGyroscopicMode": (None, [P, C.c_int]), "dBodySetMass": (None, [P, P]),
            "dMassSetBoxTotal": (None, [P, R, R, R, R]), "dJointCreateBall": (P, [P, P]),
            "dJointCreateContact": (P, [P, P, P]), "dJointAttach": (None, [P, P, P]),
            "dJointSetBallAnchor": (None, [P, R, R, R]), "dRandSetSeed": (None, [C.c_ulong]),
            "dRandGetSeed": (C.c_ulong, [])}
    for name, (res, args) in sigs.items():
        getattr(lib, name).restype = res
        getattr(lib, name).argtypes = args
    lib.dInitODE2(0)
    return lib


def _ode_step(lib, s: System, masses, dims, pos, joints, iterations, sor_w, seed, cfm, erp,
              gravity):
    """Build s's bodies in ODE, add joints via ``joints(lib, world, bodies)``, step once.

    ``s.facc`` must be ``mass * gravity`` (ODE adds gravity itself) and
    ``s.tacc`` zero; gyroscopic torque is switched off.

    Returns ODE's new (lvel, avel) for the bodies and the generator state.
    """
    import ctypes as C

    mass = (C.c_double * 17)()  # dMass: mass, c[4], I[12]
    world = lib.dWorldCreate()
    lib.dWorldSetGravity(world, *gravity)
    lib.dWorldSetQuickStepNumIterations(world, iterations)
    lib.dWorldSetQuickStepW(world, sor_w)
    lib.dWorldSetCFM(world, cfm)
    lib.dWorldSetERP(world, erp)
    bodies = []
    for k, b in enumerate(s.bodies):
        body = lib.dBodyCreate(world)
        lib.dMassSetBoxTotal(mass, masses[k], *dims[k])
        lib.dBodySetMass(body, mass)
        lib.dBodySetGyroscopicMode(body, 0)
        lib.dBodySetPosition(body, *pos[k])
        lib.dBodySetLinearVel(body, *s.lvel[b])
        lib.dBodySetAngularVel(body, *s.avel[b])
        bodies.append(body)
    joints(lib, world, bodies)
    lib.dRandSetSeed(seed)
    lib.dWorldQuickStep(world, s.h)
    lv = np.array([lib.dBodyGetLinearVel(b)[:3] for b in bodies])
    av = np.array([lib.dBodyGetAngularVel(b)[:3] for b in bodies])
    state = lib.dRandGetSeed()
    lib.dWorldDestroy(world)
    return lv, av, state


def _our_step(s: System, iterations: int, sor_w: float, seed: int):
    _, cforce, state = run(s, iterations, sor_w, seed=seed)
    b = s.bodies
    lv = s.lvel[b] + s.h * s.invmass[b, None] * (s.facc[b] + cforce[b, :3])
    av = s.avel[b] + s.h * np.einsum("bij,bj->bi", s.invI[b], s.tacc[b] + cforce[b, 3:])
    return lv, av, state


ODE = _load_ode()
needs_ode = pytest.mark.skipif(ODE is None, reason="double-precision libode not available")


def _box_inertia(mass: float, dims) -> np.ndarray:
    lx, ly, lz = dims
    return mass / 12.0 * np.array([ly**2 + lz**2, lx**2 + lz**2, lx**2 + ly**2])


@needs_ode
@pytest.mark.parametrize("iterations,sor_w", [(1, 1.3), (9, 1.3), (20, 1.3), (50, 1.0)])
def test_box_contacts_track_libode(iterations: int, sor_w: float) -> None:
    import ctypes as C

    s = box_on_plane(cfm=1e-5)
    dims, pos = (1.0, 0.6, 0.4), np.array([0.1, -0.2, 0.2])
    s.invI = np.diag(1.0 / _box_inertia(2.0, dims))[None]
    # ODE's island lists a body's joints newest first: reverse the rows.
    groups = [list(range(3 * k, 3 * k + 3)) for k in range(4)][::-1]
    perm = [r for g in groups for r in g]
    depths = np.array([0.01, 0.0, 0.02, 0.005])
    s.J, s.lo, s.hi = s.J[perm], s.lo[perm], s.hi[perm]
    s.c = np.where(np.arange(12) % 3 == 0, np.repeat((1.0 / s.h * 0.2) * depths[::-1], 3), 0.0)
    s.findex = np.array([-1 if r % 3 == 0 else r - r % 3 for r in range(12)], np.int32)

    def joints(lib, world, bodies):
        for k in range(4):
            # dContact viewed as doubles (ode/contact.h, double build): surface.mode
            # (int + pad) 0, mu 1, ..., geom.pos 15, normal 19, depth 23, fdir1 27
            contact = (C.c_double * 31)()
            C.cast(contact, C.POINTER(C.c_int))[0] = 0x002 | 0x7000  # FDir1 | Approx1
            contact[1] = 0.5  # mu
            sx, sy = (-1, 1)[k // 2], (-1, 1)[k % 2]
            p = pos + np.array([0.5 * sx, 0.3 * sy, -0.2])
            contact[15:18] = p
            contact[19:22] = (0.0, 0.0, 1.0)
            contact[23] = depths[k]
            contact[27:30] = (1.0, 0.0, 0.0)  # fdir1
            j = lib.dJointCreateContact(world, None, contact)
            lib.dJointAttach(j, bodies[0], None)

    seed = 12345
    lv, av, state = _ode_step(ODE, s, [2.0], [dims], [pos], joints, iterations, sor_w, seed,
                              1e-5, 0.2, (0.0, 0.0, -9.81))
    mine = _our_step(s, iterations, sor_w, seed)
    assert mine[2] == state
    np.testing.assert_allclose(mine[0], lv, rtol=0, atol=1e-13)
    np.testing.assert_allclose(mine[1], av, rtol=0, atol=1e-13)


@needs_ode
@pytest.mark.parametrize("iterations", [1, 4, 10, 30])
def test_ball_chain_tracks_libode(iterations: int) -> None:
    """World -ball- body A -ball- body B, joint errors and velocities nonzero."""
    h, erp, cfm, g = 0.02, 0.3, 1e-4, -9.81
    masses, dims = [1.5, 0.7], [(0.2, 1.0, 0.3), (0.3, 0.5, 0.2)]
    p0 = [np.array([0.0, -0.5, 0.1]), np.array([0.3, -1.2, 0.0])]
    moved = [p0[0] + [0.01, 0.02, -0.01], p0[1] + [-0.02, 0.0, 0.03]]
    anchors = [np.array([0.0, 0.0, 0.0]), np.array([0.1, -0.9, 0.05])]
    bodies = np.array([2, 0], np.int32)  # global indices of A and B
    n = 3
    k = (1.0 / h) * erp
    # Rows in ODE's island order: the A-B joint (newest on A) first, then world-A.
    a1, a2 = anchors[1] - p0[0], anchors[1] - p0[1]
    w1 = anchors[0] - p0[0]
    J = np.zeros((6, 12))
    J[:3, :3], J[:3, 3:6], J[:3, 6:9], J[:3, 9:] = np.eye(3), -skew(a1), -np.eye(3), skew(a2)
    J[3:, :3], J[3:, 3:6] = np.eye(3), -skew(w1)
    c = np.concatenate([k * (a2 + moved[1] - a1 - moved[0]), k * (anchors[0] - w1 - moved[0])])
    invI, lvel, avel, facc = np.zeros((n, 3, 3)), np.zeros((n, 3)), np.zeros((n, 3)), np.zeros((n, 3))
    invmass = np.ones(n)
    for i, b in enumerate(bodies):
        invI[b] = np.diag(1.0 / _box_inertia(masses[i], dims[i]))
        invmass[b] = 1.0 / masses[i]
        facc[b, 1] = masses[i] * g
    lvel[bodies] = [[0.5, 0.1, -0.2], [-0.3, 0.4, 0.6]]
    avel[bodies] = [[0.1, -0.2, 0.3], [0.5, 0.0, -0.4]]
    s = System(J=J, jb=np.array([[2, 0]] * 3 + [[2, -1]] * 3, np.int32), c=c,
               cfm=np.full(6, cfm), lo=np.full(6, -INF), hi=np.full(6, INF),
               findex=np.full(6, -1, np.int32), bodies=bodies, invmass=invmass, invI=invI,
               lvel=lvel, avel=avel, facc=facc, tacc=np.zeros((n, 3)), h=h)

    def joints(lib, world, ode_bodies):
        for body, p in zip(ode_bodies, p0, strict=True):
            lib.dBodySetPosition(body, *p)
        j0 = lib.dJointCreateBall(world, None)
        lib.dJointAttach(j0, ode_bodies[0], None)
        lib.dJointSetBallAnchor(j0, *anchors[0])
        j1 = lib.dJointCreateBall(world, None)
        lib.dJointAttach(j1, ode_bodies[0], ode_bodies[1])
        lib.dJointSetBallAnchor(j1, *anchors[1])
        for body, p in zip(ode_bodies, moved, strict=True):
            lib.dBodySetPosition(body, *p)

    seed = 99
    lv, av, state = _ode_step(ODE, s, masses, dims, p0, joints, iterations, 1.3, seed, cfm, erp,
                              (0.0, g, 0.0))
    mine = _our_step(s, iterations, 1.3, seed)
    assert mine[2] == state
    np.testing.assert_allclose(mine[0], lv, rtol=0, atol=1e-13)
    np.testing.assert_allclose(mine[1], av, rtol=0, atol=1e-12)
