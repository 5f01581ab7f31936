"""World pose -> local translation/rotation of a Solid (for `SceneTreeModel.apply_frame`).

A rigid transform is ``(R (3, 3), t (3,))`` with ``x_parent = R @ x_local + t``;
Webots rotations are ``(x, y, z, angle)`` (unit axis, radians).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

Transform = tuple[np.ndarray, np.ndarray]


def axis_angle_to_matrix(rotation: Sequence[float]) -> np.ndarray:
    """Rotation matrix (3, 3) of an SFRotation; a zero axis gives the identity."""
    x, y, z, angle = (float(v) for v in rotation)
    n = math.sqrt(x * x + y * y + z * z)
    if n == 0.0 or angle == 0.0:
        return np.eye(3)
    u = np.array([x, y, z]) / n
    # Rodrigues: R = I cos a + (1 - cos a) u u^T + sin a [u]x
    k = np.array([[0.0, -u[2], u[1]], [u[2], 0.0, -u[0]], [-u[1], u[0], 0.0]])
    c, s = math.cos(angle), math.sin(angle)
    return c * np.eye(3) + (1.0 - c) * np.outer(u, u) + s * k


def matrix_to_axis_angle(R: np.ndarray) -> tuple[float, float, float, float]:
    """SFRotation of a rotation matrix (3, 3): angle in [0, pi]; identity -> (0, 0, 1, 0)."""
    R = np.asarray(R, dtype=np.float64)
    # the axis is the skew part's vector; the angle from the trace and its length
    v = np.array([R[2, 1] - R[1, 2], R[0, 2] - R[2, 0], R[1, 0] - R[0, 1]])
    s = float(np.linalg.norm(v)) / 2.0
    c = (float(np.trace(R)) - 1.0) / 2.0
    angle = math.atan2(s, c)
    if angle < 1e-12:
        return (0.0, 0.0, 1.0, 0.0)
    if s > 1e-6:
        axis = v / (2.0 * s)
    else:  # angle near pi: axis from the symmetric part, R = 2 u u^T - I
        m = (R + np.eye(3)) / 2.0
        i = int(np.argmax(np.diag(m)))
        axis = m[:, i] / math.sqrt(max(m[i, i], 1e-300))
    axis = axis / np.linalg.norm(axis)
    return (float(axis[0]), float(axis[1]), float(axis[2]), float(angle))


def compose(a: Transform, b: Transform) -> Transform:
    """``a * b``: the transform ``b`` expressed in ``a``'s parent frame."""
    return a[0] @ b[0], a[0] @ b[1] + a[1]


def local_pose(parent_world: Transform, world: Transform) -> tuple[tuple, tuple]:
    """Translation (3-tuple) and SFRotation of ``world`` relative to ``parent_world``."""
    Rp, tp = parent_world
    R = Rp.T @ world[0]
    t = Rp.T @ (np.asarray(world[1], dtype=np.float64) - tp)
    return tuple(float(v) for v in t), matrix_to_axis_angle(R)


def as_transform(pose: object) -> Transform:
    """A frame entry ``(pos (3,), R (3, 3))`` (or an object with ``.t``/``.R``) as a transform."""
    if hasattr(pose, "R") and hasattr(pose, "t"):
        return np.asarray(pose.R, dtype=np.float64), np.asarray(pose.t, dtype=np.float64)
    pos, R = pose  # type: ignore[misc]
    R = np.asarray(R, dtype=np.float64)
    if R.shape != (3, 3):
        R = R.reshape(3, -1)[:, :3]
    return R, np.asarray(pos, dtype=np.float64)
