"""Per-step cost of the dynamics (no collision): ours vs the real ODE 0.16.2.

Scenes (gravity (0, 0, -9.81), ``dRandSetSeed(0)`` before building each world):

* ``chain20`` / ``chain200``: N capsule-mass links (r 0.05, length 0.2, m 1,
  pitch 0.3) along +x at z 2, ball joints between neighbours, link 0 jointed
  to the world at (0, 0, 2) -- the ``chain`` scene of ``ode_ref/scenes.py``
  with N links (3N constraint rows, one island);
* ``free1000``: 1000 sphere masses (r 0.05, m 1) on a 10x10x10 grid, no
  joints, random linear and angular velocities from a fixed seed (1000
  one-body islands).

Each scene runs with ``dWorldStep`` (Dantzig LCP) and ``dWorldQuickStep``
(SOR, 20 iterations) at dt = 1 ms, on both backends in the same process
(their repeats interleaved); the table gives the median over the repeats of
the mean step time and the ratio of the medians (ours / ODE).  ``max|dpos|``
is the largest difference of body positions between the two backends after
the same number of steps: a check that both timed the same motion.

Run: ``.venv/bin/python bench/bench_dynamics.py [--repeats R] [--steps N]
[--warmup W] [--scenes chain20,free1000] [--steppers step,quick] [--no-ode]``.
Without ``libode8`` (or the ode_ref bindings) only ours runs, and it says so.
"""

from __future__ import annotations

import argparse
import math
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from common import (  # noqa: E402
    Backend,
    Timing,
    backend_banner,
    fmt_ms,
    fmt_ratio,
    load_backends,
    print_table,
    ratio,
    time_steps_interleaved,
)

DT = 0.001
GRAVITY = -9.81
QUICK_ITERATIONS = 20
VELOCITY_SEED = 20240601


@dataclass
class Built:
    """A world ready to step and the bodies whose positions are compared."""

    world: Any
    bodies: list[Any]


def _new_world(api: ModuleType) -> Any:
    api.dRandSetSeed(0)
    w = api.dWorldCreate()
    api.dWorldSetGravity(w, 0.0, 0.0, GRAVITY)
    api.dWorldSetQuickStepNumIterations(w, QUICK_ITERATIONS)
    return w


def build_chain(api: ModuleType, links: int) -> Built:
    """The ``chain`` scene of ode_ref with ``links`` capsule links along +x."""
    r, clen, mass = 0.05, 0.2, 1.0
    seg = clen + 2 * r
    z0 = 2.0
    w = _new_world(api)
    Ry = api.dRFromAxisAndAngle(0.0, 1.0, 0.0, math.pi / 2)  # body z -> world x
    bodies = []
    for i in range(links):
        b = api.dBodyCreate(w)
        m = api.dMass()
        api.dMassSetCapsuleTotal(m, mass, 3, r, clen)
        api.dBodySetMass(b, m)
        api.dBodySetPosition(b, seg * (i + 0.5), 0.0, z0)
        api.dBodySetRotation(b, Ry)
        bodies.append(b)
    j = api.dJointCreateBall(w, None)
    api.dJointAttach(j, bodies[0], None)
    api.dJointSetBallAnchor(j, 0.0, 0.0, z0)
    for i in range(1, links):
        j = api.dJointCreateBall(w, None)
        api.dJointAttach(j, bodies[i - 1], bodies[i])
        api.dJointSetBallAnchor(j, seg * i, 0.0, z0)
    return Built(w, bodies)


