"""The main window: world loading, simulation controls, edits, files, plugins.

Run under xvfb (see docs/app.md): the window holds a real GL viewport.
"""

from __future__ import annotations

import gc
import shutil
import sys
from pathlib import Path

import numpy as np
import pytest

from app.main_window import DEFAULT_WORLD, MainWindow
from app.main_window_support import format_time
from app.new_plugin_wizard import create_plugin
from app.scene_tree import PluginSelectDialog
from engine.world import read_world

LIFT_STEP = '''
def webots_physics_init():
    global robot
    robot = dWebotsGetBodyFromDEF("ROBOT")
    dWebotsConsolePrintf("lift init")


def webots_physics_step():
    if robot is not None:
        dBodyAddForce(robot, 0, 0, {force})


def webots_physics_cleanup():
    pass
'''


def make_project(tmp_path: Path) -> Path:
    """A copy of the default world in ``<tmp>/proj/worlds/default.wbt``."""
    worlds = tmp_path / "proj" / "worlds"
    worlds.mkdir(parents=True)
    path = worlds / "default.wbt"
    shutil.copy(DEFAULT_WORLD, path)
    return path


class Answers:
    """Injected dialog answers, recording what was asked."""

    def __init__(self) -> None:
        self.unsaved = "cancel"
        self.asked: list[str] = []
        self.errors: list[tuple[str, str]] = []

    def ask_unsaved(self, text: str) -> str:
        self.asked.append(text)
        return self.unsaved

    def show_error(self, title: str, text: str) -> None:
        self.errors.append((title, text))


@pytest.fixture
def answers() -> Answers:
    return Answers()


@pytest.fixture
def make_window(qtbot, gl_available, tmp_path, answers):
    windows: list[MainWindow] = []

    def make(world=None, **kwargs) -> MainWindow:
        window = MainWindow(world, settings_path=str(tmp_path / "settings.ini"),
                            ask_unsaved=answers.ask_unsaved, show_error=answers.show_error,
                            **kwargs)
        qtbot.addWidget(window)
        window.show()
        qtbot.waitExposed(window)
        windows.append(window)
        return window

    yield make
    for window in windows:
        window.tree.undo_stack.setClean()
        window.close()
        window.deleteLater()
    qtbot.wait(20)  # delete the windows (and their engine bridges) inside the test
    gc.collect()


def time_text(window: MainWindow) -> str:
    return window.time_label.text()


def console_text(window: MainWindow) -> str:
    window.console.flush()
    return "\n".join(window.console.visible_lines())


def robot_z(window: MainWindow) -> float:
    frame = window.runner.latest_frame()
    robot = window.runner.world.find_by_def("ROBOT")
    return float(frame.poses[robot][0][2])


def steps(qtbot, window: MainWindow, n: int) -> None:
    start = window.runner.latest_frame().steps
    for _ in range(n):
        window.step()
    qtbot.waitUntil(lambda: window.runner.latest_frame().steps == start + n, timeout=20000)
    qtbot.waitUntil(lambda: window.bridge.poll() or True)


def test_format_time() -> None:
    assert format_time(0) == "0:00:00:000"
    assert format_time(1024) == "0:00:01:024"
    assert format_time(3_723_045) == "1:02:03:045"


def test_opens_the_default_world_with_its_nodes(qtbot, make_window) -> None:
    window = make_window()
    assert Path(window.world_path) == DEFAULT_WORLD.resolve()
    world = window.runner.world
    assert window.tree.model.rowCount() == len(world.nodes)
    robot = world.find_by_def("ROBOT")
    assert window.tree.model.node_index(robot).isValid()
    assert time_text(window) == "0:00:00:000"
    # the plugin is imported in the engine thread, after the window opened
    qtbot.waitUntil(lambda: window.runner.host.name == "flying_robot", timeout=20000)
    assert "default.wbt" in window.windowTitle()
    titles = [a.text() for a in window.menuBar().actions()]
    assert titles == ["&File", "&Edit", "&Simulation", "&Tools", "&View"]


