"""Python-side anchor and axis bookkeeping shared by joint handles.

Anchors/axes are stored relative to the bodies (see
:mod:`engine.ode.joints.common`); these helpers convert world values given
to dJointSet*Anchor/Axis into that form and back, as ODE's setAnchors,
setAxes, getAnchor, getAnchor2, getAxis and getAxis2 do.
"""

from __future__ import annotations

import math

import numpy as np

from engine.ode.errors import ODEError
from engine.ode.kernels.bundles import Bodies, Joints
from engine.ode.kernels.detlinalg import matmul, norm
from engine.ode.rotation import safe_normalize3


def _frame(joint, slot: int):
    b = int(joint.world.joints.body[joint.index, slot])
    if b < 0:
        return None
    store = joint.world.bodies
    return store.pos[b], store.R[b]


def set_anchors(joint, p: np.ndarray, off1: int, off2: int) -> None:
    """Store world point p as body-0 and body-1 (or world) anchors."""
    f0 = _frame(joint, 0)
    if f0 is None:
        return
    d = joint.d
    d[off1:off1 + 3] = matmul(f0[1].T, p - f0[0])
    f1 = _frame(joint, 1)
    d[off2:off2 + 3] = p if f1 is None else matmul(f1[1].T, p - f1[0])


def unit(axis: np.ndarray, function: str, argument: str = "x, y, z") -> np.ndarray:
    """``axis`` (3,) divided by its length; ODEError naming ``function`` and
    ``argument`` for the zero vector.

    When the squared length over- or underflows (a component beyond ~1e154
    or all below ~1e-162) the length is inf or 0 and the plain division
    would store zeros or NaN: the largest component is divided out first
    instead, as ODE's dSafeNormalize3. Other vectors take the plain path
    unchanged (same bits as before).
    """
    n = float(norm(axis))
    if n == 0.0 or math.isinf(n):
        return _rescaled_unit(axis, function, argument)
    return axis / n


def _rescaled_unit(axis: np.ndarray, function: str, argument: str) -> np.ndarray:
    out = np.array(axis, dtype=np.float64)
    if not safe_normalize3(out):
        raise ODEError(function, argument, "the axis must not be the zero vector")
    return out


def _as_stored(axis: np.ndarray, u: np.ndarray) -> np.ndarray:
    """The world axis a joint without body 1 keeps: ``axis`` as given (ODE),
    or its unit ``u`` when its squared length does not fit a double."""
    n = float(norm(axis))
    return u if n == 0.0 or math.isinf(n) else axis


def set_axes(joint, axis: np.ndarray, off1: int | None, off2: int | None,
             function: str) -> None:
    """Store world direction ``axis`` (normalized) in body 0 / body 1 frames.

    As ODE, the body-1 slot of a joint with no body 1 keeps the axis as given
    (its unit when the squared length does not fit a double, see `unit`).
    """
    f0 = _frame(joint, 0)
    if f0 is None:
        return
    u = unit(axis, function)
    d = joint.d
    if off1 is not None:
        d[off1:off1 + 3] = matmul(f0[1].T, u)
    if off2 is not None:
        f1 = _frame(joint, 1)
        d[off2:off2 + 3] = _as_stored(axis, u) if f1 is None else matmul(f1[1].T, u)


def get_anchor1(joint, off: int) -> np.ndarray:
    """Body-0 anchor in world coordinates ((3,) zeros if unattached)."""
    f0 = _frame(joint, 0)
    if f0 is None:
        return np.zeros(3)
    return matmul(f0[1], joint.d[off:off + 3]) + f0[0]


def get_anchor2(joint, off: int) -> np.ndarray:
    """Body-1 anchor in world coordinates (the stored world point if no body 1)."""
    f1 = _frame(joint, 1)
    if f1 is None:
        return joint.d[off:off + 3].copy()
    return matmul(f1[1], joint.d[off:off + 3]) + f1[0]


def get_axis1(joint, off: int) -> np.ndarray:
    f0 = _frame(joint, 0)
    if f0 is None:
        return np.zeros(3)
    return matmul(f0[1], joint.d[off:off + 3])


def get_axis2(joint, off: int) -> np.ndarray:
    f1 = _frame(joint, 1)
    if f1 is None:
        return joint.d[off:off + 3].copy()
    return matmul(f1[1], joint.d[off:off + 3])


def body_arrays(world) -> Bodies:
    """The world's :class:`~engine.ode.kernels.bundles.Bodies` (its storage
    arrays, no copies) for Python-side joint kernel calls."""
    s = world.bodies
    return Bodies(s.pos, s.R, s.q, s.lvel, s.avel, s.facc, s.tacc, s.invmass)


def joint_arrays(world) -> Joints:
    """The world's :class:`~engine.ode.kernels.bundles.Joints` (its joint
    store's arrays, no copies) for kernel calls."""
    jt = world.joints
    return Joints(jt.count, jt.type, jt.body, jt.flags, jt.attach_seq, jt.data, jt.idata,
                  jt.feedback, jt.lam, jt.nrows)
