"""The console dock: simulator, parser and physics-plugin lines (docs/app.md).

Lines arrive as ``(source, text)`` pairs, exactly as `engine.sim.Console`
prints them; the main window forwards every console line (in the GUI thread)
with `ConsoleDock.append`. As in Webots, the text ``"\\f"`` clears the console.

* Sources: ``"physics"`` (plugin output, already prefixed ``"<plugin>: "``),
  ``"plugin-error"`` (failures and tracebacks), ``"parsing"``, ``"odeon"``
  (the simulator) and any other tag. Lines starting with ``WARNING`` are
  warnings, ``plugin-error`` lines and lines starting with ``ERROR`` are errors.
* ``file:line`` locations in error lines (``/x/p.py:12: ...`` and traceback
  lines ``File "/x/p.py", line 12, in ...``) are links: clicking one emits
  `ConsoleDock.open_location` ``(path, line)``; `ConsoleDock.append_error`
  shows a `engine.plugins.PluginError` record with its location as a link.
* A filter combo box (All, Physics plugins, Errors, Warnings, Parsing, Odeon,
  Others, then All controllers and one "Robot 'name'" entry per robot with a
  controller) hides the other lines; Clear empties the console. Controller
  lines come with source ``controller:<robot>`` and text ``[<robot>] ...``;
  the robot entries are set per world (`ConsoleDock.set_robots`) and a line
  of a robot not listed yet adds its entry.
* Floods: lines are queued and written in batches (at most every
  ``FLUSH_MS``); the view, the queue and the kept history are bounded by
  ``max_lines`` lines and ``max_chars`` characters (the newest are kept), and
  a line longer than ``max_line_chars`` is cut with a marker. A label in the
  bar says how many older lines were dropped (`dropped_lines`).
"""

from __future__ import annotations

import re
from collections import deque
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Protocol

