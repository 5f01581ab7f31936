"""Small vector and quaternion kernels used inside compiled joint and step code.

Quaternions are (4,) arrays (w, x, y, z); the four products follow ODE's
dQMultiply0..3: a*b, conj(a)*b, a*conj(b), conj(a)*conj(b). Rotation and
normalization kernels come from engine.ode.kernels.quat (checked bit for bit
against ODE); these are value-returning forms of them.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from engine.ode.kernels.quat import R_to_q as _R_to_q_into
from engine.ode.kernels.quat import plane_space as _plane_space_into
from engine.ode.kernels.quat import q_normalize, q_to_R  # noqa: F401  (q_to_R re-exported)


@njit(cache=True, nogil=True)
def R_to_q(R: np.ndarray) -> np.ndarray:
    """Unit quaternion (4,) of rotation matrix R (3,3) (ODE's dRtoQ)."""
    q = np.empty(4)
    _R_to_q_into(R, q)
    return q


@njit(cache=True, nogil=True)
def plane_space(n: np.ndarray) -> tuple:
    """Two unit vectors p, q with (n, p, q) a right-handed orthonormal basis (dPlaneSpace)."""
    p = np.empty(3)
    q = np.empty(3)
    _plane_space_into(n, p, q)
    return p, q


@njit(cache=True, nogil=True)
def normalize4_inplace(q: np.ndarray) -> None:
    """Scale q (4,) to unit length in place (zero becomes the identity), as dNormalize4."""
    q_normalize(q)


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
