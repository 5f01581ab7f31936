"""The window stays responsive with a plugin that never returns; Stop and Save work."""

from __future__ import annotations

import gc
import time

import pytest
from PySide6.QtCore import QTimer

from app.main_window import MainWindow
from engine.plugins.watchdog import Budgets
from engine.world import read_world
from tests.app.test_runner import make_project

ENDLESS_TOP = """from engine.plugins.physics import *
while True:
    pass

def webots_physics_step():
    pass

def webots_physics_cleanup():
    pass
"""

ENDLESS_STEP = """from engine.plugins.physics import *

def webots_physics_step():
    while True:
        pass

def webots_physics_cleanup():
    pass
"""


class Answers:
    def __init__(self) -> None:
        self.errors: list[tuple[str, str]] = []

    def show_error(self, title: str, text: str) -> None:
        self.errors.append((title, text))


@pytest.fixture
def open_window(qtbot, gl_available, tmp_path):
    windows: list[MainWindow] = []
    answers = Answers()

    def make(world) -> MainWindow:
        window = MainWindow(world, settings_path=str(tmp_path / "settings.ini"),
                            ask_unsaved=lambda _text: "discard",
                            show_error=answers.show_error,
                            ask_trust=lambda _question: True)  # the test's own folder
        window.answers = answers
        qtbot.addWidget(window)
        window.show()
        windows.append(window)
        return window

    yield make
    for window in windows:
        if window.runner is not None:
            window.runner.stop_plugin()
        window.tree.undo_stack.setClean()
        window.close()
        window.deleteLater()
    qtbot.wait(20)
    gc.collect()


def test_an_endless_top_level_leaves_the_window_responsive_and_stop_recovers(
        qtbot, open_window, tmp_path) -> None:
    start = time.monotonic()
    window = open_window(make_project(tmp_path, plugin=ENDLESS_TOP))
    assert time.monotonic() - start < 20  # the window did not wait for the plugin
    window.runner.host.watchdog.budgets = Budgets(load=0.3, callback=0.3)
    ticks = []
    timer = QTimer()
    timer.timeout.connect(lambda: ticks.append(time.monotonic()))
    timer.start(20)
    qtbot.waitUntil(lambda: "busy in import()" in window.mode_label.text(), timeout=30000)
    count = len(ticks)
    qtbot.wait(500)
    assert len(ticks) >= count + 5  # the GUI event loop keeps running
    window.actions_["stop_plugin"].trigger()
    qtbot.waitUntil(lambda: window.runner.host.watchdog.running is None, timeout=10000)
    qtbot.waitUntil(lambda: window.mode_label.text() == "paused", timeout=10000)
    assert window.runner.host.plugin is None
    timer.stop()


def test_save_works_while_a_step_never_returns(qtbot, open_window, tmp_path) -> None:
    window = open_window(make_project(tmp_path, plugin=ENDLESS_STEP))
    window.runner.host.watchdog.budgets = Budgets(load=5.0, callback=0.3)
    window.run_fast()
    qtbot.waitUntil(lambda: "busy in webots_physics_step()" in window.mode_label.text(),
                    timeout=30000)
    out = tmp_path / "saved.wbt"
    start = time.monotonic()
    assert window.save_as(str(out)) is True
    assert time.monotonic() - start < 3
    assert window.answers.errors == []
    assert read_world(str(out)).find_solid_by_def("BOX") is not None
    window.reload_plugin()  # an overrunning step is stopped, the plugin imported again
    qtbot.waitUntil(lambda: window.runner.host.watchdog.running is None
                    or window.runner.host.watchdog.overrunning() is None, timeout=10000)
    window.stop_plugin()


def test_a_draw_that_raised_inside_glbegin_does_not_spoil_the_next_draw(qtbot, gl_available):
    """A fixed plugin draws at its first frame after a draw that raised between
    glBegin and glEnd (GL and PyOpenGL's error checker were left inside glBegin)."""
    from OpenGL import GL

    from tests.app.test_viewport import _yellow_line
    from tests.app.test_viewport_helpers import (
        around,
        box_solid,
        count_near,
        grab,
        shown_viewport,
        world,
    )

    view = shown_viewport(qtbot)
    view.show_grid = False
    view.set_world(world(box_solid("BOX", (1, 0, 0))))

    def broken(pass_):
        if pass_ == 1:
            GL.glBegin(GL.GL_LINES)
            raise ValueError("bad draw")

    view.set_plugin_draw(broken)
    grab(view)
    assert len(view.plugin_errors) == 1
    view.set_plugin_draw(_yellow_line)  # the fixed plugin
    px = grab(view)
    assert count_near(px, (255, 255, 0), 60, around(view.world_to_pixel((0, 1.5, 0)), 2)) > 0
    assert len(view.plugin_errors) == 1
    view.close()
