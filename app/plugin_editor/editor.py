"""The physics-plugin editor window: open, edit, find, go to line, save.

The main window opens a plugin's source with `PluginEditor.open_file`, jumps
to a console error with `PluginEditor.go_to_line`, and reloads the plugin
when `PluginEditor.saved` fires. Save writes atomically (a temporary file in
the same folder, then `os.replace`). Closing (or opening another file) with
unsaved changes asks first; the question is the ``ask_unsaved`` callable
(``file name -> "save" | "discard" | "cancel"``) so tests can answer it.
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import Signal
from PySide6.QtGui import QAction, QCloseEvent, QKeySequence
from PySide6.QtWidgets import (
    QInputDialog,
    QMainWindow,
    QMessageBox,
    QVBoxLayout,
    QWidget,
)

from app.plugin_editor.code_edit import CodeEdit
from app.plugin_editor.find_bar import FindBar
from app.plugin_editor.highlighter import PythonHighlighter

#: ``ask_unsaved(file_name) -> "save" | "discard" | "cancel"``.
UnsavedQuestion = Callable[[str], str]
#: ``ask_line(current, maximum) -> line or None`` (the Go to Line question).
LineQuestion = Callable[[int, int], "int | None"]


def write_atomically(path: Path, text: str) -> None:
    """Write ``text`` (UTF-8) to ``path`` through a temporary file in the same
    folder and `os.replace`, keeping the old file's permissions."""
    path = Path(path)
    mode = path.stat().st_mode & 0o7777 if path.exists() else None
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="") as out:
            out.write(text)
            out.flush()
            os.fsync(out.fileno())
        if mode is not None:
            os.chmod(tmp, mode)
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


