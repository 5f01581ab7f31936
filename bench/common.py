"""Shared helpers of the benchmarks: backend loading, step timing, tables.

Backends
    ``ours`` is :mod:`engine.ode`; ``ode`` is the real ODE 0.16.2 through the
    ctypes bindings ``libode.py`` of the ``ode_ref`` harness, found in the
    folder named by ``$ODEON_ODE_REF`` (nothing outside the repository is
    looked up without it).  Both expose the
    same flat ODE API, so one scene-building function serves both.  When the
    bindings or ``libode8`` are missing, :func:`load_backends` returns ours
    only together with the reason, and the benchmarks say so.

Timing
    :func:`time_steps` runs warm-up steps first (numba compiles, or loads its
    cache, on the first call; they are not timed), then ``repeats`` timed runs
    of ``steps`` steps each and reports the median over the repeats of the
    mean step time of each repeat.  The garbage collector is off while a
    repeat is timed, as in :mod:`timeit`.  :func:`time_steps_interleaved`
    does the same for several backends, alternating their repeats so that
    load changes on a shared machine hit both sides of a ratio alike.

Numba cache
    ``import engine`` clears numba's cache when any engine source changed
    (:mod:`engine.numba_cache`), so benchmarks never time stale kernels; the
    first run after an engine change compiles during the untimed warm-up.
"""

from __future__ import annotations

import gc
import importlib
import os
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType

REPO = Path(__file__).resolve().parents[1]
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

#: Environment variable overriding the directory that holds ``libode.py``.
ODE_REF_ENV = "ODEON_ODE_REF"
NUMBA_CACHE_NOTE = ("numba cache: "
                    f"{os.environ.get('NUMBA_CACHE_DIR', '(numba default, next to the sources)')}"
                    ", cleared by engine.numba_cache when the engine sources change")


@dataclass(frozen=True)
class Backend:
    """A module exposing the flat ODE API, with a short display name."""

    name: str
    api: ModuleType


@dataclass(frozen=True)
class Backends:
    """Ours (always) and the real ODE (``None`` when it cannot be loaded)."""

    ours: Backend
    ode: Backend | None
    ode_missing_reason: str = ""

    def all(self) -> list[Backend]:
        """The loaded backends, ours first."""
        return [self.ours] + ([self.ode] if self.ode is not None else [])


def ode_ref_dir() -> Path | None:
    """Directory of the ``ode_ref`` harness (``$ODEON_ODE_REF``), None when unset."""
    env = os.environ.get(ODE_REF_ENV)
    if env:
        return Path(env).expanduser().resolve()
    return None


def ode_ref_scenes() -> ModuleType:
    """The harness's ``scenes`` module (the scenes shared by both backends).

    Exits with a message when ``$ODEON_ODE_REF`` is not set.
    """
    ref = ode_ref_dir()
    if ref is None:
        sys.exit(f"this benchmark builds the ode_ref harness's scenes: set {ODE_REF_ENV}")
    if str(ref) not in sys.path:
        sys.path.insert(0, str(ref))
    return importlib.import_module("scenes")


def load_ours() -> Backend:
    """Import :mod:`engine.ode`."""
    from engine import ode

    return Backend("ours", ode)


def load_ode() -> tuple[Backend | None, str]:
    """Import the real ODE bindings; returns ``(backend, "")`` or ``(None, reason)``.

    Importing ``libode`` raises ``OSError`` (not ``ImportError``) when the
    shared library is missing, and ``ODEError`` for a single-precision build;
    every failure is turned into a reason string.
    """
    ref = ode_ref_dir()
    if ref is None:
        return None, f"{ODE_REF_ENV} is not set (the folder of the ode_ref harness)"
    if not (ref / "libode.py").is_file():
        return None, f"no libode.py in {ref} (set {ODE_REF_ENV})"
    if str(ref) not in sys.path:
        sys.path.insert(0, str(ref))
    try:
        libode = importlib.import_module("libode")
    except Exception as exc:  # noqa: BLE001 - any failure means "no reference"
        return None, f"cannot import libode from {ref}: {type(exc).__name__}: {exc}"
    return Backend("ode", libode), ""


def load_backends(with_ode: bool = True) -> Backends:
    """Ours plus, when available and wanted, the real ODE."""
    ours = load_ours()
    if not with_ode:
        return Backends(ours, None, "disabled with --no-ode")
    ode, reason = load_ode()
    return Backends(ours, ode, reason)