def test_run_pause_step_reset_change_the_time(qtbot, make_window) -> None:
    window = make_window()
    window.step()
    qtbot.waitUntil(lambda: time_text(window) == "0:00:00:016", timeout=20000)
    window.run_fast()
    qtbot.waitUntil(lambda: window.runner.latest_frame().time_ms >= 500, timeout=20000)
    assert window.speed_label.text().endswith("x")
    window.pause()
    qtbot.waitUntil(lambda: window.runner.latest_frame().paused, timeout=5000)
    qtbot.wait(100)
    paused_text = time_text(window)
    qtbot.wait(300)
    assert time_text(window) == paused_text != "0:00:00:016"
    window.run_realtime()
    qtbot.waitUntil(lambda: time_text(window) != paused_text, timeout=5000)
    window.pause()
    window.reset()
    qtbot.waitUntil(lambda: time_text(window) == "0:00:00:000", timeout=5000)


def test_field_edit_reaches_the_simulation_and_undoes(qtbot, make_window) -> None:
    window = make_window()
    world = window.runner.world
    box = world.find_by_def("GREEN_BOX")
    assert window.tree.controller.set_field(box, "translation", [1.0, -0.5, 0.7])
    pos = window.runner.latest_frame().poses[box][0]
    assert np.allclose(pos, [1.0, -0.5, 0.7])
    assert window.is_modified() and window.windowTitle().endswith("*")
    window.tree.undo_action.trigger()
    pos = window.runner.latest_frame().poses[box][0]
    assert np.allclose(pos, [1.0, 0.4, 0.5])
    assert not window.is_modified()


def test_structural_edit_rebuilds_the_simulation(qtbot, make_window) -> None:
    window = make_window()
    world = window.runner.world
    box = world.find_by_def("GREEN_BOX")
    assert window.tree.controller.remove_node(box)
    assert box not in window.runner.latest_frame().poses
    window.tree.undo_action.trigger()
    assert box in window.runner.latest_frame().poses


def test_select_dialog_lists_plugins(make_window) -> None:
    window = make_window()
    dialog = PluginSelectDialog(window.world_path, current="flying_robot")
    names = dialog.names()
    assert names[0] == "<none>"
    assert {"flying_robot", "blimp", "floating_body"} <= set(names)


def _lift_wizard(force: float):
    def run(project, _parent):
        path = create_plugin(project, "lift")
        path.write_text("from engine.plugins.physics import *  # noqa: F403\n"
                        + LIFT_STEP.format(force=force))
        return "lift", path, True
    return run


def test_new_plugin_sets_physics_and_runs(qtbot, make_window, tmp_path) -> None:
    world_path = make_project(tmp_path)
    window = make_window(str(world_path), run_wizard=_lift_wizard(0.0))
    assert window.new_plugin()
    plugin_file = world_path.parents[1] / "plugins" / "physics" / "lift" / "lift.py"
    assert plugin_file.is_file()
    assert window.runner.world.world_info.get("physics") == "lift"
    assert window.runner.host.name == "lift"
    qtbot.waitUntil(lambda: "lift: lift init" in console_text(window), timeout=5000)
    assert window.editor is not None and window.editor.path == plugin_file
    window.tree.undo_action.trigger()  # back to flying_robot, through the undo stack
    assert window.runner.world.world_info.get("physics") == "flying_robot"


def test_saving_the_plugin_reloads_it(qtbot, make_window, tmp_path) -> None:
    world_path = make_project(tmp_path)
    window = make_window(str(world_path), run_wizard=_lift_wizard(0.0))
    assert window.new_plugin()
    steps(qtbot, window, 10)
    z0 = robot_z(window)
    steps(qtbot, window, 20)
    resting = robot_z(window)
    assert abs(resting - z0) < 0.01  # no lift: the robot stays on its feet
    source = "from engine.plugins.physics import *  # noqa: F403\n" + LIFT_STEP.format(
        force=40.0)
    window.editor.edit.setPlainText(source)
    assert window.editor.save()
    qtbot.waitUntil(lambda: console_text(window).count("lift: lift init") >= 2, timeout=5000)
    steps(qtbot, window, 30)
    assert robot_z(window) > resting + 0.05  # the new plugin lifts it


