"""The scene tree pulls the Solids' poses for the rows it shows (issue 18).

A simulation gives every moving Solid's translation and rotation through a
pose feed read when asked (`Node.bind_pose_feed`, no notification), and
changes made in another thread (a Supervisor moving a Solid: `_move`) are dropped by the
model's observer: on its timer, the model tells the views about the shown
pose rows whose value changed.
"""

from __future__ import annotations

import queue
import threading

import pytest
from PySide6.QtWidgets import QTreeView

from app.scene_tree import SceneTreeModel
from app.scene_tree.edits import apply_edit
from app.scene_tree.model import PULL_INTERVAL_MS
from engine.world import read_world
from tests.app.test_scene_tree_helpers import WORLDS, make_dock, select_field


class Snapshot:
    """One step's poses (`engine.world.node.PoseSnapshot`)."""

    def __init__(self, epoch: int, poses: dict[int, tuple[tuple, tuple]]) -> None:
        self.epoch = epoch
        self.poses = poses

    def pose(self, row: int) -> tuple[tuple, tuple]:
        return self.poses[row]


class StepFeed:
    """A pose feed (`engine.world.node.PoseFeed`) a test publishes steps to."""

    def __init__(self) -> None:
        self.current: Snapshot | None = None

    def publish(self, poses: dict[int, tuple[tuple, tuple]]) -> None:
        epoch = 0 if self.current is None else self.current.epoch
        self.current = Snapshot(epoch + 1, poses)


@pytest.fixture
def world():
    return read_world(str(WORLDS / "hinge_robot.wbt"))


@pytest.fixture
def model(world, qtbot):
    m = SceneTreeModel()
    m.set_world(world)
    return m


def _move(node, translation: tuple, rotation: tuple) -> None:
    """Set a Solid's pose fields as an edit in the engine thread does (a
    Supervisor's setSFVec3f/setSFRotation)."""
    node.set("translation", translation)
    node.set("rotation", rotation)


def text(model, node, field):
    return model.data(model.field_index(node, field).siblingAtColumn(1))


def in_thread(fn) -> None:
    thread = threading.Thread(target=fn)
    thread.start()
    thread.join()


def changed_rows(model) -> list:
    """(node name, field name) of the rows of every ``dataChanged`` emitted from now on."""
    seen: list = []

    def record(a, b, _roles):
        for r in range(a.row(), b.row() + 1):
            item = model.item(model.index(r, 0, a.parent()))
            seen.append((item.node.get("name"), item.name))
    model.dataChanged.connect(record)
    return seen


def test_pose_writes_of_the_engine_thread_queue_nothing(model, world):
    robot = world.find_by_def("ROBOT")
    model.shown_items = lambda: []  # no pose row shown: nothing to pull
    seen = changed_rows(model)
    batches = []
    model.changed.connect(lambda: batches.append(1))
    in_thread(lambda: [_move(robot, (0.0, 0.0, k / 100), (0.0, 0.0, 1.0, k / 100))
                       for k in range(200)])
    model.flush()  # nothing was queued either: no signal
    assert seen == [] and batches == []
    # the rows read the node: the newest pose as soon as a view asks
    assert text(model, robot, "translation") == "0 0 1.99"
    assert text(model, robot, "rotation") == "0 0 1 1.99"


def test_pull_tells_the_views_about_the_shown_rows_only(model, world):
    robot, wing = world.find_by_def("ROBOT"), world.find_by_def("LEFT_WING")
    robot_row = model.item(model.node_index(robot))
    model.shown_items = lambda: [robot_row]  # the robot's node row is expanded
    seen = changed_rows(model)
    batches = []
    model.changed.connect(lambda: batches.append(1))

    def engine():
        _move(robot, (0.0, 0.0, 0.3), (0.0, 0.0, 1.0, 0.2))
        _move(wing, (0.1, 0.2, 0.3), (1.0, 0.0, 0.0, 0.5))
    in_thread(engine)
    assert model.pull() == 2
    assert seen == [("MyBot", "translation"), ("MyBot", "rotation")]
    assert batches == [1]
    assert model.pull() == 0  # nothing new
    assert len(seen) == 2 and batches == [1]
    # the wing's rows were not refreshed, yet show the node's values when looked at
    assert text(model, wing, "translation") == "0.1 0.2 0.3"


def test_field_editor_row_is_pulled(model, world):
    wing = world.find_by_def("LEFT_WING")
    row = model.field_item(wing, "rotation")
    model.shown_items = lambda: [row]  # the panel edits the wing's rotation
    seen = changed_rows(model)
    in_thread(lambda: _move(wing, (0.1, 0.2, 0.3), (1.0, 0.0, 0.0, 0.5)))
    assert model.pull() == 1
    assert seen == [(wing.get("name"), "rotation")]


