"""Runs per second of the seed's Monte Carlo study, serial and in batch.

The study of seed 004's "Batch simulation example": the one-link robot
(resources/worlds/one_link.wbt), PID gains kP 20, kI 8, kD 5 towards 0,
start angles uniform in [-pi, pi], ``--duration`` (5 s) each. In one run:

* ``serial``: `batch.doSim` in a for loop in this process;
* ``pool 1`` / ``pool 2``: `batch.run_samples` with executor None and 1 or 2
  worker processes (pool start-up included);
* ``dask 2``: a Dask LocalCluster of 2 worker processes, 1 thread each
  (cluster start-up not included; ``--no-dask`` leaves it out).

Each configuration runs the same ``--samples`` initial conditions
``--repeats`` times; the table gives medians of the runs per second, their
ratio to ``pool 1``, and the batch overhead = (wall time per run in the pool
x workers - simulation time per run) / simulation time per run, the
simulation time per run being the serial loop's. Goals (issue 16): pool 2 >=
1.8x pool 1, overhead < 5 %. Needs 2 free cores to mean anything.
"""

from __future__ import annotations

import argparse
import math
import multiprocessing
import os
import random
import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

BENCH_DIR = Path(__file__).resolve().parent
sys.path.insert(0, str(BENCH_DIR))

from common import NUMBA_CACHE_NOTE, REPO, print_table  # noqa: E402

from engine.klampt import batch  # noqa: E402

WORLD = REPO / "resources" / "worlds" / "one_link.wbt"
RETURNS = ["robots[0].config", "robots[0].velocity"]


def pid_init(sim) -> None:
    """The seed's simInit: PID towards (0, 0) with kP 20, kI 8, kD 5."""
    c = sim.controller(0)
    c.setPIDCommand([0.0], [0.0])
    c.setPIDGains([20.0], [8.0], [5.0])


def conditions(n: int, seed: int = 4) -> list[dict]:
    rng = random.Random(seed)
    return [{"robots[0].config[0]": rng.uniform(-math.pi, math.pi)} for _ in range(n)]


def time_serial(world: str, ics: list[dict], duration: float) -> tuple[float, list]:
    t0 = time.perf_counter()
    results = [batch.doSim(world, duration, ic, RETURNS, simInit=pid_init) for ic in ics]
    return time.perf_counter() - t0, results


def time_batch(world: str, ics: list[dict], duration: float, **kw) -> tuple[float, list]:
    t0 = time.perf_counter()
    out = batch.run_samples(world, duration, ics, RETURNS, sim_init=pid_init, **kw)
    return time.perf_counter() - t0, out.results


def _burn(n: int) -> float:
    """Seconds of a pure-Python loop of ``n`` additions."""
    t0 = time.perf_counter()
    total = 0
    for i in range(n):
        total += i
    return time.perf_counter() - t0


def machine_scaling(n: int = 20_000_000) -> float:
    """How many times as fast 2 processes run as 1 on this machine right now
    (2.0 with 2 free cores; less when other work shares them)."""
    one = _burn(n)
    with ProcessPoolExecutor(2, mp_context=multiprocessing.get_context("spawn")) as pool:
        pool.submit(_burn, 1000).result()
        t0 = time.perf_counter()
        list(pool.map(_burn, [n, n]))
        wall = time.perf_counter() - t0
    return 2.0 * one / wall


def same(a: list, b: list) -> bool:
    strip = [{k: v for k, v in r.items() if k != "wall_clock_time"} for r in a]
    return strip == [{k: v for k, v in r.items() if k != "wall_clock_time"} for r in b]


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--samples", type=int, default=24)
    p.add_argument("--duration", type=float, default=5.0)
    p.add_argument("--repeats", type=int, default=1)
    p.add_argument("--no-dask", action="store_true")
    p.add_argument("--world", default=str(WORLD), help="a one-link world (default: %(default)s)")
    args = p.parse_args(argv)
    world = args.world
    print(NUMBA_CACHE_NOTE, f"\ncores: {os.cpu_count()}, {args.samples} samples of "
          f"{args.duration:g} s, {args.repeats} repeat(s)", flush=True)
    ics = conditions(args.samples)
    batch.doSim(world, 0.05, ics[0], RETURNS, simInit=pid_init)  # compile / load kernels
    configs = {"serial": (1, lambda: time_serial(world, ics, args.duration)),
               "pool 1": (1, lambda: time_batch(world, ics, args.duration, workers=1)),
               "pool 2": (2, lambda: time_batch(world, ics, args.duration, workers=2))}
    cluster = client = None
    if not args.no_dask:
        from distributed import Client, LocalCluster  # only when Dask is benched

        cluster = LocalCluster(processes=True, n_workers=2, threads_per_worker=1,
                               dashboard_address=None)
        client = Client(cluster)
        configs["dask 2"] = (2, lambda: time_batch(world, ics, args.duration, executor=client))
    walls: dict[str, list[float]] = {name: [] for name in configs}
    startups: dict[str, list[float]] = {name: [] for name in configs}
    scaling = machine_scaling()
    print(f"machine: 2 processes run {scaling:.2f}x as fast as 1 right now (pure-Python "
          f"loop; 2.00x with 2 free cores)", flush=True)
    reference = None
    try:
        for _ in range(args.repeats):
            for name, (workers, run) in configs.items():
                wall, results = run()
                walls[name].append(wall)
                # the fixed cost: wall time not spent in runs (spawning, importing)
                busy = sum(r["wall_clock_time"] for r in results) / workers
                startups[name].append(max(0.0, wall - busy) if name != "serial" else 0.0)
                reference = reference or results
                if not same(results, reference):
                    print(f"{name}: results differ from the serial loop's", flush=True)
                    return 1
                print(f"  {name}: {wall:.2f} s", flush=True)
    finally:
        if client is not None:
            client.close()
            cluster.close()
    per_run_sim = statistics.median(walls["serial"]) / args.samples
    base = args.samples / statistics.median(walls["pool 1"])
    rows = []
    for name, (workers, _run) in configs.items():
        wall, start = statistics.median(walls[name]), statistics.median(startups[name])
        rate = args.samples / wall

        def overhead(seconds: float, workers: int = workers) -> str:
            return f"{(seconds * workers / args.samples - per_run_sim) / per_run_sim:+.1%}"

        rows.append([name, str(workers), f"{wall:.2f}", f"{rate:.3f}", f"{rate / base:.2f}x",
                     "-" if name == "serial" else overhead(wall), f"{start:.2f}",
                     "-" if name == "serial" else overhead(wall - start)])
    print_table(["config", "workers", "wall s", "runs/s", "vs pool 1", "overhead", "start-up s",
                 "overhead after start-up"], rows, right=[False] + [True] * 7)
    print(f"simulation time per run (serial): {per_run_sim:.3f} s; results identical in "
          f"every configuration", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
