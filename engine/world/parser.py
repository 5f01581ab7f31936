"""Parser of `.wbt` world files: `read_world(path)` and `parse_world(text)`.

Every problem in the file raises one `WorldSyntaxError` located by
``file:line:column``; a file with an error never produces a partial world.
Unknown node types and PROTO instances become `OpaqueNode`s (their source
text is kept and written back unchanged) with one warning each in
``World.warnings``.
"""

from __future__ import annotations

import difflib
import math
import os
import stat
from collections.abc import Iterator

from engine.world import fieldtypes as ft
from engine.world.depth import deep_recursion
from engine.world.errors import WorldError, WorldSyntaxError
from engine.world.lexer import Lexer, Token, read_header
from engine.world.model import ExternProto, World
from engine.world.node import (
    BaseNode,
    Node,
    OpaqueNode,
    SourcePosition,
    UseNode,
    check_def_name,
)
from engine.world.number_runs import RUN_KINDS, read_run
from engine.world.schema import FieldSpec, get_spec, use_forbidden
from engine.world.schema_nodes import ROOT

#: Largest world file read [bytes]: real worlds with big meshes reach tens of MB;
#: reading costs a small multiple of the size in memory (docs/world-format.md).
MAX_WORLD_BYTES = 256 * 2**20

#: Deepest node nesting accepted: a hinge chain nests two nodes per link and
#: chains of a thousand links and more must load (issue 13). The recursive
#: parser and writer run under `deep_recursion` (about 8 frames per level
#: within its 40 000); the builder walks the tree iteratively.
MAX_NESTING = 4000

_FAST_MF = frozenset("MF" + sf[2:] for sf in RUN_KINDS)

# words that read as numbers in C (strtod) but are not finite
_NON_FINITE = frozenset({"nan", "inf", "infinity"})


def read_world(path: str | os.PathLike[str]) -> World:
    """Read and parse the world file at ``path`` (UTF-8).

    Only regular files of at most `MAX_WORLD_BYTES` are read (a `WorldError`
    naming the file otherwise: ``/dev/zero``, a FIFO or a folder is refused
    before it is opened).
    """
    filename = os.fspath(path)
    info = os.stat(filename)
    if not stat.S_ISREG(info.st_mode):
        raise WorldError(f"{filename}: not a regular file (a world is a .wbt text file)")
    if info.st_size > MAX_WORLD_BYTES:
        raise WorldError(f"{filename}: the file is {info.st_size / 2**20:.0f} MiB; worlds larger "
                         f"than {MAX_WORLD_BYTES // 2**20} MiB are refused")
    with open(filename, "rb") as stream:
        # never more than the limit, even if the file grows while it is read
        data = stream.read(MAX_WORLD_BYTES + 1)
    if len(data) > MAX_WORLD_BYTES:
        raise WorldError(f"{filename}: worlds larger than {MAX_WORLD_BYTES // 2**20} MiB "
                         f"are refused")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        before = data[: exc.start]
        line = before.count(b"\n") + 1
        column = exc.start - (before.rfind(b"\n") + 1) + 1
        raise WorldSyntaxError(filename, line, column, "the file is not valid UTF-8") from None
    del data  # only the text is kept while parsing
    world = parse_world(text, filename)
    world.filename = filename
    return world


def parse_world(text: str, filename: str = "<string>") -> World:
    """Parse the text of a `.wbt` file into a new `World`."""
    parser = _Parser(text, filename)
    try:
        # the recursive descent takes about 8 frames per nested node
        with deep_recursion():
            return parser.parse()
    except RecursionError:
        token = parser.peek()
        raise WorldSyntaxError(
            filename, token.line, token.column, "nodes are nested too deeply"
        ) from None


