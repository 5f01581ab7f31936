"""`SceneTreeDock`: the scene tree dock of the main window.

A tree view over `SceneTreeModel`, a tool bar (add, delete, copy, paste,
reset to default, undo, redo), a context menu with the same actions and the
`FieldEditorPanel` below. The main window calls `set_world` after loading
and routes edits through its `EditSink`; moving Solids' poses arrive as the
world's field notifications (the engine writes them at every step).
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QItemSelectionModel, QPoint, Qt, Signal
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import (
    QDockWidget,
    QMenu,
    QSplitter,
    QToolBar,
    QTreeView,
    QVBoxLayout,
    QWidget,
)

from app.scene_tree.controller import SceneTreeController
from app.scene_tree.edits import EditSink
from app.scene_tree.items import FieldItem, Item, NodeItem, ValueItem
from app.scene_tree.model import SceneTreeModel
from app.scene_tree.panel import FieldEditorPanel
from engine.world import BaseNode, World


class SceneTreeDock(QDockWidget):
    """Scene tree + field editor panel; edits are undoable (`undo_stack`)."""

    #: the WorldInfo.physics Select dialog's Edit button: open this plugin's source
    edit_plugin_requested = Signal(str)
    #: the Robot.controller Select dialog's Edit button: open this controller's source
    edit_controller_requested = Signal(str)
    #: an edit was refused (message); also shown in the panel
    error_occurred = Signal(str)
    #: the selected node (None when no node row or field of a node is selected)
    node_selected = Signal(object)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__("Scene Tree", parent)
        self.setObjectName("SceneTreeDock")
        self.model = SceneTreeModel(self)
        self.controller = SceneTreeController(self)
        self.undo_stack = self.controller.undo_stack
        self.view = QTreeView(self)
        self.view.setModel(self.model)
        self.view.setUniformRowHeights(True)
        self.view.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        self.view.header().resizeSection(0, 220)
        self.panel = FieldEditorPanel(self.controller, self.model, self)
        self.toolbar = QToolBar(self)
        self.actions_: dict[str, QAction] = {}
        self._make_actions()
        splitter = QSplitter(Qt.Orientation.Vertical, self)
        splitter.addWidget(self.view)
        splitter.addWidget(self.panel)
        splitter.setStretchFactor(0, 3)
        splitter.setStretchFactor(1, 1)
        splitter.setCollapsible(1, False)
        self.panel.setMinimumHeight(160)
        splitter.setSizes([520, 200])
        body = QWidget(self)
        layout = QVBoxLayout(body)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.toolbar)
        layout.addWidget(splitter)
        self.setWidget(body)
        self.view.selectionModel().currentChanged.connect(self._current_changed)
        self._expanded: dict[int, Item] = {}  # the items whose rows are expanded, by id()
        self.view.expanded.connect(self._on_expanded)
        self.view.collapsed.connect(
            lambda index: self._expanded.pop(id(self.model.item(index)), None))
        self.model.modelReset.connect(self._expanded.clear)
        self.model.is_watched = self._is_watched
        self.model.shown_items = self._shown_items
        self.view.customContextMenuRequested.connect(self._context_menu)
        self.controller.error_occurred.connect(self.error_occurred)
        self.panel.edit_plugin_requested.connect(self.edit_plugin_requested)
        self.panel.edit_controller_requested.connect(self.edit_controller_requested)

    def _make_actions(self) -> None:
        specs = [
            ("add", "Add Node...", QKeySequence("Ctrl+Shift+A"), self.add_node),
            ("delete", "Delete", QKeySequence(QKeySequence.StandardKey.Delete), self.delete),
            ("copy", "Copy", QKeySequence(QKeySequence.StandardKey.Copy), self.copy),
            ("paste", "Paste", QKeySequence(QKeySequence.StandardKey.Paste), self.paste),
            ("reset", "Reset to Default", QKeySequence(), self.reset_field),
        ]
        for key, text, shortcut, slot in specs:
            action = QAction(text, self)
            action.setShortcut(shortcut)
            action.setShortcutContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
            action.triggered.connect(slot)
            self.view.addAction(action)
            self.toolbar.addAction(action)
            self.actions_[key] = action
        self.undo_action = self.undo_stack.createUndoAction(self, "Undo")
        self.undo_action.setShortcut(QKeySequence.StandardKey.Undo)
        self.redo_action = self.undo_stack.createRedoAction(self, "Redo")
        self.redo_action.setShortcut(QKeySequence.StandardKey.Redo)
        self.toolbar.addSeparator()
        self.toolbar.addAction(self.undo_action)
        self.toolbar.addAction(self.redo_action)

    # ------------------------------------------------------ main window API
    def set_world(self, world: World | None, sink: EditSink | None = None,
                  world_path: str | None = None) -> None:
        """Show and edit ``world``; edits go to ``sink`` (default: applied at once)."""
        self.panel.show_item(None)
        self.model.set_world(world)
        self.controller.set_world(world, sink, world_path)

    def report_error(self, message: str) -> None:
        """Show an error coming from the sink after the fact (e.g. from the engine thread)."""
        self.controller.report_error(message)

    def select_node(self, node: BaseNode) -> None:
        """Select ``node``'s row (e.g. after picking in the 3D view)."""
        index = self.model.node_index(node)
        if index.isValid():
            self.view.scrollTo(index)
            self.view.selectionModel().setCurrentIndex(
                index, QItemSelectionModel.SelectionFlag.ClearAndSelect
                | QItemSelectionModel.SelectionFlag.Rows)

    def current_item(self) -> Item | None:
        """The mirror item of the current row (None when nothing is selected)."""
        index = self.view.currentIndex()
        return self.model.item(index) if index.isValid() else None

    def current_node(self) -> BaseNode | None:
        """The selected node, or the node owning the selected field."""
        item = self.current_item()
        while item is not None and not isinstance(item, NodeItem):
            item = item.parent
        return item.node if isinstance(item, NodeItem) else None

    # ------------------------------------------------------------ actions
    def add_node(self) -> bool:
        """Ask for a node legal at the selected position and add it."""
        item = self.current_item()
        try:
            parent, field, _ = self.controller.insertion_point(item)
        except ValueError as exc:
            self.controller.report_error(str(exc))
            return False
        types = self.controller.legal_types(parent, field)
        uses = self.controller.use_candidates(parent, field)
        choice = self.panel.pick_node(self, types, uses, False)
        if choice is None:
            return False
        if choice[0] == "use":
            return self.controller.add_use(item, choice[1])  # type: ignore[arg-type]
        return self.controller.add_node(item, choice[1])  # type: ignore[arg-type]

    def delete(self) -> bool:
        """Delete the selected node."""
        item = self.current_item()
        if not isinstance(item, NodeItem):
            self.controller.report_error("select a node to delete")
            return False
        return self.controller.remove_node(item.node)

    def copy(self) -> bool:
        """Copy the selected node to the clipboard."""
        item = self.current_item()
        if not isinstance(item, NodeItem):
            self.controller.report_error("select a node to copy")
            return False
        self.controller.copy(item.node)
        return True

    def paste(self) -> bool:
        """Paste the clipboard at the selected position (if legal there)."""
        return self.controller.paste(self.current_item())

    def reset_field(self) -> bool:
        """Set the selected field back to Webots' default (undoable)."""
        item = self.current_item()
        if isinstance(item, ValueItem):
            item = item.field_item
        if not isinstance(item, FieldItem) or item.type.endswith("Node"):
            self.controller.report_error("select a value field to reset")
            return False
        default = item.node.spec.fields[item.name].default  # type: ignore[union-attr]
        return self.controller.set_field(item.node, item.name, default)

    # ------------------------------------------------------------- view
    def _is_watched(self, item: Item) -> bool:
        """Whether the tree or the panel may show ``item``: a top-level row, a row of
        an expanded item, or the panel's item (and the field row of its MF item)."""
        parent = item.parent
        if parent is None or parent.parent is None or id(parent) in self._expanded:
            return True
        shown = self.panel.item
        return item is shown or (isinstance(shown, ValueItem) and item is shown.field_item)

    def _shown_items(self) -> list[Item]:
        """The expanded items and the panel's item (`SceneTreeModel.shown_items`)."""
        shown = list(self._expanded.values())
        if self.panel.item is not None:
            shown.append(self.panel.item)
        return shown

    def _on_expanded(self, index: Any) -> None:
        item = self.model.item(index)
        if item is not None:
            self._expanded[id(item)] = item

    def _current_changed(self, current: Any, _previous: Any) -> None:
        self.panel.show_item(self.model.item(current) if current.isValid() else None)
        self.node_selected.emit(self.current_node())

    def _context_menu(self, pos: QPoint) -> None:
        menu = QMenu(self)
        for action in self.actions_.values():
            menu.addAction(action)
        menu.addSeparator()
        menu.addAction(self.undo_action)
        menu.addAction(self.redo_action)
        menu.exec(self.view.viewport().mapToGlobal(pos))
