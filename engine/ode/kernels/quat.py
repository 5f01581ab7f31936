"""Quaternion and rotation-matrix kernels in place on preallocated arrays (numba).

Quaternions are (4,) arrays (w, x, y, z), rotation matrices (3, 3), vectors (3,).
These reproduce ODE 0.16.2's arithmetic (same formulas and operation order), so
their results are bit-identical to libode's; ``engine.ode.rotation`` builds the
flat API's rotation functions on them and ``engine.ode.kernels.vec`` their
value-returning forms.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

_SQRT1_2 = math.sqrt(0.5)  # C's M_SQRT1_2


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
