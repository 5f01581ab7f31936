"""Editable nodes of a world: `Node`, `UseNode`, `OpaqueNode` and the `Field` view.

A `Node` of a known type holds one value per schema field (in schema order,
defaults filled in). Values are checked on every `set`; a bad value raises
`FieldValueError` naming node, field and value. Child nodes (SFNode/MFNode
values) know their ``parent`` and ``parent_field``. Every change is reported
to the observers of the `World` the node belongs to (see `engine.world.model`).

Example:
    >>> box = Node("Box")
    >>> box.get("size")
    (2.0, 2.0, 2.0)
    >>> box.set("size", (1, 2, 3))
    >>> box.field("size").is_default
    False
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, NamedTuple, Protocol

from engine.world import fieldtypes as ft
from engine.world.errors import FieldValueError, StructureError
from engine.world.lexer import KEYWORDS
from engine.world.schema import FieldSpec, NodeSpec, get_spec, use_forbidden

DEF_FIELD = "DEF"  # field name used in change notifications for DEF renames
_BAD_DEF_CHARS = set(" \t\r\n\"#',.[\\]{}")


def check_def_name(name: str) -> None:
    """Raise `FieldValueError` unless ``name`` is a legal DEF identifier (no dots)."""
    if (
        not isinstance(name, str)
        or not name
        or name[0].isdigit()
        or name in KEYWORDS
        or any(c in _BAD_DEF_CHARS or ord(c) <= 0x20 for c in name)
        or (name[0] in "+-" and len(name) > 1 and name[1].isdigit())
    ):
        raise FieldValueError(f"invalid DEF name {name!r}: identifiers may not start with a "
                              "digit, be a keyword or contain spaces, dots, quotes or brackets")


class World(Protocol):
    """What a node needs of the world it belongs to (`engine.world.model.World`
    is the one implementation): the two change notifications."""

    def _notify_field(self, node: BaseNode, name: str, old: Any, new: Any) -> None: ...

    def _notify_structure(self, event: str, parent: BaseNode | None, name: str | None,
                          index: int, node: BaseNode) -> None: ...


class PoseSnapshot(Protocol):
    """One step's published poses (`PoseFeed.current`): ``epoch`` numbers the
    step; ``pose(row)`` gives row ``row``'s (translation, rotation) field values
    (tuples of floats)."""

    epoch: int

    def pose(self, row: int) -> tuple[tuple, tuple]: ...


class PoseFeed(Protocol):
    """Where a simulated Solid's translation/rotation come from while it moves
    (`engine.sim.pose_writer.PoseWriter`): ``current`` is the latest
    `PoseSnapshot` (None before the first step)."""

    current: PoseSnapshot | None


#: The fields a `PoseFeed` provides.
_FED_FIELDS = frozenset({"translation", "rotation"})


class SourcePosition(NamedTuple):
    """Where a parsed node starts in its file (1-based line and column)."""

    line: int
    column: int


class BaseNode:
    """What every node kind shares: type name, DEF name, parent link, world,
    and ``source`` (its `SourcePosition` when it was read from a file, else None)."""

    is_use = False
    is_opaque = False

    def __init__(self, type_name: str) -> None:
        self.type_name = type_name
        self.parent: Node | None = None
        self.parent_field: str | None = None
        self._world: World | None = None
        self._def_name: str | None = None
        self.source: SourcePosition | None = None

    @property
    def spec(self) -> NodeSpec | None:
        """The schema entry of this node type (None for opaque nodes)."""
        return get_spec(self.type_name)

    @property
    def def_name(self) -> str | None:
        """The DEF name, or None."""
        return self._def_name

    @def_name.setter
    def def_name(self, name: str | None) -> None:
        if name is not None:
            check_def_name(name)
        old = self._def_name
        self._def_name = name
        if old != name:
            world = self.world
            if world is not None:
                world._notify_field(self, DEF_FIELD, old, name)

    @property
    def world(self) -> World | None:
        """The world this node is part of, or None when detached."""
        node: BaseNode = self
        while node.parent is not None:
            node = node.parent
        return node._world

    def is_a(self, base: str) -> bool:
        """True if this node's type is ``base`` or derives from it."""
        spec = self.spec
        return spec is not None and spec.is_a(base)

    def label(self) -> str:
        """Short description for messages: ``Solid`` or ``Solid 'DEF BOX'``."""
        return f"{self.type_name} (DEF {self._def_name})" if self._def_name else self.type_name

    def child_nodes(self) -> Iterator[tuple[str, int, BaseNode]]:
        """Direct child nodes as ``(field name, index, node)`` (none for USE/opaque)."""
        return iter(())

    def path(self) -> str:
        """A readable position in the tree, e.g. ``Robot > children[1] > HingeJoint``."""
        parts = []
        node: BaseNode | None = self
        while node is not None:
            parts.append(node.label())
            if node.parent is not None:
                parts.append(f"{node.parent_field}")
            node = node.parent
        return " > ".join(reversed(parts))


