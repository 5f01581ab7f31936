"""engine.ode.kernels.detmath: accuracy against math.*, special values, constants.

The reference is glibc's libm through ``math`` (itself within 1 ulp), so a
tolerance of 2 ulp here means our function is within about 2-3 ulp of the
true value; the decision (0012) states the measured figures.
"""

from __future__ import annotations

import math
from decimal import Decimal, getcontext

import numpy as np
import pytest
from numba import njit

from engine.ode.kernels import detlinalg, detmath

N = 100_000


def _max_ulps(f, g, args: np.ndarray) -> tuple[float, tuple]:
    worst, where = 0.0, ()
    for row in args.tolist():
        row = row if isinstance(row, list) else [row]
        a, b = f(*row), g(*row)
        if a == b or (math.isnan(a) and math.isnan(b)):
            continue
        u = abs(a - b) / math.ulp(b)
        if u > worst:
            worst, where = u, tuple(row)
    return worst, where


_rng = np.random.default_rng(2026)
CASES = [
    ("sin", detmath.sin, math.sin, _rng.uniform(-4.0, 4.0, N), 1),
    ("cos", detmath.cos, math.cos, _rng.uniform(-4.0, 4.0, N), 1),
    ("sin_1e3", detmath.sin, math.sin, _rng.uniform(-1e3, 1e3, N), 1),
    ("cos_1e3", detmath.cos, math.cos, _rng.uniform(-1e3, 1e3, N), 1),
    ("sin_8e5", detmath.sin, math.sin, _rng.uniform(-8e5, 8e5, N), 2),
    ("cos_8e5", detmath.cos, math.cos, _rng.uniform(-8e5, 8e5, N), 2),
    ("atan", detmath.atan, math.atan, _rng.standard_cauchy(N), 2),
    ("atan2", detmath.atan2, math.atan2,
     _rng.uniform(-1, 1, (N, 2)) * np.exp2(_rng.integers(-30, 30, (N, 1))), 2),
    ("asin", detmath.asin, math.asin, _rng.uniform(-1.0, 1.0, N), 2),
    ("acos", detmath.acos, math.acos, _rng.uniform(-1.0, 1.0, N), 2),
    ("acos_near_1", detmath.acos, math.acos, 1.0 - _rng.uniform(0, 1e-3, N), 2),
    ("exp", detmath.exp, math.exp, _rng.uniform(-740.0, 709.0, N), 1),
    ("exp_small", detmath.exp, math.exp, _rng.uniform(-1.0, 1.0, N), 1),
    ("log", detmath.log, math.log, np.exp2(_rng.uniform(-1070.0, 1020.0, N)), 1),
    ("log_near_1", detmath.log, math.log, _rng.uniform(0.5, 2.0, N), 1),
    ("pow_damping", detmath.pow, math.pow,
     np.stack([_rng.uniform(0.0, 1.0, N), _rng.uniform(0.0, 0.1, N)], 1), 2),
]


@pytest.mark.parametrize("case", CASES, ids=[c[0] for c in CASES])
def test_accuracy_against_libm(case) -> None:
    name, ours, ref, args, tol = case
    worst, where = _max_ulps(ours, ref, args)
    assert worst <= tol, f"{name}: {worst} ulp at {where}"


def test_pow_with_large_exponents_stays_close() -> None:
    args = np.stack([_rng.uniform(0.0, 10.0, 20000), _rng.uniform(-3.0, 3.0, 20000)], 1)
    worst, where = _max_ulps(detmath.pow, math.pow, args)
    assert worst <= 16, f"pow: {worst} ulp at {where}"


