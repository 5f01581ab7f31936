"""Controller step overhead: µs per robot per basic step, with 1, 10 and 50
robots running an empty controller loop, against the same world without
controllers, in one run.

The world: ``N`` Robots (each a 0.1 m box with Physics resting on a floor)
whose controller is ``while robot.step(timestep) != -1: pass``. For each N,
the same world is stepped ``--steps`` basic steps bare (`Simulation.step`)
and with its controllers (`engine.controllers.ControllerHost`, real
processes, lock-step); the runs alternate (``--repeats`` each) so that load
changes on the shared machine hit both alike. Warm-up: the controllers start
and take their first steps before timing. Overhead per robot per step =
(median with controllers − median bare) / steps / N. Goal (issue 17): under
50 µs.

Run: ``.venv/bin/python bench/bench_controllers.py [--steps S] [--repeats R]
[--robots 1,10,50]``.
"""

from __future__ import annotations

import argparse
import gc
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from common import print_table  # noqa: E402

CONTROLLER = """from controller import Robot
robot = Robot()
timestep = int(robot.getBasicTimeStep())
while robot.step(timestep) != -1:
    pass
"""

ROBOT = """Robot {
  translation %(x)g %(y)g 0.05
  name "robot%(k)d"
  controller "%(controller)s"
  boundingObject Box { size 0.1 0.1 0.1 }
  physics Physics { }
}
"""


def write_world(root: Path, n: int, controller: str) -> Path:
    """A project with ``n`` robots (controller "empty" or "<none>"); the world's path."""
    (root / "worlds").mkdir(parents=True, exist_ok=True)
    (root / "controllers" / "empty").mkdir(parents=True, exist_ok=True)
    (root / "controllers" / "empty" / "empty.py").write_text(CONTROLLER)
    robots = "".join(ROBOT % {"x": 0.3 * (k % 10), "y": 0.3 * (k // 10), "k": k,
                              "controller": controller} for k in range(n))
    path = root / "worlds" / f"robots_{n}_{controller.strip('<>')}.wbt"
    path.write_text("#VRML_SIM R2023b utf8\nWorldInfo { basicTimeStep 16 }\n"
                    "Solid { boundingObject Plane { size 10 10 } }\n" + robots)
    return path


def time_run(sim, steps: int) -> float:
    """Seconds for ``steps`` steps (garbage collector off)."""
    gc.collect()
    gc.disable()
    try:
        t0 = time.perf_counter()
        for _ in range(steps):
            sim.step()
        return time.perf_counter() - t0
    finally:
        gc.enable()


def measure(n: int, steps: int, repeats: int, root: Path) -> tuple[float, float]:
    """Median seconds of ``steps`` steps: bare, with controllers."""
    from engine.controllers import ControllerHost
    from engine.sim.simulation import Simulation

    bare = Simulation(str(write_world(root, n, "<none>")))
    driven = Simulation(str(write_world(root, n, "empty")))
    host = ControllerHost(driven)
    host.start()
    try:
        for sim in (bare, driven):
            time_run(sim, 20)  # warm-up: kernels, controller start-up
        bare_times, driven_times = [], []
        for _ in range(repeats):
            bare_times.append(time_run(bare, steps))
            driven_times.append(time_run(driven, steps))
        return statistics.median(bare_times), statistics.median(driven_times)
    finally:
        host.stop()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=200)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--robots", default="1,10,50")
    args = parser.parse_args(argv)
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for n in (int(v) for v in args.robots.split(",")):
            bare, driven = measure(n, args.steps, args.repeats, Path(tmp) / f"n{n}")
            per_robot_us = (driven - bare) / args.steps / n * 1e6
            rows.append((str(n), f"{bare / args.steps * 1e3:.3f}",
                         f"{driven / args.steps * 1e3:.3f}", f"{per_robot_us:.1f}",
                         "yes" if per_robot_us < 50.0 else "no"))
    print(f"controller overhead, {args.steps} steps x {args.repeats} repeats (medians)")
    print_table(("robots", "bare ms/step", "controllers ms/step", "µs/robot/step",
                 "< 50 µs"), rows)
    return 0


if __name__ == "__main__":
    sys.exit(main())
