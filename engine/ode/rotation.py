"""Rotation matrices and quaternions: the ODE manual's "Rotation functions".

Conventions (docs/ode-mapping.md):

* a dMatrix3 is returned as a new float64 array of shape (12,): the 3x3
  rotation stored row-major in 3 rows of 4 (element (i, j) at ``4*i + j``,
  the 4th column is zero), so C indexing ``R[0], R[4], R[8]`` works;
* a dQuaternion is a (4,) array ``(w, x, y, z)``, a dVector3 a (3,) array;
* C out-parameters are returned instead (``dQtoR(q) -> R``);
* rotation inputs may be a 12-sequence (3x4 row-major), a 9-sequence (3x3
  row-major) or a (3, 3) array; bad shapes and non-finite numbers raise
  :class:`ODEError` naming the function and the argument.

Angles are in radians.  The numba kernels (``q_to_R``, ``R_to_q``,
``q_mul0``, ``q_normalize``, ``w_to_dq``, and the vector kernels
``safe_normalize3``, ``safe_normalize4``, ``plane_space``,
``orthogonalize_R``) work in place on preallocated arrays, for the engine's
hot loops; the Python API functions call them, so both compute identical
bits.  All of them reproduce ODE 0.16.2's arithmetic (same formulas and
operation order): on the same inputs the results are bit-identical to
libode's, checked against the real library.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
from numba import njit

from engine.ode.errors import ODEError
from engine.ode.kernels import detmath

_SQRT1_2 = math.sqrt(0.5)  # C's M_SQRT1_2

__all__ = [
    "R_to_q",
    "as_real",
    "as_rotation3",
    "as_vector",
    "dDQfromW",
    "dQFromAxisAndAngle",
    "dQMultiply0",
    "dQMultiply1",
    "dQMultiply2",
    "dQMultiply3",
    "dQSetIdentity",
    "dQfromR",
    "dQtoR",
    "dRFrom2Axes",
    "dRFromAxisAndAngle",
    "dRFromEulerAngles",
    "dRFromZAxis",
    "dRSetIdentity",
    "dRfromQ",
    "dRtoQ",
    "dWtoDQ",
    "orthogonalize_R",
    "plane_space",
    "q_mul0",
    "q_normalize",
    "q_to_R",
    "rotation12",
    "safe_normalize3",
    "safe_normalize4",
    "w_to_dq",
]


# ---------------------------------------------------------------------------
# input validation and conversion helpers
# ---------------------------------------------------------------------------
def as_real(x: Any, function: str, argument: str) -> float:
    """``x`` as a Python float; ODEError unless it is a finite real number."""
    try:
        v = float(x)
    except (TypeError, ValueError):
        raise ODEError(function, argument, f"expected a real number, got {x!r}") from None
    if not math.isfinite(v):
        raise ODEError(function, argument, f"must be finite, got {v}")
    return v


def as_vector(v: Any, n: int, function: str, argument: str) -> np.ndarray:
    """A new float64 (n,) copy of the vector ``v``.

    ``v`` must hold exactly ``n`` finite numbers; for n == 3 a 4-element
    sequence is also accepted (C's padded dVector3) and its last element
    ignored.
    """
    try:
        a = np.array(v, dtype=np.float64).reshape(-1)
    except (TypeError, ValueError):
        raise ODEError(function, argument, f"expected {n} numbers, got {v!r}") from None
    if a.size != n and not (n == 3 and a.size == 4):
        raise ODEError(function, argument, f"expected {n} numbers, got {a.size}")
    a = a[:n].copy()
    if not np.isfinite(a).all():
        raise ODEError(function, argument, f"must be finite, got {a}")
    return a


def as_rotation3(R: Any, function: str, argument: str) -> np.ndarray:
    """A new C-contiguous float64 (3, 3) copy of the rotation ``R``.

    Accepts a 12-sequence (3x4 row-major, C's dMatrix3; the 4th column is
    ignored), a 9-sequence (3x3 row-major) or a (3, 3) array.  Only shape
    and finiteness are checked, not orthonormality.
    """
    try:
        a = np.array(R, dtype=np.float64)
    except (TypeError, ValueError):
        raise ODEError(function, argument, f"expected a rotation matrix, got {R!r}") from None
    if a.size == 12:
        m = np.ascontiguousarray(a.reshape(3, 4)[:, :3])
    elif a.size == 9:
        m = np.ascontiguousarray(a.reshape(3, 3))
    else:
        raise ODEError(function, argument,
                       f"expected 12 or 9 numbers or a (3, 3) array, got shape {a.shape}")
    if not np.isfinite(m).all():
        raise ODEError(function, argument, "must be finite")
    return m


def rotation12(R3: np.ndarray) -> np.ndarray:
    """(3, 3) matrix -> new (12,) dMatrix3 (3x4 row-major, zero 4th column)."""
    out = np.zeros(12)
    out.reshape(3, 4)[:, :3] = R3
    return out


# ---------------------------------------------------------------------------
# numba kernels (no allocation; used by the stepper)
# ---------------------------------------------------------------------------
@njit(cache=True, nogil=True)
def q_to_R(q: np.ndarray, R_out: np.ndarray) -> None:
    """Rotation matrix of the unit quaternion q (4,) (w, x, y, z) into R_out (3, 3)."""
    # Standard formula R = I + 2 w [v]x + 2 [v]x^2 written out per element
    # (Baraff, "Rigid Body Simulation", SIGGRAPH course notes).
    w, x, y, z = q[0], q[1], q[2], q[3]
    xx2 = 2.0 * x * x
    yy2 = 2.0 * y * y
    zz2 = 2.0 * z * z
    R_out[0, 0] = 1.0 - yy2 - zz2
    R_out[0, 1] = 2.0 * (x * y - w * z)
    R_out[0, 2] = 2.0 * (x * z + w * y)
    R_out[1, 0] = 2.0 * (x * y + w * z)
    R_out[1, 1] = 1.0 - xx2 - zz2
    R_out[1, 2] = 2.0 * (y * z - w * x)
    R_out[2, 0] = 2.0 * (x * z - w * y)
    R_out[2, 1] = 2.0 * (y * z + w * x)
    R_out[2, 2] = 1.0 - xx2 - yy2


@njit(cache=True, nogil=True)
def R_to_q(R: np.ndarray, q_out: np.ndarray) -> None:
    """Unit quaternion (w, x, y, z) of the rotation R (3, 3) into q_out (4,).

    Shepperd's method: with a non-negative trace w is the largest component
    and is computed first; otherwise the component matching the largest
    diagonal element is, so that the square root never sees a tiny value.
    The result has w >= 0 when the trace is >= 0 (ODE's choice of sign).
    """
    tr = R[0, 0] + R[1, 1] + R[2, 2]
    if tr >= 0.0:
        s = math.sqrt(tr + 1.0)
        q_out[0] = 0.5 * s
        s = 0.5 / s
        q_out[1] = (R[2, 1] - R[1, 2]) * s
        q_out[2] = (R[0, 2] - R[2, 0]) * s
        q_out[3] = (R[1, 0] - R[0, 1]) * s
        return
    # pick the largest diagonal element (ties resolved towards x, then y)
    if R[1, 1] > R[0, 0]:
        big = 2 if R[2, 2] > R[1, 1] else 1
    else:
        big = 2 if R[2, 2] > R[0, 0] else 0
    if big == 0:
        s = math.sqrt((R[0, 0] - (R[1, 1] + R[2, 2])) + 1.0)
        q_out[1] = 0.5 * s
        s = 0.5 / s
        q_out[2] = (R[0, 1] + R[1, 0]) * s
        q_out[3] = (R[2, 0] + R[0, 2]) * s
        q_out[0] = (R[2, 1] - R[1, 2]) * s
    elif big == 1:
        s = math.sqrt((R[1, 1] - (R[2, 2] + R[0, 0])) + 1.0)
        q_out[2] = 0.5 * s
        s = 0.5 / s
        q_out[3] = (R[1, 2] + R[2, 1]) * s
        q_out[1] = (R[0, 1] + R[1, 0]) * s
        q_out[0] = (R[0, 2] - R[2, 0]) * s
    else:
        s = math.sqrt((R[2, 2] - (R[0, 0] + R[1, 1])) + 1.0)
        q_out[3] = 0.5 * s
        s = 0.5 / s
        q_out[1] = (R[2, 0] + R[0, 2]) * s
        q_out[2] = (R[1, 2] + R[2, 1]) * s
        q_out[0] = (R[1, 0] - R[0, 1]) * s


@njit(cache=True, nogil=True)
def q_mul0(a: np.ndarray, b: np.ndarray, out: np.ndarray) -> None:
    """Hamilton product out = a * b of (4,) quaternions (rotation b, then a).

    ``out`` may not alias ``a`` or ``b``.
    """
    # scalar part: a.w b.w - a.v . b.v ; vector part: a.w b.v + b.w a.v + a.v x b.v
    out[0] = a[0] * b[0] - a[1] * b[1] - a[2] * b[2] - a[3] * b[3]
    out[1] = a[0] * b[1] + a[1] * b[0] + a[2] * b[3] - a[3] * b[2]
    out[2] = a[0] * b[2] + a[2] * b[0] + a[3] * b[1] - a[1] * b[3]
    out[3] = a[0] * b[3] + a[3] * b[0] + a[1] * b[2] - a[2] * b[1]


@njit(cache=True, nogil=True)
def q_normalize(q: np.ndarray) -> bool:
    """Scale the (4,) quaternion q to unit length in place.

    As ODE's dNormalize4 in a release build: a zero quaternion becomes the
    identity (1, 0, 0, 0) and False is returned; True otherwise.
    """
    l2 = q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]
    if l2 > 0.0:
        k = 1.0 / math.sqrt(l2)
        q[0] *= k
        q[1] *= k
        q[2] *= k
        q[3] *= k
        return True
    q[0] = 1.0
    q[1] = 0.0
    q[2] = 0.0
    q[3] = 0.0
    return False


@njit(cache=True, nogil=True)
def w_to_dq(w: np.ndarray, q: np.ndarray, dq_out: np.ndarray) -> None:
    """dq/dt (4,) of orientation q (4,) under world angular velocity w (3,) [rad/s].

    dq/dt = 1/2 (0, w) * q  (quaternion product, w in the world frame).
    """
    dq_out[0] = 0.5 * (-w[0] * q[1] - w[1] * q[2] - w[2] * q[3])
    dq_out[1] = 0.5 * (w[0] * q[0] + w[1] * q[3] - w[2] * q[2])
    dq_out[2] = 0.5 * (-w[0] * q[3] + w[1] * q[0] + w[2] * q[1])
    dq_out[3] = 0.5 * (w[0] * q[2] - w[1] * q[1] + w[2] * q[0])


# ---------------------------------------------------------------------------
# vector kernels (also re-exported by engine.ode.odemath, which documents them)
# ---------------------------------------------------------------------------
@njit(cache=True, nogil=True)
def safe_normalize3(a: np.ndarray) -> bool:
    """Scale the 3-vector a[:3] to unit length in place; False (unchanged) if zero.

    ODE's robust method: divide by the largest |component| first, so that
    vectors with tiny or huge components normalise accurately and an axis
    vector comes out with length exactly 1.0.
    """
    m0, m1, m2 = abs(a[0]), abs(a[1]), abs(a[2])
    # index of the largest magnitude (ties resolved towards x, then y)
    if m1 > m0:
        big = 2 if m2 > m1 else 1
    else:
        big = 2 if m2 > m0 else 0
    mb = (m0, m1, m2)[big]
    if not mb > 0.0:
        return False
    # the other two components, in index order (sets the rounding of the sum)
    i = 1 if big == 0 else 0
    j = 1 if big == 2 else 2
    inv = 1.0 / mb
    if math.isinf(inv):  # subnormal mb: divide (ODE would produce NaN here)
        u = a[i] / mb
        v = a[j] / mb
    else:  # multiply by the reciprocal, as ODE does (same rounding)
        u = a[i] * inv
        v = a[j] * inv
    k = 1.0 / math.sqrt(1.0 + u * u + v * v)
    a[i] = u * k
    a[j] = v * k
    a[big] = math.copysign(k, a[big])
    return True


@njit(cache=True, nogil=True)
def safe_normalize4(a: np.ndarray) -> bool:
    """Scale the 4-vector a[:4] to unit length in place; False (unchanged) if zero."""
    l2 = a[0] * a[0] + a[1] * a[1] + a[2] * a[2] + a[3] * a[3]
    if not l2 > 0.0:
        return False
    k = 1.0 / math.sqrt(l2)
    for i in range(4):
        a[i] *= k
    return True


@njit(cache=True, nogil=True)
def plane_space(n: np.ndarray, p: np.ndarray, q: np.ndarray) -> None:
    """Fill p, q (3,) so that n, p, q are mutually perpendicular, q = n x p.

    p is unit length; q is too when n is.  n must not be zero.
    """
    if abs(n[2]) > _SQRT1_2:
        # n is mostly along z: take p in the y-z plane, perpendicular to n
        a = n[1] * n[1] + n[2] * n[2]
        k = 1.0 / math.sqrt(a)
        p[0] = 0.0
        p[1] = -n[2] * k
        p[2] = n[1] * k
        # q = n x p, simplified with p[0] = 0 and a*k = |(n1, n2)|
        q[0] = a * k
        q[1] = -n[0] * p[2]
        q[2] = n[0] * p[1]
    else:
        # otherwise take p in the x-y plane
        a = n[0] * n[0] + n[1] * n[1]
        k = 1.0 / math.sqrt(a)
        p[0] = -n[1] * k
        p[1] = n[0] * k
        p[2] = 0.0
        q[0] = -n[2] * p[1]
        q[1] = n[2] * p[0]
        q[2] = a * k


@njit(cache=True, nogil=True)
def orthogonalize_R(m: np.ndarray) -> bool:
    """ODE 0.16.2's dOrthogonalizeR on the rows of m (3, 3), in place.

    Row 0 is normalised; row 1 minus its projection on row 0 (Gram-Schmidt),
    normalised, gives row 2 = row0 x row1'.  Quirk kept from ODE: row1' is
    written back only when no projection was needed (row 1 already
    perpendicular to row 0), otherwise m's row 1 is left as it was.
    Returns False, with m unchanged, if row 0 is zero or row 1 parallel.
    """
    if m[0, 0] == 0.0 and m[0, 1] == 0.0 and m[0, 2] == 0.0:
        return False
    n0 = m[0, 0] * m[0, 0] + m[0, 1] * m[0, 1] + m[0, 2] * m[0, 2]
    proj = m[0, 0] * m[1, 0] + m[0, 1] * m[1, 1] + m[0, 2] * m[1, 2]
    if proj != 0.0 and not n0 > 0.0:
        return False  # row 0 so tiny that its squared length underflows
    r1 = np.empty(3)
    for i in range(3):
        r1[i] = m[1, i] - (proj / n0) * m[0, i] if proj != 0.0 else m[1, i]
    if r1[0] == 0.0 and r1[1] == 0.0 and r1[2] == 0.0:
        return False
    if n0 != 1.0:
        safe_normalize3(m[0])
    if r1[0] * r1[0] + r1[1] * r1[1] + r1[2] * r1[2] != 1.0:
        safe_normalize3(r1)
    if proj == 0.0:
        m[1, :] = r1
    m[2, 0] = m[0, 1] * r1[2] - m[0, 2] * r1[1]
    m[2, 1] = m[0, 2] * r1[0] - m[0, 0] * r1[2]
    m[2, 2] = m[0, 0] * r1[1] - m[0, 1] * r1[0]
    return True


# ---------------------------------------------------------------------------
# the flat ODE API
# ---------------------------------------------------------------------------
def dRSetIdentity() -> np.ndarray:
    """The identity rotation as a (12,) dMatrix3."""
    return rotation12(np.eye(3))


def dQSetIdentity() -> np.ndarray:
    """The identity quaternion (1, 0, 0, 0), shape (4,)."""
    return np.array([1.0, 0.0, 0.0, 0.0])


def _q_axis_angle(function: str, ax: Any, ay: Any, az: Any, angle: Any) -> np.ndarray:
    x = as_real(ax, function, "ax")
    y = as_real(ay, function, "ay")
    z = as_real(az, function, "az")
    half = 0.5 * as_real(angle, function, "angle")
    l2 = x * x + y * y + z * z
    if not l2 > 0.0:
        # ODE's choice for a zero axis: no rotation
        return dQSetIdentity()
    k = detmath.sin(half) * (1.0 / math.sqrt(l2))
    return np.array([detmath.cos(half), x * k, y * k, z * k])


def dQFromAxisAndAngle(ax: float, ay: float, az: float, angle: float) -> np.ndarray:
    """Quaternion (4,) of a rotation by ``angle`` [rad] about (ax, ay, az).

    The axis need not be unit length; a zero axis gives the identity.
    """
    return _q_axis_angle("dQFromAxisAndAngle", ax, ay, az, angle)


def dRFromAxisAndAngle(ax: float, ay: float, az: float, angle: float) -> np.ndarray:
    """(12,) rotation by ``angle`` [rad] about the axis (ax, ay, az).

    Computed through the quaternion, as ODE does (zero axis -> identity).
    """
    q = _q_axis_angle("dRFromAxisAndAngle", ax, ay, az, angle)
    R = np.empty((3, 3))
    q_to_R(q, R)
    return rotation12(R)


def dRFromEulerAngles(phi: float, theta: float, psi: float) -> np.ndarray:
    """(12,) rotation from ODE's Euler angles phi, theta, psi [rad].

    ODE's convention: R = (Rz(psi) Ry(theta) Rx(phi))^T, i.e. the transpose
    of the usual roll-pitch-yaw matrix (rotate about x by phi, then y by
    theta, then z by psi); its first row is (cos psi cos theta,
    sin psi cos theta, -sin theta).
    """
    fn = "dRFromEulerAngles"
    f = as_real(phi, fn, "phi")
    t = as_real(theta, fn, "theta")
    p = as_real(psi, fn, "psi")
    sf, cf = detmath.sin(f), detmath.cos(f)
    st, ct = detmath.sin(t), detmath.cos(t)
    sp, cp = detmath.sin(p), detmath.cos(p)
    R = np.array([
        [cp * ct, sp * ct, -st],
        [cp * st * sf - sp * cf, sp * st * sf + cp * cf, ct * sf],
        [cp * st * cf + sp * sf, sp * st * cf - cp * sf, ct * cf],
    ])
    return rotation12(R)


def dRFrom2Axes(ax: float, ay: float, az: float,
                bx: float, by: float, bz: float) -> np.ndarray:
    """(12,) rotation whose x and y axes (columns) are a and b.

    a is normalised, b made perpendicular to a (Gram-Schmidt) and normalised;
    the z axis is a x b.  A zero a, or a b parallel to a, raises ODEError
    (ODE prints a debug message and leaves R unset).
    """
    fn = "dRFrom2Axes"
    a = np.array([as_real(ax, fn, "ax"), as_real(ay, fn, "ay"), as_real(az, fn, "az")])
    b = np.array([as_real(bx, fn, "bx"), as_real(by, fn, "by"), as_real(bz, fn, "bz")])
    la = math.sqrt(a[0] * a[0] + a[1] * a[1] + a[2] * a[2])
    if not la > 0.0:
        raise ODEError(fn, "ax, ay, az", "zero length vector")
    a *= 1.0 / la
    b -= (a[0] * b[0] + a[1] * b[1] + a[2] * b[2]) * a
    lb = math.sqrt(b[0] * b[0] + b[1] * b[1] + b[2] * b[2])
    if not lb > 0.0:
        raise ODEError(fn, "bx, by, bz", "zero length vector or parallel to a")
    b *= 1.0 / lb
    c = np.array([a[1] * b[2] - b[1] * a[2],
                  a[2] * b[0] - b[2] * a[0],
                  a[0] * b[1] - b[0] * a[1]])
    return rotation12(np.column_stack((a, b, c)))


def dRFromZAxis(ax: float, ay: float, az: float) -> np.ndarray:
    """(12,) rotation whose z axis (3rd column) is (ax, ay, az) normalised.

    The x and y axes are the p, q of :func:`dPlaneSpace` of that axis.
    A zero axis raises ODEError.
    """
    fn = "dRFromZAxis"
    n = np.array([as_real(ax, fn, "ax"), as_real(ay, fn, "ay"), as_real(az, fn, "az")])
    if not safe_normalize3(n):
        raise ODEError(fn, "ax, ay, az", "zero length axis")
    p = np.empty(3)
    q = np.empty(3)
    plane_space(n, p, q)
    return rotation12(np.column_stack((p, q, n)))


def _qmul(function: str, qb: Any, qc: Any, conj_b: bool, conj_c: bool) -> np.ndarray:
    b = as_vector(qb, 4, function, "qb")
    c = as_vector(qc, 4, function, "qc")
    # the inverse of a unit quaternion is its conjugate; negation is exact
    if conj_b:
        b[1:] = -b[1:]
    if conj_c:
        c[1:] = -c[1:]
    out = np.empty(4)
    q_mul0(b, c, out)
    return out


def dQMultiply0(qb: Any, qc: Any) -> np.ndarray:
    """qb * qc (4,): rotation qc followed by rotation qb."""
    return _qmul("dQMultiply0", qb, qc, False, False)


def dQMultiply1(qb: Any, qc: Any) -> np.ndarray:
    """inverse(qb) * qc (4,)."""
    return _qmul("dQMultiply1", qb, qc, True, False)


def dQMultiply2(qb: Any, qc: Any) -> np.ndarray:
    """qb * inverse(qc) (4,)."""
    return _qmul("dQMultiply2", qb, qc, False, True)


def dQMultiply3(qb: Any, qc: Any) -> np.ndarray:
    """inverse(qb) * inverse(qc) (4,)."""
    return _qmul("dQMultiply3", qb, qc, True, True)


def _q_to_r12(function: str, q: Any) -> np.ndarray:
    qq = as_vector(q, 4, function, "q")
    R = np.empty((3, 3))
    q_to_R(qq, R)
    return rotation12(R)


def _r_to_q(function: str, R: Any) -> np.ndarray:
    m = as_rotation3(R, function, "R")
    q = np.empty(4)
    R_to_q(m, q)
    return q


def _w_to_dq(function: str, w: Any, q: Any) -> np.ndarray:
    ww = as_vector(w, 3, function, "w")
    qq = as_vector(q, 4, function, "q")
    dq = np.empty(4)
    w_to_dq(ww, qq, dq)
    return dq


def dQtoR(q: Any) -> np.ndarray:
    """(12,) rotation matrix of the quaternion q (4,) (w, x, y, z); q should be unit."""
    return _q_to_r12("dQtoR", q)


def dRtoQ(R: Any) -> np.ndarray:
    """Unit quaternion (4,) of the rotation R (12-, 9-sequence or (3, 3))."""
    return _r_to_q("dRtoQ", R)


def dWtoDQ(w: Any, q: Any) -> np.ndarray:
    """dq/dt (4,) of orientation q (4,) under angular velocity w (3,) [rad/s]."""
    return _w_to_dq("dWtoDQ", w, q)


def dRfromQ(q: Any) -> np.ndarray:
    """The header name of dQtoR (C: ``dRfromQ(R, q)``): (12,) matrix of q."""
    return _q_to_r12("dRfromQ", q)


def dQfromR(R: Any) -> np.ndarray:
    """The header name of dRtoQ (C: ``dQfromR(q, R)``): quaternion (4,) of R."""
    return _r_to_q("dQfromR", R)


def dDQfromW(w: Any, q: Any) -> np.ndarray:
    """The header name of dWtoDQ (C: ``dDQfromW(dq, w, q)``): dq/dt (4,)."""
    return _w_to_dq("dDQfromW", w, q)
