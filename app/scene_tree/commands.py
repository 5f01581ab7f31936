"""Undoable commands: each holds both directions of one edit and calls the sink.

Consecutive `SetFieldCommand`s of the same field made by spin boxes (``merge``
True) within `MERGE_WINDOW` seconds merge into one undo step.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from PySide6.QtGui import QUndoCommand

from app.scene_tree.edits import SAME, Edit, EditSink, InsertNode, RemoveNode, SetField
from engine.world import BaseNode

MERGE_WINDOW = 1.5  # seconds between two spin-box edits that still merge
SET_FIELD_ID = 4711

ErrorReporter = Callable[[str], None]
#: ``effect(sim)``: what an edit does to the `Simulation` besides setting its field.
Effect = Callable[[Any], None]


class _SinkCommand(QUndoCommand):
    """Base: runs edits through the sink, reporting (not raising) errors."""

    def __init__(self, text: str, sink: EditSink, report: ErrorReporter) -> None:
        super().__init__(text)
        self._sink = sink
        self._report = report
        self.failed = False

    def _run(self, edit: Edit) -> None:
        try:
            self._sink.apply(edit)
        except (ValueError, TypeError, IndexError) as exc:
            self.failed = True
            self.setObsolete(True)
            self._report(str(exc))


class SetFieldCommand(_SinkCommand):
    """Set one field from ``old`` to ``new`` (undo sets ``old`` back).

    ``old_baseline`` is the value Reset returned to before the edit (decision
    0016); undo gives it back to the baseline. It differs from ``old`` when the
    edit was made after the world had run (``old`` is then a simulated pose)."""

    def __init__(self, sink: EditSink, report: ErrorReporter, node: BaseNode, field: str,
                 old: Any, new: Any, merge: bool = False, old_baseline: Any = SAME) -> None:
        super().__init__(f"Change {node.label()} {field}", sink, report)
        self.node, self.field, self.old, self.new = node, field, old, new
        self.old_baseline = old if old_baseline is SAME else old_baseline
        self.merge = merge
        self.stamp = time.monotonic()

    def redo(self) -> None:
        self._run(SetField(self.node, self.field, self.new))

    def undo(self) -> None:
        self._run(SetField(self.node, self.field, self.old, self.old_baseline))

    def id(self) -> int:
        return SET_FIELD_ID

    def mergeWith(self, other: QUndoCommand) -> bool:  # noqa: N802 - Qt name
        if not (isinstance(other, SetFieldCommand) and self.merge and other.merge
                and other.node is self.node and other.field == self.field
                and other.stamp - self.stamp <= MERGE_WINDOW and not other.failed):
            return False
        self.new = other.new
        self.stamp = other.stamp
        if self.new == self.old:
            self.setObsolete(True)
        return True


class InsertNodeCommand(_SinkCommand):
    """Insert a detached node (add, paste); undo removes it."""

    def __init__(self, sink: EditSink, report: ErrorReporter, parent: BaseNode | None,
                 field: str | None, index: int, node: BaseNode, text: str = "Add") -> None:
        super().__init__(f"{text} {node.label()}", sink, report)
        self.parent, self.field, self.index, self.node = parent, field, index, node

    def redo(self) -> None:
        self._run(InsertNode(self.parent, self.field, self.index, self.node))

    def undo(self) -> None:
        self._run(RemoveNode(self.parent, self.field, self.index, self.node))


class RemoveNodeCommand(_SinkCommand):
    """Remove a node; undo puts the same node object back where it was."""

    def __init__(self, sink: EditSink, report: ErrorReporter, parent: BaseNode | None,
                 field: str | None, index: int, node: BaseNode) -> None:
        super().__init__(f"Delete {node.label()}", sink, report)
        self.parent, self.field, self.index, self.node = parent, field, index, node

    def redo(self) -> None:
        self._run(RemoveNode(self.parent, self.field, self.index, self.node))

    def undo(self) -> None:
        self._run(InsertNode(self.parent, self.field, self.index, self.node))


class SetFieldWithEffectCommand(SetFieldCommand):
    """A `SetFieldCommand` whose edits also act on the simulation: redo sets ``new``
    and runs ``new_effect(sim)``, undo sets ``old`` and runs ``old_effect(sim)``
    (in the engine thread, see `SetField.engine_effect`). Never merges."""

    def __init__(self, sink: EditSink, report: ErrorReporter, node: BaseNode, field: str,
                 values: tuple[Any, Any, Any], effects: tuple[Effect, Effect],
                 text: str) -> None:
        old, new, old_baseline = values
        super().__init__(sink, report, node, field, old, new, False, old_baseline)
        self.setText(text)
        self.old_effect, self.new_effect = effects

    def redo(self) -> None:
        self._run(SetField(self.node, self.field, self.new, engine_effect=self.new_effect))

    def undo(self) -> None:
        self._run(SetField(self.node, self.field, self.old, self.old_baseline,
                           engine_effect=self.old_effect))

    def id(self) -> int:
        return -1  # Qt: no merging
