"""Writer of `.wbt` files in Webots' style.

`format_world` returns the text: header, EXTERNPROTO lines, then the root
nodes with 2-space indentation; fields equal to their default are omitted,
floats use the shortest text that reads back exactly. `write_world` saves
atomically: the text goes to a temporary file in the target directory which
then replaces the target with `os.replace`, so a failure leaves the old
file intact.

Fields are written in schema order, which may differ from the order of the
file that was read. A USE node is written as ``USE name`` when its DEF node
was written earlier under that name and not shadowed since; otherwise the
DEF node's content is written in full (with its DEF) at the USE position,
and the DEF node itself, when reached later, becomes ``USE name``. A DEF
node that was deleted while USE nodes remain is thus written at the first
USE. The saved file always reads back to an equal tree (`tree_equal`
compares USE nodes by the content they share).
"""

from __future__ import annotations

import os
import tempfile

from engine.world import fieldtypes as ft
from engine.world.lexer import escape_string
from engine.world.model import World
from engine.world.node import BaseNode, Node, OpaqueNode, UseNode

INDENT = "  "


def _reindented(text: str, depth: int) -> list[str]:
    """Lines of kept source ``text`` (continuation lines relative to its first
    line, see the parser), every non-blank line indented by ``depth`` levels."""
    pad = INDENT * depth
    return [pad + line if line.strip() else line for line in text.split("\n")]


class _Writer:
    def __init__(self) -> None:
        self.lines: list[str] = []
        self.written_defs: dict[str, BaseNode] = {}

    def node_text(self, node: BaseNode, depth: int) -> list[str]:
        """Lines of ``node``; the first line has no indentation (it follows a field name)."""
        if isinstance(node, UseNode):
            target = node.target
            if self.written_defs.get(node.def_name or "") is target:
                return [f"USE {node.def_name}"]
            return self.node_text(target, depth)
        if node.def_name and self.written_defs.get(node.def_name) is node:
            # already written in full at an earlier USE position (see module doc)
            return [f"USE {node.def_name}"]
        prefix = f"DEF {node.def_name} " if node.def_name else ""
        if isinstance(node, OpaqueNode):
            if node.def_name:
                self.written_defs[node.def_name] = node
            lines = _reindented(node.text, depth)
            lines[0] = prefix + lines[0][len(INDENT * depth):]
            return lines
        assert isinstance(node, Node)
        out = [f"{prefix}{node.type_name} {{"]
        pad = INDENT * (depth + 1)
        for name, value in node.hidden:
            out.append(f"{pad}hidden {name} {value}")
        for name, spec in node.spec.fields.items():  # type: ignore[union-attr]
            value = node.get(name)
            if value == spec.default and spec.type not in ("SFNode", "MFNode"):
                continue
            if spec.type == "SFNode":
                if value is None:
                    continue
                sub = self.node_text(value, depth + 1)
                out.append(f"{pad}{name} {sub[0]}")
                out.extend(sub[1:])
            elif spec.type == "MFNode":
                if not value:
                    continue
                out.append(f"{pad}{name} [")
                inner = INDENT * (depth + 2)
                for child in value:
                    sub = self.node_text(child, depth + 2)
                    out.append(inner + sub[0])
                    out.extend(sub[1:])
                out.append(f"{pad}]")
            elif ft.is_mf(spec.type):
                out.extend(self.mf_lines(spec.type, value, depth + 1, name))
            else:
                out.append(f"{pad}{name} {ft.format_sf(spec.type, value)}")
        for name, text in node.unknown_fields:
            out.extend(_reindented(f"{name} {text}", depth + 1))
        out.append(INDENT * depth + "}")
        # registered after the body: a USE inside its own DEF is never legal
        if node.def_name:
            self.written_defs[node.def_name] = node
        return out

    @staticmethod
    def mf_lines(type_name: str, value: tuple, depth: int, name: str) -> list[str]:
        pad = INDENT * depth
        if not value:
            return [f"{pad}{name} []"]
        sf = ft.sf_of(type_name)
        items = [ft.format_sf(sf, v) for v in value]
        if sf in ("SFInt32", "SFFloat", "SFBool"):
            return [f"{pad}{name} [", pad + INDENT + " ".join(items), f"{pad}]"]
        return [f"{pad}{name} ["] + [pad + INDENT + item for item in items] + [f"{pad}]"]


def format_world(world: World) -> str:
    """The `.wbt` text of ``world``."""
    writer = _Writer()
    lines = [f"#VRML_SIM {world.version} utf8"]
    lines.extend(f"#{comment}" for comment in world.comments)
    if world.externprotos:
        lines.append("")
        for proto in world.externprotos:
            keyword = "IMPORTABLE EXTERNPROTO" if proto.importable else "EXTERNPROTO"
            lines.append(f"{keyword} {escape_string(proto.url)}")
    lines.append("")
    for node in world.nodes:
        lines.extend(writer.node_text(node, 0))
    return "\n".join(lines) + "\n"


def write_world(world: World, path: str | os.PathLike[str]) -> None:
    """Save ``world`` to ``path`` atomically (temporary file + `os.replace`)."""
    target = os.fspath(path)
    text = format_world(world)
    directory = os.path.dirname(os.path.abspath(target))
    fd, temp = tempfile.mkstemp(prefix=".odeon-", suffix=".wbt.tmp", dir=directory)
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as stream:
            stream.write(text)
            stream.flush()
            os.fsync(stream.fileno())
        if os.path.exists(target):
            os.chmod(temp, os.stat(target).st_mode & 0o777)
        os.replace(temp, target)
    except BaseException:
        if os.path.exists(temp):
            os.unlink(temp)
        raise
    world.filename = target
