"""Node operations: add, delete, copy, paste (legal and illegal), with undo/redo."""

from __future__ import annotations

from PySide6.QtCore import Qt

from app.scene_tree import NodePickerDialog
from engine.world import ROOT_NODE_TYPES, UseNode, allowed_node_types, tree_equal
from tests.app.test_scene_tree_helpers import make_dock, select_field, select_node


def fake_picker(answer, offered):
    def pick(parent, types, uses, allow_null):
        offered.append((tuple(types), [u.def_name for u in uses], allow_null))
        return answer
    return pick


def test_add_node_at_top_level(qtbot):
    dock, world = make_dock(qtbot)
    offered = []
    dock.panel.pick_node = fake_picker(("type", "Solid"), offered)
    before = world.nodes
    assert dock.add_node()
    assert offered[0][0] == tuple(ROOT_NODE_TYPES)
    assert len(world.nodes) == len(before) + 1 and world.nodes[-1].type_name == "Solid"
    model = dock.model
    assert model.data(model.index(model.rowCount() - 1, 0)) == "Solid"
    dock.undo_stack.undo()
    assert world.nodes == before
    assert model.rowCount() == len(before)
    dock.undo_stack.redo()
    assert world.nodes[-1].type_name == "Solid"


def test_add_node_into_field_and_after_node(qtbot):
    dock, world = make_dock(qtbot)
    robot = world.find_by_def("ROBOT")
    offered = []
    dock.panel.pick_node = fake_picker(("type", "Pose"), offered)
    select_field(dock, robot, "children")
    n = len(robot.get("children"))
    assert dock.add_node()
    assert offered[0][0] == allowed_node_types("Robot", "children")
    assert "BODY_SHAPE" in offered[0][1]  # USE candidates: DEF'd shapes
    assert "LEFT_WING" not in offered[0][1]  # Solids cannot be USEd
    assert robot.get("children")[-1].type_name == "Pose"
    # a node selected: the new node goes right after it
    body = world.find_by_def("BODY_SHAPE")
    select_node(dock, body)
    dock.panel.pick_node = fake_picker(("use", body), offered)
    assert dock.add_node()
    added = robot.get("children")[1]
    assert isinstance(added, UseNode) and added.target is body
    assert len(robot.get("children")) == n + 2
    dock.undo_stack.undo()
    dock.undo_stack.undo()
    assert len(robot.get("children")) == n


def test_add_node_picker_cancelled_or_illegal_position(qtbot):
    dock, world = make_dock(qtbot)
    robot = world.find_by_def("ROBOT")
    dock.panel.pick_node = fake_picker(None, [])
    count = dock.undo_stack.count()
    assert not dock.add_node()
    select_field(dock, robot, "translation")
    dock.panel.pick_node = fake_picker(("type", "Solid"), [])
    assert not dock.add_node()
    assert "does not hold nodes" in dock.panel.error.text()
    # SFNode already holding a node
    select_field(dock, robot, "physics")
    dock.panel.pick_node = fake_picker(("type", "Physics"), [])
    assert not dock.add_node()
    assert "already holds a node" in dock.panel.error.text()
    assert dock.undo_stack.count() == count


def test_delete_node_and_undo(qtbot):
    dock, world = make_dock(qtbot)
    robot = world.find_by_def("ROBOT")
    hinge = world.find_by_def("LEFT_HINGE")
    children = robot.get("children")
    select_node(dock, hinge)
    dock.activateWindow()
    dock.view.setFocus()
    qtbot.waitUntil(dock.view.hasFocus)
    qtbot.keyClick(dock.view, Qt.Key.Key_Delete)  # the Delete shortcut
    assert hinge not in robot.get("children")
    assert not dock.model.node_index(hinge).isValid()
    assert dock.panel.item is None or dock.panel._attached(dock.panel.item)
    dock.undo_stack.undo()
    assert robot.get("children") == children
    assert dock.model.node_index(hinge).isValid()
    dock.undo_stack.redo()
    assert hinge not in robot.get("children")
    # root nodes too; WorldInfo cannot be deleted
    floor = world.find_by_def("FLOOR")
    select_node(dock, floor)
    assert dock.delete()
    assert floor not in world.nodes
    dock.undo_stack.undo()
    assert world.nodes[4] is floor
    select_node(dock, world.world_info)
    assert not dock.delete()
    assert "cannot be deleted" in dock.panel.error.text()
    assert world.world_info is world.nodes[0]


