"""The code editing widget: a `QPlainTextEdit` with a line-number area, a
current-line highlight, 4-space tabs and go-to-line."""

from __future__ import annotations

from PySide6.QtCore import QRect, QSize, Qt
from PySide6.QtGui import (
    QColor,
    QFont,
    QFontDatabase,
    QKeyEvent,
    QPainter,
    QPaintEvent,
    QResizeEvent,
    QTextCursor,
    QTextFormat,
)
from PySide6.QtWidgets import QPlainTextEdit, QTextEdit, QWidget

INDENT = "    "


class LineNumberArea(QWidget):
    """The gutter left of a `CodeEdit`, painted by the editor."""

    def __init__(self, editor: CodeEdit) -> None:
        super().__init__(editor)
        self.editor = editor

    def sizeHint(self) -> QSize:  # noqa: N802 (Qt override)
        """Width needed for the largest line number."""
        return QSize(self.editor.line_number_width(), 0)

    def paintEvent(self, event: QPaintEvent) -> None:  # noqa: N802 (Qt override)
        """Delegate to `CodeEdit.paint_line_numbers`."""
        self.editor.paint_line_numbers(event)


class CodeEdit(QPlainTextEdit):
    """Plain-text code editor with line numbers (1-based in the gutter and API)."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        font = QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont)
        font.setStyleHint(QFont.StyleHint.TypeWriter)
        self.setFont(font)
        self.setLineWrapMode(QPlainTextEdit.LineWrapMode.NoWrap)
        self.setTabStopDistance(self.fontMetrics().horizontalAdvance(" ") * 4)
        self.line_numbers = LineNumberArea(self)
        self.blockCountChanged.connect(self._update_margin)
        self.updateRequest.connect(self._update_area)
        self.cursorPositionChanged.connect(self._highlight_current_line)
        self._update_margin()
        self._highlight_current_line()

    # ------------------------------------------------------- line numbers
    def line_number_width(self) -> int:
        """Pixels needed by the gutter."""
        digits = max(3, len(str(max(1, self.blockCount()))))
        return 8 + self.fontMetrics().horizontalAdvance("9") * digits

    def _update_margin(self, _count: int = 0) -> None:
        self.setViewportMargins(self.line_number_width(), 0, 0, 0)

    def _update_area(self, rect: QRect, dy: int) -> None:
        if dy:
            self.line_numbers.scroll(0, dy)
        else:
            self.line_numbers.update(0, rect.y(), self.line_numbers.width(), rect.height())
        if rect.contains(self.viewport().rect()):
            self._update_margin()

    def resizeEvent(self, event: QResizeEvent) -> None:  # noqa: N802 (Qt override)
        """Keep the gutter beside the viewport."""
        super().resizeEvent(event)
        cr = self.contentsRect()
        self.line_numbers.setGeometry(QRect(cr.left(), cr.top(), self.line_number_width(),
                                            cr.height()))

    def paint_line_numbers(self, event: QPaintEvent) -> None:
        """Paint the numbers of the visible blocks (the current one in bold)."""
        painter = QPainter(self.line_numbers)
        painter.fillRect(event.rect(), QColor(240, 240, 240))
        block = self.firstVisibleBlock()
        top = round(self.blockBoundingGeometry(block).translated(self.contentOffset()).top())
        current = self.textCursor().blockNumber()
        height = self.fontMetrics().height()
        width = self.line_numbers.width() - 4
        while block.isValid() and top <= event.rect().bottom():
            bottom = top + round(self.blockBoundingRect(block).height())
            if block.isVisible() and bottom >= event.rect().top():
                font = painter.font()
                font.setBold(block.blockNumber() == current)
                painter.setFont(font)
                painter.setPen(QColor(60, 60, 60) if block.blockNumber() == current
                               else QColor(140, 140, 140))
                painter.drawText(0, top, width, height, Qt.AlignmentFlag.AlignRight,
                                 str(block.blockNumber() + 1))
            block = block.next()
            top = bottom
        painter.end()

    def _highlight_current_line(self) -> None:
        selection = QTextEdit.ExtraSelection()
        selection.format.setBackground(QColor(255, 250, 215))
        selection.format.setProperty(QTextFormat.Property.FullWidthSelection, True)
        cursor = self.textCursor()
        cursor.clearSelection()
        selection.cursor = cursor
        self.setExtraSelections([selection])

    # ------------------------------------------------------------- moving
    def go_to_line(self, line: int, column: int = 0) -> None:
        """Put the cursor at the start of ``line`` (1-based, clamped) and show it."""
        line = min(max(1, line), self.blockCount())
        block = self.document().findBlockByNumber(line - 1)
        cursor = QTextCursor(block)
        cursor.movePosition(QTextCursor.MoveOperation.Right, QTextCursor.MoveMode.MoveAnchor,
                            min(max(0, column), block.length() - 1))
        self.setTextCursor(cursor)
        self.centerCursor()
        self.setFocus()

    def current_line(self) -> int:
        """The cursor's line (1-based)."""
        return self.textCursor().blockNumber() + 1

    # ------------------------------------------------------------ editing
    def keyPressEvent(self, event: QKeyEvent) -> None:  # noqa: N802 (Qt override)
        """Tab inserts 4 spaces; Enter keeps the indentation (one more after ``:``)."""
        if event.key() == Qt.Key.Key_Tab and not event.modifiers():
            self.textCursor().insertText(INDENT)
            return
        if event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter) and not event.modifiers():
            text = self.textCursor().block().text()[: self.textCursor().positionInBlock()]
            indent = text[: len(text) - len(text.lstrip())]
            if text.rstrip().endswith(":"):
                indent += INDENT
            self.textCursor().insertText("\n" + indent)
            self.ensureCursorVisible()
            return
        super().keyPressEvent(event)
