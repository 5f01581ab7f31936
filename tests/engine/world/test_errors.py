"""Parser errors: one WorldSyntaxError with exact file:line:column, nothing half-loaded."""

from __future__ import annotations

import pytest

from engine.world import WorldSyntaxError, parse_world, read_world

H = "#VRML_SIM R2025a utf8\n"

CASES = [
    # (text after the header, line, column, message)
    ("Solid {\n  translation 0 nan 1\n}", 3, 17,
     "number 'nan' is not allowed in SFVec3f field 'translation' (numbers must be finite)"),
    ("Solid {\n  rotation 0 0 1 -inf\n}", 3, 18,
     "number '-inf' is not allowed in SFRotation field 'rotation' (numbers must be finite)"),
    ("WorldInfo { basicTimeStep NaN }", 2, 27,
     "number 'NaN' is not allowed in field 'basicTimeStep' (numbers must be finite)"),
    ("Solid { children [ Transform { children [ USE T ] } ] }\nDEF T Transform {}", 2, 47,
     "USE 'T' before any DEF 'T'"),
    ("Solid {\n  foo ]\n}", 3, 7, "expected a value for field 'foo', found ']'"),
    ("Solid {\n  foo Bar baz\n}", 3, 11,
     "expected '{' after node type 'Bar' in field 'foo', found 'baz'"),
    ("Solid {\n  foo [ 1 2\n", 4, 1,
     "unexpected end of file: '[' of field 'foo' at line 3 is never closed"),
    ("Solid {\n  translation 0 0\n}", 3, 3,
     "expected 3 numbers for SFVec3f field 'translation', got 2"),
    ("Shape {\n  geometry USE FOO\n}", 3, 16, "USE 'FOO' before any DEF 'FOO'"),
    ('Solid {\n  name "abc\n}\n', 3, 8, "unterminated string (missing closing '\"')"),
    ("Solid {\n  children [\n    Shape {\n", 5, 1,
     "unexpected end of file: '{' of Shape at line 4 is never closed"),
    ("Solid {\n  children [", 3, 13,
     "unexpected end of file: '[' of field 'children' at line 3 is never closed"),
    ("DEF S Solid {}\nSolid { children [ USE S ] }", 3, 20,
     "USE of Solid nodes is not allowed (USE 'S')"),
    ("Solid { children [ DEF J HingeJoint {} USE J ] }", 2, 40,
     "USE of HingeJoint nodes is not allowed (USE 'J')"),
    ("Solid {\n  locked yes\n}", 3, 10, "expected TRUE or FALSE for field 'locked', found 'yes'"),
    ("WorldInfo { randomSeed 1.5 }", 2, 24, "expected an integer for field 'randomSeed', found '1.5'"),
    ("WorldInfo { randomSeed 3000000000 }", 2, 24, "integer '3000000000' is out of the 32-bit range"),
    ('WorldInfo {\n  stepper "fast"\n}', 3, 11,
     'invalid value "fast" for field \'stepper\' of WorldInfo: expected one of "step", "quickstep"'),
    ("Shape { geometry Solid {} }", 2, 18,
     "Solid is not allowed in field 'geometry' of Shape (allowed: Box, Capsule, Cylinder, "
     "ElevationGrid, IndexedFaceSet, Mesh, Plane, Sphere)"),
    ("Box {}", 2, 1, "Box is not allowed at the top level of a world"),
    ("Solid { name 3 }", 2, 14, "expected a quoted string for field 'name', found '3'"),
    ("Solid { name IS n }", 2, 14, "expected a quoted string for field 'name', found 'IS'"),
    ("Solid { IS }", 2, 9, "IS is only allowed inside PROTO definitions"),
    ("Solid { name \"a\" name \"b\" }", 2, 18, "field 'name' is given twice in Solid"),
    ("Solid [ ]", 2, 7, "expected '{' after node type 'Solid', found '['"),
    ("DEF A.B Solid {}", 2, 6, "unexpected character '.' (names cannot contain dots)"),
    ("DEF 3 Solid {}", 2, 5, "expected a name after DEF, found '3'"),
    ("Solid { translation 1e999 0 0 }", 2, 21, "number '1e999' is out of range"),
    ("Solid { translation 0x10 0 0 }", 2, 21, "hexadecimal numbers are only allowed for integer fields"),
    ("PROTO X [] {}", 2, 1, "PROTO definitions are not allowed in a world file"),
    ("EXTERNPROTO foo", 2, 13, "expected a quoted URL after EXTERNPROTO, found 'foo'"),
    ("DEF G Group { children [ USE G ] }", 2, 30, "USE 'G' inside the definition of DEF 'G' itself (no earlier complete DEF 'G')"),
    ("Solid { children [ NULL ] }", 2, 20, "NULL is not allowed in MFNode field 'children'"),
    ("Solid { 5 }", 2, 9, "expected a field name of Solid or '}', found '5'"),
    ("Solid { physics 1 }", 2, 17, "expected a node type, found '1'"),
    ("Unknown { a [ b }", 2, 18, "unexpected end of file: '{' of Unknown at line 2 is never closed"),
    ("Solid { translation 1 2 3 4 }", 2, 27, "expected a field name of Solid or '}', found '4'"),
]


@pytest.mark.parametrize(("text", "line", "column", "message"), CASES)
def test_error_position_and_message(text: str, line: int, column: int, message: str) -> None:
    with pytest.raises(WorldSyntaxError) as info:
        parse_world(H + text, "worlds/x.wbt")
    error = info.value
    assert (error.filename, error.line, error.column) == ("worlds/x.wbt", line, column)
    assert message in error.message
    assert str(error) == f"worlds/x.wbt:{line}:{column}: {error.message}"


def test_missing_and_invalid_header() -> None:
    with pytest.raises(WorldSyntaxError, match=r"^w:1:1: missing header"):
        parse_world("WorldInfo {}", "w")
    with pytest.raises(WorldSyntaxError, match=r"^w:1:1: invalid header '#VRML_SIM R2025a'"):
        parse_world("#VRML_SIM R2025a\nWorldInfo {}", "w")
    with pytest.raises(WorldSyntaxError, match="missing header"):
        parse_world("", "w")


def test_read_world_reports_path_and_bad_utf8(tmp_path) -> None:
    path = tmp_path / "bad.wbt"
    path.write_bytes(b"#VRML_SIM R2025a utf8\nSolid { name \"\xff\" }\n")
    with pytest.raises(WorldSyntaxError) as info:
        read_world(path)
    assert (info.value.line, info.value.column) == (2, 15)
    assert str(info.value).startswith(str(path))


def test_deep_nesting_is_a_syntax_error() -> None:
    # 2000 levels parse (a 1000-link hinge chain nests two nodes per link);
    # beyond MAX_NESTING the reader refuses instead of exhausting the stack
    from engine.world.parser import MAX_NESTING

    assert parse_world(H + "Group { children [ " * 2000 + "]}" * 2000) is not None
    depth = MAX_NESTING + 1
    text = H + "Group { children [ " * depth + "]}" * depth
    with pytest.raises(WorldSyntaxError, match="nested too deeply"):
        parse_world(text)


def test_error_does_not_return_partial_world() -> None:
    # the first nodes are fine; the error at the end must still reject the whole file
    text = H + "WorldInfo {}\nViewpoint {}\nSolid { name 1 }"
    result = None
    with pytest.raises(WorldSyntaxError):
        result = parse_world(text)
    assert result is None