class Node(BaseNode):
    """A node of a known type with typed, validated fields."""

    def __init__(self, type_name: str, def_name: str | None = None, **values: Any) -> None:
        spec = get_spec(type_name)
        if spec is None:
            raise StructureError(f"unknown node type '{type_name}'")
        super().__init__(type_name)
        if def_name is not None:
            check_def_name(def_name)
        self._def_name = def_name
        self._values: dict[str, Any] = {n: f.default for n, f in spec.fields.items()}
        # a simulated Solid's pose comes from a feed, read when asked (`bind_pose_feed`)
        self._feed: PoseFeed | None = None
        self._feed_row = -1
        self._feed_epoch = -1
        # `hidden name value...` lines Webots writes for internal state, kept verbatim
        self.hidden: list[tuple[str, str]] = []
        # fields the schema does not know: (name, source text of the value), written
        # back verbatim after the known fields (Webots warns and loads the rest)
        self.unknown_fields: list[tuple[str, str]] = []
        for name, value in values.items():
            self.set(name, value)

    # ----- field access -------------------------------------------------
    def field_names(self) -> list[str]:
        """Field names in schema order."""
        return list(self._values)

    def field_spec(self, name: str) -> FieldSpec:
        """The schema entry of field ``name`` (error naming the node if unknown)."""
        spec = self.spec.fields.get(name)  # type: ignore[union-attr]
        if spec is None:
            raise FieldValueError(f"{self.label()} has no field '{name}'")
        return spec

    def field(self, name: str) -> Field:
        """A `Field` view of field ``name``."""
        self.field_spec(name)
        return Field(self, name)

    def get(self, name: str) -> Any:
        """Current value of field ``name`` (MF values are tuples)."""
        self.field_spec(name)
        if self._feed is not None and name in _FED_FIELDS:
            self._read_feed()
        return self._values[name]

    def is_default(self, name: str) -> bool:
        """True if field ``name`` holds Webots' default value."""
        spec = self.field_spec(name)
        if self._feed is not None and name in _FED_FIELDS:
            self._read_feed()
        return self._values[name] == spec.default

    # ----- poses computed by a simulation -------------------------------
    def bind_pose_feed(self, feed: PoseFeed | None, row: int = -1) -> None:
        """Take ``translation`` and ``rotation`` from row ``row`` of ``feed``
        from now on (None: keep the values last read). The simulation binds
        every moving Solid; reading a field then costs nothing per step, and
        no change is notified for these values (observers pull them)."""
        if self._feed is not None:
            self._read_feed()
        self._feed = feed
        self._feed_row = row
        self._feed_epoch = -1

    def _read_feed(self) -> None:
        """Take the feed's pose if a step published a newer one."""
        feed = self._feed
        snapshot = None if feed is None else feed.current
        if snapshot is None or snapshot.epoch == self._feed_epoch:
            return
        self._feed_epoch = snapshot.epoch
        translation, rotation = snapshot.pose(self._feed_row)
        self._values["translation"] = translation
        self._values["rotation"] = rotation

    def _check(self, spec: FieldSpec, value: Any) -> Any:
        try:
            result = ft.normalize(spec.type, value)
        except (TypeError, ValueError) as exc:
            raise FieldValueError(
                f"invalid value {value!r} for {spec.type} field '{spec.name}' of "
                f"{self.label()}: {exc}"
            ) from None
        if spec.choices is not None:
            items = result if ft.is_mf(spec.type) else (result,)
            for item in items:
                if item not in spec.choices:
                    allowed = ", ".join(f'"{c}"' for c in spec.choices)
                    raise FieldValueError(
                        f"invalid value {item!r} for field '{spec.name}' of {self.label()}: "
                        f"expected one of {allowed}"
                    )
        if spec.type.endswith("Node"):
            items = result if ft.is_mf(spec.type) else (result,)
            for item in items:
                if item is None and ft.is_mf(spec.type):
                    raise FieldValueError(f"NULL is not allowed in MFNode field '{spec.name}'")
                if item is not None:
                    self._check_child(spec, item)
            if ft.is_mf(spec.type) and len({id(i) for i in items}) != len(items):
                raise StructureError(f"the same node appears twice in '{spec.name}'")
        return result

    def _check_child(self, spec: FieldSpec, child: Any) -> None:
        if not isinstance(child, BaseNode):
            raise FieldValueError(
                f"invalid value {child!r} for {spec.type} field '{spec.name}' of "
                f"{self.label()}: expected a node"
            )
        if child.parent is not None or child._world is not None:
            raise StructureError(
                f"{child.label()} is already in the tree; remove it first or use copy()"
            )
        inner = child.target if isinstance(child, UseNode) else child
        node: BaseNode | None = self
        while node is not None:
            if node is inner:
                raise StructureError(f"cannot put {child.label()} inside itself")
            node = node.parent
        if (
            not child.is_opaque
            and spec.node_types is not None
            and not any(child.is_a(t) for t in spec.node_types)
        ):
            allowed = ", ".join(sorted(spec.node_types))
            raise StructureError(
                f"{child.type_name} is not allowed in field '{spec.name}' of {self.label()} "
                f"(allowed: {allowed})"
            )

    def set(self, name: str, value: Any) -> None:
        """Set field ``name`` to ``value`` after checking it; observers are notified."""
        spec = self.field_spec(name)
        if self._feed is not None and name in _FED_FIELDS:
            self._read_feed()
        old = self._values[name]
        if spec.type.endswith("Node"):
            old_nodes = old if ft.is_mf(spec.type) else (old,)
            kept = {id(n) for n in old_nodes if n is not None}
            # nodes already in this field may stay: detach them for the check
            for n in old_nodes:
                if n is not None:
                    n.parent = None
            try:
                new = self._check(spec, value)
            finally:
                for n in old_nodes:
                    if n is not None:
                        n.parent = self
            new_nodes = new if ft.is_mf(spec.type) else (new,)
            new_ids = {id(n) for n in new_nodes if n is not None}
            self._values[name] = new
            world = self.world
            for i, n in enumerate(old_nodes):
                if n is not None and id(n) not in new_ids:
                    n.parent = None
                    n.parent_field = None
                    if world is not None:
                        world._notify_structure("removed", self, name, i, n)
            for i, n in enumerate(new_nodes):
                if n is not None:
                    n.parent = self
                    n.parent_field = name
                    if world is not None and id(n) not in kept:
                        world._notify_structure("added", self, name, i, n)
        else:
            new = self._check(spec, value)
            self._values[name] = new
        world = self.world
        if world is not None and old != new:
            world._notify_field(self, name, old, new)

    def set_parsed(self, name: str, value: tuple) -> None:
        """Set numeric MF field ``name`` to a value the parser has already checked
        and built in canonical form (tuple of ints, floats or float tuples).

        Skips the per-item check of `set`, which dominates loading big meshes;
        only for nodes not yet in a world (no observers to notify).
        """
        spec = self.field_spec(name)
        if self.world is not None or not ft.is_mf(spec.type) or spec.type == "MFNode":
            raise StructureError(f"set_parsed is for numeric MF fields of new nodes, not "
                                 f"'{name}' of {self.label()}")
        self._values[name] = value

    def reset(self, name: str) -> None:
        """Set field ``name`` back to Webots' default."""
        self.set(name, self.field_spec(name).default)

    # ----- MF editing ---------------------------------------------------
    def _mf_spec(self, name: str) -> FieldSpec:
        spec = self.field_spec(name)
        if not ft.is_mf(spec.type):
            raise FieldValueError(f"field '{name}' of {self.label()} is not an MF field")
        return spec

    def insert(self, name: str, index: int, value: Any) -> None:
        """Insert one item into MF field ``name`` before ``index``."""
        self._mf_spec(name)
        items = list(self._values[name])
        if not -len(items) - 1 <= index <= len(items):
            raise IndexError(f"index {index} out of range for '{name}' ({len(items)} items)")
        items.insert(index, value)
        self.set(name, items)

    def append(self, name: str, value: Any) -> None:
        """Append one item to MF field ``name``."""
        self._mf_spec(name)
        self.insert(name, len(self._values[name]), value)

    def remove(self, name: str, index: int) -> Any:
        """Remove and return item ``index`` of MF field ``name``."""
        self._mf_spec(name)
        items = list(self._values[name])
        item = items.pop(index)
        self.set(name, items)
        return item

    def remove_node(self, child: BaseNode) -> None:
        """Detach ``child`` (a direct child node of this node)."""
        if child.parent is not self or child.parent_field is None:
            raise StructureError(f"{child.label()} is not a child of {self.label()}")
        name = child.parent_field
        if ft.is_mf(self.field_spec(name).type):
            index = next(i for i, n in enumerate(self._values[name]) if n is child)
            self.remove(name, index)
        else:
            self.set(name, None)

    def child_nodes(self) -> Iterator[tuple[str, int, BaseNode]]:
        for name, value in self._values.items():
            ftype = self.spec.fields[name].type  # type: ignore[union-attr]
            if ftype == "SFNode":
                if value is not None:
                    yield name, 0, value
            elif ftype == "MFNode":
                for i, child in enumerate(value):
                    yield name, i, child

    def copy(self) -> Node:
        """Deep copy (detached; DEF names kept; USE nodes inside re-pointed to the copies)."""
        return copy_node(self)  # type: ignore[return-value]

    def __repr__(self) -> str:
        return f"<Node {self.label()}>"


