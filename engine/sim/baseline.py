"""The reset baseline: the field values Reset returns to and Save writes.

The baseline is the world as last edited by the user (decision 0016): the
values loaded from the file, then every field edit made through
`engine.sim.edits.apply_edit` at any time (at t = 0, paused mid-run or while
running). The poses the simulation writes back into Solid fields after each
step are *not* part of it, so Reset puts every Solid back where the user
last placed it and Save writes the user's edits, never the simulation's
motion.

Only non-node fields are kept (node fields change by structural edits, which
rebuild the simulation; `Baseline.add_new_nodes` then records the fields of
nodes that were inserted). Nodes are keyed by identity: a removed node keeps
its entries, harmlessly, so undoing the removal finds them again.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any, NamedTuple

from engine.world import World, write_world
from engine.world.node import BaseNode
from engine.world.writer import format_world


class _Entry(NamedTuple):
    """One baseline value (the node is kept so its id stays unique)."""

    node: BaseNode
    field: str
    value: Any


def _value_fields(node: BaseNode) -> list[str]:
    """The non-node fields of ``node`` (none for USE and opaque nodes)."""
    if node.is_use or node.is_opaque or node.spec is None:
        return []
    return [name for name, spec in node.spec.fields.items() if not spec.type.endswith("Node")]


class Baseline:
    """Field values of a world that Reset restores (see module docstring)."""

    def __init__(self) -> None:
        self._entries: dict[tuple[int, str], _Entry] = {}

    @classmethod
    def capture(cls, world: World) -> Baseline:
        """The current non-node field values of every node of ``world``."""
        baseline = cls()
        baseline.add_new_nodes(world)
        return baseline

    def add_new_nodes(self, world: World) -> None:
        """Record the current values of nodes of ``world`` not known yet (inserted)."""
        for node in world.iter_nodes():
            for name in _value_fields(node):
                key = (id(node), name)
                if key not in self._entries:
                    self._entries[key] = _Entry(node, name, node.get(name))  # type: ignore[attr-defined]

    def value(self, node: BaseNode, field: str) -> Any:
        """The baseline value of ``node.field`` (its current value when not recorded)."""
        entry = self._entries.get((id(node), field))
        return entry.value if entry is not None else node.get(field)  # type: ignore[attr-defined]

    def set(self, node: BaseNode, field: str, value: Any) -> None:
        """Make ``value`` the baseline of ``node.field`` (node fields are ignored)."""
        if field in _value_fields(node):
            self._entries[(id(node), field)] = _Entry(node, field, value)

    def restore(self) -> None:
        """Set every recorded field back to its baseline value."""
        for node, name, value in self._entries.values():
            if node.get(name) != value:  # type: ignore[attr-defined]
                node.set(name, value)  # type: ignore[attr-defined]

    @contextmanager
    def applied(self) -> Iterator[None]:
        """Fields at their baseline values inside the block, current ones after
        (e.g. to write the world as the user edited it while it has run)."""
        current = [(node, name, node.get(name)) for node, name, _ in  # type: ignore[attr-defined]
                   self._entries.values()]
        self.restore()
        try:
            yield
        finally:
            for node, name, value in current:
                if node.get(name) != value:  # type: ignore[attr-defined]
                    node.set(name, value)  # type: ignore[attr-defined]


def write_as_edited(world: World, baseline: Baseline, path: str, *,
                    overwrite_read_only: bool = False) -> None:
    """Write ``world`` to ``path`` with its fields at their ``baseline`` values:
    the user's edits, never the simulation's motion (decision 0016). A
    read-only file raises `WorldReadOnlyError` unless ``overwrite_read_only``."""
    with baseline.applied():
        write_world(world, path, overwrite_read_only=overwrite_read_only)


def format_as_edited(world: World, baseline: Baseline) -> str:
    """The ``.wbt`` text of ``world`` with its fields at their ``baseline`` values
    (what `write_as_edited` writes)."""
    with baseline.applied():
        return format_world(world)