class PluginEditor(QMainWindow):
    """A window editing one plugin source file at a time."""

    #: Emitted with the file's path after a successful save.
    saved = Signal(str)
    #: Emitted with the file's path when the modified state changes.
    modified_changed = Signal(bool)

    def __init__(self, parent: QWidget | None = None, ask_unsaved: UnsavedQuestion | None = None,
                 ask_line: LineQuestion | None = None,
                 show_error: Callable[[str], None] | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("PluginEditor")
        self.ask_unsaved: UnsavedQuestion = ask_unsaved or self._ask_unsaved_dialog
        self.ask_line: LineQuestion = ask_line or self._ask_line_dialog
        self.show_error: Callable[[str], None] = show_error or self._error_dialog
        self.path: Path | None = None
        self.edit = CodeEdit()
        self.highlighter = PythonHighlighter(self.edit.document())
        self.find_bar = FindBar(self.edit)
        self.find_bar.hide()
        body = QWidget()
        layout = QVBoxLayout(body)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(0)
        layout.addWidget(self.edit)
        layout.addWidget(self.find_bar)
        self.setCentralWidget(body)
        self._make_actions()
        self.edit.document().modificationChanged.connect(self._on_modified)
        self.edit.cursorPositionChanged.connect(self._show_position)
        self.resize(800, 640)
        self._update_title()

    # ---------------------------------------------------------- actions
    def _make_actions(self) -> None:
        self.save_action = self._action("&Save", QKeySequence.StandardKey.Save, self.save)
        self.find_action = self._action("&Find...", QKeySequence.StandardKey.Find,
                                        self.find_bar.open_bar)
        self.find_next_action = self._action("Find &Next", QKeySequence.StandardKey.FindNext,
                                             self.find_bar.find_next)
        self.goto_action = self._action("&Go to Line...", QKeySequence("Ctrl+G"),
                                        self.ask_go_to_line)
        self.close_action = self._action("&Close", QKeySequence.StandardKey.Close, self.close)
        file_menu = self.menuBar().addMenu("&File")
        file_menu.addAction(self.save_action)
        file_menu.addSeparator()
        file_menu.addAction(self.close_action)
        edit_menu = self.menuBar().addMenu("&Edit")
        undo = self._action("&Undo", QKeySequence.StandardKey.Undo, self.edit.undo)
        redo = self._action("&Redo", QKeySequence.StandardKey.Redo, self.edit.redo)
        edit_menu.addActions([undo, redo])
        edit_menu.addSeparator()
        edit_menu.addActions([self.find_action, self.find_next_action, self.goto_action])
        self.edit.undoAvailable.connect(undo.setEnabled)
        self.edit.redoAvailable.connect(redo.setEnabled)
        undo.setEnabled(False)
        redo.setEnabled(False)

    def _action(self, text: str, shortcut, slot: Callable[[], object]) -> QAction:
        action = QAction(text, self)
        action.setShortcut(QKeySequence(shortcut))
        action.triggered.connect(lambda _checked=False: slot())
        self.addAction(action)
        return action

    # ------------------------------------------------------------- files
    def open_file(self, path: str | os.PathLike, line: int | None = None) -> bool:
        """Load ``path`` (asking about unsaved changes to the current file
        first; opening the same file again keeps the edits). Then go to
        ``line`` when given. False when cancelled or unreadable."""
        path = Path(path).resolve()
        if self.path != path:
            if not self.maybe_save():
                return False
            try:
                text = path.read_text(encoding="utf-8")
            except (OSError, UnicodeDecodeError) as exc:
                self.show_error(f"Could not open {path}: {exc}")
                return False
            self.path = path
            self.edit.setPlainText(text)
            self.edit.document().setModified(False)
            self._update_title()
        if line is not None:
            self.go_to_line(line)
        return True

    def text(self) -> str:
        """The edited text."""
        return self.edit.toPlainText()

    def is_modified(self) -> bool:
        """True when there are unsaved changes."""
        return self.edit.document().isModified()

    def save(self) -> bool:
        """Write the text to `path` atomically and emit `saved`; False on failure."""
        if self.path is None:
            return False
        text = self.text()
        if not text.endswith("\n"):
            text += "\n"
        try:
            write_atomically(self.path, text)
        except OSError as exc:
            self.show_error(f"Could not save {self.path}: {exc}")
            return False
        self.edit.document().setModified(False)
        self.statusBar().showMessage(f"Saved {self.path}", 3000)
        self.saved.emit(str(self.path))
        return True

    def maybe_save(self) -> bool:
        """Ask about unsaved changes: True when it is fine to go on (saved or
        discarded), False when cancelled or the save failed."""
        if self.path is None or not self.is_modified():
            return True
        answer = self.ask_unsaved(self.path.name)
        if answer == "save":
            return self.save()
        return answer == "discard"

    def closeEvent(self, event: QCloseEvent) -> None:  # noqa: N802 (Qt override)
        """Ask before closing with unsaved changes."""
        if self.maybe_save():
            event.accept()
        else:
            event.ignore()

    # ------------------------------------------------------------ moving
    def go_to_line(self, line: int) -> None:
        """Move the cursor to ``line`` (1-based) and bring the window forward."""
        self.edit.go_to_line(line)
        self.raise_()
        self.activateWindow()

    def ask_go_to_line(self) -> None:
        """Ctrl+G: ask for a line number and go there."""
        line = self.ask_line(self.edit.current_line(), self.edit.blockCount())
        if line is not None:
            self.go_to_line(line)

    # ----------------------------------------------------------- helpers
    def _on_modified(self, modified: bool) -> None:
        self._update_title()
        self.modified_changed.emit(modified)

    def _update_title(self) -> None:
        name = self.path.name if self.path else "Plugin editor"
        self.setWindowTitle(f"{name}[*] — {self.path.parent if self.path else ''}".rstrip(" —"))
        self.setWindowModified(self.is_modified())

    def _show_position(self) -> None:
        cursor = self.edit.textCursor()
        self.statusBar().showMessage(f"Line {cursor.blockNumber() + 1}, "
                                     f"column {cursor.positionInBlock() + 1}")

    def _ask_unsaved_dialog(self, name: str) -> str:
        buttons = (QMessageBox.StandardButton.Save | QMessageBox.StandardButton.Discard
                   | QMessageBox.StandardButton.Cancel)
        answer = QMessageBox.question(self, "Unsaved changes",
                                      f"'{name}' has been modified. Save the changes?",
                                      buttons, QMessageBox.StandardButton.Save)
        if answer == QMessageBox.StandardButton.Save:
            return "save"
        if answer == QMessageBox.StandardButton.Discard:
            return "discard"
        return "cancel"

    def _ask_line_dialog(self, current: int, maximum: int) -> int | None:
        line, ok = QInputDialog.getInt(self, "Go to Line", f"Line (1 - {maximum}):", current,
                                       1, maximum)
        return line if ok else None

    def _error_dialog(self, message: str) -> None:
        QMessageBox.critical(self, "Plugin editor", message)
