"""Deterministic transcendental functions: the same bits on every x86-64 CPU.

glibc's libm picks FMA/AVX2 variants of sin, cos, exp, log, atan2, ... at
load time, and numpy's ufuncs dispatch on the CPU's SIMD features; both give
results that differ in the last bit from one machine to the next (decision
0012). These functions use only IEEE-exact operations (+ - * /, sqrt, floor,
frexp/ldexp, copysign) in a fixed order, so they give the same bits
everywhere. They are compiled (``@njit``) so the step kernels call them, and
are callable from Python too. Never compile them with ``fastmath``.

Method (no libm code or table was used). Every polynomial is a truncated
Taylor series whose coefficients are exact rationals (1/n!, 1/(2n+1))
rounded to the nearest double; the constants (pi/2, ln 2, atan(k/8)) were
computed to 80 digits with Python's ``decimal`` module and split into
doubles (``tests/engine/test_detmath.py`` recomputes and checks each one).

Accuracy, measured against ``math`` on 10**5 random inputs (the test asserts
it): sin and cos within 1 ulp for |x| <= 1e3 and 2 ulp up to 2**19 pi
(about 8.2e5); beyond, the argument reduction is no longer exact and the
absolute error grows as |x| 2**-73 (the results stay deterministic, just
less accurate); inf and NaN give NaN. atan, atan2, asin, acos within 2 ulp;
exp and log within 1 ulp; pow within 2 ulp while |y log x| <= 1 (the
damping conversion), growing as |y log x| ulp beyond; integer exponents up
to 64 use binary powering (exact when the result is representable).
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from engine.ode.constants import dInfinity

_h = float.fromhex

# pi/2 in three parts for Cody-Waite reduction: PIO2_1 and PIO2_2 hold 32
# significant bits each, so k * PIO2_1 and k * PIO2_2 are exact for |k| < 2**21.
PIO2_1 = _h("0x1.921fb54400000p+0")
PIO2_2 = _h("0x1.0b4611a600000p-34")
PIO2_3 = _h("0x1.3198a2e037073p-69")
TWO_OVER_PI = _h("0x1.45f306dc9c883p-1")
# pi/2 and pi as a rounded double plus the rounding error (hi + lo).
PIO2_HI = _h("0x1.921fb54442d18p+0")
PIO2_LO = _h("0x1.1a62633145c07p-54")
PI_HI = _h("0x1.921fb54442d18p+1")
PI_LO = _h("0x1.1a62633145c07p-53")
# ln 2 with a 32-bit head (k * LN2_HI exact for |k| < 2**21) and its tail.
LN2_HI = _h("0x1.62e42fee00000p-1")
LN2_LO = _h("0x1.a39ef35793c76p-33")
INV_LN2 = _h("0x1.71547652b82fep+0")
SQRT_HALF = _h("0x1.6a09e667f3bcdp-1")
# atan(k/8), k = 0..8, as hi + lo.
ATAN_HI = np.array([_h(s) for s in (
    "0x0.0p+0", "0x1.fd5ba9aac2f6ep-4", "0x1.f5b75f92c80ddp-3", "0x1.6f61941e4def1p-2",
    "0x1.dac670561bb4fp-2", "0x1.1e00babdefeb4p-1", "0x1.4978fa3269ee1p-1",
    "0x1.700a7c5784634p-1", "0x1.921fb54442d18p-1")])
ATAN_LO = np.array([_h(s) for s in (
    "0x0.0p+0", "-0x1.cd37686760c17p-59", "0x1.8ab6e3cf7afbdp-57", "-0x1.c63aae6f6e918p-56",
    "0x1.a2b7f222f65e2p-56", "-0x1.928df287a668fp-58", "0x1.2419a87f2a458p-56",
    "-0x1.8c34d25aadef6p-56", "0x1.1a62633145c07p-55")])
EXP_OVERFLOW = 709.782712893384      # exp(x) is inf above (largest finite log)
EXP_UNDERFLOW = -745.1332191019412   # exp(x) rounds to 0 below

# Taylor coefficients (exact rationals rounded to double).
_S = tuple((-1.0) ** n / math.factorial(2 * n + 1) for n in range(1, 9))   # sin: r^3..r^17
_C = tuple((-1.0) ** n / math.factorial(2 * n) for n in range(2, 9))       # cos: r^4..r^16
_A = tuple((-1.0) ** n / (2 * n + 1) for n in range(1, 8))                  # atan: t^3..t^15
_E = tuple(1.0 / math.factorial(n) for n in range(2, 14))                   # exp: r^2..r^13
_L = tuple(2.0 / (2 * n + 1) for n in range(1, 12))                         # 2 atanh: s^3..s^23
S1, S2, S3, S4, S5, S6, S7, S8 = _S
C2, C3, C4, C5, C6, C7, C8 = _C
A1, A2, A3, A4, A5, A6, A7 = _A
E2, E3, E4, E5, E6, E7, E8, E9, E10, E11, E12, E13 = _E
L1, L2, L3, L4, L5, L6, L7, L8, L9, L10, L11 = _L
INF = dInfinity
NAN = math.nan


@njit(cache=True, nogil=True)
def _sin_kernel(r: float) -> float:
    """sin(r) for |r| <= pi/4 + tiny: r + r^3 (S1 + r^2 (S2 + ...)), Horner in r^2."""
    z = r * r
    p = S1 + z * (S2 + z * (S3 + z * (S4 + z * (S5 + z * (S6 + z * (S7 + z * S8))))))
    return r + (r * z) * p


@njit(cache=True, nogil=True)
def _cos_kernel(r: float) -> float:
    """cos(r) for |r| <= pi/4 + tiny.

    1 - r^2/2 is rounded to w and its rounding error recovered exactly
    ((1 - w) - r^2/2, exact because |r^2/2| <= 1/2), then added back with the
    r^4 tail, so the result carries about one rounding.
    """
    z = r * r
    hz = 0.5 * z
    w = 1.0 - hz
    corr = (1.0 - w) - hz
    tail = (z * z) * (C2 + z * (C3 + z * (C4 + z * (C5 + z * (C6 + z * (C7 + z * C8))))))
    return w + (tail + corr)


@njit(cache=True, nogil=True)
def _reduce(x: float) -> tuple:
    """(r, n) with x = k pi/2 + r, |r| <= pi/4 + tiny, n = k mod 4 (Cody-Waite)."""
    k = math.floor(x * TWO_OVER_PI + 0.5)
    r = ((x - k * PIO2_1) - k * PIO2_2) - k * PIO2_3
    n = int(k - 4.0 * math.floor(k * 0.25))
    return r, n


@njit(cache=True, nogil=True)
def sincos(x: float) -> tuple:
    """(sin x, cos x) sharing one argument reduction; x in radians."""
    if not math.isfinite(x):
        return NAN, NAN
    if x == 0.0:
        return x, 1.0     # keeps the sign of zero: sin(-0) = -0
    r, n = _reduce(x)
    s = _sin_kernel(r)
    c = _cos_kernel(r)
    if n == 0:
        return s, c
    if n == 1:
        return c, -s
    if n == 2:
        return -s, -c
    return -c, s


@njit(cache=True, nogil=True)
def sin(x: float) -> float:
    """sin(x), x in radians (see the module docstring for the range)."""
    if not math.isfinite(x):
        return NAN
    if x == 0.0:
        return x          # keeps the sign of zero: sin(-0) = -0
    r, n = _reduce(x)
    if n == 0:
        return _sin_kernel(r)
    if n == 1:
        return _cos_kernel(r)
    if n == 2:
        return -_sin_kernel(r)
    return -_cos_kernel(r)


@njit(cache=True, nogil=True)
def cos(x: float) -> float:
    """cos(x), x in radians (see the module docstring for the range)."""
    if not math.isfinite(x):
        return NAN
    r, n = _reduce(x)
    if n == 0:
        return _cos_kernel(r)
    if n == 1:
        return -_sin_kernel(r)
    if n == 2:
        return -_cos_kernel(r)
    return _sin_kernel(r)


@njit(cache=True, nogil=True)
def _atan_unit(a: float) -> float:
    """atan(a) for 0 <= a <= 1.

    With c = k/8 the nearest eighth, atan(a) = atan(c) + atan(t),
    t = (a - c) / (1 + a c), |t| <= 1/16; a - c is exact (Sterbenz).
    """
    k = int(math.floor(a * 8.0 + 0.5))
    c = k * 0.125
    t = (a - c) / (1.0 + a * c)
    z = t * t
    p = A1 + z * (A2 + z * (A3 + z * (A4 + z * (A5 + z * (A6 + z * A7)))))
    return ATAN_HI[k] + (ATAN_LO[k] + (t + (t * z) * p))


@njit(cache=True, nogil=True)
def _atan_pos(a: float) -> float:
    """atan(a) for a >= 0 (inf gives pi/2): pi/2 - atan(1/a) above 1."""
    if a <= 1.0:
        return _atan_unit(a)
    if a == INF:
        return PIO2_HI
    return PIO2_HI + (PIO2_LO - _atan_unit(1.0 / a))


@njit(cache=True, nogil=True)
def atan(x: float) -> float:
    """atan(x) in (-pi/2, pi/2); atan(+-0) = +-0, atan(+-inf) = +-pi/2."""
    if x != x:
        return x
    return math.copysign(_atan_pos(abs(x)), x)


@njit(cache=True, nogil=True)
def _atan2_special(y: float, x: float) -> float:
    """atan2 for y or x zero or infinite (C99 Annex F values)."""
    if y == 0.0:
        if x > 0.0 or (x == 0.0 and math.copysign(1.0, x) > 0.0):
            return y
        return math.copysign(PI_HI, y)
    if math.isinf(y):
        if math.isinf(x):
            v = 0.5 * PIO2_HI if x > 0.0 else 0.75 * PI_HI
            return math.copysign(v, y)
        return math.copysign(PIO2_HI, y)
    if x == 0.0:
        return math.copysign(PIO2_HI, y)
    # x infinite, y finite and not zero
    return math.copysign(0.0 if x > 0.0 else PI_HI, y)


@njit(cache=True, nogil=True)
def atan2(y: float, x: float) -> float:
    """Angle of the point (x, y) in [-pi, pi], signs and zeros as C99's atan2."""
    if x != x or y != y:
        return x + y
    if y == 0.0 or x == 0.0 or math.isinf(x) or math.isinf(y):
        return _atan2_special(y, x)
    ax = abs(x)
    ay = abs(y)
    if ay <= ax:
        a = _atan_unit(ay / ax)
    else:
        a = PIO2_HI + (PIO2_LO - _atan_unit(ax / ay))
    if x < 0.0:
        a = PI_HI + (PI_LO - a)
    return math.copysign(a, y)


