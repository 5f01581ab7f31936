"""The New Physics Plugin wizard (File > New > New Physics Plugin..., as Webots).

Asks for a name (default ``my_physics``, allowed ``[A-Za-z0-9_-]+``, the
folder ``<project>/plugins/physics/<name>/`` must not exist), says why OK is
disabled, lists what will be created, and on accept creates
``<project>/plugins/physics/<name>/<name>.py`` from resources/plugin_template.py
with the word ``template`` replaced by the name (as Webots does with its C
template). The main window then sets ``WorldInfo.physics`` to the name and
opens the file in the plugin editor when `NewPluginWizard.open_in_editor`.

`create_plugin` does the work without a dialog. Nothing is ever written
inside Odeon's installation (decision 0017): a plugin folder there is
refused, and the main window first saves a bundled (or unsaved) world into a
project folder of the user's (`make_project`, Webots' layout ``worlds/`` and
``plugins/physics/``), as Webots copies a sample into the user's project.

The wizard is written for a `ProgramKind` (what is made, where, from which
template): `PLUGIN` here; app/new_controller_wizard.py makes robot
controllers with the same dialog.
"""

from __future__ import annotations

import os
import re
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from PySide6.QtWidgets import (
    QCheckBox,
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QFormLayout,
    QLabel,
    QLineEdit,
    QMessageBox,
    QVBoxLayout,
    QWidget,
)

from app.trust import INSTALL_ROOT, is_installed

#: The template the wizard copies.
TEMPLATE = Path(__file__).resolve().parents[1] / "resources" / "plugin_template.py"
#: The name proposed by the wizard (as Webots).
DEFAULT_NAME = "my_physics"
_NAME_RE = re.compile(r"[A-Za-z0-9_-]+")
_TEMPLATE_WORD = re.compile(r"\btemplate\b")


class PluginNameError(ValueError):
    """A plugin name that cannot be used (the message says why)."""


@dataclass(frozen=True)
class ProgramKind:
    """What a New ... wizard makes: ``noun`` ("plugin"), the dialog's ``title``
    and ``intro``, the ``default_name``, the ``folder(project, name)`` of a new
    one and the ``template`` its file is made from."""

    noun: str
    title: str
    intro: str
    default_name: str
    folder: Callable[[Path, str], Path]
    template: Path


def project_of_world(world_path: str | os.PathLike) -> Path:
    """The project of a world file: ``<project>/worlds/x.wbt`` -> ``<project>``."""
    return Path(os.path.abspath(world_path)).parent.parent


def plugin_folder(project_dir: str | os.PathLike, name: str) -> Path:
    """``<project>/plugins/physics/<name>``."""
    return Path(project_dir) / "plugins" / "physics" / name


PLUGIN = ProgramKind(
    "plugin", "New Physics Plugin",
    "This wizard creates a new physics plugin for the current project: a Python file with "
    "the plugin callbacks to fill in.", DEFAULT_NAME,
    plugin_folder, TEMPLATE)


def name_problem(project_dir: str | os.PathLike | None, name: str,
                 kind: ProgramKind = PLUGIN) -> str | None:
    """Why ``name`` cannot be used for a new program of ``kind`` (default: a
    physics plugin) in ``project_dir``, or None."""
    if not name:
        return f"Please enter a name for the {kind.noun}."
    if not _NAME_RE.fullmatch(name):
        return ("The name may only contain letters, digits, '_' and '-' "
                "(no spaces or other characters).")
    if project_dir is None:
        return "The world has no project folder: save the world first."
    folder = kind.folder(Path(project_dir), name)
    if is_installed(folder):
        return (f"{folder} is inside Odeon's installation ({INSTALL_ROOT}): save the world "
                "into a project folder of yours first.")
    if folder.exists():
        return f"A {kind.noun} folder with this name already exists: {folder}"
    return None


def plugin_source_text(name: str, template: Path = TEMPLATE) -> str:
    """The template's text with the word ``template`` replaced by ``name``."""
    return _TEMPLATE_WORD.sub(name, template.read_text(encoding="utf-8"))


def create_plugin(project_dir: str | os.PathLike, name: str, template: Path | None = None,
                  kind: ProgramKind = PLUGIN) -> Path:
    """Create ``<project>/plugins/physics/<name>/<name>.py`` (or ``kind``'s
    folder) from the template (default: the kind's; written atomically) and
    return its path. Raises `PluginNameError` for a bad name or an existing
    folder, `OSError` when the files cannot be made."""
    problem = name_problem(project_dir, name, kind)
    if problem is not None:
        raise PluginNameError(problem)
    text = plugin_source_text(name, template or kind.template)
    folder = kind.folder(Path(project_dir), name)
    folder.parent.mkdir(parents=True, exist_ok=True)
    folder.mkdir()  # fails if someone created it meanwhile
    target = folder / f"{name}.py"
    fd, tmp = tempfile.mkstemp(prefix=f".{name}.", suffix=".tmp", dir=folder)
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="") as out:
            out.write(text)
        os.chmod(tmp, 0o644)
        os.replace(tmp, target)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        if not any(folder.iterdir()):
            folder.rmdir()
        raise
    return target


def needs_own_project(world_path: str | os.PathLike | None) -> bool:
    """True when the world has no file yet or lives inside the installation
    (a bundled world): it must be saved into the user's project first."""
    return world_path is None or is_installed(world_path)


