"""The editor's find bar (Ctrl+F): text, next / previous, match case, Esc closes."""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QKeySequence, QShortcut, QTextCursor, QTextDocument
from PySide6.QtWidgets import (
    QCheckBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QToolButton,
    QWidget,
)


class FindBar(QWidget):
    """Searches an editor's document; selects the match (wrapping around)."""

    closed = Signal()

    def __init__(self, editor: QPlainTextEdit, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.editor = editor
        self.field = QLineEdit()
        self.field.setPlaceholderText("Find")
        self.field.returnPressed.connect(self.find_next)
        self.field.textChanged.connect(self._search_as_typed)
        self.case_box = QCheckBox("Match case")
        self.status = QLabel("")
        previous = QToolButton()
        previous.setText("Previous")
        previous.clicked.connect(self.find_previous)
        following = QToolButton()
        following.setText("Next")
        following.clicked.connect(self.find_next)
        close = QToolButton()
        close.setText("✕")
        close.setToolTip("Close the find bar (Esc)")
        close.clicked.connect(self.close_bar)
        layout = QHBoxLayout(self)
        layout.setContentsMargins(4, 2, 4, 2)
        for widget in (QLabel("Find:"), self.field, previous, following, self.case_box,
                       self.status):
            layout.addWidget(widget)
        layout.addStretch(1)
        layout.addWidget(close)
        QShortcut(QKeySequence(Qt.Key.Key_Escape), self, self.close_bar,
                  context=Qt.ShortcutContext.WidgetWithChildrenShortcut)
        # (Find Next is the editor window's action; Enter in the field also goes on)
        QShortcut(QKeySequence(QKeySequence.StandardKey.FindPrevious), self, self.find_previous,
                  context=Qt.ShortcutContext.WidgetWithChildrenShortcut)

    def open_bar(self) -> None:
        """Show the bar, seeded with the editor's selection, and focus the field."""
        selected = self.editor.textCursor().selectedText()
        if selected and "\u2029" not in selected:
            self.field.setText(selected)
        self.show()
        self.field.setFocus()
        self.field.selectAll()

    def close_bar(self) -> None:
        """Hide the bar and give the focus back to the editor."""
        self.hide()
        self.editor.setFocus()
        self.closed.emit()

    def find_next(self) -> bool:
        """Select the next match after the cursor (wrapping); False if none."""
        return self._find(backward=False)

    def find_previous(self) -> bool:
        """Select the previous match before the cursor (wrapping); False if none."""
        return self._find(backward=True)

    def _flags(self, backward: bool) -> QTextDocument.FindFlag:
        flags = QTextDocument.FindFlag(0)
        if backward:
            flags |= QTextDocument.FindFlag.FindBackward
        if self.case_box.isChecked():
            flags |= QTextDocument.FindFlag.FindCaseSensitively
        return flags

    def _find(self, backward: bool, from_start_of_selection: bool = False) -> bool:
        needle = self.field.text()
        if not needle:
            self.status.setText("")
            return False
        doc = self.editor.document()
        cursor = self.editor.textCursor()
        if from_start_of_selection:
            cursor.setPosition(cursor.selectionStart())
        found = doc.find(needle, cursor, self._flags(backward))
        if found.isNull():  # wrap around
            start = QTextCursor(doc)
            if backward:
                start.movePosition(QTextCursor.MoveOperation.End)
            found = doc.find(needle, start, self._flags(backward))
        if found.isNull():
            self.status.setText("Not found")
            return False
        self.status.setText("")
        self.editor.setTextCursor(found)
        self.editor.centerCursor()
        return True

    def _search_as_typed(self, _text: str) -> None:
        self._find(backward=False, from_start_of_selection=True)