@njit(cache=True, nogil=True)
def asin(x: float) -> float:
    """asin(x) for |x| <= 1 (NaN outside) = atan2(x, sqrt((1 - x)(1 + x)))."""
    if not abs(x) <= 1.0:
        return NAN
    return atan2(x, math.sqrt((1.0 - x) * (1.0 + x)))


@njit(cache=True, nogil=True)
def acos(x: float) -> float:
    """acos(x) for |x| <= 1 (NaN outside) = atan2(sqrt((1 - x)(1 + x)), x)."""
    if not abs(x) <= 1.0:
        return NAN
    return atan2(math.sqrt((1.0 - x) * (1.0 + x)), x)


@njit(cache=True, nogil=True)
def exp(x: float) -> float:
    """e**x: x = k ln2 + r (Cody-Waite, |r| <= ln2/2), exp(r) by Taylor, times 2**k."""
    if x != x:
        return x
    if x > EXP_OVERFLOW:
        return INF
    if x < EXP_UNDERFLOW:
        return 0.0
    k = math.floor(x * INV_LN2 + 0.5)
    r = (x - k * LN2_HI) - k * LN2_LO
    p = E2 + r * (E3 + r * (E4 + r * (E5 + r * (E6 + r * (E7 + r * (
        E8 + r * (E9 + r * (E10 + r * (E11 + r * (E12 + r * E13))))))))))
    y = 1.0 + (r + (r * r) * p)
    return math.ldexp(y, int(k))


