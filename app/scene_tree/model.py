"""`SceneTreeModel`: a Qt item model over an `engine.world.World`.

Rows are nodes (column 0 ``DEF NAME Type``), their fields (column 0 the field
name, column 1 a short value text), node-valued fields expand to their nodes
and non-node MF fields to one row per item. World observers may fire in any
thread: notifications are queued and applied in the GUI thread (at once when
they come from it, else at the next tick of the pull timer: another thread
makes no Qt call), so the mirror in `items.py` always matches what the view
was told. While the simulation runs, the engine thread writes the moving
Solids' translation and rotation at every step: queued changes of the same
field are coalesced (the newest value wins) and drained at most every
``DRAIN_INTERVAL_MS``, so the tree's cost does not grow with the step rate.

Poses are pulled, not pushed: every moving Solid's translation and rotation
change at every step (2000 values per step with 1000 bodies). A simulation
gives them through a pose feed read when asked (`Node.bind_pose_feed`: no
notification at all), and the model's observer drops the changes of those
fields (`items.PULLED_FIELDS`) made in other threads at once, before any
queueing (a Supervisor moving a Solid, edits applied in the engine thread). Their rows
(`PulledFieldItem`) read the node's current value, and every
``PULL_INTERVAL_MS`` `pull` compares the pose rows a view shows (the fields
of the expanded nodes and the field editor's row, ``shown_items``) with what
the views were last told and emits ``dataChanged`` for those that changed:
hidden rows cost nothing, an edit made in the engine thread (the user's, a
reset, a supervisor's) shows like a simulated move.
"""

from __future__ import annotations

import threading
import weakref
from collections.abc import Callable, Iterable, Iterator
from typing import Any

from PySide6.QtCore import (
    QAbstractItemModel,
    QElapsedTimer,
    QModelIndex,
    QObject,
    Qt,
    QThread,
    QTimer,
    Signal,
)

from app.scene_tree.items import (
    PULLED_FIELDS,
    FieldItem,
    Item,
    NodeItem,
    PulledFieldItem,
    ValueItem,
    format_sf,
    is_pulled,
    node_label,
)
from engine.world import DEF_FIELD, BaseNode, World

KIND_ROLE = Qt.ItemDataRole.UserRole + 1
_NO_PARENT = QModelIndex()
#: Shortest time [ms] between two drains of notifications from other threads: the
#: engine writes every moving Solid's pose at every step; the tree shows them at 20 Hz.
DRAIN_INTERVAL_MS = 50
#: Period [ms] of `SceneTreeModel.pull` (the shown pose rows follow the simulation at 20 Hz).
PULL_INTERVAL_MS = 50


