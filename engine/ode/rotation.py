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
``orthogonalize_R``, defined in :mod:`engine.ode.kernels.quat` and re-exported
here) work in place on preallocated arrays, for the engine's hot loops; the
Python API functions call them, so both compute identical
bits.  All of them reproduce ODE 0.16.2's arithmetic (same formulas and
operation order): on the same inputs the results are bit-identical to
libode's, checked against the real library.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from engine.ode.errors import ODEError
from engine.ode.kernels import detmath
from engine.ode.kernels.quat import (
    R_to_q,
    orthogonalize_R,
    plane_space,
    q_mul0,
    q_normalize,
    q_to_R,
    safe_normalize3,
    safe_normalize4,
    w_to_dq,
)

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
