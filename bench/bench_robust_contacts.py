"""Robust contacts against Webots' default contacts, side by side in one run.

Scenes, each stepped by `engine.sim.Simulation` with both contact models
(``Simulation(..., contacts="default" | "robust")``):

* ``pile N``: `bench_viewport.falling_world_text` (a floor Plane and N
  alternately Box and Sphere Solids, 1 kg, dropped in a grid; 16 ms steps);
* ``mesh terrain``: a 12-triangle mesh cube resting on a flat 2 048-triangle
  mesh floor, and the robust_rover sample world (a rover on a mesh terrain,
  without its plugin), 10 ms steps.

Each run builds the world, steps ``--settle`` steps untimed (bodies land;
numba loads its kernels), then times ``--steps`` steps; the runs of the two
models alternate (``--repeats`` each) so load on a shared machine hits both
alike. The table gives the medians of ms per step, the robust model's
sub-steps per step (adaptive stepping) and contacts per step, and the ratio
robust / default (the goal: at most 2 on the 100-body pile). A second table
checks the mesh quality of the cube-on-mesh-floor scene with each model: the
largest speed [m/s] of the cube after 1 s and its lowest bottom height [m]
(negative = below the floor's surface).

Run: ``.venv/bin/python bench/bench_robust_contacts.py [--bodies 100]
[--steps 100] [--settle 100] [--repeats 3]``.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_viewport import falling_world_text  # noqa: E402
from common import REPO, print_table  # noqa: E402

if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

HEADER = "#VRML_SIM R2025a utf8\n"


def mesh_floor_world(step_ms: int = 10, cells: int = 32) -> str:
    """A 12-triangle mesh cube (0.1 m, 1 kg) 1 cm above a flat mesh floor of
    2·cells² triangles."""
    n = cells + 1
    size = 2.0
    step = size / cells
    pts = " ".join(f"{-1 + i * step:.6f} {-1 + j * step:.6f} 0" for j in range(n)
                   for i in range(n))
    faces = " ".join(f"{j * n + i} {j * n + i + 1} {j * n + i + n + 1} -1 "
                     f"{j * n + i} {j * n + i + n + 1} {j * n + i + n} -1"
                     for j in range(cells) for i in range(cells))
    h = 0.05
    cube_pts = " ".join(f"{x} {y} {z}" for z in (-h, h) for y in (-h, h) for x in (-h, h))
    cube_faces = "0 2 3 1 -1 4 5 7 6 -1 0 1 5 4 -1 2 6 7 3 -1 0 4 6 2 -1 1 3 7 5 -1"
    return (f"{HEADER}WorldInfo {{ basicTimeStep {step_ms} physicsDisableTime 0 }}\n"
            f"DEF FLOOR Solid {{ boundingObject IndexedFaceSet {{ coord Coordinate {{ point "
            f"[ {pts} ] }} coordIndex [ {faces} ] }} }}\n"
            f"DEF CUBE Solid {{ translation 0 0 0.06 boundingObject IndexedFaceSet {{ coord "
            f"Coordinate {{ point [ {cube_pts} ] }} coordIndex [ {cube_faces} ] }} "
            f"physics Physics {{ density -1 mass 1 }} }}\n")


def scenes(bodies: list[int]) -> dict[str, str]:
    """Scene name -> world text."""
    out = {f"pile {n}": falling_world_text(n) for n in bodies}
    out["mesh cube on mesh floor"] = mesh_floor_world()
    out["robust_rover (no plugin)"] = (REPO / "resources" / "worlds" /
                                       "robust_rover.wbt").read_text()
    return out


def run_once(text: str, model: str, settle: int, steps: int) -> dict:
    """One run: ms per step, sub-steps and contacts per step."""
    from engine.sim.simulation import Simulation
    from engine.world import parse_world

    sim = Simulation(parse_world(text), contacts=model)
    for _ in range(settle):
        sim.step()
    substeps = contacts = 0
    t0 = time.perf_counter()
    for _ in range(steps):
        sim.step()
        if sim.robust is not None:
            substeps += sim.robust.substeps
            contacts += len(sim.robust.contacts)
        else:
            contacts += len(sim.contacts)
    wall = time.perf_counter() - t0
    return {"ms": 1000.0 * wall / steps, "substeps": substeps / steps if substeps else 1.0,
            "contacts": contacts / steps}


def mesh_quality(model: str, step_ms: int) -> tuple[float, float]:
    """(largest cube speed after 1 s [m/s], lowest cube bottom [m]) over 2 s."""
    from engine import ode
    from engine.sim.simulation import Simulation
    from engine.world import parse_world

    sim = Simulation(parse_world(mesh_floor_world(step_ms)), contacts=model)
    body = sim.body_from_def("CUBE")
    fastest = 0.0
    lowest = np.inf
    for k in range(int(2000 / step_ms)):
        sim.step()
        lowest = min(lowest, float(ode.dBodyGetPosition(body)[2]) - 0.05)
        if k * step_ms >= 1000:
            fastest = max(fastest, float(np.sqrt(np.sum(np.square(
                ode.dBodyGetLinearVel(body))))))
    return fastest, lowest


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--bodies", default="100")
    parser.add_argument("--steps", type=int, default=100)
    parser.add_argument("--settle", type=int, default=100)
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    bodies = [int(b) for b in args.bodies.split(",")]
    rows = []
    for name, text in scenes(bodies).items():
        for model in ("default", "robust"):  # warm-up: numba loads or compiles
            run_once(text, model, 2, 2)
        runs: dict[str, list[dict]] = {"default": [], "robust": []}
        for _ in range(args.repeats):
            for model in ("default", "robust"):
                runs[model].append(run_once(text, model, args.settle, args.steps))
        med = {m: {k: statistics.median(r[k] for r in rs) for k in ("ms", "substeps", "contacts")}
               for m, rs in runs.items()}
        rows.append((name, f"{med['default']['ms']:.2f}", f"{med['robust']['ms']:.2f}",
                     f"{med['robust']['ms'] / med['default']['ms']:.2f}",
                     f"{med['robust']['substeps']:.2f}",
                     f"{med['default']['contacts']:.0f}", f"{med['robust']['contacts']:.0f}"))
    print(f"ms per step, medians of {args.repeats} runs of {args.steps} steps after "
          f"{args.settle} untimed")
    print_table(("scene", "default ms", "robust ms", "robust/default", "robust sub-steps",
                 "default contacts", "robust contacts"), rows)
    quality = []
    for step_ms in (1, 10):
        for model in ("default", "robust"):
            fastest, lowest = mesh_quality(model, step_ms)
            quality.append((f"{step_ms} ms", model, f"{fastest:.2e}", f"{lowest * 1000:.3f}"))
    print("\nmesh cube (12 triangles) on a 2 048-triangle mesh floor, 2 s")
    print_table(("step", "model", "max speed after 1 s [m/s]", "lowest bottom [mm]"), quality)


if __name__ == "__main__":
    main()
