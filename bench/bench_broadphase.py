"""The phases of the batched collider on a settled pile, ours only.

Scene: the pile of ``bench_pile.py`` (N boxes of edge 0.1 m and spheres of
radius 0.05 m, alternating, on a 0.15 m grid of layers, jittered and
tilted, dropped on a plane in a hash space), built here with the flat API
and settled by ``--settle`` steps of NativeCollider + dWorldQuickStep (20
iterations, dt 0.01 s). On that frozen state each phase of
``space_contacts`` (engine/ode/collision/batch.py) is timed on its own,
the phases interleaved call by call so that load on the shared machine hits
them alike:

* ``gather``: ``space.ordered()`` + ``gather`` (poses, bounds, bits);
* ``pairs``: ``space.reported_pairs`` (the broad phase);
* ``narrow``: ``narrow_phase`` (the compiled pair kernels);
* ``total``: the whole ``space_contacts`` (the phases plus the Python
  between them: joined-body keys, locking, ``_finish``).

Times are medians over ``--calls`` calls, in ms per call, of this thread's
CPU time (``time.thread_time``): the kernels run in the calling thread, and
on a machine shared with other jobs CPU time is not inflated by the waits
for a core that wall time counts.

Run: ``NUMBA_CACHE_DIR=... .venv/bin/python bench/bench_broadphase.py
[--sizes 100,1000] [--settle 300] [--calls 300]``.
"""

from __future__ import annotations

import argparse
import gc
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from common import print_table  # noqa: E402

import engine.ode as ode  # noqa: E402
from engine.ode.collision.batch import space_contacts  # noqa: E402
from engine.ode.collision.pairs.narrow import kernel_table, narrow_phase  # noqa: E402
from engine.ode.collision.spaces.broadphase import gather  # noqa: E402

BOX_EDGE = 0.1        # m
SPHERE_RADIUS = 0.05  # m
SPACING = 0.15        # m between grid slots
Z0 = 0.3              # m, height of the lowest layer
JITTER = 0.02         # m, horizontal jitter of each slot
MAX_TILT = 0.2        # rad, largest initial tilt of a box
MAX_CONTACTS = 4
NO_JOINED = np.zeros(0, dtype=np.int64)   # keys of joined body pairs: none


@dataclass
class Pile:
    """A pile scene: world, hash space, contact group and collider."""

    world: object
    space: object
    group: object
    collider: object

    def step(self) -> None:
        """One step: contacts, then QuickStep of 0.01 s."""
        ode.dJointGroupEmpty(self.group)
        self.collider.collide(self.space)
        ode.dWorldQuickStep(self.world, 0.01)


def build_pile(n: int, seed: int = 12345) -> Pile:
    """``n`` bodies (even: box, odd: sphere) of 1 kg on a plane, layered on a
    square grid of side round(n ** (1/3))."""
    rng = np.random.default_rng(seed)
    world = ode.dWorldCreate()
    ode.dWorldSetGravity(world, 0.0, 0.0, -9.81)
    ode.dWorldSetContactSurfaceLayer(world, 0.001)
    ode.dWorldSetQuickStepNumIterations(world, 20)
    space = ode.dHashSpaceCreate(None)
    group = ode.dJointGroupCreate(0)
    surface = ode.dSurfaceParameters()
    surface.mode = ode.dContactApprox1
    surface.mu = 0.5
    collider = ode.NativeCollider(world, group, MAX_CONTACTS, surface)
    ode.dCreatePlane(space, 0, 0, 1, 0)
    side = max(1, round(n ** (1.0 / 3.0)))
    off = (side - 1) * SPACING / 2
    for i in range(n):
        layer, rem = divmod(i, side * side)
        jy, ix = divmod(rem, side)
        dx, dy = rng.uniform(-JITTER, JITTER, 2)
        b = ode.dBodyCreate(world)
        m = ode.dMass()
        if i % 2 == 0:
            ode.dMassSetBoxTotal(m, 1.0, BOX_EDGE, BOX_EDGE, BOX_EDGE)
            g = ode.dCreateBox(space, BOX_EDGE, BOX_EDGE, BOX_EDGE)
        else:
            ode.dMassSetSphereTotal(m, 1.0, SPHERE_RADIUS)
            g = ode.dCreateSphere(space, SPHERE_RADIUS)
        ode.dBodySetMass(b, m)
        ode.dBodySetPosition(b, ix * SPACING - off + dx, jy * SPACING - off + dy,
                             Z0 + layer * SPACING)
        if i % 2 == 0:
            ax, ay, az = rng.uniform(-1.0, 1.0, 3)
            ode.dBodySetRotation(b, ode.dRFromAxisAndAngle(ax, ay, az,
                                                           rng.uniform(0.0, MAX_TILT)))
        ode.dGeomSetBody(g, b)
    return Pile(world, space, group, collider)


def phase_calls(pile: Pile) -> dict[str, Callable[[], object]]:
    """One callable per phase, each doing just that phase on the frozen state."""
    space = pile.space
    ga = gather(space.ordered(), space.gather_cache)
    pairs = space.reported_pairs(ga)
    table = kernel_table()

    def do_gather():
        return gather(space.ordered(), space.gather_cache)

    def do_pairs():
        return space.reported_pairs(ga)

    def do_narrow():
        return narrow_phase(pairs, ga.cls, table, ga.pos, ga.R, ga.size, ga.body, 0,
                            NO_JOINED, MAX_CONTACTS)

    def do_total():
        return space_contacts(space, MAX_CONTACTS, skip_joined=True)

    return {"gather": do_gather, "pairs": do_pairs, "narrow": do_narrow, "total": do_total}


def time_phases(calls: dict[str, Callable[[], object]], n_calls: int) -> dict[str, float]:
    """Median CPU time (s) of each callable over ``n_calls`` interleaved calls."""
    for fn in calls.values():
        fn()
    times: dict[str, list[float]] = {name: [] for name in calls}
    clock = time.thread_time
    gc.disable()
    try:
        for _ in range(n_calls):
            for name, fn in calls.items():
                t0 = clock()
                fn()
                times[name].append(clock() - t0)
    finally:
        gc.enable()
    return {name: statistics.median(ts) for name, ts in times.items()}


def main(argv: list[str] | None = None) -> int:
    """Settle each pile, time its phases and print the table; returns 0."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", default="100,1000")
    ap.add_argument("--settle", type=int, default=300, help="steps before timing")
    ap.add_argument("--calls", type=int, default=300, help="timed calls per phase")
    args = ap.parse_args(argv)
    rows = []
    for n in (int(x) for x in args.sizes.split(",")):
        pile = build_pile(n)
        for _ in range(args.settle):
            pile.step()
        sc = space_contacts(pile.space, MAX_CONTACTS, skip_joined=True)
        med = time_phases(phase_calls(pile), args.calls)
        rows.append([f"pile_{n}", str(sc.pairs.shape[0]), str(sc.rows.shape[0])]
                    + [f"{1e3 * med[k]:.3f}" for k in ("gather", "pairs", "narrow", "total")])
    print_table(["scene", "pairs", "contacts", "gather", "pairs", "narrow", "total"], rows)
    print("times: ms of CPU per call, median over interleaved calls on the settled state")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
