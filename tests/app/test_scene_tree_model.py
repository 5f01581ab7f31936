"""SceneTreeModel: rows of a world, notifications (also from other threads), frames."""

from __future__ import annotations

import threading
from pathlib import Path

import numpy as np
import pytest
from PySide6.QtCore import QItemSelectionModel, QModelIndex, Qt
from PySide6.QtWidgets import QTreeView

from app.scene_tree import SceneTreeModel
from app.scene_tree.poses import axis_angle_to_matrix, matrix_to_axis_angle
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

    def engine():
        for k in range(50):
            robot.set("translation", (0, 0, k / 10))
        world.add_node(Node("Solid", name="from thread"))

    thread = threading.Thread(target=engine)
    thread.start()
    thread.join()
    # nothing applied yet: the GUI thread has not run its event loop
    assert text(model, model.field_index(robot, "translation"), 1) == "0 0 0.05"
    qtbot.waitUntil(lambda: text(model, model.field_index(robot, "translation"), 1) == "0 0 4.9")
    assert child_texts(model)[-1] == "Solid"
    assert len(inserted) == 1


class _Frame:
    def __init__(self, poses):
        self.poses = poses


def test_apply_frame_keeps_expansion_and_selection(model, world, qtbot):
    view = QTreeView()
    qtbot.addWidget(view)
    view.setModel(model)
    robot = world.find_by_def("ROBOT")
    wing = world.find_by_def("LEFT_WING")
    wing_t = model.field_index(wing, "translation")
    view.expand(model.node_index(robot))
    view.expand(wing_t.parent())
    view.selectionModel().setCurrentIndex(wing_t, QItemSelectionModel.SelectionFlag.ClearAndSelect)
    resets, inserted = [], []
    model.modelReset.connect(lambda: resets.append(1))
    model.rowsInserted.connect(lambda *a: inserted.append(1))
    # robot: rotated 1 rad about z at (0, 0, 0.05); wing world pose chosen so that its
    # local pose is translation (0.1, 0.2, 0.3), rotation 0.5 rad about x
    R_robot = axis_angle_to_matrix((0, 0, 1, 1))
    p_robot = np.array([0.0, 0.0, 0.05])
    R_local = axis_angle_to_matrix((1, 0, 0, 0.5))
    t_local = np.array([0.1, 0.2, 0.3])
    frame = _Frame({wing: (R_robot @ t_local + p_robot, R_robot @ R_local)})
    model.apply_frame(frame)
    assert text(model, wing_t, 1) == "0.1 0.2 0.3"
    assert text(model, model.field_index(wing, "rotation"), 1) == "1 0 0 0.5"
    # moving the robot too: the wing's local pose is computed against the new robot pose
    R2 = axis_angle_to_matrix((0, 1, 0, 0.3))
    p2 = np.array([1.0, -1.0, 0.5])
    model.apply_frame(_Frame({robot: (p2, R2), wing: (R2 @ t_local + p2, R2 @ R_local)}))
    assert text(model, model.field_index(robot, "translation"), 1) == "1 -1 0.5"
    assert text(model, model.field_index(robot, "rotation"), 1) == "0 1 0 0.3"
    assert text(model, wing_t, 1) == "0.1 0.2 0.3"
    assert not resets and not inserted
    assert view.isExpanded(model.node_index(robot))
    assert view.isExpanded(wing_t.parent())
    assert view.currentIndex() == wing_t


def test_axis_angle_round_trip():
    for rot in [(0, 0, 1, 0.0), (1, 0, 0, 3.14159), (0.6, 0.8, 0, 2.0), (0, 0, 1, np.pi)]:
        back = matrix_to_axis_angle(axis_angle_to_matrix(rot))
        assert np.allclose(axis_angle_to_matrix(back), axis_angle_to_matrix(rot), atol=1e-9)


def test_apply_frame_ignores_unchanged_static_poses(model, world):
    floor = world.find_by_def("FLOOR")
    robot = world.find_by_def("ROBOT")
    changed = []
    model.dataChanged.connect(lambda a, b, roles: changed.append(model.item(a)))
    R = axis_angle_to_matrix((0, 0, 1, 1)) + 1e-15
    model.apply_frame(_Frame({floor: (np.zeros(3), np.eye(3)),
                              robot: (np.array([0, 0, 0.05]), R)}))
    assert changed == []
    assert model.field_item(robot, "rotation").value == (0.0, 0.0, 1.0, 1.0)
    model.apply_frame(_Frame({floor: (np.array([0, 0, 1e-3]), np.eye(3))}))
    assert [item.name for item in changed] == ["translation"]
