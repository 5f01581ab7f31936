"""Step time before and after BLAS and libm left the engine (decision 0012).

Compares two checkouts side by side in one run: ``--before`` (e.g. a
worktree of the commit before the change: ``git worktree add /tmp/before
<commit>``) and this repository. Each is timed in its own subprocess (its own
``import engine``, its own numba cache directory, since engine.numba_cache
clears a cache made from other sources); the two alternate ``--rounds`` times
so that load on a shared machine hits both alike.

Scenes (ms per step, wall clock, including the Python-level contact
creation of the scenes that do it):

* the four bit-identity scenes of tests/engine/test_step_bit_identity.py
  (whole scene: build + steps, divided by the steps);
* ``pile_100``: tests/engine/collision_scenes.pile, 100 boxes and spheres,
  Python near callback + QuickStep (after 100 warm-up steps of the same
  scene: the numbers are for a pile in contact);
* ``default_world``: resources/worlds/default.wbt through
  engine.sim.Simulation (flying-robot plugin), steps 50..250.

The table shows the median over rounds of each side's median, and after /
before. Run: ``.venv/bin/python bench/bench_determinism.py --before
/tmp/before [--rounds 3]``.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
SCENE_STEPS = {"contacts_quick": 30, "contacts_step": 20, "joints_quick": 200,
               "joints_step": 200}


def _time_bit_scenes(out: dict[str, float]) -> None:
    from tests.engine import test_step_bit_identity as bit
    for name, steps in SCENE_STEPS.items():
        fn = bit.SCENES[name]
        fn()                                  # compile / load the cache
        t = time.perf_counter()
        fn()
        out[name] = (time.perf_counter() - t) * 1e3 / steps


def _time_pile(out: dict[str, float]) -> None:
    from tests.engine import collision_scenes as cs
    cs.pile(n=100, steps=5)
    t = time.perf_counter()
    cs.pile(n=100, steps=100)
    t_short = time.perf_counter() - t
    t = time.perf_counter()
    cs.pile(n=100, steps=200)
    # the difference removes the build and the first 100 steps (the fall)
    out["pile_100"] = (time.perf_counter() - t - t_short) * 1e3 / 100


def _time_default_world(out: dict[str, float]) -> None:
    from engine.sim import Simulation
    sim = Simulation(str(REPO_UNDER_TEST / "resources" / "worlds" / "default.wbt"))
    for _ in range(50):
        sim.step()
    t = time.perf_counter()
    for _ in range(200):
        sim.step()
    out["default_world"] = (time.perf_counter() - t) * 1e3 / 200


def worker() -> None:
    """Time every scene once in this process (run with cwd = the checkout)."""
    out: dict[str, float] = {}
    _time_bit_scenes(out)
    _time_pile(out)
    _time_default_world(out)
    print(json.dumps(out))


def _run_side(root: Path, cache: Path) -> dict[str, float]:
    env = dict(os.environ, NUMBA_CACHE_DIR=str(cache), PYTHONPATH=str(root))
    res = subprocess.run([sys.executable, str(Path(__file__).resolve()), "--worker",
                          str(root)], cwd=root, env=env, capture_output=True, text=True)
    if res.returncode != 0:
        raise SystemExit(f"bench_determinism: the run in {root} failed:\n{res.stderr[-3000:]}")
    return json.loads(res.stdout.strip().splitlines()[-1])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--before", type=Path, help="checkout of the old code")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--worker", type=Path, help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.worker is not None:
        global REPO_UNDER_TEST
        REPO_UNDER_TEST = args.worker
        sys.path.insert(0, str(args.worker))
        worker()
        return
    if args.before is None or not (args.before / "engine").is_dir():
        raise SystemExit("bench_determinism: --before must name a checkout with engine/")
    sides = {"before": args.before.resolve(), "after": REPO}
    caches = {"before": Path("/tmp") / "odeon_bench_before_numba",
              "after": Path(os.environ.get("NUMBA_CACHE_DIR", REPO / ".numba_cache"))}
    runs: dict[str, list[dict[str, float]]] = {"before": [], "after": []}
    for r in range(args.rounds):
        for side in ("before", "after"):
            runs[side].append(_run_side(sides[side], caches[side]))
            print(f"round {r + 1}/{args.rounds} {side} done", file=sys.stderr)
    names = list(runs["after"][0])
    print(f"{'scene':16s} {'before ms/step':>15s} {'after ms/step':>14s} {'after/before':>13s}")
    for name in names:
        b = statistics.median(x[name] for x in runs["before"])
        a = statistics.median(x[name] for x in runs["after"])
        print(f"{name:16s} {b:15.3f} {a:14.3f} {a / b:13.2f}")


REPO_UNDER_TEST = REPO

if __name__ == "__main__":
    main()
