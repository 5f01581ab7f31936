"""Robot controllers in the main window (issue 17): console per robot, Edit /
Restart Controller, saving restarts, the controller field's Select... dialog,
the New Robot Controller wizard, the keyboard, a crash and a late controller.

The worlds and controllers are tests/resources/controllers_app (copied to
tmp_path: some tests edit the controllers).
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from PySide6.QtCore import Qt, QTimer
from PySide6.QtTest import QTest

from app.console_dock import robot_filter
from app.new_controller_wizard import NewController, NewControllerWizard
from app.scene_tree.controller_dialog import NO_CONTROLLER, list_controllers
from app.viewport.keys import SHIFT
from tests.app import test_main_window as main_window_tests

# the main window tests' fixtures: a shown MainWindow with injected dialog answers
answers = main_window_tests.answers
make_window = main_window_tests.make_window


def trust(_question) -> bool:
    """The trust question's answer: the test project's code may run."""
    return True

PROJECT = Path(__file__).resolve().parents[1] / "resources" / "controllers_app"
#: Longest wait [ms] for controllers to start, step and print.
WAIT_MS = 20000


@pytest.fixture
def project(tmp_path) -> Path:
    """A copy of the test project (worlds and controllers)."""
    target = tmp_path / "controllers_app"
    shutil.copytree(PROJECT, target)
    return target


def console_lines(window, source: str | None = None) -> list[str]:
    """The console's kept lines (of one source)."""
    return [t for s, t in window.console.kept_lines() if source is None or s == source]


def wait_line(qtbot, window, source: str, needle: str, count: int = 1) -> None:
    """Wait until ``count`` lines of ``source`` contain ``needle``."""
    def enough() -> bool:
        return sum(needle in t for t in console_lines(window, source)) >= count
    qtbot.waitUntil(enough, timeout=WAIT_MS)


def node_named(window, name: str):
    """The Robot node called ``name``."""
    return next(n for n in window.runner.world.iter_nodes()
                if not n.is_use and n.is_a("Robot") and str(n.get("name")) == name)


def select_field(window, node, field: str):
    """Select ``node.field`` in the scene tree; its item."""
    tree = window.tree
    tree.select_node(node)
    node_index = tree.model.node_index(node)
    for row in range(tree.model.rowCount(node_index)):
        index = tree.model.index(row, 0, node_index)
        if tree.model.item(index).name == field:
            tree.view.setCurrentIndex(index)
            return tree.model.item(index)
    raise LookupError(field)


def test_console_filters_per_robot_and_crash_keeps_the_app_up(qtbot, make_window,
                                                              project) -> None:
    window = make_window(project / "worlds" / "robots.wbt", ask_trust=trust)
    console = window.console
    # one entry per robot with a controller, after "All controllers"
    assert console.filters()[-4:] == ["All controllers", robot_filter("eye"),
                                      robot_filter("typist"), robot_filter("crasher")]
    window.run_realtime()
    wait_line(qtbot, window, "controller:crasher", "exited with status")
    crash = console_lines(window, "controller:crasher")
    assert any("Traceback" in t for t in crash)
    assert any("RuntimeError: boom from the crasher" in t for t in crash)
    assert all(t.startswith("[crasher] ") for t in crash)
    # the simulation goes on without it, the app is up
    time_then = window.runner.latest_frame().time_ms
    qtbot.waitUntil(lambda: window.runner.latest_frame().time_ms > time_then + 200,
                    timeout=WAIT_MS)
    assert window.runner.robots.status()["crasher"] == "ended"
    console.set_filter(robot_filter("crasher"))
    shown = console.visible_lines()
    assert shown and all(line.startswith("[crasher] ") for line in shown)
    assert any("boom from the crasher" in line for line in shown)
    console.set_filter("All controllers")
    shown = console.visible_lines()
    assert any(line.startswith("[typist] ") for line in shown)
    assert any(line.startswith("[crasher] ") for line in shown)


