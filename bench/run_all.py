"""Run every ``bench/bench_*.py`` in turn (this is what ``make bench`` calls).

Each benchmark runs in its own process with this interpreter, default
options, and ``NUMBA_CACHE_DIR`` defaulting to ``<repo>/.numba_cache``.
Extra arguments select benchmarks by substring:
``.venv/bin/python bench/run_all.py dynamics``.  The exit status is non-zero
if any benchmark failed; benchmarks make no timed assertions.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

BENCH_DIR = Path(__file__).resolve().parent
REPO = BENCH_DIR.parent


def discover(filters: list[str]) -> list[Path]:
    """The benchmark scripts, sorted, kept if any filter is a substring of the name."""
    scripts = sorted(BENCH_DIR.glob("bench_*.py"))
    if filters:
        scripts = [s for s in scripts if any(f in s.name for f in filters)]
    return scripts


def main(argv: list[str] | None = None) -> int:
    """Run the benchmarks; returns the number of failures (capped at 1 for the exit code)."""
    filters = sys.argv[1:] if argv is None else argv
    scripts = discover(filters)
    if not scripts:
        print(f"no bench_*.py in {BENCH_DIR} matching {filters}")
        return 1
    env = dict(os.environ)
    env.setdefault("NUMBA_CACHE_DIR", str(REPO / ".numba_cache"))
    failed: list[str] = []
    for script in scripts:
        print(f"=== {script.name} ===", flush=True)
        t0 = time.perf_counter()
        rc = subprocess.call([sys.executable, str(script)], cwd=REPO, env=env)
        dt = time.perf_counter() - t0
        status = "ok" if rc == 0 else f"FAILED (exit {rc})"
        print(f"=== {script.name}: {status}, {dt:.1f} s ===\n", flush=True)
        if rc != 0:
            failed.append(script.name)
    if failed:
        print(f"failed: {', '.join(failed)}")
        return 1
    print(f"all {len(scripts)} benchmarks ran")
    return 0


if __name__ == "__main__":
    sys.exit(main())