@njit(cache=True, nogil=True)
def log(x: float) -> float:
    """Natural logarithm; log(0) = -inf, negative x gives NaN.

    x = m 2**e with m in [sqrt(1/2), sqrt(2)), f = m - 1 (exact),
    s = f / (2 + f), log m = 2 atanh(s) = 2 s + s R(s^2); since 2 s = f - s f,
    log m = f - s (f - R): f is exact and the correction is < f/5, so the
    result carries about one rounding.
    """
    if x != x or x < 0.0:
        return NAN
    if x == 0.0:
        return -INF
    if x == INF:
        return x
    m, e = math.frexp(x)
    if m < SQRT_HALF:
        m = m * 2.0
        e -= 1
    f = m - 1.0
    s = f / (2.0 + f)
    z = s * s
    R = z * (L1 + z * (L2 + z * (L3 + z * (L4 + z * (L5 + z * (L6 + z * (
        L7 + z * (L8 + z * (L9 + z * (L10 + z * L11))))))))))
    logm = f - s * (f - R)
    if e == 0:
        return logm
    return e * LN2_HI + (logm + e * LN2_LO)


@njit(cache=True, nogil=True)
def _is_odd_integer(y: float) -> bool:
    return math.floor(y) == y and abs(y) < 2.0 ** 53 and math.floor(0.5 * y) != 0.5 * y