def test_keys_held_in_the_3d_view_reach_the_keyboard(qtbot, make_window, project) -> None:
    window = make_window(project / "worlds" / "robots.wbt", ask_trust=trust)
    window.run_realtime()
    wait_line(qtbot, window, "controller:typist", "KEYS []")
    view = window.viewport.gl_window
    QTest.keyPress(view, Qt.Key.Key_Up)
    QTest.keyPress(view, Qt.Key.Key_A, Qt.KeyboardModifier.ShiftModifier)
    wait_line(qtbot, window, "controller:typist", f"KEYS {json.dumps([ord('A') + SHIFT, 315])}")
    QTest.keyRelease(view, Qt.Key.Key_A, Qt.KeyboardModifier.ShiftModifier)
    wait_line(qtbot, window, "controller:typist", "KEYS [315]")
    QTest.keyRelease(view, Qt.Key.Key_Up)
    wait_line(qtbot, window, "controller:typist", "KEYS []", count=2)


def test_edit_controller_opens_it_and_saving_restarts_it(qtbot, make_window, project,
                                                        answers) -> None:
    window = make_window(project / "worlds" / "robots.wbt", ask_trust=trust)
    ui = window.controllers_ui
    window.run_realtime()
    wait_line(qtbot, window, "controller:typist", "keys_probe version 1")
    window.tree.select_node(node_named(window, "typist"))
    assert window.actions_["edit_controller"] in window.menuBar().actions()[3].menu().actions()
    window.actions_["edit_controller"].trigger()
    editor = window.editor
    source = project / "controllers" / "keys_probe" / "keys_probe.py"
    assert editor.path == source
    editor.edit.setPlainText(editor.text().replace("VERSION = 1", "VERSION = 2"))
    assert editor.save()
    wait_line(qtbot, window, "controller:typist", "keys_probe version 2")
    assert ui.robots_using(source) == ["typist"]
    # the plugin was not reloaded for it: this world has no plugin, no plugin line
    assert not console_lines(window, "plugin-error")
    # a robot without a controller, and one whose controller does not exist
    window.tree.select_node(node_named(window, "idle"))
    assert not ui.edit_controller()
    assert "has no controller" in answers.errors[-1][1]
    assert not ui.edit_controller_named("no_such_controller")
    assert "was not found" in answers.errors[-1][1]


def test_restart_controller_selected_or_all(qtbot, make_window, project) -> None:
    window = make_window(project / "worlds" / "robots.wbt", ask_trust=trust)
    window.run_realtime()
    wait_line(qtbot, window, "controller:typist", "keys_probe version 1")
    window.tree.select_node(node_named(window, "typist"))
    window.actions_["restart_controller"].trigger()
    wait_line(qtbot, window, "controller:typist", "keys_probe version 1", count=2)
    # with nothing selected: every controller (eye's too)
    window.tree.view.clearSelection()
    window.tree.view.setCurrentIndex(window.tree.model.index(-1, -1))
    starts = sum('starting controller "camera_probe"' in t
                 for t in console_lines(window, "controller:eye"))
    window.actions_["restart_controller"].trigger()
    wait_line(qtbot, window, "controller:eye", 'starting controller "camera_probe"',
              count=starts + 1)
    wait_line(qtbot, window, "controller:typist", "keys_probe version 1", count=3)


def test_reset_restarts_the_controllers(qtbot, make_window, project) -> None:
    window = make_window(project / "worlds" / "robots.wbt", ask_trust=trust)
    window.run_realtime()
    wait_line(qtbot, window, "controller:typist", "keys_probe version 1")
    window.reset()
    wait_line(qtbot, window, "controller:typist", "keys_probe version 1", count=2)


def test_controller_field_select_dialog_sets_it_and_restarts(qtbot, make_window,
                                                             project) -> None:
    window = make_window(project / "worlds" / "robots.wbt", ask_trust=trust)
    idle = node_named(window, "idle")
    field = select_field(window, idle, "controller")
    panel = window.tree.panel
    assert panel.editor.select_button is not None  # the Select... button
    dialog = panel.controller_dialog(field)
    names = dialog.names()
    assert names[0] == NO_CONTROLLER
    assert {"camera_probe", "crasher", "keys_probe", "sleeper"} <= set(names)
    assert names[1:] == sorted(names[1:])
    assert dialog.selected == NO_CONTROLLER
    assert list_controllers(str(project / "worlds" / "robots.wbt")) == names[1:]
    opened = []
    window.tree.edit_controller_requested.connect(opened.append)
    dialog.select("keys_probe")
    dialog.edit_button.click()
    assert opened == ["keys_probe"]
    assert window.editor.path == project / "controllers" / "keys_probe" / "keys_probe.py"
    QTimer.singleShot(0, dialog.accept)
    panel.select_value(field, dialog)
    assert idle.get("controller") == "keys_probe"
    window.step()
    wait_line(qtbot, window, "controller:idle", "keys_probe version 1")
    assert robot_filter("idle") in window.console.filters()
    window.tree.undo_stack.undo()
    assert idle.get("controller") == NO_CONTROLLER
    qtbot.waitUntil(lambda: window.runner.robots.status().get("idle") in (None, "ended"),
                    timeout=WAIT_MS)


