"""Peak memory and time of reading big `.wbt` worlds, before and after a change.

Generates two worlds of about ``--size-mb`` MB each (many small Solids; one
Solid whose IndexedFaceSet holds all the bytes), then reads each one with
`engine.world.read_world` in a fresh Python process per checkout and prints
seconds and peak resident memory side by side::

    git worktree add /tmp/before_b <commit>
    .venv/bin/python bench/bench_world_load.py --before /tmp/before_b --size-mb 50
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
HEADER = "#VRML_SIM R2025a utf8\nWorldInfo { basicTimeStep 16 }\n"

_MEASURE = """
import json, resource, sys, time
sys.path.insert(0, sys.argv[1])
from engine.world import read_world
start = time.perf_counter()
world = read_world(sys.argv[2])
seconds = time.perf_counter() - start
peak_kb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
print(json.dumps({"seconds": seconds, "peak_mb": peak_kb / 1024, "nodes": len(world.nodes)}))
"""

_SOLID = ("DEF S{i} Solid {{\n  translation {x:.4f} {y:.4f} 0.5\n  children [\n"
          "    Shape {{\n      geometry DEF G{i} Box {{\n        size 0.1 0.1 0.1\n      }}\n"
          "    }}\n  ]\n  name \"solid {i}\"\n  boundingObject USE G{i}\n"
          "  physics Physics {{\n  }}\n}}\n")


def write_solids(path: Path, size: int) -> None:
    """Many Solids with a Box each until ``size`` bytes."""
    rng = random.Random(1)
    with open(path, "w") as out:
        out.write(HEADER)
        written, i = len(HEADER), 0
        while written < size:
            text = _SOLID.format(i=i, x=rng.uniform(-50, 50), y=rng.uniform(-50, 50))
            out.write(text)
            written += len(text)
            i += 1


def write_mesh(path: Path, size: int) -> None:
    """One Solid whose IndexedFaceSet (points + indices) fills ``size`` bytes."""
    rng = random.Random(2)
    points = max(3, size // 2 // 30)
    with open(path, "w") as out:
        out.write(HEADER + "Solid {\n  children [\n    Shape {\n      geometry IndexedFaceSet {\n"
                  "        coord Coordinate {\n          point [\n")
        for _ in range(points):
            out.write(f"            {rng.uniform(-1, 1):.6f} {rng.uniform(-1, 1):.6f} "
                      f"{rng.uniform(-1, 1):.6f}\n")
        out.write("          ]\n        }\n        coordIndex [\n")
        written = out.tell()
        while written < size:
            a, b, c = (rng.randrange(points) for _ in range(3))
            line = f"          {a}, {b}, {c}, -1\n"
            out.write(line)
            written += len(line)
        out.write("        ]\n      }\n    }\n  ]\n}\n")


def measure(root: Path, world: Path) -> dict:
    """Seconds and peak RSS [MB] of reading ``world`` with the checkout at ``root``."""
    env = dict(os.environ, NUMBA_CACHE_DIR=str(ROOT / ".numba_cache"))
    done = subprocess.run([sys.executable, "-c", _MEASURE, str(root), str(world)], cwd=root,
                          env=env, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        return {"error": done.stderr.strip().splitlines()[-1] if done.stderr else "failed"}
    return json.loads(done.stdout)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--before", type=Path, default=None,
                        help="checkout of the previous version (git worktree)")
    parser.add_argument("--size-mb", type=float, default=50.0, help="size of each world [MB]")
    args = parser.parse_args(argv)
    size = int(args.size_mb * 1e6)
    checkouts = ([("before", args.before)] if args.before else []) + [("after", ROOT)]
    with tempfile.TemporaryDirectory() as folder:
        worlds = [("many Solids", Path(folder) / "solids.wbt", write_solids),
                  ("one IndexedFaceSet", Path(folder) / "mesh.wbt", write_mesh)]
        print(f"{'world':<20} {'MB':>6} {'checkout':<8} {'seconds':>8} {'peak MB':>8} "
              f"{'peak/file':>9}")
        for label, path, make in worlds:
            make(path, size)
            megabytes = path.stat().st_size / 1e6
            for name, root in checkouts:
                r = measure(root, path)
                if "error" in r:
                    print(f"{label:<20} {megabytes:6.1f} {name:<8} {r['error']}")
                    continue
                print(f"{label:<20} {megabytes:6.1f} {name:<8} {r['seconds']:8.1f} "
                      f"{r['peak_mb']:8.0f} {r['peak_mb'] / megabytes:9.1f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