def test_plugin_exception_shows_in_console_and_app_goes_on(qtbot, make_window,
                                                          tmp_path) -> None:
    world_path = make_project(tmp_path)
    window = make_window(str(world_path), run_wizard=_lift_wizard(0.0))
    assert window.new_plugin()
    window.editor.edit.setPlainText(
        "from engine.plugins.physics import *  # noqa: F403\n\n\n"
        "def webots_physics_step():\n    raise RuntimeError('boom in step')\n\n\n"
        "def webots_physics_cleanup():\n    pass\n")
    assert window.editor.save()
    window.step()
    qtbot.waitUntil(lambda: "boom in step" in console_text(window), timeout=5000)
    qtbot.waitUntil(lambda: "boom" in window.statusBar().currentMessage(), timeout=5000)
    t = window.runner.latest_frame().time_ms
    steps(qtbot, window, 2)  # the simulation carries on without the plugin
    assert window.runner.latest_frame().time_ms == t + 32
    window.console.flush()
    assert "lift.py" in console_text(window)


def test_plugin_syntax_error_keeps_simulating(qtbot, make_window, tmp_path) -> None:
    world_path = make_project(tmp_path)
    window = make_window(str(world_path), run_wizard=_lift_wizard(0.0))
    assert window.new_plugin()
    window.editor.edit.setPlainText("def webots_physics_step(:\n    pass\n")
    assert window.editor.save()
    qtbot.waitUntil(lambda: "SyntaxError" in console_text(window)
                    or "syntax" in console_text(window).lower(), timeout=5000)
    t = window.runner.latest_frame().time_ms
    steps(qtbot, window, 1)
    assert window.runner.latest_frame().time_ms == t + 16


def test_broken_world_shows_error_and_keeps_previous(make_window, tmp_path, answers) -> None:
    window = make_window()
    runner, path = window.runner, window.world_path
    bad = tmp_path / "bad.wbt"
    # an unknown field is only a warning now (Webots loads the rest): use a syntax error
    bad.write_text("#VRML_SIM R2025a utf8\nSolid { translation 0 0 }\n")
    assert not window.open_world(str(bad))
    assert answers.errors and "bad.wbt:2" in answers.errors[-1][1]
    assert "bad.wbt:2" in console_text(window)
    assert window.runner is runner and window.world_path == path
    assert window.runner.thread.is_alive()


def test_unsaved_question_on_close_and_save(qtbot, make_window, tmp_path, answers) -> None:
    world_path = make_project(tmp_path)
    window = make_window(str(world_path))
    box = window.runner.world.find_by_def("GREEN_BOX")
    assert window.tree.controller.set_field(box, "translation", [1.0, -0.5, 0.7])
    answers.unsaved = "cancel"
    assert not window.close()
    assert window.isVisible() and len(answers.asked) == 1
    answers.unsaved = "save"
    assert window.close()
    assert len(answers.asked) == 2
    saved = read_world(str(world_path))
    assert list(saved.find_by_def("GREEN_BOX").get("translation")) == [1.0, -0.5, 0.7]


def test_reload_asks_and_discards(qtbot, make_window, tmp_path, answers) -> None:
    world_path = make_project(tmp_path)
    window = make_window(str(world_path))
    box = window.runner.world.find_by_def("GREEN_BOX")
    assert window.tree.controller.set_field(box, "translation", [1.0, -0.5, 0.7])
    answers.unsaved = "discard"
    assert window.reload_world()
    assert answers.asked
    box = window.runner.world.find_by_def("GREEN_BOX")
    assert list(box.get("translation")) == [1.0, 0.4, 0.5]
    assert not window.is_modified()


