"""ODE's vector support functions (odemath.h) for the flat API.

* **Out-parameters are returned** (``dPlaneSpace(n) -> (p, q)``).
* **In/out arguments**: the result is returned, and if the caller passed a
  writable float64 numpy array for that argument it is ALSO updated in place
  (``v = np.array([3., 0, 0]); dNormalize3(v)`` returns the unit vector and
  leaves ``v`` normalised). Sequences that are not ndarrays are only read.
* ``dSafeNormalize3``/``dOrthogonalizeR`` return the (possibly unchanged)
  vector/matrix, as the reference harness does.
* Misuse (NaN/inf input, zero vector to ``dNormalize3``) raises ODEError.

These are bit-identical to ODE 0.16.2. Matrix functions live in
engine.ode.matrix; compiled kernels in engine.ode.kernels.linalg.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from engine.ode.constants import M_PI, dEpsilon, dInfinity  # noqa: F401  (ODE names its math here)
from engine.ode.errors import ODEError
from engine.ode.rotation import (
    as_rotation3,
    as_vector,
    orthogonalize_R,
    plane_space,
    rotation12,
    safe_normalize3,
    safe_normalize4,
)


def _update_in_place(arg: Any, result: np.ndarray) -> None:
    """Write ``result`` into ``arg`` if it is a writable float64 ndarray.

    A 1-D ``arg`` longer than a 1-D result (a padded dVector3) gets its
    first elements written; otherwise the sizes must match.
    """
    if not (isinstance(arg, np.ndarray) and arg.dtype == np.float64 and arg.flags.writeable):
        return
    if arg.shape == result.shape:
        arg[...] = result
    elif arg.ndim == 1 and result.ndim == 1 and arg.size >= result.size:
        arg[:result.size] = result
    elif arg.size == result.size:
        arg[...] = result.reshape(arg.shape)


def _count(n: Any, function: str, argument: str, minimum: int = 1) -> int:
    try:
        ok = not isinstance(n, bool) and int(n) == n and int(n) >= minimum
    except (TypeError, ValueError, OverflowError):
        ok = False
    if not ok:
        raise ODEError(function, argument, f"must be an integer >= {minimum}, got {n!r}")
    return int(n)


def _dpad(m: int) -> int:
    """ODE's row padding: m > 1 rounded up to a multiple of 4."""
    return ((m - 1) | 3) + 1 if m > 1 else m


# ---------------------------------------------------------------------------
# vectors (odemath.h)
# ---------------------------------------------------------------------------
def dSafeNormalize3(a: Any) -> np.ndarray:
    """Unit vector (3,) along ``a``; a zero vector is returned unchanged.

    As ODE: the largest component is divided out first, so tiny vectors
    normalise accurately and axis vectors give length exactly 1.0.
    In/out: a writable ndarray ``a`` is updated in place.
    """
    v = as_vector(a, 3, "dSafeNormalize3", "a")
    safe_normalize3(v)
    _update_in_place(a, v)
    return v


def dSafeNormalize4(a: Any) -> np.ndarray:
    """Unit 4-vector (4,) along ``a`` (zero returned unchanged); in/out."""
    v = as_vector(a, 4, "dSafeNormalize4", "a")
    safe_normalize4(v)
    _update_in_place(a, v)
    return v


def dNormalize3(a: Any) -> np.ndarray:
    """Unit vector (3,) along ``a`` (in/out); a zero vector raises ODEError."""
    v = as_vector(a, 3, "dNormalize3", "a")
    if not safe_normalize3(v):
        raise ODEError("dNormalize3", "a", "cannot normalise a zero vector")
    _update_in_place(a, v)
    return v


def dNormalize4(a: Any) -> np.ndarray:
    """Unit 4-vector (4,) along ``a`` (in/out); a zero vector raises ODEError."""
    v = as_vector(a, 4, "dNormalize4", "a")
    if not safe_normalize4(v):
        raise ODEError("dNormalize4", "a", "cannot normalise a zero vector")
    _update_in_place(a, v)
    return v


def dPlaneSpace(n: Any) -> tuple[np.ndarray, np.ndarray]:
    """Two vectors (p, q), each (3,), perpendicular to the unit normal n.

    n, p, q are mutually perpendicular and q = n x p; p is unit length (q
    too if n is).  A zero n raises ODEError.
    """
    v = as_vector(n, 3, "dPlaneSpace", "n")
    if not (v != 0.0).any():
        raise ODEError("dPlaneSpace", "n", "zero normal")
    p = np.empty(3)
    q = np.empty(3)
    plane_space(v, p, q)
    return p, q


def dOrthogonalizeR(m: Any) -> np.ndarray:
    """Re-orthonormalise a rotation (12-, 9-sequence or (3, 3)); returns (12,).

    ODE 0.16.2's method, faithfully: row 0 is normalised, row 1 is made
    perpendicular to it and normalised *for computing* row 2 = row0 x row1,
    but when row 1 was not already perpendicular to row 0 the stored row 1
    stays as given (ODE only writes its corrected copy back when no
    projection was needed).  A matrix with a zero row 0, or a row 1
    parallel to it, is returned unchanged (C returns 0).  In/out.
    """
    R = as_rotation3(m, "dOrthogonalizeR", "m")
    orthogonalize_R(R)
    out = rotation12(R)
    if isinstance(m, np.ndarray) and m.size == 9:
        _update_in_place(m, R)
    else:
        _update_in_place(m, out)
    return out


def dCalcVectorDot3(a: Any, b: Any) -> float:
    """a . b of two 3-vectors."""
    x = as_vector(a, 3, "dCalcVectorDot3", "a")
    y = as_vector(b, 3, "dCalcVectorDot3", "b")
    return float(x[0] * y[0] + x[1] * y[1] + x[2] * y[2])


def dCalcVectorCross3(a: Any, b: Any) -> np.ndarray:
    """a x b (3,) (C: ``dCalcVectorCross3(res, a, b)``)."""
    x = as_vector(a, 3, "dCalcVectorCross3", "a")
    y = as_vector(b, 3, "dCalcVectorCross3", "b")
    return np.array([x[1] * y[2] - x[2] * y[1],
                     x[2] * y[0] - x[0] * y[2],
                     x[0] * y[1] - x[1] * y[0]])


def dCalcVectorLength3(a: Any) -> float:
    """|a| of a 3-vector."""
    x = as_vector(a, 3, "dCalcVectorLength3", "a")
    return math.sqrt(x[0] * x[0] + x[1] * x[1] + x[2] * x[2])
