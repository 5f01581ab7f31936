"""The robust contact model in the scene tree: WorldInfo's contact model and a
Solid's "Odeon contact" group write ``odeon:`` lines of WorldInfo.info, undoably,
with their engine effects; bad input gets a message and changes nothing."""

from __future__ import annotations

import math
from typing import Any

import pytest
from PySide6.QtCore import Qt

from app.scene_tree import SceneTreeDock
from app.scene_tree.edits import DirectSink, Edit, SetField
from app.scene_tree.robust_editors import ContactModelEditor, SolidContactEditor
from app.scene_tree.robust_settings import (
    RobustSettingsEditor,
    SettingInputError,
    info_lines,
    parse_solid_value,
)
from engine.world import parse_world
from engine.world.odeon_settings import (
    OdeonSettings,
    SolidContactSettings,
    read_odeon_settings,
)
from tests.app.test_scene_tree_editors import type_into
from tests.app.test_scene_tree_helpers import make_dock, select_node

FIRST_INFO = "Hinge joints, bounding objects and devices"


class RecordingSim:
    """What an engine effect is given: records the calls a `Simulation` would get."""

    def __init__(self) -> None:
        self.calls: list[tuple[Any, ...]] = []

    def set_contact_model(self, model: str) -> None:
        self.calls.append(("set_contact_model", model))

    def set_solid_contact(self, node: Any, own: SolidContactSettings) -> None:
        self.calls.append(("set_solid_contact", node.def_name, own))


class EffectSink(DirectSink):
    """A `DirectSink` that also runs each edit's engine effect on a `RecordingSim`."""

    def __init__(self, world: Any) -> None:
        super().__init__(world)
        self.sim = RecordingSim()

    def apply(self, edit: Edit) -> None:
        if isinstance(edit, SetField) and edit.engine_effect is not None:
            edit.engine_effect(self.sim)  # first, as `EngineSink` does
        super().apply(edit)


def dock_with_effects(qtbot):
    dock, world = make_dock(qtbot)
    sink = EffectSink(world)
    dock.set_world(world, sink)
    return dock, world, sink


def info_of(world) -> list[str]:
    return list(world.world_info.get("info"))


def test_parse_solid_value_accepts_numbers_empty_and_inf_where_allowed() -> None:
    assert parse_solid_value("padding", " 0.004 ") == 0.004
    assert parse_solid_value("kFriction", "") is None
    assert parse_solid_value("kStiffness", "inf") == math.inf
    with pytest.raises(SettingInputError, match="padding must not be negative"):
        parse_solid_value("padding", "-0.1")
    with pytest.raises(SettingInputError, match="'abc' is not a number"):
        parse_solid_value("kFriction", "abc")
    with pytest.raises(SettingInputError, match="kFriction must be a finite number"):
        parse_solid_value("kFriction", "inf")
    with pytest.raises(SettingInputError, match="finite"):
        parse_solid_value("kDamping", "nan")


def test_info_lines_say_the_settings_without_changing_the_world(qtbot) -> None:
    _dock, world = make_dock(qtbot)
    before = info_of(world)
    settings = OdeonSettings(solids={"LEFT_WING": SolidContactSettings(padding=0.004)})
    assert info_lines(world, settings) == [FIRST_INFO, "odeon: solid LEFT_WING padding 0.004"]
    assert info_of(world) == before


def test_contact_model_combo_writes_the_info_line_undoably_with_its_effect(qtbot) -> None:
    dock, world, sink = dock_with_effects(qtbot)
    select_node(dock, world.world_info)
    editor = dock.panel.robust_editor
    assert isinstance(editor, ContactModelEditor)
    assert editor.combo.currentText() == "default"
    editor.combo.activated.emit(editor.combo.findText("robust"))
    assert info_of(world) == [FIRST_INFO, "odeon: contacts robust"]
    assert read_odeon_settings(world).contacts.model == "robust"
    assert editor.combo.currentText() == "robust"
    assert sink.sim.calls == [("set_contact_model", "robust")]
    dock.undo_stack.undo()
    assert info_of(world) == [FIRST_INFO]
    assert sink.sim.calls[-1] == ("set_contact_model", "default")
    assert editor.combo.currentText() == "default"
    dock.undo_stack.redo()
    assert info_of(world) == [FIRST_INFO, "odeon: contacts robust"]
    assert dock.undo_stack.undoText() == "Contact model robust"