@njit(cache=True, nogil=True)
def pow(x: float, y: float) -> float:  # noqa: A001  (the module's name for x**y)
    """x**y as exp(y log x), with C99's special cases for 0, 1, inf, NaN and x < 0."""
    if y == 0.0 or x == 1.0:
        return 1.0
    if x != x or y != y:
        return x + y
    sign = 1.0
    if x < 0.0 or (x == 0.0 and math.copysign(1.0, x) < 0.0):
        if math.floor(y) != y:
            return NAN
        if _is_odd_integer(y):
            sign = -1.0
        x = -x
    return sign * _pow_pos(x, y)


@njit(cache=True, nogil=True)
def _pow_int(x: float, n: int) -> float:
    """x**n for |n| <= 64 by binary powering (exact when the result is a
    representable double, e.g. 2**10 or (-2)**3), then 1/x**|n| for n < 0."""
    m = -n if n < 0 else n
    result = 1.0
    base = x
    while m > 0:
        if m & 1:
            result = result * base
        base = base * base
        m >>= 1
    return 1.0 / result if n < 0 else result


@njit(cache=True, nogil=True)
def _pow_pos(x: float, y: float) -> float:
    """x**y for x >= +0, y not 0 or NaN."""
    if x == 0.0:
        return 0.0 if y > 0.0 else INF
    if x == INF:
        return INF if y > 0.0 else 0.0
    if math.floor(y) == y and abs(y) <= 64.0:
        return _pow_int(x, int(y))
    if math.isinf(y):
        if x == 1.0:
            return 1.0
        if x < 1.0:
            return 0.0 if y > 0.0 else INF
        return INF if y > 0.0 else 0.0
    return exp(y * log(x))


@njit(cache=True, nogil=True)
def atan2_array(y: np.ndarray, x: np.ndarray) -> np.ndarray:
    """Elementwise atan2 of two 1-D arrays of the same length, (n,) -> (n,)."""
    out = np.empty(y.shape[0])
    for i in range(y.shape[0]):
        out[i] = atan2(y[i], x[i])
    return out