from PySide6.QtCore import QPoint, Qt, QTimer, QUrl, Signal
from PySide6.QtGui import QAction, QColor, QFont, QMouseEvent, QTextCharFormat, QTextCursor
from PySide6.QtWidgets import (
    QComboBox,
    QDockWidget,
    QHBoxLayout,
    QLabel,
    QMenu,
    QPlainTextEdit,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from engine.sim.console import MAX_CHARS, MAX_LINE_CHARS, cut_line

#: Filter names in combo-box order; each maps to a category tested by `_Entry.matches`
#: (the robots' filters follow them, see `robot_filter`).
FILTERS = ("All", "Physics plugins", "Errors", "Warnings", "Parsing", "Odeon", "Others",
           "All controllers")
#: Sources with a filter of their own (everything else is "Others").
_KNOWN_SOURCES = {"physics", "plugin-error", "parsing", "odeon"}
#: Source prefix of controller lines: ``controller:<robot name>``.
CONTROLLER_SOURCE = "controller:"


def robot_filter(robot: str) -> str:
    """The filter name of one robot's controller lines: ``Robot 'name'``."""
    return f"Robot '{robot}'"


def robot_of_source(source: str) -> str | None:
    """The robot name of a controller line's source (None for other sources)."""
    return source[len(CONTROLLER_SOURCE):] if source.startswith(CONTROLLER_SOURCE) else None


def message_of(source: str, text: str) -> str:
    """The line's message: a controller line's text without its ``[robot] `` prefix."""
    robot = robot_of_source(source)
    prefix = f"[{robot}] "
    return text[len(prefix):] if robot is not None and text.startswith(prefix) else text
#: Milliseconds between batched writes to the view.
FLUSH_MS = 50

# "/path/file.py:12: message" at the start of a line, or a traceback frame line.
_LOCATION_RE = re.compile(r"^(?P<path>[^\s:\"][^:\"]*\.py):(?P<line>\d+)")
_FRAME_RE = re.compile(r"File \"(?P<path>[^\"]+)\", line (?P<line>\d+)")

_ERROR_COLOR = QColor(200, 30, 30)
_WARNING_COLOR = QColor(190, 120, 0)
_LINK_COLOR = QColor(30, 90, 200)


class ErrorRecord(Protocol):
    """What `ConsoleDock.append_error` needs of an error (e.g. `PluginError`)."""

    file: str | None
    line: int | None
    text: str


@dataclass(frozen=True)
class _Entry:
    """One kept console line and where its link (if any) points."""

    source: str
    text: str
    link: tuple[int, int, str, int] | None  # (start, end, path, line) in text

    @property
    def is_error(self) -> bool:
        return self.source == "plugin-error" or self._message.startswith("ERROR")

    @property
    def is_warning(self) -> bool:
        return self._message.startswith("WARNING")

    @property
    def _message(self) -> str:
        return message_of(self.source, self.text).lstrip()

    def matches(self, filter_name: str) -> bool:
        """True when the line shows under filter ``filter_name`` (one of `FILTERS`
        or a `robot_filter`)."""
        test = _FILTER_TESTS.get(filter_name)
        if test is not None:
            return test(self)
        robot = robot_of_source(self.source)
        return robot is not None and filter_name == robot_filter(robot)


#: Filter name -> which lines it shows.
_FILTER_TESTS: dict[str, Callable[[_Entry], bool]] = {
    "All": lambda e: True,
    "Physics plugins": lambda e: e.source in ("physics", "plugin-error"),
    "Errors": lambda e: e.is_error,
    "Warnings": lambda e: e.is_warning,
    "Parsing": lambda e: e.source == "parsing",
    "Odeon": lambda e: e.source == "odeon",
    "Others": lambda e: e.source not in _KNOWN_SOURCES,
    "All controllers": lambda e: robot_of_source(e.source) is not None,
}


def find_link(text: str) -> tuple[int, int, str, int] | None:
    """The ``(start, end, path, line)`` of the first file location in ``text``
    (``path.py:N`` at the start, or ``File "path", line N``), None if none."""
    m = _LOCATION_RE.match(text) or _FRAME_RE.search(text)
    if m is None:
        return None
    return m.start(), m.end(), m.group("path"), int(m.group("line"))


def location_href(path: str, line: int) -> str:
    """The anchor of a link to ``path`` at ``line`` (a ``file:`` URL with ``#line``)."""
    url = QUrl.fromLocalFile(path)
    url.setFragment(str(line))
    return url.toString()


def parse_href(href: str) -> tuple[str, int] | None:
    """``(path, line)`` of an anchor made by `location_href` (None otherwise)."""
    url = QUrl(href)
    if not url.isLocalFile():
        return None
    try:
        line = int(url.fragment())
    except ValueError:
        return None
    return url.toLocalFile(), line


class ConsoleView(QPlainTextEdit):
    """Read-only text with clickable location links (``linkActivated(href)``)."""

    linkActivated = Signal(str)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setReadOnly(True)
        self.setUndoRedoEnabled(False)
        self.setLineWrapMode(QPlainTextEdit.LineWrapMode.NoWrap)
        self.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse
                                     | Qt.TextInteractionFlag.TextSelectableByKeyboard)
        font = QFont("monospace")
        font.setStyleHint(QFont.StyleHint.TypeWriter)
        self.setFont(font)
        self.viewport().setMouseTracking(True)

    def mouseMoveEvent(self, event: QMouseEvent) -> None:  # noqa: N802 (Qt override)
        """Pointing-hand cursor over links."""
        href = self.anchorAt(event.position().toPoint())
        shape = Qt.CursorShape.PointingHandCursor if href else Qt.CursorShape.IBeamCursor
        self.viewport().setCursor(shape)
        super().mouseMoveEvent(event)

    def mouseReleaseEvent(self, event: QMouseEvent) -> None:  # noqa: N802 (Qt override)
        """A left click on a link (without a selection drag) activates it."""
        if event.button() == Qt.MouseButton.LeftButton and not self.textCursor().hasSelection():
            href = self.anchorAt(event.position().toPoint())
            if href:
                self.linkActivated.emit(href)
        super().mouseReleaseEvent(event)


