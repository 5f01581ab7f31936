"""`SceneTreeController`: every scene-tree edit goes through here.

It validates an edit in the GUI thread, wraps it in an undoable command on
its `QUndoStack` and lets the command call the `EditSink`. Errors (rejected
values, illegal node positions) are emitted as ``error_occurred(message)``;
the world is left unchanged.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QObject, Signal
from PySide6.QtGui import QUndoStack

from app.scene_tree.commands import InsertNodeCommand, RemoveNodeCommand, SetFieldCommand
from app.scene_tree.edits import (
    DirectSink,
    EditSink,
    check_node_allowed,
    validate_value,
)
from app.scene_tree.items import FieldItem, Item, NodeItem, ValueItem
from engine.world import (
    DEF_FIELD,
    ROOT_NODE_TYPES,
    BaseNode,
    Node,
    OpaqueNode,
    StructureError,
    UseNode,
    World,
    WorldError,
    allowed_node_types,
    use_forbidden,
)

UNDELETABLE = ("WorldInfo", "Viewpoint")  # as in Webots


def copy_any(node: BaseNode) -> BaseNode:
    """A detached deep copy of any node kind (USE nodes keep their DEF target)."""
    if isinstance(node, UseNode):
        return UseNode(node.target)
    if isinstance(node, OpaqueNode):
        return OpaqueNode(node.type_name, node.text, node.def_name)
    return node.copy()  # type: ignore[attr-defined]


Position = tuple["BaseNode | None", "str | None", int]


class SceneTreeController(QObject):
    """Undoable edits, node add/delete/copy/paste, error reporting."""

    error_occurred = Signal(str)

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.undo_stack = QUndoStack(self)
        self.world: World | None = None
        self.world_path: str | None = None
        self.sink: EditSink | None = None
        self.clipboard: BaseNode | None = None

    def set_world(self, world: World | None, sink: EditSink | None = None,
                  world_path: str | None = None) -> None:
        """Edit ``world`` through ``sink`` (a `DirectSink` by default); clears undo history."""
        self.world = world
        self.sink = sink if sink is not None or world is None else DirectSink(world)
        self.world_path = world_path if world_path is not None else getattr(world, "filename",
                                                                             None)
        self.undo_stack.clear()

    def report_error(self, message: str) -> None:
        """Show an error (also for sinks that fail later, in another thread)."""
        self.error_occurred.emit(message)

    # ------------------------------------------------------------ fields
    def set_field(self, node: BaseNode, field: str, value: Any, merge: bool = False) -> bool:
        """Set ``node.field`` (undoable); False (and an error message) when rejected."""
        if self.sink is None:
            return False
        try:
            validate_value(node, field, value)
        except WorldError as exc:
            self.report_error(str(exc))
            return False
        old = node.def_name if field == DEF_FIELD else node.get(field)  # type: ignore[attr-defined]
        if old is value or (not isinstance(old, BaseNode) and not isinstance(value, BaseNode)
                            and old == value):
            return True
        baseline_of = getattr(self.sink, "baseline_value", None)
        old_baseline = baseline_of(node, field) if baseline_of is not None else old
        command = SetFieldCommand(self.sink, self.report_error, node, field, old, value, merge,
                                  old_baseline)
        self.undo_stack.push(command)
        return not command.failed

    # ------------------------------------------------------------- nodes
    def insert_node(self, parent: BaseNode | None, field: str | None, index: int,
                    node: BaseNode, text: str = "Add") -> bool:
        """Insert the detached ``node`` (undoable); False with a message when illegal."""
        if self.sink is None:
            return False
        try:
            check_node_allowed(parent, field, node)
            if parent is not None and parent.spec.fields[field].type == "SFNode" \
                    and parent.get(field) is not None:  # type: ignore[attr-defined]
                raise StructureError(f"field '{field}' of {parent.label()} already holds a "
                                     "node: delete it first")
        except WorldError as exc:
            self.report_error(str(exc))
            return False
        command = InsertNodeCommand(self.sink, self.report_error, parent, field, index, node, text)
        self.undo_stack.push(command)
        return not command.failed

    def remove_node(self, node: BaseNode) -> bool:
        """Delete ``node`` (undoable); WorldInfo and Viewpoint at the top level are kept."""
        if self.sink is None or self.world is None:
            return False
        parent, field = node.parent, node.parent_field
        if parent is None and node.type_name in UNDELETABLE:
            self.report_error(f"{node.type_name} cannot be deleted")
            return False
        if parent is None:
            siblings = self.world.nodes
        elif parent.spec.fields[field].type == "SFNode":  # type: ignore[union-attr,index]
            siblings = (node,)
        else:
            siblings = parent.get(field)  # type: ignore[attr-defined]
        index = next(i for i, n in enumerate(siblings) if n is node)
        command = RemoveNodeCommand(self.sink, self.report_error, parent, field, index, node)
        self.undo_stack.push(command)
        return not command.failed

    def insertion_point(self, item: Item | None) -> Position:
        """Where a new node goes for the selected row: into a node field, after a
        node in its list, or at the end of the top level (nothing selected)."""
        world_len = len(self.world.nodes) if self.world is not None else 0
        if item is None or item.parent is None:
            return None, None, world_len
        if isinstance(item, ValueItem):
            raise StructureError("select a node field or a node to add a node")
        if isinstance(item, FieldItem):
            if not item.type.endswith("Node"):
                raise StructureError(f"field '{item.name}' does not hold nodes")
            return item.node, item.name, len(item.value) if item.type == "MFNode" else 0
        assert isinstance(item, NodeItem)
        node = item.node
        if node.parent is None:
            index = next(i for i, n in enumerate(self.world.nodes) if n is node)  # type: ignore[union-attr]
            return None, None, index + 1
        field = node.parent_field
        if node.parent.spec.fields[field].type == "SFNode":  # type: ignore[union-attr,index]
            return node.parent, field, 0
        index = next(i for i, n in enumerate(node.parent.get(field)) if n is node)  # type: ignore[attr-defined]
        return node.parent, field, index + 1

    def legal_types(self, parent: BaseNode | None, field: str | None) -> tuple[str, ...]:
        """Node types legal at a position (ROOT_NODE_TYPES at the top level)."""
        if parent is None:
            return tuple(ROOT_NODE_TYPES)
        return allowed_node_types(parent.type_name, field)  # type: ignore[arg-type]

    def use_candidates(self, parent: BaseNode | None, field: str | None) -> list[BaseNode]:
        """DEF nodes a USE could refer to at a position (legal type, USE allowed)."""
        if self.world is None:
            return []
        legal = set(self.legal_types(parent, field))
        return [n for n in self.world.iter_nodes() if not n.is_use and n.def_name
                and not use_forbidden(n.type_name) and (n.type_name in legal or n.is_opaque)]

    def add_node(self, item: Item | None, type_name: str) -> bool:
        """Add a new default node of ``type_name`` at the selected position."""
        return self._insert_made(item, lambda: Node(type_name), "Add")

    def add_use(self, item: Item | None, target: BaseNode) -> bool:
        """Add ``USE target`` at the selected position (refused for Solids, joints...)."""
        return self._insert_made(item, lambda: UseNode(target), "Add")

    def copy(self, node: BaseNode) -> None:
        """Put a deep copy of ``node`` on the clipboard."""
        self.clipboard = copy_any(node)

    def paste(self, item: Item | None) -> bool:
        """Insert a fresh copy of the clipboard at the selected position (undoable)."""
        clipboard = self.clipboard
        if clipboard is None:
            self.report_error("nothing to paste: copy a node first")
            return False
        return self._insert_made(item, lambda: copy_any(clipboard), "Paste")

    def _insert_made(self, item: Item | None, make: Callable[[], BaseNode], text: str) -> bool:
        """Insert ``make()`` at the selected position (undoable, command text ``text``);
        an illegal position or node is reported and nothing changes."""
        try:
            parent, field, index = self.insertion_point(item)
            node = make()
        except WorldError as exc:
            self.report_error(str(exc))
            return False
        return self.insert_node(parent, field, index, node, text=text)