def test_hidden_pose_rows_cost_no_updates(qtbot):
    dock, world = make_dock(qtbot)
    robot, wing = world.find_by_def("ROBOT"), world.find_by_def("LEFT_WING")
    dock.view.collapseAll()
    seen = changed_rows(dock.model)
    stop = threading.Event()

    def engine():  # both Solids move at every "step"
        k = 0
        while not stop.is_set():
            _move(robot, (0.0, 0.0, k / 1000), (0.0, 0.0, 1.0, k / 1000))
            _move(wing, (k / 1000, 0.0, 0.0), (1.0, 0.0, 0.0, k / 1000))
            k += 1
            stop.wait(0.001)

    thread = threading.Thread(target=engine)
    thread.start()
    try:
        qtbot.wait(10 * PULL_INTERVAL_MS)
        assert seen == []  # nothing shown: no dataChanged at all
        dock.view.expand(dock.model.node_index(robot))
        qtbot.wait(20 * PULL_INTERVAL_MS)
    finally:
        stop.set()
        thread.join()
    # only the robot's shown pose rows, one signal per pull at most (plus slack)
    assert set(seen) == {("MyBot", "translation"), ("MyBot", "rotation")}
    assert 2 <= len(seen) <= 2 * 22


class RunningEngine:
    """A stand-in for the engine thread: applies queued edits between "steps"; each
    step moves the robot up 1 mm from wherever it is (as physics integrates from
    the current state) and writes its pose as `Simulation.write_poses` does."""

    def __init__(self, world):
        self.world = world
        self.robot = world.find_by_def("ROBOT")
        self.edits: queue.Queue = queue.Queue()
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def apply(self, edit):  # the scene tree's EditSink
        self.edits.put(edit)

    def _run(self):
        while not self.stop.is_set():
            while not self.edits.empty():
                apply_edit(self.world, self.edits.get())
            x, y, z = self.robot.get("translation")
            _move(self.robot, (x, y, z + 0.001), self.robot.get("rotation"))
            self.stop.wait(0.002)

    def close(self):
        self.stop.set()
        self.thread.join(5)


def test_user_edit_of_a_moving_solid_is_kept(qtbot):
    dock, world = make_dock(qtbot)
    engine = RunningEngine(world)
    try:
        dock.set_world(world, engine)
        robot = world.find_by_def("ROBOT")
        editor = select_field(dock, robot, "translation")
        # the field editor follows the simulation
        qtbot.waitUntil(lambda: editor.spins[2].value() > 0.1)
        editor.spins[0].setValue(0.5)  # typed and confirmed while running
        qtbot.waitUntil(lambda: robot.get("translation")[0] == 0.5)
        qtbot.wait(3 * PULL_INTERVAL_MS)
        assert text(dock.model, robot, "translation").startswith("0.5 ")
        assert editor.spins[0].value() == 0.5
        z = editor.spins[2].value()
        qtbot.waitUntil(lambda: editor.spins[2].value() > z)  # still moving, x kept
        assert editor.spins[0].value() == 0.5
        assert dock.undo_stack.count() == 1
    finally:
        engine.close()


def test_pose_rows_of_a_view_follow_structure_changes(model, world, qtbot):
    view = QTreeView()
    qtbot.addWidget(view)
    view.setModel(model)
    robot = world.find_by_def("ROBOT")
    model.shown_items = lambda: [model.item(model.node_index(robot))]
    in_thread(lambda: world.remove_node(robot))
    model.flush()
    in_thread(lambda: _move(robot, (1.0, 1.0, 1.0), (0.0, 0.0, 1.0, 1.0)))
    seen = changed_rows(model)
    assert model.pull() == 0  # a removed node's rows are not refreshed
    assert seen == []


def test_fed_poses_are_pulled_for_the_shown_rows(model, world):
    robot, wing = world.find_by_def("ROBOT"), world.find_by_def("LEFT_WING")
    feed = StepFeed()
    robot.bind_pose_feed(feed, 0)
    wing.bind_pose_feed(feed, 1)
    robot_row = model.item(model.node_index(robot))
    model.shown_items = lambda: [robot_row]
    seen = changed_rows(model)
    in_thread(lambda: feed.publish({0: ((0.0, 0.0, 0.7), (0.0, 0.0, 1.0, 0.1)),
                                    1: ((0.2, 0.0, 0.0), (1.0, 0.0, 0.0, 0.3))}))
    model.flush()
    assert seen == [("MyBot", "translation"), ("MyBot", "rotation")]
    assert text(model, robot, "translation") == "0 0 0.7"
    assert text(model, wing, "translation") == "0.2 0 0"  # read when looked at
    in_thread(lambda: feed.publish({0: ((0.0, 0.0, 0.8), (0.0, 0.0, 1.0, 0.1)),
                                    1: ((0.3, 0.0, 0.0), (1.0, 0.0, 0.0, 0.3))}))
    assert model.pull() == 1  # the rotation did not change
    assert seen[-1] == ("MyBot", "translation")
