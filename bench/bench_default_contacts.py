"""Webots default contacts: the batched pass vs the per-pair near callback, side by side.

World: `bench_viewport.falling_world_text` (a floor and N alternately Box and
Sphere Solids, 1 kg, dropped on it), stepped by `engine.sim.Simulation` with
contact feedback recorded (as the app does). Both variants step the same
world: ``batched`` (no collide hook: one compiled broad and narrow phase,
joints written in bulk; what runs without a plugin collide callback) and
``per-pair`` (``ContactHandler.batched = False``: dSpaceCollide with a
Python near callback, dCollide, dJointCreateContact and dJointAttach per
point; what runs when a plugin has webots_physics_collide). They give
bit-identical trajectories (the ``same`` column checks the final state).

Each run builds the world, steps ``--settle`` steps untimed (the bodies
land and pile up), then times ``--steps`` steps, reading the contacts as arrays after each
(`Simulation.contact_arrays`, as a published app frame does); the runs of the two
variants alternate (``--repeats`` each) so that load on a shared machine
hits both alike. The table gives the medians of ms per step, of its
collision part (`ContactHandler.run`) and of the pose write-back
(`Simulation.write_poses`), the contacts per step, and the speed-up.

Run: ``.venv/bin/python bench/bench_default_contacts.py [--bodies 100,1000]
[--steps 100] [--settle 150] [--repeats 3]``.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_viewport import write_falling_world  # noqa: E402
from common import REPO, print_table  # noqa: E402

if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))


def run_once(path: Path, batched: bool, settle: int, steps: int) -> dict:
    """One run: ms per step (total, collision, write_poses), contacts, final state."""
    from engine import ode
    from engine.sim.simulation import Simulation

    sim = Simulation(str(path))
    sim.record_contact_feedback = True
    sim._handler.batched = batched
    for _ in range(settle):
        sim.step()
    spent = {"collide": 0.0, "poses": 0.0}

    def timed(name, fn):
        def wrapper(*args):
            t0 = time.perf_counter()
            try:
                return fn(*args)
            finally:
                spent[name] += time.perf_counter() - t0
        return wrapper

    sim._handler.run = timed("collide", sim._handler.run)
    sim.write_poses = timed("poses", sim.write_poses)
    contacts = 0
    t0 = time.perf_counter()
    for _ in range(steps):
        sim.step()
        contacts += len(sim.contact_arrays()[2])
    total = time.perf_counter() - t0
    state = np.concatenate([np.concatenate([ode.dBodyGetPosition(r.body),
                                            ode.dBodyGetQuaternion(r.body)])
                            for r in sim.model.bodies])
    return {"ms": 1e3 * total / steps, "collide": 1e3 * spent["collide"] / steps,
            "poses": 1e3 * spent["poses"] / steps, "contacts": contacts / steps,
            "state": state}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--bodies", default="100,1000")
    ap.add_argument("--steps", type=int, default=100)
    ap.add_argument("--settle", type=int, default=150)
    ap.add_argument("--repeats", type=int, default=3)
    args = ap.parse_args(argv)
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for n in (int(v) for v in args.bodies.split(",")):
            path = write_falling_world(n, Path(tmp))
            for batched in (True, False):  # warm-up: numba loads or compiles its kernels
                run_once(path, batched, 2, 2)
            runs: dict[bool, list[dict]] = {True: [], False: []}
            for _ in range(args.repeats):
                for batched in (True, False):
                    runs[batched].append(run_once(path, batched, args.settle, args.steps))
            same = all(np.array_equal(a["state"], b["state"])
                       for a, b in zip(runs[True], runs[False], strict=True))
            med = {b: {k: statistics.median(r[k] for r in runs[b])
                       for k in ("ms", "collide", "poses", "contacts")} for b in runs}
            for b, name in ((True, "batched"), (False, "per-pair")):
                m = med[b]
                rows.append([str(n), name, f"{m['contacts']:.0f}", f"{m['ms']:.2f}",
                             f"{m['collide']:.2f}", f"{m['poses']:.2f}",
                             f"{1000 / m['ms']:.0f}",
                             f"{med[False]['ms'] / m['ms']:.2f}x" if b else "",
                             "yes" if same else "NO"])
    print(f"falling bodies, {args.steps} steps after {args.settle}; medians of "
          f"{args.repeats} alternating runs")
    print_table(["bodies", "path", "contacts/step", "ms/step", "collide ms", "poses ms",
                 "steps/s", "speed-up", "same"], rows)
    return 0


if __name__ == "__main__":
    sys.exit(main())
