"""What ``odeon batch`` and the app's Monte Carlo dialog share: sampler
specs, seeded samplers, the results table, its atomic writing (.csv,
.parquet) and the histogram PNG.

* A sampler spec is ``PATH=uniform(a,b)`` or ``PATH=normal(mean,std)``
  (`parse_sampler`); the numbers may use ``pi`` (``uniform(-pi, pi)``).
* `make_samplers(specs, seed)`: one numpy Generator per sampler, seeded from
  ``(seed, the sampler's path)``: adding, removing or reordering samplers
  never changes another sampler's draws.
* `results_table`: one row per finished sample: ``sample`` (its index), each
  initial condition as ``init:PATH`` columns, each returned scalar under its
  own path (``robots[0].config[0]``, ``rigidObjects[0].transform[1][2]``),
  ``status``, ``time`` [s] and ``error`` ('' when the run succeeded).
  ``wall_clock_time`` is left out, so the file is the same for every
  executor.
* `write_table` / `write_histograms` write atomically: a temporary file in
  the same folder, flushed to disk, given the mode of the file it replaces,
  then `os.replace`.
"""

from __future__ import annotations

import ast
import csv
import hashlib
import io
import math
import operator
import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np

if TYPE_CHECKING:
    import pyarrow as pa
    from matplotlib.figure import Figure

from engine.klampt.access import flat_names, flatten, parse_path
from engine.world.writer import write_atomically

#: Prefix of the initial-condition columns.
INIT_PREFIX = "init:"
#: The columns every table has besides the initial conditions and returns.
FIXED_COLUMNS = ("sample", "status", "time", "error")


@dataclass(frozen=True)
class Distribution:
    """A sampler's law: its parameter names, a check of the parameters
    (an error text or None) and ``draw(rng, *params) -> float``."""

    params: tuple[str, ...]
    check: Callable[..., str | None]
    draw: Callable[..., float]


DISTRIBUTIONS: dict[str, Distribution] = {
    "uniform": Distribution(("a", "b"), lambda a, b: None if a <= b else "needs a <= b",
                            lambda rng, a, b: float(rng.uniform(a, b))),
    "normal": Distribution(("mean", "std"), lambda m, s: None if s >= 0 else "needs std >= 0",
                           lambda rng, m, s: float(rng.normal(m, s))),
}

_OPS = {ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul,
        ast.Div: operator.truediv, ast.USub: operator.neg, ast.UAdd: operator.pos}
_NAMES = {"pi": math.pi, "e": math.e}


def _number(node: ast.AST) -> float:
    """The value of a number expression: numbers, pi, e, + - * / and parentheses."""
    if isinstance(node, ast.Constant) and type(node.value) in (int, float):
        return float(node.value)
    if isinstance(node, ast.Name) and node.id in _NAMES:
        return _NAMES[node.id]
    if isinstance(node, ast.UnaryOp) and type(node.op) in _OPS:
        return _OPS[type(node.op)](_number(node.operand))
    if isinstance(node, ast.BinOp) and type(node.op) in _OPS:
        return _OPS[type(node.op)](_number(node.left), _number(node.right))
    raise ValueError(ast.unparse(node))


@dataclass(frozen=True)
class SamplerSpec:
    """``path=law(params)``, parsed."""

    path: str
    law: str
    params: tuple[float, ...]

    def __str__(self) -> str:
        return f"{self.path}={self.law}({', '.join(repr(p) for p in self.params)})"


