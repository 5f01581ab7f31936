"""The pile scenes (collision + QuickStep): ours vs the real ODE 0.16.2, side by side.

Scene: ``scenes.pile`` of the ``ode_ref`` harness (``_pile_run``): N boxes
(edge 0.1 m) and spheres (r 0.05 m), alternating, dropped on a plane in a
hash space; per step ``dJointGroupEmpty`` + ``dSpaceCollide`` with a near
callback making up to 4 contact joints per pair (mode Approx1, mu 0.5),
then ``dWorldQuickStep`` (20 iterations, dt 0.01 s).

Modes, each on both backends:

* ``python``: the near callback in Python (dCollide, dContact,
  dJointCreateContact, dJointAttach per contact), what a flat-API user writes;
* ``native``: the whole callback without Python per pair -- real ODE's C
  callback (``libode.NativeCollider``), ours ``ode.NativeCollider`` (the
  batched path of engine/ode/collision/batch.py).

Runs of the same scene alternate between the backends (repeats interleaved)
so that load on a shared machine hits both alike; each run gives its mean
per-step collision and step times (ms); the table shows the medians over the
runs and the ratios ours / ODE (collision, step, total). Both modes of a
backend must end in the same state (``same`` column: our python vs native
final checksum, and ODE's), a check that they simulated the same thing.

Run: ``.venv/bin/python bench/bench_pile.py [--sizes 100,1000] [--steps S]
[--repeats R] [--modes python,native] [--no-ode]``. The ode_ref harness is
imported from the folder named by ``$ODEON_ODE_REF`` (required).
"""

from __future__ import annotations

import argparse
import statistics
import sys
from pathlib import Path

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

MODES = {"python": "python_callback", "native": "native_callback"}


def run_once(scenes, api, n: int, steps: int, mode: str) -> dict:
    """One pile run: mean per-step collision and step times (s), final checksum."""
    tc, ts, ncs, final, _settle = scenes._pile_run(api, n, steps, 0.01, 20, MODES[mode])
    return {"collide": statistics.fmean(tc), "step": statistics.fmean(ts),
            "contacts": statistics.fmean(ncs), "checksum": final["checksum_sum_xyz"]}


def main(argv: list[str] | None = None) -> int:
    """Run the pile benchmark and print the table; returns 0."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", default="100,1000")
    ap.add_argument("--steps", type=int, default=0, help="steps per run (default 300 / 100)")
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--modes", default="python,native")
    ap.add_argument("--no-ode", action="store_true")
    args = ap.parse_args(argv)
    backends = load_backends(with_ode=not args.no_ode)
    print(backend_banner(backends))
    scenes = ode_ref_scenes()

    modes = [m for m in args.modes.split(",") if m]
    rows = []
    for n in (int(x) for x in args.sizes.split(",")):
        steps = args.steps or (300 if n <= 100 else 100)
        sums: dict[tuple[str, str], float] = {}
        for mode in modes:
            runs: dict[str, list[dict]] = {b.name: [] for b in backends.all()}
            usable = [b for b in backends.all()
                      if mode != "native" or (hasattr(b.api, "NativeCollider")
                                              and b.api.native() is not None)]
            for b in usable:      # warm-up: compilation / caches, untimed
                run_once(scenes, b.api, n, 3, mode)
            for _ in range(args.repeats):
                for b in usable:
                    runs[b.name].append(run_once(scenes, b.api, n, steps, mode))
            med = {}
            for b in usable:
                rs = runs[b.name]
                med[b.name] = {k: statistics.median(r[k] for r in rs)
                               for k in ("collide", "step", "contacts")}
                med[b.name]["total"] = med[b.name]["collide"] + med[b.name]["step"]
                sums[(b.name, mode)] = rs[0]["checksum"]
            ours = med.get(backends.ours.name)
            ref = med.get(backends.ode.name) if backends.ode is not None else None
            rows.append([
                f"pile_{n}", mode, f"{ours['contacts']:.0f}" if ours else "-",
                fmt_ms(ours and ours["collide"]), fmt_ms(ours and ours["step"]),
                fmt_ms(ours and ours["total"]),
                fmt_ms(ref and ref["collide"]), fmt_ms(ref and ref["step"]),
                fmt_ms(ref and ref["total"]),
                fmt_ratio(ratio(ours and ours["collide"], ref and ref["collide"])),
                fmt_ratio(ratio(ours and ours["step"], ref and ref["step"])),
                fmt_ratio(ratio(ours and ours["total"], ref and ref["total"])),
            ])
        same = []
        for b in backends.all():
            vals = {sums.get((b.name, m)) for m in modes}
            same.append(f"{b.name}: {'yes' if len(vals) == 1 else 'NO'}")
        print(f"pile_{n}: python and native modes end in the same state -- " + ", ".join(same),
              flush=True)
    print_table(["scene", "mode", "contacts", "ours coll", "ours step", "ours total",
                 "ODE coll", "ODE step", "ODE total", "coll ratio", "step ratio",
                 "total ratio"], rows)
    print("times: ms per step, median over runs of each run's mean; ratio = ours / ODE "
          "(python: both Python near callbacks; native: our batched path vs ODE's C callback)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
