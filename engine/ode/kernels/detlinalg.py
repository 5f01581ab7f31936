"""Deterministic small linear algebra for Python-level engine code (no BLAS).

numpy's ``@``, ``np.dot``, ``np.einsum`` and ``np.linalg`` call OpenBLAS (or
its own SIMD loops), whose kernels are chosen per CPU at run time and sum in
different orders: even a 3-element dot product differs in the last bit from
one x86-64 machine to another (decision 0012). The functions here write every
product as elementwise multiplications summed over the contracted index in
increasing order (``((a0 b0 + a1 b1) + a2 b2) + ...``). Elementwise float64
``*`` and ``+`` are IEEE-exact per element whatever SIMD numpy uses, so the
results are the same bits everywhere.

Shapes follow ``@``: ``matmul`` contracts the last axis of ``a`` with the
second-to-last of ``b`` (the only axis of a 1-D ``b``), broadcasting leading
axes, e.g. (3, 3) x (3,) -> (3,), (n, 3) x (3, 3) -> (n, 3),
(k, 3, 3) x (k, 3, 3) -> (k, 3, 3).
"""

from __future__ import annotations

import math

import numpy as np


def dot(a: np.ndarray, b: np.ndarray) -> np.ndarray | float:
    """Sum over the last axis of a * b, in index order; 1-D inputs give a float.

    a, b: (..., n) arrays (broadcast against each other).
    """
    a = np.asarray(a, dtype=np.float64)
    b = np.asarray(b, dtype=np.float64)
    n = a.shape[-1]
    if b.shape[-1] != n:
        raise ValueError(f"dot: last axes differ ({a.shape} and {b.shape})")
    if a.ndim == 1 and b.ndim == 1:
        if n == 3:
            x0, x1, x2 = a.tolist()
            y0, y1, y2 = b.tolist()
            return x0 * y0 + x1 * y1 + x2 * y2
        s = 0.0
        for x, y in zip(a.tolist(), b.tolist(), strict=True):
            s += x * y
        return s
    s = a[..., 0] * b[..., 0]
    for k in range(1, n):
        s = s + a[..., k] * b[..., k]
    return s


def matmul(a: np.ndarray, b: np.ndarray) -> np.ndarray | float:
    """a @ b with the sum over the contracted index in increasing order.

    a: (..., n, m) or (m,); b: (..., m, p) or (m,). Returns what ``a @ b``
    returns (a float for two 1-D vectors).
    """
    a = np.asarray(a, dtype=np.float64)
    b = np.asarray(b, dtype=np.float64)
    if a.ndim == 0 or b.ndim == 0:
        raise ValueError("matmul: scalar operands are not allowed (as for @)")
    if a.shape == (3, 3):
        if b.shape == (3,):
            return _mat3_vec3(a, b)
        if b.shape == (3, 3):
            return _mat3_mat3(a, b)
    m = a.shape[-1]
    if b.shape[-2 if b.ndim > 1 else 0] != m:
        raise ValueError(f"matmul: shapes {a.shape} and {b.shape} do not match")
    if a.ndim <= 2 and b.ndim <= 2 and a.size * b.size <= _SMALL:
        return _matmul_small(a, b)
    if b.ndim == 1:
        return dot(a, b)
    if a.ndim == 1:
        return matmul(a[None, :], b)[..., 0, :]
    # out[..., i, j] = sum_k a[..., i, k] b[..., k, j], k in increasing order
    out = a[..., :, 0, None] * b[..., None, 0, :]
    for k in range(1, m):
        out = out + a[..., :, k, None] * b[..., None, k, :]
    return out


def _mat3_vec3(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """(3, 3) x (3,) with Python floats: the hottest case, 4x cheaper than numpy ops."""
    (a00, a01, a02), (a10, a11, a12), (a20, a21, a22) = a.tolist()
    x, y, z = b.tolist()
    return np.array([a00 * x + a01 * y + a02 * z,
                     a10 * x + a11 * y + a12 * z,
                     a20 * x + a21 * y + a22 * z])


def _mat3_mat3(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """(3, 3) x (3, 3) with Python floats, each entry summed over k = 0, 1, 2."""
    (a00, a01, a02), (a10, a11, a12), (a20, a21, a22) = a.tolist()
    (b00, b01, b02), (b10, b11, b12), (b20, b21, b22) = b.tolist()
    return np.array([
        [a00 * b00 + a01 * b10 + a02 * b20, a00 * b01 + a01 * b11 + a02 * b21,
         a00 * b02 + a01 * b12 + a02 * b22],
        [a10 * b00 + a11 * b10 + a12 * b20, a10 * b01 + a11 * b11 + a12 * b21,
         a10 * b02 + a11 * b12 + a12 * b22],
        [a20 * b00 + a21 * b10 + a22 * b20, a20 * b01 + a21 * b11 + a22 * b21,
         a20 * b02 + a21 * b12 + a22 * b22],
    ])


_SMALL = 256   # a.size * b.size up to which Python floats beat numpy's per-call cost


def _matmul_small(a: np.ndarray, b: np.ndarray) -> np.ndarray | float:
    """matmul of 1-D/2-D operands with Python floats (same order, same bits)."""
    rows = a.tolist() if a.ndim == 2 else [a.tolist()]
    cols = list(zip(*b.tolist(), strict=True)) if b.ndim == 2 else [b.tolist()]
    out = []
    for r in rows:
        line = []
        for c in cols:
            s = 0.0
            for x, y in zip(r, c, strict=True):
                s += x * y
            line.append(s)
        out.append(line)
    if a.ndim == 1 and b.ndim == 1:
        return out[0][0]
    if b.ndim == 1:
        return np.array([line[0] for line in out])
    return np.array(out[0] if a.ndim == 1 else out)


def norm(v: np.ndarray, axis: int | None = None) -> np.ndarray | float:
    """Euclidean length: sqrt of the squares summed in index order.

    v: (n,) gives a float; with ``axis`` (only -1 or the last axis) (..., n)
    gives (...,).
    """
    v = np.asarray(v, dtype=np.float64)
    if axis is None:
        if v.ndim != 1:
            raise ValueError(f"norm: expected a 1-D vector, got shape {v.shape}")
        return math.sqrt(dot(v, v))
    if axis not in (-1, v.ndim - 1):
        raise ValueError(f"norm: only the last axis is supported, got axis={axis}")
    return np.sqrt(dot(v, v))


def inv3(A: np.ndarray) -> np.ndarray:
    """Inverse of a (3, 3) matrix by cofactors (as ODE's dInvertMatrix3).

    inv = adj(A) / det(A), det expanded along the first row. Raises
    ValueError for a singular matrix (det == 0) or a wrong shape.
    """
    A = np.asarray(A, dtype=np.float64)
    if A.shape != (3, 3):
        raise ValueError(f"inv3: expected a (3, 3) matrix, got shape {A.shape}")
    (a, b, c), (d, e, f), (g, h, i) = A.tolist()
    c00 = e * i - f * h
    c01 = f * g - d * i
    c02 = d * h - e * g
    det = a * c00 + b * c01 + c * c02
    if det == 0.0:
        raise ValueError("inv3: the matrix is singular (determinant 0)")
    r = 1.0 / det
    return np.array([
        [c00 * r, (c * h - b * i) * r, (b * f - c * e) * r],
        [c01 * r, (a * i - c * g) * r, (c * d - a * f) * r],
        [c02 * r, (b * g - a * h) * r, (a * e - b * d) * r],
    ])
