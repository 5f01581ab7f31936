"""Step cost on contact-heavy scenes: ours vs the real ODE 0.16.2, step call only.

Scene: ``ode_ref``'s ``pile`` (``scenes.pile_initial_conditions``): N objects
(even index: box edge 0.1 with a random tilt; odd: sphere r 0.05), mass 1,
dropped on the plane z = 0 in a hash space; surface ``dContactApprox1``,
mu 0.5, at most 4 contacts per pair, contact surface layer 0.001, QuickStep
20 iterations, dt 0.01 s, gravity (0, 0, -9.81), ``dRandSetSeed(0)``.

Both backends run the same Python near callback (dCollide + one contact joint
per point). Each backend first settles its pile (``--settle`` steps of
collide + dWorldQuickStep), then every measured step rebuilds the contacts
(untimed) and times only the stepper call. Repeats of the backends are
interleaved so that a change of machine load hits both; the table gives the
median over the repeats of the mean step time and the ratio (ours / ODE).
``dWorldStep`` is timed on its own copy of the settled pile (N = 100 only by
default: Dantzig on ~800 rows).

Run: ``.venv/bin/python bench/bench_contact_step.py [--sizes 100,1000]
[--settle 200] [--steps 20] [--repeats 5] [--steppers quick,step] [--no-ode]``.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from types import ModuleType
from typing import Any

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
ITERATIONS = 20
MAX_CONTACTS = 4
STEPPERS = {"quick": "dWorldQuickStep", "step": "dWorldStep"}


class Pile:
    """One backend's pile world with its space, contact group and near callback."""

    def __init__(self, api: ModuleType, n: int) -> None:
        sc = ode_ref_scenes()
        p = sc.PILE
        self.api = api
        api.dRandSetSeed(0)
        self.world = w = api.dWorldCreate()
        api.dWorldSetGravity(w, 0.0, 0.0, -9.81)
        api.dWorldSetContactSurfaceLayer(w, 0.001)
        api.dWorldSetQuickStepNumIterations(w, ITERATIONS)
        self.space = api.dHashSpaceCreate(None)
        self.group = api.dJointGroupCreate(0)
        self.near, self.counters = sc.contact_near_callback(api, w, self.group, MAX_CONTACTS,
                                                            {"mode": api.dContactApprox1,
                                                             "mu": 0.5})
        api.dCreatePlane(self.space, 0, 0, 1, 0)
        e, r, mass = p["box_edge"], p["sphere_radius"], p["mass"]
        self.bodies = []
        for kind, pos, axis, ang in sc.pile_initial_conditions(n):
            b = api.dBodyCreate(w)
            m = api.dMass()
            if kind == "box":
                g = api.dCreateBox(self.space, e, e, e)
                api.dMassSetBoxTotal(m, mass, e, e, e)
            else:
                g = api.dCreateSphere(self.space, r)
                api.dMassSetSphereTotal(m, mass, r)
            api.dBodySetMass(b, m)
            api.dBodySetPosition(b, *pos)
            if kind == "box":
                api.dBodySetRotation(b, api.dRFromAxisAndAngle(*axis, ang))
            api.dGeomSetBody(g, b)
            self.bodies.append(b)

    def collide(self) -> int:
        """Rebuild the contact joints; returns their number."""
        self.api.dJointGroupEmpty(self.group)
        self.counters[0] = self.counters[1] = 0
        self.api.dSpaceCollide(self.space, None, self.near)
        return self.counters[1]

    def timed_steps(self, stepper: str, steps: int) -> tuple[float, int]:
        """Mean seconds of the stepper call over ``steps`` collide+step rounds,
        and the mean contact count."""
        fn: Callable[[Any, float], object] = getattr(self.api, STEPPERS[stepper])
        clock = time.perf_counter
        total = 0.0
        contacts = 0
        for _ in range(steps):
            contacts += self.collide()
            t0 = clock()
            fn(self.world, DT)
            total += clock() - t0
        return total / steps, contacts // steps

    def destroy(self) -> None:
        self.api.dJointGroupDestroy(self.group)
        self.api.dSpaceDestroy(self.space)
        self.api.dWorldDestroy(self.world)


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    """Command-line options."""
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--sizes", default="100,1000", help="pile sizes (default 100,1000)")
    p.add_argument("--settle", type=int, default=200, help="settling steps (default 200)")
    p.add_argument("--steps", type=int, default=20, help="timed steps per repeat (default 20)")
    p.add_argument("--repeats", type=int, default=5, help="repeats (default 5)")
    p.add_argument("--steppers", default="quick,step",
                   help="quick and/or step (dWorldStep only for N <= --step-max)")
    p.add_argument("--step-max", type=int, default=100,
                   help="largest N timed with dWorldStep (default 100)")
    p.add_argument("--no-ode", action="store_true", help="time ours only")
    a = p.parse_args(argv)
    a.sizes = [int(s) for s in a.sizes.split(",") if s.strip()]
    a.steppers = [s.strip() for s in a.steppers.split(",") if s.strip()]
    bad = [s for s in a.steppers if s not in STEPPERS]
    if bad:
        p.error(f"unknown steppers: {', '.join(bad)}")
    return a


def main(argv: list[str] | None = None) -> int:
    """Settle the piles, time the steppers, print the table."""
    a = parse_args(argv)
    backends = load_backends(with_ode=not a.no_ode)
    print(f"bench_contact_step: pile, dt {DT} s, QuickStep {ITERATIONS} iterations, "
          f"{a.settle} settling steps, {a.repeats} x {a.steps} timed steps (step call only); "
          "median of per-repeat mean step time")
    print(backend_banner(backends), flush=True)
    rows = []
    for n in a.sizes:
        for stepper in a.steppers:
            if stepper == "step" and n > a.step_max:
                continue
            piles = {}
            for be in backends.all():
                t0 = time.perf_counter()
                pile = Pile(be.api, n)
                for _ in range(a.settle):
                    pile.collide()
                    be.api.dWorldQuickStep(pile.world, DT)
                print(f"  {be.name}: pile {n} settled in {time.perf_counter() - t0:.1f} s",
                      flush=True)
                piles[be.name] = pile
            per: dict[str, list[float]] = {name: [] for name in piles}
            ncs: dict[str, int] = {}
            for _ in range(a.repeats):
                for name, pile in piles.items():
                    t, nc = pile.timed_steps(stepper, a.steps)
                    per[name].append(t)
                    ncs[name] = nc
            for pile in piles.values():
                pile.destroy()
            t_ours = statistics.median(per["ours"])
            t_ref = statistics.median(per["ode"]) if "ode" in per else None
            spread = max(per["ours"]) / min(per["ours"]) - 1
            row = [f"pile{n}", STEPPERS[stepper], str(ncs["ours"]),
                   str(ncs.get("ode", "-")), fmt_ms(t_ours), fmt_ms(t_ref),
                   fmt_ratio(ratio(t_ours, t_ref)), f"{spread * 100:.0f}%"]
            rows.append(row)
            print("  " + " | ".join(row), flush=True)
    print()
    print_table(["scene", "stepper", "contacts ours", "contacts ODE", "ours ms/step",
                 "ODE ms/step", "ratio (ours/ODE)", "spread ours"], rows,
                right=[False, False, True, True, True, True, True, True])
    if backends.ode is None:
        print("(real ODE not available: ours only, no ratios)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
