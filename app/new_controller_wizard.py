"""The New Robot Controller wizard (File > New Robot Controller..., as Webots).

The New Physics Plugin wizard's dialog (app/new_plugin_wizard.py) for
`CONTROLLER`: a name (default ``my_controller``, ``[A-Za-z0-9_-]+``, the
folder ``<project>/controllers/<name>/`` must not exist) and, on accept,
``<project>/controllers/<name>/<name>.py`` made from
resources/controller_template.py with the word ``template`` replaced by the
name. When a robot is selected, a check box (on by default) makes the new
controller that robot's: the main window sets its ``controller`` field
through the scene tree (undoable), which starts it.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from PySide6.QtWidgets import QCheckBox, QDialog, QMessageBox, QWidget

from app.new_plugin_wizard import NewPluginWizard, ProgramKind

#: The template the wizard copies.
TEMPLATE = Path(__file__).resolve().parents[1] / "resources" / "controller_template.py"
#: The name proposed by the wizard (as Webots).
DEFAULT_NAME = "my_controller"


def controller_folder(project_dir: str | os.PathLike, name: str) -> Path:
    """``<project>/controllers/<name>``."""
    return Path(project_dir) / "controllers" / name


CONTROLLER = ProgramKind(
    "controller", "New Robot Controller",
    "This wizard creates a new robot controller for the current project: a Python program "
    "using Webots' controller API (from controller import Robot), run in its own process.",
    DEFAULT_NAME, controller_folder, TEMPLATE)


@dataclass(frozen=True)
class NewController:
    """What the wizard made: the controller's ``name`` and file ``path``, and
    whether to open it and make it the selected robot's controller."""

    name: str
    path: Path
    open_in_editor: bool
    use_for_robot: bool


class NewControllerWizard(NewPluginWizard):
    """Asks for a controller name and creates it; ``robot`` (the selected
    robot's name, or None) adds the "use it for this robot" check box."""

    kind = CONTROLLER

    def __init__(self, project_dir: str | os.PathLike | None, robot: str | None = None,
                 parent: QWidget | None = None, template: Path | None = None) -> None:
        super().__init__(project_dir, parent, template)
        self.use_box = QCheckBox(f"Use it as the controller of robot '{robot}'.")
        self.use_box.setChecked(robot is not None)
        self.use_box.setVisible(robot is not None)
        layout = self.layout()
        layout.insertWidget(layout.indexOf(self.open_box) + 1, self.use_box)

    @property
    def use_for_robot(self) -> bool:
        """True when the new controller is to be the selected robot's."""
        return self.use_box.isChecked() and not self.use_box.isHidden()

    @classmethod
    def ask(cls, project_dir: str | os.PathLike | None, robot: str | None,
            parent: QWidget | None = None) -> NewController | None:
        """Show the wizard modally: what it made, or None."""
        if project_dir is None:
            QMessageBox.information(parent, CONTROLLER.title,
                                    "Save the world in a project first (<project>/worlds/).")
            return None
        wizard = cls(project_dir, robot, parent)
        if wizard.exec() != QDialog.DialogCode.Accepted or wizard.plugin_path is None:
            return None
        return NewController(wizard.plugin_name or "", wizard.plugin_path,
                             wizard.open_in_editor, wizard.use_for_robot)
