"""The Monte Carlo example of Klamp't's simulation seed, end to end, on Odeon.

The one-link robot (resources/worlds/one_link.wbt) starts at an angle drawn
uniformly in [-pi, pi]; a PID (kP 20, kI 8, kD 5) drives it to 0 for 5 s; N
runs (100 by default). Prints start -> final angle per run and writes the
histogram of final angles (docs/screenshots/one_link_final_angles.png by
default), as docs/scripting.md shows.

Run: ``.venv/bin/python scripts/one_link_study.py [--samples 100] [--seed 1]
[--workers K] [--plot PATH]``.
"""

from __future__ import annotations

import argparse
import math
import random
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

from engine.klampt import batch, study  # noqa: E402

WORLD = REPO / "resources" / "worlds" / "one_link.wbt"
ITEM = "robots[0].config[0]"


def sim_init(sim) -> None:
    """The seed's simInit: target 0 with kP 20, kI 8, kD 5."""
    controller = sim.controller(0)
    controller.setPIDCommand([0], [0])
    controller.setPIDGains([20], [8], [5])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--samples", type=int, default=100)
    parser.add_argument("--duration", type=float, default=5.0)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=int, default=None)
    parser.add_argument("--plot", default=str(REPO / "docs" / "screenshots" /
                                              "one_link_final_angles.png"))
    args = parser.parse_args()
    rng = random.Random(args.seed)
    samplers = {ITEM: lambda: rng.uniform(-math.pi, math.pi)}
    res = batch.monteCarloSim(str(WORLD), args.duration, samplers, args.samples,
                              ["robots[0].config"], simInit=sim_init,
                              workers=args.workers)
    conditions, results = [], []
    for initial, result in res:
        conditions.append(initial)
        results.append(result)
        final = result.get("robots[0].config", [math.nan])[0]
        print(f"{initial[ITEM]: .4f} -> {final: .6f}  {result.get('status', '')}")
    study.write_histograms(study.results_table(conditions, results), args.plot)
    print(f"histogram: {args.plot}")


if __name__ == "__main__":
    main()