class UseNode(BaseNode):
    """``USE name``: a reference to a DEF'd node, sharing its content as Webots does.

    Reading fields reads the DEF node; fields cannot be set through a USE.
    """

    is_use = True

    def __init__(self, target: BaseNode) -> None:
        if target.def_name is None:
            raise StructureError(f"cannot USE {target.label()}: it has no DEF name")
        if target.is_use:
            target = target.target  # type: ignore[attr-defined]
        if use_forbidden(target.type_name):
            raise StructureError(f"USE of {target.type_name} nodes is not allowed")
        super().__init__(target.type_name)
        self.target = target

    @property
    def def_name(self) -> str | None:  # type: ignore[override]
        """The name written after USE (the target's current DEF name)."""
        return self.target.def_name

    @def_name.setter
    def def_name(self, name: str | None) -> None:
        raise StructureError("a USE node has no DEF name of its own; rename the DEF node")

    def get(self, name: str) -> Any:
        """Value of field ``name`` of the DEF node."""
        return self.target.get(name)  # type: ignore[attr-defined]

    def set(self, name: str, value: Any) -> None:
        """Always an error: edit the DEF node instead."""
        raise StructureError(f"cannot edit 'USE {self.def_name}': edit the DEF node instead")

    def label(self) -> str:
        return f"USE {self.def_name}"

    def __repr__(self) -> str:
        return f"<UseNode {self.def_name} -> {self.target.type_name}>"


