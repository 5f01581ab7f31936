"""Tokens of the .wbt grammar: kinds, values, positions, comments, commas."""

from __future__ import annotations

import pytest

from engine.world.errors import WorldSyntaxError
from engine.world.lexer import escape_string, read_header, tokenize

H = "#VRML_SIM R2025a utf8\n"


def kinds_values(text: str, comments: bool = False) -> list[tuple[str, str]]:
    return [(t.kind, t.value) for t in tokenize(H + text, comments=comments)]


def test_header_version() -> None:
    assert read_header(H) == "R2025a"
    assert read_header("#VRML_SIM R2023b utf8\r\nWorldInfo {}") == "R2023b"


def test_every_token_kind() -> None:
    text = 'DEF A Solid { name "x" locked TRUE f FALSE n NULL [ 1 -2.5 ] } USE A IS PROTO EXTERNPROTO IMPORTABLE'
    assert kinds_values(text) == [
        ("keyword", "DEF"), ("ident", "A"), ("ident", "Solid"), ("punct", "{"),
        ("ident", "name"), ("string", "x"), ("ident", "locked"), ("keyword", "TRUE"),
        ("ident", "f"), ("keyword", "FALSE"), ("ident", "n"), ("keyword", "NULL"),
        ("punct", "["), ("number", "1"), ("number", "-2.5"), ("punct", "]"), ("punct", "}"),
        ("keyword", "USE"), ("ident", "A"), ("keyword", "IS"), ("keyword", "PROTO"),
        ("keyword", "EXTERNPROTO"), ("keyword", "IMPORTABLE"), ("eof", ""),
    ]


@pytest.mark.parametrize(
    "text", ["0", "-1", "+3", "1.5", ".5", "-.5", "1.", "1e3", "1E-3", "-2.5e+10", "0x1F", "-0xff"]
)
def test_numbers(text: str) -> None:
    assert kinds_values(text) == [("number", text), ("eof", "")]


def test_commas_are_whitespace() -> None:
    assert kinds_values("1,2 ,3,,") == [("number", "1"), ("number", "2"), ("number", "3"), ("eof", "")]


def test_comments_skipped_or_kept() -> None:
    text = "a # comment { [ \"\nb"
    assert kinds_values(text) == [("ident", "a"), ("ident", "b"), ("eof", "")]
    assert kinds_values(text, comments=True) == [
        ("ident", "a"), ("comment", ' comment { [ "'), ("ident", "b"), ("eof", ""),
    ]


def test_string_escapes() -> None:
    tokens = tokenize(H + r'"a\"b\\c\nd\x"')
    assert tokens[0].value == 'a"b\\c\nd\\x'
    assert escape_string('a"b\\c\nd') == r'"a\"b\\c\nd"'


def test_identifier_characters() -> None:
    assert kinds_values("my-name_2 +x -y") == [
        ("ident", "my-name_2"), ("ident", "+x"), ("ident", "-y"), ("eof", ""),
    ]


def test_positions() -> None:
    tokens = tokenize(H + 'Solid {\n  name "a\nb" x 1\n}\n')
    positions = [(t.value, t.line, t.column) for t in tokens]
    assert positions == [
        ("Solid", 2, 1), ("{", 2, 7), ("name", 3, 3), ("a\nb", 3, 8),
        ("x", 4, 4), ("1", 4, 6), ("}", 5, 1), ("", 6, 1),
    ]


def test_header_only() -> None:
    tokens = tokenize("#VRML_SIM R2025a utf8")
    assert [(t.kind, t.line) for t in tokens] == [("eof", 1)]


@pytest.mark.parametrize(
    ("text", "line", "column", "message"),
    [
        ('x "abc', 2, 3, "unterminated string"),
        ("x 12ab", 2, 3, "invalid number '12ab'"),
        ("x 1.2.3", 2, 3, "invalid number '1.2.'"),
        ("  'q'", 2, 3, "unexpected character '''"),
        ("a\\b", 2, 2, "unexpected character '\\'"),
    ],
)
def test_lexical_errors(text: str, line: int, column: int, message: str) -> None:
    with pytest.raises(WorldSyntaxError) as info:
        tokenize(H + text, "w.wbt")
    assert (info.value.line, info.value.column) == (line, column)
    assert message in info.value.message
    assert str(info.value).startswith(f"w.wbt:{line}:{column}: ")
