"""The narrow phase of cylinder and capsule bodies resting on a box, ours only.

Scene: a 50 x 50 x 1 m box as the floor (top at z = 0) and 300 bodies on a
20-column grid of 0.3 m, one kind in three: cylinders (r 0.1, length 0.2),
capsules (r 0.08, length 0.2) and flat cylinders (r 0.12, length 0.1), each
tilted about (1, 0.3, 0.1) by 0.4 + 0.01 k rad with its centre at 0.09 m, so
that every body touches the floor (300 pairs). Cylinder-box pairs go through
GJK/EPA (engine/ode/collision/pairs/colliders_cylinder.py), the others
through their own colliders.

Times: the median of ``--calls`` calls of ``space_contacts`` (up to 4 points
per pair), ms of this thread's CPU time. Used for decision 0029 (a GJK/EPA
version compiled for the cylinder-box kinds against the version for kinds
known at run time).

Run: ``NUMBA_CACHE_DIR=... .venv/bin/python bench/bench_cylinder_pairs.py
[--calls 30]``.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine import ode  # noqa: E402
from engine.ode.collision.batch import space_contacts  # noqa: E402

BODIES = 300


def build() -> object:
    """The scene's space (module docstring)."""
    space = ode.dHashSpaceCreate(None)
    world = ode.dWorldCreate()
    floor = ode.dCreateBox(space, 50, 50, 1)
    ode.dGeomSetPosition(floor, 0, 0, -0.5)
    for k in range(BODIES):
        body = ode.dBodyCreate(world)
        kind = k % 3
        geom = (ode.dCreateCylinder(space, 0.1, 0.2) if kind == 0 else
                ode.dCreateCapsule(space, 0.08, 0.2) if kind == 1 else
                ode.dCreateCylinder(space, 0.12, 0.1))
        ode.dGeomSetBody(geom, body)
        ode.dBodySetPosition(body, (k % 20) * 0.3, (k // 20) * 0.3, 0.09)
        ode.dBodySetRotation(body, ode.dRFromAxisAndAngle(1, 0.3, 0.1, 0.4 + 0.01 * k))
    return space


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--calls", type=int, default=30)
    args = ap.parse_args(argv)
    space = build()
    for _ in range(3):  # compiled and warm
        sc = space_contacts(space, 4)
    times = []
    for _ in range(args.calls):
        t0 = time.thread_time()
        sc = space_contacts(space, 4)
        times.append(time.thread_time() - t0)
    print(f"{sc.pairs.shape[0]} pairs, {sc.rows.shape[0]} contacts: "
          f"{statistics.median(times) * 1e3:.3f} ms per pass (median of {args.calls})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