class OpaqueNode(BaseNode):
    """An unknown node or PROTO instance kept as source text and written back unchanged.

    ``text`` runs from the type name to the closing brace; lines after the first
    are stored relative to the indentation of the line where the node started,
    and the writer indents them to the node's depth.
    """

    is_opaque = True

    def __init__(self, type_name: str, text: str, def_name: str | None = None) -> None:
        super().__init__(type_name)
        if def_name is not None:
            check_def_name(def_name)
        self._def_name = def_name
        self.text = text

    def __repr__(self) -> str:
        return f"<OpaqueNode {self.label()}>"


def copy_node(node: BaseNode) -> BaseNode:
    """Deep copy of ``node`` and its sub-tree, detached from any world.

    USE nodes whose DEF node is inside the copied sub-tree point to the copy;
    others keep pointing to the original DEF node.
    """
    mapping: dict[int, BaseNode] = {}
    return _copy(node, mapping)


def _copy(node: BaseNode, mapping: dict[int, BaseNode]) -> BaseNode:
    if isinstance(node, UseNode):
        target = mapping.get(id(node.target), node.target)
        return UseNode(target)
    if isinstance(node, OpaqueNode):
        result: BaseNode = OpaqueNode(node.type_name, node.text, node.def_name)
        mapping[id(node)] = result
        return result
    assert isinstance(node, Node)
    new = Node(node.type_name, node.def_name)
    new.hidden = list(node.hidden)
    new.unknown_fields = list(node.unknown_fields)
    mapping[id(node)] = new
    for name, spec in node.spec.fields.items():  # type: ignore[union-attr]
        value = node.get(name)
        if spec.type == "SFNode":
            if value is not None:
                new.set(name, _copy(value, mapping))
        elif spec.type == "MFNode":
            new.set(name, [_copy(child, mapping) for child in value])
        else:
            new._values[name] = value  # already checked and immutable
    return new


