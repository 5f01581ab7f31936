"""Steps per second of each bundled world (resources/worlds), with and without its
plugin and controllers.

Each world is built twice: one `Simulation` stepped through a `PluginHost`
with the world's physics plugin and its robots' controllers
(`engine.controllers.ControllerHost`; ``host.step()``, what the app's engine
thread does) and one stepped bare (``sim.step()``, as ``odeon run
--no-plugin --no-controllers``). A run resets the simulation (plugin cleanup
+ init, controllers restarted, as the app's Reset), then
times ``--seconds`` of simulated time from the initial state; the runs of
the two variants alternate (``--repeats`` each) so that load changes on a
shared machine hit both alike. Warm-up: one untimed run of each variant
(numba loads or compiles its kernels on the first steps).

The table gives, per world and variant, the median over the runs of the
steps per second (wall clock) and the real-time factor (simulated seconds per
wall-clock second), and the plugin's overhead (bare rate / plugin rate - 1).
Without its plugin and controllers a world does not move the same way (the
robot never takes off, the floaters sink, the blimp falls), so the overhead
also holds the difference in collision and contact work, not only the
plugin's and the controllers' Python.

Run: ``.venv/bin/python bench/bench_worlds.py [--seconds S] [--repeats R]
[--worlds flying_robot,blimp]``.
"""

from __future__ import annotations

import argparse
import gc
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from common import REPO, print_table  # noqa: E402

WORLDS = ("default", "flying_robot", "contact_points", "blimp", "floating_body")


def make_runner(path: Path, plugin: bool):
    """A function timing one run (after a reset) of ``seconds`` simulated time:
    returns (steps, wall seconds)."""
    from engine.controllers import ControllerHost
    from engine.plugins import PluginHost
    from engine.sim import Simulation

    sim = Simulation(str(path))
    host = None
    if plugin:
        host = PluginHost(sim, env={})
        if not host.load_world_plugin():
            raise RuntimeError(f"{path.name}: its plugin did not load")
        robots = ControllerHost(sim, env={}, to_plugin=host.deliver_from_robot,
                                from_plugin=host.take_for_robots)
        robots.start()
    step = host.step if host is not None else sim.step

    def reset() -> None:
        if host is None:
            sim.reset()
            return
        robots.stop()   # the app's Reset: controllers restarted
        host.reset()
        robots.start()

    def run(seconds: float) -> tuple[int, float]:
        reset()
        n = round(seconds * 1000.0 / sim.basic_time_step)
        gc.collect()
        gc.disable()
        try:
            t0 = time.perf_counter()
            for _ in range(n):
                if not step():
                    raise RuntimeError(f"{path.name}: paused: {sim.pause_message}")
            wall = time.perf_counter() - t0
        finally:
            gc.enable()
        return n, wall

    return run, sim


def bench_world(name: str, seconds: float, repeats: int) -> list[str]:
    """One table row for world ``name``."""
    path = REPO / "resources" / "worlds" / f"{name}.wbt"
    variants = {"plugin": make_runner(path, True), "bare": make_runner(path, False)}
    rates: dict[str, list[float]] = {k: [] for k in variants}
    for run, _ in variants.values():
        run(min(seconds, 0.5))  # warm-up
    for _ in range(repeats):
        for key, (run, _) in variants.items():
            n, wall = run(seconds)
            rates[key].append(n / wall)
    sim = variants["plugin"][1]
    with_plugin = statistics.median(rates["plugin"])
    bare = statistics.median(rates["bare"])
    dt = sim.basic_time_step / 1000.0
    overhead = bare / with_plugin - 1.0  # extra wall time per step with the plugin
    return [name, sim.world.world_info.get("physics"), f"{sim.basic_time_step:g}",
            str(len(sim.model.bodies)), f"{with_plugin:.0f}", f"{with_plugin * dt:.1f}",
            f"{bare:.0f}", f"{bare * dt:.1f}", f"{100 * overhead:+.0f}%"]


def main(argv: list[str] | None = None) -> int:
    """Benchmark the worlds and print the table; returns 0."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=2.0,
                    help="simulated time per run (default 2)")
    ap.add_argument("--repeats", type=int, default=5, help="runs per variant (default 5)")
    ap.add_argument("--worlds", default=",".join(WORLDS),
                    help="comma-separated world names (default: all bundled worlds)")
    args = ap.parse_args(argv)
    names = [w.strip() for w in args.worlds.split(",") if w.strip()]
    print(f"bundled worlds, {args.seconds:g} s simulated per run from the initial state, "
          f"median of {args.repeats} runs per variant (interleaved)", flush=True)
    rows = [bench_world(name, args.seconds, args.repeats) for name in names]
    print_table(["world", "plugin", "dt ms", "bodies", "steps/s", "x real time",
                 "steps/s bare", "x real time bare", "plugin overhead"], rows,
                right=[False, False, True, True, True, True, True, True, True])
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
