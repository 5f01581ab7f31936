"""`DeviceCamera`: a robot's Camera device as a viewpoint to render from (no GL here).

A Webots Camera (R2022+ device convention) looks along its local +x axis
with +z up; ``fieldOfView`` is the horizontal angle [rad], the image is
``width`` x ``height`` pixels, ``near`` [m] the near clipping plane and
``far`` [m] the far one (0: infinite). The pose is the device Solid's world
transform (4, 4) of the frame shown.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np

#: Near plane [m] used when the field holds 0 or less.
MIN_NEAR = 1e-3


@dataclass(frozen=True)
class DeviceCamera:
    """A Camera device's viewpoint: world pose (4, 4), horizontal field of view
    [rad], image size [px], near and far planes [m] (far 0: infinite)."""

    pose: np.ndarray
    fov: float
    width: int
    height: int
    near: float = 0.01
    far: float = 0.0

    @classmethod
    def from_info(cls, pose: np.ndarray, info: dict[str, Any]) -> DeviceCamera:
        """From a camera device's description (`engine.controllers.devices`:
        ``width``, ``height``, ``fov``, ``near``, ``far``)."""
        return cls(np.asarray(pose, dtype=float), float(info.get("fov", 0.7854)),
                   max(1, int(info.get("width", 64))), max(1, int(info.get("height", 64))),
                   float(info.get("near", 0.01)), float(info.get("far", 0.0)))

    @property
    def eye(self) -> np.ndarray:
        """The camera's position (3,) [m]."""
        return self.pose[:3, 3].copy()

    @property
    def forward(self) -> np.ndarray:
        """The unit direction it looks along (3,): its local +x in the world."""
        return self.pose[:3, 0].copy()

    def fovy(self) -> float:
        """Vertical field of view [rad]: 2·atan(tan(fov/2)·height/width) (Webots)."""
        return 2.0 * math.atan(math.tan(self.fov / 2.0) * self.height / self.width)

    def view_matrix(self) -> np.ndarray:
        """(4, 4) world -> eye coordinates (GL's eye looks down its -z, +y up).

        GL's eye axes in the device frame: right = -y (the device's +y is its
        left), up = +z, backwards = -x; the rows of the rotation are those axes
        in world coordinates (columns of the pose's R), and the translation
        moves the eye to the origin: -rows·t.
        """
        R, t = self.pose[:3, :3], self.pose[:3, 3]
        V = np.eye(4)
        V[0, :3], V[1, :3], V[2, :3] = -R[:, 1], R[:, 2], -R[:, 0]
        V[:3, 3] = -V[:3, :3] @ t
        return V

    def projection_matrix(self) -> np.ndarray:
        """(4, 4) eye -> clip, OpenGL's perspective; an infinite far plane when
        ``far`` is 0 (or not beyond ``near``)."""
        near = self.near if self.near > 0.0 else MIN_NEAR
        f = 1.0 / math.tan(self.fovy() / 2.0)
        P = np.zeros((4, 4))
        P[0, 0] = f * self.height / self.width
        P[1, 1] = f
        P[3, 2] = -1.0
        if self.far > near:
            P[2, 2] = (self.far + near) / (near - self.far)
            P[2, 3] = 2.0 * self.far * near / (near - self.far)
        else:
            # the limit of the two terms above as far -> infinity
            P[2, 2] = -1.0
            P[2, 3] = -2.0 * near
        return P

    def view_projection(self) -> np.ndarray:
        """(4, 4) world -> clip."""
        return self.projection_matrix() @ self.view_matrix()
