"""Structure figures of the source tree, for reviews and closing notes.

Counts, over ``engine``, ``app`` and ``plugins`` (or the packages named):

- functions with more than 10 parameters;
- bundles read by position: ``B[B_R]``, ``rows[ROW_J]``, ``wp[WP_ERP]``,
  ``wp[0]`` (a tuple or vector of named things indexed by a constant);
- record offsets: other subscripts whose index is an ALL_CAPS name or
  ``NAME + k`` (joint records ``d[AXIS1]``), which declared layouts keep;
- import cycles: strongly connected components of the graph of imports
  between our modules, function-local imports included (they are cycles at
  run time, only hidden from the import system);
- function-local imports of our own modules.

Usage::

    python scripts/structure_metrics.py [--root DIR] [--list] [package ...]

``--root`` measures another checkout (for before/after figures).
"""

from __future__ import annotations

import argparse
import ast
import pathlib
import sys
from dataclasses import dataclass, field

DEFAULT_PACKAGES = ("engine", "app", "plugins")
MAX_PARAMETERS = 10
#: Parameter names that held positional bundles before issue 14.
BUNDLE_NAMES = frozenset({"B", "wp", "rows", "damping", "ad"})
#: Index-constant prefixes of those bundles (``B[B_R]``, ``rows[ROW_J]``).
BUNDLE_INDEX_PREFIXES = ("B_", "ROW_", "WP_")


@dataclass
class Metrics:
    """The figures and the offending locations ("path:line name")."""

    long_signatures: list[str] = field(default_factory=list)
    bundle_indexing: list[str] = field(default_factory=list)
    record_offsets: list[str] = field(default_factory=list)
    cycles: list[list[str]] = field(default_factory=list)
    local_imports: list[str] = field(default_factory=list)


def _module_name(root: pathlib.Path, path: pathlib.Path) -> str:
    parts = list(path.relative_to(root).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _is_constant_name(node: ast.expr) -> bool:
    if isinstance(node, ast.Name):
        return len(node.id) > 1 and node.id.isupper() and not node.id.startswith("_")
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        return _is_constant_name(node.left) and isinstance(node.right, ast.Constant)
    return False


def _resolve(module: str, node: ast.ImportFrom, is_package: bool) -> str:
    if node.level == 0:
        return node.module or ""
    base = module.split(".")
    if not is_package:
        base = base[:-1]
    base = base[: len(base) - (node.level - 1)]
    return ".".join(base + ([node.module] if node.module else []))


def _imports(module: str, tree: ast.Module, is_package: bool, ours: set[str],
             top_level: bool) -> list[tuple[int, str]]:
    """(line, module) of our modules imported at module level (``top_level``)
    or inside functions (not ``top_level``)."""
    found = []

    def visit(node: ast.AST, in_function: bool) -> None:
        for child in ast.iter_child_nodes(node):
            inside = in_function or isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef))
            if isinstance(child, (ast.Import, ast.ImportFrom)) and inside != top_level:
                targets = []
                if isinstance(child, ast.Import):
                    targets = [a.name for a in child.names]
                else:
                    base = _resolve(module, child, is_package)
                    for alias in child.names:
                        sub = f"{base}.{alias.name}"
                        targets.append(sub if sub in ours else base)
                for target in targets:
                    while target and target not in ours:
                        target = target.rpartition(".")[0]
                    if target and target != module and (child.lineno, target) not in found:
                        found.append((child.lineno, target))
            elif isinstance(child, ast.If) and _is_type_checking(child.test):
                continue
            visit(child, inside)

    visit(tree, False)
    return found


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components with more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    result: list[list[str]] = []
    counter = [0]
    sys.setrecursionlimit(10000)

    def connect(v: str) -> None:
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on_stack.add(v)
        for w in graph.get(v, ()):
            if w not in index:
                connect(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                result.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            connect(v)
    return sorted(result)


def measure(root: pathlib.Path, packages: tuple[str, ...] = DEFAULT_PACKAGES) -> Metrics:
    """Figures of ``packages`` under ``root``."""
    files = [p for pkg in packages for p in sorted((root / pkg).rglob("*.py"))
             if "__pycache__" not in p.parts]
    modules = {_module_name(root, p): p for p in files}
    ours = set(modules)
    metrics = Metrics()
    graph: dict[str, set[str]] = {}
    for module, path in modules.items():
        tree = ast.parse(path.read_text(), filename=str(path))
        rel = path.relative_to(root)
        is_package = path.name == "__init__.py"
        for node in ast.walk(tree):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                a = node.args
                n = len(a.posonlyargs) + len(a.args) + len(a.kwonlyargs)
                n += (a.vararg is not None) + (a.kwarg is not None)
                if a.args and a.args[0].arg in ("self", "cls"):
                    n -= 1
                if n > MAX_PARAMETERS:
                    metrics.long_signatures.append(f"{rel}:{node.lineno} {node.name} ({n})")
            elif isinstance(node, ast.Subscript):
                index = node.slice
                where = f"{rel}:{node.lineno} {ast.unparse(node)}"
                in_bundle = isinstance(node.value, ast.Name) and node.value.id in BUNDLE_NAMES
                by_int = isinstance(index, ast.Constant) and isinstance(index.value, int)
                if _is_constant_name(index):
                    name = index.id if isinstance(index, ast.Name) else ""
                    bundle_name = name.startswith(BUNDLE_INDEX_PREFIXES)
                    if bundle_name or (in_bundle and node.value.id != "B"):
                        metrics.bundle_indexing.append(where)
                    else:
                        metrics.record_offsets.append(where)
                elif in_bundle and by_int and node.value.id != "B":
                    metrics.bundle_indexing.append(where)
        local = _imports(module, tree, is_package, ours, False)
        graph[module] = {t for _, t in _imports(module, tree, is_package, ours, True)}
        graph[module] |= {t for _, t in local}
        metrics.local_imports += [f"{rel}:{line} {t}" for line, t in local]
    metrics.cycles = _cycles(graph)
    return metrics


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("packages", nargs="*", default=list(DEFAULT_PACKAGES))
    parser.add_argument("--root", type=pathlib.Path,
                        default=pathlib.Path(__file__).resolve().parents[1])
    parser.add_argument("--list", action="store_true", help="list every location")
    args = parser.parse_args(argv)
    m = measure(args.root.resolve(), tuple(args.packages))
    rows = [("functions with more than 10 parameters", m.long_signatures),
            ("bundles read by position", m.bundle_indexing),
            ("record offsets", m.record_offsets),
            ("import cycles (function-local imports included)", m.cycles),
            ("function-local imports of our modules", m.local_imports)]
    for title, items in rows:
        print(f"{title}: {len(items)}")
        if args.list:
            for item in items:
                print(f"    {' -> '.join(item) if isinstance(item, list) else item}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