def test_save_as_writes_and_recent_and_layout(qtbot, make_window, tmp_path) -> None:
    window = make_window()
    target = tmp_path / "copy" / "worlds" / "saved.wbt"
    target.parent.mkdir(parents=True)
    assert window.save_as(str(target))
    assert read_world(str(target)).find_by_def("ROBOT") is not None
    assert window.world_path == str(target)
    assert window.recent.paths()[0] == str(target)
    window.resize(1000, 700)
    assert window.close()
    again = make_window()
    assert again.size().width() == 1000
    assert str(target) in again.recent.paths()


def test_view_toggles_and_picking_wiring(qtbot, make_window) -> None:
    window = make_window()
    window.actions_["bounding"].trigger()
    assert window.viewport.show_bounding_objects
    window.actions_["contacts"].setChecked(True)
    assert window.viewport.show_contacts
    box = window.runner.world.find_by_def("GREEN_BOX")
    window.viewport.solid_picked.emit(box)
    assert window.tree.current_node() is box
    assert box in window.viewport.trails.paths
    assert window.viewport.renderer._paint_guard == window.runner.gui_first


def test_clicking_the_view_picks_and_the_keyboard_shortcuts_still_work(qtbot,
                                                                      make_window) -> None:
    """The view is a native GL window in a container: a click on it reaches the
    picking, and with the focus in it the main window's shortcuts still fire."""
    from PySide6.QtCore import QPoint, Qt

    window = make_window()
    qtbot.waitUntil(lambda: window.viewport.renderer.initialized, timeout=5000)
    box = window.runner.world.find_by_def("GREEN_BOX")
    x, y = window.viewport.world_to_pixel([1.0, 0.4, 1.0])  # the green box's top face
    view = window.viewport.gl_window
    qtbot.mouseClick(view, Qt.MouseButton.LeftButton, pos=QPoint(int(x), int(y)))
    qtbot.waitUntil(lambda: window.tree.current_node() is box, timeout=5000)
    window.activateWindow()
    view.requestActivate()
    qtbot.waitUntil(lambda: view.isActive(), timeout=5000)
    start = window.runner.latest_frame().steps
    qtbot.keyClick(view, Qt.Key.Key_1, Qt.KeyboardModifier.ControlModifier)
    qtbot.waitUntil(lambda: window.runner.latest_frame().steps == start + 1, timeout=20000)


def test_odeon_command_opens_the_window(monkeypatch) -> None:
    from PySide6.QtWidgets import QApplication

    import app.main as odeon_main
    import app.main_window as main_window

    opened: list[object] = []

    class FakeWindow:
        def __init__(self, world) -> None:
            opened.append(world)

        def show(self) -> None:
            opened.append("shown")

    monkeypatch.setattr(main_window, "MainWindow", FakeWindow)
    monkeypatch.setattr(QApplication, "exec", lambda self: 7)
    assert odeon_main.main([]) == 7
    assert odeon_main.main(["w.wbt"]) == 7
    assert opened == [None, "shown", "w.wbt", "shown"]


def test_edit_plugin_action_and_console_links_open_the_editor(make_window) -> None:
    window = make_window()
    window.actions_["edit_plugin"].trigger()
    source = window.plugin_source()
    assert source is not None and source.name == "flying_robot.py"
    assert window.editor is not None and window.editor.path == source
    assert window.editor.isVisible()
    window.console.open_location.emit(str(source), 12)
    assert window.editor.edit.textCursor().blockNumber() == 11


def test_edit_plugin_without_plugin_offers_the_wizard(make_window, tmp_path) -> None:
    world_path = make_project(tmp_path)
    text = world_path.read_text().replace('physics "flying_robot"', "")
    world_path.write_text(text)
    questions: list[str] = []

    def confirm(_title: str, question: str) -> bool:
        questions.append(question)
        return True

    window = make_window(str(world_path), confirm=confirm, run_wizard=_lift_wizard(0.0))
    assert window.runner.host.name is None
    assert window.edit_plugin()
    assert "would you like to create one" in questions[0].lower()
    assert window.runner.host.name == "lift"