def parse_sampler(text: str) -> SamplerSpec:
    """A `SamplerSpec` from ``PATH=uniform(a,b)`` / ``PATH=normal(m,s)``;
    ValueError naming the spec and what is wrong."""
    path, eq, law_text = text.partition("=")
    path = path.strip()
    if not eq or not path:
        raise ValueError(f"'{text}': expected PATH=uniform(a,b) or PATH=normal(mean,std)")
    try:
        parse_path(path)
    except ValueError as exc:
        raise ValueError(f"'{text}': {exc}") from None
    try:
        call = ast.parse(law_text.strip(), mode="eval").body
    except SyntaxError:
        call = None
    if not (isinstance(call, ast.Call) and isinstance(call.func, ast.Name)) or call.keywords:
        raise ValueError(f"'{text}': expected uniform(a,b) or normal(mean,std) after '='")
    law = DISTRIBUTIONS.get(call.func.id)
    if law is None:
        raise ValueError(f"'{text}': unknown distribution '{call.func.id}' (known: "
                         f"{', '.join(DISTRIBUTIONS)})")
    if len(call.args) != len(law.params):
        raise ValueError(f"'{text}': {call.func.id} takes {len(law.params)} numbers "
                         f"({', '.join(law.params)}), got {len(call.args)}")
    try:
        params = tuple(_number(a) for a in call.args)
    except (ValueError, ZeroDivisionError) as exc:
        raise ValueError(f"'{text}': not a number: {exc}") from None
    problem = law.check(*params) if all(map(math.isfinite, params)) else "needs finite numbers"
    if problem:
        raise ValueError(f"'{text}': {call.func.id}({', '.join(law.params)}) {problem}")
    return SamplerSpec(path, call.func.id, params)


def _path_key(path: str) -> int:
    return int.from_bytes(hashlib.sha256(path.encode()).digest()[:8], "little")


class Sampler:
    """A zero-argument sampler (Klamp't's initialConditionSamplers values):
    each call draws the next value of its own seeded stream."""

    def __init__(self, spec: SamplerSpec, seed: int) -> None:
        self.spec = spec
        self._rng = np.random.default_rng(np.random.SeedSequence([seed, _path_key(spec.path)]))
        self._law = DISTRIBUTIONS[spec.law]

    def __call__(self) -> float:
        return self._law.draw(self._rng, *self.spec.params)


def make_samplers(specs: Sequence[SamplerSpec], seed: int) -> dict[str, Sampler]:
    """Path -> `Sampler` (ValueError when two specs sample the same path)."""
    out: dict[str, Sampler] = {}
    for s in specs:
        if s.path in out:
            raise ValueError(f"'{s}': {s.path} is sampled twice")
        out[s.path] = Sampler(s, seed)
    return out


def new_seed() -> int:
    """A fresh random seed (to print, so that a study can be run again)."""
    return int(np.random.SeedSequence().entropy % (2**63))


# ----- results table --------------------------------------------------------------------

@dataclass
class ResultsTable:
    """Columns by name, each a list with one value per row (None: missing)."""

    columns: dict[str, list[Any]] = field(default_factory=dict)

    @property
    def rows(self) -> int:
        return len(self.columns.get("sample", []))

    def returned(self) -> list[str]:
        """Names of the returned scalar columns."""
        return [n for n in self.columns
                if n not in FIXED_COLUMNS and not n.startswith(INIT_PREFIX)]


def _flat(prefix: str, values: dict[str, Any], skip: tuple[str, ...]) -> dict[str, Any]:
    out = {}
    for key, value in values.items():
        if key in skip:
            continue
        for name, v in zip(flat_names(key, value), flatten(value), strict=True):
            out[prefix + name] = v
    return out


def results_table(conditions: Sequence[dict[str, Any]],
                  results: Sequence[dict[str, Any] | None]) -> ResultsTable:
    """The table of the finished samples (``results[i]`` not None), in sample order."""
    rows = []
    for i, (cond, res) in enumerate(zip(conditions, results, strict=True)):
        if res is None:
            continue
        row = {"sample": i, **_flat(INIT_PREFIX, cond, ())}
        row.update(_flat("", res, ("status", "time", "error", "traceback",
                                   "wall_clock_time")))
        row.update(status=res.get("status", ""), time=res.get("time"),
                   error=res.get("error", ""))
        rows.append(row)
    names: dict[str, None] = dict.fromkeys(["sample"])
    for row in rows:
        names.update(dict.fromkeys(n for n in row if n.startswith(INIT_PREFIX)))
    for row in rows:
        names.update(dict.fromkeys(n for n in row if n not in FIXED_COLUMNS))
    names.update(dict.fromkeys(FIXED_COLUMNS))
    return ResultsTable({n: [row.get(n) for row in rows] for n in names})