class ConsoleDock(QDockWidget):
    """The console: ``append(source, text)`` for lines, ``append_error(record)``
    for error records; emits ``open_location(path, line)`` on link clicks."""

    open_location = Signal(str, int)

    def __init__(self, parent: QWidget | None = None, max_lines: int = 5000,
                 max_chars: int = MAX_CHARS, max_line_chars: int = MAX_LINE_CHARS) -> None:
        super().__init__("Console", parent)
        self.setObjectName("ConsoleDock")
        self.max_lines = max_lines
        self.max_chars = max_chars
        self.max_line_chars = max_line_chars
        self._entries: deque[_Entry] = deque()
        self._entry_chars = 0
        self._pending: deque[_Entry] = deque()
        self._pending_chars = 0
        self.dropped_lines = 0
        self._filter = "All"

        self.view = ConsoleView()
        self.view.setMaximumBlockCount(max_lines)
        self.view.linkActivated.connect(self.activate_link)

        self.filter_combo = QComboBox()
        self.filter_combo.addItems(FILTERS)
        self.filter_combo.setToolTip("Show only the lines of one kind")
        self.filter_combo.currentTextChanged.connect(self.set_filter)

        self.clear_action = QAction("Clear", self)
        self.clear_action.setToolTip("Clear the console")
        self.clear_action.triggered.connect(self.clear)
        clear_button = QToolButton()
        clear_button.setDefaultAction(self.clear_action)

        bar = QHBoxLayout()
        bar.setContentsMargins(0, 0, 0, 0)
        bar.addWidget(QLabel("Filter:"))
        bar.addWidget(self.filter_combo)
        self.dropped_label = QLabel("")
        self.dropped_label.setToolTip("The console keeps only the newest lines")
        bar.addWidget(self.dropped_label)
        bar.addStretch(1)
        bar.addWidget(clear_button)
        body = QWidget()
        layout = QVBoxLayout(body)
        layout.setContentsMargins(2, 2, 2, 2)
        layout.addLayout(bar)
        layout.addWidget(self.view)
        self.setWidget(body)
        self.view.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        self.view.customContextMenuRequested.connect(self._show_context_menu)

        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(FLUSH_MS)
        self._timer.timeout.connect(self.flush)

    # ------------------------------------------------------------ input
    def append(self, source: str, text: str) -> None:
        """Add one line (queued; written within ``FLUSH_MS``). ``"\\f"`` clears.
        Multi-line text becomes several lines of the same source."""
        if text == "\f":
            self.clear()
            return
        robot = robot_of_source(source)
        if robot is not None:
            self._add_robot(robot)
        for line in text.split("\n"):
            line = cut_line(line, self.max_line_chars)
            link = find_link(line) if self._linkable(source, line) else None
            self._queue(_Entry(source, line, link))

    def append_lines(self, lines: Iterable[tuple[str, str]]) -> None:
        """`append` for each ``(source, text)`` (e.g. ``console.lines`` at start-up)."""
        for source, text in lines:
            self.append(source, text)

    def append_error(self, error: ErrorRecord, source: str = "plugin-error") -> None:
        """Show an error record: a ``file:line`` link line (when the location is
        known), then the record's text (traceback frames are links too)."""
        if error.file:
            where = f"{error.file}:{error.line}" if error.line is not None else error.file
            link = (0, len(where), error.file, error.line or 1)
            first = error.text.splitlines()[-1] if error.text.strip() else ""
            self._queue(_Entry(source, f"{where}: {first}".rstrip(": "), link))
        for line in error.text.splitlines():
            self._queue(_Entry(source, line, find_link(line)))

    def clear(self) -> None:
        """Remove every line (kept history and queue included)."""
        self._entries.clear()
        self._pending.clear()
        self._entry_chars = self._pending_chars = 0
        self.dropped_lines = 0
        self.dropped_label.setText("")
        self._timer.stop()
        self.view.clear()

    # ------------------------------------------------------------ output
    def flush(self) -> None:
        """Write the queued lines to the view now (one edit block)."""
        self._timer.stop()
        pending, self._pending = self._pending, deque()
        self._pending_chars = 0
        if not pending:
            return
        self._entries.extend(pending)
        self._entry_chars += sum(len(e.text) for e in pending)
        while len(self._entries) > 1 and (len(self._entries) > self.max_lines
                                          or self._entry_chars > self.max_chars):
            self._entry_chars -= len(self._entries.popleft().text)
            self.dropped_lines += 1
        visible = [e for e in pending if e.matches(self._filter)]
        self._write(visible[-self.max_lines:])
        if self.dropped_lines:
            self.dropped_label.setText(f"({self.dropped_lines} older lines dropped)")

    def filters(self) -> list[str]:
        """The filter names offered, in combo-box order (robots' after `FILTERS`)."""
        return [self.filter_combo.itemText(i) for i in range(self.filter_combo.count())]

    def set_robots(self, robots: Iterable[str]) -> None:
        """Offer one filter per robot (its controller's lines), replacing the former
        robots' (another world); the current filter is kept when still offered."""
        current = self._filter
        self.filter_combo.blockSignals(True)
        while self.filter_combo.count() > len(FILTERS):
            self.filter_combo.removeItem(len(FILTERS))
        for robot in robots:
            self._add_robot(robot)
        if current in self.filters():
            self.filter_combo.setCurrentText(current)
        self.filter_combo.blockSignals(False)
        if current not in self.filters():
            self.set_filter("All")

    def _add_robot(self, robot: str) -> None:
        name = robot_filter(robot)
        if self.filter_combo.findText(name) < 0:
            self.filter_combo.addItem(name)

    def set_filter(self, name: str) -> None:
        """Show only the lines matching filter ``name`` (one of `filters`)."""
        if name not in FILTERS and self.filter_combo.findText(name) < 0:
            raise ValueError(f"unknown console filter '{name}'")
        self.flush()
        self._filter = name
        if self.filter_combo.currentText() != name:
            self.filter_combo.setCurrentText(name)
        self.view.clear()
        self._write([e for e in self._entries if e.matches(name)])

    @property
    def current_filter(self) -> str:
        """The active filter name."""
        return self._filter

    def visible_lines(self) -> list[str]:
        """The lines shown in the view (after `flush`), top to bottom."""
        text = self.view.toPlainText()
        return text.split("\n") if text else []

    def kept_lines(self) -> list[tuple[str, str]]:
        """Every kept ``(source, text)`` line, filter ignored (bounded by ``max_lines``)."""
        self.flush()
        return [(e.source, e.text) for e in self._entries]

    def link_position(self, block_number: int) -> QPoint | None:
        """Viewport position of the middle of the link in visible line
        ``block_number`` (None when that line has no link); for tests and tools."""
        block = self.view.document().findBlockByNumber(block_number)
        if not block.isValid():
            return None
        it = block.begin()
        while not it.atEnd():
            fragment = it.fragment()
            if fragment.charFormat().isAnchor():
                cursor = QTextCursor(block)
                cursor.setPosition(fragment.position() + fragment.length() // 2)
                return self.view.cursorRect(cursor).center()
            it += 1
        return None

    def activate_link(self, href: str) -> None:
        """Emit `open_location` for a link anchor."""
        target = parse_href(href)
        if target is not None:
            self.open_location.emit(*target)

    def context_menu(self) -> QMenu:
        """The view's menu: copy / select all, Clear, and a Filter submenu."""
        menu = self.view.createStandardContextMenu()
        menu.addSeparator()
        menu.addAction(self.clear_action)
        filters = menu.addMenu("Filter")
        for name in self.filters():
            action = filters.addAction(name)
            action.setCheckable(True)
            action.setChecked(name == self._filter)
            action.triggered.connect(lambda _checked=False, n=name: self.set_filter(n))
        return menu

    # ----------------------------------------------------------- helpers
    def _show_context_menu(self, pos: QPoint) -> None:
        menu = self.context_menu()
        menu.exec(self.view.viewport().mapToGlobal(pos))
        menu.deleteLater()

    @staticmethod
    def _linkable(source: str, text: str) -> bool:
        return source == "plugin-error" or "Traceback" in text or message_of(
            source, text).lstrip().startswith(("File ", "ERROR", "WARNING"))

    def _queue(self, entry: _Entry) -> None:
        self._pending.append(entry)
        self._pending_chars += len(entry.text)
        # a flood: keep only what could show
        while len(self._pending) > 1 and (len(self._pending) > self.max_lines
                                          or self._pending_chars > self.max_chars):
            self._pending_chars -= len(self._pending.popleft().text)
            self.dropped_lines += 1
        if not self._timer.isActive():
            self._timer.start()

    def _write(self, entries: list[_Entry]) -> None:
        if not entries:
            return
        doc_empty = self.view.document().isEmpty()
        bar = self.view.verticalScrollBar()
        at_bottom = bar.value() >= bar.maximum() - 2
        cursor = QTextCursor(self.view.document())
        cursor.movePosition(QTextCursor.MoveOperation.End)
        cursor.beginEditBlock()
        for i, entry in enumerate(entries):
            if i > 0 or not doc_empty:
                cursor.insertBlock()
            self._insert(cursor, entry)
        cursor.endEditBlock()
        self._trim_view()
        if at_bottom:
            bar.setValue(bar.maximum())

    def _trim_view(self) -> None:
        """Remove the oldest lines of the view beyond ``max_chars`` characters
        (``max_lines`` is the view's maximum block count)."""
        doc = self.view.document()
        excess = doc.characterCount() - self.max_chars
        if excess <= 0:
            return
        block = doc.firstBlock()
        while block.isValid() and block.next().isValid() and excess > 0:
            excess -= block.length()
            block = block.next()
        cursor = QTextCursor(doc)
        cursor.setPosition(block.position(), QTextCursor.MoveMode.KeepAnchor)
        cursor.removeSelectedText()

    def _insert(self, cursor: QTextCursor, entry: _Entry) -> None:
        fmt = QTextCharFormat()
        if entry.is_error:
            fmt.setForeground(_ERROR_COLOR)
        elif entry.is_warning:
            fmt.setForeground(_WARNING_COLOR)
        if entry.link is None:
            cursor.insertText(entry.text, fmt)
            return
        start, end, path, line = entry.link
        link_fmt = QTextCharFormat(fmt)
        link_fmt.setAnchor(True)
        link_fmt.setAnchorHref(location_href(path, line))
        link_fmt.setForeground(_LINK_COLOR)
        link_fmt.setFontUnderline(True)
        cursor.insertText(entry.text[:start], fmt)
        cursor.insertText(entry.text[start:end], link_fmt)
        cursor.insertText(entry.text[end:], fmt)
