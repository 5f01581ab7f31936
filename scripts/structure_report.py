"""Report the engine's structure: cycles, local imports, twice-defined constants, signatures.

Run from the repository root::

    python scripts/structure_report.py            # summary
    python scripts/structure_report.py --verbose  # every cycle, import and constant

Reads the sources with :mod:`ast` only (nothing is imported), so it works on a
broken tree too.

* **Cycles**: strongly connected components of the graph of module-level imports
  between ``engine`` modules (imports under ``if TYPE_CHECKING:`` are left out;
  ``from pkg import name`` counts as an import of ``pkg.name`` when that is a
  module, else of ``pkg``). A package's ``__init__`` counts as the package.
* **Run-time cycles**: the same over module-level *and* function-local imports:
  the cycles a function-local import only hides.
* **Function-local imports**: ``import engine...`` / ``from engine... import``
  statements inside a function or method body.
* **Long signatures**: functions with more than `MAX_PARAMETERS` parameters
  (``self``/``cls`` not counted).
* **Bundles read by position**: ``B[B_R]``, ``rows[ROW_J]``, ``wp[WP_ERP]``,
  ``wp[0]`` -- a tuple or vector of named things indexed by a constant (the
  kernels pass named bundles since issue 14; records indexed by their
  declared field offsets, ``d[AXIS1]``, are not counted).
* **Twice-defined constants**: module-level assignments of a literal number or
  string (or a tuple of them) to an UPPER_CASE or ``dName`` name that appear in
  more than one module.
"""

from __future__ import annotations

import argparse
import ast
import pathlib
import sys
from collections import defaultdict

ROOT = pathlib.Path(__file__).resolve().parents[1]


