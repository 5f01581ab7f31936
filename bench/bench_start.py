"""Start-up times of the app: first drawn frame and first step of the default
world, with an empty kernel cache, after the install-time warm-up, and warm.

Each configuration runs `start_probe.py` in a fresh process under the
NUMBA_CACHE_DIR it names (under Xvfb when there is no display):

* ``cold, shipped kernels``: an empty cache, no warm-up: importing the
  engine unpacks the kernels shipped with the sources
  (`engine.kernel_archive`, decision 0030);
* ``cold``: an empty cache, no warm-up, the shipped kernels left out
  (``ODEON_KERNEL_ARCHIVE=0``): the world's first step waits for numba to
  compile what it needs (what the first Run did before the warm-up);
* ``warm-up``: ``python -m engine.warmup`` then ``python -m app.warmup``
  into another empty cache (what `make run` / `make test` do once after
  installing), timed;
* ``after warm-up``: the app's first start on that cache;
* ``later``: a second start on the same cache.

``--clone`` measures what a new user waits for instead: ``git clone`` of
this repository into a temporary folder, the package installation there
(``make .venv/.packages``: a new venv, ``pip install -e .[test]``), then
``make run`` itself with `start_probe.py` in place of the app (``ODEON=``):
it writes the bytecode, compiles the viewport's kernels, starts the engine's
kernel warm-up in the background and opens the window; Run waits for the
kernels. Its rows count from the end of the package installation (all of
that included). Then a second start. The system packages
(``make system-deps``) are assumed installed; pip downloads what its cache
does not hold.

Run: ``.venv/bin/python bench/bench_start.py [--skip-cold] [--clone]``. The
cold row without the shipped kernels compiles every kernel (minutes on a
small machine; ``--skip-cold`` leaves it out).
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


def probe(cache: Path, **extra_env: str) -> tuple[float, float]:
    """(first frame, first step) seconds of one app start on ``cache``."""
    env = dict(os.environ, NUMBA_CACHE_DIR=str(cache), **GUI_ENV, **extra_env)
    env.pop("ODEON_NUMBA_CACHE_CHECK", None)
    out = subprocess.run(_command([sys.executable, str(PROBE)]), cwd=REPO, env=env,
                         capture_output=True, text=True, timeout=3600).stdout
    values = dict(line.split() for line in out.splitlines()
                  if line.startswith(("FIRST_FRAME", "FIRST_STEP")))
    return float(values["FIRST_FRAME"]), float(values["FIRST_STEP"])


def warm(cache: Path) -> float:
    """Seconds of the install-time warm-up into ``cache``."""
    env = dict(os.environ, NUMBA_CACHE_DIR=str(cache))
    env.pop("ODEON_NUMBA_CACHE_CHECK", None)
    t0 = time.perf_counter()
    for module in ("engine.warmup", "app.warmup"):  # as the Makefile's install step
        subprocess.run([sys.executable, "-m", module], cwd=REPO, env=env, check=True,
                       capture_output=True, timeout=7200)
    return time.perf_counter() - t0


def _probe_in(clone: Path) -> tuple[float, float]:
    """(first frame, first step) seconds of one app start in ``clone``."""
    env = dict(os.environ, NUMBA_CACHE_DIR=str(clone / ".numba_cache"), **GUI_ENV)
    env.pop("ODEON_NUMBA_CACHE_CHECK", None)
    out = subprocess.run(_command([str(clone / ".venv" / "bin" / "python"),
                                   str(clone / "bench" / "start_probe.py")]),
                         cwd=clone, env=env, capture_output=True, text=True,
                         timeout=3600).stdout
    values = dict(line.split() for line in out.splitlines()
                  if line.startswith(("FIRST_FRAME", "FIRST_STEP")))
    return float(values["FIRST_FRAME"]), float(values["FIRST_STEP"])


def clone_rows(tmp: Path) -> list[tuple[str, str]]:
    """(step, seconds) rows of a clean clone's first ``make run`` (module docstring)."""
    clone = tmp / "clone"
    env = {k: v for k, v in os.environ.items()
           if k not in ("NUMBA_CACHE_DIR", "ODEON_NUMBA_CACHE_CHECK", "VIRTUAL_ENV")}
    t0 = time.perf_counter()
    subprocess.run(["git", "clone", "-q", str(REPO), str(clone)], check=True, timeout=600)
    t_clone = time.perf_counter()
    subprocess.run(["make", "-C", str(clone), ".venv/.packages"], env=env, check=True,
                   capture_output=True, timeout=3600)
    t_packages = time.perf_counter()
    # `make run` itself, the app replaced by the probe: the warm-up starts in the
    # background, the window opens, Run waits for the kernels
    probe = f"{clone / '.venv' / 'bin' / 'python'} {clone / 'bench' / 'start_probe.py'}"
    out = subprocess.run(_command(["make", "-C", str(clone), "run", f"ODEON={probe}"]),
                         env=dict(env, **GUI_ENV), capture_output=True, text=True,
                         timeout=7200).stdout
    values = dict(line.split() for line in out.splitlines()
                  if line.startswith(("FIRST_FRAME", "FIRST_STEP")))
    # from the end of the installation, read on the probe's monotonic clock: make
    # run's own work before the app (bytecode, the viewport's kernels) counts too
    frame = float(values["FIRST_FRAME_CLOCK"]) - t_packages
    step = float(values["FIRST_STEP_CLOCK"]) - t_packages
    stamp = clone / ".venv" / ".installed"
    while not stamp.exists():  # the background warm-up ends just after the first step
        time.sleep(0.5)
    later_frame, later_step = _probe_in(clone)
    return [("git clone", f"{t_clone - t0:.1f}"),
            ("packages installed (venv + pip)", f"{t_packages - t_clone:.1f}"),
            ("make run: end of installation to first drawn frame", f"{frame:.1f}"),
            ("make run: to the first step (kernels ready)", f"{step:.1f}"),
            ("git clone to first drawn frame", f"{t_packages - t0 + frame:.1f}"),
            ("later start to first drawn frame", f"{later_frame:.1f}"),
            ("  (to the first step)", f"{later_step:.1f}")]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--skip-cold", action="store_true",
                    help="leave out the start on an empty cache without the shipped kernels")
    ap.add_argument("--clone", action="store_true",
                    help="time a clean clone's first make run instead (module docstring)")
    args = ap.parse_args(argv)
    if args.clone:
        with tempfile.TemporaryDirectory() as tmp:
            rows = clone_rows(Path(tmp))
        print("a clean clone's first make run (seconds)")
        print_table(("step", "seconds"), rows)
        return 0
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        frame, step = probe(Path(tmp) / "shipped")
        rows.append(("cold: empty cache, shipped kernels, no warm-up", "-", f"{frame:.1f}",
                     f"{step:.1f}"))
        if not args.skip_cold:
            frame, step = probe(Path(tmp) / "cold", ODEON_KERNEL_ARCHIVE="0")
            rows.append(("cold: empty cache, no shipped kernels, no warm-up", "-",
                         f"{frame:.1f}", f"{step:.1f}"))
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
