"""Writer of `.wbt` files in Webots' style.

`format_world` returns the text: header, EXTERNPROTO lines, then the root
nodes with 2-space indentation; fields equal to their default are omitted,
floats are written with 15 significant digits and vector noise is written as
0 (`fieldtypes.format_float`, decision 0015). `write_world` saves atomically:
the text goes to a temporary file next to the target which then replaces it
with `os.replace`, so a failure leaves the old file intact (see its doc for
symbolic links, modes and read-only files). `write_atomically` does the
same for any file (the Monte Carlo tables, the shipped kernels archive).

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
import stat
import tempfile
from collections.abc import Callable

from engine.world import fieldtypes as ft
from engine.world.depth import deep_recursion
from engine.world.errors import WorldError, WorldReadOnlyError
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
    with deep_recursion():  # the writer recurses a few frames per nested node
        for node in world.nodes:
            lines.extend(writer.node_text(node, 0))
    return "\n".join(lines) + "\n"


def write_world(world: World, path: str | os.PathLike[str], *,
                overwrite_read_only: bool = False) -> None:
    """Save ``world`` to ``path`` atomically; ``world.filename`` becomes ``path``.

    The text goes to a temporary file next to the real file (a symbolic link is
    followed and kept), is flushed to disk, gets the old file's mode (a new
    file: ``0o666 & ~umask``) and then replaces the file with `os.replace`, so
    a failure or a kill leaves the old file intact. Temporary files left by a
    killed save of the same file are removed. A read-only file raises
    `WorldReadOnlyError` unless ``overwrite_read_only`` (the caller asked the
    user); it stays read-only.
    """
    target = os.fspath(path)
    text = format_world(world)
    real = os.path.realpath(target)
    try:
        old = os.stat(real)
    except FileNotFoundError:
        old = None
    if old is not None and not stat.S_ISREG(old.st_mode):
        raise WorldError(f"cannot save to '{target}': not a regular file")
    if old is not None and not overwrite_read_only and _read_only(real, old):
        raise WorldReadOnlyError(target)
    _replace_atomically(real, old, lambda temp: _write_text(temp, text))
    world.filename = target


def _read_only(path: str, info: os.stat_result) -> bool:
    """No write permission bit, or no write access for this user."""
    return not info.st_mode & 0o222 or not os.access(path, os.W_OK)


def process_umask() -> int:
    """The process umask, read without changing it where Linux allows."""
    try:
        with open("/proc/self/status", encoding="ascii") as status:
            for line in status:
                if line.startswith("Umask:"):
                    return int(line.split()[1], 8)
    except (OSError, ValueError):
        pass
    mask = os.umask(0o022)  # elsewhere: set and restore at once
    os.umask(mask)
    return mask


def _temp_prefix(name: str) -> str:
    """Start of the temporary files of a save of ``name``: ``.<name>.odeon-<pid>-...``."""
    return f".{name}.odeon-"


def _remove_stale_temporaries(directory: str, name: str) -> None:
    """Delete temporary files of earlier saves of ``name`` whose process is gone."""
    prefix = _temp_prefix(name)
    try:
        entries = os.listdir(directory)
    except OSError:
        return
    for entry in entries:
        if not (entry.startswith(prefix) and entry.endswith(".tmp")):
            continue
        pid_text = entry[len(prefix):].split("-", 1)[0]
        if not pid_text.isdigit() or _process_alive(int(pid_text)):
            continue  # a save in progress (this or another live process)
        try:
            os.unlink(os.path.join(directory, entry))
        except OSError:
            pass


def _process_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def _owner(fd: int) -> tuple[int, int]:
    info = os.fstat(fd)
    return info.st_uid, info.st_gid


def _try_chown(fd: int, old: os.stat_result) -> None:
    """Give the new file the old file's owner and group when allowed."""
    try:
        os.fchown(fd, old.st_uid, old.st_gid)
    except OSError:
        pass  # not allowed: the file belongs to whoever saves it, as in editors


def sync_directory(directory: str) -> None:
    """Flush the rename to disk (best effort: not every system opens folders)."""
    try:
        fd = os.open(directory, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def write_atomically(path: str | os.PathLike[str], write: Callable[[str], None]) -> None:
    """``write(temp_path)`` then replace ``path`` by the temporary file: same
    folder (a symbolic link is followed and kept), flushed to disk, the old
    file's mode and, where allowed, owner (a new file: 0o666 & ~umask);
    temporary files left by a killed write of the same file are removed."""
    real = os.path.realpath(os.fspath(path))
    try:
        old = os.stat(real)
    except FileNotFoundError:
        old = None
    _replace_atomically(real, old, write)


def _replace_atomically(real: str, old: os.stat_result | None,
                        write: Callable[[str], None]) -> None:
    """`write_atomically` of the resolved path ``real`` whose file's status is
    ``old`` (None: no file yet)."""
    mode = stat.S_IMODE(old.st_mode) if old is not None else 0o666 & ~process_umask()
    directory, name = os.path.split(real)
    _remove_stale_temporaries(directory, name)
    fd, temp = tempfile.mkstemp(prefix=f"{_temp_prefix(name)}{os.getpid()}-", suffix=".tmp",
                                dir=directory)
    os.close(fd)
    try:
        write(temp)
        with open(temp, "rb+") as stream:
            os.fchmod(stream.fileno(), mode)
            if old is not None and (old.st_uid, old.st_gid) != _owner(stream.fileno()):
                _try_chown(stream.fileno(), old)
            os.fsync(stream.fileno())
        os.replace(temp, real)
    except BaseException:
        if os.path.exists(temp):
            os.unlink(temp)
        raise
    sync_directory(directory)


def _write_text(path: str, text: str) -> None:
    with open(path, "w", encoding="utf-8", newline="\n") as stream:
        stream.write(text)