class SceneTreeModel(QAbstractItemModel):
    """Two-column tree model (name, value) of a world's nodes and fields."""

    #: emitted once after queued notifications were applied (values or rows changed)
    changed = Signal()

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._world: World | None = None
        self._root = Item(None)
        self._nodes: dict[int, NodeItem] = {}
        #: id(node) -> its row, for the nodes with pulled pose rows (read by the observer)
        self._pulled: dict[int, NodeItem] = {}
        self._lock = threading.Lock()
        self._pending: list[tuple] = []
        self._field_slot: dict[tuple[int, str], int] = {}  # queued field -> its index
        self._structure_pending = False
        self._scheduled = False
        self._since_drain = QElapsedTimer()
        self._since_drain.start()
        self._drain_timer = QTimer(self)
        self._drain_timer.setSingleShot(True)
        self._drain_timer.timeout.connect(self._drain_soon)
        #: ``is_watched(item) -> bool``: whether a view shows ``item`` (None: all are).
        #: Changed values of unwatched rows are stored without ``dataChanged``, so
        #: the engine's pose writes to collapsed Solids cost no view work; a view
        #: reads the stored values when it shows the rows.
        self.is_watched: Callable[[Item], bool] | None = None
        #: ``shown_items() -> items``: the items whose field rows a view shows (expanded
        #: node rows) and rows shown on their own (the field editor's); `pull` refreshes
        #: the pose rows among them and their fields (None: every pose row is shown).
        self.shown_items: Callable[[], Iterable[Item]] | None = None
        self._pull_timer = QTimer(self)
        self._pull_timer.setInterval(PULL_INTERVAL_MS)
        self._pull_timer.timeout.connect(self._pull_due)
        # The world holds these observers, which reach the model through a weak
        # reference: no world <-> model cycle, so the model (and its timer) is never
        # left to the garbage collector, which may run in the engine thread.
        self._field_observer = _pose_dropping_observer(self, self._pulled)
        self._structure_observer = _weak_observer(self, "_on_structure")

    # ------------------------------------------------------------ world
    @property
    def world(self) -> World | None:
        """The world shown (None when empty)."""
        return self._world

    def set_world(self, world: World | None) -> None:
        """Show ``world`` (replacing any previous one; its observers are removed)."""
        if self._world is not None:
            self._world.remove_field_observer(self._field_observer)
            self._world.remove_structure_observer(self._structure_observer)
        self.beginResetModel()
        self._world = world
        self._root = Item(None)
        self._nodes.clear()
        self._pulled.clear()
        with self._lock:
            self._pending.clear()
            self._field_slot.clear()
            self._structure_pending = False
        if world is not None:
            for node in world.nodes:
                self._root.children.append(self._build(self._root, node))
        self.endResetModel()
        if world is not None:
            world.add_field_observer(self._field_observer)
            world.add_structure_observer(self._structure_observer)
            self._pull_timer.start()
        else:
            self._pull_timer.stop()

    def _build(self, parent: Item, node: BaseNode) -> NodeItem:
        item = NodeItem(parent, node)
        self._nodes[id(node)] = item
        if node.is_use or node.is_opaque:
            return item
        for name, spec in node.spec.fields.items():  # type: ignore[union-attr]
            value = node.get(name)  # type: ignore[attr-defined]
            if is_pulled(name, spec.type):
                fitem: FieldItem = PulledFieldItem(item, name, spec.type, value)
                item.pulled.append(fitem)  # type: ignore[arg-type]
            else:
                fitem = FieldItem(item, name, spec.type, value)
            item.children.append(fitem)
            item.fields[name] = fitem
            if spec.type == "SFNode":
                if value is not None:
                    fitem.children.append(self._build(fitem, value))
            elif spec.type == "MFNode":
                fitem.children.extend(self._build(fitem, n) for n in value)
            elif spec.type.startswith("MF"):
                fitem.children.extend(ValueItem(fitem) for _ in value)
        if item.pulled:
            self._pulled[id(node)] = item
        return item

    def _forget(self, item: Item) -> None:
        if isinstance(item, NodeItem) and self._nodes.get(id(item.node)) is item:
            del self._nodes[id(item.node)]
            if self._pulled.get(id(item.node)) is item:
                del self._pulled[id(item.node)]
        for child in item.children:
            self._forget(child)

    # ------------------------------------------------------- Qt interface
    def index(self, row: int, column: int, parent: QModelIndex = _NO_PARENT) -> QModelIndex:
        item = self.item(parent)
        if item is None or not 0 <= row < len(item.children) or not 0 <= column < 2:
            return QModelIndex()
        return self.createIndex(row, column, item.children[row])

    def parent(self, index: QModelIndex = _NO_PARENT) -> QModelIndex:  # type: ignore[override]
        if not index.isValid():
            return QModelIndex()
        item = index.internalPointer()
        if item.parent is None or item.parent is self._root:
            return QModelIndex()
        return self.createIndex(item.parent.row(), 0, item.parent)

    def rowCount(self, parent: QModelIndex = _NO_PARENT) -> int:  # noqa: N802
        if parent.isValid() and parent.column() != 0:
            return 0
        item = self.item(parent)
        return 0 if item is None else len(item.children)

    def columnCount(self, parent: QModelIndex = _NO_PARENT) -> int:  # noqa: N802
        return 2

    def headerData(self, section: int, orientation: Qt.Orientation,  # noqa: N802
                   role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if orientation == Qt.Orientation.Horizontal and role == Qt.ItemDataRole.DisplayRole:
            return ("Node / field", "Value")[section]
        return None

    def flags(self, index: QModelIndex) -> Qt.ItemFlag:
        if not index.isValid():
            return Qt.ItemFlag.NoItemFlags
        return Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable

    def data(self, index: QModelIndex, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid():
            return None
        item = index.internalPointer()
        if role == KIND_ROLE:
            return item.kind
        if role == Qt.ItemDataRole.DisplayRole:
            return self._text(item, index.column())
        if role == Qt.ItemDataRole.ToolTipRole:
            if isinstance(item, FieldItem):
                return f"{item.type} {item.name}"
            if isinstance(item, NodeItem):
                return item.node.path()
        return None

    @staticmethod
    def _text(item: Item, column: int) -> str:
        if isinstance(item, NodeItem):
            if column == 0:
                return node_label(item.node)
            node = item.node
            if not node.is_use and not node.is_opaque and node.is_a("Solid"):
                return format_sf("SFString", node.get("name"))  # type: ignore[attr-defined]
            return ""
        if isinstance(item, FieldItem):
            if column == 0:
                return item.name
            if item.type.startswith("MF"):
                n = len(item.value)
                return f"{n} item" + ("" if n == 1 else "s")
            return format_sf(item.type, item.value)
        if isinstance(item, ValueItem):
            if column == 0:
                return f"[{item.row()}]"
            return format_sf("SF" + item.field_item.type[2:], item.value)
        return ""

    # ----------------------------------------------------------- lookups
    def item(self, index: QModelIndex) -> Item | None:
        """The mirror item of ``index`` (the invisible root for an invalid index)."""
        if not index.isValid():
            return self._root
        return index.internalPointer()

    def index_of(self, item: Item, column: int = 0) -> QModelIndex:
        """The model index of a mirror item."""
        if item is self._root or item.parent is None:
            return QModelIndex()
        return self.createIndex(item.row(), column, item)

    def node_index(self, node: BaseNode) -> QModelIndex:
        """Index of ``node``'s row (invalid if not shown)."""
        item = self._nodes.get(id(node))
        return QModelIndex() if item is None else self.index_of(item)

    def field_index(self, node: BaseNode, name: str) -> QModelIndex:
        """Index of the row of field ``name`` of ``node`` (invalid if not shown)."""
        item = self._nodes.get(id(node))
        fields = {} if item is None else item.fields
        return self.index_of(fields[name]) if name in fields else QModelIndex()

    def field_item(self, node: BaseNode, name: str) -> FieldItem | None:
        """The mirror row of field ``name`` of ``node``."""
        item = self._nodes.get(id(node))
        return None if item is None else item.fields.get(name)

    # ------------------------------------------------- notifications
    def _on_field(self, node: BaseNode, name: str, old: Any, new: Any) -> None:
        self._enqueue(("field", node, name, new))

    def _on_structure(self, event: str, parent: BaseNode | None, name: str | None,
                      index: int, node: BaseNode) -> None:
        if parent is None:  # nested changes arrive as field notifications too
            self._enqueue((event, index, node))

    def _enqueue(self, event: tuple) -> None:
        with self._lock:
            if event[0] == "field":  # a newer value of a queued field replaces it in place
                key = (id(event[1]), event[2])
                slot = self._field_slot.get(key)
                if slot is None:
                    self._field_slot[key] = len(self._pending)
                    self._pending.append(event)
                else:
                    self._pending[slot] = event
            else:  # field changes after a structure change stay after it
                self._pending.append(event)
                self._field_slot.clear()
                self._structure_pending = True
            self._scheduled = True
        if QThread.currentThread() is self.thread():
            self._drain()
        # another thread (the engine's) makes no Qt call: the pull timer's next
        # tick in this thread drains (`_pull_due`); an emit from there could wait
        # for a Qt lock this thread holds while it waits for the GIL

    def _drain_soon(self) -> None:
        """Drain now when a structure change waits or the last drain is old enough,
        else when ``DRAIN_INTERVAL_MS`` has passed since it (GUI thread)."""
        with self._lock:
            urgent = self._structure_pending
        wait = DRAIN_INTERVAL_MS - self._since_drain.elapsed()
        if urgent or wait <= 0:
            self._drain()
        elif not self._drain_timer.isActive():
            self._drain_timer.start(int(wait))

    def flush(self) -> None:
        """Apply every queued notification and pull the shown pose rows now (GUI thread;
        e.g. before reading rows)."""
        self._drain()
        self.pull()

    def _drain(self) -> None:
        """Apply every queued notification (GUI thread)."""
        self._drain_timer.stop()
        self._since_drain.restart()
        with self._lock:
            events, self._pending = self._pending, []
            self._field_slot.clear()
            self._structure_pending = False
            self._scheduled = False
        dirty: dict[int, Item] = {}
        for event in events:
            if event[0] == "field":
                self._apply_field(event[1], event[2], event[3], dirty)
            elif event[0] == "added":
                self._root_added(event[1], event[2])
            else:
                self._root_removed(event[2])
        watched = self.is_watched
        shown = [item for item in dirty.values()
                 if item.parent is not None and (not isinstance(item, NodeItem)
                                                 or self._nodes.get(id(item.node)) is item)
                 and (watched is None or watched(item))]
        self._emit_changed(shown)
        if events:
            self.changed.emit()

    # --------------------------------------------------------- pose pull
    def pull(self) -> int:
        """Emit ``dataChanged`` for the shown pose rows whose node value changed since the
        views were last told (GUI thread; see module docstring); ``changed`` when any
        did. Returns the number of rows changed."""
        shown = self.shown_items
        rows = self._all_pulled() if shown is None else self._pulled_among(shown())
        changed: list[Item] = [row for row in rows if row.refresh()]
        self._emit_changed(changed)
        if changed:
            self.changed.emit()
        return len(changed)

    def _pull_due(self) -> None:
        with self._lock:
            queued = self._scheduled  # by another thread (`_enqueue`)
        if queued:
            self._drain_soon()
        self.pull()  # looked up at each tick (a profiler or bench may wrap it)

    def _all_pulled(self) -> Iterator[PulledFieldItem]:
        for item in self._pulled.values():
            yield from item.pulled

    def _pulled_among(self, items: Iterable[Item]) -> list[PulledFieldItem]:
        """The pose rows of ``items`` (node rows: their pose fields) still in the tree."""
        rows: dict[int, PulledFieldItem] = {}
        for item in items:
            if isinstance(item, NodeItem):
                if self._pulled.get(id(item.node)) is item:
                    rows.update((id(row), row) for row in item.pulled)
            elif isinstance(item, PulledFieldItem):
                owner = item.parent
                if self._pulled.get(id(owner.node)) is owner:  # type: ignore[union-attr]
                    rows[id(item)] = item
        return list(rows.values())

    def _emit_changed(self, items: list[Item]) -> None:
        """One ``dataChanged`` per run of adjacent sibling rows (both columns)."""
        by_parent: dict[int, list[Item]] = {}
        for item in items:
            by_parent.setdefault(id(item.parent), []).append(item)
        for siblings in by_parent.values():
            rows = sorted((item.row(), id(item), item) for item in siblings)
            start = 0
            for k in range(1, len(rows) + 1):
                if k == len(rows) or rows[k][0] != rows[k - 1][0] + 1:
                    self.dataChanged.emit(self.index_of(rows[start][2], 0),
                                          self.index_of(rows[k - 1][2], 1))
                    start = k

    def _root_added(self, index: int, node: BaseNode) -> None:
        if id(node) in self._nodes:
            return
        index = min(index, len(self._root.children))
        self.beginInsertRows(QModelIndex(), index, index)
        self._root.children.insert(index, self._build(self._root, node))
        self.endInsertRows()

    def _root_removed(self, node: BaseNode) -> None:
        item = self._nodes.get(id(node))
        if item is None or item.parent is not self._root:
            return
        row = item.row()
        self.beginRemoveRows(QModelIndex(), row, row)
        del self._root.children[row]
        self._forget(item)
        self.endRemoveRows()

    def _apply_field(self, node: BaseNode, name: str, new: Any, dirty: dict[int, Item]) -> None:
        nitem = self._nodes.get(id(node))
        if nitem is None:
            return
        if name == DEF_FIELD:
            dirty[id(nitem)] = nitem
            for other in self._nodes.values():
                if other.node.is_use and other.node.target is node:  # type: ignore[attr-defined]
                    dirty[id(other)] = other
            return
        fitem = nitem.fields.get(name)
        if fitem is None:
            return
        fitem.value = new
        if fitem.type == "SFNode":
            self._sync_nodes(fitem, () if new is None else (new,))
        elif fitem.type == "MFNode":
            self._sync_nodes(fitem, new)
        elif fitem.type.startswith("MF"):
            self._sync_values(fitem, dirty)
        dirty[id(fitem)] = fitem
        if name == "name":
            dirty[id(nitem)] = nitem

    def _sync_values(self, fitem: FieldItem, dirty: dict[int, Item]) -> None:
        parent, have, want = self.index_of(fitem), len(fitem.children), len(fitem.value)
        if want > have:
            self.beginInsertRows(parent, have, want - 1)
            fitem.children.extend(ValueItem(fitem) for _ in range(want - have))
            self.endInsertRows()
        elif want < have:
            self.beginRemoveRows(parent, want, have - 1)
            del fitem.children[want:]
            self.endRemoveRows()
        for child in fitem.children:
            dirty[id(child)] = child

    def _sync_nodes(self, fitem: FieldItem, nodes: tuple) -> None:
        """Make ``fitem``'s node rows match ``nodes`` with minimal row changes."""
        parent = self.index_of(fitem)
        wanted = {id(n) for n in nodes}
        for row in reversed(range(len(fitem.children))):
            child = fitem.children[row]
            if id(child.node) not in wanted:  # type: ignore[attr-defined]
                self.beginRemoveRows(parent, row, row)
                del fitem.children[row]
                self._forget(child)
                self.endRemoveRows()
        current = [id(c.node) for c in fitem.children]  # type: ignore[attr-defined]
        present = set(current)
        if current != [id(n) for n in nodes if id(n) in present]:  # reordered: rebuild
            if fitem.children:
                self.beginRemoveRows(parent, 0, len(fitem.children) - 1)
                for child in fitem.children:
                    self._forget(child)
                fitem.children.clear()
                self.endRemoveRows()
        for row, node in enumerate(nodes):
            if row < len(fitem.children) and fitem.children[row].node is node:  # type: ignore[attr-defined]
                continue
            self.beginInsertRows(parent, row, row)
            fitem.children.insert(row, self._build(fitem, node))
            self.endInsertRows()


def _pose_dropping_observer(owner: SceneTreeModel,
                            pulled: dict[int, NodeItem]) -> Callable[..., None]:
    """The model's field observer: forwards to ``owner._on_field`` while ``owner`` is
    alive, except the changes of pulled pose fields of the nodes in ``pulled`` made
    outside the model's thread (the engine's writes at every step): those return at
    once, so the engine thread spends a few tests per pose write on the tree."""
    ref = weakref.ref(owner)
    gui_thread = threading.get_ident()
    get_ident = threading.get_ident

    def forward(node: BaseNode, name: str, old: Any, new: Any) -> None:
        if name in PULLED_FIELDS and id(node) in pulled and get_ident() != gui_thread:
            return
        target = ref()
        if target is not None:
            target._on_field(node, name, old, new)

    return forward


def _weak_observer(owner: QObject, method: str) -> Callable[..., None]:
    """A callable forwarding to ``owner.method`` while ``owner`` is alive."""
    ref = weakref.ref(owner)

    def forward(*args: Any) -> None:
        target = ref()
        if target is not None:
            getattr(target, method)(*args)

    return forward
