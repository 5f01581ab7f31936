"""docs/dev/joint-authoring.md names only what exists: every backticked
helper, constant or file, and its record example is hinge.py's own text."""

from __future__ import annotations

import ast
import importlib.util
import math
import pathlib
import re

import numpy as np

from engine.ode.joints import registry

ROOT = pathlib.Path(__file__).resolve().parents[3]
DOC = ROOT / "docs" / "dev" / "joint-authoring.md"
ENGINE_ODE = ROOT / "engine" / "ode"

_NAME_OR_CALL = re.compile(r"[A-Za-z_][\w.]*(\(.*\))?")
_FENCE = re.compile(r"```python\n(.*?)```", re.S)
#: libraries the doc names functions of (to say they are not to be used)
_LIBRARIES = {"np": np, "math": math}


def _defined_names() -> set[str]:
    """Module names, module-level and class-level names (defs, assignments,
    imports) of every engine.ode module, the record field names of the registered joints and the
    kernels' argument names."""
    names: set[str] = set()

    def add_targets(node: ast.AST) -> None:
        for target in getattr(node, "targets", [getattr(node, "target", None)]):
            for n in ast.walk(target) if target is not None else ():
                if isinstance(n, ast.Name):
                    names.add(n.id)

    for path in ENGINE_ODE.rglob("*.py"):
        names.add(path.stem)
        tree = ast.parse(path.read_text())
        for node in tree.body:
            bodies = [node]
            if isinstance(node, ast.ClassDef):
                names.add(node.name)
                bodies = node.body
            for item in bodies:
                if isinstance(item, (ast.FunctionDef, ast.ClassDef)):
                    names.add(item.name)
                elif isinstance(item, (ast.Assign, ast.AnnAssign)):
                    add_targets(item)
                elif isinstance(item, (ast.Import, ast.ImportFrom)):
                    names.update((a.asname or a.name).split(".")[0] for a in item.names)
    for module in registry.JOINT_MODULES:
        names.update(f.name for f in registry.joint_module(module).RECORD.fields)
    names.update(a.strip() for a in registry.INFO2_ARGS.split(","))
    return names


def _spans(text: str) -> list[str]:
    return re.findall(r"`([^`\n]+)`", _FENCE.sub("", text))


def test_every_backticked_file_exists():
    paths = [s for s in _spans(DOC.read_text()) if s.endswith((".py", ".md")) and "/" in s]
    assert paths, "the doc names no files"
    missing = [p for p in paths if not (ROOT / p).is_file()]
    assert missing == []


def test_every_backticked_name_is_defined_in_the_engine():
    defined = _defined_names()
    checked, missing = 0, []
    for span in _spans(DOC.read_text()):
        if "/" in span or not _NAME_OR_CALL.fullmatch(span):
            continue
        name = re.sub(r"\(.*?\)", "", span)
        checked += 1
        if name.startswith("engine."):
            if importlib.util.find_spec(name) is None:
                missing.append(span)
        elif name.split(".")[0] in _LIBRARIES:
            head, *rest = name.split(".")
            if rest and not hasattr(_LIBRARIES[head], rest[0]):
                missing.append(span)
        elif name.split(".")[-1] not in defined:
            missing.append(span)
    assert checked > 50
    assert missing == []


def test_the_record_example_is_hinge_py_verbatim():
    hinge = (ENGINE_ODE / "joints" / "hinge.py").read_text().splitlines()
    blocks = _FENCE.findall(DOC.read_text())
    assert blocks
    for block in blocks:
        lines = block.strip("\n").splitlines()
        start = hinge.index(lines[0])
        assert hinge[start:start + len(lines)] == lines
