"""Tests of the New Physics Plugin wizard and `create_plugin`."""

from __future__ import annotations

import ast
import os
from pathlib import Path

import pytest
from PySide6.QtWidgets import QDialog

from app.new_plugin_wizard import (
    DEFAULT_NAME,
    TEMPLATE,
    NewPluginWizard,
    PluginNameError,
    create_plugin,
    name_problem,
    project_of_world,
)
from engine.plugins.discovery import find_plugin, list_plugins
from engine.plugins.loader import MANDATORY, import_plugin


@pytest.fixture
def project(tmp_path: Path) -> Path:
    root = tmp_path / "my project"
    (root / "worlds").mkdir(parents=True)
    (root / "worlds" / "x.wbt").write_text("#VRML_SIM R2023b utf8\n", encoding="utf-8")
    return root


def test_project_of_world(project):
    assert project_of_world(project / "worlds" / "x.wbt") == project


@pytest.mark.parametrize("name", ["my_physics", "A-b_9", "x", "0"])
def test_good_names(project, name):
    assert name_problem(project, name) is None


@pytest.mark.parametrize(("name", "why"), [
    ("", "enter a name"),
    ("my physics", "only contain"),
    ("a/b", "only contain"),
    ("été", "only contain"),
    ("a.b", "only contain"),
    ("..", "only contain"),
])
def test_bad_names(project, name, why):
    assert why in name_problem(project, name)
    with pytest.raises(PluginNameError, match=why):
        create_plugin(project, name)
    assert not (project / "plugins").exists()


def test_existing_folder_refused(project):
    (project / "plugins" / "physics" / "taken").mkdir(parents=True)
    assert "already exists" in name_problem(project, "taken")
    with pytest.raises(PluginNameError, match="already exists"):
        create_plugin(project, "taken")
    assert list((project / "plugins" / "physics" / "taken").iterdir()) == []


def test_create_plugin_from_template(project):
    path = create_plugin(project, "my_physics")
    assert path == project / "plugins" / "physics" / "my_physics" / "my_physics.py"
    text = path.read_text(encoding="utf-8")
    template = TEMPLATE.read_text(encoding="utf-8")
    assert "template" not in text
    assert 'Physics plugin "my_physics"' in text
    assert "plugins/physics/my_physics/my_physics.py" in text
    assert text == template.replace("template", "my_physics")
    assert sorted(p.name for p in path.parent.iterdir()) == ["my_physics.py"]  # no temp file
    tree = ast.parse(text)
    functions = {node.name for node in tree.body if isinstance(node, ast.FunctionDef)}
    assert set(MANDATORY) <= functions


def test_created_plugin_is_found_and_loads(project):
    path = create_plugin(project, "fresh-one")
    world = project / "worlds" / "x.wbt"
    location = find_plugin("fresh-one", world)
    assert location is not None and location.source == path and location.exists
    assert "fresh-one" in list_plugins(world)
    loaded = import_plugin("fresh-one", path)
    try:
        for callback in MANDATORY:
            assert loaded.has(callback)
        assert loaded.callbacks["webots_physics_collide"](None, None) == 0
    finally:
        loaded.forget()


@pytest.fixture
def wizard(qtbot, project):
    dialog = NewPluginWizard(project)
    qtbot.addWidget(dialog)
    dialog.show()
    qtbot.waitExposed(dialog)
    return dialog


def test_wizard_default_name_is_valid(wizard, project):
    assert wizard.name_edit.text() == DEFAULT_NAME
    assert wizard.ok_button.isEnabled()
    assert not wizard.problem_label.isVisible()
    folder = project / "plugins" / "physics" / DEFAULT_NAME
    assert str(folder) in wizard.summary_label.text()
    assert "my_physics.py" in wizard.open_box.text()
    assert wizard.open_in_editor


def test_wizard_validation_states(wizard, qtbot, project):
    (project / "plugins" / "physics" / "taken").mkdir(parents=True)
    cases = [("", False, "enter a name"), ("bad name", False, "only contain"),
             ("taken", False, "already exists"), ("fine-name_2", True, "")]
    for text, ok, why in cases:
        wizard.name_edit.clear()
        qtbot.keyClicks(wizard.name_edit, text)
        assert wizard.ok_button.isEnabled() is ok, text
        assert wizard.problem_label.isVisible() is (not ok)
        assert why in wizard.problem_label.text()


