"""Camera images: rendered by the app, handed to the controllers.

The engine cannot draw (no Qt or OpenGL here). A `CameraSampler`'s value is
the latest image a renderer stored with `CameraSampler.store` (BGRA bytes,
``4·width·height``, rows from the top); the app renders every enabled camera
from its robot's point of view after each frame (`app.camera_dock`).
Without a renderer (``odeon run``) the value stays None and
``Camera.getImage()`` returns None.
"""

from __future__ import annotations

import threading


class CameraSampler:
    """The latest image of one Camera device."""

    def __init__(self, device, robot_name: str) -> None:
        self.device = device
        self.robot_name = robot_name
        self._image: bytes | None = None
        self._lock = threading.Lock()

    @property
    def node(self):
        return self.device.node

    @property
    def enabled(self) -> bool:
        """True while the controller has the camera enabled."""
        return self.device.period_steps > 0

    def store(self, image: bytes) -> None:
        """A renderer's new image (BGRA, ``4·width·height`` bytes)."""
        with self._lock:
            self._image = bytes(image)

    def post_step(self, dt: float) -> None:
        """Images do not change with the physics step."""

    def read(self) -> bytes | None:
        with self._lock:
            return self._image
