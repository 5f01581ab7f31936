"""The pile through the Webots path (engine.sim, a .wbt world) against the same
pile through the raw ODE API, in one run (issue 18, "Engine, the Webots path").

Bodies: ``pile_initial_conditions(N)`` of the ode_ref harness (boxes of 0.1 m
and spheres of r 0.05 m, 1 kg, alternating, dropped on a plane), dt 10 ms,
QuickStep. Three variants, runs interleaved (``--repeats`` each), every run
``--steps`` steps after ``--settle`` untimed ones, medians:

* ``raw API``: the harness's ``_pile_run`` on engine.ode with our batched
  collider (ode.NativeCollider: up to 4 contacts per pair, Approx1, mu 0.5);
* ``.wbt``: the same bodies as Solids of a world (WorldInfo stepper
  "quickstep", ContactProperties coulombFriction 0.5, bounce 0,
  maxContactJoints 4) stepped by `Simulation.step` (Webots' default
  contacts, poses written back into the Solid fields, NaN checks...);
* ``.wbt + plugin``: the same world with a physics plugin whose collide
  returns 0 for every pair (every candidate pair goes through Python).

The ratio .wbt / raw is what the simulation layer adds (goal: at most 1.15).
The contact parameters are as close as the two paths allow (Webots' contacts
are soft: softCFM/softERP as the world's CFM/ERP), so the contact counts
differ a little; the table shows them.

Run: ``ODEON_ODE_REF=<harness> .venv/bin/python bench/bench_sim_pile.py
[--sizes 100,1000] [--steps S] [--settle S] [--repeats R]``.
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

from common import ode_ref_scenes, print_table  # noqa: E402

PLUGIN = """from engine.plugins.physics import *  # noqa: F403


def webots_physics_init():
    pass


def webots_physics_step():
    pass


def webots_physics_collide(g1, g2):
    return 0


def webots_physics_cleanup():
    pass
"""


def world_text(scenes, n: int, plugin: bool) -> str:
    """The .wbt of the pile of ``n`` bodies."""
    p = scenes.PILE
    e, r, m = p["box_edge"], p["sphere_radius"], p["mass"]
    lines = ["#VRML_SIM R2023b utf8",
             "WorldInfo {",
             f'  physics "{"collide_zero" if plugin else "<none>"}"',
             "  basicTimeStep 10 stepper \"quickstep\" ERP 0.2 CFM 1e-5",
             "  contactProperties [ ContactProperties { coulombFriction [ 0.5 ] bounce 0 "
             "softCFM 1e-5 softERP 0.2 maxContactJoints 4 } ]",
             "}",
             "Solid { name \"floor\" boundingObject Plane { size 100 100 } }"]
    for k, (kind, pos, axis, angle) in enumerate(scenes.pile_initial_conditions(n)):
        geometry = (f"Box {{ size {e} {e} {e} }}" if kind == "box"
                    else f"Sphere {{ radius {r} }}")
        if axis is None:
            axis, angle = (0.0, 0.0, 1.0), 0.0
        lines.append(f"Solid {{ translation {pos[0]!r} {pos[1]!r} {pos[2]!r} "
                     f"rotation {axis[0]!r} {axis[1]!r} {axis[2]!r} {angle!r} "
                     f"name \"b{k}\" boundingObject {geometry} "
                     f"physics Physics {{ density -1 mass {m} }} }}")
    return "\n".join(lines) + "\n"


def make_world(root: Path, scenes, n: int, plugin: bool) -> Path:
    (root / "worlds").mkdir(parents=True, exist_ok=True)
    folder = root / "plugins" / "physics" / "collide_zero"
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "collide_zero.py").write_text(PLUGIN)
    path = root / "worlds" / f"pile_{n}{'_plugin' if plugin else ''}.wbt"
    path.write_text(world_text(scenes, n, plugin))
    return path


class SimRun:
    """A .wbt pile, rebuilt for every run (same start as the raw pile)."""

    def __init__(self, path: Path, plugin: bool) -> None:
        self.path, self.plugin = path, plugin

    def __call__(self, steps: int, settle: int) -> tuple[float, float]:
        from engine.plugins import PluginHost
        from engine.sim.simulation import Simulation

        sim = Simulation(str(self.path))
        host = PluginHost(sim, env={}) if self.plugin else None
        if host is not None:
            assert host.load_world_plugin()
        step = host.step if host is not None else sim.step
        for _ in range(settle):
            step()
        gc.collect()
        gc.disable()
        try:
            t0 = time.perf_counter()
            for _ in range(steps):
                step()
            seconds = time.perf_counter() - t0
        finally:
            gc.enable()
        contacts = len(sim.contacts)
        if host is not None:
            host.close()
        sim.model.destroy()
        return seconds / steps, contacts


def raw_run(scenes, n: int):
    from engine import ode

    def run(steps: int, settle: int) -> tuple[float, float]:
        tc, ts, ncs, _final, _settle = scenes._pile_run(ode, n, settle + steps, 0.01, 20,
                                                        "native_callback")
        per_step = [c + s for c, s in zip(tc[settle:], ts[settle:], strict=True)]
        return statistics.fmean(per_step), ncs[-1]
    return run


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", default="100,1000")
    ap.add_argument("--steps", type=int, default=50)
    ap.add_argument("--settle", type=int, default=50)
    ap.add_argument("--repeats", type=int, default=3)
    args = ap.parse_args(argv)
    scenes = ode_ref_scenes()
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for n in (int(v) for v in args.sizes.split(",")):
            variants = {"raw API": raw_run(scenes, n),
                        ".wbt": SimRun(make_world(Path(tmp), scenes, n, False), False),
                        ".wbt + plugin": SimRun(make_world(Path(tmp), scenes, n, True), True)}
            times: dict[str, list[float]] = {k: [] for k in variants}
            contacts: dict[str, float] = {}
            for _ in range(args.repeats):
                for name, run in variants.items():
                    seconds, count = run(args.steps, args.settle)
                    times[name].append(seconds)
                    contacts[name] = count
            raw = statistics.median(times["raw API"])
            for name in variants:
                t = statistics.median(times[name])
                rows.append((f"pile_{n}", name, f"{contacts[name]:.0f}", f"{t * 1e3:.2f}",
                             f"{t / raw:.2f}"))
    print(f"pile through engine.sim vs the raw API, {args.steps} steps after {args.settle}, "
          f"median of {args.repeats} interleaved runs")
    print_table(("scene", "path", "contacts", "ms/step", "/ raw"), rows)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