class Field:
    """A view of one field of a `Node` (reads and writes go to the node)."""

    def __init__(self, node: Node, name: str) -> None:
        self.node = node
        self.name = name
        self.spec = node.field_spec(name)

    @property
    def type(self) -> str:
        """The field type name, e.g. ``SFVec3f``."""
        return self.spec.type

    @property
    def is_mf(self) -> bool:
        """True for MF fields."""
        return ft.is_mf(self.spec.type)

    @property
    def value(self) -> Any:
        """The current value (MF: a tuple)."""
        return self.node.get(self.name)

    @value.setter
    def value(self, value: Any) -> None:
        self.node.set(self.name, value)

    @property
    def default(self) -> Any:
        """Webots' default value."""
        return self.spec.default

    @property
    def is_default(self) -> bool:
        """True if the value equals the default."""
        return self.node.is_default(self.name)

    def set(self, value: Any) -> None:
        """Same as ``node.set(name, value)``."""
        self.node.set(self.name, value)

    def get(self) -> Any:
        """Same as ``node.get(name)``."""
        return self.node.get(self.name)

    def reset(self) -> None:
        """Back to the default value."""
        self.node.reset(self.name)

    def insert(self, index: int, value: Any) -> None:
        """MF only: insert an item."""
        self.node.insert(self.name, index, value)

    def append(self, value: Any) -> None:
        """MF only: append an item."""
        self.node.append(self.name, value)

    def remove(self, index: int) -> Any:
        """MF only: remove and return item ``index``."""
        return self.node.remove(self.name, index)

    def __len__(self) -> int:
        value = self.value
        return len(value) if self.is_mf else 1

    def __getitem__(self, index: int) -> Any:
        if not self.is_mf:
            raise TypeError(f"field '{self.name}' is not an MF field")
        return self.value[index]

    def __iter__(self) -> Iterator[Any]:
        return iter(self.value if self.is_mf else (self.value,))

    def __repr__(self) -> str:
        return f"<Field {self.node.type_name}.{self.name} = {self.value!r}>"