class _Parser:
    def __init__(self, text: str, filename: str) -> None:
        self.text = text
        self.filename = filename
        # tokens are read one ahead from the lexer's generator (no token list)
        self.stream: Iterator[Token] = iter(())
        self.ahead = Token("eof", "", 1, 1, 0, 0)
        self.defs: dict[str, BaseNode] = {}
        self.opaque_defs: set[str] = set()
        self.open_defs: list[BaseNode] = []
        self.extern_names: set[str] = set()
        self.warnings: list[str] = []
        self.depth = 0  # nodes being parsed (nesting level)

    # ----- token helpers ------------------------------------------------
    def error(self, token: Token, message: str) -> WorldSyntaxError:
        return WorldSyntaxError(self.filename, token.line, token.column, message)

    def peek(self) -> Token:
        return self.ahead

    def next(self) -> Token:
        token = self.ahead
        if token.kind != "eof":
            self.ahead = next(self.stream)
        return token

    def expect_punct(self, value: str, what: str) -> Token:
        token = self.next()
        if token.kind != "punct" or token.value != value:
            raise self.error(token, f"expected '{value}' {what}, found {token.describe()}")
        return token

    def expect_name(self, after: str) -> Token:
        token = self.next()
        if token.kind != "ident":
            raise self.error(token, f"expected a name after {after}, found {token.describe()}")
        return token

    # ----- world --------------------------------------------------------
    def parse(self) -> World:
        version = read_header(self.text, self.filename)
        lexer = Lexer(self.text, self.filename, comments=True)
        self.stream = lexer.tokens()
        world = World(version)
        # comment lines right after the header are kept as file information
        token = next(self.stream)
        while token.kind == "comment":
            world.comments.append(token.value)
            token = next(self.stream)
        lexer.comments = False  # later comments are skipped by the lexer
        self.ahead = token
        while True:
            token = self.peek()
            if token.kind == "eof":
                break
            if token.kind == "keyword" and token.value in ("EXTERNPROTO", "IMPORTABLE"):
                world.externprotos.append(self.parse_externproto())
                continue
            if token.kind == "keyword" and token.value == "PROTO":
                raise self.error(token, "PROTO definitions are not allowed in a world file "
                                        "(declare them with EXTERNPROTO)")
            node = self.parse_node(None, None)
            world._nodes.append(node)
            node._world = world
        world.warnings = self.warnings
        return world

    def parse_externproto(self) -> ExternProto:
        token = self.next()
        importable = token.value == "IMPORTABLE"
        if importable:
            token = self.next()
            if token.value != "EXTERNPROTO" or token.kind != "keyword":
                raise self.error(token, f"expected EXTERNPROTO after IMPORTABLE, found "
                                        f"{token.describe()}")
        url = self.next()
        if url.kind != "string":
            raise self.error(url, f"expected a quoted URL after EXTERNPROTO, found "
                                  f"{url.describe()}")
        name = os.path.basename(url.value.split("?")[0])
        if name.endswith(".proto"):
            self.extern_names.add(name[: -len(".proto")])
        return ExternProto(url.value, importable)

    # ----- nodes --------------------------------------------------------
    def parse_node(self, owner: Node | None, spec: FieldSpec | None) -> BaseNode:
        start = self.next()
        self.depth += 1
        try:
            if self.depth > MAX_NESTING:
                raise self.error(start, f"nodes are nested too deeply (more than "
                                        f"{MAX_NESTING} levels)")
            return self._parse_node(start, owner, spec)
        finally:
            self.depth -= 1

    def _parse_node(self, start: Token, owner: Node | None, spec: FieldSpec | None) -> BaseNode:
        if start.kind == "keyword" and start.value == "USE":
            return self.parse_use(start, owner, spec)
        def_name = None
        type_token = start
        if start.kind == "keyword" and start.value == "DEF":
            name = self.expect_name("DEF")
            try:
                check_def_name(name.value)
            except WorldError as exc:
                raise self.error(name, str(exc)) from None
            def_name = name.value
            type_token = self.next()
        if type_token.kind != "ident":
            raise self.error(type_token, f"expected a node type, found {type_token.describe()}")
        if get_spec(type_token.value) is None:
            node: BaseNode = self.parse_opaque(start, type_token, def_name)
        else:
            self.check_allowed(type_token, type_token.value, owner, spec)
            node = Node(type_token.value, def_name)
            if def_name is not None:
                self.open_defs.append(node)
            self.parse_fields(node, type_token)
            if def_name is not None:
                self.open_defs.pop()
        node.source = SourcePosition(start.line, start.column)
        if def_name is not None:
            self.defs[def_name] = node
        return node

    def check_allowed(
        self, token: Token, type_name: str, owner: Node | None, spec: FieldSpec | None
    ) -> None:
        if owner is None:
            if type_name not in ROOT:
                raise self.error(token, f"{type_name} is not allowed at the top level of a world")
            return
        assert spec is not None
        node_spec = get_spec(type_name)
        if spec.node_types is not None and node_spec is not None and not any(
            node_spec.is_a(t) for t in spec.node_types
        ):
            allowed = ", ".join(sorted(spec.node_types))
            raise self.error(token, f"{type_name} is not allowed in field '{spec.name}' of "
                                    f"{owner.type_name} (allowed: {allowed})")

    def parse_use(self, start: Token, owner: Node | None, spec: FieldSpec | None) -> BaseNode:
        name = self.expect_name("USE")
        # as Webots: USE names the most recent *complete* DEF of that name (a DEF
        # still open around this USE is not a candidate, an earlier one is)
        target = self.defs.get(name.value)
        if target is None:
            if name.value in self.opaque_defs:
                return OpaqueNode("USE", f"USE {name.value}")
            if any(node.def_name == name.value for node in self.open_defs):
                raise self.error(name, f"USE '{name.value}' inside the definition of "
                                       f"DEF '{name.value}' itself (no earlier complete "
                                       f"DEF '{name.value}')")
            raise self.error(name, f"USE '{name.value}' before any DEF '{name.value}'")
        if use_forbidden(target.type_name):
            raise self.error(start, f"USE of {target.type_name} nodes is not allowed "
                                    f"(USE '{name.value}')")
        if not target.is_opaque:
            self.check_allowed(name, target.type_name, owner, spec)
        return UseNode(target)

    def parse_opaque(self, start: Token, type_token: Token, def_name: str | None) -> OpaqueNode:
        brace = self.expect_punct("{", f"after node type '{type_token.value}'")
        end = self.skip_group(brace, f"'{{' of {type_token.value} at line {type_token.line}")
        body = self.source(start, type_token.offset, end)
        kind = "PROTO" if type_token.value in self.extern_names else "unknown node type"
        self.warnings.append(
            f"{self.filename}:{type_token.line}:{type_token.column}: {kind} "
            f"'{type_token.value}' is kept as is (opaque node)"
        )
        return OpaqueNode(type_token.value, body, def_name)

    def source(self, first: Token, begin: int, end: int) -> str:
        """Source text ``[begin, end)`` with continuation lines stored relative to
        the indentation of ``first``'s line, so the writer can indent them anew."""
        body = self.text[begin:end]
        line_start = self.text.rfind("\n", 0, first.offset) + 1
        indent = ""
        while self.text[line_start + len(indent)] in " \t":
            indent += self.text[line_start + len(indent)]
        lines = body.split("\n")
        keep = len(indent)  # at most the first line's indentation is removed
        for line in lines[1:]:
            if line.strip():
                j = 0
                while j < keep and j < len(line) and line[j] == indent[j]:
                    j += 1
                keep = j
        return "\n".join(lines[:1] + [line[keep:] if line.strip() else "" for line in lines[1:]])

    def parse_unknown_field(self, node: Node, name: Token) -> None:
        """Keep the value of a field the schema does not know as source text.

        The value is a run of numbers, strings or TRUE/FALSE/NULL words, a
        bracketed list, or one node (``DEF``/``USE``/``Type { ... }``); DEF names
        inside it become opaque DEFs. One warning, located at the field name.
        """
        fields = node.spec.fields  # type: ignore[union-attr]
        hint = difflib.get_close_matches(name.value, list(fields), n=1)
        extra = f" (did you mean '{hint[0]}'?)" if hint else ""
        first = self.peek()
        if first.kind == "eof" or (first.kind == "punct" and first.value in "]}"):
            raise self.error(first, f"expected a value for field '{name.value}', "
                                    f"found {first.describe()}")
        end = self.skip_value(name)
        self.warnings.append(
            f"{self.filename}:{name.line}:{name.column}: unknown field '{name.value}' in "
            f"{node.type_name}{extra} is kept as is"
        )
        node.unknown_fields.append((name.value, self.source(name, first.offset, end)))

    def skip_value(self, name: Token) -> int:
        """Skip one untyped field value; the offset just after its last token."""
        token = self.next()
        if token.kind == "punct" and token.value in "[{":
            return self.skip_group(token, _field_group(token, name))
        if token.kind == "keyword" and token.value in ("DEF", "USE"):
            label = self.expect_name(token.value)
            if token.value == "USE":
                return label.end
            self.opaque_defs.add(label.value)
            token = self.next()
        if token.kind == "ident":
            brace = self.next()
            if brace.kind != "punct" or brace.value != "{":
                raise self.error(brace, f"expected '{{' after node type '{token.value}' in "
                                        f"field '{name.value}', found {brace.describe()}")
            return self.skip_group(brace, _field_group(brace, name))
        end = token.end
        while self.peek().kind == token.kind and token.kind in ("number", "string"):
            end = self.next().end
        return end

    def skip_group(self, opening: Token, what: str) -> int:
        """Skip to the bracket closing ``opening`` (``what`` names it in the
        end-of-file error), noting the DEF names inside; the offset just after it."""
        depth = 1
        previous = opening
        while depth:
            token = self.next()
            if token.kind == "eof":
                raise self.error(token, f"unexpected end of file: {what} is never closed")
            if token.kind == "punct":
                depth += 1 if token.value in "{[" else -1
            if previous.value == "DEF" and token.kind == "ident":
                self.opaque_defs.add(token.value)
            previous = token
        return token.end

    def parse_fields(self, node: Node, type_token: Token) -> None:
        self.expect_punct("{", f"after node type '{type_token.value}'")
        seen: set[str] = set()
        fields = node.spec.fields  # type: ignore[union-attr]
        while True:
            token = self.next()
            if token.kind == "punct" and token.value == "}":
                return
            if token.kind == "eof":
                raise self.error(token, f"unexpected end of file: '{{' of {node.type_name} at "
                                        f"line {type_token.line} is never closed")
            if token.kind == "keyword" and token.value == "IS":
                raise self.error(token, "IS is only allowed inside PROTO definitions")
            if token.kind != "ident":
                raise self.error(token, f"expected a field name of {node.type_name} or '}}', "
                                        f"found {token.describe()}")
            if token.value == "hidden":
                self.parse_hidden(node)
                continue
            spec = fields.get(token.value)
            if spec is None:
                self.parse_unknown_field(node, token)
                continue
            if token.value in seen:
                raise self.error(token, f"field '{token.value}' is given twice in "
                                        f"{node.type_name}")
            seen.add(token.value)
            value = self.parse_value(node, spec, token)
            if spec.type in _FAST_MF:
                node.set_parsed(spec.name, value)  # items already checked
                continue
            try:
                node.set(spec.name, value)
            except WorldError as exc:
                raise self.error(token, str(exc)) from None

    def parse_hidden(self, node: Node) -> None:
        name = self.expect_name("hidden")
        values = []
        while self.peek().kind == "number":
            values.append(self.next().value)
        if not values:
            raise self.error(self.peek(), f"expected numbers for hidden field '{name.value}', "
                                          f"found {self.peek().describe()}")
        node.hidden.append((name.value, " ".join(values)))

    # ----- values -------------------------------------------------------
    def parse_value(self, node: Node, spec: FieldSpec, name: Token) -> object:
        if not ft.is_mf(spec.type):
            return self.parse_sf(node, spec, spec.type, name)
        sf = ft.sf_of(spec.type)
        token = self.peek()
        if not (token.kind == "punct" and token.value == "["):
            return (self.parse_sf(node, spec, sf, name),)
        self.next()
        items = self.fast_numbers(sf) if self.peek().kind == "number" else []
        while True:
            token = self.peek()
            if token.kind == "punct" and token.value == "]":
                self.next()
                return tuple(items)
            if token.kind == "eof":
                raise self.error(token, f"unexpected end of file: '[' of field '{spec.name}' "
                                        f"at line {name.line} is never closed")
            items.append(self.parse_sf(node, spec, sf, name))

    def fast_numbers(self, sf: str) -> list:
        """Items of a numeric MF field read as one run of text (big meshes), the
        lexer moved past them; [] when `number_runs.read_run` declines."""
        run = read_run(self.text, self.ahead, sf)
        if run is None:
            return []
        self.ahead = self.stream.send(run.resume)
        return run.values

    def parse_sf(self, node: Node, spec: FieldSpec, sf: str, name: Token) -> object:
        if sf == "SFNode":
            token = self.peek()
            if token.kind == "keyword" and token.value == "NULL":
                if ft.is_mf(spec.type):
                    raise self.error(token, f"NULL is not allowed in MFNode field '{spec.name}'")
                self.next()
                return None
            return self.parse_node(node, spec)
        if sf in ft.VECTOR_SIZES:
            size = ft.VECTOR_SIZES[sf]
            values = []
            while len(values) < size and self.peek().kind == "number":
                values.append(self.number(self.next(), "SFFloat", spec))
            if len(values) < size:
                found = self.peek()
                if found.kind == "ident" and found.value.lower().lstrip("+-") in _NON_FINITE:
                    raise self.error(found, f"number '{found.value}' is not allowed in {sf} "
                                            f"field '{spec.name}' (numbers must be finite)")
                raise self.error(name, f"expected {size} numbers for {sf} field '{spec.name}', "
                                       f"got {len(values)}")
            return tuple(values)
        token = self.next()
        if sf == "SFBool":
            if token.kind != "keyword" or token.value not in ("TRUE", "FALSE"):
                raise self.error(token, f"expected TRUE or FALSE for field '{spec.name}', "
                                        f"found {token.describe()}")
            return token.value == "TRUE"
        if sf == "SFString":
            if token.kind != "string":
                raise self.error(token, f"expected a quoted string for field '{spec.name}', "
                                        f"found {token.describe()}")
            if spec.choices is not None and token.value not in spec.choices:
                allowed = ", ".join(f'"{c}"' for c in spec.choices)
                raise self.error(token, f"invalid value \"{token.value}\" for field "
                                        f"'{spec.name}' of {node.type_name}: expected one of "
                                        f"{allowed}")
            return token.value
        if token.kind == "ident" and token.value.lower().lstrip("+-") in _NON_FINITE:
            raise self.error(token, f"number '{token.value}' is not allowed in field "
                                    f"'{spec.name}' (numbers must be finite)")
        if token.kind != "number":
            what = "an integer" if sf == "SFInt32" else "a number"
            raise self.error(token, f"expected {what} for field '{spec.name}', "
                                    f"found {token.describe()}")
        return self.number(token, sf, spec)

    def number(self, token: Token, sf: str, spec: FieldSpec) -> float | int:
        text = token.value
        is_hex = "x" in text or "X" in text
        if sf == "SFInt32":
            if not is_hex and any(c in text for c in ".eE"):
                raise self.error(token, f"expected an integer for field '{spec.name}', "
                                        f"found '{text}'")
            value = int(text, 16) if is_hex else int(text)
            if not ft.INT32_MIN <= value <= ft.INT32_MAX:
                raise self.error(token, f"integer '{text}' is out of the 32-bit range")
            return value
        if is_hex:
            raise self.error(token, f"hexadecimal numbers are only allowed for integer fields, "
                                    f"found '{text}' for field '{spec.name}'")
        result = float(text)
        if not math.isfinite(result):
            raise self.error(token, f"number '{text}' is out of range")
        return result


def _field_group(opening: Token, name: Token) -> str:
    """How an unclosed bracket of field ``name`` is named in errors."""
    return f"'{opening.value}' of field '{name.value}' at line {opening.line}"