def test_wizard_accept_creates_plugin(wizard, project):
    wizard.name_edit.setText("rocket")
    wizard.open_box.setChecked(False)
    wizard.ok_button.click()
    assert wizard.result() == QDialog.DialogCode.Accepted
    assert wizard.plugin_name == "rocket"
    assert wizard.plugin_path == project / "plugins" / "physics" / "rocket" / "rocket.py"
    assert wizard.plugin_path.is_file()
    assert not wizard.open_in_editor


def test_wizard_accept_refuses_when_folder_appeared(wizard, project):
    wizard.name_edit.setText("racer")
    assert wizard.ok_button.isEnabled()
    (project / "plugins" / "physics" / "racer").mkdir(parents=True)  # made meanwhile
    wizard.accept()
    assert wizard.isVisible()
    assert wizard.plugin_path is None
    assert "already exists" in wizard.problem_label.text()
    assert not wizard.ok_button.isEnabled()


def test_wizard_reports_unwritable_project(wizard, project):
    if os.geteuid() == 0:  # root ignores permissions: make the parent a file instead
        (project / "plugins").write_text("not a folder", encoding="utf-8")
    else:
        project.chmod(0o555)
    try:
        wizard.name_edit.setText("nowhere")
        wizard.accept()
        assert wizard.isVisible()
        assert wizard.plugin_path is None
        assert "Could not create the plugin" in wizard.problem_label.text()
    finally:
        project.chmod(0o755)


def test_wizard_without_project(qtbot):
    dialog = NewPluginWizard(None)
    qtbot.addWidget(dialog)
    assert not dialog.ok_button.isEnabled()
    assert "save the world" in dialog.problem_label.text()


# ------------------------------------------ never inside the installation
def _tree(root: Path) -> set[str]:
    return {str(p.relative_to(root)) for p in root.rglob("*") if "__pycache__" not in p.parts}


def test_create_plugin_refuses_a_folder_inside_the_installation(tmp_path):
    from app.trust import INSTALL_ROOT

    bundled_project = INSTALL_ROOT / "resources"
    before = _tree(bundled_project)
    assert "installation" in name_problem(bundled_project, "mine")
    with pytest.raises(PluginNameError, match="installation"):
        create_plugin(bundled_project, "mine")
    assert _tree(bundled_project) == before


def test_make_project_makes_the_webots_layout_and_refuses_the_installation(tmp_path):
    from app.new_plugin_wizard import make_project, needs_own_project
    from app.trust import INSTALL_ROOT

    target = make_project(tmp_path / "mine", "default.wbt")
    assert target == tmp_path / "mine" / "worlds" / "default.wbt"
    assert (tmp_path / "mine" / "plugins" / "physics").is_dir()
    with pytest.raises(PluginNameError, match="installation"):
        make_project(INSTALL_ROOT / "resources", "default.wbt")
    assert needs_own_project(None) and needs_own_project(INSTALL_ROOT / "resources" / "w.wbt")
    assert not needs_own_project(target)


def test_new_plugin_on_the_bundled_world_saves_it_into_the_users_project_first(
        qtbot, gl_available, tmp_path):
    import gc

    from app.main_window import DEFAULT_WORLD, MainWindow

    resources = DEFAULT_WORLD.parents[1]
    plugins = Path(__file__).resolve().parents[2] / "plugins"
    before = (_tree(resources), _tree(plugins))
    chosen = tmp_path / "my project"
    window = MainWindow(None, settings_path=str(tmp_path / "settings.ini"),
                        ask_unsaved=lambda _t: "discard",
                        show_error=lambda title, text: pytest.fail(f"{title}: {text}"),
                        choose_project=lambda _parent: chosen,
                        run_wizard=lambda project, _parent: (
                            "lift", create_plugin(project, "lift"), False))
    qtbot.addWidget(window)
    try:
        assert window.new_plugin()
        saved = chosen / "worlds" / "default.wbt"
        assert window.world_path == str(saved) and saved.is_file()
        assert (chosen / "plugins" / "physics" / "lift" / "lift.py").is_file()
        qtbot.waitUntil(lambda: window.runner.host.name == "lift", timeout=10000)
        assert window.is_modified()  # WorldInfo.physics set: an unsaved, undoable edit
        assert (_tree(resources), _tree(plugins)) == before  # nothing new in the installation
        window.tree.undo_stack.setClean()
        assert window.load_world(DEFAULT_WORLD)
        window.choose_project = lambda _parent: None  # cancelled: nothing happens
        window.run_wizard = lambda *_a: pytest.fail("wizard shown")
        assert not window.new_plugin()
        assert (_tree(resources), _tree(plugins)) == before
    finally:
        window.tree.undo_stack.setClean()
        window.close()
        qtbot.wait(20)
        gc.collect()
