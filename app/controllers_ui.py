"""The main window's pieces for robot controllers (issue 17; docs/app.md, "Controllers").

- File > New Robot Controller... (app/new_controller_wizard.py): makes
  ``<project>/controllers/<name>/<name>.py``, optionally sets the selected
  robot's ``controller`` field (undoable) and opens the file in the editor;
- Tools > Edit Robot Controller: the selected robot's controller source in
  the editor (the robot is the selected node or the Robot above it; with
  nothing selected, the world's only robot with a controller); saving a file
  that is a robot's controller restarts that robot's controller instead of
  reloading the physics plugin (`source_saved`);
- Tools > Restart Controller: the selected robot's controller, or every one;
- a status-bar button naming the late controllers (no step request for
  `ControllerHost.late_after` s; reported by its status listeners, marshalled
  by `RunnerBridge.controller_status`) that restarts them;
- a ``controller`` field edit (Select... dialog, typed value, undo, redo)
  restarts that robot's controller with the new value (`edit_applied`);
- the console's robot filters, the Cameras dock (app/camera_dock.py) and the
  keys held in the 3D view (``runner.set_keys``).

`ControllersUi(window)` adds them to a built `MainWindow`; the window calls
`world_loaded`, `world_closed`, `show_frame`, `edit_applied` and
`source_saved`. ``ask_new_controller(project, robot, parent)`` is the wizard
(tests replace it).
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QMainWindow, QMenu, QToolButton, QWidget

from app.camera_dock import CameraDock
from app.new_controller_wizard import NewController, NewControllerWizard
from app.new_plugin_wizard import needs_own_project, project_of_world
from app.scene_tree.edits import SetField
from engine.controllers.discovery import ControllerNotFound, find_controller, runs_nothing
from engine.sim.frame import Frame
from engine.world import Node

#: ``ask(project_dir, robot name or None, parent) -> NewController | None``.
AskNewController = Callable[["Path | None", "str | None", QWidget], "NewController | None"]
#: Robot fields whose edit restarts the robot's controller.
RESTART_FIELDS = frozenset({"controller"})
EDIT_TITLE = "Edit Robot Controller"


def menu_named(window: QMainWindow, title: str) -> QMenu:
    """The window's menu titled ``title`` (without its ``&``)."""
    for action in window.menuBar().actions():
        menu = action.menu()
        if isinstance(menu, QMenu) and menu.title().replace("&", "") == title:
            return menu
    raise LookupError(f"the main window has no {title} menu")


def robot_of(node) -> Node | None:
    """``node`` if it is a Robot, else the nearest Robot above it (None: none)."""
    while node is not None and not (hasattr(node, "is_a") and node.is_a("Robot")):
        node = node.parent
    return node


def robot_name(robot: Node) -> str:
    """A Robot's ``name`` field (the controllers' and the console's name for it)."""
    return str(robot.get("name"))


