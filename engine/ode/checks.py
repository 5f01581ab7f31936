"""Argument checks shared by the flat API: every failure is an ODEError that
names the ODE function and the argument."""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

from engine.ode.errors import ODEError


def real(value: float, function: str, argument: str) -> float:
    """``value`` as a finite float, or ODEError."""
    try:
        x = float(value)
    except (TypeError, ValueError):
        raise ODEError(function, argument, f"expected a number, got {value!r}") from None
    if not math.isfinite(x):
        raise ODEError(function, argument, f"must be finite, got {x!r}")
    return x


def real_or_inf(value: float, function: str, argument: str) -> float:
    """``value`` as a float that may be ±inf but not NaN."""
    try:
        x = float(value)
    except (TypeError, ValueError):
        raise ODEError(function, argument, f"expected a number, got {value!r}") from None
    if math.isnan(x):
        raise ODEError(function, argument, "must not be NaN")
    return x


def integer(value: int, function: str, argument: str) -> int:
    """``value`` as an int (bools and integral numbers accepted)."""
    if isinstance(value, (int, np.integer)):
        return int(value)
    if isinstance(value, float) and value.is_integer():
        return int(value)
    raise ODEError(function, argument, f"expected an integer, got {value!r}")


def vector(values: Sequence[float], n: int, function: str, argument: str) -> np.ndarray:
    """A finite float64 array of shape (n,) from any sequence of n numbers."""
    try:
        a = np.asarray(values, dtype=np.float64).reshape(-1)
    except (TypeError, ValueError):
        raise ODEError(function, argument, f"expected {n} numbers, got {values!r}") from None
    if a.shape[0] < n:
        raise ODEError(function, argument, f"expected {n} numbers, got {a.shape[0]}")
    a = a[:n].copy()
    if not np.all(np.isfinite(a)):
        raise ODEError(function, argument, f"must be finite, got {a.tolist()}")
    return a


def xyz(x: float, y: float, z: float, function: str, argument: str = "x, y, z") -> np.ndarray:
    """Three scalars as a finite (3,) array."""
    return np.array([real(x, function, argument), real(y, function, argument),
                     real(z, function, argument)])


def rotation(R, function: str, argument: str = "R") -> np.ndarray:
    """A (3, 3) rotation from a 12-sequence (3x4 row-major), a 9-sequence or a (3, 3)."""
    try:
        a = np.asarray(R, dtype=np.float64)
    except (TypeError, ValueError):
        raise ODEError(function, argument, f"expected a rotation matrix, got {R!r}") from None
    if a.shape == (3, 3):
        m = a.copy()
    elif a.size == 12:
        m = a.reshape(3, 4)[:, :3].copy()
    elif a.size == 9:
        m = a.reshape(3, 3).copy()
    elif a.shape == (3, 4):
        m = a[:, :3].copy()
    else:
        raise ODEError(function, argument,
                       f"expected 12 or 9 numbers or a (3, 3) array, got shape {a.shape}")
    if not np.all(np.isfinite(m)):
        raise ODEError(function, argument, "must be finite")
    return m


def matrix12(R3: np.ndarray) -> np.ndarray:
    """A (3, 3) matrix as ODE's dMatrix3: (12,) row-major 3x4, 4th column 0."""
    out = np.zeros(12)
    out.reshape(3, 4)[:, :3] = R3
    return out


def not_none(obj, function: str, argument: str) -> None:
    """ODEError if ``obj`` is None (ODE's NULL where an object is required)."""
    if obj is None:
        raise ODEError(function, argument, "must not be NULL (None)")