def test_copy_paste(qtbot):
    dock, world = make_dock(qtbot)
    floor = world.find_by_def("FLOOR")
    light = world.nodes[3]
    select_node(dock, floor)
    assert dock.copy()
    floor.set("name", "changed after copy")  # the clipboard holds a deep copy
    select_node(dock, light)
    assert dock.paste()
    pasted = world.nodes[4]
    assert pasted is not floor and pasted.def_name == "FLOOR"
    assert pasted.get("name") == "floor"
    assert dock.paste()  # a second paste is another copy
    assert world.nodes[4] is not pasted and world.nodes[5] is pasted
    dock.undo_stack.undo()
    dock.undo_stack.undo()
    assert world.nodes[4] is floor
    dock.undo_stack.redo()
    assert world.nodes[4] is pasted
    # paste into a field: a Shape into the Robot's children
    shape = world.find_by_def("BODY_SHAPE")
    robot = world.find_by_def("ROBOT")
    select_node(dock, shape)
    dock.copy()
    select_field(dock, robot, "children")
    assert dock.paste()
    last = robot.get("children")[-1]
    assert last is not shape and tree_equal(last, shape)


def test_illegal_paste_refused(qtbot):
    dock, world = make_dock(qtbot)
    floor = world.find_by_def("FLOOR")
    robot = world.find_by_def("ROBOT")
    errors = []
    dock.error_occurred.connect(errors.append)
    count = dock.undo_stack.count()
    assert not dock.paste()
    assert "nothing to paste" in errors[-1]
    select_node(dock, floor)
    dock.copy()
    select_field(dock, floor, "physics")  # SFNode of Physics only
    assert not dock.paste()
    assert "Solid is not allowed" in errors[-1]
    assert floor.get("physics") is None
    # a Shape at the top level is legal, a Physics node is not
    physics = robot.get("physics")
    select_node(dock, physics)
    dock.copy()
    select_node(dock, floor)
    assert not dock.paste()
    assert "not allowed at the top level" in errors[-1]
    assert dock.undo_stack.count() == count
    assert "not allowed" in dock.panel.error.text()


def test_use_of_solid_refused(qtbot):
    dock, world = make_dock(qtbot)
    floor = world.find_by_def("FLOOR")
    robot = world.find_by_def("ROBOT")
    select_field(dock, robot, "children")
    n = len(robot.get("children"))
    assert not dock.controller.add_use(dock.current_item(), floor)
    assert "USE of Solid nodes is not allowed" in dock.panel.error.text()
    assert len(robot.get("children")) == n
    # copying a USE row and pasting it makes another USE of the same DEF node
    wing = world.find_by_def("RIGHT_WING")
    use_row = wing.get("children")[0]
    select_node(dock, use_row)
    dock.copy()
    select_field(dock, robot, "children")
    assert dock.paste()
    pasted = robot.get("children")[-1]
    assert isinstance(pasted, UseNode) and pasted.target is world.find_by_def("WING_SHAPE")


def test_node_picker_dialog(qtbot):
    dock, world = make_dock(qtbot)
    shape = world.find_by_def("BODY_SHAPE")
    dialog = NodePickerDialog(("Group", "Shape"), [shape], allow_null=True)
    qtbot.addWidget(dialog)
    assert dialog.entries() == ["NULL", "Group", "Shape", "USE BODY_SHAPE (Shape)"]
    assert dialog.choice == ("null", None)
    dialog.select("Shape")
    assert dialog.choice == ("type", "Shape")
    dialog.select("USE BODY_SHAPE (Shape)")
    assert dialog.choice == ("use", shape)
