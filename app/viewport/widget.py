"""`ViewportWidget`: the 3D view as a widget (a `ViewportWindow` in a window container).

The main window lays this widget out like any other; the GL drawing happens in
the embedded `ViewportWindow` (app/viewport/gl_window.py) and the state it
draws lives in its `ViewportRenderer` (app/viewport/renderer.py). This class
forwards the viewport's public API to them, so callers need not know the split.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from contextlib import AbstractContextManager
from typing import Any

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QImage, QWindow
from PySide6.QtWidgets import QVBoxLayout, QWidget

from app.viewport.device_camera import DeviceCamera
from app.viewport.gl_window import ViewportWindow
from app.viewport.overlay_state import PluginDraw
from app.viewport.renderer import ViewportRenderer
from engine.sim.frame import Frame


def _renderer_attribute(name: str, doc: str, writable: bool = False) -> property:
    """A property reading (and, when ``writable``, setting) ``self.renderer.<name>``."""
    def get(self: RendererFacade) -> Any:
        return getattr(self.renderer, name)

    def set_(self: RendererFacade, value: Any) -> None:
        setattr(self.renderer, name, value)

    return property(get, set_ if writable else None, doc=doc)


class RendererFacade:
    """The viewport's state API, forwarded to ``self.renderer`` (a `ViewportRenderer`
    the subclass sets up). Mixed into `ViewportWidget` (and, in bench/, into a
    QOpenGLWidget twin used to compare surfaces)."""

    renderer: ViewportRenderer

    show_bounding_objects = _renderer_attribute(
        "show_bounding_objects", "Draw boundingObjects as wireframes.", writable=True)
    show_contacts = _renderer_attribute(
        "show_contacts", "Draw contact points and normals.", writable=True)
    show_forces = _renderer_attribute("show_forces", "Draw contact force arrows.", writable=True)
    show_trails = _renderer_attribute(
        "show_trails", "Draw the trails of `set_trail_solids` Solids.", writable=True)
    show_grid = _renderer_attribute("show_grid", "Draw the ground grid.", writable=True)
    camera = _renderer_attribute("camera", "The `OrbitCamera` (eye, target, size in device px).")
    scene = _renderer_attribute("scene", "The `RenderScene` of the shown world.")
    frame = _renderer_attribute("frame", "The shown simulation frame (or None).")
    trails = _renderer_attribute("trails", "The recorded `Trails`.")
    paint_errors = _renderer_attribute("paint_errors", "Exceptions raised while painting.")
    gl_errors = _renderer_attribute("gl_errors", "GL error codes found after painting.")
    plugin_errors = _renderer_attribute("plugin_errors",
                                        "Exceptions raised by the plugin's draw passes.")

    def set_world(self, world: Any, keep_camera: bool = False) -> None:
        """Show ``world`` (engine.world World, or None); see `ViewportRenderer.set_world`."""
        self.renderer.set_world(world, keep_camera)

    def set_frame(self, frame: Frame) -> None:
        """Show a simulation frame; records trail points."""
        self.renderer.set_frame(frame)

    def set_plugin_draw(self, fn: Callable[[int], object] | None) -> None:
        """``fn(pass_)`` runs with pass 0 before and 1 after the regular rendering (or None)."""
        self.renderer.set_plugin_draw(fn)

    def set_paint_guard(self, guard: Callable[[], AbstractContextManager] | None) -> None:
        """``guard()`` is entered around every paint (None: none)."""
        self.renderer.set_paint_guard(guard)

    def set_trail_solids(self, nodes: Sequence[Any]) -> None:
        """Record and draw the trajectories of these Solid Nodes."""
        self.renderer.set_trail_solids(nodes)

    def clear_trails(self) -> None:
        """Forget the recorded trail points (see `ViewportRenderer.clear_trails`)."""
        self.renderer.clear_trails()


class ViewportWidget(RendererFacade, QWidget):
    """The 3D view of a world.

    Signals: ``solid_picked(object)`` (clicked Solid Node or None),
    ``frameSwapped()`` (a frame was shown in the window) and
    ``keys_changed(list)`` (the Webots codes of the keys held in the view).
    """

    solid_picked = Signal(object)
    frameSwapped = Signal()
    keys_changed = Signal(list)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        # Created with a parent so that C++, not Python, owns the window: PySide's
        # QWindow.setParent (used by createWindowContainer) does not transfer ownership,
        # and at exit PySide deletes Python-owned objects before the top-level widgets,
        # which left the container with a deleted window (a crash at interpreter exit).
        # The container reparents the window; the holder only keeps the ownership.
        self._window_holder = QWindow()
        self.gl_window = ViewportWindow(self._window_holder)
        self.renderer: ViewportRenderer = self.gl_window.renderer
        container = QWidget.createWindowContainer(self.gl_window, self)
        container.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(container)
        self.setMinimumSize(200, 150)
        self.gl_window.solid_picked.connect(self.solid_picked)
        self.gl_window.frameSwapped.connect(self.frameSwapped)
        self.gl_window.keys_changed.connect(self.keys_changed)

    def world_to_pixel(self, point: Sequence[float]) -> tuple[float, float]:
        """Widget (logical) pixel of a world point (3,) [m] for the current camera."""
        return self.renderer.world_to_pixel(point, self.gl_window.devicePixelRatio())

    def pick_at(self, x: float, y: float) -> Any:
        """The Solid Node drawn at widget pixel (x, y), or None (renders an ID pass)."""
        return self.gl_window.pick_at(x, y)

    def grabFramebuffer(self) -> QImage:  # noqa: N802  (QOpenGLWidget's name)
        """The view drawn now, as an image (null before the GL window is set up)."""
        return self.gl_window.grab_image()

    def render_camera(self, camera: DeviceCamera, plugin_draw: PluginDraw | None = None
                      ) -> bytes | None:
        """A robot camera's BGRA image of the shown frame (`ViewportWindow.render_camera`)."""
        return self.gl_window.render_camera(camera, plugin_draw)

    def request_paint(self) -> None:
        """Schedule a repaint of the view (e.g. after moving the camera)."""
        self.gl_window.update()