def backend_banner(backends: Backends) -> str:
    """Two lines: which backends run, and which numba cache ours uses."""
    if backends.ode is None:
        line = f"backends: ours only (real ODE not available: {backends.ode_missing_reason})"
    else:
        lib = getattr(backends.ode.api, "LIB_NAME", "libode")
        line = f"backends: ours (engine.ode) vs real ODE ({lib} via {ode_ref_dir()})"
    return f"{line}\n{NUMBA_CACHE_NOTE}"


@dataclass
class Timing:
    """Result of :func:`time_steps`; all times in seconds per step."""

    per_repeat: list[float] = field(default_factory=list)
    steps: int = 0
    warmup: int = 0

    @property
    def median(self) -> float:
        """Median over the repeats of each repeat's mean step time."""
        return statistics.median(self.per_repeat)

    @property
    def best(self) -> float:
        """Fastest repeat's mean step time."""
        return min(self.per_repeat)

    @property
    def spread(self) -> float:
        """(max - min) / median of the per-repeat means: a noise indicator."""
        med = self.median
        return (max(self.per_repeat) - min(self.per_repeat)) / med if med > 0 else 0.0


def time_steps(step: Callable[[], object], steps: int, repeats: int, warmup: int) -> Timing:
    """Time ``step()`` (one simulation step): ``warmup`` untimed calls, then
    ``repeats`` timed runs of ``steps`` calls each.

    Returns the per-repeat mean step times; use :attr:`Timing.median`.
    """
    if steps < 1 or repeats < 1:
        raise ValueError("steps and repeats must be >= 1")
    for _ in range(warmup):
        step()
    out = Timing(steps=steps, warmup=warmup)
    gc_was_enabled = gc.isenabled()
    try:
        for _ in range(repeats):
            gc.collect()
            gc.disable()
            t0 = time.perf_counter()
            for _ in range(steps):
                step()
            t1 = time.perf_counter()
            if gc_was_enabled:
                gc.enable()
            out.per_repeat.append((t1 - t0) / steps)
    finally:
        if gc_was_enabled:
            gc.enable()
    return out


def time_steps_interleaved(steps_by_name: dict[str, Callable[[], object]], steps: int,
                           repeats: int, warmup: int) -> dict[str, Timing]:
    """Like :func:`time_steps` for several steppers, with their repeats interleaved.

    Every stepper gets its ``warmup`` untimed calls first; then repeat k of
    each stepper runs before repeat k + 1 of any, so a change of machine load
    during the run affects all of them alike and their ratio stays fair.
    """
    if steps < 1 or repeats < 1:
        raise ValueError("steps and repeats must be >= 1")
    for step in steps_by_name.values():
        for _ in range(warmup):
            step()
    out = {name: Timing(steps=steps, warmup=warmup) for name in steps_by_name}
    for _ in range(repeats):
        for name, step in steps_by_name.items():
            out[name].per_repeat.extend(
                time_steps(step, steps=steps, repeats=1, warmup=0).per_repeat)
    return out


def ratio(ours: float | None, ref: float | None) -> float | None:
    """``ours / ref`` or ``None`` when either is missing or ``ref`` is 0."""
    if ours is None or ref is None or ref <= 0:
        return None
    return ours / ref


def fmt_ms(seconds: float | None, digits: int = 3) -> str:
    """Seconds as milliseconds, ``-`` for ``None``."""
    return "-" if seconds is None else f"{seconds * 1e3:.{digits}f}"


def fmt_ratio(r: float | None) -> str:
    """A ratio as ``12.3x``, ``-`` for ``None``."""
    if r is None:
        return "-"
    return f"{r:.1f}x" if r >= 10 else f"{r:.2f}x"


def format_table(headers: Sequence[str], rows: Sequence[Sequence[str]],
                 right: Sequence[bool] | None = None) -> str:
    """A plain-text table with a header rule; columns right-aligned where ``right``."""
    ncol = len(headers)
    if right is None:
        right = [False] * ncol
    widths = [len(h) for h in headers]
    for row in rows:
        for i, cell in enumerate(row):
            widths[i] = max(widths[i], len(cell))

    def line(cells: Sequence[str]) -> str:
        parts = [c.rjust(w) if r else c.ljust(w) for c, w, r in zip(cells, widths, right,
                                                                     strict=True)]
        return " | ".join(parts).rstrip()

    rule = "-+-".join("-" * w for w in widths)
    return "\n".join([line(headers), rule] + [line(r) for r in rows])


def print_table(headers: Sequence[str], rows: Sequence[Sequence[str]],
                right: Sequence[bool] | None = None) -> None:
    """Print :func:`format_table`."""
    print(format_table(headers, rows, right), flush=True)
