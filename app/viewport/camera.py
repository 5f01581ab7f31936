"""Orbit camera of the viewport (ENU world, Z up), initialised from a Webots Viewpoint.

A Webots Viewpoint looks along its local +X axis with +Z up (R2022+ ENU).
The camera keeps an eye point and a target; orbit turns the eye around the
target (yaw about world Z, pitch about the camera's side axis), pan moves
both, zoom scales their distance.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from app.viewport.transforms import look_at, perspective
from engine.sim.poses import axis_angle_to_matrix

UP = np.array([0.0, 0.0, 1.0])


class OrbitCamera:
    """Eye/target camera with a perspective projection.

    ``fov`` is the Viewpoint's fieldOfView: the horizontal angle when the view
    is wider than tall (as Webots), else the vertical one.
    """

    def __init__(self) -> None:
        self.eye = np.array([-3.0, -3.0, 3.0])
        self.target = np.zeros(3)
        self.fov = 0.785398
        self.near = 0.05
        self.far = 1000.0
        self.width = 1
        self.height = 1

    # ----- set-up ---------------------------------------------------------------------
    def set_from_viewpoint(self, vp: Any) -> None:
        """Eye at ``vp.position`` looking along the orientation's +X; target on the floor."""
        if vp is None:
            return
        self.eye = np.asarray(vp.get("position"), dtype=float)
        forward = axis_angle_to_matrix(vp.get("orientation"))[:, 0]
        if forward[2] < -1e-3 and self.eye[2] > 0:  # aim at the ground point seen
            dist = min(-self.eye[2] / forward[2], 100.0)
        else:
            dist = max(np.linalg.norm(self.eye), 1.0)
        self.target = self.eye + forward * dist
        self.fov = float(vp.get("fieldOfView"))
        self.near = float(vp.get("near")) or 0.05
        far = float(vp.get("far"))
        self.far = far if far > self.near else 1000.0

    def resize(self, width: int, height: int) -> None:
        """Size of the framebuffer in device pixels."""
        self.width, self.height = max(1, int(width)), max(1, int(height))

    # ----- matrices ---------------------------------------------------------------------
    @property
    def aspect(self) -> float:
        """Width / height."""
        return self.width / self.height

    def fovy(self) -> float:
        """Vertical field of view in radians."""
        if self.aspect > 1.0:
            return 2.0 * np.arctan(np.tan(self.fov / 2.0) / self.aspect)
        return self.fov

    def view_matrix(self) -> np.ndarray:
        """(4, 4) world -> eye."""
        return look_at(self.eye, self.target, UP)

    def projection_matrix(self) -> np.ndarray:
        """(4, 4) eye -> clip."""
        return perspective(self.fovy(), self.aspect, self.near, self.far)

    def view_projection(self) -> np.ndarray:
        """(4, 4) world -> clip."""
        return self.projection_matrix() @ self.view_matrix()

    def project(self, point: Any) -> tuple[float, float]:
        """Pixel (x right, y down, origin top-left) of a world point."""
        p = self.view_projection() @ np.append(np.asarray(point, dtype=float), 1.0)
        ndc = p[:3] / p[3]
        return ((ndc[0] + 1) / 2 * self.width, (1 - ndc[1]) / 2 * self.height)

    # ----- interaction ------------------------------------------------------------------
    def orbit(self, dx: float, dy: float, speed: float = 0.01) -> None:
        """Turn the eye around the target by a mouse drag of (dx, dy) pixels."""
        offset = self.eye - self.target
        yaw = -dx * speed
        c, s = np.cos(yaw), np.sin(yaw)
        offset = np.array([c * offset[0] - s * offset[1], s * offset[0] + c * offset[1], offset[2]])
        r = np.linalg.norm(offset)
        pitch = np.arcsin(np.clip(offset[2] / r, -1, 1))
        new_pitch = np.clip(pitch + dy * speed, -1.55, 1.55)
        horiz = offset[:2] / max(np.linalg.norm(offset[:2]), 1e-9)
        offset = np.array([*(horiz * r * np.cos(new_pitch)), r * np.sin(new_pitch)])
        self.eye = self.target + offset

    def pan(self, dx: float, dy: float) -> None:
        """Move eye and target so that the scene follows a drag of (dx, dy) pixels."""
        V = self.view_matrix()
        side, up = V[0, :3], V[1, :3]
        dist = np.linalg.norm(self.eye - self.target)
        per_pixel = 2.0 * dist * np.tan(self.fovy() / 2.0) / self.height
        move = (-dx * side + dy * up) * per_pixel
        self.eye = self.eye + move
        self.target = self.target + move

    def zoom(self, steps: float) -> None:
        """Move the eye towards the target (steps > 0) or away (steps < 0)."""
        offset = (self.eye - self.target) * (0.85 ** steps)
        if np.linalg.norm(offset) > 1e-3:
            self.eye = self.target + offset

    def ray(self, x: float, y: float) -> tuple[np.ndarray, np.ndarray]:
        """World ray (origin, unit direction) through pixel (x, y)."""
        inv = np.linalg.inv(self.view_projection())
        ndc = np.array([2 * x / self.width - 1, 1 - 2 * y / self.height])
        a = inv @ np.array([*ndc, -1.0, 1.0])
        b = inv @ np.array([*ndc, 1.0, 1.0])
        a, b = a[:3] / a[3], b[:3] / b[3]
        d = b - a
        return a, d / np.linalg.norm(d)
