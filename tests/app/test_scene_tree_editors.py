"""Field editors: user input through the widgets changes the World; undo/redo each."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QColor

from app.scene_tree.editors import ColorEditor
from engine.world import Node
from tests.app.test_scene_tree_helpers import make_dock, select_field, select_node


def type_into(qtbot, widget, text: str) -> None:
    """Replace the text of a line edit / spin box as a user would and press Enter."""
    line = widget.lineEdit() if hasattr(widget, "lineEdit") else widget
    line.selectAll()
    qtbot.keyClicks(widget, text)
    qtbot.keyClick(widget, Qt.Key.Key_Return)


def check_undo_redo(dock, read, before, after):
    assert read() == after
    dock.undo_stack.undo()
    assert read() == before
    dock.undo_stack.redo()
    assert read() == after


def test_float_field(qtbot):
    dock, world = make_dock(qtbot)
    info = world.world_info
    editor = select_field(dock, info, "basicTimeStep")
    assert editor.spins[0].value() == 64
    type_into(qtbot, editor.spins[0], "32")
    check_undo_redo(dock, lambda: info.get("basicTimeStep"), 64.0, 32.0)
    index = dock.model.field_index(info, "basicTimeStep").siblingAtColumn(1)
    assert dock.model.data(index) == "32"


def test_vec3_field_keeps_other_components(qtbot):
    dock, world = make_dock(qtbot)
    robot = world.find_by_def("ROBOT")
    robot.set("translation", (1e-9, 0.123456789, 0.05))
    editor = select_field(dock, robot, "translation")
    type_into(qtbot, editor.spins[2], "0.25")
    check_undo_redo(dock, lambda: robot.get("translation"),
                    (1e-9, 0.123456789, 0.05), (1e-9, 0.123456789, 0.25))


def test_rotation_field(qtbot):
    dock, world = make_dock(qtbot)
    robot = world.find_by_def("ROBOT")
    editor = select_field(dock, robot, "rotation")
    assert [s.value() for s in editor.spins] == [0, 0, 1, 1]
    type_into(qtbot, editor.spins[3], "1.5")
    type_into(qtbot, editor.spins[0], "1")
    assert robot.get("rotation") == (1.0, 0.0, 1.0, 1.5)
    dock.undo_stack.undo()
    assert robot.get("rotation") == (0.0, 0.0, 1.0, 1.5)
    dock.undo_stack.undo()
    assert robot.get("rotation") == (0.0, 0.0, 1.0, 1.0)
    dock.undo_stack.redo()
    assert robot.get("rotation") == (0.0, 0.0, 1.0, 1.5)


def test_color_field_dialog_and_boxes(qtbot, monkeypatch):
    dock, world = make_dock(qtbot)
    material = next(n for n in world.iter_nodes() if n.type_name == "Material")
    editor = select_field(dock, material, "diffuseColor")
    assert isinstance(editor, ColorEditor)
    monkeypatch.setattr(ColorEditor, "choose_color",
                        staticmethod(lambda start, parent, title: QColor.fromRgbF(1.0, 0.0, 0.0)))
    qtbot.mouseClick(editor.swatch, Qt.MouseButton.LeftButton)
    check_undo_redo(dock, lambda: material.get("diffuseColor"), (0.2, 0.3, 0.9), (1.0, 0.0, 0.0))
    assert editor.spins[0].value() == 1.0
    type_into(qtbot, editor.spins[1], "0.5")
    assert material.get("diffuseColor") == (1.0, 0.5, 0.0)
    # a cancelled dialog changes nothing
    monkeypatch.setattr(ColorEditor, "choose_color",
                        staticmethod(lambda start, parent, title: QColor()))
    count = dock.undo_stack.count()
    qtbot.mouseClick(editor.swatch, Qt.MouseButton.LeftButton)
    assert dock.undo_stack.count() == count


def test_bool_field(qtbot):
    dock, world = make_dock(qtbot)
    robot = world.find_by_def("ROBOT")
    editor = select_field(dock, robot, "selfCollision")
    assert editor.check.isChecked()
    qtbot.keyClick(editor.check, Qt.Key.Key_Space)
    check_undo_redo(dock, lambda: robot.get("selfCollision"), True, False)
    assert not editor.check.isChecked()


def test_string_field(qtbot):
    dock, world = make_dock(qtbot)
    robot = world.find_by_def("ROBOT")
    editor = select_field(dock, robot, "name")
    assert editor.line.text() == "MyBot"
    type_into(qtbot, editor.line, "Other bot")
    check_undo_redo(dock, lambda: robot.get("name"), "MyBot", "Other bot")
    assert dock.model.data(dock.model.node_index(robot).siblingAtColumn(1)) == '"Other bot"'


def test_mf_field_add_edit_move_remove(qtbot):
    dock, world = make_dock(qtbot)
    info = world.world_info
    first = "Hinge joints, bounding objects and devices"
    editor = select_field(dock, info, "info")
    assert editor.list.count() == 1
    editor.list.setCurrentRow(0)
    qtbot.mouseClick(editor.buttons["Add"], Qt.MouseButton.LeftButton)
    assert info.get("info") == (first, first)
    assert editor.list.currentRow() == 1
    type_into(qtbot, editor.item_editor.line, "second")
    assert info.get("info") == (first, "second")
    qtbot.mouseClick(editor.buttons["Up"], Qt.MouseButton.LeftButton)
    assert info.get("info") == ("second", first)
    editor.list.setCurrentRow(1)
    qtbot.mouseClick(editor.buttons["Remove"], Qt.MouseButton.LeftButton)
    assert info.get("info") == ("second",)
    # the tree shows one row per item
    assert dock.model.rowCount(dock.model.field_index(info, "info")) == 1
    for expected in [("second", first), (first, "second"), (first, first), (first,)]:
        dock.undo_stack.undo()
        assert info.get("info") == expected
    dock.undo_stack.redo()
    assert info.get("info") == (first, first)


def test_mf_item_row_selects_item(qtbot):
    dock, world = make_dock(qtbot)
    bg = next(n for n in world.iter_nodes() if n.type_name == "Background")
    sky = dock.model.field_index(bg, "skyColor")
    dock.view.setCurrentIndex(dock.model.index(0, 0, sky))
    editor = dock.panel.editor
    assert editor.list.currentRow() == 0
    type_into(qtbot, editor.item_editor.spins[0], "0.1")
    assert bg.get("skyColor") == ((0.1, 0.7, 1.0),)
    dock.undo_stack.undo()
    assert bg.get("skyColor") == ((0.4, 0.7, 1.0),)


def test_sfnode_field_pick_and_null(qtbot):
    dock, world = make_dock(qtbot)
    floor = world.find_by_def("FLOOR")
    editor = select_field(dock, floor, "physics")
    offered = []

    def fake_pick(parent, types, uses, allow_null):
        offered.append((tuple(types), allow_null))
        return ("type", "Physics")

    dock.panel.pick_node = fake_pick
    qtbot.mouseClick(editor.select_button, Qt.MouseButton.LeftButton)
    assert offered == [(("Physics",), True)]
    physics = floor.get("physics")
    assert isinstance(physics, Node) and physics.type_name == "Physics"
    assert dock.model.rowCount(dock.model.field_index(floor, "physics")) == 1
    dock.undo_stack.undo()
    assert floor.get("physics") is None
    dock.undo_stack.redo()
    assert floor.get("physics") is physics
    editor = select_field(dock, floor, "physics")
    qtbot.mouseClick(editor.null_button, Qt.MouseButton.LeftButton)
    assert floor.get("physics") is None
    dock.undo_stack.undo()
    assert floor.get("physics") is physics


def test_invalid_value_rejected_with_message(qtbot):
    dock, world = make_dock(qtbot)
    info = world.world_info
    editor = select_field(dock, info, "stepper")
    count = dock.undo_stack.count()
    errors = []
    dock.error_occurred.connect(errors.append)
    type_into(qtbot, editor.line, "bogus")
    assert info.get("stepper") == "step"
    assert dock.undo_stack.count() == count
    assert errors and "expected one of" in errors[0]
    assert "expected one of" in dock.panel.error.text()
    assert editor.line.text() == "step"
    type_into(qtbot, editor.line, "quickstep")
    assert info.get("stepper") == "quickstep"
    assert dock.panel.error.text() == ""


def test_def_rename_and_invalid_def(qtbot):
    dock, world = make_dock(qtbot)
    robot = world.find_by_def("ROBOT")
    select_node(dock, robot)
    line = dock.panel.editor
    assert line.text() == "ROBOT"
    type_into(qtbot, line, "1bad name")
    assert robot.def_name == "ROBOT"
    assert "invalid DEF name" in dock.panel.error.text()
    type_into(qtbot, line, "BOT")
    check_undo_redo(dock, lambda: robot.def_name, "ROBOT", "BOT")
    assert dock.model.data(dock.model.node_index(robot)) == "DEF BOT Robot"


def test_spin_steps_merge_into_one_undo(qtbot):
    dock, world = make_dock(qtbot)
    info = world.world_info
    editor = select_field(dock, info, "ERP")
    start = info.get("ERP")
    count = dock.undo_stack.count()
    for _ in range(3):
        qtbot.keyClick(editor.spins[0], Qt.Key.Key_Up)
    assert abs(info.get("ERP") - (start + 0.03)) < 1e-9
    assert dock.undo_stack.count() == count + 1
    dock.undo_stack.undo()
    assert info.get("ERP") == start
    # a different field does not merge
    editor = select_field(dock, info, "CFM")
    qtbot.keyClick(editor.spins[0], Qt.Key.Key_Up)
    assert dock.undo_stack.count() == count + 1


def test_int_field(qtbot):
    dock, world = make_dock(qtbot)
    sensor = next(n for n in world.iter_nodes() if n.type_name == "Emitter")
    editor = select_field(dock, sensor, "channel")
    type_into(qtbot, editor.spin, "7")
    check_undo_redo(dock, lambda: sensor.get("channel"), 0, 7)


def test_live_pose_updates_do_not_clobber_typing(qtbot):
    import threading

    dock, world = make_dock(qtbot)
    robot = world.find_by_def("ROBOT")
    editor = select_field(dock, robot, "translation")
    spin = editor.spins[0]
    dock.activateWindow()
    spin.setFocus()
    qtbot.waitUntil(spin.hasFocus)
    spin.lineEdit().selectAll()
    qtbot.keyClicks(spin, "0.7")
    mover = threading.Thread(target=robot.set, args=("translation", (0.1, 0.2, 0.3)))
    mover.start()  # the engine thread writing the moving Solid's pose
    mover.join()
    dock.model.flush()
    assert editor.spins[1].value() == 0.2  # other components follow the engine
    assert spin.text().startswith("0.7")
    qtbot.keyClick(spin, Qt.Key.Key_Return)
    assert robot.get("translation")[0] == 0.7
