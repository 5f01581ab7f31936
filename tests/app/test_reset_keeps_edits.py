"""Reset and Save keep the user's scene-tree edits (decision 0016).

Edits made at t = 0, or while paused after running, are part of the world
Reset returns to and Save writes; the simulation's motion is not.
"""

from __future__ import annotations

import gc
import shutil

import numpy as np
import pytest

from app.main_window import DEFAULT_WORLD, MainWindow
from engine.world import read_world

EDITED = (1.0, -0.5, 0.7)  # GREEN_BOX (static)
LOADED = (1.0, 0.4, 0.5)
ROBOT_EDITED = (0.5, -1.0, 0.4)  # ROBOT (a body: it falls when run)
ROBOT_LOADED = (0.0, -1.0, 0.001)


@pytest.fixture
def window(qtbot, gl_available, tmp_path):
    worlds = tmp_path / "proj" / "worlds"
    worlds.mkdir(parents=True)
    path = worlds / "default.wbt"
    shutil.copy(DEFAULT_WORLD, path)
    w = MainWindow(path, settings_path=str(tmp_path / "settings.ini"),
                   ask_unsaved=lambda _text: "discard",
                   show_error=lambda title, text: pytest.fail(f"{title}: {text}"))
    qtbot.addWidget(w)
    w.show()
    qtbot.waitExposed(w)
    yield w
    w.tree.undo_stack.setClean()
    w.close()
    w.deleteLater()
    qtbot.wait(20)
    gc.collect()


def _steps(qtbot, window: MainWindow, n: int) -> None:
    start = window.runner.latest_frame().steps
    for _ in range(n):
        window.step()
    qtbot.waitUntil(lambda: window.runner.latest_frame().steps == start + n, timeout=20000)


def _reset(qtbot, window: MainWindow) -> None:
    window.reset()
    qtbot.waitUntil(lambda: window.runner.latest_frame().time_ms == 0.0
                    and window.runner.latest_frame().steps == 0, timeout=10000)
    window.runner.call(lambda sim: None).result(10.0)  # the reset has finished


def _node(window: MainWindow, name: str = "GREEN_BOX"):
    return window.runner.world.find_by_def(name)


def _saved_translation(window: MainWindow, name: str = "GREEN_BOX") -> tuple:
    assert window.save()
    saved = read_world(window.world_path).find_by_def(name)
    return tuple(saved.get("translation"))


def test_a_box_moved_at_time_zero_stays_moved_after_run_and_reset(qtbot, window) -> None:
    """The issue's case: move a box at t = 0, run, reset, save."""
    box = _node(window)
    assert window.tree.controller.set_field(box, "translation", list(EDITED))
    _steps(qtbot, window, 30)
    _reset(qtbot, window)
    assert np.allclose(box.get("translation"), EDITED)
    assert np.allclose(window.runner.latest_frame().poses[box][0], EDITED)
    assert window.is_modified() and window.windowTitle().endswith("*")
    assert window.tree.undo_stack.count() == 1
    assert np.allclose(_saved_translation(window), EDITED)
    assert not window.windowTitle().endswith("*")


def test_save_after_running_writes_the_edit_not_the_motion(qtbot, window) -> None:
    robot = _node(window, "ROBOT")
    assert window.tree.controller.set_field(robot, "translation", list(ROBOT_EDITED))
    _steps(qtbot, window, 30)
    assert robot.get("translation")[2] < ROBOT_EDITED[2] - 0.01  # it fell
    fallen = tuple(robot.get("translation"))
    assert np.allclose(_saved_translation(window, "ROBOT"), ROBOT_EDITED)
    assert tuple(robot.get("translation")) == fallen  # the running world is untouched
    _reset(qtbot, window)
    assert np.allclose(robot.get("translation"), ROBOT_EDITED)
    assert np.allclose(window.runner.latest_frame().poses[robot][0], ROBOT_EDITED)


def test_an_edit_while_paused_mid_run_is_what_reset_returns_to(qtbot, window) -> None:
    robot = _node(window, "ROBOT")
    _steps(qtbot, window, 20)
    assert window.tree.controller.set_field(robot, "translation", list(ROBOT_EDITED))
    _steps(qtbot, window, 20)
    _reset(qtbot, window)
    assert np.allclose(robot.get("translation"), ROBOT_EDITED)
    assert np.allclose(_saved_translation(window, "ROBOT"), ROBOT_EDITED)


def test_undo_of_a_mid_run_edit_gives_reset_the_loaded_value_back(qtbot, window) -> None:
    robot = _node(window, "ROBOT")
    _steps(qtbot, window, 20)
    moved = tuple(robot.get("translation"))
    assert window.tree.controller.set_field(robot, "translation", list(ROBOT_EDITED))
    window.tree.undo_action.trigger()
    assert np.allclose(robot.get("translation"), moved)  # undo: back where it was
    assert not window.is_modified()
    _steps(qtbot, window, 5)
    assert np.allclose(_saved_translation(window, "ROBOT"), ROBOT_LOADED)
    _reset(qtbot, window)
    assert np.allclose(robot.get("translation"), ROBOT_LOADED)
