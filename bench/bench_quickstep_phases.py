"""QuickStep on the pile: fixed cost per step and cost per SOR sweep, ours vs ODE 0.16.2.

ODE can only be timed as a whole ``dWorldQuickStep`` call, so the step is
split by its one free parameter instead: the pile (``ode_ref``'s
``scenes._pile_run`` scene: N boxes and spheres on a plane, native collision
callback, Approx1 mu 0.5, dt 0.01 s) is run with ``--low`` and ``--high`` SOR
iterations, and the step time is taken as linear in the iteration count:

    per sweep = (t(high) - t(low)) / (high - low)
    fixed     = t(low) - low * per sweep   (islands, rows, solver set-up,
                                             feedback, integration, call)

Both backends step the same scene in the same thread; each step is timed in
CPU time of that thread (``time.thread_time``), so being descheduled on a
shared machine does not count. Runs alternate between the backends; for each
step the fastest of the repeats is kept, and a run's figure is the mean over
its second half (the settled pile, whose contact count hardly depends on the
iteration count). The ``at 20`` columns are fixed + 20 sweeps, the bench_pile
setting.

Run: ``ODEON_ODE_REF=... .venv/bin/python bench/bench_quickstep_phases.py
[--sizes 100,1000] [--steps 200] [--repeats 3] [--low 1] [--high 41]``.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path
from types import ModuleType

sys.path.insert(0, str(Path(__file__).resolve().parent))

from common import (  # noqa: E402
    backend_banner,
    fmt_ms,
    fmt_ratio,
    load_backends,
    ode_ref_scenes,
    print_table,
    ratio,
)

DT = 0.01
MAX_CONTACTS = 4
REFERENCE_ITERATIONS = 20


def step_times(scenes: ModuleType, api: ModuleType, n: int, steps: int,
               iterations: int) -> tuple[list[float], float]:
    """One pile run: CPU seconds of each ``dWorldQuickStep`` call and the mean
    contact count of the steps' second half."""
    p = scenes.PILE
    sim = scenes.Sim(api, space="hash", surface_layer=0.001, quick_iterations=iterations)
    surface = scenes.surface_params(api, {"mode": api.dContactApprox1, "mu": 0.5})
    collider = api.NativeCollider(sim.world, sim.group, MAX_CONTACTS, surface)
    api.dCreatePlane(sim.space, 0, 0, 1, 0)
    e, r, mass = p["box_edge"], p["sphere_radius"], p["mass"]
    for kind, pos, axis, ang in scenes.pile_initial_conditions(n, None):
        if kind == "box":
            g = api.dCreateBox(sim.space, e, e, e)
            R = api.dRFromAxisAndAngle(axis[0], axis[1], axis[2], ang)
            sim.body(pos, lambda m: api.dMassSetBoxTotal(m, mass, e, e, e), R=R, geom=g)
        else:
            g = api.dCreateSphere(sim.space, r)
            sim.body(pos, lambda m: api.dMassSetSphereTotal(m, mass, r), geom=g)
    clock = time.thread_time
    times = []
    contacts = []
    for _ in range(steps):
        api.dJointGroupEmpty(sim.group)
        contacts.append(collider.collide(sim.space))
        t0 = clock()
        api.dWorldQuickStep(sim.world, DT)
        times.append(clock() - t0)
    sim.destroy()
    return times, statistics.fmean(contacts[steps // 2:])


def settled_mean(runs: list[list[float]]) -> float:
    """Mean over the second half of the steps of each step's fastest repeat (s)."""
    best = [min(ts) for ts in zip(*runs, strict=True)]
    return statistics.fmean(best[len(best) // 2:])


def main(argv: list[str] | None = None) -> int:
    """Run the split for each size and print the table; returns 0."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", default="100,1000")
    ap.add_argument("--steps", type=int, default=200)
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--low", type=int, default=1)
    ap.add_argument("--high", type=int, default=41)
    args = ap.parse_args(argv)
    if args.high <= args.low:
        ap.error("--high must exceed --low")
    backends = load_backends()
    print(backend_banner(backends))
    scenes = ode_ref_scenes()
    table = []
    for n in (int(x) for x in args.sizes.split(",") if x):
        runs: dict[tuple[str, int], list[list[float]]] = {}
        contacts: dict[str, float] = {}
        for b in backends.all():      # warm-up: compilation / caches, untimed
            step_times(scenes, b.api, n, 3, args.low)
        for _ in range(args.repeats):
            for its in (args.low, args.high):
                for b in backends.all():
                    ts, nc = step_times(scenes, b.api, n, args.steps, its)
                    runs.setdefault((b.name, its), []).append(ts)
                    contacts[b.name] = nc
        split = {}
        for b in backends.all():
            lo = settled_mean(runs[(b.name, args.low)])
            hi = settled_mean(runs[(b.name, args.high)])
            sweep = (hi - lo) / (args.high - args.low)
            fixed = lo - args.low * sweep
            split[b.name] = (fixed, sweep, fixed + REFERENCE_ITERATIONS * sweep)
        ours = split[backends.ours.name]
        ref = split.get(backends.ode.name) if backends.ode is not None else None
        table.append([
            f"pile_{n}", f"{contacts[backends.ours.name]:.0f}",
            fmt_ms(ours[0]), fmt_ms(ours[1], 4), fmt_ms(ours[2]),
            fmt_ms(ref and ref[0]), fmt_ms(ref and ref[1], 4), fmt_ms(ref and ref[2]),
            fmt_ratio(ratio(ours[0], ref and ref[0])), fmt_ratio(ratio(ours[1], ref and ref[1])),
            fmt_ratio(ratio(ours[2], ref and ref[2])),
        ])
    print_table(["scene", "contacts", "ours fixed", "ours /sweep", "ours at 20", "ODE fixed",
                 "ODE /sweep", "ODE at 20", "fixed ratio", "sweep ratio", "ratio at 20"], table)
    print("times: ms of thread CPU time per dWorldQuickStep call on the settled pile; "
          f"fixed and per-sweep from runs with {args.low} and {args.high} iterations")
    return 0


if __name__ == "__main__":
    sys.exit(main())
