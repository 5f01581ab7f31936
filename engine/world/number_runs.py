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


def _run_pattern(number: str, size: int) -> re.Pattern[str]:
    """Whole groups of ``size`` numbers separated by white space or commas."""
    group = number + (_SEP + "+" + number) * (size - 1)
    return re.compile(f"{group}(?:{_SEP}+{group})*")


#: (number kind, group size) -> pattern of a run of whole groups
RUNS = {("float", size): _run_pattern(_FLOAT, size) for size in (1, 2, 3, 4)}
RUNS["int", 1] = _run_pattern(_INT, 1)


def _number_run(text: str, offset: int, kind: str, size: int) -> str:
    """The longest run of whole ``size``-groups of plain decimal numbers
    (``kind`` "float" or "int") at ``offset`` (empty if none): the fast path of
    big MF fields. Hexadecimal numbers, comments and anything unusual end the
    run; the token path reads the rest."""
    match = RUNS[kind, size].match(text, offset)
    return match.group(0) if match else ""


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
    words = chunk.replace(",", " ").split()
    if kind == "int":
        values: list = [int(w) for w in words]
        if not all(ft.INT32_MIN <= v <= ft.INT32_MAX for v in values):
            return None
    else:
        values = [float(w) for w in words]
        if not all(map(math.isfinite, values)):
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
