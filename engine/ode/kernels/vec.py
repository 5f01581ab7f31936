"""Small vector and quaternion kernels used inside compiled joint and step code.

Quaternions are (4,) arrays (w, x, y, z); the four products follow ODE's
dQMultiply0..3: a*b, conj(a)*b, a*conj(b), conj(a)*conj(b). Rotation and
normalization kernels come from engine.ode.kernels.quat (checked bit for bit
against ODE); these are value-returning forms of them.
"""

from __future__ import annotations

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

