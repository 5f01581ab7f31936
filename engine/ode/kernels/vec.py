"""Small vector and quaternion kernels used inside compiled joint and step code.

Quaternions are (4,) arrays (w, x, y, z); the four products follow ODE's
dQMultiply0..3: a*b, conj(a)*b, a*conj(b), conj(a)*conj(b).
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

_SQRT1_2 = 0.7071067811865475244


@njit(cache=True, nogil=True)
def dot3(a: np.ndarray, b: np.ndarray) -> float:
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]


@njit(cache=True, nogil=True)
def cross3(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    out = np.empty(3)
    out[0] = a[1] * b[2] - a[2] * b[1]
    out[1] = a[2] * b[0] - a[0] * b[2]
    out[2] = a[0] * b[1] - a[1] * b[0]
    return out


@njit(cache=True, nogil=True)
def mat_vec(R: np.ndarray, v: np.ndarray) -> np.ndarray:
    """R @ v for R (3,3), v (3,)."""
    out = np.empty(3)
    for i in range(3):
        out[i] = R[i, 0] * v[0] + R[i, 1] * v[1] + R[i, 2] * v[2]
    return out


@njit(cache=True, nogil=True)
def mat_t_vec(R: np.ndarray, v: np.ndarray) -> np.ndarray:
    """R.T @ v for R (3,3), v (3,)."""
    out = np.empty(3)
    for i in range(3):
        out[i] = R[0, i] * v[0] + R[1, i] * v[1] + R[2, i] * v[2]
    return out


@njit(cache=True, nogil=True)
def normalize3(v: np.ndarray) -> np.ndarray:
    """v / |v| (a new array); v must not be zero."""
    n = math.sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2])
    out = np.empty(3)
    out[0] = v[0] / n
    out[1] = v[1] / n
    out[2] = v[2] / n
    return out


@njit(cache=True, nogil=True)
def plane_space(n: np.ndarray) -> tuple:
    """Two unit vectors p, q with (n, p, q) a right-handed orthonormal basis.

    The component of n with the largest magnitude among the ones tested
    decides which coordinate plane p is built in, so that p never degenerates.
    """
    p = np.empty(3)
    q = np.empty(3)
    if abs(n[2]) > _SQRT1_2:
        # p in the y-z plane
        a = n[1] * n[1] + n[2] * n[2]
        k = 1.0 / math.sqrt(a)
        p[0] = 0.0
        p[1] = -n[2] * k
        p[2] = n[1] * k
        q[0] = a * k
        q[1] = -n[0] * p[2]
        q[2] = n[0] * p[1]
    else:
        # p in the x-y plane
        a = n[0] * n[0] + n[1] * n[1]
        k = 1.0 / math.sqrt(a)
        p[0] = -n[1] * k
        p[1] = n[0] * k
        p[2] = 0.0
        q[0] = -n[2] * p[1]
        q[1] = n[2] * p[0]
        q[2] = a * k
    return p, q


@njit(cache=True, nogil=True)
def _qmul(aw, ax, ay, az, bw, bx, by, bz) -> np.ndarray:
    out = np.empty(4)
    out[0] = aw * bw - ax * bx - ay * by - az * bz
    out[1] = aw * bx + ax * bw + ay * bz - az * by
    out[2] = aw * by + ay * bw + az * bx - ax * bz
    out[3] = aw * bz + az * bw + ax * by - ay * bx
    return out


@njit(cache=True, nogil=True)
def qmul0(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """a * b."""
    return _qmul(a[0], a[1], a[2], a[3], b[0], b[1], b[2], b[3])


@njit(cache=True, nogil=True)
def qmul1(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """conj(a) * b."""
    return _qmul(a[0], -a[1], -a[2], -a[3], b[0], b[1], b[2], b[3])


@njit(cache=True, nogil=True)
def qmul2(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """a * conj(b)."""
    return _qmul(a[0], a[1], a[2], a[3], b[0], -b[1], -b[2], -b[3])


@njit(cache=True, nogil=True)
def qmul3(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """conj(a) * conj(b)."""
    return _qmul(a[0], -a[1], -a[2], -a[3], b[0], -b[1], -b[2], -b[3])


@njit(cache=True, nogil=True)
def q_to_R(q: np.ndarray, R: np.ndarray) -> None:
    """Write the rotation matrix of unit quaternion q (4,) into R (3,3)."""
    qq1 = 2 * q[1] * q[1]
    qq2 = 2 * q[2] * q[2]
    qq3 = 2 * q[3] * q[3]
    R[0, 0] = 1 - qq2 - qq3
    R[0, 1] = 2 * (q[1] * q[2] - q[0] * q[3])
    R[0, 2] = 2 * (q[1] * q[3] + q[0] * q[2])
    R[1, 0] = 2 * (q[1] * q[2] + q[0] * q[3])
    R[1, 1] = 1 - qq1 - qq3
    R[1, 2] = 2 * (q[2] * q[3] - q[0] * q[1])
    R[2, 0] = 2 * (q[1] * q[3] - q[0] * q[2])
    R[2, 1] = 2 * (q[2] * q[3] + q[0] * q[1])
    R[2, 2] = 1 - qq1 - qq2


@njit(cache=True, nogil=True)
def R_to_q(R: np.ndarray) -> np.ndarray:
    """Unit quaternion (4,) of rotation matrix R (3,3).

    Uses the trace when it is positive; otherwise the largest diagonal
    element picks the quaternion component computed first, which keeps the
    square root away from zero.
    """
    q = np.empty(4)
    tr = R[0, 0] + R[1, 1] + R[2, 2]
    if tr >= 0:
        s = math.sqrt(tr + 1)
        q[0] = 0.5 * s
        s = 0.5 / s
        q[1] = (R[2, 1] - R[1, 2]) * s
        q[2] = (R[0, 2] - R[2, 0]) * s
        q[3] = (R[1, 0] - R[0, 1]) * s
    elif R[1, 1] > R[0, 0]:
        if R[2, 2] > R[1, 1]:
            s = math.sqrt((R[2, 2] - (R[0, 0] + R[1, 1])) + 1)
            q[3] = 0.5 * s
            s = 0.5 / s
            q[1] = (R[2, 0] + R[0, 2]) * s
            q[2] = (R[1, 2] + R[2, 1]) * s
            q[0] = (R[1, 0] - R[0, 1]) * s
        else:
            s = math.sqrt((R[1, 1] - (R[2, 2] + R[0, 0])) + 1)
            q[2] = 0.5 * s
            s = 0.5 / s
            q[3] = (R[1, 2] + R[2, 1]) * s
            q[1] = (R[0, 1] + R[1, 0]) * s
            q[0] = (R[0, 2] - R[2, 0]) * s
    elif R[2, 2] > R[0, 0]:
        s = math.sqrt((R[2, 2] - (R[0, 0] + R[1, 1])) + 1)
        q[3] = 0.5 * s
        s = 0.5 / s
        q[1] = (R[2, 0] + R[0, 2]) * s
        q[2] = (R[1, 2] + R[2, 1]) * s
        q[0] = (R[1, 0] - R[0, 1]) * s
    else:
        s = math.sqrt((R[0, 0] - (R[1, 1] + R[2, 2])) + 1)
        q[1] = 0.5 * s
        s = 0.5 / s
        q[2] = (R[0, 1] + R[1, 0]) * s
        q[3] = (R[2, 0] + R[0, 2]) * s
        q[0] = (R[2, 1] - R[1, 2]) * s
    return q


@njit(cache=True, nogil=True)
def normalize4_inplace(q: np.ndarray) -> None:
    """Scale q (4,) to unit length in place."""
    n = math.sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3])
    if n > 0:
        q[0] /= n
        q[1] /= n
        q[2] /= n
        q[3] /= n
    else:
        q[0] = 1.0
        q[1] = 0.0
        q[2] = 0.0
        q[3] = 0.0


@njit(cache=True, nogil=True)
def mat33_mul(A: np.ndarray, B: np.ndarray) -> np.ndarray:
    """A @ B for (3,3) matrices (no BLAS needed)."""
    out = np.empty((3, 3))
    for i in range(3):
        for j in range(3):
            out[i, j] = A[i, 0] * B[0, j] + A[i, 1] * B[1, j] + A[i, 2] * B[2, j]
    return out


@njit(cache=True, nogil=True)
def mat33_mul_bt(A: np.ndarray, B: np.ndarray) -> np.ndarray:
    """A @ B.T for (3,3) matrices."""
    out = np.empty((3, 3))
    for i in range(3):
        for j in range(3):
            out[i, j] = A[i, 0] * B[j, 0] + A[i, 1] * B[j, 1] + A[i, 2] * B[j, 2]
    return out


@njit(cache=True, nogil=True)
def inv33(A: np.ndarray, out: np.ndarray) -> bool:
    """Write the inverse of (3,3) A into out by cofactors; False if singular."""
    c00 = A[1, 1] * A[2, 2] - A[1, 2] * A[2, 1]
    c01 = A[1, 2] * A[2, 0] - A[1, 0] * A[2, 2]
    c02 = A[1, 0] * A[2, 1] - A[1, 1] * A[2, 0]
    det = A[0, 0] * c00 + A[0, 1] * c01 + A[0, 2] * c02
    if det == 0:
        return False
    r = 1.0 / det
    out[0, 0] = c00 * r
    out[1, 0] = c01 * r
    out[2, 0] = c02 * r
    out[0, 1] = (A[0, 2] * A[2, 1] - A[0, 1] * A[2, 2]) * r
    out[1, 1] = (A[0, 0] * A[2, 2] - A[0, 2] * A[2, 0]) * r
    out[2, 1] = (A[0, 1] * A[2, 0] - A[0, 0] * A[2, 1]) * r
    out[0, 2] = (A[0, 1] * A[1, 2] - A[0, 2] * A[1, 1]) * r
    out[1, 2] = (A[0, 2] * A[1, 0] - A[0, 0] * A[1, 2]) * r
    out[2, 2] = (A[0, 0] * A[1, 1] - A[0, 1] * A[1, 0]) * r
    return True
