"""`NodePickerDialog`: choose a node type (or a USE of a DEF node, or NULL).

Lists only what is legal at the position: the field's allowed types (or
ROOT_NODE_TYPES at the top level), then ``USE NAME`` entries.
"""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QVBoxLayout,
    QWidget,
)

from engine.world import BaseNode

NULL_CHOICE = ("null", None)


class NodePickerDialog(QDialog):
    """Pick one of ``types``, ``USE`` of one of ``uses``, or NULL (``allow_null``).

    After ``exec()`` returns Accepted, `choice` is ``("type", name)``,
    ``("use", node)`` or ``("null", None)``.
    """

    def __init__(self, types: Sequence[str], uses: Sequence[BaseNode] = (),
                 allow_null: bool = False, title: str = "Add a node",
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(title)
        layout = QVBoxLayout(self)
        layout.addWidget(QLabel("Nodes allowed at this position:", self))
        self.list = QListWidget(self)
        layout.addWidget(self.list)
        entries: list[tuple[str, tuple]] = []
        if allow_null:
            entries.append(("NULL", NULL_CHOICE))
        entries += [(t, ("type", t)) for t in types]
        entries += [(f"USE {n.def_name} ({n.type_name})", ("use", n)) for n in uses]
        for text, data in entries:
            item = QListWidgetItem(text, self.list)
            item.setData(Qt.ItemDataRole.UserRole, data)
        self.buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel, self)
        layout.addWidget(self.buttons)
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        self.list.itemDoubleClicked.connect(lambda _item: self.accept())
        self.list.currentRowChanged.connect(self._update)
        if self.list.count():
            self.list.setCurrentRow(0)
        self._update()

    def _update(self) -> None:
        ok = self.buttons.button(QDialogButtonBox.StandardButton.Ok)
        ok.setEnabled(self.list.currentItem() is not None)

    def entries(self) -> list[str]:
        """The texts listed, in order."""
        return [self.list.item(i).text() for i in range(self.list.count())]

    def select(self, text: str) -> None:
        """Select the entry whose text is ``text``."""
        for i in range(self.list.count()):
            if self.list.item(i).text() == text:
                self.list.setCurrentRow(i)
                return
        raise KeyError(text)

    @property
    def choice(self) -> tuple[str, object] | None:
        """The selected entry as ``(kind, value)``."""
        item = self.list.currentItem()
        return None if item is None else item.data(Qt.ItemDataRole.UserRole)


def pick_node(parent: QWidget | None, types: Sequence[str], uses: Sequence[BaseNode] = (),
              allow_null: bool = False) -> tuple[str, object] | None:
    """Run a modal `NodePickerDialog`; the choice, or None when cancelled."""
    dialog = NodePickerDialog(types, uses, allow_null, parent=parent)
    return dialog.choice if dialog.exec() == QDialog.DialogCode.Accepted else None