def module_name(path: pathlib.Path, root: pathlib.Path = ROOT) -> str:
    """Dotted module name of a source file under ``root`` (``pkg/__init__.py`` -> ``pkg``)."""
    parts = list(path.relative_to(root).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def engine_modules(package: str = "engine", root: pathlib.Path = ROOT) -> dict[str, pathlib.Path]:
    """Every module of ``package`` under ``root`` by dotted name."""
    return {module_name(p, root): p for p in sorted((root / package).rglob("*.py"))
            if "__pycache__" not in p.parts}


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def _resolve(node: ast.ImportFrom, current: str, is_package: bool) -> str:
    if node.level == 0:
        return node.module or ""
    base = current.split(".")
    base = base if is_package else base[:-1]
    base = base[: len(base) - (node.level - 1)]
    return ".".join(base + ([node.module] if node.module else []))


def _targets(node: ast.Import | ast.ImportFrom, current: str, is_package: bool,
             modules: dict[str, pathlib.Path]) -> list[str]:
    out = []
    if isinstance(node, ast.Import):
        for alias in node.names:
            if alias.name in modules:
                out.append(alias.name)
        return out
    base = _resolve(node, current, is_package)
    for alias in node.names:
        sub = f"{base}.{alias.name}"
        if sub in modules:
            out.append(sub)
        elif base in modules:
            out.append(base)
    return out


def module_level_imports(modules: dict[str, pathlib.Path],
                         with_local: bool = False) -> dict[str, set[str]]:
    """Graph: module -> engine modules it imports at module level (not under TYPE_CHECKING).

    With ``with_local`` the imports inside function bodies count too: the graph of
    what a module needs at run time.
    """
    graph: dict[str, set[str]] = {}
    for name, path in modules.items():
        tree = ast.parse(path.read_text(), filename=str(path))
        edges: set[str] = set()
        _collect_edges(tree.body, name, path.name == "__init__.py", modules, with_local, edges)
        edges.discard(name)
        graph[name] = edges
    return graph


def _collect_edges(body: list[ast.stmt], name: str, is_package: bool,
                   modules: dict[str, pathlib.Path], with_local: bool, edges: set[str]) -> None:
    """Add to ``edges`` the engine modules that statements ``body`` of module ``name`` import."""
    for stmt in body:
        if isinstance(stmt, (ast.Import, ast.ImportFrom)):
            edges.update(_targets(stmt, name, is_package, modules))
        elif isinstance(stmt, ast.If) and not _is_type_checking(stmt.test):
            _collect_edges(stmt.body, name, is_package, modules, with_local, edges)
            _collect_edges(stmt.orelse, name, is_package, modules, with_local, edges)
        elif isinstance(stmt, ast.Try):
            for part in (stmt.body, *(h.body for h in stmt.handlers), stmt.orelse,
                         stmt.finalbody):
                _collect_edges(part, name, is_package, modules, with_local, edges)
        elif with_local and isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)):
            for node in ast.walk(stmt):
                if isinstance(node, (ast.Import, ast.ImportFrom)):
                    edges.update(_targets(node, name, is_package, modules))
        elif isinstance(stmt, ast.ClassDef):
            _collect_edges(stmt.body, name, is_package, modules, with_local, edges)


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components with more than one module (Tarjan), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    out: list[list[str]] = []
    counter = [0]
    sys.setrecursionlimit(10000)

    def strong(v: str) -> None:
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on_stack.add(v)
        for w in graph.get(v, ()):
            if w not in index:
                strong(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    for v in sorted(graph):
        if v not in index:
            strong(v)
    return sorted(out)


def function_local_imports(modules: dict[str, pathlib.Path],
                           root: pathlib.Path = ROOT) -> list[str]:
    """``file:line: statement`` of every engine import inside a function body."""
    found = []
    for name, path in modules.items():
        tree = ast.parse(path.read_text(), filename=str(path))
        is_package = path.name == "__init__.py"
        for func in ast.walk(tree):
            if not isinstance(func, (ast.FunctionDef, ast.AsyncFunctionDef)):
                continue
            for node in ast.walk(func):
                if isinstance(node, ast.Import):
                    mods = [a.name for a in node.names]
                elif isinstance(node, ast.ImportFrom):
                    mods = [_resolve(node, name, is_package)]
                else:
                    continue
                if any(m == "engine" or m.startswith("engine.") for m in mods):
                    rel = path.relative_to(root)
                    found.append(f"{rel}:{node.lineno}: {ast.unparse(node)}")
    return sorted(set(found))


_CONSTANT_MODULES = {"math", "np", "numpy"}


def _is_constant_expr(value: ast.expr) -> bool:
    """A literal, ``math.pi``-style module constant, arithmetic on those, a tuple or ``range``."""
    if isinstance(value, ast.Constant):
        return isinstance(value.value, (int, float, str)) and not isinstance(value.value, bool)
    if isinstance(value, ast.UnaryOp):
        return _is_constant_expr(value.operand)
    if isinstance(value, ast.BinOp):
        return _is_constant_expr(value.left) and _is_constant_expr(value.right)
    if isinstance(value, ast.Attribute):
        return isinstance(value.value, ast.Name) and value.value.id in _CONSTANT_MODULES
    if isinstance(value, ast.Tuple):
        return bool(value.elts) and all(_is_constant_expr(e) for e in value.elts)
    if isinstance(value, ast.Call):
        return (isinstance(value.func, ast.Name) and value.func.id == "range"
                and all(_is_constant_expr(a) for a in value.args))
    return False


def _is_constant_name(name: str) -> bool:
    upper = name.lstrip("_")
    return (upper.isupper() and len(upper) > 1) or (
        len(name) > 1 and name[0] == "d" and name[1].isupper())


def _assigned_names(target: ast.expr) -> list[str]:
    if isinstance(target, ast.Name):
        return [target.id]
    if isinstance(target, ast.Tuple):
        return [n for elt in target.elts for n in _assigned_names(elt)]
    return []


def module_constants(modules: dict[str, pathlib.Path]) -> dict[str, list[tuple[str, str]]]:
    """Constant name -> [(module, source of the value)] for module-level constant assignments."""
    where: dict[str, list[tuple[str, str]]] = defaultdict(list)
    for name, path in modules.items():
        tree = ast.parse(path.read_text(), filename=str(path))
        for stmt in tree.body:
            if isinstance(stmt, ast.Assign):
                targets, value = stmt.targets, stmt.value
            elif isinstance(stmt, ast.AnnAssign) and stmt.value is not None:
                targets, value = [stmt.target], stmt.value
            else:
                continue
            if not _is_constant_expr(value):
                continue
            for target in targets:
                for const in _assigned_names(target):
                    if _is_constant_name(const):
                        where[const].append((name, ast.unparse(value)))
    return where


#: Joint modules name their record offsets alike (``AX1``, ``LIMOT``) with values of their
#: own record; equal names there are fields of different records, not one constant.
_RECORD_PACKAGE = "engine.ode.joints."


#: Packages that keep their own copy of constants on purpose.
SEPARATE_COPIES = ("engine.libode",)


def duplicated_constants(modules: dict[str, pathlib.Path]) -> dict[str, list[str]]:
    """Constants defined in more than one module: by name, and well-known values by value.

    Keys are ``NAME = value`` (the same name with the same value) or, for a value spelled out under
    several names, ``= <value>``; values are ``module.NAME`` entries.
    """
    # engine.libode binds the real ODE and keeps its own copy of ODE's values
    # (tests/engine/test_libode_backend.py checks them equal to engine.ode's)
    consts = module_constants({name: path for name, path in modules.items()
                               if not name.startswith(SEPARATE_COPIES)})
    out = {}
    for const, places in sorted(consts.items()):
        by_text: dict[str, set[str]] = defaultdict(set)
        for mod, value in places:
            by_text[value].add(mod)
        for value, mods in by_text.items():
            if len(mods) > 1 and not all(m.startswith(_RECORD_PACKAGE) for m in mods):
                out[f"{const} = {value}"] = sorted(mods)
    by_value: dict[str, list[str]] = defaultdict(list)
    for const, places in consts.items():
        for mod, value in places:
            if value in _WELL_KNOWN_VALUES:
                by_value[_WELL_KNOWN_VALUES[value]].append(f"{mod}.{const}")
    for label, places in sorted(by_value.items()):
        if len({p.rsplit(".", 1)[0] for p in places}) > 1:
            out[f"= {label}"] = sorted(places)
    return out


#: Values that have one name in engine.ode.constants / kernels.detmath; any other module
#: spelling them out again is a second definition.
_WELL_KNOWN_VALUES = {
    "2.220446049250313e-16": "machine epsilon", "math.pi": "pi", "np.pi": "pi",
    "math.inf": "infinity", "np.inf": "infinity",
}


MAX_PARAMETERS = 10
#: Parameter names that carried positional bundles before issue 14, and the
#: prefixes of the constants that indexed them.
BUNDLE_NAMES = frozenset({"wp", "rows", "damping", "ad"})
BUNDLE_INDEX_PREFIXES = ("B_", "ROW_", "WP_")


def long_signatures(modules: dict[str, pathlib.Path]) -> list[str]:
    """``path:line name (n)`` of every function with more than `MAX_PARAMETERS` parameters."""
    found = []
    for path in modules.values():
        for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                a = node.args
                n = len(a.posonlyargs) + len(a.args) + len(a.kwonlyargs)
                n += (a.vararg is not None) + (a.kwarg is not None)
                if a.args and a.args[0].arg in ("self", "cls"):
                    n -= 1
                if n > MAX_PARAMETERS:
                    found.append(f"{path.name}:{node.lineno} {node.name} ({n})")
    return found


def positional_bundle_reads(modules: dict[str, pathlib.Path]) -> list[str]:
    """``path:line expression`` of every bundle read by position (module docstring)."""
    found = []
    for path in modules.values():
        for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
            if not isinstance(node, ast.Subscript):
                continue
            index = node.slice
            by_prefix = isinstance(index, ast.Name) and index.id.startswith(BUNDLE_INDEX_PREFIXES)
            by_int = (isinstance(node.value, ast.Name) and node.value.id in BUNDLE_NAMES
                      and isinstance(index, ast.Constant) and isinstance(index.value, int))
            if by_prefix or by_int:
                found.append(f"{path.name}:{node.lineno} {ast.unparse(node)}")
    return found


def main(argv: list[str] | None = None) -> int:
    """Print the report; exit status 0."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--verbose", action="store_true", help="list every finding")
    parser.add_argument("--root", type=pathlib.Path, default=ROOT,
                        help="measure another checkout (before/after figures)")
    args = parser.parse_args(argv)
    modules = engine_modules(root=args.root.resolve())
    found_cycles = cycles(module_level_imports(modules))
    runtime_cycles = cycles(module_level_imports(modules, with_local=True))
    local = function_local_imports(modules, args.root.resolve())
    twice = duplicated_constants(modules)
    print(f"module-level import cycles: {len(found_cycles)}")
    for comp in found_cycles:
        print("  " + " <-> ".join(comp))
    print(f"run-time import cycles (function-local imports included): {len(runtime_cycles)}")
    for comp in runtime_cycles:
        print("  " + " <-> ".join(comp))
    print(f"function-local engine imports: {len(local)}")
    if args.verbose:
        for line in local:
            print("  " + line)
    print(f"constants defined in more than one module: {len(twice)}")
    if args.verbose:
        for const, mods in twice.items():
            print(f"  {const}: {', '.join(mods)}")
    for title, items in (("functions with more than 10 parameters", long_signatures(modules)),
                         ("bundles read by position", positional_bundle_reads(modules))):
        print(f"{title}: {len(items)}")
        if args.verbose:
            for line in items:
                print("  " + line)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
