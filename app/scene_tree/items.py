"""The model's mirror of the world tree and the text shown for values.

The model never walks the world while Qt asks it questions: it keeps this
mirror (built in the GUI thread, updated from queued notifications), so row
counts stay consistent even while the engine thread changes the world.
The exception are the pose fields (`PULLED_FIELDS`), which change for every
moving Solid at every step (read from the simulation's pose feed, or written
by the engine thread): their rows (`PulledFieldItem`) read the node's current
value (one immutable tuple: no row structure depends on it) and the model
tells the views about changes of the rows they show on a timer
(`SceneTreeModel.pull`) instead of being notified.
"""

from __future__ import annotations

from typing import Any

from engine.world import BaseNode

FLOAT_DECIMALS = 4  # the scene tree's display precision (Webots shows few digits)


def format_number(value: float) -> str:
    """A short text for a float: 4 decimals at most, trailing zeros dropped."""
    if abs(value) < 1e-10:  # rounding noise of pose conversions
        return "0"
    if abs(value) < 10.0 ** -FLOAT_DECIMALS:
        return f"{value:.3g}"
    text = f"{value:.{FLOAT_DECIMALS}f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


def format_sf(type_name: str, value: Any) -> str:
    """Display text of one SF value."""
    if type_name == "SFBool":
        return "TRUE" if value else "FALSE"
    if type_name == "SFInt32":
        return str(value)
    if type_name == "SFFloat":
        return format_number(value)
    if type_name in ("SFVec2f", "SFVec3f", "SFColor", "SFRotation"):
        return " ".join(format_number(v) for v in value)
    if type_name == "SFString":
        return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'
    if type_name == "SFNode":
        return "NULL" if value is None else node_label(value)
    return str(value)


def node_label(node: BaseNode) -> str:
    """Column-0 text of a node row: ``DEF NAME Type``, ``USE NAME`` or ``Type``."""
    if node.is_use:
        return f"USE {node.def_name}"
    prefix = f"DEF {node.def_name} " if node.def_name else ""
    suffix = " (PROTO)" if node.is_opaque else ""
    return f"{prefix}{node.type_name}{suffix}"


class Item:
    """A row of the tree: parent link and child rows."""

    kind = "root"

    def __init__(self, parent: Item | None) -> None:
        self.parent = parent
        self.children: list[Item] = []
        self._row = 0  # cached index among the parent's children (checked before use)

    def row(self) -> int:
        """Index of this row among its parent's rows (-1 when not among them).

        Qt asks for it many times per signal; the cached index is used while
        it still points at this item, else every sibling's index is renewed
        (one pass after an insertion or removal)."""
        if self.parent is None:
            return 0
        siblings = self.parent.children
        r = self._row
        if r < len(siblings) and siblings[r] is self:
            return r
        for i, child in enumerate(siblings):
            child._row = i
        r = self._row
        return r if r < len(siblings) and siblings[r] is self else -1


class NodeItem(Item):
    """A node row; its children are the node's fields (none for USE/opaque nodes)."""

    kind = "node"

    def __init__(self, parent: Item | None, node: BaseNode) -> None:
        super().__init__(parent)
        self.node = node
        #: the field rows by name (none for USE and opaque nodes)
        self.fields: dict[str, FieldItem] = {}
        #: the rows of `PULLED_FIELDS` among them
        self.pulled: list[PulledFieldItem] = []


class FieldItem(Item):
    """A field row holding a snapshot of the value (updated from notifications)."""

    kind = "field"

    def __init__(self, parent: NodeItem, name: str, type_name: str, value: Any) -> None:
        super().__init__(parent)
        self.name = name
        self.type = type_name
        self.value = value

    @property
    def node(self) -> BaseNode:
        """The node owning this field."""
        return self.parent.node  # type: ignore[union-attr]


#: Field names whose rows read the node's value (`PulledFieldItem`): the poses a
#: simulation changes at every step (`Node.bind_pose_feed`), when of these types.
PULLED_FIELDS = frozenset({"translation", "rotation"})
_PULLED_TYPES = frozenset({"SFVec3f", "SFRotation"})


def is_pulled(name: str, type_name: str) -> bool:
    """Whether the row of field ``name`` (of type ``type_name``) is a `PulledFieldItem`."""
    return name in PULLED_FIELDS and type_name in _PULLED_TYPES


class PulledFieldItem(FieldItem):
    """A pose field row whose value is the node's current one (module docstring).

    ``shown`` is the value the views were last told about; `refresh` tells
    whether the node's value differs from it (and takes it). Assigning
    ``value`` (a change notified in the GUI thread) only records that the
    views are being told about it: the node holds the value.
    """

    def __init__(self, parent: NodeItem, name: str, type_name: str, value: Any) -> None:
        self.shown = value
        super().__init__(parent, name, type_name, value)

    @property  # type: ignore[override]
    def value(self) -> Any:
        """The node's current value of this field (a tuple, read in one lookup)."""
        return self.node.get(self.name)  # type: ignore[attr-defined]

    @value.setter
    def value(self, new: Any) -> None:
        self.shown = new

    def refresh(self) -> bool:
        """True when the node's value changed since the views were last told (the
        new value then counts as told)."""
        value = self.value
        if value == self.shown:
            return False
        self.shown = value
        return True


class ValueItem(Item):
    """One item of a non-node MF field."""

    kind = "item"

    @property
    def field_item(self) -> FieldItem:
        """The MF field row above this item."""
        return self.parent  # type: ignore[return-value]

    @property
    def value(self) -> Any:
        """This item's value (from the field's snapshot)."""
        return self.field_item.value[self.row()]