PI = math.pi
SPECIAL = [
    (detmath.sin, (0.0,), 0.0), (detmath.sin, (-0.0,), -0.0), (detmath.cos, (0.0,), 1.0),
    (detmath.cos, (-0.0,), 1.0), (detmath.sin, (math.inf,), math.nan),
    (detmath.cos, (math.nan,), math.nan),
    (detmath.atan, (0.0,), 0.0), (detmath.atan, (-0.0,), -0.0),
    (detmath.atan, (math.inf,), PI / 2), (detmath.atan, (-math.inf,), -PI / 2),
    (detmath.atan, (1.0,), PI / 4),
    (detmath.atan2, (0.0, 1.0), 0.0), (detmath.atan2, (-0.0, 1.0), -0.0),
    (detmath.atan2, (0.0, -1.0), PI), (detmath.atan2, (-0.0, -1.0), -PI),
    (detmath.atan2, (0.0, 0.0), 0.0), (detmath.atan2, (0.0, -0.0), PI),
    (detmath.atan2, (-0.0, -0.0), -PI), (detmath.atan2, (-0.0, 0.0), -0.0),
    (detmath.atan2, (1.0, 0.0), PI / 2), (detmath.atan2, (-1.0, -0.0), -PI / 2),
    (detmath.atan2, (1.0, 1.0), PI / 4), (detmath.atan2, (1.0, -1.0), 3 * PI / 4),
    (detmath.atan2, (-1.0, -1.0), -3 * PI / 4), (detmath.atan2, (-1.0, 1.0), -PI / 4),
    (detmath.atan2, (math.inf, math.inf), PI / 4),
    (detmath.atan2, (-math.inf, -math.inf), -3 * PI / 4),
    (detmath.atan2, (1.0, math.inf), 0.0), (detmath.atan2, (-1.0, -math.inf), -PI),
    (detmath.atan2, (math.inf, 5.0), PI / 2), (detmath.atan2, (math.nan, 1.0), math.nan),
    (detmath.asin, (0.0,), 0.0), (detmath.asin, (-0.0,), -0.0), (detmath.asin, (1.0,), PI / 2),
    (detmath.asin, (-1.0,), -PI / 2), (detmath.asin, (1.5,), math.nan),
    (detmath.acos, (1.0,), 0.0), (detmath.acos, (-1.0,), PI), (detmath.acos, (0.0,), PI / 2),
    (detmath.acos, (-1.0000001,), math.nan),
    (detmath.exp, (0.0,), 1.0), (detmath.exp, (-0.0,), 1.0),
    (detmath.exp, (800.0,), math.inf), (detmath.exp, (-800.0,), 0.0),
    (detmath.exp, (-math.inf,), 0.0), (detmath.exp, (math.inf,), math.inf),
    (detmath.exp, (math.nan,), math.nan),
    (detmath.log, (1.0,), 0.0), (detmath.log, (0.0,), -math.inf),
    (detmath.log, (-0.0,), -math.inf), (detmath.log, (-1.0,), math.nan),
    (detmath.log, (math.inf,), math.inf),
    (detmath.log, (5e-324,), math.log(5e-324)),
    (detmath.pow, (0.3, 0.0), 1.0), (detmath.pow, (1.0, math.nan), 1.0),
    (detmath.pow, (0.0, 0.016), 0.0), (detmath.pow, (1.0, 0.016), 1.0),
    (detmath.pow, (0.0, -1.0), math.inf), (detmath.pow, (-2.0, 3.0), -8.0),
    (detmath.pow, (-2.0, 2.0), 4.0), (detmath.pow, (-2.0, 0.5), math.nan),
    (detmath.pow, (2.0, 10.0), 1024.0), (detmath.pow, (math.inf, -1.0), 0.0),
    (detmath.pow, (0.5, math.inf), 0.0), (detmath.pow, (2.0, -math.inf), 0.0),
]


@pytest.mark.parametrize("fn,args,want", SPECIAL)
def test_special_values(fn, args, want) -> None:
    got = fn(*args)
    if math.isnan(want):
        assert math.isnan(got)
    else:
        assert got == want and math.copysign(1.0, got) == math.copysign(1.0, want), (args, got)


def test_sincos_matches_sin_and_cos() -> None:
    for x in _rng.uniform(-50.0, 50.0, 2000).tolist():
        assert detmath.sincos(x) == (detmath.sin(x), detmath.cos(x))