def _cell(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, float):
        return repr(value)  # the shortest text that reads back to the same double
    return str(value)


def _write_csv(table: ResultsTable, temp: str) -> None:
    names = list(table.columns)
    with open(temp, "w", encoding="utf-8", newline="") as stream:
        writer = csv.writer(stream)
        writer.writerow(names)
        for r in range(table.rows):
            writer.writerow([_cell(table.columns[n][r]) for n in names])


def _arrow_column(values: list[Any]) -> pa.Array:
    import pyarrow as pa  # imported when a study is first saved as Parquet (app start time)

    if all(v is None or isinstance(v, str) for v in values):
        return pa.array(values, type=pa.string())
    if all(v is None or isinstance(v, int) and not isinstance(v, bool) for v in values):
        return pa.array(values, type=pa.int64())
    return pa.array([None if v is None else float(v) for v in values], type=pa.float64())


def _write_parquet(table: ResultsTable, temp: str) -> None:
    import pyarrow as pa
    import pyarrow.parquet as pq

    pq.write_table(pa.table({n: _arrow_column(v) for n, v in table.columns.items()}), temp)


#: File suffix -> table writer.
TABLE_FORMATS: dict[str, Callable[[ResultsTable, str], None]] = {
    ".csv": _write_csv,
    ".parquet": _write_parquet,
}


def table_format(path: str | os.PathLike[str]) -> Callable[[ResultsTable, str], None]:
    """The writer for ``path``'s suffix (ValueError naming the known ones)."""
    suffix = os.path.splitext(os.fspath(path))[1].lower()
    if suffix not in TABLE_FORMATS:
        raise ValueError(f"'{os.fspath(path)}': the results file must end in "
                         f"{' or '.join(TABLE_FORMATS)}")
    return TABLE_FORMATS[suffix]


def write_table(table: ResultsTable, path: str | os.PathLike[str]) -> None:
    """Write ``table`` atomically as .csv or .parquet (by ``path``'s suffix)."""
    writer = table_format(path)
    write_atomically(path, lambda temp: writer(table, temp))


def histogram_figure(table: ResultsTable, bins: int = 20) -> Figure:
    """A figure with one histogram per returned numeric scalar column."""
    # matplotlib on first use: half a second of every app start otherwise
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    names = [n for n in table.returned()
             if any(isinstance(v, (int, float)) for v in table.columns[n])]
    cols = max(1, min(3, len(names)))
    rows = max(1, math.ceil(len(names) / cols))
    fig = Figure(figsize=(4.0 * cols, 3.0 * rows), layout="constrained")
    FigureCanvasAgg(fig)
    for k, name in enumerate(names):
        ax = fig.add_subplot(rows, cols, k + 1)
        values = [float(v) for v in table.columns[name] if isinstance(v, (int, float))]
        ax.hist(values, bins=bins, color="#4878a8")
        ax.set_title(name, fontsize=9)
        ax.set_ylabel("samples")
    if not names:
        fig.text(0.5, 0.5, "no numeric results", ha="center", va="center")
    return fig


def write_histograms(table: ResultsTable, path: str | os.PathLike[str]) -> None:
    """Save `histogram_figure` as a PNG, atomically."""
    buffer = io.BytesIO()
    histogram_figure(table).savefig(buffer, format="png", dpi=100)

    def write(temp: str) -> None:
        with open(temp, "wb") as stream:
            stream.write(buffer.getvalue())

    write_atomically(path, write)
