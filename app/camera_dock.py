"""`CameraDock`: the robots' Camera devices, rendered by the app, shown small.

The engine cannot draw (engine/controllers/cameras.py): after each frame the
main window calls `CameraDock.render`. Every camera a controller has
enabled (a running session's device whose sampler is a `CameraSampler` with
``enabled``) is rendered from its device's world frame in the shown frame
(`app.viewport.device_camera.DeviceCamera`: its +x axis, +z up, horizontal
fieldOfView, width x height, near/far), with the physics plugin's draw
called with view = the robot's name, and the BGRA image is stored in its
sampler: ``Camera.getImage()`` gets the newest one at its next sample. A
camera is rendered at most once per sampling period of simulated time (and
again at once after a reset sent the time back); its controller sees the
image of the newest frame the window showed, which may be a few steps old
while the simulation runs faster than the window draws.

The dock shows each camera's latest image (``robot: camera``), scaled up
`DISPLAY_SCALE` times; it shows itself the first time a world's camera is
enabled.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from PySide6.QtCore import Qt
from PySide6.QtGui import QImage, QPixmap
from PySide6.QtWidgets import QDockWidget, QGridLayout, QLabel, QScrollArea, QWidget

from app.viewport import ViewportWidget
from app.viewport.device_camera import DeviceCamera
from engine.controllers.cameras import CameraSampler
from engine.sim.frame import Frame

#: How many screen pixels a camera pixel takes in the dock (at most).
DISPLAY_SCALE = 2
#: Largest side [px] of an image shown in the dock.
DISPLAY_MAX = 256


@dataclass
class CameraView:
    """One camera shown in the dock: its sampler, labels and last render."""

    sampler: CameraSampler
    caption: QLabel
    image: QLabel
    #: simulated time [ms] of the last render (None: never rendered)
    last_ms: float | None = None


def enabled_cameras(robots) -> list[CameraSampler]:
    """The samplers of the cameras enabled by running controllers of
    ``robots`` (a `ControllerHost`), in robot and device order."""
    out: list[CameraSampler] = []
    for session in list(robots.sessions):
        if not session.running:
            continue
        for device in session.devices:
            if isinstance(device.sampler, CameraSampler) and device.sampler.enabled:
                out.append(device.sampler)
    return out


def due(last_ms: float | None, now_ms: float, period_ms: float) -> bool:
    """True when a camera last rendered at ``last_ms`` is to be rendered at
    ``now_ms`` (simulated ms) with sampling period ``period_ms``."""
    return last_ms is None or now_ms < last_ms or now_ms - last_ms >= period_ms - 1e-9


def bgra_qimage(image: bytes, width: int, height: int) -> QImage:
    """A QImage (owning its pixels) of BGRA bytes, rows from the top."""
    # ARGB32 holds 0xAARRGGBB words: bytes B, G, R, A on little-endian machines
    return QImage(image, width, height, 4 * width, QImage.Format.Format_ARGB32).copy()


class CameraDock(QDockWidget):
    """The Cameras dock (see module docstring)."""

    def __init__(self, viewport: ViewportWidget, parent: QWidget | None = None) -> None:
        super().__init__("Cameras", parent)
        self.setObjectName("CameraDock")
        self.viewport = viewport
        self.runner = None
        self.views: dict[int, CameraView] = {}  # id(sampler) -> view
        #: wall time [s] each of the last 100 renders took
        self.render_seconds: list[float] = []
        self._shown_once = False
        body = QWidget()
        self._grid = QGridLayout(body)
        self._grid.setAlignment(Qt.AlignmentFlag.AlignTop | Qt.AlignmentFlag.AlignLeft)
        self.empty_label = QLabel("No camera enabled by a controller.")
        self._grid.addWidget(self.empty_label, 0, 0)
        scroll = QScrollArea()
        scroll.setWidgetResizable(True)
        scroll.setWidget(body)
        self.setWidget(scroll)

    def set_runner(self, runner) -> None:
        """Show the cameras of ``runner``'s robots (an `EngineRunner`, None: none)."""
        self.runner = runner
        for key in list(self.views):
            self._remove(key)
        self._shown_once = False

    def render(self, frame: Frame) -> int:
        """Render the cameras that are due at ``frame`` (module docstring); the
        number rendered."""
        runner = self.runner
        if runner is None:
            return 0
        samplers = enabled_cameras(runner.robots)
        for key in [k for k in self.views if k not in {id(s) for s in samplers}]:
            self._remove(key)
        step_ms = float(runner.sim.basic_time_step)
        rendered = 0
        for sampler in samplers:
            view = self.views.get(id(sampler)) or self._add(sampler)
            if not due(view.last_ms, frame.time_ms, sampler.device.period_steps * step_ms):
                continue
            if self._render_one(view, frame):
                rendered += 1
        self.empty_label.setVisible(not self.views)
        if self.views and not self._shown_once:
            self._shown_once = True
            self.show()
            self.raise_()
        return rendered

    def _render_one(self, view: CameraView, frame: Frame) -> bool:
        sampler = view.sampler
        pose = self.viewport.renderer.solid_world_transform(sampler.node)
        if pose is None:
            return False
        camera = DeviceCamera.from_info(pose, sampler.device.info)
        runner, robot = self.runner, sampler.robot_name
        start = time.perf_counter()
        image = self.viewport.render_camera(camera, lambda pass_: runner.draw(pass_, robot))
        if image is None:
            return False
        self.render_seconds.append(time.perf_counter() - start)
        del self.render_seconds[:-100]
        sampler.store(image)
        view.last_ms = frame.time_ms
        if self.isVisible():
            self._show_image(view, image, camera.width, camera.height)
        return True

    def _show_image(self, view: CameraView, image: bytes, width: int, height: int) -> None:
        scale = max(1, min(DISPLAY_SCALE, DISPLAY_MAX // max(width, height)))
        pixmap = QPixmap.fromImage(bgra_qimage(image, width, height))
        view.image.setPixmap(pixmap.scaled(width * scale, height * scale))

    def _add(self, sampler: CameraSampler) -> CameraView:
        row = 2 * len(self.views)
        caption = QLabel(f"{sampler.robot_name}: {sampler.device.name}")
        image = QLabel()
        image.setMinimumSize(32, 32)
        self._grid.addWidget(caption, row + 1, 0)
        self._grid.addWidget(image, row + 2, 0)
        view = CameraView(sampler, caption, image)
        self.views[id(sampler)] = view
        return view

    def _remove(self, key: int) -> None:
        view = self.views.pop(key)
        for label in (view.caption, view.image):
            self._grid.removeWidget(label)
            label.deleteLater()
