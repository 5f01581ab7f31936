"""`FieldEditorPanel`: the editor below the tree for the selected row (as in Webots).

A field row gets the editor of its type, an MF item row the MF editor with
that item selected, a node row a DEF-name editor (and, for WorldInfo and
Solids, the robust contact model's editors of app/scene_tree/robust_editors.py).
The string fields of `SELECT_DIALOGS` (WorldInfo.physics, Robot.controller)
get a Select... button opening their dialog; its Edit button is forwarded
(``edit_plugin_requested`` / ``edit_controller_requested``).
Edits go to the `SceneTreeController`; rejected values leave the world
unchanged, the editor shows the current value again and the message appears
in red.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QModelIndex, Signal
from PySide6.QtWidgets import QDialog, QLabel, QLineEdit, QVBoxLayout, QWidget

from app.scene_tree.controller import SceneTreeController
from app.scene_tree.controller_dialog import ControllerSelectDialog
from app.scene_tree.editors import make_sf_editor
from app.scene_tree.items import FieldItem, Item, NodeItem, ValueItem
from app.scene_tree.mf_editor import MFEditor, NodeFieldEditor, NodeListEditor
from app.scene_tree.model import SceneTreeModel
from app.scene_tree.node_picker import pick_node
from app.scene_tree.plugin_dialog import NameSelectDialog, PluginSelectDialog
from app.scene_tree.robust_editors import RobustEditor, robust_editor_for
from engine.world import DEF_FIELD, BaseNode, Node, UseNode, WorldError

#: ``select(panel, field item)``: runs a field's Select... dialog
SelectAction = Callable[["FieldEditorPanel", FieldItem], None]
#: (node type the field belongs to, field) -> what its Select... button does
SELECT_DIALOGS: dict[tuple[str, str], SelectAction] = {
    ("WorldInfo", "physics"): lambda panel, field: panel.select_plugin(field),
    ("Robot", "controller"): lambda panel, field: panel.select_controller(field),
}


def select_action(node: BaseNode, field: str) -> SelectAction | None:
    """The `SELECT_DIALOGS` entry of ``node.field`` (None: the field has none)."""
    for (type_name, name), select in SELECT_DIALOGS.items():
        if name == field and node.is_a(type_name):
            return select
    return None


class FieldEditorPanel(QWidget):
    """Shows and edits the selected field, MF item or node."""

    edit_plugin_requested = Signal(str)
    edit_controller_requested = Signal(str)

    def __init__(self, controller: SceneTreeController, model: SceneTreeModel,
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.controller = controller
        self.model = model
        #: node chooser ``(parent, types, uses, allow_null) -> choice | None`` (tests replace it)
        self.pick_node = pick_node
        self.item: Item | None = None
        self.editor: QWidget | None = None
        self.robust_editor: RobustEditor | None = None  # under a WorldInfo or Solid row
        self._usual_min_height: int | None = None  # set by the dock before the first item
        layout = QVBoxLayout(self)
        self.title = QLabel(self)
        self.error = QLabel(self)
        self.error.setStyleSheet("color: #c00000;")
        self.error.setWordWrap(True)
        layout.addWidget(self.title)
        self.body = QVBoxLayout()
        layout.addLayout(self.body)
        layout.addWidget(self.error)
        layout.addStretch(1)
        controller.error_occurred.connect(self.show_error)
        for signal in (model.changed, model.modelReset):  # once per batch of changes
            signal.connect(self._model_changed)

    # --------------------------------------------------------- messages
    def show_error(self, message: str) -> None:
        """Show an error message and the current (unchanged) value."""
        self.error.setText(message)
        self.refresh()

    # -------------------------------------------------------- selection
    def show_item(self, item: Item | None) -> None:
        """Edit ``item`` (a FieldItem, ValueItem or NodeItem; None clears)."""
        if self.editor is not None:
            self.editor.setParent(None)  # type: ignore[call-overload]
            self.editor.deleteLater()
            self.editor = None
        if self.robust_editor is not None:
            self.body.removeWidget(self.robust_editor)
            self.robust_editor.hide()
            self.robust_editor.deleteLater()
            self.robust_editor = None
        self.item = item
        self.error.clear()
        self.title.clear()
        field = item.field_item if isinstance(item, ValueItem) else item
        if isinstance(field, FieldItem):
            self.title.setText(f"{field.node.label()}  {field.type} {field.name}")
            self.editor = self._field_editor(field)
        elif isinstance(item, NodeItem):
            self.title.setText(item.node.path())
            self.editor = self._node_editor(item)
            self.robust_editor = robust_editor_for(item.node, self.controller, self)
        for widget in (self.editor, self.robust_editor):
            if widget is not None:
                self.body.addWidget(widget)
        self._fit_robust_editor()
        self.refresh()

    def _fit_robust_editor(self) -> None:
        """The robust editors are tall: while one shows, the panel asks the dock's
        splitter for the room its widgets need (else its usual minimum height)."""
        if self._usual_min_height is None:
            self._usual_min_height = self.minimumHeight()
        needed = self._usual_min_height
        if self.robust_editor is not None:
            for widget in (self.editor, self.robust_editor):
                if widget is not None:
                    widget.show()  # now, so that the layout counts it
            self.layout().activate()
            needed = max(needed, self.layout().minimumSize().height())
        self.setMinimumHeight(needed)

    def _field_editor(self, field: FieldItem) -> QWidget | None:
        node, name = field.node, field.name
        if node.is_use:
            return None
        choices = node.spec.fields[name].choices  # type: ignore[union-attr]
        if field.type == "SFNode":
            editor = NodeFieldEditor(self)
            editor.pick_requested.connect(lambda: self._pick_sf_node(field))
            editor.clear_requested.connect(lambda: self._set(field, None, False))
        elif field.type == "MFNode":
            editor = NodeListEditor(self)
            editor.add_requested.connect(lambda: self._add_mf_node(field))
            editor.remove_requested.connect(self.controller.remove_node)
            editor.edited.connect(lambda v, m: self._set(field, v, m))
        elif field.type.startswith("MF"):
            editor = MFEditor(field.type, choices, self)
            editor.edited.connect(lambda v, m: self._set(field, v, m))
        else:
            select = select_action(node, name)
            editor = make_sf_editor(field.type, choices, select is not None, self)
            editor.edited.connect(lambda v, m: self._set(field, v, m))
            if select is not None:
                editor.select_requested.connect(lambda: select(self, field))
        return editor

    def _node_editor(self, item: NodeItem) -> QWidget | None:
        if item.node.is_use:
            return QLabel(f"USE of {item.node.target.path()}", self)  # type: ignore[attr-defined]
        editor = QLineEdit(self)
        editor.setPlaceholderText("DEF name")
        editor.editingFinished.connect(lambda: self._rename(item, editor.text().strip()))
        return editor

    # ------------------------------------------------------------ edits
    def _set(self, field: FieldItem, value: Any, merge: bool) -> None:
        if self.controller.set_field(field.node, field.name, value, merge):
            self.error.clear()
        self.refresh()

    def _rename(self, item: NodeItem, text: str) -> None:
        name = text or None
        if name != item.node.def_name:
            self.controller.set_field(item.node, DEF_FIELD, name)
            self.refresh()

    def _pick_sf_node(self, field: FieldItem) -> None:
        types = self.controller.legal_types(field.node, field.name)
        uses = self.controller.use_candidates(field.node, field.name)
        choice = self.pick_node(self, types, uses, True)
        if choice is None:
            return
        kind, value = choice
        try:
            node = None if kind == "null" else Node(value) if kind == "type" else UseNode(value)
        except WorldError as exc:
            self.show_error(str(exc))
            return
        self._set(field, node, False)

    def _add_mf_node(self, field: FieldItem) -> None:
        types = self.controller.legal_types(field.node, field.name)
        uses = self.controller.use_candidates(field.node, field.name)
        choice = self.pick_node(self, types, uses, False)
        if choice is None:
            return
        if choice[0] == "use":
            self.controller.add_use(field, choice[1])  # type: ignore[arg-type]
        else:
            self.controller.add_node(field, choice[1])  # type: ignore[arg-type]

    def plugin_dialog(self, field: FieldItem) -> PluginSelectDialog:
        """The Select... dialog for WorldInfo.physics (its Edit button is forwarded)."""
        dialog = PluginSelectDialog(self.controller.world_path, field.value, parent=self)
        dialog.edit_requested.connect(self.edit_plugin_requested)
        return dialog

    def controller_dialog(self, field: FieldItem) -> ControllerSelectDialog:
        """The Select... dialog for Robot.controller (its Edit button is forwarded)."""
        dialog = ControllerSelectDialog(self.controller.world_path, field.value, parent=self)
        dialog.edit_requested.connect(self.edit_controller_requested)
        return dialog

    def select_plugin(self, field: FieldItem, dialog: PluginSelectDialog | None = None) -> None:
        """Run the Select... dialog; OK sets WorldInfo.physics (undoable)."""
        self.select_value(field, dialog or self.plugin_dialog(field))

    def select_controller(self, field: FieldItem,
                          dialog: ControllerSelectDialog | None = None) -> None:
        """Run the Select... dialog; OK sets Robot.controller (undoable)."""
        self.select_value(field, dialog or self.controller_dialog(field))

    def select_value(self, field: FieldItem, dialog: NameSelectDialog) -> None:
        """Run a Select... ``dialog``; OK sets ``field`` to the chosen name (undoable)."""
        if dialog.exec() == QDialog.DialogCode.Accepted:
            self._set(field, dialog.selected, False)

    # ---------------------------------------------------------- refresh
    def _attached(self, item: Item | None) -> bool:
        while item is not None and item.parent is not None:
            if item not in item.parent.children:
                return False
            item = item.parent
        return item is not None and item is self.model.item(QModelIndex())

    def _model_changed(self, *args: object) -> None:
        if self.item is not None and not self._attached(self.item):
            self.show_item(None)
        else:
            self.refresh()

    def refresh(self) -> None:
        """Show the current value of the edited field in the editor."""
        if self.robust_editor is not None:
            self.robust_editor.refresh()
        item, editor = self.item, self.editor
        if item is None or editor is None:
            return
        if isinstance(item, NodeItem) and isinstance(editor, QLineEdit):
            if not editor.hasFocus() or editor.text() == (item.node.def_name or ""):
                editor.setText(item.node.def_name or "")
            return
        field = item.field_item if isinstance(item, ValueItem) else item
        if not isinstance(field, FieldItem):
            return
        if isinstance(editor, MFEditor | NodeListEditor):
            row = item.row() if isinstance(item, ValueItem) else None
            editor.set_value(field.value, row)
            if isinstance(item, ValueItem):
                self.item = field  # keep following list edits, not the first item row
        elif hasattr(editor, "set_value"):
            editor.set_value(field.value)