class ControllersUi:
    """Adds the controllers' actions, status button and Cameras dock to ``window``
    (a built `MainWindow` with ``actions_``, ``tree``, ``console``,
    ``viewport`` and the File, Tools and View menus)."""

    def __init__(self, window: QMainWindow) -> None:
        self.window = window
        self.ask_new_controller: AskNewController = NewControllerWizard.ask
        specs = [("new_controller", "New &Robot Controller...", self.new_controller),
                 ("edit_controller", "Edit Robot &Controller", self.edit_controller),
                 ("restart_controller", "Restart Co&ntroller", self.restart_controller)]
        for name, text, slot in specs:
            action = QAction(text, window)
            action.triggered.connect(lambda _=False, fn=slot: fn())
            window.actions_[name] = action
        window.actions_["restart_controller"].setToolTip(
            "Restart the selected robot's controller (every controller when no robot is "
            "selected)")
        file_menu = menu_named(window, "File")
        file_menu.insertAction(window.actions_["quit"], window.actions_["new_controller"])
        tools = menu_named(window, "Tools")
        tools.insertSeparator(window.actions_["monte_carlo"])
        for name in ("edit_controller", "restart_controller"):
            tools.insertAction(window.actions_["monte_carlo"], window.actions_[name])
        tools.insertSeparator(window.actions_["monte_carlo"])
        self.late_button = QToolButton(window)
        self.late_button.setStyleSheet("color: #c00000; font-weight: bold;")
        self.late_button.clicked.connect(self.restart_late)
        self.late_button.hide()
        window.statusBar().addPermanentWidget(self.late_button)
        self.cameras = CameraDock(window.viewport, window)
        window.addDockWidget(Qt.DockWidgetArea.RightDockWidgetArea, self.cameras)
        self.cameras.hide()
        cameras_action = self.cameras.toggleViewAction()
        cameras_action.setText("C&ameras")
        window.actions_["cameras"] = cameras_action
        menu_named(window, "View").addAction(cameras_action)
        window.viewport.keys_changed.connect(self._keys_changed)
        window.tree.edit_controller_requested.connect(self.edit_controller_named)

    # ------------------------------------------------------------ the window's calls
    def world_loaded(self, runner, bridge) -> None:
        """A new runner (and its bridge) shows a world."""
        bridge.controller_status.connect(lambda _robot, _status: self.refresh_late())
        names = [robot_name(r) for r in runner.robots.robots_with_controllers()]
        self.window.console.set_robots(dict.fromkeys(names))
        self.cameras.set_runner(runner)
        self.refresh_late()

    def world_closed(self) -> None:
        """The runner is about to stop."""
        self.cameras.set_runner(None)
        self.late_button.hide()

    def show_frame(self, frame: Frame) -> None:
        """A new frame is shown: render the due cameras, update the late state."""
        self.cameras.render(frame)
        self.refresh_late()

    def edit_applied(self, edit) -> None:
        """A scene-tree edit reached the engine: a robot's ``controller`` change
        restarts its controller (with the new value)."""
        runner = self.window.runner
        if (runner is not None and isinstance(edit, SetField) and edit.field in RESTART_FIELDS
                and edit.node.is_a("Robot")):
            runner.restart_controller(robot_name(edit.node))

    def source_saved(self, path: str) -> bool:
        """The editor saved ``path``: restart the robots whose controller it is
        (True), or nothing to do here (False: it is not a controller's)."""
        runner = self.window.runner
        robots = self.robots_using(path)
        for name in robots:
            runner.restart_controller(name)
        if robots:
            self.window.statusBar().showMessage(
                f"Saved: restarting the controller of {', '.join(map(repr, robots))}", 5000)
        return bool(robots)

    # ------------------------------------------------------------------- robots
    def robots_using(self, path: str | os.PathLike) -> list[str]:
        """Names of the robots whose controller program is the file ``path``."""
        runner = self.window.runner
        if runner is None:
            return []
        target = Path(path).resolve()
        names = []
        for robot in runner.robots.robots_with_controllers():
            try:
                program = find_controller(str(robot.get("controller")), self.window.world_path)
            except ControllerNotFound:
                continue
            if program.source.resolve() == target:
                names.append(robot_name(robot))
        return list(dict.fromkeys(names))

    def selected_robot(self) -> Node | None:
        """The Robot selected in the scene tree (or holding the selected node)."""
        return robot_of(self.window.tree.current_node())

    def _robot_to_edit(self) -> Node | None:
        robot = self.selected_robot()
        if robot is not None or self.window.runner is None:
            return robot
        robots = self.window.runner.robots.robots_with_controllers()
        return robots[0] if len(robots) == 1 else None

    # ------------------------------------------------------------------ actions
    def edit_controller(self) -> bool:
        """Tools > Edit Robot Controller (module docstring)."""
        robot = self._robot_to_edit()
        if robot is None:
            self.window.show_error(EDIT_TITLE, "Select a robot (or a node inside it) in the "
                                   "scene tree first.")
            return False
        value = str(robot.get("controller"))
        if runs_nothing(value):
            self.window.show_error(
                EDIT_TITLE, f"The robot '{robot_name(robot)}' has no controller (its "
                f"controller field is \"{value}\"). Choose one with the field's Select... "
                "button, or make one with File > New Robot Controller...")
            return False
        return self.edit_controller_named(value)

    def edit_controller_named(self, name: str) -> bool:
        """Open controller ``name``'s source in the editor (a message when it is
        not found)."""
        try:
            program = find_controller(name, self.window.world_path)
        except ControllerNotFound as exc:
            self.window.show_error(EDIT_TITLE, str(exc))
            return False
        return self.window.open_in_editor(str(program.source), None)

    def restart_controller(self) -> None:
        """Tools > Restart Controller: the selected robot's, or every one."""
        runner = self.window.runner
        if runner is None:
            return
        robot = self.selected_robot()
        runner.restart_controller(robot_name(robot) if robot is not None else None)

    def restart_late(self) -> None:
        """Restart every controller reported late (the status bar button)."""
        runner = self.window.runner
        if runner is None:
            return
        for name in self.late_robots():
            runner.restart_controller(name)

    def late_robots(self) -> list[str]:
        """Robots whose controller is late now."""
        runner = self.window.runner
        if runner is None:
            return []
        return [name for name, state in runner.robots.status().items() if state == "late"]

    def refresh_late(self) -> None:
        """Show (or hide) the late controllers' button."""
        late = self.late_robots()
        if not late:
            self.late_button.hide()
            return
        names = ", ".join(f"'{n}'" for n in late)
        self.late_button.setText(f"Controller late: {names} \u2014 Restart")
        self.late_button.setToolTip(
            f"The controller of {names} sent no step request for "
            f"{self.window.runner.robots.late_after:g} s or more: the simulation waits for "
            "it. Click to restart it.")
        self.late_button.show()

    def new_controller(self) -> bool:
        """File > New Robot Controller...: wizard, optionally the selected robot's
        ``controller`` field (undoable), editor."""
        window = self.window
        if window.runner is None:
            return False
        window.pause()
        robot = self.selected_robot()
        name = robot_name(robot) if robot is not None else None
        if needs_own_project(window.world_path):
            if not window._save_into_own_project("New Robot Controller"):
                return False
            robot = self._robot_named(name)  # the world was loaded again
        project = project_of_world(window.world_path) if window.world_path else None
        made = self.ask_new_controller(project, name, window)
        if made is None:
            return False
        ok = True
        if made.use_for_robot and robot is not None:
            ok = window.tree.controller.set_field(robot, "controller", made.name)
        if made.open_in_editor:
            window.open_in_editor(str(made.path), None)
        return ok

    def _robot_named(self, name: str | None) -> Node | None:
        if name is None or self.window.runner is None:
            return None
        for node in self.window.runner.world.iter_nodes():
            if not node.is_use and not node.is_opaque and node.is_a("Robot") \
                    and robot_name(node) == name:
                return node
        return None

    def _keys_changed(self, keys: list) -> None:
        if self.window.runner is not None:
            self.window.runner.set_keys([int(k) for k in keys])
