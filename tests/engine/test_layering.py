"""The engine never imports Qt, OpenGL, pyqtgraph or the app."""

from __future__ import annotations

import ast
import pathlib
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parents[2]
FORBIDDEN = ("PySide6", "OpenGL", "pyqtgraph", "app", "PyQt5", "PyQt6")


def _imported_modules(path: pathlib.Path) -> set[str]:
    tree = ast.parse(path.read_text(), filename=str(path))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module.split(".")[0])
    return names


def test_engine_sources_import_no_gui_module():
    offenders = []
    files = sorted((ROOT / "engine").rglob("*.py"))
    assert files, "no engine sources found"
    for path in files:
        bad = _imported_modules(path) & set(FORBIDDEN)
        if bad:
            offenders.append(f"{path.relative_to(ROOT)}: {sorted(bad)}")
    assert not offenders, "engine imports GUI modules:\n" + "\n".join(offenders)


def test_importing_engine_loads_no_gui_module():
    code = ("import sys, engine.ode; "
            f"bad = [m for m in sys.modules if m.split('.')[0] in {FORBIDDEN!r}]; "
            "print(bad); sys.exit(1 if bad else 0)")
    res = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True)
    assert res.returncode == 0, res.stdout + res.stderr