def build_free(api: ModuleType, n: int) -> Built:
    """``n`` free sphere masses on a grid with seeded random velocities."""
    w = _new_world(api)
    rng = np.random.default_rng(VELOCITY_SEED)
    lin = rng.uniform(-1.0, 1.0, size=(n, 3))
    ang = rng.uniform(-2.0, 2.0, size=(n, 3))
    side = max(1, round(n ** (1.0 / 3.0)))
    bodies = []
    for i in range(n):
        b = api.dBodyCreate(w)
        m = api.dMass()
        api.dMassSetSphereTotal(m, 1.0, 0.05)
        api.dBodySetMass(b, m)
        api.dBodySetPosition(b, float(i % side), float((i // side) % side),
                             float(i // (side * side)) + 1.0)
        api.dBodySetLinearVel(b, *map(float, lin[i]))
        api.dBodySetAngularVel(b, *map(float, ang[i]))
        bodies.append(b)
    return Built(w, bodies)


SCENES: dict[str, Callable[[ModuleType], Built]] = {
    "chain20": lambda api: build_chain(api, 20),
    "chain200": lambda api: build_chain(api, 200),
    "free1000": lambda api: build_free(api, 1000),
}

STEPPERS: dict[str, str] = {"step": "dWorldStep", "quick": "dWorldQuickStep"}


@dataclass
class Result:
    """One backend's timing of one scene/stepper and its final positions."""

    timing: Timing
    positions: np.ndarray


def run_pair(backends: list[Backend], scene: str, stepper: str, steps: int, repeats: int,
             warmup: int) -> dict[str, Result]:
    """Build ``scene`` on every backend, time ``stepper`` with the repeats of the
    backends interleaved, then destroy the worlds; keyed by backend name."""
    built: dict[str, Built] = {}
    fns: dict[str, Callable[[], None]] = {}
    for backend in backends:
        api = backend.api
        b = SCENES[scene](api)
        built[backend.name] = b
        fns[backend.name] = _stepper(getattr(api, STEPPERS[stepper]), b.world)
    timings = time_steps_interleaved(fns, steps=steps, repeats=repeats, warmup=warmup)
    out: dict[str, Result] = {}
    for backend in backends:
        api = backend.api
        b = built[backend.name]
        pos = np.array([api.dBodyGetPosition(body) for body in b.bodies])
        api.dWorldDestroy(b.world)
        out[backend.name] = Result(timings[backend.name], pos)
    return out


def _stepper(fn: Callable[[Any, float], object], world: Any) -> Callable[[], None]:
    def step() -> None:
        fn(world, DT)

    return step


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    """Command-line options."""
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--repeats", type=int, default=7, help="timed repeats (default 7)")
    p.add_argument("--steps", type=int, default=100, help="steps per repeat (default 100)")
    p.add_argument("--warmup", type=int, default=5, help="untimed warm-up steps (default 5)")
    p.add_argument("--scenes", default=",".join(SCENES),
                   help=f"comma-separated subset of {','.join(SCENES)}")
    p.add_argument("--steppers", default=",".join(STEPPERS),
                   help="comma-separated subset of step,quick")
    p.add_argument("--no-ode", action="store_true", help="time ours only")
    args = p.parse_args(argv)
    for attr, known in (("scenes", SCENES), ("steppers", STEPPERS)):
        names = [s.strip() for s in getattr(args, attr).split(",") if s.strip()]
        bad = [s for s in names if s not in known]
        if bad:
            p.error(f"unknown {attr}: {', '.join(bad)} (known: {', '.join(known)})")
        setattr(args, attr, names)
    return args


def main(argv: list[str] | None = None) -> int:
    """Run the selected scenes and steppers and print the table."""
    args = parse_args(argv)
    backends = load_backends(with_ode=not args.no_ode)
    print(f"bench_dynamics: dt {DT * 1e3:g} ms, QuickStep {QUICK_ITERATIONS} iterations, "
          f"{args.warmup} warm-up + {args.repeats} x {args.steps} steps; "
          "median of per-repeat mean step time")
    print(backend_banner(backends), flush=True)
    rows: list[list[str]] = []
    for scene in args.scenes:
        for stepper in args.steppers:
            res = run_pair(backends.all(), scene, stepper, args.steps, args.repeats,
                           args.warmup)
            ours = res["ours"]
            ref = res.get("ode")
            t_ours = ours.timing.median
            t_ref = ref.timing.median if ref is not None else None
            dpos = "-"
            if ref is not None:
                dpos = f"{float(np.max(np.abs(ours.positions - ref.positions))):.1e}"
            row = [scene, STEPPERS[stepper], fmt_ms(t_ours), fmt_ms(t_ref),
                   fmt_ratio(ratio(t_ours, t_ref)), dpos,
                   f"{ours.timing.spread * 100:.0f}%"
                   + (f" / {ref.timing.spread * 100:.0f}%" if ref is not None else "")]
            rows.append(row)
            print("  " + " | ".join(row), flush=True)
    print()
    print_table(["scene", "stepper", "ours ms/step", "ODE ms/step", "ratio (ours/ODE)",
                 "max|dpos|", "spread ours/ODE"], rows,
                right=[False, False, True, True, True, True, True])
    if backends.ode is None:
        print("(real ODE not available: ours only, no ratios)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
