"""Editors of MF fields and node fields: item list with add/remove/move.

`MFEditor` edits a non-node MF field: a list of items, buttons Add (after the
selected item, copying it, or a default item), Remove, Up, Down, and an SF
editor for the selected item. Every change emits ``edited(new_tuple, merge)``.
`NodeListEditor` shows an MFNode field; it only asks for add/remove and emits
reorders as new tuples. `NodeFieldEditor` shows an SFNode field.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Signal
from PySide6.QtWidgets import (
    QHBoxLayout,
    QLabel,
    QListWidget,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from app.scene_tree.editors import NEW_ITEM, make_sf_editor
from app.scene_tree.items import format_sf, node_label


class _ListBase(QWidget):
    """A list of items with Add/Remove/Up/Down buttons."""

    edited = Signal(object, bool)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._value: tuple = ()
        self._want_row: int | None = None  # row to select when the edited value comes back
        self.layout_ = QVBoxLayout(self)
        self.layout_.setContentsMargins(0, 0, 0, 0)
        self.list = QListWidget(self)
        self.layout_.addWidget(self.list)
        row = QHBoxLayout()
        self.buttons: dict[str, QPushButton] = {}
        for name in ("Add", "Remove", "Up", "Down"):
            button = QPushButton(name, self)
            row.addWidget(button)
            self.buttons[name] = button
        self.layout_.addLayout(row)
        self.buttons["Up"].clicked.connect(lambda: self._move(-1))
        self.buttons["Down"].clicked.connect(lambda: self._move(1))

    @property
    def value(self) -> tuple:
        """The tuple shown."""
        return self._value

    def set_value(self, value: tuple, current: int | None = None) -> None:
        """Show ``value`` keeping (or setting) the selected row; no signal."""
        row = self.list.currentRow() if current is None else current
        if self._want_row is not None:
            row, self._want_row = self._want_row, None
        self._value = tuple(value)
        self.list.blockSignals(True)
        self.list.clear()
        self.list.addItems([self._text(v) for v in self._value])
        self.list.setCurrentRow(min(row, len(self._value) - 1) if self._value else -1)
        self.list.blockSignals(False)
        self._selected(self.list.currentRow())

    def _text(self, item: Any) -> str:
        return str(item)

    def _selected(self, row: int) -> None:
        """Hook: the selected row changed."""

    def _move(self, step: int) -> None:
        row = self.list.currentRow()
        target = row + step
        if row < 0 or not 0 <= target < len(self._value):
            return
        items = list(self._value)
        items[row], items[target] = items[target], items[row]
        self._want_row = target
        self.edited.emit(tuple(items), False)


class MFEditor(_ListBase):
    """A non-node MF field (MFFloat, MFVec3f, MFString, ...)."""

    def __init__(self, type_name: str, choices: Any = None,
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.sf_type = "SF" + type_name[2:]
        self.item_editor = make_sf_editor(self.sf_type, choices, parent=self)
        self.layout_.insertWidget(1, self.item_editor)
        self.list.currentRowChanged.connect(self._selected)
        self.item_editor.edited.connect(self._item_edited)
        self.buttons["Add"].clicked.connect(self.add_item)
        self.buttons["Remove"].clicked.connect(self.remove_item)

    def _text(self, item: Any) -> str:
        return format_sf(self.sf_type, item)

    def _selected(self, row: int) -> None:
        self.item_editor.setEnabled(row >= 0)
        if row >= 0:
            self.item_editor.set_value(self._value[row])

    def _item_edited(self, item: Any, merge: bool) -> None:
        row = self.list.currentRow()
        if row >= 0:
            items = list(self._value)
            items[row] = item
            self.edited.emit(tuple(items), merge)

    def add_item(self) -> None:
        """Insert a copy of the selected item after it (or a default item at the end)."""
        row = self.list.currentRow()
        items = list(self._value)
        new = items[row] if row >= 0 else NEW_ITEM[self.sf_type]
        items.insert(row + 1 if row >= 0 else len(items), new)
        self._want_row = row + 1 if row >= 0 else len(items) - 1
        self.edited.emit(tuple(items), False)

    def remove_item(self) -> None:
        """Remove the selected item."""
        row = self.list.currentRow()
        if row >= 0:
            items = list(self._value)
            del items[row]
            self.edited.emit(tuple(items), False)


class NodeListEditor(_ListBase):
    """An MFNode field: Add asks for a node, Remove deletes the selected node."""

    add_requested = Signal()
    remove_requested = Signal(object)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.buttons["Add"].setText("Add...")
        self.buttons["Add"].clicked.connect(self.add_requested)
        self.buttons["Remove"].clicked.connect(self._remove)

    def _text(self, item: Any) -> str:
        return node_label(item)

    def _remove(self) -> None:
        row = self.list.currentRow()
        if row >= 0:
            self.remove_requested.emit(self._value[row])


class NodeFieldEditor(QWidget):
    """An SFNode field: the node shown, Select... (node picker) and NULL (clear)."""

    pick_requested = Signal()
    clear_requested = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        layout = QHBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        self.label = QLabel(self)
        self.select_button = QPushButton("Select...", self)
        self.null_button = QPushButton("NULL", self)
        for widget in (self.label, self.select_button, self.null_button):
            layout.addWidget(widget)
        self.select_button.clicked.connect(self.pick_requested)
        self.null_button.clicked.connect(self.clear_requested)

    def set_value(self, node: Any) -> None:
        """Show the field's node (or NULL)."""
        self.label.setText(format_sf("SFNode", node))
        self.null_button.setEnabled(node is not None)
