"""Structure figures of the engine: parameter counts and constant-indexed bundle accesses.

Run from the repository root: ``python scripts/structure_report.py [--over N] [--list]``.
Prints the number of functions under ``engine/`` with more than N (default 10)
parameters, optionally each of them, and the number of accesses that index a
kernel bundle by a layout constant (``B[B_R]``, ``rows[ROW_J]``, ``wp[WP_ERP]``,
``wp[0]``).
"""

from __future__ import annotations

import argparse
import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
#: a subscript by a bundle constant, or a world-parameter array by a literal
CONSTANT_INDEX = re.compile(r"\[(B|ROW|WP)_[A-Z0-9_]+\]|\bwp\[\d+\]")


def parameter_counts(root: Path) -> list[tuple[int, str]]:
    """(parameter count, "path:line name") of every function under ``root``."""
    out = []
    for path in sorted(root.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                a = node.args
                n = (len(a.posonlyargs) + len(a.args) + len(a.kwonlyargs)
                     + (a.vararg is not None) + (a.kwarg is not None))
                rel = path.relative_to(ROOT)
                out.append((n, f"{rel}:{node.lineno} {node.name}"))
    return out


def constant_indexed(root: Path) -> int:
    """Number of constant-indexed bundle accesses in the ``.py`` files under ``root``."""
    return sum(len(CONSTANT_INDEX.findall(p.read_text(encoding="utf-8")))
               for p in root.rglob("*.py"))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--over", type=int, default=10, help="parameter count threshold")
    parser.add_argument("--list", action="store_true", help="list the functions over it")
    args = parser.parse_args()
    engine = ROOT / "engine"
    counts = parameter_counts(engine)
    over = sorted((c for c in counts if c[0] > args.over), reverse=True)
    print(f"functions under engine/: {len(counts)}")
    print(f"functions with more than {args.over} parameters: {len(over)}")
    for n, where in over if args.list else ():
        print(f"  {n:3d}  {where}")
    print(f"constant-indexed bundle accesses: {constant_indexed(engine)}")


if __name__ == "__main__":
    main()
