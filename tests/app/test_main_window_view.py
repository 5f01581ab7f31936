"""Pixels of the main window's viewport, and the docs screenshot.

The default world is stepped in the full window; the probe reads the
viewport's framebuffer at points projected with `ViewportWidget.world_to_pixel`.
"""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np
import pytest
from PySide6.QtCore import QPoint

from app.main_window import MainWindow
from tests.app.test_main_window import steps

SCREENSHOT = Path(__file__).resolve().parents[2] / "docs" / "screenshots" / "main_window.png"


@pytest.fixture
def window(qtbot, gl_available, tmp_path):
    win = MainWindow(None, settings_path=str(tmp_path / "settings.ini"),
                     ask_unsaved=lambda _t: "discard", show_error=lambda *_a: None)
    qtbot.addWidget(win)
    win.resize(1280, 860)
    win.show()
    qtbot.waitExposed(win)
    yield win
    win.close()


def pixel(image, x: float, y: float) -> tuple[int, int, int]:
    c = image.pixelColor(int(round(x)), int(round(y)))
    return c.red(), c.green(), c.blue()


def near(image, x: float, y: float, test, radius: int = 2) -> bool:
    """True when ``test(rgb)`` holds for a pixel within ``radius`` of (x, y)."""
    return any(test(pixel(image, x + dx, y + dy))
               for dx in range(-radius, radius + 1) for dy in range(-radius, radius + 1))


def is_yellow(rgb: tuple[int, int, int]) -> bool:
    r, g, b = rgb
    return r > 200 and g > 200 and b < 90


def screen_pixels(qtbot, win: MainWindow):
    """The window as the X server shows it (the GL viewport included), after the
    viewport presented a frame painted now."""
    with qtbot.waitSignal(win.viewport.frameSwapped, timeout=5000):
        win.viewport.request_paint()
    qtbot.wait(50)
    return win.screen().grabWindow(win.winId()).toImage()


def ray_segment(win: MainWindow):
    return win.runner.host.plugin.module.ray_segment


def test_viewport_shows_shapes_and_the_plugin_ray(qtbot, window) -> None:
    steps(qtbot, window, 90)  # past the take-off at 1 s
    image = window.viewport.grabFramebuffer()
    # the green box's top face (baseColor 0.2 0.7 0.3): green dominates
    r, g, b = pixel(image, *window.viewport.world_to_pixel([1.0, 0.4, 1.0]))
    assert g > r + 40 and g > b + 40, (r, g, b)
    start, end = (np.asarray(p, dtype=float) for p in ray_segment(window))
    hits = [window.viewport.world_to_pixel(start + t * (end - start)) for t in (0.3, 0.5, 0.7)]
    assert all(near(image, x, y, is_yellow) for x, y in hits)
    # without the plugin's draw callback the same pixels are not yellow
    window.viewport.set_plugin_draw(None)
    plain = window.viewport.grabFramebuffer()
    assert not any(near(plain, x, y, is_yellow, radius=0) for x, y in hits)


def test_screenshot_of_the_main_window(qtbot, window, tmp_path) -> None:
    """The window with the default world after 1.92 s; saved to
    docs/screenshots/main_window.png when ODEON_UPDATE_SCREENSHOTS=1 (the
    README shows it), else to a temporary folder."""
    robot = window.runner.world.find_by_def("ROBOT")
    window.tree.select_node(robot)  # also the plots' and the trail's Solid
    window.actions_["bounding"].setChecked(True)
    window.actions_["trails"].setChecked(True)
    for _ in range(12):
        steps(qtbot, window, 10)
    qtbot.wait(300)
    assert len(window.plots.data()) > 5
    image = screen_pixels(qtbot, window)
    # the viewport is a native GL window: what the screen shows must include its drawing
    offset = window.viewport.mapTo(window, QPoint(0, 0))
    x, y = window.viewport.world_to_pixel([1.0, 0.4, 1.0])
    r, g, b = pixel(image, x + offset.x(), y + offset.y())
    assert g > r + 40 and g > b + 40, (r, g, b)
    target = SCREENSHOT if os.environ.get("ODEON_UPDATE_SCREENSHOTS") == "1" else (
        tmp_path / "main_window.png")
    target.parent.mkdir(parents=True, exist_ok=True)
    assert image.save(str(target))
    assert target.stat().st_size > 10000
    assert window.time_label.text() == "0:00:01:920"
