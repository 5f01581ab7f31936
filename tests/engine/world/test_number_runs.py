"""The fast path of numeric MF fields gives the token path's values and errors."""

from __future__ import annotations

import pytest

from engine.world import WorldSyntaxError, parse_world

from .conftest import HEADER


def _ifs(points: str, index: str = "0 1 2 -1") -> str:
    return HEADER + ("Shape { geometry IndexedFaceSet {\n  coord Coordinate { point [\n"
                     f"{points}\n  ] }}\n  coordIndex [ {index} ]\n}}}}\n")


def _geometry(text: str):
    return parse_world(text).nodes[0].get("geometry")


def test_runs_with_commas_comments_and_hex_read_every_item() -> None:
    geo = _geometry(_ifs("0 0 0, 1 0 0 # a comment\n 0 1.5e0 0,\n -.5 +2 3.",
                         "0, 1, 2, -1, 0x3 0X1 2 -1"))
    assert geo.get("coord").get("point") == (
        (0.0, 0.0, 0.0), (1.0, 0.0, 0.0), (0.0, 1.5, 0.0), (-0.5, 2.0, 3.0))
    assert geo.get("coordIndex") == (0, 1, 2, -1, 3, 1, 2, -1)


def test_values_are_the_token_paths() -> None:
    # the same numbers as a single item (token path) and inside a run (fast path)
    words = ["0.1", "1e-05", "-0", "123456789.123456789", "7", "2.5E+3"]
    slow = [parse_world(HEADER + f"WorldInfo {{ basicTimeStep {w} }}").nodes[0]
            .get("basicTimeStep") for w in words]
    fast = parse_world(HEADER + "Group { children [ Shape { geometry ElevationGrid { "
                       f"xDimension 6 zDimension 1 height [ {' '.join(words)} ] }} }} ] }}"
                       ).nodes[0].get("children")[0].get("geometry").get("height")
    assert list(fast) == slow


@pytest.mark.parametrize(("points", "line", "column", "message"), [
    ("0 0 0\n1 nan 0", 5, 3, "number 'nan' is not allowed"),
    ("0 0 0\n1 1e999 0", 5, 3, "number '1e999' is out of range"),
    ("0 0 0\n1 2", 3, 22, "expected 3 numbers for SFVec3f field 'point', got 2"),
    ("0 0 0\n1 2.5.1 0", 5, 3, "invalid number '2.5.'"),
    ("0 0 0\n1 0x2 0", 5, 3, "hexadecimal numbers are only allowed for integer fields"),
])
def test_errors_inside_a_run_keep_their_position(points, line, column, message) -> None:
    with pytest.raises(WorldSyntaxError) as info:
        parse_world(_ifs(points), "m.wbt")
    assert message in info.value.message
    assert (info.value.line, info.value.column) == (line, column)


def test_integer_out_of_range_inside_a_run() -> None:
    with pytest.raises(WorldSyntaxError, match="out of the 32-bit range") as info:
        parse_world(_ifs("0 0 0", "0 1 2 -1\n 3000000000 -1"))
    assert (info.value.line, info.value.column) == (7, 2)


def test_lines_after_a_run_are_counted() -> None:
    text = _ifs("0 0 0\n0 0 0\n0 0 0", "0 1 2 -1") + "Solid { name 3 }\n"
    with pytest.raises(WorldSyntaxError) as info:
        parse_world(text)
    assert (info.value.line, info.value.column) == (10, 14)


def test_long_runs_cross_the_per_match_group_limit() -> None:
    from engine.world import number_runs

    count = 3 * number_runs._GROUPS_PER_MATCH + 7
    points = "\n".join(f"{i} {i}.5, -{i}" for i in range(count))
    geo = _geometry(_ifs(points, " ".join(str(i) for i in range(count))))
    got = geo.get("coord").get("point")
    assert len(got) == count
    assert got[-1] == (count - 1, count - 0.5, -(count - 1))
    assert geo.get("coordIndex") == tuple(range(count))
