"""SceneTreeModel: rows of a world, notifications (also from other threads), frames."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest
from PySide6.QtCore import QItemSelectionModel, QModelIndex, Qt
from PySide6.QtWidgets import QTreeView

from app.scene_tree import SceneTreeModel
from engine.world import Node, read_world

WORLDS = Path(__file__).resolve().parents[1] / "resources" / "worlds"


@pytest.fixture
def world():
    return read_world(str(WORLDS / "hinge_robot.wbt"))


@pytest.fixture
def model(world, qtbot):
    m = SceneTreeModel()
    m.set_world(world)
    return m


def text(model, index, column=0):
    return model.data(index.siblingAtColumn(column), Qt.ItemDataRole.DisplayRole)


def child_texts(model, parent=None):
    parent = QModelIndex() if parent is None else parent
    return [text(model, model.index(r, 0, parent)) for r in range(model.rowCount(parent))]


def test_top_level_rows(model):
    assert child_texts(model) == ["WorldInfo", "Viewpoint", "Background", "DirectionalLight",
                                  "DEF FLOOR Solid", "DEF ROBOT Robot"]
    robot = model.index(5, 0)
    assert text(model, robot, 1) == '"MyBot"'


def test_field_rows_and_values(model, world):
    robot = world.find_by_def("ROBOT")
    idx = model.node_index(robot)
    names = child_texts(model, idx)
    assert names == robot.field_names()
    assert names[:4] == ["translation", "rotation", "children", "name"]
    t = model.field_index(robot, "translation")
    assert text(model, t) == "translation"
    assert text(model, t, 1) == "0 0 0.05"
    assert text(model, model.field_index(robot, "rotation"), 1) == "0 0 1 1"
    assert text(model, model.field_index(robot, "name"), 1) == '"MyBot"'
    assert text(model, model.field_index(robot, "selfCollision"), 1) == "TRUE"
    children = model.field_index(robot, "children")
    assert child_texts(model, children)[:2] == ["DEF BODY_SHAPE Shape", "DEF LEFT_HINGE HingeJoint"]
    info = world.world_info
    assert text(model, model.field_index(info, "basicTimeStep"), 1) == "64"
    assert text(model, model.field_index(info, "physics"), 1) == '"flying_mybot"'
    # MF non-node field: one row per item
    info_rows = model.field_index(info, "info")
    assert text(model, info_rows, 1) == "1 item"
    assert child_texts(model, info_rows) == ["[0]"]
    assert text(model, model.index(0, 0, info_rows), 1) == '"Hinge joints, bounding objects and devices"'


def test_sfnode_and_use_rows(model, world):
    floor = world.find_by_def("FLOOR")
    bo = model.field_index(floor, "boundingObject")
    assert text(model, bo, 1) == "USE FLOOR_PLANE"
    assert child_texts(model, bo) == ["USE FLOOR_PLANE"]
    assert model.rowCount(model.index(0, 0, bo)) == 0  # USE rows are not expanded
    physics = model.field_index(floor, "physics")
    assert text(model, physics, 1) == "NULL"
    assert model.rowCount(physics) == 0


def test_field_notifications_update_rows(model, world):
    robot = world.find_by_def("ROBOT")
    changed = []
    model.dataChanged.connect(lambda a, b, roles: changed.append(a))
    robot.set("translation", (1, 2, 3.5))
    assert text(model, model.field_index(robot, "translation"), 1) == "1 2 3.5"
    assert changed
    info = world.world_info
    info.append("info", "second line")
    assert child_texts(model, model.field_index(info, "info")) == ["[0]", "[1]"]
    info.set("info", ())
    assert model.rowCount(model.field_index(info, "info")) == 0
    robot.def_name = "BOT"
    assert text(model, model.node_index(robot)) == "DEF BOT Robot"


def test_structure_notifications(model, world):
    floor = world.find_by_def("FLOOR")
    world.add_node(Node("Solid", name="extra"), 2)
    assert child_texts(model)[2] == "Solid"
    floor.set("physics", Node("Physics"))
    physics = model.field_index(floor, "physics")
    assert child_texts(model, physics) == ["Physics"]
    world.remove_node(floor)
    assert "DEF FLOOR Solid" not in child_texts(model)
    assert not model.node_index(floor).isValid()


def test_notifications_from_another_thread(model, world, qtbot):
    robot = world.find_by_def("ROBOT")
    inserted = []
    model.rowsInserted.connect(lambda *a: inserted.append(a))

    def engine():  # a notified field (poses are pulled: test_scene_tree_pull.py)
        for k in range(50):
            robot.set("name", f"bot {k}")
        world.add_node(Node("Solid", name="from thread"))

    thread = threading.Thread(target=engine)
    thread.start()
    thread.join()
    # nothing applied yet: the GUI thread has not run its event loop
    assert text(model, model.field_index(robot, "name"), 1) == '"MyBot"'
    qtbot.waitUntil(lambda: text(model, model.field_index(robot, "name"), 1) == '"bot 49"')
    assert child_texts(model)[-1] == "Solid"
    assert len(inserted) == 1


def test_repeated_field_changes_from_a_thread_are_coalesced(model, world, qtbot):
    robot = world.find_by_def("ROBOT")
    view = QTreeView()
    qtbot.addWidget(view)
    view.setModel(model)
    model_row = model.field_index(robot, "model")
    view.expand(model.node_index(robot))
    view.selectionModel().setCurrentIndex(model_row,
                                          QItemSelectionModel.SelectionFlag.ClearAndSelect)
    changed = []  # one signal for the adjacent model and description rows

    def covered(a, b, _roles):
        changed.extend(model.item(model.index(r, 0, a.parent())).name
                       for r in range(a.row(), b.row() + 1))
        assert (a.column(), b.column()) == (0, 1)

    model.dataChanged.connect(covered)
    resets = []
    model.modelReset.connect(lambda: resets.append(1))

    def engine():  # two fields changed many times before the GUI thread drains
        for k in range(200):
            robot.set("model", f"model {k}")
            robot.set("description", f"description {k}")

    thread = threading.Thread(target=engine)
    thread.start()
    thread.join()
    model.flush()
    assert text(model, model_row, 1) == '"model 199"'
    assert text(model, model.field_index(robot, "description"), 1) == '"description 199"'
    assert changed == ["model", "description"]
    assert not resets and view.currentIndex() == model_row
    assert view.isExpanded(model.node_index(robot))


def test_field_change_then_structure_change_keep_their_order(model, world, qtbot):
    robot = world.find_by_def("ROBOT")

    def engine():
        robot.set("name", "first")
        world.remove_node(robot)
        robot.set("name", "second")  # a detached node: not shown any more
        world.add_node(robot)
        robot.set("name", "third")

    thread = threading.Thread(target=engine)
    thread.start()
    thread.join()
    qtbot.waitUntil(lambda: model.node_index(robot).isValid()
                    and text(model, model.field_index(robot, "name"), 1) == '"third"')
    assert child_texts(model).count("DEF ROBOT Robot") == 1


def test_thread_notifications_are_drained_at_a_bounded_rate(model, world, qtbot):
    from app.scene_tree.model import DRAIN_INTERVAL_MS

    robot = world.find_by_def("ROBOT")
    drains = []
    model.dataChanged.connect(lambda *a: drains.append(1))
    stop = threading.Event()

    def engine():
        k = 0
        while not stop.is_set():
            robot.set("description", f"{k}")
            k += 1
            stop.wait(0.001)

    thread = threading.Thread(target=engine)
    thread.start()
    qtbot.wait(20 * DRAIN_INTERVAL_MS)
    stop.set()
    thread.join()
    # hundreds of changes in 1 s, shown at most once per interval (plus the first)
    assert 2 <= len(drains) <= 21


def test_row_cache_follows_insertions_and_removals(model, world):
    floor = world.find_by_def("FLOOR")
    robot = world.find_by_def("ROBOT")
    robot_row = model.node_index(robot).row()
    world.add_node(Node("Solid", name="first"), 0)
    assert model.node_index(robot).row() == robot_row + 1
    assert model.index(robot_row + 1, 0).internalPointer().node is robot
    world.remove_node(floor)
    assert model.node_index(robot).row() == robot_row
    assert model.parent(model.field_index(robot, "translation")) == model.node_index(robot)


def test_rows_no_view_shows_get_values_without_signals(model, world):
    robot = world.find_by_def("ROBOT")
    wing = world.find_by_def("LEFT_WING")
    name = model.field_item(robot, "name")
    model.is_watched = lambda item: item is name  # e.g. only that row is shown
    changed = []
    model.dataChanged.connect(lambda a, b, roles: changed.append(model.item(a)))
    batches = []
    model.changed.connect(lambda: batches.append(1))
    robot.set("name", "bot")
    wing.set("name", "wing")
    assert changed == [name]
    assert batches == [1, 1]
    wing_name = model.field_index(wing, "name")
    assert text(model, wing_name, 1) == '"wing"'  # stored, read when shown
