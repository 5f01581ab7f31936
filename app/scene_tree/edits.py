"""Edit commands of the scene tree and the sink that applies them.

An edit is a small immutable object naming what to change; the main window
provides an `EditSink` that routes edits to the engine thread (the world's
owner while running). `DirectSink` applies them at once (tests, paused
simulation). `apply_edit` is the one place that turns an edit into World calls.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol

from engine.sim.edits import SAME as SIM_SAME
from engine.world import (
    DEF_FIELD,
    ROOT_NODE_TYPES,
    BaseNode,
    FieldValueError,
    Node,
    StructureError,
    World,
)

#: `SetField.baseline` default: the reset baseline takes the new value.
SAME: Any = SIM_SAME


@dataclass(frozen=True)
class SetField:
    """Set ``node.field`` to ``value`` (``field == "DEF"`` renames the node).

    ``baseline`` is the value Reset returns to and Save writes afterwards
    (decision 0016): the new value unless given (an undo of an edit made
    while the world had run gives the baseline its value from before the edit).
    ``engine_effect(sim)``, when given, runs in the engine thread with the
    `Simulation` right before the field is set (e.g. switching the contact
    model for an ``odeon:`` line of WorldInfo.info; when it raises, the field
    is left as it was); a sink without a simulation (`DirectSink`) only sets
    the field."""

    node: BaseNode
    field: str
    value: Any
    baseline: Any = SAME
    engine_effect: Callable[[Any], None] | None = None


@dataclass(frozen=True)
class InsertNode:
    """Insert the detached ``node`` at ``index`` of ``parent.field`` (parent None: root)."""

    parent: BaseNode | None
    field: str | None
    index: int
    node: BaseNode


@dataclass(frozen=True)
class RemoveNode:
    """Remove ``node`` (at ``index`` of ``parent.field``; parent None: root)."""

    parent: BaseNode | None
    field: str | None
    index: int
    node: BaseNode


Edit = SetField | InsertNode | RemoveNode


class EditSink(Protocol):
    """Where edits go. ``apply`` may raise `WorldError` at once (direct application)
    or report errors later through `SceneTreeController.report_error`."""

    def apply(self, edit: Edit) -> None:
        """Apply (or queue) one edit."""

    def baseline_value(self, node: BaseNode, field: str) -> Any:
        """The value ``node.field`` gets back on Reset (and Save writes)."""


def apply_edit(world: World, edit: Edit) -> None:
    """Apply ``edit`` to ``world`` (raises FieldValueError/StructureError on bad edits)."""
    if isinstance(edit, SetField):
        if edit.field == DEF_FIELD:
            edit.node.def_name = edit.value
        else:
            edit.node.set(edit.field, edit.value)  # type: ignore[attr-defined]
    elif isinstance(edit, InsertNode):
        if edit.parent is None:
            world.add_node(edit.node, edit.index)
        elif edit.parent.spec.fields[edit.field].type == "SFNode":  # type: ignore[union-attr]
            edit.parent.set(edit.field, edit.node)  # type: ignore[attr-defined]
        else:
            edit.parent.insert(edit.field, edit.index, edit.node)  # type: ignore[attr-defined]
    elif isinstance(edit, RemoveNode):
        world.remove_node(edit.node)
    else:  # pragma: no cover - typing guard
        raise TypeError(f"unknown edit {edit!r}")


class DirectSink:
    """An `EditSink` applying every edit to ``world`` immediately, in the caller's thread."""

    def __init__(self, world: World) -> None:
        self.world = world

    def apply(self, edit: Edit) -> None:
        """Apply ``edit`` now; errors propagate to the caller."""
        apply_edit(self.world, edit)

    def baseline_value(self, node: BaseNode, field: str) -> Any:
        """A world without a simulation never moves: the current value."""
        return node.def_name if field == DEF_FIELD else node.get(field)  # type: ignore[attr-defined]


def validate_value(node: BaseNode, field: str, value: Any) -> None:
    """Check a non-node value against ``node.field`` without touching the world.

    Raises `FieldValueError` (the world's own message) when the value is rejected.
    """
    if node.is_use or node.is_opaque:
        raise StructureError(f"cannot edit {node.label()}: edit the DEF node instead")
    scratch = Node(node.type_name)
    if field == DEF_FIELD:
        if value is not None:
            scratch.def_name = value
        return
    spec = scratch.field_spec(field)
    if spec.type.endswith("Node"):
        return  # node values are checked by the world when applied
    try:
        scratch.set(field, value)
    except FieldValueError as exc:
        message = str(exc).replace(f"of {node.type_name}", f"of {node.label()}")
        raise FieldValueError(message) from None


def check_node_allowed(parent: BaseNode | None, field: str | None, node: BaseNode) -> None:
    """Raise `StructureError` unless ``node``'s type is legal in ``parent.field`` (root if None)."""
    if node.is_opaque:
        return
    if parent is None:
        if node.type_name not in ROOT_NODE_TYPES:
            raise StructureError(f"{node.type_name} is not allowed at the top level of a world")
        return
    spec = parent.spec.fields[field]  # type: ignore[union-attr,index]
    if not spec.type.endswith("Node"):
        raise StructureError(f"field '{field}' of {parent.label()} does not hold nodes")
    if spec.node_types is not None and not any(node.is_a(t) for t in spec.node_types):
        allowed = ", ".join(sorted(spec.node_types))
        raise StructureError(f"{node.type_name} is not allowed in field '{field}' of "
                             f"{parent.label()} (allowed: {allowed})")
