"""`ViewportWindow`: the QOpenGLWindow the 3D view is painted in, with the mouse.

A QOpenGLWindow paints straight into its own native window. The viewport used
to be a QOpenGLWidget, which paints into a framebuffer object that Qt then
composes with the rest of the main window on every frame; with a software GL
driver that composition cost more CPU than drawing the scene (decision 0011).
`app.viewport.widget.ViewportWidget` embeds this window in the widget tree.

Picking and `grab_image` draw into an offscreen framebuffer of the same size,
so they neither disturb nor depend on what the window shows; `render_camera`
draws a robot's Camera device into one of the camera's size.

Keys pressed while the window has focus are kept as Webots key codes
(`app.viewport.keys.HeldKeys`); ``keys_changed(list)`` gives the held codes
after each change (the main window hands them to the controllers).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

import numpy as np
import shiboken6
from OpenGL import GL
from PySide6.QtCore import QPoint, Qt, Signal
from PySide6.QtGui import QFocusEvent, QImage, QKeyEvent, QMouseEvent, QWheelEvent, QWindow
from PySide6.QtOpenGL import (
    QOpenGLFramebufferObject,
    QOpenGLFramebufferObjectFormat,
    QOpenGLWindow,
)

from app.viewport.device_camera import DeviceCamera
from app.viewport.keys import HeldKeys
from app.viewport.overlay_state import PluginDraw
from app.viewport.renderer import ViewportRenderer

T = TypeVar("T")

#: Mouse travel [logical px] after which a press is a drag, not a click.
CLICK_SLOP_PX = 3


class ViewportWindow(QOpenGLWindow):
    """The 3D view's window. Signals ``solid_picked(object)``: clicked Solid Node or
    None; ``keys_changed(list)``: the Webots codes of the keys held now.

    ``renderer`` holds everything drawn; it asks for a repaint (``update``)
    whenever something it shows changes.
    """

    solid_picked = Signal(object)
    keys_changed = Signal(list)

    def __init__(self, parent: QWindow | None = None) -> None:
        super().__init__(QOpenGLWindow.UpdateBehavior.NoPartialUpdate, parent)
        self.renderer = ViewportRenderer(changed=self.update)
        self._press: QPoint | None = None
        self._last: QPoint | None = None
        self._dragged = False
        self.held_keys = HeldKeys()

    # ----- QOpenGLWindow ----------------------------------------------------------------------
    def initializeGL(self) -> None:
        """Compile the renderer's programs (the context is current)."""
        self.renderer.initialize()

    def resizeGL(self, w: int, h: int) -> None:
        """Track the framebuffer size in device pixels (``w``, ``h`` are logical)."""
        dpr = self.devicePixelRatio()
        self.renderer.resize(round(w * dpr), round(h * dpr))

    def paintGL(self) -> None:
        """Draw the view into the window."""
        self.renderer.paint()

    # ----- offscreen drawing --------------------------------------------------------------------
    def _offscreen(self, draw: Callable[[], T], size: tuple[int, int] | None = None
                   ) -> T | None:
        """Run ``draw()`` with an offscreen framebuffer (colour + depth/stencil) of
        ``size`` (width, height) [px] (default: the view's) bound; None (``draw``
        not run) before the window's GL is set up."""
        if not self.renderer.initialized or not self.isValid():
            return None
        width, height = size or (self.renderer.camera.width, self.renderer.camera.height)
        self.makeCurrent()
        fmt = QOpenGLFramebufferObjectFormat()
        fmt.setAttachment(QOpenGLFramebufferObject.Attachment.CombinedDepthStencil)
        fbo = QOpenGLFramebufferObject(width, height, fmt)
        try:
            fbo.bind()
            return draw()
        finally:
            fbo.release()
            shiboken6.delete(fbo)  # free the GL objects while the context is current
            self.doneCurrent()

    def grab_image(self) -> QImage:
        """The view drawn now (plugin passes included) as an image of the framebuffer's
        size [device px]; a null image before the window's GL is set up."""
        def draw() -> QImage:
            self.renderer.paint()
            pixels = GL.glReadPixels(0, 0, self.renderer.camera.width,
                                     self.renderer.camera.height, GL.GL_RGBA,
                                     GL.GL_UNSIGNED_BYTE)
            return _image_from_gl_rows(bytes(pixels), self.renderer.camera.width,
                                       self.renderer.camera.height)
        image = self._offscreen(draw)
        if image is None:
            return QImage()
        image.setDevicePixelRatio(self.devicePixelRatio())
        return image

    def pick_at(self, x: float, y: float) -> Any:
        """The Solid Node drawn at logical pixel (x, y), or None (renders an ID pass)."""
        dpr = self.devicePixelRatio()
        px, py = int(x * dpr), int(y * dpr)
        cam = self.renderer.camera
        if not (0 <= px < cam.width and 0 <= py < cam.height):
            return None

        def draw() -> bytes:
            self.renderer.paint_pick_ids()
            return bytes(GL.glReadPixels(px, cam.height - 1 - py, 1, 1, GL.GL_RGBA,
                                         GL.GL_UNSIGNED_BYTE))
        data = self._offscreen(draw)
        if data is None:
            return None
        return self.renderer.solid_of_pick_color(np.frombuffer(data, np.uint8))

    def render_camera(self, camera: DeviceCamera, plugin_draw: PluginDraw | None = None
                      ) -> bytes | None:
        """``camera``'s image of the shown frame: BGRA bytes (4·width·height), rows
        from the top, alpha 255 (Webots' ``Camera.getImage``); ``plugin_draw(pass_)``
        runs the plugin's passes. None before the window's GL is set up."""
        def draw() -> bytes:
            self.renderer.paint_device_camera(camera, plugin_draw)
            return bytes(GL.glReadPixels(0, 0, camera.width, camera.height, GL.GL_BGRA,
                                         GL.GL_UNSIGNED_BYTE))
        data = self._offscreen(draw, (camera.width, camera.height))
        if data is None:
            return None
        rows = np.frombuffer(data, np.uint8).reshape(camera.height, camera.width, 4)[::-1]
        image = np.array(rows)  # top row first, a writable copy
        image[:, :, 3] = 255
        return image.tobytes()

    # ----- keyboard -----------------------------------------------------------------------------
    def keyPressEvent(self, event: QKeyEvent) -> None:
        """A key held in the 3D view (auto-repeats are the same key still held)."""
        if not event.isAutoRepeat() and self.held_keys.press(event.key(),
                                                             event.modifiers().value):
            self.keys_changed.emit(self.held_keys.codes)

    def keyReleaseEvent(self, event: QKeyEvent) -> None:
        """A key let go in the 3D view."""
        if not event.isAutoRepeat() and self.held_keys.release(event.key()):
            self.keys_changed.emit(self.held_keys.codes)

    def focusOutEvent(self, event: QFocusEvent) -> None:
        """Keys are not held for the view once it lost the focus."""
        if self.held_keys.clear():
            self.keys_changed.emit(self.held_keys.codes)
        super().focusOutEvent(event)

    # ----- mouse --------------------------------------------------------------------------------
    def mousePressEvent(self, event: QMouseEvent) -> None:
        """Start an orbit (left) or pan (right/middle) drag."""
        self._press = self._last = event.position().toPoint()
        self._dragged = False

    def mouseMoveEvent(self, event: QMouseEvent) -> None:
        """Orbit with the left button, pan with the right or middle one."""
        if self._last is None or self._press is None:
            return
        pos = event.position().toPoint()
        d = pos - self._last
        self._last = pos
        if (pos - self._press).manhattanLength() > CLICK_SLOP_PX:
            self._dragged = True
        buttons = event.buttons()
        camera = self.renderer.camera
        if buttons & Qt.MouseButton.LeftButton:
            camera.orbit(d.x(), d.y())
        elif buttons & (Qt.MouseButton.RightButton | Qt.MouseButton.MiddleButton):
            dpr = self.devicePixelRatio()
            camera.pan(d.x() * dpr, d.y() * dpr)
        self.update()

    def mouseReleaseEvent(self, event: QMouseEvent) -> None:
        """A left click without drag picks the Solid under the cursor."""
        if event.button() == Qt.MouseButton.LeftButton and not self._dragged:
            p = event.position()
            self.solid_picked.emit(self.pick_at(p.x(), p.y()))
        self._press = self._last = None

    def wheelEvent(self, event: QWheelEvent) -> None:
        """Zoom towards the target."""
        self.renderer.camera.zoom(event.angleDelta().y() / 120.0)
        self.update()


def _image_from_gl_rows(data: bytes, width: int, height: int) -> QImage:
    """A top-down RGBA8888 QImage (owning its pixels) of ``glReadPixels`` rows
    (``width`` x ``height`` RGBA bytes, bottom row first)."""
    rows = np.frombuffer(data, np.uint8).reshape(height, width, 4)[::-1]
    flipped = np.ascontiguousarray(rows)
    image = QImage(flipped.data, width, height, width * 4, QImage.Format.Format_RGBA8888)
    return image.copy()  # detach from the numpy buffer