def test_kernels_can_call_the_functions() -> None:
    @njit
    def f(x: float) -> float:
        return detmath.atan2(detmath.sin(x), detmath.cos(x)) + detmath.log(detmath.exp(x))

    assert abs(f(0.5) - 1.0) < 1e-15
    got = detmath.atan2_array(np.array([1.0, -1.0]), np.array([1.0, 0.0]))
    assert got.tolist() == [detmath.atan2(1.0, 1.0), detmath.atan2(-1.0, 0.0)]


def _pi() -> Decimal:
    # Machin's formula: pi = 16 atan(1/5) - 4 atan(1/239)
    def atan_inv(n: int) -> Decimal:
        x, s, k, sign = Decimal(1) / n, Decimal(0), 1, 1
        t = x
        while t / k > Decimal(10) ** -75:
            s += sign * t / k
            t *= x * x
            k += 2
            sign = -sign
        return s
    return 16 * atan_inv(5) - 4 * atan_inv(239)


def _atan(x: Decimal) -> Decimal:
    # halve the argument 8 times (atan x = 2 atan(x / (1 + sqrt(1 + x^2)))), then Taylor
    for _ in range(8):
        x = x / (1 + (1 + x * x).sqrt())
    s, t, k, sign = Decimal(0), x, 1, 1
    while abs(t) / k > Decimal(10) ** -75:
        s += sign * t / k
        t *= x * x
        k += 2
        sign = -sign
    return 256 * s


def test_constants_are_the_decimal_values_split_into_doubles() -> None:
    getcontext().prec = 80
    half_pi = _pi() / 2
    parts = Decimal(detmath.PIO2_1) + Decimal(detmath.PIO2_2) + Decimal(detmath.PIO2_3)
    assert abs(parts - half_pi) < Decimal(2) ** -120
    for v in (detmath.PIO2_1, detmath.PIO2_2):
        assert math.frexp(v)[0] * 2 ** 32 == math.floor(math.frexp(v)[0] * 2 ** 32)
    assert detmath.PIO2_HI == float(half_pi)
    assert detmath.PIO2_LO == float(half_pi - Decimal(detmath.PIO2_HI))
    assert detmath.PI_HI == float(2 * half_pi)
    ln2 = Decimal(2).ln()
    assert abs(Decimal(detmath.LN2_HI) + Decimal(detmath.LN2_LO) - ln2) < Decimal(2) ** -85
    for k in range(9):
        a = _atan(Decimal(k) / 8)
        assert detmath.ATAN_HI[k] == float(a)
        assert detmath.ATAN_LO[k] == float(a - Decimal(detmath.ATAN_HI[k]))


def test_detlinalg_sums_in_index_order_and_matches_shapes() -> None:
    a = np.array([1e16, 1.0, -1e16])
    b = np.array([1.0, 1.0, 1.0])
    assert detlinalg.dot(a, b) == (1e16 + 1.0) - 1e16       # index order, not pairwise
    R = _rng.uniform(-1, 1, (4, 3, 3))
    v = _rng.uniform(-1, 1, 3)
    assert detlinalg.matmul(R[0], v).shape == (3,)
    assert detlinalg.matmul(v, R[0]).shape == (3,)
    assert detlinalg.matmul(R, R).shape == (4, 3, 3)
    assert detlinalg.matmul(_rng.uniform(size=(7, 3)), R[0].T).shape == (7, 3)
    np.testing.assert_allclose(detlinalg.matmul(R, R), R @ R, rtol=1e-14, atol=1e-15)
    np.testing.assert_allclose(detlinalg.norm(R[:, 0], axis=-1),
                               np.sqrt((R[:, 0] ** 2).sum(-1)), rtol=1e-15)
    inv = detlinalg.inv3(R[1])
    np.testing.assert_allclose(detlinalg.matmul(inv, R[1]), np.eye(3), atol=1e-12)
    with pytest.raises(ValueError, match="singular"):
        detlinalg.inv3(np.ones((3, 3)))
    with pytest.raises(ValueError, match=r"matmul: shapes \(3,\) and \(4, 4\)"):
        detlinalg.matmul(v, np.eye(4))
