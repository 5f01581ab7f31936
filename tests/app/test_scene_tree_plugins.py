"""The WorldInfo.physics Select dialog: plugins of the project, bundled and
ODEON_PLUGIN_PATH, "<none>" first; Edit emits the name; OK sets the field."""

from __future__ import annotations

import shutil
from pathlib import Path

from PySide6.QtCore import Qt, QTimer

from app.scene_tree import PluginSelectDialog
from app.scene_tree.items import FieldItem
from tests.app.test_scene_tree_helpers import WORLDS, make_dock, select_field


def make_project(tmp_path: Path, monkeypatch) -> Path:
    project = tmp_path / "project"
    (project / "worlds").mkdir(parents=True)
    world = project / "worlds" / "robot.wbt"
    shutil.copy(WORLDS / "hinge_robot.wbt", world)
    for name in ("zeta", "alpha"):
        folder = project / "plugins" / "physics" / name
        folder.mkdir(parents=True)
        (folder / f"{name}.py").write_text("def webots_physics_step():\n    pass\n")
    (project / "plugins" / "physics" / "no_source").mkdir()
    extra = tmp_path / "extra" / "gamma"
    extra.mkdir(parents=True)
    (extra / "gamma.py").write_text("")
    monkeypatch.setenv("ODEON_PLUGIN_PATH", str(tmp_path / "extra"))
    return world


def test_dialog_lists_plugins_none_first(qtbot, tmp_path, monkeypatch):
    world_path = make_project(tmp_path, monkeypatch)
    dialog = PluginSelectDialog(str(world_path), current="alpha")
    qtbot.addWidget(dialog)
    names = dialog.names()
    assert names[0] == "<none>" and names.count("<none>") == 1
    assert names[1:3] == ["alpha", "zeta"]  # the project's plugins, sorted
    assert names[-1] == "gamma"  # ODEON_PLUGIN_PATH comes last
    assert "no_source" not in names
    assert dialog.selected == "alpha"
    assert dialog.windowTitle() == "Physics plugins choice"
    emitted = []
    dialog.edit_requested.connect(emitted.append)
    qtbot.mouseClick(dialog.edit_button, Qt.MouseButton.LeftButton)
    assert emitted == ["alpha"]
    dialog.select("<none>")
    assert not dialog.edit_button.isEnabled()


def test_select_button_sets_physics(qtbot, tmp_path, monkeypatch):
    world_path = make_project(tmp_path, monkeypatch)
    dock, world = make_dock(qtbot)
    dock.set_world(world, world_path=str(world_path))
    info = world.world_info
    editor = select_field(dock, info, "physics")
    edits = []
    dock.edit_plugin_requested.connect(edits.append)
    opened = []

    def answer():
        dialog = opened[0]
        dialog.select("gamma")
        qtbot.mouseClick(dialog.edit_button, Qt.MouseButton.LeftButton)
        dialog.accept()

    original = dock.panel.plugin_dialog

    def plugin_dialog(field: FieldItem):
        dialog = original(field)
        opened.append(dialog)
        QTimer.singleShot(0, answer)
        return dialog

    dock.panel.plugin_dialog = plugin_dialog
    qtbot.mouseClick(editor.select_button, Qt.MouseButton.LeftButton)
    assert opened[0].names()[:3] == ["<none>", "alpha", "zeta"]
    assert edits == ["gamma"]
    assert info.get("physics") == "gamma"
    dock.undo_stack.undo()
    assert info.get("physics") == "flying_mybot"


def test_select_none_and_cancel(qtbot, tmp_path, monkeypatch):
    world_path = make_project(tmp_path, monkeypatch)
    dock, world = make_dock(qtbot)
    dock.set_world(world, world_path=str(world_path))
    info = world.world_info
    select_field(dock, info, "physics")
    field = dock.current_item()
    dialog = dock.panel.plugin_dialog(field)
    QTimer.singleShot(0, dialog.reject)
    dock.panel.select_plugin(field, dialog)
    assert info.get("physics") == "flying_mybot"
    dialog = dock.panel.plugin_dialog(field)
    QTimer.singleShot(0, lambda: (dialog.select("<none>"), dialog.accept()))
    dock.panel.select_plugin(field, dialog)
    assert info.get("physics") == "<none>"