def test_new_robot_controller_wizard_sets_the_robot_and_runs(qtbot, make_window,
                                                            project) -> None:
    window = make_window(project / "worlds" / "robots.wbt", ask_trust=trust)
    idle = node_named(window, "idle")
    window.tree.select_node(idle)
    asked = []

    def ask(project_dir, robot, parent) -> NewController | None:
        asked.append((project_dir, robot))
        wizard = NewControllerWizard(project_dir, robot, parent)
        assert wizard.name_edit.text() == "my_controller"
        assert wizard.use_for_robot
        wizard.name_edit.setText("bumper_reader")
        wizard.ok_button.click()
        return NewController(wizard.plugin_name, wizard.plugin_path, wizard.open_in_editor,
                             wizard.use_for_robot)

    window.controllers_ui.ask_new_controller = ask
    assert window.controllers_ui.new_controller()
    assert asked == [(project, "idle")]
    path = project / "controllers" / "bumper_reader" / "bumper_reader.py"
    assert path.is_file()
    text = path.read_text()
    assert "template" not in text and '"bumper_reader"' in text
    compile(text, str(path), "exec")
    assert window.editor.path == path
    assert idle.get("controller") == "bumper_reader"
    window.tree.undo_stack.undo()  # the field edit is undoable
    assert idle.get("controller") == NO_CONTROLLER
    window.tree.undo_stack.redo()
    window.run_fast()
    # the template reads the robot's first sensor about once a second
    wait_line(qtbot, window, "controller:idle", "bumper = ")
    assert not any("ERROR" in t or "Traceback" in t
                   for t in console_lines(window, "controller:idle"))


def test_late_controller_shows_and_restarts(qtbot, make_window, project) -> None:
    window = make_window(project / "worlds" / "late.wbt", ask_trust=trust)
    window.runner.robots.late_after = 0.5
    ui = window.controllers_ui
    assert not ui.late_button.isVisible()
    window.run_realtime()
    qtbot.waitUntil(ui.late_button.isVisible, timeout=WAIT_MS)
    assert "'slow'" in ui.late_button.text()
    assert ui.late_robots() == ["slow"]
    assert any("is late" in t for t in console_lines(window, "controller:slow"))
    qtbot.mouseClick(ui.late_button, Qt.MouseButton.LeftButton)
    wait_line(qtbot, window, "controller:slow", 'starting controller "sleeper"', count=2)
    # the new process steps once and falls asleep: late again, the window stays usable
    qtbot.waitUntil(lambda: ui.late_button.isVisible() and ui.late_robots() == ["slow"],
                    timeout=WAIT_MS)
    window.pause()
    window.reset()
    wait_line(qtbot, window, "controller:slow", 'starting controller "sleeper"', count=3)


def test_controllers_of_an_untrusted_folder_run_once_trusted(qtbot, make_window,
                                                             project) -> None:
    asked = []

    def decline(question) -> bool:
        asked.append(question)
        return False

    window = make_window(project / "worlds" / "robots.wbt", ask_trust=decline)
    # no plugin: the first robot controller of the project is the question
    assert [(q.kind, q.plugin) for q in asked] == [("robot controller", "camera_probe")]
    assert asked[0].folder == project
    window.step()
    qtbot.waitUntil(lambda: window.runner.latest_frame().steps == 1, timeout=WAIT_MS)
    assert window.runner.robots.status() == {}
    assert any("robot controller 'camera_probe'" in t and "not trusted" in t
               for t in console_lines(window, "odeon"))
    window.actions_["trust_plugin"].trigger()
    window.run_realtime()
    wait_line(qtbot, window, "controller:typist", "keys_probe version 1")
