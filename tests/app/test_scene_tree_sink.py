"""Edits through other sinks: a failing sink, and a queued sink applied by a worker
thread (as the main window routes edits to the engine thread)."""

from __future__ import annotations

import queue
import threading

from app.scene_tree.edits import SetField, apply_edit
from engine.world import StructureError
from tests.app.test_scene_tree_helpers import make_dock, select_field


class FailingSink:
    def __init__(self):
        self.seen = []

    def apply(self, edit):
        self.seen.append(edit)
        raise StructureError("the engine refused this edit")


class EngineThreadSink:
    """Queues edits; a worker thread drains the queue and applies them to the world."""

    def __init__(self, world):
        self.world = world
        self.edits: queue.Queue = queue.Queue()
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def apply(self, edit):
        self.edits.put(edit)

    def _run(self):
        while (edit := self.edits.get()) is not None:
            assert threading.current_thread() is self.thread
            apply_edit(self.world, edit)

    def stop(self):
        self.edits.put(None)
        self.thread.join(5)


def test_failing_sink_reports_and_keeps_history_clean(qtbot):
    dock, world = make_dock(qtbot)
    sink = FailingSink()
    dock.set_world(world, sink)
    robot = world.find_by_def("ROBOT")
    errors = []
    dock.error_occurred.connect(errors.append)
    assert not dock.controller.set_field(robot, "name", "x")
    assert isinstance(sink.seen[0], SetField) and sink.seen[0].value == "x"
    assert errors == ["the engine refused this edit"]
    assert robot.get("name") == "MyBot"
    assert dock.undo_stack.count() == 0
    dock.report_error("late failure")
    assert dock.panel.error.text() == "late failure"


def test_edits_applied_in_engine_thread_update_view(qtbot):
    dock, world = make_dock(qtbot)
    sink = EngineThreadSink(world)
    try:
        dock.set_world(world, sink)
        robot = world.find_by_def("ROBOT")
        select_field(dock, robot, "translation")
        editor = dock.panel.editor
        editor.spins[0].setValue(0.5)  # as if typed and confirmed
        index = dock.model.field_index(robot, "translation").siblingAtColumn(1)
        qtbot.waitUntil(lambda: dock.model.data(index) == "0.5 0 0.05")
        assert robot.get("translation") == (0.5, 0.0, 0.05)
        qtbot.waitUntil(lambda: editor.spins[0].value() == 0.5)
        dock.undo_stack.undo()
        qtbot.waitUntil(lambda: dock.model.data(index) == "0 0 0.05")
        # node deletion from the engine thread: rows removed in the GUI thread
        floor = world.find_by_def("FLOOR")
        assert dock.controller.remove_node(floor)
        qtbot.waitUntil(lambda: not dock.model.node_index(floor).isValid())
        assert floor not in world.nodes
        dock.undo_stack.undo()
        qtbot.waitUntil(lambda: dock.model.node_index(floor).isValid())
        assert dock.model.node_index(floor).row() == 4
    finally:
        sink.stop()
