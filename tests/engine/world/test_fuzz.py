"""Fuzzing: mutated worlds either parse or raise WorldSyntaxError, nothing else.

When a mutated text still parses, writing it and reading it back must give an
equal tree and the same text again.
"""

from __future__ import annotations

import re

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.world import WorldSyntaxError, format_world, parse_world
from tests.engine.world.conftest import WORLDS, exact_on_write

SOURCES = [p.read_text() for p in sorted(WORLDS.glob("*.wbt"))] + [
    "#VRML_SIM R2025a utf8\n"
    'EXTERNPROTO "a/B.proto"\n'
    "DEF W WorldInfo { info [ \"x\\\"y\" ] randomSeed 0x1f stepper \"step\" }\n"
    "B { f [ 1, 2 ] g \"s\" DEF IN Box {} }\n"
    "Shape { geometry USE IN }\n"
    "DEF R Robot { hidden position_0_0 1.5 children [ DEF S Shape { geometry Sphere {} } "
    "HingeJoint { endPoint Solid { boundingObject USE S } } ] }\n",
    "#VRML_SIM R2025a utf8\n"
    "Group { children [\n      Foo {\n    a 1\n  }\n  Bar { x \"multi\n line\" }\n] }\n"
    "  Baz {\n\tq [ 1 2 ]\n    }\n",
]
TOKENS = [
    "{", "}", "[", "]", "DEF", "USE", "NULL", "IS", "TRUE", "FALSE", "PROTO", "EXTERNPROTO",
    "IMPORTABLE", '"', "#", ",", ".", "\\", "-", "0x", "1e999", "1.5", "-7", "2147483648",
    "Solid", "Robot", "Box", "Unknown", "hidden", "children", "translation", "name", "S", "R",
    "\n", " ", "\t", "\r", "'", "\x00", "é",
]

mutation = st.tuples(
    st.sampled_from(["insert_char", "delete", "replace_char", "insert_token", "replace_token",
                     "delete_token", "duplicate"]),
    st.floats(min_value=0.0, max_value=1.0),
    st.characters(),
    st.sampled_from(TOKENS),
    st.integers(min_value=1, max_value=40),
)


def mutate(text: str, op: tuple) -> str:
    kind, where, char, token, length = op
    pos = int(where * len(text))
    if kind == "insert_char":
        return text[:pos] + char + text[pos:]
    if kind == "delete":
        return text[:pos] + text[pos + length:]
    if kind == "replace_char":
        return text[:pos] + char + text[pos + 1:]
    if kind == "insert_token":
        return text[:pos] + f" {token} " + text[pos:]
    if kind == "duplicate":
        return text[:pos] + text[pos:pos + length] + text[pos:]
    words = [m.span() for m in re.finditer(r"\S+", text)]
    if not words:
        return text
    start, end = words[min(int(where * len(words)), len(words) - 1)]
    replacement = token if kind == "replace_token" else ""
    return text[:start] + replacement + text[end:]


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(range(len(SOURCES))), st.lists(mutation, min_size=1, max_size=4))
def test_mutated_worlds_raise_only_syntax_errors(index: int, ops: list) -> None:
    text = SOURCES[index]
    for op in ops:
        text = mutate(text, op)
    try:
        world = parse_world(text, "fuzz.wbt")
    except WorldSyntaxError as error:
        assert str(error).startswith("fuzz.wbt:")
        assert error.line >= 1 and error.column >= 1
        return
    written = format_world(world)
    again = parse_world(written, "fuzz.wbt")
    if exact_on_write(text):
        assert again == world
    assert format_world(again) == written


def test_unmutated_sources_parse() -> None:
    for text in SOURCES:
        world = parse_world(text)
        written = format_world(world)
        if exact_on_write(text):
            assert parse_world(written) == world
        assert format_world(parse_world(written)) == written
