"""The robust contact model from the app against the live engine (needs the
`Simulation` API of the robust model: ``contact_model``, ``set_contact_model``,
``solid_contact``, ``set_solid_contact`` and frames with ``contact_model``,
``contact_status`` and ``paddings``)."""

from __future__ import annotations

from app.scene_tree.robust_editors import ContactModelEditor, SolidContactEditor
from app.viewport import overlay_state as ov
from tests.app import test_main_window as main_window_tests
from tests.app.test_main_window import steps
from tests.app.test_robust_overlays import shells
from tests.app.test_scene_tree_editors import type_into
from tests.app.test_scene_tree_helpers import select_node

# the main window tests' fixtures: a shown MainWindow with injected dialog answers
answers = main_window_tests.answers
make_window = main_window_tests.make_window

WELCOME = "Welcome to Odeon: a flying robot run by a Python physics plugin (flying_robot)"


def choose_model(window, model: str) -> ContactModelEditor:
    select_node(window.tree, window.runner.world.world_info)
    editor = window.tree.panel.robust_editor
    assert isinstance(editor, ContactModelEditor)
    editor.combo.activated.emit(editor.combo.findText(model))
    return editor


def test_contact_model_choice_reaches_the_simulation_and_undoes(qtbot, make_window) -> None:
    window = make_window()
    info = window.runner.world.world_info
    assert window.runner.sim.contact_model == "default"
    choose_model(window, "robust")
    assert window.runner.sim.contact_model == "robust"
    assert list(info.get("info")) == [WELCOME, "odeon: contacts robust"]
    steps(qtbot, window, 3)
    frame = window.runner.latest_frame()
    assert frame.contact_model == "robust"
    assert window.robust_ui.status_label.text() == \
        f"Contacts: robust \u2014 {frame.contact_status}"
    window.tree.undo_action.trigger()
    assert window.runner.sim.contact_model == "default"
    assert list(info.get("info")) == [WELCOME]
    steps(qtbot, window, 1)
    assert window.robust_ui.status_label.text() == "Contacts: default"


def test_solid_values_reach_the_simulation_show_effective_values_and_undo(
        qtbot, make_window, tmp_path) -> None:
    window = make_window()
    choose_model(window, "robust")
    box = window.runner.world.find_by_def("GREEN_BOX")
    default = window.runner.sim.solid_contact(box)
    select_node(window.tree, box)
    editor = window.tree.panel.robust_editor
    assert isinstance(editor, SolidContactEditor)
    assert editor.entries["padding"].placeholderText().endswith("(default)")
    type_into(qtbot, editor.entries["padding"], "0.004")
    type_into(qtbot, editor.entries["kFriction"], "0.8")
    got = window.runner.sim.solid_contact(box)
    assert got.padding == 0.004 and got.surface.k_friction == 0.8
    assert "odeon: solid GREEN_BOX padding 0.004 kFriction 0.8" in \
        window.runner.world.world_info.get("info")
    assert window.save_as(tmp_path / "robust.wbt")
    saved = (tmp_path / "robust.wbt").read_text()
    assert '"odeon: contacts robust"' in saved
    assert '"odeon: solid GREEN_BOX padding 0.004 kFriction 0.8"' in saved
    window.tree.undo_action.trigger()
    window.tree.undo_action.trigger()
    back = window.runner.sim.solid_contact(box)
    assert back.padding == default.padding and back.surface == default.surface


def test_boundary_layers_of_the_robust_model_in_the_window(qtbot, make_window) -> None:
    window = make_window()
    choose_model(window, "robust")
    steps(qtbot, window, 2)
    frame = window.runner.latest_frame()
    assert frame.paddings and all(p > 0 for p in frame.paddings.values())
    window.actions_["boundary_layers"].trigger()
    assert window.viewport.renderer.overlays.is_on(ov.BOUNDARY_LAYERS)
    window.viewport.grabFramebuffer()
    drawer = window.viewport.renderer.boundary_layers
    assert shells(drawer) >= len(frame.paddings)
    assert window.viewport.paint_errors == [] and window.viewport.gl_errors == []
