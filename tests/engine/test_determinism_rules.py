"""No CPU-dispatched numerics anywhere under engine/ (decision 0012).

BLAS (``@``, np.dot, np.einsum, np.linalg, ...) picks its kernels per CPU and
sums in different orders; libm and numpy's ufuncs pick FMA/AVX variants of
the transcendental functions. Either makes a step's results differ in the
last bits from one x86-64 machine to another. The engine uses
engine.ode.kernels.detlinalg and engine.ode.kernels.detmath instead; this
scan keeps it that way and names each offending file:line.
"""

from __future__ import annotations

import ast
import pathlib

ROOT = pathlib.Path(__file__).resolve().parents[2]
ENGINE = ROOT / "engine"
# the module that implements the functions (it may use ``**`` on its constants)
EXEMPT = {ENGINE / "ode" / "kernels" / "detmath.py"}

NUMPY = {"np", "numpy"}
BLAS_CALLS = {"dot", "matmul", "vdot", "inner", "tensordot", "einsum", "einsum_path"}
TRANSCENDENTAL = {
    "sin", "cos", "tan", "asin", "acos", "atan", "atan2", "sinh", "cosh", "tanh",
    "asinh", "acosh", "atanh", "exp", "exp2", "expm1", "log", "log2", "log10", "log1p",
    "pow", "power", "float_power", "arcsin", "arccos", "arctan", "arctan2", "arcsinh",
    "arccosh", "arctanh", "hypot", "cbrt", "erf", "erfc", "gamma", "lgamma",
    "logaddexp", "logaddexp2", "sinc",
}


def _dotted(node: ast.AST) -> str:
    """``a.b.c`` of an attribute chain on a name, else ''."""
    parts = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if isinstance(node, ast.Name):
        parts.append(node.id)
        return ".".join(reversed(parts))
    return ""


def _int_literal(node: ast.AST) -> bool:
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        node = node.operand
    return isinstance(node, ast.Constant) and type(node.value) is int


def _problem(node: ast.AST) -> str | None:
    """Why ``node`` brings CPU-dependent numerics, or None."""
    if isinstance(node, (ast.BinOp, ast.AugAssign)):
        if isinstance(node.op, ast.MatMult):
            return "'@' (BLAS): use detlinalg.matmul"
        exponent = node.right if isinstance(node, ast.BinOp) else node.value
        if isinstance(node.op, ast.Pow) and not _int_literal(exponent):
            return "'**' with a non-integer-literal exponent (libm pow): use detmath.pow"
        return None
    if isinstance(node, ast.Attribute):
        name = _dotted(node)
        head, _, rest = name.partition(".")
        if head in NUMPY and rest.startswith("linalg"):
            return f"{name} (LAPACK/BLAS): use detlinalg"
        if head in NUMPY and rest in BLAS_CALLS:
            return f"{name} (BLAS): use detlinalg"
        if head in NUMPY | {"math", "cmath"} and rest in TRANSCENDENTAL:
            return f"{name} (libm / dispatched ufunc): use detmath"
        return None
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
        if node.func.attr == "dot" and _dotted(node.func).split(".")[0] not in NUMPY:
            return "'.dot(' method (BLAS): use detlinalg.dot / matmul"
        return None
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
        if node.func.id == "pow":
            return "builtin pow (libm): use detmath.pow"
        return None
    if isinstance(node, ast.ImportFrom) and node.module in ({"math", "cmath"} | NUMPY):
        bad = [a.name for a in node.names if a.name in TRANSCENDENTAL | BLAS_CALLS | {"linalg"}]
        if bad:
            return f"'from {node.module} import {', '.join(bad)}': use detmath / detlinalg"
    if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("numpy.linalg"):
        return f"'from {node.module} import ...' (LAPACK/BLAS): use detlinalg"
    return None


def scan(path: pathlib.Path, root: pathlib.Path = ROOT) -> list[str]:
    """Every offending construct of one source file, as 'file:line: why'
    (the file named relative to ``root``)."""
    src = path.read_text()
    tree = ast.parse(src, filename=str(path))
    # the exception class np.linalg.LinAlgError computes nothing: naming it
    # (to catch a plugin's error) is allowed
    allowed = {id(n) for a in ast.walk(tree) if isinstance(a, ast.Attribute)
               and _dotted(a).partition(".")[2] == "linalg.LinAlgError" for n in (a, a.value)}
    out = []
    for node in ast.walk(tree):
        if id(node) in allowed:
            continue
        why = _problem(node)
        if why:
            out.append(f"{path.relative_to(root)}:{node.lineno}: {why}")
    return out


def test_engine_has_no_blas_libm_or_dispatched_ufunc_calls():
    files = sorted(set(ENGINE.rglob("*.py")) - EXEMPT)
    assert len(files) > 50
    problems = [p for f in files for p in scan(f)]
    assert not problems, "CPU-dependent numerics under engine/:\n" + "\n".join(problems)


def test_the_scan_catches_each_banned_form(tmp_path):
    bad = tmp_path / "bad.py"
    bad.write_text(
        "import math\nimport numpy as np\nfrom math import atan2\n"
        "a = b @ c\n"
        "a @= c\n"
        "x = np.dot(a, b)\n"
        "x = a.dot(b)\n"
        "x = np.einsum('i,i', a, b)\n"
        "x = np.linalg.norm(a)\n"
        "x = math.sin(a)\n"
        "x = np.arctan2(a, b)\n"
        "x = a ** 0.5\n"
        "x = pow(a, b)\n"
        "x = np.linalg.solve(a, b)\n"
        "ok = (np.linalg.LinAlgError, ValueError)\n"
        "ok = a ** 2 + np.sqrt(a) + math.sqrt(b) + math.floor(a) + np.cross(a, b)\n")
    problems = scan(bad, tmp_path)
    assert all(p.startswith("bad.py:") for p in problems), problems
    lines = [int(p.split(":")[1]) for p in problems]
    assert sorted(set(lines)) == list(range(3, 15)), lines
