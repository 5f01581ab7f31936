"""`MainWindow`: Odeon's desktop window (docs/app.md).

The 3D viewport in the centre, the scene tree (left), console (bottom) and
plots (right) docks, menus File / Edit / Simulation / Tools / View (Edit holds
the scene tree's undo, redo and node actions), a tool bar and a
status bar with the simulated time (``H:MM:SS:mmm``) and speed.

Robot controllers' actions, late button, Cameras dock and keyboard are in
app/controllers_ui.py, the robust contact model's pieces in
app/robust_contacts_ui.py.

One `EngineRunner` per open world runs it in the engine thread; a
`RunnerBridge` brings its frames and console lines to the GUI thread. A world
is opened by building a new runner first: when the file does not load, the
error is shown (message box and console) and the previous world stays open.

Questions and messages go through injectable callables so tests can answer:
``ask_unsaved(text) -> "save" | "discard" | "cancel"``,
``confirm(title, text) -> bool``, ``show_error(title, text)`` and
``run_wizard(project_dir, parent) -> (name, path, open_editor) | None``,
``ask_trust(TrustQuestion) -> bool`` (app.trust) and
``choose_project(parent) -> Path | None`` (the folder a bundled world is
saved into before New Physics Plugin).
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QSettings, Qt, QTimer
from PySide6.QtGui import QAction, QCloseEvent, QIcon, QKeySequence
from PySide6.QtWidgets import (
    QFileDialog,
    QLabel,
    QMainWindow,
    QMessageBox,
    QStyle,
    QWidget,
)

from app.compile_progress import CompileProgress
from app.console_dock import ConsoleDock
from app.controllers_ui import ControllersUi
from app.main_window_support import (
    EngineSink,
    RecentFiles,
    format_speed,
    format_time,
)
from app.new_plugin_wizard import (
    NewPluginWizard,
    PluginNameError,
    choose_project_dialog,
    make_project,
    needs_own_project,
    project_of_world,
)
from app.plots_dock import PlotsDock
from app.plugin_editor import PluginEditor
from app.robust_contacts_ui import RobustContactsUi
from app.runner import EngineRunner
from app.runner_qt import RunnerBridge
from app.scene_tree import SceneTreeDock
from app.trust import (
    AskTrust,
    TrustQuestion,
    TrustStore,
    ask_trust_dialog,
    not_run_message,
    project_folder,
    untrusted_plugin,
)
from app.viewport import ViewportWidget
from engine.heap import release_world, settle_loaded_world
from engine.plugins.discovery import BadPluginName, PluginLocation, find_plugin, is_no_plugin
from engine.sim.baseline import write_as_edited
from engine.sim.frame import Frame
from engine.sim.geometry import BuildError
from engine.world import WorldError, WorldReadOnlyError

if TYPE_CHECKING:
    from app.monte_carlo.dialog import MonteCarloDialog

#: The world opened when none is given.
DEFAULT_WORLD = Path(__file__).resolve().parents[1] / "resources" / "worlds" / "default.wbt"
#: Longest wait [s] for the engine thread to end when a world is closed.
ENGINE_STOP_WAIT = 2.0
#: When the plots are made if the viewport has drawn no frame by then [ms].
FIRST_FRAME_FALLBACK_MS = 3000
#: The app's own icons (those Qt's standard set lacks).
ICONS_DIR = Path(__file__).resolve().parents[1] / "resources" / "icons"

AskUnsaved = Callable[[str], str]
Confirm = Callable[[str, str], bool]
ShowError = Callable[[str, str], None]
RunWizard = Callable[[Path | None, QWidget], "tuple[str, Path, bool] | None"]
ChooseProject = Callable[[QWidget], "Path | None"]


class MainWindow(QMainWindow):
    """Odeon's main window (see module docstring)."""

    def __init__(self, world_path: str | os.PathLike | None = None, *,
                 settings_path: str | None = None, ask_unsaved: AskUnsaved | None = None,
                 confirm: Confirm | None = None, show_error: ShowError | None = None,
                 run_wizard: RunWizard | None = None, ask_trust: AskTrust | None = None,
                 choose_project: ChooseProject | None = None,
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("OdeonMainWindow")
        self.settings = (QSettings(settings_path, QSettings.Format.IniFormat)
                         if settings_path else QSettings("Odeon", "Odeon"))
        self.recent = RecentFiles(self.settings)
        self.ask_unsaved: AskUnsaved = ask_unsaved or self._ask_unsaved_dialog
        self.confirm: Confirm = confirm or self._confirm_dialog
        self.show_error: ShowError = show_error or self._error_dialog
        self.run_wizard: RunWizard = run_wizard or NewPluginWizard.run
        self.choose_project: ChooseProject = choose_project or choose_project_dialog
        self.trust = TrustStore(self.settings)  # folders whose plugins may run
        self.ask_trust: AskTrust = ask_trust or ask_trust_dialog(self)
        self.untrusted: TrustQuestion | None = None  # the plugin not run (folder not trusted)
        self.runner: EngineRunner | None = None
        self.bridge: RunnerBridge | None = None
        self.world_path: str | None = None
        self.editor: PluginEditor | None = None
        self._shown_pause_message = ""  # the engine's pause message on the status bar
        self.viewport = ViewportWidget(self)
        self.setCentralWidget(self.viewport)
        self.tree = SceneTreeDock(self)
        self.console = ConsoleDock(self)
        self.console.setObjectName("ConsoleDock")
        self.plots = PlotsDock(self)
        self.plots.setObjectName("PlotsDock")
        self.addDockWidget(Qt.DockWidgetArea.LeftDockWidgetArea, self.tree)
        self.addDockWidget(Qt.DockWidgetArea.BottomDockWidgetArea, self.console)
        self.addDockWidget(Qt.DockWidgetArea.RightDockWidgetArea, self.plots)
        self.time_label = QLabel(format_time(0))
        self.speed_label = QLabel(format_speed(0.0, False))
        self.mode_label = QLabel("paused")
        for label in (self.mode_label, self.time_label, self.speed_label):
            self.statusBar().addPermanentWidget(label)
        self.compile_progress = CompileProgress(self.statusBar(), self)  # first-run compile
        self.actions_: dict[str, QAction] = {}
        self._make_actions()
        self._make_menus()
        self.robust_ui = RobustContactsUi(self)  # contacts status label, View toggles
        self.controllers_ui = ControllersUi(self)  # controller actions, late button, cameras
        self.viewport.solid_picked.connect(self._on_picked)
        # the plots (pyqtgraph, ~0.3 s) are made once the world is drawn, or
        # after FIRST_FRAME_FALLBACK_MS when no frame comes (no OpenGL)
        self._first_frame_done = False
        self.viewport.frameSwapped.connect(self._after_first_frame)
        self._first_frame_fallback = QTimer(self)  # dies with the window
        self._first_frame_fallback.setSingleShot(True)
        self._first_frame_fallback.timeout.connect(self._after_first_frame)
        self._first_frame_fallback.start(FIRST_FRAME_FALLBACK_MS)
        self.tree.node_selected.connect(self._on_node_selected)
        self.tree.edit_plugin_requested.connect(self.edit_plugin)
        self.tree.undo_stack.cleanChanged.connect(self._update_title)
        self.console.open_location.connect(self.open_in_editor)
        self.resize(1280, 860)
        horizontal, vertical = Qt.Orientation.Horizontal, Qt.Orientation.Vertical
        self.resizeDocks([self.tree, self.plots], [330, 300], horizontal)
        self.resizeDocks([self.console], [170], vertical)
        self._restore_layout()
        self.load_world(world_path or DEFAULT_WORLD)

    def _after_first_frame(self) -> None:
        """The viewport drew its first frame (or the fallback timer fired): make
        what the first frame did not need (the plots' graphs; pyqtgraph is
        imported in a worker thread meanwhile)."""
        if self._first_frame_done:
            return
        self._first_frame_done = True
        self._first_frame_fallback.stop()
        self.viewport.frameSwapped.disconnect(self._after_first_frame)
        self.plots.prepare_graphs()

    # ------------------------------------------------------------- actions
    def _make_actions(self) -> None:
        key = QKeySequence
        specs: list[tuple[str, str, object, Callable[[], object]]] = [
            ("open", "&Open World...", key.StandardKey.Open, self.open_dialog),
            ("save", "&Save World", key.StandardKey.Save, self.save),
            ("save_as", "Save World &As...", key("Ctrl+Shift+S"), self.save_as_dialog),
            ("reload", "&Reload World", key("Ctrl+Shift+R"), self.reload_world),
            ("new_plugin", "New &Physics Plugin...", None, self.new_plugin),
            ("quit", "&Quit", key.StandardKey.Quit, self.close),
            ("realtime", "Run &Real-time", key("Ctrl+2"), self.run_realtime),
            ("fast", "Run &Fast", key("Ctrl+3"), self.run_fast),
            ("pause", "&Pause", key("Ctrl+0"), self.pause),
            ("step", "&Step", key("Ctrl+1"), self.step),
            ("reset", "Re&set Simulation", key("Ctrl+Shift+T"), self.reset),
            ("edit_plugin", "&Edit Physics Plugin", None, self.edit_plugin),
            ("reload_plugin", "Re&load Physics Plugin", None, self.reload_plugin),
            ("trust_plugin", "&Trust This Folder and Load Plugin", None,
             self.trust_and_load_plugin),
            ("stop_plugin", "S&top Physics Plugin", None, self.stop_plugin),
            ("monte_carlo", "&Monte Carlo...", None, self.monte_carlo),
        ]
        for name, text, shortcut, slot in specs:
            action = QAction(text, self)
            if shortcut is not None:
                action.setShortcut(shortcut)
            action.triggered.connect(lambda _=False, fn=slot: fn())
            self.actions_[name] = action
        views = [("bounding", "&Bounding Objects", "show_bounding_objects"),
                 ("contacts", "&Contact Points and Normals", "show_contacts"),
                 ("forces", "Contact &Forces", "show_forces"),
                 ("trails", "&Trajectories", "show_trails")]
        for name, text, flag in views:
            action = QAction(text, self, checkable=True)
            action.setChecked(bool(getattr(self.viewport, flag)))
            action.toggled.connect(lambda on, f=flag: setattr(self.viewport, f, on))
            self.actions_[name] = action
        plots = self.plots.toggleViewAction()
        plots.setText("&Plots")
        self.actions_["plots"] = plots

    def _make_menus(self) -> None:
        a = self.actions_
        file_menu = self.menuBar().addMenu("&File")
        file_menu.addAction(a["open"])
        self.recent_menu = file_menu.addMenu("Open &Recent")
        self.recent_menu.aboutToShow.connect(self._fill_recent_menu)
        for name in ("save", "save_as", "reload"):
            file_menu.addAction(a[name])
        file_menu.addSeparator()
        file_menu.addAction(a["new_plugin"])
        file_menu.addSeparator()
        file_menu.addAction(a["quit"])
        edit_menu = self.menuBar().addMenu("&Edit")
        tree = self.tree
        edit_menu.addAction(tree.undo_action)
        edit_menu.addAction(tree.redo_action)
        edit_menu.addSeparator()
        for name in ("add", "copy", "paste", "delete", "reset"):
            edit_menu.addAction(tree.actions_[name])
        sim_menu = self.menuBar().addMenu("&Simulation")
        for name in ("realtime", "fast", "pause", "step", "reset"):
            sim_menu.addAction(a[name])
        tools = self.menuBar().addMenu("&Tools")
        tools.addAction(a["edit_plugin"])
        tools.addAction(a["reload_plugin"])
        tools.addAction(a["stop_plugin"])
        tools.addAction(a["trust_plugin"])
        tools.addSeparator()
        tools.addAction(a["monte_carlo"])
        view = self.menuBar().addMenu("&View")
        for name in ("bounding", "contacts", "forces", "trails", "plots"):
            view.addAction(a[name])
        view.addSeparator()
        for dock in (self.tree, self.console):
            view.addAction(dock.toggleViewAction())
        sp = QStyle.StandardPixmap
        icons = {"open": sp.SP_DialogOpenButton, "save": sp.SP_DialogSaveButton,
                 "reload": sp.SP_BrowserReload, "reset": sp.SP_MediaSkipBackward,
                 "pause": sp.SP_MediaPause, "realtime": sp.SP_MediaPlay,
                 "fast": sp.SP_MediaSeekForward}
        for name, pixmap in icons.items():
            a[name].setIcon(self.style().standardIcon(pixmap))
        # no standard "one step" icon: the arrow one looks like Run's play triangle
        a["step"].setIcon(QIcon(str(ICONS_DIR / "step.svg")))
        self.toolbar = self.addToolBar("Simulation")
        self.toolbar.setObjectName("SimulationToolBar")
        self.toolbar.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonIconOnly)
        for name in ("open", "save", "reload", None, "reset", "step", "pause", "realtime",
                     "fast"):
            if name is None:
                self.toolbar.addSeparator()
            else:
                self.toolbar.addAction(a[name])
        self.tools_toolbar = self.addToolBar("Plugin and View")
        self.tools_toolbar.setObjectName("ToolsToolBar")
        for name in ("edit_plugin", "reload_plugin", None, "bounding", "contacts", "forces",
                     "trails", "plots"):
            if name is None:
                self.tools_toolbar.addSeparator()
            else:
                self.tools_toolbar.addAction(a[name])

    def monte_carlo(self) -> MonteCarloDialog:
        """Tools > Monte Carlo...: a study of the open world as edited (docs/scripting.md)."""
        from app.monte_carlo.dialog import MonteCarloDialog  # pyqtgraph: not before it is needed

        dialog = MonteCarloDialog(self.runner.edited_world_text(), self.world_path,
                                  self.open_world, self)
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        dialog.show()
        return dialog

    def _fill_recent_menu(self) -> None:
        self.recent_menu.clear()
        paths = self.recent.paths()
        for path in paths:
            action = self.recent_menu.addAction(path)
            action.triggered.connect(lambda _=False, p=path: self.open_world(p))
        if not paths:
            self.recent_menu.addAction("(no recent worlds)").setEnabled(False)

    # ------------------------------------------------------------- worlds
    def load_world(self, path: str | os.PathLike) -> bool:
        """Open ``path`` in a new engine runner; on failure show the error and
        keep the current world. No unsaved-changes question (see `open_world`)."""
        path = os.path.abspath(path)
        untrusted = untrusted_plugin(path, self.trust, self.ask_trust)
        try:
            runner = EngineRunner(path, load_plugin=untrusted is None)
        except (OSError, WorldError, BuildError, ValueError) as exc:
            message = f"Could not open '{path}': {exc}"
            self.console.append("odeon", f"ERROR: {message}")
            self.console.flush()
            self.show_error("Open World", message)
            return False
        self._close_runner()
        self.runner, self.world_path = runner, path
        self.bridge = RunnerBridge(runner, self)
        self.bridge.frame_ready.connect(self._on_frame)
        self.bridge.console_line.connect(self.console.append)
        self.bridge.state_changed.connect(self.mode_label.setText)
        self.controllers_ui.world_loaded(runner, self.bridge)
        self.console.append_lines(list(runner.sim.console.lines))
        self.untrusted = untrusted
        if untrusted is not None:
            self.console.append("odeon", f"WARNING: {not_run_message(untrusted)}")
        self.actions_["trust_plugin"].setEnabled(untrusted is not None)
        self.viewport.set_world(runner.world)
        self.viewport.set_plugin_draw(lambda p: self.runner.draw(p) if self.runner else False)
        self.viewport.set_paint_guard(runner.gui_first)
        self.tree.set_world(runner.world, EngineSink(runner, self._edit_applied), path)
        self.tree.undo_stack.setClean()
        self.plots.clear()
        self.plots.forget_solids()
        self._on_frame(runner.latest_frame())
        self.bridge.start()
        self.recent.add(path)
        self._update_title()
        settle_loaded_world()  # the old world collected, the new one frozen (engine/heap.py)
        return True

    def open_world(self, path: str | os.PathLike) -> bool:
        """`load_world` after asking about unsaved changes."""
        return self.maybe_save() and self.load_world(path)

    def open_dialog(self) -> bool:
        """File > Open World..."""
        start = os.path.dirname(self.world_path or str(DEFAULT_WORLD))
        path, _ = QFileDialog.getOpenFileName(self, "Open World", start, "Worlds (*.wbt)")
        return bool(path) and self.open_world(path)

    def reload_world(self) -> bool:
        """File > Reload World: parse the file again (asks about unsaved changes)."""
        return self.world_path is not None and self.open_world(self.world_path)

    def save(self) -> bool:
        """File > Save World (atomic write)."""
        return self.world_path is not None and self.save_as(self.world_path)

    def save_as(self, path: str | os.PathLike) -> bool:
        """Write the world to ``path`` (atomic) and make it the world's file."""
        if self.runner is None:
            return False
        path = os.path.abspath(path)
        try:  # never through the engine thread: it may be stuck in a plugin
            between_steps = self._write_world(path, overwrite_read_only=False)
        except WorldReadOnlyError:
            if not self.confirm("Save World", f"'{path}' is read-only. Overwrite it anyway "
                                "(it stays read-only)?"):
                return False
            try:
                between_steps = self._write_world(path, overwrite_read_only=True)
            except Exception as exc:  # noqa: BLE001 (any failure is shown, with its reason)
                self._show_save_error(path, exc)
                return False
        except Exception as exc:  # noqa: BLE001 (any failure is shown, with its reason)
            self._show_save_error(path, exc)
            return False
        if not between_steps:
            self.console.append("odeon", "WARNING: the engine was busy (a physics plugin "
                                "callback running): saved the world as of its last step.")
        self.world_path = path
        self.tree.controller.world_path = path
        self.tree.undo_stack.setClean()
        self.recent.add(path)
        self._update_title()
        return True

    def _write_world(self, path: str, overwrite_read_only: bool) -> bool:
        """Write the world as edited to ``path`` (see `EngineRunner.save_world`)."""
        return self.runner.save_world(path, lambda sim, p: write_as_edited(
            sim.world, sim.baseline, p, overwrite_read_only=overwrite_read_only))

    def _show_save_error(self, path: str, exc: BaseException) -> None:
        reason = str(exc) or type(exc).__name__
        self.show_error("Save World", f"Could not save '{path}': {reason}")

    def save_as_dialog(self) -> bool:
        """File > Save World As..."""
        path, _ = QFileDialog.getSaveFileName(self, "Save World As", self.world_path or "",
                                              "Worlds (*.wbt)")
        return bool(path) and self.save_as(path)

    def is_modified(self) -> bool:
        """True when the scene has edits not saved to the file."""
        return not self.tree.undo_stack.isClean()

    def maybe_save(self) -> bool:
        """Ask about unsaved changes: False when the user cancels."""
        if not self.is_modified():
            return True
        name = os.path.basename(self.world_path or "world")
        answer = self.ask_unsaved(f"The world '{name}' has been modified.\n"
                                  "Do you want to save the changes?")
        if answer == "save":
            return self.save()
        return answer == "discard"

    # --------------------------------------------------------- simulation
    def run_realtime(self) -> None:
        """Simulation > Run Real-time."""
        if self.runner:
            self.runner.run_realtime()

    def run_fast(self) -> None:
        """Simulation > Run Fast."""
        if self.runner:
            self.runner.run_fast()

    def pause(self) -> None:
        """Simulation > Pause."""
        if self.runner:
            self.runner.pause()

    def step(self) -> None:
        """Simulation > Step (one basicTimeStep)."""
        if self.runner:
            self.runner.step_once()

    def reset(self) -> None:
        """Simulation > Reset Simulation."""
        if self.runner:
            self.runner.reset()
            self.plots.clear()
            self.viewport.clear_trails()

    # ------------------------------------------------------------ plugins
    def plugin_source(self) -> Path | None:
        """The source file of the world's WorldInfo.physics plugin (None if none)."""
        if self.runner is None:
            return None
        info = self.runner.world.world_info
        name = str(info.get("physics")) if info is not None else ""
        location = None if is_no_plugin(name) else _find_plugin(name, self.world_path)
        return location.source if location is not None else None

    def edit_plugin(self, name: str | None = None) -> bool:
        """Tools > Edit Physics Plugin (or the Select dialog's Edit button for ``name``)."""
        if name:
            location = _find_plugin(name, self.world_path)
            source = location.source if location is not None else None
        else:
            source = self.plugin_source()
            if source is None and self._plugin_name() in ("", None):
                if self.confirm("Edit Physics Plugin", "This simulation does not currently "
                                "use a physics plugin. Would you like to create one?"):
                    return self.new_plugin()
                return False
        if source is None or not source.is_file():
            self.show_error("Edit Physics Plugin", "Could not find the source file of the "
                            f"'{name or self._plugin_name()}' physics plugin.")
            return False
        return self.open_in_editor(str(source), None)

    def _plugin_name(self) -> str | None:
        info = self.runner.world.world_info if self.runner else None
        name = str(info.get("physics")) if info is not None else ""
        return None if is_no_plugin(name) else name

    def open_in_editor(self, path: str, line: int | None = None) -> bool:
        """Show ``path`` in the plugin editor (at ``line``)."""
        if self.editor is None:
            self.editor = PluginEditor(self)
            self.editor.setWindowFlag(Qt.WindowType.Window, True)
            self.editor.saved.connect(self._source_saved)
        if not self.editor.open_file(path, line):
            return False
        self.editor.show()
        self.editor.raise_()
        return True

    def _source_saved(self, path: str) -> None:
        """The editor saved ``path``: a robot's controller restarts, else the plugin reloads."""
        if not self.controllers_ui.source_saved(path):
            self.reload_plugin()

    def trust_and_load_plugin(self) -> bool:
        """Tools > Trust This Folder and Load Plugin: remember the world's folder
        as trusted and load the plugin that was not run (app.trust)."""
        if self.runner is None or self.untrusted is None:
            return False
        self.trust.trust(self.untrusted.folder)
        self.untrusted = None
        self.actions_["trust_plugin"].setEnabled(False)
        host, robots = self.runner.host, self.runner.robots

        def load(_sim) -> None:  # in the engine thread: the plugin, then the controllers
            host.load_world_plugin()
            robots.start()
        self.runner.call(load)
        return True

    def reload_plugin(self) -> None:
        """Tools > Reload Physics Plugin (also after saving in the editor)."""
        if self.runner:
            self.runner.reload_plugin()

    def stop_plugin(self) -> None:
        """Tools > Stop Physics Plugin: interrupt a callback that does not return
        (or disable the plugin); the simulation pauses, the world stays."""
        if self.runner:
            self.runner.stop_plugin()

    def new_plugin(self) -> bool:
        """File > New Physics Plugin...: wizard, set WorldInfo.physics (undoable), edit."""
        if self.runner is None:
            return False
        self.pause()
        if needs_own_project(self.world_path) and not self._save_into_own_project():
            return False
        project = project_of_world(self.world_path) if self.world_path else None
        result = self.run_wizard(project, self)
        if result is None:
            return False
        name, path, open_editor = result
        return self.use_new_plugin(name, str(path), open_editor)

    def _save_into_own_project(self, title: str = "New Physics Plugin") -> bool:
        """A bundled (or unsaved) world is first saved as ``<chosen>/worlds/<name>``
        (Webots' project layout made in the chosen folder): nothing is written
        inside the installation. The user's own project is trusted."""
        folder = self.choose_project(self)
        if folder is None:
            return False
        name = os.path.basename(self.world_path or "world.wbt")
        try:
            target = make_project(folder, name)
        except (OSError, PluginNameError) as exc:
            self.show_error(title, str(exc))
            return False
        if target.exists() and not self.confirm(
                title, f"{target} exists. Replace it with this world?"):
            return False
        if not self.save_as(target):
            return False
        self.trust.trust(project_folder(target))
        return self.load_world(target)  # plugins are looked up in the new project

    def use_new_plugin(self, name: str, path: str, open_editor: bool = True) -> bool:
        """Set WorldInfo.physics to ``name`` through the scene tree and open ``path``."""
        info = self.runner.world.world_info if self.runner else None
        if info is None:
            self.show_error("New Physics Plugin", "The world has no WorldInfo node.")
            return False
        ok = self.tree.controller.set_field(info, "physics", name)
        if ok and open_editor:
            self.open_in_editor(path, None)
        return ok

    # ------------------------------------------------------------ updates
    def _on_frame(self, frame: Frame) -> None:
        self.viewport.set_frame(frame)
        self.plots.add_frame(frame)
        self.time_label.setText(format_time(frame.time_ms))
        self.speed_label.setText(format_speed(frame.speed, frame.running))
        self.mode_label.setText(self.runner.state() if self.runner is not None else frame.mode)
        self.robust_ui.show_frame(frame)
        self.controllers_ui.show_frame(frame)
        self._show_pause_message(frame.pause_message)

    def _show_pause_message(self, message: str) -> None:
        """The status bar mirrors why the engine is paused: the message shows while
        the frame has it and goes when the engine clears it (plugin reloaded, Reset,
        Step or Run on, another world); a message of someone else stays."""
        bar = self.statusBar()
        if message and message != self._shown_pause_message:
            bar.showMessage(message)
        elif not message and self._shown_pause_message \
                and bar.currentMessage() == self._shown_pause_message:
            bar.clearMessage()
        self._shown_pause_message = message

    def _edit_applied(self, edit, visual: bool) -> None:
        self.controllers_ui.edit_applied(edit)
        if visual and self.runner is not None:
            self.viewport.set_world(self.runner.world, keep_camera=True)
        if self.runner is not None:
            self._on_frame(self.runner.latest_frame())

    def _on_picked(self, node) -> None:
        if node is not None:
            self.tree.select_node(node)
        self.plots.set_solid(node)

    def _on_node_selected(self, node) -> None:
        if node is None or not getattr(node, "is_a", lambda _t: False)("Solid"):
            return
        self.viewport.set_trail_solids([node])
        self.plots.set_solid(node)

    def _update_title(self, *_args) -> None:
        name = os.path.basename(self.world_path) if self.world_path else "untitled"
        star = "*" if self.is_modified() else ""
        self.setWindowTitle(f"Odeon - {name}{star}")

    # ----------------------------------------------------- layout, closing
    def _restore_layout(self) -> None:
        geometry = self.settings.value("mainWindow/geometry")
        state = self.settings.value("mainWindow/state")
        if geometry is not None:
            self.restoreGeometry(geometry)
        if state is not None:
            self.restoreState(state)

    def save_layout(self) -> None:
        """Remember the window geometry and dock layout (QSettings)."""
        self.settings.setValue("mainWindow/geometry", self.saveGeometry())
        self.settings.setValue("mainWindow/state", self.saveState())
        self.settings.sync()

    def _close_runner(self) -> None:
        self.controllers_ui.world_closed()
        if self.bridge is not None:
            self.bridge.close()
            self.bridge.deleteLater()
            self.bridge = None
        if self.runner is not None:
            self.viewport.set_plugin_draw(None)
            self.viewport.set_paint_guard(None)
            self.runner.stop(ENGINE_STOP_WAIT)  # a stuck engine thread is left behind
            self.runner = None
            release_world()  # its cycles collectable again (engine/heap.py)

    def closeEvent(self, event: QCloseEvent) -> None:  # noqa: N802 (Qt override)
        """Ask about unsaved changes, remember the layout, stop the engine."""
        if not self.maybe_save() or (self.editor is not None and not self.editor.maybe_save()):
            event.ignore()
            return
        self.save_layout()
        if self.editor is not None:
            self.editor.close()
        self._close_runner()
        self.compile_progress.close()
        event.accept()

    # ---------------------------------------------------------- dialogs
    def _ask_unsaved_dialog(self, text: str) -> str:
        buttons = (QMessageBox.StandardButton.Save | QMessageBox.StandardButton.Discard
                   | QMessageBox.StandardButton.Cancel)
        answer = QMessageBox.question(self, "Odeon", text, buttons)
        return {QMessageBox.StandardButton.Save: "save",
                QMessageBox.StandardButton.Discard: "discard"}.get(answer, "cancel")

    def _confirm_dialog(self, title: str, text: str) -> bool:
        return QMessageBox.question(self, title, text) == QMessageBox.StandardButton.Yes

    def _error_dialog(self, title: str, text: str) -> None:
        QMessageBox.critical(self, title, text)


def _find_plugin(name: str, world_path: str | None) -> PluginLocation | None:
    """`find_plugin`, None for a WorldInfo.physics value that is not a name (a path)."""
    try:
        return find_plugin(name, world_path)
    except BadPluginName:
        return None
