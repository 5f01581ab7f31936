"""Tokenizer of the Webots `.wbt` grammar (R2022b and later).

The first line must be the header ``#VRML_SIM <version> utf8``; the lexer
checks it and reports the version. Afterwards it produces `Token`s with
1-based line and column. ``#`` starts a comment that runs to the end of the
line; commas and white space separate tokens and are otherwise ignored.

Token kinds:

- ``ident``   identifiers (node types, field names, DEF names)
- ``keyword`` DEF USE NULL IS TRUE FALSE PROTO EXTERNPROTO IMPORTABLE
- ``number``  integers (decimal or ``0x`` hexadecimal) and floats; the token
  keeps its source text, the parser converts it for the field's type
- ``string``  double-quoted strings; ``value`` is the unescaped text
  (escapes: ``\\"``, ``\\\\`` and ``\\n``; any other backslash is kept)
- ``punct``   one of ``{ } [ ]``
- ``comment`` ``#`` comments (text without the ``#``), only when asked for
- ``eof``     end of input
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import NamedTuple

from engine.world.errors import WorldSyntaxError

KEYWORDS = frozenset(
    {"DEF", "USE", "NULL", "IS", "TRUE", "FALSE", "PROTO", "EXTERNPROTO", "IMPORTABLE"}
)
# characters that may never appear in an identifier
_NOT_IDENT = set(" \t\r\n\"#',.[\\]{}")
# separators: white space, commas and byte-order marks
_SPACE = re.compile("[ \t\r\n,\ufeff]*")
# a run of identifier characters (the complement of _NOT_IDENT and controls)
_IDENT = re.compile(r"[^\x00-\x20\"#',.\[\\\]{}]+")
_SIMPLE_STRING = re.compile(r'"([^"\\\n]*)"')
_HEADER_RE = re.compile(r"#VRML_SIM (\S+) utf8[ \t]*$")
_NUMBER_RE = re.compile(
    r"[+-]?(?:0[xX][0-9a-fA-F]+|(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?)"
)


class Token(NamedTuple):
    """One lexical token; ``offset`` is the index of its first character.

    A tuple (cheap to build): the lexer makes one per number of a mesh.
    """

    kind: str
    value: str
    line: int
    column: int
    offset: int
    end: int

    def describe(self) -> str:
        """A short human description used in error messages."""
        if self.kind == "eof":
            return "end of file"
        if self.kind == "string":
            return f'string "{self.value}"'
        return f"'{self.value}'"


def _is_ident_char(ch: str) -> bool:
    return ch not in _NOT_IDENT and ord(ch) > 0x20


def read_header(text: str, filename: str = "<string>") -> str:
    """Check the first line ``#VRML_SIM <version> utf8`` and return the version."""
    # a UTF-8 byte-order mark (written by some editors) is not part of the header
    first = text.split("\n", 1)[0].rstrip("\r").removeprefix("\ufeff")
    if not first.startswith("#VRML_SIM"):
        raise WorldSyntaxError(
            filename, 1, 1, "missing header: the first line must be '#VRML_SIM R2025a utf8'"
        )
    match = _HEADER_RE.match(first)
    if match is None:
        raise WorldSyntaxError(
            filename, 1, 1, f"invalid header '{first}': expected '#VRML_SIM <version> utf8'"
        )
    return match.group(1)


