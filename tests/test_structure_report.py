"""The engine's structure stays as scripts/structure_report.py measured it after issue 14.

No import cycle even counting the imports inside functions, no engine import
inside a function (a function-local import hides a cycle or an upward
dependency), and every constant defined in one module only.
"""

from __future__ import annotations

import importlib.util
import pathlib

ROOT = pathlib.Path(__file__).resolve().parents[1]


def _report_module():
    spec = importlib.util.spec_from_file_location("structure_report",
                                                  ROOT / "scripts" / "structure_report.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


REPORT = _report_module()
MODULES = REPORT.engine_modules()


def test_no_import_cycle_counting_function_local_imports():
    assert REPORT.cycles(REPORT.module_level_imports(MODULES, with_local=True)) == []


def test_no_function_local_engine_import():
    assert REPORT.function_local_imports(MODULES) == []


def test_each_constant_is_defined_once():
    assert REPORT.duplicated_constants(MODULES) == {}


def test_no_bundle_is_read_by_position():
    # kernels name their bundles (engine/ode/kernels/bundles.py): B.R, rows.c, wp.erp
    assert REPORT.positional_bundle_reads(MODULES) == []


def test_the_report_sees_bundles_read_by_position_and_long_signatures(tmp_path):
    pkg = tmp_path / "engine"
    pkg.mkdir()
    (pkg / "k.py").write_text("def f(a, b, c, d, e, f, g, h, i, j, k):\n"
                              "    return B[B_R], rows[ROW_J], wp[0], d[AXIS1]\n")
    modules = REPORT.engine_modules(root=tmp_path)
    assert REPORT.positional_bundle_reads(modules) == [
        "k.py:2 B[B_R]", "k.py:2 rows[ROW_J]", "k.py:2 wp[0]"]
    assert REPORT.long_signatures(modules) == ["k.py:1 f (11)"]


def test_the_report_sees_a_cycle_and_a_local_import(tmp_path):
    # the finder itself: a two-module cycle hidden by a function-local import
    pkg = tmp_path / "engine"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "a.py").write_text("from engine import b\nPI = 3.14\n")
    (pkg / "b.py").write_text("def f():\n    from engine import a\n    return a\nPI = 3.14\n")
    modules = {REPORT.module_name(p, tmp_path): p for p in sorted(pkg.rglob("*.py"))}
    assert REPORT.cycles(REPORT.module_level_imports(modules)) == []
    assert REPORT.cycles(REPORT.module_level_imports(modules, with_local=True)) == [
        ["engine.a", "engine.b"]]
    assert len(REPORT.function_local_imports(modules, tmp_path)) == 1
    assert list(REPORT.duplicated_constants(modules)) == ["PI = 3.14"]
