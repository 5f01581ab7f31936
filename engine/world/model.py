"""The editable world: `World` plus re-exports of the node classes.

A `World` holds the header version, the EXTERNPROTO declarations, the list
of root nodes, the warnings produced while loading and the observers that
hear about every change:

- field observers ``callback(node, field_name, old, new)`` for every field
  change (``field_name == "DEF"`` for DEF renames; MF values are tuples);
- structure observers ``callback(event, parent, field_name, index, node)``
  with ``event`` ``"added"`` or ``"removed"``; ``parent`` and ``field_name``
  are None for root nodes.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from engine.world.errors import StructureError
from engine.world.lookup import find_by_def_path, iter_tree, tree_equal
from engine.world.node import DEF_FIELD, BaseNode, Field, Node, OpaqueNode, UseNode
from engine.world.schema_nodes import ROOT

__all__ = [
    "DEF_FIELD",
    "BaseNode",
    "ExternProto",
    "Field",
    "Node",
    "OpaqueNode",
    "UseNode",
    "World",
]

FieldObserver = Callable[[BaseNode, str, Any, Any], None]
StructureObserver = Callable[[str, "BaseNode | None", "str | None", int, BaseNode], None]
DEFAULT_VERSION = "R2025a"


@dataclass(frozen=True)
class ExternProto:
    """One ``[IMPORTABLE] EXTERNPROTO "url"`` declaration."""

    url: str
    importable: bool = False


class World:
    """A whole `.wbt` world: header, EXTERNPROTO list, root nodes, observers."""

    def __init__(self, version: str = DEFAULT_VERSION) -> None:
        self.version = version
        self.externprotos: list[ExternProto] = []
        self.warnings: list[str] = []
        # comment lines (without '#') between the header and the first token
        self.comments: list[str] = []
        self.filename: str | None = None
        self._nodes: list[BaseNode] = []
        self._field_observers: list[FieldObserver] = []
        self._structure_observers: list[StructureObserver] = []

    # ----- root nodes ---------------------------------------------------
    @property
    def nodes(self) -> tuple[BaseNode, ...]:
        """The root nodes in file order."""
        return tuple(self._nodes)

    def add_node(self, node: BaseNode, index: int | None = None) -> None:
        """Insert a detached node at the top level (at the end by default)."""
        if node.parent is not None or node._world is not None:
            raise StructureError(f"{node.label()} is already in a tree; remove it or copy() it")
        if not node.is_opaque and node.type_name not in ROOT:
            raise StructureError(f"{node.type_name} is not allowed at the top level of a world")
        index = len(self._nodes) if index is None else index
        self._nodes.insert(index, node)
        node._world = self
        self._notify_structure("added", None, None, self._nodes.index(node), node)

    def remove_node(self, node: BaseNode) -> None:
        """Remove ``node`` from wherever it is in this world."""
        if node.parent is not None:
            node.parent.remove_node(node)  # type: ignore[attr-defined]
            return
        if node._world is not self:
            raise StructureError(f"{node.label()} is not in this world")
        index = next(i for i, n in enumerate(self._nodes) if n is node)
        del self._nodes[index]
        node._world = None
        self._notify_structure("removed", None, None, index, node)

    # ----- queries ------------------------------------------------------
    def iter_nodes(self) -> Iterator[BaseNode]:
        """Every node of the world in pre-order (USE nodes yielded, not entered)."""
        return iter_tree(self._nodes)

    def nodes_of_type(self, type_name: str, derived: bool = True) -> list[BaseNode]:
        """Nodes of ``type_name`` (and derived types when ``derived``), USE nodes excluded."""
        return [
            n for n in self.iter_nodes()
            if not n.is_use and (n.type_name == type_name or (derived and n.is_a(type_name)))
        ]

    def solids(self) -> list[Node]:
        """Every Solid-derived node (Solid, Robot, devices), in pre-order."""
        return self.nodes_of_type("Solid")  # type: ignore[return-value]

    @property
    def world_info(self) -> Node | None:
        """The first WorldInfo node, or None."""
        found = self.nodes_of_type("WorldInfo")
        return found[0] if found else None  # type: ignore[return-value]

    def find_by_def(self, path: str) -> BaseNode | None:
        """Node found by a dotted DEF path with Webots' scoping (any node type)."""
        return find_by_def_path(self._nodes, path)

    def find_solid_by_def(self, path: str) -> Node | None:
        """Like Webots' findSolidByDef: the node for ``path`` if it is a Solid, else None."""
        node = self.find_by_def(path)
        if node is None or not node.is_a("Solid"):
            return None
        return node  # type: ignore[return-value]

    # ----- observers ----------------------------------------------------
    def add_field_observer(self, callback: FieldObserver) -> None:
        """Call ``callback(node, field_name, old, new)`` after every field change."""
        self._field_observers.append(callback)

    def remove_field_observer(self, callback: FieldObserver) -> None:
        """Stop calling ``callback``."""
        self._field_observers.remove(callback)

    def add_structure_observer(self, callback: StructureObserver) -> None:
        """Call ``callback(event, parent, field_name, index, node)`` on add/remove."""
        self._structure_observers.append(callback)

    def remove_structure_observer(self, callback: StructureObserver) -> None:
        """Stop calling ``callback``."""
        self._structure_observers.remove(callback)

    def _notify_field(self, node: BaseNode, name: str, old: Any, new: Any) -> None:
        for callback in list(self._field_observers):
            callback(node, name, old, new)

    def _notify_structure(
        self, event: str, parent: BaseNode | None, name: str | None, index: int, node: BaseNode
    ) -> None:
        for callback in list(self._structure_observers):
            callback(event, parent, name, index, node)

    # ----- comparison ---------------------------------------------------
    def __eq__(self, other: object) -> bool:
        if not isinstance(other, World):
            return NotImplemented
        return (
            self.version == other.version
            and self.externprotos == other.externprotos
            and len(self._nodes) == len(other._nodes)
            and all(tree_equal(a, b) for a, b in zip(self._nodes, other._nodes, strict=True))
        )

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"<World {self.version} {len(self._nodes)} root nodes>"