def make_project(folder: str | os.PathLike, world_name: str) -> Path:
    """Make ``folder`` a project (``worlds/`` and ``plugins/physics/``) and return
    the path ``<folder>/worlds/<world_name>`` the world is to be saved to.
    Raises `PluginNameError` for a folder inside the installation."""
    root = Path(os.path.abspath(folder))
    if is_installed(root):
        raise PluginNameError(f"{root} is inside Odeon's installation ({INSTALL_ROOT}): "
                              "choose a folder of yours.")
    (root / "worlds").mkdir(parents=True, exist_ok=True)
    (root / "plugins" / "physics").mkdir(parents=True, exist_ok=True)
    return root / "worlds" / world_name


def choose_project_dialog(parent: QWidget | None) -> Path | None:
    """Ask for the project folder a bundled world is saved into (None: cancelled)."""
    QMessageBox.information(parent, "Project folder",
                            "This world is part of Odeon's installation (or not saved yet). "
                            "Choose a project folder of yours: the world is saved into its "
                            "worlds/ folder, a new plugin into plugins/physics/ and a new "
                            "robot controller into controllers/.")
    folder = QFileDialog.getExistingDirectory(parent, "Project folder for the world",
                                              os.path.expanduser("~"))
    return Path(folder) if folder else None


class NewPluginWizard(QDialog):
    """Asks for a new plugin's (or another `ProgramKind`'s) name and creates it on accept.

    After `exec()` returned Accepted: `plugin_name`, `plugin_path` and
    `open_in_editor` tell the main window what was made."""

    kind: ProgramKind = PLUGIN

    def __init__(self, project_dir: str | os.PathLike | None, parent: QWidget | None = None,
                 template: Path | None = None) -> None:
        super().__init__(parent)
        kind = self.kind
        self.setWindowTitle(kind.title)
        self.setObjectName(type(self).__name__)
        self.project_dir = Path(project_dir) if project_dir is not None else None
        self.template = template or kind.template
        self.plugin_name: str | None = None
        self.plugin_path: Path | None = None

        intro = QLabel(kind.intro)
        intro.setWordWrap(True)
        self.name_edit = QLineEdit(kind.default_name)
        self.name_edit.setToolTip("Letters, digits, '_' and '-'")
        self.problem_label = QLabel()
        self.problem_label.setWordWrap(True)
        self.problem_label.setStyleSheet("color: #b00020;")
        self.summary_label = QLabel()
        self.summary_label.setWordWrap(True)
        self.open_box = QCheckBox()
        self.open_box.setChecked(True)
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok
                                        | QDialogButtonBox.StandardButton.Cancel)
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)

        form = QFormLayout()
        form.addRow(f"{kind.noun.capitalize()} name:", self.name_edit)
        layout = QVBoxLayout(self)
        layout.addWidget(intro)
        layout.addLayout(form)
        layout.addWidget(self.problem_label)
        layout.addWidget(self.summary_label)
        layout.addWidget(self.open_box)
        layout.addStretch(1)
        layout.addWidget(self.buttons)
        self.name_edit.textChanged.connect(self._validate)
        self.name_edit.selectAll()
        self._validate()
        self.resize(520, 260)

    @property
    def ok_button(self):
        """The OK button (disabled while the name is unusable)."""
        return self.buttons.button(QDialogButtonBox.StandardButton.Ok)

    @property
    def open_in_editor(self) -> bool:
        """True when the user wants the new file opened in the editor."""
        return self.open_box.isChecked()

    def problem(self) -> str | None:
        """Why the current name cannot be used (None when it can)."""
        return name_problem(self.project_dir, self.name_edit.text().strip(), self.kind)

    def _validate(self, _text: str = "") -> None:
        problem = self.problem()
        self.ok_button.setEnabled(problem is None)
        self.problem_label.setText(problem or "")
        self.problem_label.setVisible(problem is not None)
        name = self.name_edit.text().strip()
        if problem is None and self.project_dir is not None:
            folder = self.kind.folder(self.project_dir, name)
            self.summary_label.setText(f"The following will be created:\n  {folder}{os.sep}\n"
                                       f"  {folder / (name + '.py')}")
            self.open_box.setText(f"Open '{name}.py' in the editor.")
        else:
            self.summary_label.setText("")
            self.open_box.setText(f"Open the new {self.kind.noun} in the editor.")

    def accept(self) -> None:
        """Create the plugin; stay open (with a message) if that fails."""
        name = self.name_edit.text().strip()
        if self.project_dir is None or self.problem() is not None:
            self._validate()
            return
        try:
            path = create_plugin(self.project_dir, name, self.template, self.kind)
        except (OSError, PluginNameError) as exc:
            self.problem_label.setText(f"Could not create the {self.kind.noun}: {exc}")
            self.problem_label.setVisible(True)
            self.ok_button.setEnabled(False)
            return
        self.plugin_name, self.plugin_path = name, path
        super().accept()

    @classmethod
    def run(cls, project_dir: str | os.PathLike | None,
            parent: QWidget | None = None) -> tuple[str, Path, bool] | None:
        """Show the wizard modally: ``(name, path, open_in_editor)`` or None."""
        if project_dir is None:
            QMessageBox.information(parent, cls.kind.title,
                                    "Save the world in a project first (<project>/worlds/).")
            return None
        wizard = cls(project_dir, parent)
        if wizard.exec() != QDialog.DialogCode.Accepted or wizard.plugin_path is None:
            return None
        return wizard.plugin_name or "", wizard.plugin_path, wizard.open_in_editor
