"""The field editor panel's robust-contact editors, shown under a selected node.

- WorldInfo: "Contact model" (default / robust), `ContactModelEditor`;
- a Solid: the "Odeon contact" group, `SolidContactEditor`: padding [m],
  kFriction, kRestitution, kStiffness [N/m], kDamping [N·s/m]; an empty
  entry is the model's default, whose effective value (`Simulation.solid_contact`,
  through the sink's ``solid_contact``) shows greyed as the placeholder
  while the robust model is on.

Both write ``odeon:`` lines of WorldInfo.info through `RobustSettingsEditor`
(undoable, applied live); bad input is reported through the controller
(red text in the panel) and the entry shows the current value again.
`robust_editor_for` is the one lookup the panel uses (a registry by type).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from PySide6.QtWidgets import (
    QComboBox,
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QWidget,
)

from app.scene_tree.controller import SceneTreeController
from app.scene_tree.robust_settings import (
    RobustSettingsEditor,
    SettingInputError,
    contact_model_of,
    parse_solid_value,
    solid_values_of,
)
from engine.world import BaseNode
from engine.world.odeon_settings import CONTACT_MODELS, SOLID_OPTIONS, SolidContactSettings

#: `SOLID_OPTIONS` name -> (label, unit) in the Odeon contact group.
SOLID_LABELS = {"padding": ("padding", "m"), "kFriction": ("kFriction", ""),
                "kRestitution": ("kRestitution", ""), "kStiffness": ("kStiffness", "N/m"),
                "kDamping": ("kDamping", "N·s/m")}


def format_setting(value: float) -> str:
    """A setting's text: the shortest that reads back as the same float (``inf``
    for infinity), so showing a value and reading it again never changes it."""
    return repr(float(value))


class ContactModelEditor(QWidget):
    """WorldInfo's contact model as a combo box (each change is one undo step)."""

    def __init__(self, controller: SceneTreeController, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.controller = controller
        self.settings = RobustSettingsEditor(controller)
        layout = QHBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(QLabel("Contact model", self))
        self.combo = QComboBox(self)
        self.combo.addItems(list(CONTACT_MODELS))
        self.combo.setToolTip("default: Webots' contacts; robust: Klamp't's boundary layers, "
                              "clustering and blended surfaces (saved as an 'odeon: contacts' "
                              "line of WorldInfo.info)")
        layout.addWidget(self.combo, 1)
        self.combo.activated.connect(lambda index: self._chosen(self.combo.itemText(index)))
        self.refresh()

    def _chosen(self, model: str) -> None:
        self.settings.set_contact_model(model)
        self.refresh()

    def refresh(self) -> None:
        """Show the world's contact model."""
        world = self.controller.world
        if world is None:
            return
        self.combo.blockSignals(True)
        self.combo.setCurrentText(contact_model_of(world))
        self.combo.blockSignals(False)


class SolidContactEditor(QGroupBox):
    """A Solid's own padding and surface parameters ("Odeon contact" group)."""

    def __init__(self, node: BaseNode, controller: SceneTreeController,
                 parent: QWidget | None = None) -> None:
        super().__init__("Odeon contact", parent)
        self.node = node
        self.controller = controller
        self.settings = RobustSettingsEditor(controller)
        self.setToolTip("The robust contact model's values of this Solid (empty = default), "
                        "saved as an 'odeon: solid' line of WorldInfo.info")
        form = QFormLayout(self)
        self.entries: dict[str, QLineEdit] = {}
        for option, (label, unit) in SOLID_LABELS.items():
            entry = QLineEdit(self)
            entry.editingFinished.connect(self._edited)
            self.entries[option] = entry
            form.addRow(f"{label} [{unit}]" if unit else label, entry)
        self.refresh()

    def own_values(self) -> SolidContactSettings:
        """The values typed in (raises `SettingInputError` for bad input)."""
        values = {SOLID_OPTIONS[o].attribute: parse_solid_value(o, e.text())
                  for o, e in self.entries.items()}
        return SolidContactSettings(**values)

    def _edited(self) -> None:
        try:
            own = self.own_values()
        except SettingInputError as exc:
            self.controller.report_error(str(exc))
            self.refresh()
            return
        if own != solid_values_of(self.controller.world, self.node):
            self.settings.set_solid_values(self.node, own)
        self.refresh()

    def _effective(self) -> dict[str, float] | None:
        """Effective values per option from the simulation (robust model on), else None."""
        world = self.controller.world
        lookup: Callable[[Any], Any] | None = getattr(self.controller.sink, "solid_contact",
                                                      None)
        if lookup is None or world is None or contact_model_of(world) != "robust":
            return None
        contact = lookup(self.node)
        surface = contact.surface
        return {"padding": contact.padding, "kFriction": surface.k_friction,
                "kRestitution": surface.k_restitution, "kStiffness": surface.k_stiffness,
                "kDamping": surface.k_damping}

    def refresh(self) -> None:
        """Show the Solid's own values and, greyed, the effective ones."""
        world = self.controller.world
        if world is None:
            return
        own = solid_values_of(world, self.node)
        effective = self._effective()
        for option, entry in self.entries.items():
            if entry.hasFocus() and entry.isModified():
                continue  # the user is typing
            value = getattr(own, SOLID_OPTIONS[option].attribute)
            text = "" if value is None else format_setting(value)
            if entry.text() != text:
                entry.setText(text)
            entry.setModified(False)
            placeholder = ("default" if effective is None
                           else f"{format_setting(effective[option])} (default)")
            if entry.placeholderText() != placeholder:
                entry.setPlaceholderText(placeholder)


RobustEditor = ContactModelEditor | SolidContactEditor

#: Node type -> the robust-contact editor the panel shows under its node row.
EDITORS: dict[str, Callable[[BaseNode, SceneTreeController, QWidget], RobustEditor]] = {
    "WorldInfo": lambda node, controller, parent: ContactModelEditor(controller, parent),
    "Solid": SolidContactEditor,
}


def robust_editor_for(node: BaseNode, controller: SceneTreeController,
                      parent: QWidget) -> RobustEditor | None:
    """The robust-contact editor of ``node`` (None for USE/PROTO nodes and other types)."""
    if node.is_use or node.is_opaque:
        return None
    make = next((m for t, m in EDITORS.items() if node.is_a(t)), None)
    return make(node, controller, parent) if make is not None else None