def test_plot_redraws_do_not_exhaust_bool_refcounts(make_window) -> None:
    window = make_window()
    window.plots.set_solid(window.runner.world.find_by_def("ROBOT"))
    for i in range(3000):  # unpinned, this aborts the process ("bool_dealloc")
        window.plots.redraw()
        if i == 0:
            assert sys.getrefcount(True) > 1 << 39
    assert sys.getrefcount(True) > 1 << 39 and sys.getrefcount(False) > 1 << 39


def _menu(window: MainWindow, title: str):
    return next(a.menu() for a in window.menuBar().actions() if a.text() == title)


def test_edit_menu_undoes_and_copies_through_the_scene_tree(qtbot, make_window) -> None:
    window = make_window()
    edit = {a.text().replace("&", ""): a for a in _menu(window, "&Edit").actions()
            if a.text()}
    assert {"Add Node...", "Copy", "Paste", "Delete", "Reset to Default"} <= set(edit)
    box = window.runner.world.find_by_def("GREEN_BOX")
    assert window.tree.controller.set_field(box, "translation", [1.0, -0.5, 0.7])
    undo = next(a for a in edit.values() if a.text().startswith("Undo"))
    redo = next(a for a in edit.values() if a.text().startswith("Redo"))
    assert undo.isEnabled() and not redo.isEnabled()
    undo.trigger()
    assert np.allclose(window.runner.latest_frame().poses[box][0], [1.0, 0.4, 0.5])
    redo.trigger()
    assert np.allclose(window.runner.latest_frame().poses[box][0], [1.0, -0.5, 0.7])
    count = len(window.runner.world.nodes)
    window.tree.select_node(box)
    edit["Copy"].trigger()
    edit["Paste"].trigger()
    nodes = window.runner.world.nodes
    assert len(nodes) == count + 1
    pasted = nodes[nodes.index(box) + 1]
    assert pasted is not box and pasted.type_name == box.type_name
    assert pasted in window.runner.latest_frame().poses  # a new body in the simulation
    assert pasted in window.viewport.scene.solids  # and in the 3D view
    assert window.tree.panel.error.text() == ""
    window.tree.select_node(pasted)
    edit["Delete"].trigger()
    assert len(window.runner.world.nodes) == count


def test_file_dialogs_open_save_as_and_open_recent(qtbot, make_window, tmp_path,
                                                   monkeypatch) -> None:
    from PySide6.QtWidgets import QFileDialog

    window = make_window()
    target = make_project(tmp_path)
    asked: list[tuple[str, str]] = []

    def get_open(_parent, caption, start, filters):
        asked.append((caption, filters))
        return str(target), filters

    monkeypatch.setattr(QFileDialog, "getOpenFileName", staticmethod(get_open))
    window.actions_["open"].trigger()
    assert asked == [("Open World", "Worlds (*.wbt)")]
    assert window.world_path == str(target)
    saved = tmp_path / "other.wbt"
    monkeypatch.setattr(QFileDialog, "getSaveFileName",
                        staticmethod(lambda *_a: (str(saved), "Worlds (*.wbt)")))
    window.actions_["save_as"].trigger()
    assert read_world(str(saved)).find_by_def("ROBOT") is not None
    assert window.world_path == str(saved) and "other.wbt" in window.windowTitle()
    monkeypatch.setattr(QFileDialog, "getOpenFileName", staticmethod(lambda *_a: ("", "")))
    assert not window.open_dialog()  # cancelled: nothing changes
    assert window.world_path == str(saved)
    window.recent_menu.aboutToShow.emit()
    entries = [a for a in window.recent_menu.actions() if a.text()]
    assert [a.text() for a in entries[:2]] == [str(saved), str(target)]
    entries[1].trigger()
    assert window.world_path == str(target)