class Lexer:
    """Iterates over the tokens of a world text (the header line is skipped)."""

    def __init__(self, text: str, filename: str = "<string>", comments: bool = False) -> None:
        self.text = text
        self.filename = filename
        self.comments = comments

    def _error(self, line: int, column: int, message: str) -> WorldSyntaxError:
        return WorldSyntaxError(self.filename, line, column, message)

    def tokens(self) -> Iterator[Token]:
        """Yield every token, ending with one ``eof`` token (a generator: the
        text is tokenized as the parser asks, never held as a token list)."""
        text = self.text
        n = len(text)
        # skip the header line: it is checked by read_header()
        pos = text.find("\n")
        pos = n if pos < 0 else pos + 1
        line, line_start = (2, pos) if pos <= n and "\n" in text[:pos] else (1, 0)
        space, ident, number = _SPACE.match, _IDENT.match, _NUMBER_RE.match
        while True:
            end = space(text, pos).end()
            if end > pos:
                breaks = text.count("\n", pos, end)
                if breaks:
                    line += breaks
                    line_start = text.rfind("\n", pos, end) + 1
                pos = end
            if pos >= n:
                yield Token("eof", "", line, pos - line_start + 1, n, n)
                return
            ch = text[pos]
            col = pos - line_start + 1
            start = pos
            if ch == "#":
                end = text.find("\n", pos)
                end = n if end < 0 else end
                if self.comments:
                    yield Token("comment", text[pos + 1 : end].rstrip("\r"), line, col, pos, end)
                pos = end
            elif ch in "{}[]":
                pos += 1
                yield Token("punct", ch, line, col, start, pos)
            elif ch == '"':
                value, pos, line, line_start = self._string(pos, line, line_start)
                yield Token("string", value, self._tline, col, start, pos)
            elif ch.isdigit() or (
                ch in "+-." and pos + 1 < n and (text[pos + 1].isdigit() or text[pos + 1] == ".")
            ):
                match = number(text, pos)
                end = match.end() if match else pos + 1
                if match is None or (end < n and _is_ident_char(text[end]) and text[end] != "."):
                    end = ident(text, end).end() if end < n else end
                    raise self._error(line, col, f"invalid number '{text[pos:end]}'")
                if end < n and text[end] == ".":
                    raise self._error(line, col, f"invalid number '{text[pos:end + 1]}'")
                pos = end
                # the parser may send (pos, line, line_start) to skip a run of
                # numbers it read itself (see `number_run`)
                jump = yield Token("number", text[start:end], line, col, start, end)
                if jump is not None:
                    pos, line, line_start = jump
            elif _is_ident_char(ch):
                pos = ident(text, pos).end()
                word = text[start:pos]
                kind = "keyword" if word in KEYWORDS else "ident"
                yield Token(kind, word, line, col, start, pos)
            else:
                shown = ch if ch.isprintable() else repr(ch)
                hint = " (names cannot contain dots)" if ch == "." else ""
                raise self._error(line, col, f"unexpected character '{shown}'{hint}")

    def _string(self, pos: int, line: int, line_start: int) -> tuple[str, int, int, int]:
        """Read a string starting at the quote ``pos``; return value and new state."""
        text = self.text
        self._tline = line
        simple = _SIMPLE_STRING.match(text, pos)
        if simple is not None:
            return simple.group(1), simple.end(), line, line_start
        n = len(text)
        col = pos - line_start + 1
        start_line = line
        pos += 1
        parts: list[str] = []
        while True:
            if pos >= n:
                raise self._error(start_line, col, "unterminated string (missing closing '\"')")
            ch = text[pos]
            if ch == '"':
                return "".join(parts), pos + 1, line, line_start
            if ch == "\\" and pos + 1 < n:
                nxt = text[pos + 1]
                if nxt in '"\\':
                    parts.append(nxt)
                    pos += 2
                    continue
                if nxt == "n":
                    parts.append("\n")
                    pos += 2
                    continue
            if ch == "\n":
                line += 1
                line_start = pos + 1
            parts.append(ch)
            pos += 1


def tokenize(text: str, filename: str = "<string>", comments: bool = False) -> list[Token]:
    """Check the header, then return the list of tokens of ``text`` (ending with ``eof``)."""
    read_header(text, filename)
    return list(Lexer(text, filename, comments).tokens())


def escape_string(value: str) -> str:
    """Quote ``value`` as a `.wbt` string literal (inverse of the lexer's unescaping)."""
    body = value.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")
    return f'"{body}"'

