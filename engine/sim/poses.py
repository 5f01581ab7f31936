"""Rigid transforms for the world builder: Webots axis-angle <-> rotation matrices.

A `Frame` is a rigid transform ``x_parent = R @ x_local + t`` with ``R`` a
(3, 3) rotation matrix and ``t`` a (3,) translation in metres. Webots
rotations are ``(x, y, z, angle)`` tuples: a unit axis and an angle in
radians (a zero axis means no rotation).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from engine.ode.kernels.carried_frames import compose_carried
from engine.ode.kernels.detlinalg import dot, matmul, norm
from engine.ode.kernels.detmath import atan2, atan2_array, sincos


def axis_angle_to_matrix(rotation: tuple[float, float, float, float]) -> np.ndarray:
    """Rotation matrix (3, 3) of a Webots SFRotation ``(x, y, z, angle)``.

    The axis is normalised first (Webots does the same); a zero axis or a zero
    angle gives the identity.
    """
    x, y, z, angle = (float(v) for v in rotation)
    n = math.sqrt(x * x + y * y + z * z)
    if n == 0.0 or angle == 0.0:
        return np.eye(3)
    x, y, z = x / n, y / n, z / n
    # Rodrigues: R = I cos a + (1 - cos a) u u^T + sin a [u]x
    s, c = sincos(angle)
    t = 1.0 - c
    return np.array([
        [t * x * x + c, t * x * y - s * z, t * x * z + s * y],
        [t * x * y + s * z, t * y * y + c, t * y * z - s * x],
        [t * x * z - s * y, t * y * z + s * x, t * z * z + c],
    ])


def matrix_to_axis_angle(R: np.ndarray) -> tuple[float, float, float, float]:
    """Webots SFRotation ``(x, y, z, angle)`` of a rotation matrix (3, 3).

    The angle is in [0, pi]; the identity gives ``(0, 0, 1, 0)`` (Webots'
    default rotation).
    """
    R = np.asarray(R, dtype=np.float64)
    q = matrix_to_quaternion(R)
    w, v = q[0], q[1:]
    if w < 0.0:
        w, v = -w, -v
    s = math.sqrt(dot(v, v))
    if s < 1e-15:
        return (0.0, 0.0, 1.0, 0.0)
    angle = 2.0 * atan2(s, w)
    return (float(v[0] / s), float(v[1] / s), float(v[2] / s), float(angle))


def matrix_to_quaternion(R: np.ndarray) -> np.ndarray:
    """Unit quaternion (4,) ``(w, x, y, z)`` of a rotation matrix (3, 3)."""
    R = np.asarray(R, dtype=np.float64)
    tr = R[0, 0] + R[1, 1] + R[2, 2]
    # pick the largest of w, x, y, z to divide by (Shepperd's method)
    if tr > 0.0:
        s = math.sqrt(tr + 1.0) * 2.0
        q = [0.25 * s, (R[2, 1] - R[1, 2]) / s, (R[0, 2] - R[2, 0]) / s, (R[1, 0] - R[0, 1]) / s]
    elif R[0, 0] > R[1, 1] and R[0, 0] > R[2, 2]:
        s = math.sqrt(1.0 + R[0, 0] - R[1, 1] - R[2, 2]) * 2.0
        q = [(R[2, 1] - R[1, 2]) / s, 0.25 * s, (R[0, 1] + R[1, 0]) / s, (R[0, 2] + R[2, 0]) / s]
    elif R[1, 1] > R[2, 2]:
        s = math.sqrt(1.0 + R[1, 1] - R[0, 0] - R[2, 2]) * 2.0
        q = [(R[0, 2] - R[2, 0]) / s, (R[0, 1] + R[1, 0]) / s, 0.25 * s, (R[1, 2] + R[2, 1]) / s]
    else:
        s = math.sqrt(1.0 + R[2, 2] - R[0, 0] - R[1, 1]) * 2.0
        q = [(R[1, 0] - R[0, 1]) / s, (R[0, 2] + R[2, 0]) / s, (R[1, 2] + R[2, 1]) / s, 0.25 * s]
    out = np.array(q)
    return out / norm(out)


def matrices_to_axis_angles(R: np.ndarray) -> np.ndarray:
    """Webots SFRotations (k, 4) ``(x, y, z, angle)`` of rotation matrices (k, 3, 3).

    The batched `matrix_to_axis_angle`: the same quaternion branch per matrix,
    angle in [0, pi], ``(0, 0, 1, 0)`` for the identity.
    """
    R = np.asarray(R, dtype=np.float64).reshape(-1, 3, 3)
    r00, r11, r22 = R[:, 0, 0], R[:, 1, 1], R[:, 2, 2]
    d21, d02, d10 = R[:, 2, 1] - R[:, 1, 2], R[:, 0, 2] - R[:, 2, 0], R[:, 1, 0] - R[:, 0, 1]
    s01, s02, s12 = R[:, 0, 1] + R[:, 1, 0], R[:, 0, 2] + R[:, 2, 0], R[:, 1, 2] + R[:, 2, 1]
    tr = r00 + r11 + r22
    # Shepperd's method: the branch dividing by the largest of 4w², 4x², 4y², 4z²
    # (np.maximum keeps the square roots of the branches not taken real)
    b_w = tr > 0.0
    b_x = ~b_w & (r00 > r11) & (r00 > r22)
    b_y = ~b_w & ~b_x & (r11 > r22)
    s = 2.0 * np.sqrt(np.maximum(np.select(
        [b_w, b_x, b_y], [tr + 1.0, 1.0 + r00 - r11 - r22, 1.0 + r11 - r00 - r22],
        1.0 + r22 - r00 - r11), 1e-300))
    q = np.select([b_w[:, None], b_x[:, None], b_y[:, None]],
                  [np.stack([0.25 * s, d21 / s, d02 / s, d10 / s], 1),
                   np.stack([d21 / s, 0.25 * s, s01 / s, s02 / s], 1),
                   np.stack([d02 / s, s01 / s, 0.25 * s, s12 / s], 1)],
                  np.stack([d10 / s, s02 / s, s12 / s, 0.25 * s], 1))
    q /= norm(q, axis=-1)[:, None]
    q[q[:, 0] < 0.0] *= -1.0
    sin_half = np.sqrt(dot(q[:, 1:], q[:, 1:]))
    out = np.zeros((len(q), 4))
    out[:, 2] = 1.0
    turned = sin_half >= 1e-15
    out[turned, :3] = q[turned, 1:] / sin_half[turned, None]
    out[turned, 3] = 2.0 * atan2_array(sin_half[turned], np.ascontiguousarray(q[turned, 0]))
    return out


def solid_world_poses(body_R: np.ndarray, body_pos: np.ndarray, offset_R: np.ndarray,
                      offset_t: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """World frames of Solids carried by bodies: the one place a Solid's pose is
    composed from its body's.

    ``body_R`` (m, 3, 3) and ``body_pos`` (m, 3) [m] are the bodies' rotations and
    positions, ``offset_R`` (m, 3, 3) and ``offset_t`` (m, 3) [m] each Solid's
    frame in its body's frame (`SolidRecord.body_offset`). Returns the Solids'
    world rotations ``R = body_R offset_R`` (m, 3, 3) and positions
    ``t = body_R offset_t + body_pos`` (m, 3) [m], with `detlinalg.matmul`'s fixed
    summation order (the same bits as `Frame.compose`), computed by the kernel
    `engine.ode.kernels.carried_frames.compose_carried`. ValueError when the four
    arrays do not hold one row per Solid.
    """
    body_R = np.ascontiguousarray(body_R, dtype=np.float64).reshape(-1, 3, 3)
    body_pos = np.ascontiguousarray(body_pos, dtype=np.float64).reshape(-1, 3)
    offset_R = np.ascontiguousarray(offset_R, dtype=np.float64).reshape(-1, 3, 3)
    offset_t = np.ascontiguousarray(offset_t, dtype=np.float64).reshape(-1, 3)
    m = len(offset_R)
    if not len(body_R) == len(body_pos) == len(offset_t) == m:
        raise ValueError(f"solid_world_poses: {len(body_R)} rotations, {len(body_pos)} "
                         f"positions, {m} offset rotations and {len(offset_t)} offset "
                         "translations: one of each per Solid")
    rows = np.arange(m)
    R, t = np.empty((m, 3, 3)), np.empty((m, 3))
    compose_carried(body_R, body_pos, rows, offset_R, offset_t, rows, R, t)
    return R, t


@dataclass(frozen=True)
class Frame:
    """A rigid transform: rotation ``R`` (3, 3) and translation ``t`` (3,) [m]."""

    R: np.ndarray
    t: np.ndarray

    @staticmethod
    def identity() -> Frame:
        """The identity transform."""
        return Frame(np.eye(3), np.zeros(3))

    @staticmethod
    def from_fields(translation: tuple, rotation: tuple) -> Frame:
        """The transform of a Pose/Solid's ``translation`` and ``rotation`` fields."""
        return Frame(axis_angle_to_matrix(rotation), np.array(translation, dtype=np.float64))

    def compose(self, child: Frame) -> Frame:
        """``self * child``: the child's frame expressed in this frame's parent."""
        return Frame(matmul(self.R, child.R), matmul(self.R, child.t) + self.t)

    def inverse(self) -> Frame:
        """The inverse transform."""
        Rt = self.R.T
        return Frame(Rt, -matmul(Rt, self.t))

    def apply(self, p) -> np.ndarray:
        """A point (3,) mapped to the parent frame."""
        return matmul(self.R, np.asarray(p, dtype=np.float64)) + self.t

    def rotate(self, v) -> np.ndarray:
        """A direction (3,) mapped to the parent frame."""
        return matmul(self.R, np.asarray(v, dtype=np.float64))
