"""Compile the engine's kernels ahead of time: ``python -m engine.warmup``.

numba compiles a kernel the first time it runs and keeps the machine code in
its cache (``NUMBA_CACHE_DIR``). On a fresh machine the first world a user
runs would wait minutes for those compilations. `make run` and `make test`
install Odeon and then run this warm-up once (Makefile, the ``$(STAMP)``
rule): it steps every bundled world (resources/worlds) with its plugin, with
both steppers, so the kernels a world needs are compiled before the app
opens, and prints its progress (worlds done, kernels compiled, time).

A world that fails is reported and skipped: the warm-up never fails an
installation (the test suite finds real errors).
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TextIO

from engine.numba_cache import CompileEvent, watch_compiles
from engine.plugins import PluginHost
from engine.sim.simulation import Simulation

#: The bundled worlds.
WORLDS_DIR = Path(__file__).resolve().parents[1] / "resources" / "worlds"
#: Basic steps run per world and stepper (enough for every body to touch something).
STEPS = 25


@dataclass
class WarmupReport:
    """What a warm-up did: worlds stepped, worlds that failed (with why), kernels
    compiled, seconds spent."""

    worlds: list[str] = field(default_factory=list)
    failed: list[tuple[str, str]] = field(default_factory=list)
    compiled: int = 0
    seconds: float = 0.0


def _step_world(path: Path, stepper: str) -> None:
    """Build ``path`` with its plugin and run `STEPS` steps with ``stepper``."""
    sim = Simulation(str(path), stepper=stepper)
    host = PluginHost(sim, env={})
    try:
        host.load_world_plugin()
        for _ in range(STEPS):
            if not host.step():
                sim.resume()
    finally:
        host.close()
        sim.model.destroy()


def warm_up(worlds: list[Path] | None = None,
            progress: Callable[[str], None] | None = None) -> WarmupReport:
    """Step each world (default: every bundled world) with dWorldStep and with
    QuickStep; ``progress(text)`` hears one line per world."""
    paths = sorted(WORLDS_DIR.glob("*.wbt")) if worlds is None else list(worlds)
    report = WarmupReport()
    kernels: list[CompileEvent] = []
    t0 = time.monotonic()
    with watch_compiles(lambda event: kernels.append(event) if not event.busy else None):
        for k, path in enumerate(paths, 1):
            try:
                for stepper in ("step", "quickstep"):
                    _step_world(path, stepper)
                report.worlds.append(path.name)
                status = "done"
            except Exception as exc:  # noqa: BLE001 - a warm-up never fails an install
                report.failed.append((path.name, f"{type(exc).__name__}: {exc}"))
                status = f"skipped ({type(exc).__name__}: {exc})"
            if progress is not None:
                progress(f"[{k}/{len(paths)}] {path.name}: {status}; "
                         f"{_compiled(kernels)} kernels compiled, "
                         f"{time.monotonic() - t0:.0f} s")
    report.compiled = _compiled(kernels)
    report.seconds = time.monotonic() - t0
    return report


def _compiled(events: list[CompileEvent]) -> int:
    """Kernels compiled so far (the last idle report's count)."""
    return events[-1].finished if events else 0


def main(out: TextIO = sys.stdout) -> int:
    """Warm every bundled world's kernels, printing progress; always 0."""
    out.write("Preparing the physics engine: compiling its kernels once (a few minutes on a "
              "fresh machine, seconds when they are cached)...\n")
    out.flush()

    def say(text: str) -> None:
        out.write(f"  {text}\n")
        out.flush()

    report = warm_up(progress=say)
    out.write(f"Physics engine ready: {report.compiled} kernels compiled in "
              f"{report.seconds:.0f} s ({len(report.worlds)} worlds"
              f"{f', {len(report.failed)} skipped' if report.failed else ''}).\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
