"""Fast path of the parser for big numeric MF fields (meshes, heights).

`read_run` reads the longest run of plain decimal numbers at a token as one
piece of text (a regular expression, then `float`/`int` on the words), instead
of one token per number. Whole groups only (3 floats for an MFVec3f item);
hexadecimal numbers, comments and anything unusual end the run, and the
token path reads the rest, so errors keep their exact file:line:column.
"""

from __future__ import annotations

import math
import re
from typing import NamedTuple

from engine.world import fieldtypes as ft
from engine.world.lexer import Token

#: single type of an MF field -> (number kind, group size) read by `read_run`
RUN_KINDS = {"SFFloat": ("float", 1), "SFInt32": ("int", 1), "SFVec2f": ("float", 2),
             "SFVec3f": ("float", 3), "SFColor": ("float", 3), "SFRotation": ("float", 4)}
# the lexer's separators exactly (not Unicode white space, which it refuses)
_SEP = r"[ \t\r\n,]"
_FLOAT = r"[+-]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?(?=[ \t\r\n,\]#]|\Z)"
_INT = r"[+-]?[0-9]+(?=[ \t\r\n,\]#]|\Z)"


#: groups per regular-expression match: `re` keeps state per repetition of a
#: group, so one match over a whole mesh would cost ~200 bytes per number
_GROUPS_PER_MATCH = 1024


def _patterns(number: str, size: int) -> tuple[re.Pattern[str], re.Pattern[str]]:
    """(first, next) patterns of whole groups of ``size`` numbers separated by
    white space or commas: ``first`` starts a run, ``next`` continues it."""
    group = number + (_SEP + "+" + number) * (size - 1)
    more = f"(?:{_SEP}+{group})"
    return (re.compile(f"{group}{more}{{0,{_GROUPS_PER_MATCH - 1}}}"),
            re.compile(f"{more}{{1,{_GROUPS_PER_MATCH}}}"))


#: (number kind, group size) -> patterns of a run of whole groups
RUNS = {("float", size): _patterns(_FLOAT, size) for size in (1, 2, 3, 4)}
RUNS["int", 1] = _patterns(_INT, 1)


def _number_run(text: str, offset: int, kind: str, size: int) -> str:
    """The longest run of whole ``size``-groups of plain decimal numbers
    (``kind`` "float" or "int") at ``offset`` (empty if none): the fast path of
    big MF fields. Hexadecimal numbers, comments and anything unusual end the
    run; the token path reads the rest."""
    first, more = RUNS[kind, size]
    match = first.match(text, offset)
    if match is None:
        return ""
    end = match.end()
    while (match := more.match(text, end)) is not None:
        end = match.end()
    return text[offset:end]


#: characters converted per slice: the words of one slice exist at a time
_SLICE = 1 << 16
_SEPARATOR = re.compile(_SEP)


def _convert(chunk: str, convert: type) -> list:
    """The numbers of ``chunk``, converted slice by slice (so the temporary word
    strings never outnumber one slice's)."""
    values: list = []
    start, n = 0, len(chunk)
    while start < n:
        cut = _SEPARATOR.search(chunk, min(start + _SLICE, n))
        end = cut.start() if cut else n
        values.extend(map(convert, chunk[start:end].replace(",", " ").split()))
        start = end
    return values


class Run(NamedTuple):
    """Values of a run and where the lexer resumes: ``(offset, line, line_start)``."""

    values: list
    resume: tuple[int, int, int]


def read_run(text: str, first: Token, sf: str) -> Run | None:
    """The run of ``sf`` items (SFFloat, SFInt32 or a vector type) starting at the
    number token ``first``; None when there is none or it holds a value the
    token path must report (non-finite, out of the 32-bit range)."""
    if sf not in RUN_KINDS:
        return None
    kind, size = RUN_KINDS[sf]
    chunk = _number_run(text, first.offset, kind, size)
    if not chunk:
        return None
    values = _convert(chunk, int if kind == "int" else float)
    if kind == "int":
        if not all(ft.INT32_MIN <= v <= ft.INT32_MAX for v in values):
            return None
    elif not all(map(math.isfinite, values)):
        return None
    end = first.offset + len(chunk)
    line, line_start = first.line, first.offset - first.column + 1
    breaks = chunk.count("\n")
    if breaks:
        line += breaks
        line_start = first.offset + chunk.rfind("\n") + 1
    if size > 1:
        # consecutive groups of `size` floats, as tuples
        values = list(zip(*[iter(values)] * size, strict=True))
    return Run(values, (end, line, line_start))
