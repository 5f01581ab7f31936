"""Python syntax highlighting for the plugin editor.

Keywords, builtins (``self``/``None``/``True``...), numbers, decorators,
comments and strings (single-quoted, and triple-quoted strings spanning
lines, tracked with the block state: 0 = normal, 1 = inside ``'''``,
2 = inside ``\"\"\"``).
"""

from __future__ import annotations

import keyword
import re

from PySide6.QtGui import QColor, QFont, QSyntaxHighlighter, QTextCharFormat, QTextDocument

_NORMAL, _IN_SINGLE, _IN_DOUBLE = 0, 1, 2
_TRIPLES = {_IN_SINGLE: "'''", _IN_DOUBLE: '"""'}


def _format(color: str, bold: bool = False, italic: bool = False) -> QTextCharFormat:
    fmt = QTextCharFormat()
    fmt.setForeground(QColor(color))
    if bold:
        fmt.setFontWeight(QFont.Weight.Bold)
    fmt.setFontItalic(italic)
    return fmt


#: The formats, by kind (tests compare colours with these).
FORMATS: dict[str, QTextCharFormat] = {
    "keyword": _format("#0033b3", bold=True),
    "builtin": _format("#8a2be2"),
    "number": _format("#1750eb"),
    "decorator": _format("#9e880d"),
    "string": _format("#067d17"),
    "comment": _format("#8c8c8c", italic=True),
    "definition": _format("#00627a", bold=True),
}

_KEYWORDS = [k for k in keyword.kwlist if k not in ("None", "True", "False")] + ["match", "case"]
_RULES: list[tuple[re.Pattern[str], str, int]] = [
    (re.compile(r"\b(?:" + "|".join(_KEYWORDS) + r")\b"), "keyword", 0),
    (re.compile(r"\b(?:None|True|False|self|cls|print|len|range)\b"), "builtin", 0),
    (re.compile(r"\b(?:0[xX][0-9a-fA-F_]+|0[bB][01_]+|0[oO][0-7_]+"
                r"|(?:\d[\d_]*\.?[\d_]*|\.\d[\d_]*)(?:[eE][+-]?\d+)?j?)\b"), "number", 0),
    (re.compile(r"^\s*(@[\w.]+)"), "decorator", 1),
    (re.compile(r"\b(?:def|class)\s+(\w+)"), "definition", 1),
]
# Strings and comments, scanned left to right (whichever starts first wins).
_TOKEN_RE = re.compile(r"""(?P<triple>'''|\"\"\")"""
                       r"""|(?P<single>'(?:\\.|[^'\\])*'?|"(?:\\.|[^"\\])*"?)"""
                       r"""|(?P<comment>\#.*)""")


class PythonHighlighter(QSyntaxHighlighter):
    """Highlights a `QTextDocument` holding Python source."""

    def __init__(self, document: QTextDocument) -> None:
        super().__init__(document)

    def highlightBlock(self, text: str) -> None:  # noqa: N802 (Qt override)
        """Format one line; multi-line strings carry over through the block state."""
        for pattern, kind, group in _RULES:
            for m in pattern.finditer(text):
                start, end = m.span(group)
                self.setFormat(start, end - start, FORMATS[kind])
        self.setCurrentBlockState(_NORMAL)
        pos = 0
        state = self.previousBlockState()
        if state in _TRIPLES:
            pos = self._close_triple(text, 0, state)
            if pos < 0:
                return
        while pos < len(text):
            m = _TOKEN_RE.search(text, pos)
            if m is None:
                break
            if m.group("comment") is not None:
                self.setFormat(m.start(), len(text) - m.start(), FORMATS["comment"])
                break
            if m.group("single") is not None:
                self.setFormat(m.start(), m.end() - m.start(), FORMATS["string"])
                pos = m.end()
                continue
            state = _IN_SINGLE if m.group("triple") == "'''" else _IN_DOUBLE
            pos = self._close_triple(text, m.start(), state, opener=3)
            if pos < 0:
                return

    def _close_triple(self, text: str, start: int, state: int, opener: int = 0) -> int:
        """Format a triple-quoted string from ``start``; return the index after
        its end, or -1 (and set the block state) when it runs past the line."""
        end = text.find(_TRIPLES[state], start + opener)
        if end < 0:
            self.setFormat(start, len(text) - start, FORMATS["string"])
            self.setCurrentBlockState(state)
            return -1
        end += 3
        self.setFormat(start, end - start, FORMATS["string"])
        return end
