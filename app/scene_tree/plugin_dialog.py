"""`PluginSelectDialog`: Webots' WorldInfo.physics "Select..." dialog.

Lists ``list_plugins(world_path)`` ("<none>" first, then the plugin folders of
the world's project, the bundled plugins and ODEON_PLUGIN_PATH). Double-click
or OK accepts; the Edit button emits ``edit_requested(name)`` so the main
window opens the plugin source. The scene tree panel's ``select_plugin`` runs
the dialog and sets the field through the controller (undoable). The engine
applies that edit at once (`engine.sim.edits`, kind "plugin"): the current
plugin's cleanup runs, the chosen one is imported and initialised, and the
simulation carries on from its current state; the prompt says so.

`NameSelectDialog` is the dialog without the plugin words: Robot.controller's
Select... dialog (app/scene_tree/controller_dialog.py) is one too.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QLabel,
    QListWidget,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from engine.plugins.discovery import NO_PLUGIN, list_plugins

TITLE = "Physics plugins choice"
PROMPT = ("Please select a plugin from the list.\n"
          "The change applies at once: the current plugin is cleaned up and the\n"
          "chosen one is loaded and initialised; the simulation carries on from\n"
          "where it is (Edit > Undo goes back).")


class NameSelectDialog(QDialog):
    """Choose one of ``names`` (``none`` first: "no program"); the Edit button
    emits ``edit_requested(name)`` for any other name."""

    edit_requested = Signal(str)

    def __init__(self, names: list[str], current: str, none: str, title: str, prompt: str,
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.none = none
        self.setWindowTitle(title)
        layout = QVBoxLayout(self)
        layout.addWidget(QLabel(prompt, self))
        self.list = QListWidget(self)
        layout.addWidget(self.list)
        self.list.addItems([none, *(n for n in names if n != none)])
        self.buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel, self)
        self.edit_button = QPushButton("Edit", self)
        self.buttons.addButton(self.edit_button, QDialogButtonBox.ButtonRole.ActionRole)
        layout.addWidget(self.buttons)
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        self.edit_button.clicked.connect(lambda: self.edit_requested.emit(self.selected))
        self.list.itemDoubleClicked.connect(lambda _item: self.accept())
        self.list.currentRowChanged.connect(self._update)
        items = self.list.findItems(current or none, Qt.MatchFlag.MatchExactly)
        self.list.setCurrentItem(items[0] if items else self.list.item(0))
        self._update()

    def names(self) -> list[str]:
        """The names listed, in order (``none`` first)."""
        return [self.list.item(i).text() for i in range(self.list.count())]

    @property
    def selected(self) -> str:
        """The selected name (``none`` for no program)."""
        item = self.list.currentItem()
        return self.none if item is None else item.text()

    def select(self, name: str) -> None:
        """Select ``name`` in the list."""
        self.list.setCurrentRow(self.names().index(name))

    def _update(self) -> None:
        self.edit_button.setEnabled(self.selected != self.none)


class PluginSelectDialog(NameSelectDialog):
    """Choose a physics plugin name for WorldInfo.physics."""

    def __init__(self, world_path: str | None, current: str = NO_PLUGIN,
                 lister: Callable[[str | None], list[str]] = list_plugins,
                 parent: QWidget | None = None) -> None:
        super().__init__(list(lister(world_path)), current, NO_PLUGIN, TITLE, PROMPT, parent)