def test_solid_group_writes_own_values_and_undo_restores_them(qtbot) -> None:
    dock, world, sink = dock_with_effects(qtbot)
    wing = world.find_by_def("LEFT_WING")
    select_node(dock, wing)
    editor = dock.panel.robust_editor
    assert isinstance(editor, SolidContactEditor)
    assert [e.text() for e in editor.entries.values()] == [""] * 5
    assert editor.entries["padding"].placeholderText() == "default"  # default model
    type_into(qtbot, editor.entries["padding"], "0.004")
    assert info_of(world) == [FIRST_INFO, "odeon: solid LEFT_WING padding 0.004"]
    type_into(qtbot, editor.entries["kStiffness"], "inf")
    assert info_of(world) == [FIRST_INFO,
                              "odeon: solid LEFT_WING padding 0.004 kStiffness inf"]
    assert sink.sim.calls[-1] == ("set_solid_contact", "LEFT_WING",
                                  SolidContactSettings(padding=0.004, k_stiffness=math.inf))
    assert editor.entries["kStiffness"].text() == "inf"
    dock.undo_stack.undo()
    assert info_of(world) == [FIRST_INFO, "odeon: solid LEFT_WING padding 0.004"]
    assert sink.sim.calls[-1] == ("set_solid_contact", "LEFT_WING",
                                  SolidContactSettings(padding=0.004))
    assert editor.entries["kStiffness"].text() == ""
    dock.undo_stack.undo()
    assert info_of(world) == [FIRST_INFO]
    assert sink.sim.calls[-1] == ("set_solid_contact", "LEFT_WING", SolidContactSettings())
    assert editor.entries["padding"].text() == ""
    # clearing an entry goes back to the default: the line goes
    dock.undo_stack.redo()
    assert editor.entries["padding"].text() == "0.004"
    editor.entries["padding"].clear()
    qtbot.keyClick(editor.entries["padding"], Qt.Key.Key_Return)
    assert info_of(world) == [FIRST_INFO]


def test_shown_values_read_back_unchanged(qtbot) -> None:
    dock, world, sink = dock_with_effects(qtbot)
    select_node(dock, world.find_by_def("LEFT_WING"))
    editor = dock.panel.robust_editor
    type_into(qtbot, editor.entries["padding"], "0.000123456789")
    assert editor.entries["padding"].text() == "0.000123456789"
    depth = dock.undo_stack.count()
    qtbot.keyClick(editor.entries["padding"], Qt.Key.Key_Return)  # no change: no step
    assert dock.undo_stack.count() == depth
    assert editor.own_values().padding == 0.000123456789


def test_bad_input_gets_a_message_and_changes_nothing(qtbot) -> None:
    dock, world, sink = dock_with_effects(qtbot)
    wing = world.find_by_def("RIGHT_WING")
    select_node(dock, wing)
    editor = dock.panel.robust_editor
    depth = dock.undo_stack.count()
    type_into(qtbot, editor.entries["kFriction"], "-0.5")
    assert dock.panel.error.text() == "kFriction must not be negative, got '-0.5'"
    assert editor.entries["kFriction"].text() == ""  # the current value again
    type_into(qtbot, editor.entries["padding"], "thick")
    assert "'thick' is not a number" in dock.panel.error.text()
    assert info_of(world) == [FIRST_INFO]
    assert dock.undo_stack.count() == depth and sink.sim.calls == []


def test_model_and_solid_lines_live_together_and_other_info_stays(qtbot) -> None:
    dock, world, _sink = dock_with_effects(qtbot)
    editor = RobustSettingsEditor(dock.controller)
    assert editor.set_solid_values(world.find_by_def("LEFT_WING"),
                                   SolidContactSettings(k_friction=0.8))
    assert editor.set_contact_model("robust")
    assert info_of(world) == [FIRST_INFO, "odeon: contacts robust",
                              "odeon: solid LEFT_WING kFriction 0.8"]
    assert not editor.set_contact_model("soft")
    assert "unknown contact model 'soft'" in dock.panel.error.text()
    assert editor.set_contact_model("robust")  # no change: no undo step
    assert dock.undo_stack.count() == 2


def test_other_nodes_have_no_robust_editor(qtbot) -> None:
    dock, world = make_dock(qtbot)
    usual = dock.panel.minimumHeight()
    select_node(dock, world.find_by_def("LEFT_WING"))
    editor = dock.panel.robust_editor
    assert dock.panel.minimumHeight() > usual  # room for the whole group
    qtbot.waitUntil(lambda: all(e.isVisible() for e in editor.entries.values()))
    assert all(e.height() >= e.minimumSizeHint().height() for e in editor.entries.values())
    select_node(dock, world.find_by_def("ROBOT"))  # a Robot is a Solid
    assert isinstance(dock.panel.robust_editor, SolidContactEditor)
    select_node(dock, world.find_by_def("WING"))
    assert dock.panel.robust_editor is None
    assert dock.panel.minimumHeight() == usual


def test_a_world_without_worldinfo_refuses_with_a_message(qtbot) -> None:
    world = parse_world("#VRML_SIM R2025a utf8\nDEF BALL Solid { name \"ball\" }\n")
    dock = SceneTreeDock()
    qtbot.addWidget(dock)
    dock.set_world(world)
    select_node(dock, world.find_by_def("BALL"))
    editor = dock.panel.robust_editor
    assert isinstance(editor, SolidContactEditor)
    type_into(qtbot, editor.entries["padding"], "0.01")
    assert "no WorldInfo node" in dock.panel.error.text()
    assert editor.entries["padding"].text() == "" and dock.undo_stack.count() == 0
