"""Start-up times of the app: first drawn frame and first step of the default
world, with an empty kernel cache, after the install-time warm-up, and warm.

Each configuration runs `start_probe.py` in a fresh process under the
NUMBA_CACHE_DIR it names (under Xvfb when there is no display):

* ``cold``: an empty cache, no warm-up: the world's first step waits for
  numba to compile what it needs (what the first Run did before the warm-up);
* ``warm-up``: ``python -m engine.warmup`` into another empty cache (what
  `make run` / `make test` now do once after installing), timed;
* ``after warm-up``: the app's first start on that cache;
* ``later``: a second start on the same cache.

Run: ``.venv/bin/python bench/bench_start.py [--skip-cold]``. The cold rows
compile every kernel twice (minutes each on a small machine).
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from common import REPO, print_table  # noqa: E402

PROBE = Path(__file__).resolve().parent / "start_probe.py"
GUI_ENV = {"QT_QPA_PLATFORM": "xcb", "PYOPENGL_PLATFORM": "glx"}


def _command(args: list[str]) -> list[str]:
    if os.environ.get("DISPLAY") or not shutil.which("xvfb-run"):
        return args
    return ["xvfb-run", "-a", "-s", "-screen 0 1280x1024x24", *args]


def probe(cache: Path) -> tuple[float, float]:
    """(first frame, first step) seconds of one app start on ``cache``."""
    env = dict(os.environ, NUMBA_CACHE_DIR=str(cache), **GUI_ENV)
    out = subprocess.run(_command([sys.executable, str(PROBE)]), cwd=REPO, env=env,
                         capture_output=True, text=True, timeout=3600).stdout
    values = dict(line.split() for line in out.splitlines()
                  if line.startswith(("FIRST_FRAME", "FIRST_STEP")))
    return float(values["FIRST_FRAME"]), float(values["FIRST_STEP"])


def warm(cache: Path) -> float:
    """Seconds of the install-time warm-up into ``cache``."""
    env = dict(os.environ, NUMBA_CACHE_DIR=str(cache))
    t0 = time.perf_counter()
    subprocess.run([sys.executable, "-m", "engine.warmup"], cwd=REPO, env=env, check=True,
                   capture_output=True, timeout=7200)
    return time.perf_counter() - t0


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--skip-cold", action="store_true",
                    help="leave out the start on an empty cache without warm-up")
    args = ap.parse_args(argv)
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        if not args.skip_cold:
            frame, step = probe(Path(tmp) / "cold")
            rows.append(("cold: empty cache, no warm-up", "-", f"{frame:.1f}", f"{step:.1f}"))
        cache = Path(tmp) / "warmed"
        seconds = warm(cache)
        frame, step = probe(cache)
        rows.append(("first start after the warm-up", f"{seconds:.0f}", f"{frame:.1f}",
                     f"{step:.1f}"))
        frame, step = probe(cache)
        rows.append(("later start", "-", f"{frame:.1f}", f"{step:.1f}"))
    print("app start on resources/worlds/default.wbt (seconds from process start)")
    print_table(("configuration", "warm-up s", "first frame s", "first step s"), rows)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
