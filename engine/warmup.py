"""Compile the engine's kernels ahead of time: ``python -m engine.warmup``.

numba compiles a kernel the first time it runs and keeps the machine code in
its cache (``NUMBA_CACHE_DIR``). On a fresh machine the first world a user
runs would wait minutes for those compilations. `make run` and `make test`
install Odeon and then run this warm-up once (Makefile, the ``$(STAMP)``
rule): it steps every bundled world (resources/worlds) with its plugin, with
both steppers, and builds a window's snapshot of it, so the kernels a world
needs are compiled before the app opens, and prints its progress (worlds
done, kernels compiled, time).

On a machine with two CPUs or more the compilation runs in two processes
at first: a helper process (``python -m engine.warmup --collisions``) runs
the collision pass of every world (`Simulation.collision_pass`, no step)
while this one compiles the step's kernels on a small world of its own
(`warm_step_kernels`); the two sets share no kernel and took about the same
time. Then the worlds are stepped as above, their kernels mostly in the
cache by then. numba writes each cache entry whole (a temporary file
renamed), so the two processes never see a half-written one; an entry both
happen to compile is compiled twice, nothing worse.

While it runs it keeps a marker naming its process
(`engine.warmup_marker`): `make run` starts it in the background on a fresh
install and opens the app at once; the app's engine waits for it before
its first step.

A world that fails is reported and skipped: the warm-up never fails an
installation (the test suite finds real errors).
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import TextIO

from engine import ode
from engine.kernel_archive import ARCHIVE, REPO_DIR, import_seed_report
from engine.numba_cache import CompileEvent, watch_compiles
from engine.plugins import PluginHost
from engine.sim.simulation import Simulation
from engine.warmup_marker import marked_running, warmup_running
from engine.world import World, parse_world

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


@contextmanager
def _loaded(world: str | World, stepper: str | None = None) -> Iterator[tuple[Simulation,
                                                                             PluginHost]]:
    """``world`` (a file path or a parsed world) built with its plugin loaded;
    both are closed and destroyed after the block."""
    sim = Simulation(world, stepper=stepper)
    host = PluginHost(sim, env={})
    try:
        host.load_world_plugin()
        yield sim, host
    finally:
        host.close()
        sim.model.destroy()


class _Tally:
    """The kernels compiled while watched (`tallying`): the count of the last
    report after which no compilation was in progress."""

    def __init__(self) -> None:
        self.compiled = 0

    def hear(self, event: CompileEvent) -> None:
        if not event.busy:
            self.compiled = event.finished


@contextmanager
def _tallying() -> Iterator[_Tally]:
    """Count the kernels numba compiles inside the block."""
    tally = _Tally()
    with watch_compiles(tally.hear):
        yield tally


def _step_world(path: Path, stepper: str) -> None:
    """Build ``path`` with its plugin, run `STEPS` steps with ``stepper`` and
    build the snapshot a window draws (`Simulation.frame`: its pose kernels)."""
    with _loaded(str(path), stepper) as (sim, host):
        for _ in range(STEPS):
            if not host.step():
                sim.resume()
        sim.frame(mode="fast", running=True, speed=1.0)


def warm_up(worlds: list[Path] | None = None,
            progress: Callable[[str], None] | None = None) -> WarmupReport:
    """Step each world (default: every bundled world) with dWorldStep and with
    QuickStep; ``progress(text)`` hears one line per world."""
    paths = sorted(WORLDS_DIR.glob("*.wbt")) if worlds is None else list(worlds)
    report = WarmupReport()
    t0 = time.monotonic()
    with _tallying() as tally:
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
                         f"{tally.compiled} kernels compiled, "
                         f"{time.monotonic() - t0:.0f} s")
    report.compiled = tally.compiled
    report.seconds = time.monotonic() - t0
    return report


def warm_step_kernels() -> None:
    """Compile the step's kernels with no world file: two bodies joined by a
    ball joint, one dWorldStep and one dWorldQuickStep (the step kernel holds
    every joint type's rows and both solvers, whatever the world)."""
    world = ode.dWorldCreate()
    try:
        bodies = []
        for x in (0.0, 1.0):
            body = ode.dBodyCreate(world)
            mass = ode.dMass()
            ode.dMassSetSphere(mass, 1000.0, 0.1)
            ode.dBodySetMass(body, mass)
            ode.dBodySetPosition(body, x, 0.0, 1.0)
            bodies.append(body)
        joint = ode.dJointCreateBall(world, None)
        ode.dJointAttach(joint, *bodies)
        ode.dJointSetBallAnchor(joint, 0.5, 0.0, 1.0)
        ode.dWorldStep(world, 0.01)
        ode.dWorldQuickStep(world, 0.01)
    finally:
        ode.dWorldDestroy(world)


#: Shapes resting on a mesh and a plane under robust contacts: a bundled world
#: may start with nothing touching, and a collision pass then compiles none of
#: the robust contact kernels (they run per pair).
ROBUST_SHAPES = """#VRML_SIM R2025a utf8
WorldInfo { info [ "odeon: contacts robust" ] }
Solid { name "plane" boundingObject Plane { size 10 10 } }
Solid { name "mesh" boundingObject IndexedFaceSet {
  coord Coordinate { point [ -5 -5 0, 5 -5 0, 5 5 0, -5 5 0 ] }
  coordIndex [ 0 1 2 -1 0 2 3 -1 ] } }
Solid { name "box" translation 0 0 0.05 boundingObject Box { size 0.1 0.1 0.1 }
  physics Physics { } }
Solid { name "box on box" translation 0.02 0 0.15 boundingObject Box { size 0.1 0.1 0.1 }
  physics Physics { } }
Solid { name "sphere" translation 1 0 0.05 boundingObject Sphere { radius 0.05 }
  physics Physics { } }
Solid { name "capsule" translation 2 0 0.05 rotation 1 0 0 1.5707963267948966
  boundingObject Capsule { radius 0.05 height 0.2 } physics Physics { } }
Solid { name "cylinder" translation 3 0 0.05 rotation 1 0 0 1.5707963267948966
  boundingObject Cylinder { radius 0.05 height 0.2 } physics Physics { } }
"""


def warm_collisions(worlds: list[Path] | None = None) -> int:
    """Run the collision pass of each world (default: every bundled world and
    `ROBUST_SHAPES`) once with its plugin, without stepping; returns the
    kernels compiled. Worlds that fail are skipped."""
    paths: list[Path | str] = (sorted(WORLDS_DIR.glob("*.wbt")) if worlds is None
                               else list(worlds))
    if worlds is None:
        paths.append(ROBUST_SHAPES)
    with _tallying() as tally:
        for path in paths:
            try:
                world = parse_world(path) if isinstance(path, str) else str(path)
                with _loaded(world) as (sim, _host):
                    sim.collision_pass()
            except Exception:  # noqa: BLE001, S112 - the stepping pass reports failures
                continue
    return tally.compiled


def _helper_cpus() -> int:
    """CPUs this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not Linux
        return os.cpu_count() or 1


def _start_collision_helper() -> subprocess.Popen | None:
    """The helper process compiling the collision kernels, or None (one CPU,
    or it could not start)."""
    if _helper_cpus() < 2:
        return None
    try:
        return subprocess.Popen([sys.executable, "-m", "engine.warmup", "--collisions"],
                                stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    except OSError:
        return None


def main(out: TextIO = sys.stdout, argv: tuple[str, ...] = ()) -> int:
    """Warm every bundled world's kernels, printing progress; always 0.
    ``argv`` ``("--collisions",)``: only the collision passes (the helper
    process's part)."""
    if "--collisions" in argv:
        t0 = time.monotonic()
        compiled = warm_collisions()
        out.write(f"{compiled} collision kernels compiled in {time.monotonic() - t0:.0f} s\n")
        return 0
    if warmup_running():  # (a `make test` while `make run`'s warm-up runs)
        out.write("Waiting for the kernel warm-up already running...\n")
        out.flush()
        while warmup_running():
            time.sleep(1.0)
    with marked_running():
        return _warm_everything(out)


def _warm_everything(out: TextIO) -> int:
    """`main` without the marker: both halves, then every world; always 0."""
    out.write("Preparing the physics engine's kernels (seconds with the kernels shipped with "
              "the sources, a few minutes where they must be compiled)...\n")
    out.flush()

    def say(text: str) -> None:
        out.write(f"  {text}\n")
        out.flush()

    seeded = import_seed_report()
    if seeded is not None and seeded.written:
        say(f"{seeded.written} files of compiled kernels unpacked from "
            f"{ARCHIVE.relative_to(REPO_DIR)}")
    elif seeded is not None:
        say(f"the shipped kernels do not fit here ({seeded.skipped_because}): compiling")

    t0 = time.monotonic()
    helper = _start_collision_helper()
    if helper is not None:
        say("compiling the collision kernels in a second process, the step's here")
    with _tallying() as tally:
        try:
            warm_step_kernels()
        except Exception as exc:  # noqa: BLE001 - the stepping pass compiles what is left
            say(f"step kernels: skipped ({type(exc).__name__}: {exc})")
    say(f"step kernels: {tally.compiled} compiled, {time.monotonic() - t0:.0f} s")
    if helper is not None:
        said, _ = helper.communicate()
        last = said.strip().splitlines()[-1] if said.strip() else f"exit status {helper.returncode}"
        say(f"collision kernels: {last}, {time.monotonic() - t0:.0f} s")
    report = warm_up(progress=say)
    out.write(f"Physics engine ready in {time.monotonic() - t0:.0f} s ({len(report.worlds)} "
              f"worlds{f', {len(report.failed)} skipped' if report.failed else ''}).\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(argv=tuple(sys.argv[1:])))