def test_open_recent_is_empty_at_first(make_window, tmp_path) -> None:
    window = make_window()
    window.recent.settings.remove(window.recent.KEY)
    window.recent_menu.aboutToShow.emit()
    (entry,) = window.recent_menu.actions()
    assert entry.text() == "(no recent worlds)" and not entry.isEnabled()


def test_unsaved_question_uses_a_message_box(make_window, monkeypatch) -> None:
    from PySide6.QtWidgets import QMessageBox

    window = make_window()
    box = window.runner.world.find_by_def("GREEN_BOX")
    assert window.tree.controller.set_field(box, "translation", [1.0, -0.5, 0.7])
    shown: list[str] = []

    def question(_parent, _title, text, _buttons):
        shown.append(text)
        return QMessageBox.StandardButton.Cancel

    monkeypatch.setattr(QMessageBox, "question", staticmethod(question))
    window.ask_unsaved = window._ask_unsaved_dialog
    assert not window.maybe_save()
    assert "default.wbt" in shown[0] and window.is_modified()


def test_looks_edit_redraws_without_moving_the_camera(make_window) -> None:
    window = make_window()
    window.viewport.camera.orbit(40, -15)
    window.viewport.camera.zoom(2)
    eye = np.array(window.viewport.camera.eye, dtype=float)
    box = window.runner.world.find_by_def("GREEN_BOX")
    shape_box = window.runner.world.find_by_def("GREEN_SHAPE").get("geometry")
    assert window.tree.controller.set_field(shape_box, "size", [0.3, 0.3, 0.3])
    scales = [np.linalg.norm(it.local[:3, 0]) for it in window.viewport.scene.shapes
              if window.viewport.scene.solids[it.solid] is box]
    assert np.allclose(scales, [0.3])  # the new size is drawn
    assert np.allclose(window.viewport.camera.eye, eye)


def test_edit_is_withdrawn_when_the_engine_thread_is_stuck(qtbot, make_window) -> None:
    import threading

    from app.main_window_support import EngineSink

    window = make_window()
    runner = window.runner
    release = threading.Event()
    runner.call(lambda sim: release.wait(20))  # the engine thread is busy until released
    sink = EngineSink(runner, timeout=0.3)
    window.tree.controller.sink = sink
    box = runner.world.find_by_def("GREEN_BOX")
    errors: list[str] = []
    window.tree.error_occurred.connect(errors.append)
    assert not window.tree.controller.set_field(box, "translation", [1.0, -0.5, 0.7])
    assert errors and "did not take the edit" in errors[0]
    release.set()
    qtbot.wait(300)  # the withdrawn edit must not run later
    assert list(box.get("translation")) == [1.0, 0.4, 0.5]
    assert window.tree.undo_stack.count() == 0


def test_read_only_world_is_saved_only_when_the_user_says_so(make_window, tmp_path,
                                                              answers) -> None:
    world_path = make_project(tmp_path)
    asked: list[str] = []
    reply = {"overwrite": False}

    def confirm(_title: str, question: str) -> bool:
        asked.append(question)
        return reply["overwrite"]

    window = make_window(str(world_path), confirm=confirm)
    box = window.runner.world.find_by_def("GREEN_BOX")
    assert window.tree.controller.set_field(box, "translation", [1.0, -0.5, 0.7])
    world_path.chmod(0o444)
    assert not window.save()                      # the user says no: nothing written
    assert len(asked) == 1 and "read-only" in asked[0]
    assert list(read_world(str(world_path)).find_by_def("GREEN_BOX").get("translation")) \
        != [1.0, -0.5, 0.7]
    assert window.is_modified() and not answers.errors
    reply["overwrite"] = True                     # the user says yes: written, still read-only
    assert window.save()
    assert list(read_world(str(world_path)).find_by_def("GREEN_BOX").get("translation")) \
        == [1.0, -0.5, 0.7]
    assert world_path.stat().st_mode & 0o777 == 0o444
    assert not window.is_modified()
