"""Run every ``bench/bench_*.py`` in turn (this is what ``make bench`` calls).

Each benchmark runs in its own process with this interpreter and default
options; ``NUMBA_CACHE_DIR`` is the engine-source-keyed cache chosen by
``bench/common.py`` (``ODEON_BENCH_NUMBA_CACHE=shared`` keeps the caller's,
defaulting to ``<repo>/.numba_cache``).
Today: ``bench_dynamics.py`` (stepping only), ``bench_pile.py`` (the ode_ref
pile scenes, collision + QuickStep, both near-callback modes) and
``bench_sor_lcp.py``. Extra arguments select benchmarks by substring:
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
sys.path.insert(0, str(BENCH_DIR))

import common  # noqa: E402  (sets NUMBA_CACHE_DIR for the children)


def discover(filters: list[str]) -> list[Path]:
    """The benchmark scripts, sorted, kept if any filter is a substring of the name."""
    scripts = sorted(BENCH_DIR.glob("bench_*.py"))
    if filters:
        scripts = [s for s in scripts if any(f in s.name for f in filters)]
    return scripts


def main(argv: list[str] | None = None) -> int:
    """Run the benchmarks; returns the exit status (1 if any failed or none matched)."""
    filters = sys.argv[1:] if argv is None else argv
    scripts = discover(filters)
    if not scripts:
        print(f"no bench_*.py in {BENCH_DIR} matching {filters}")
        return 1
    env = dict(os.environ)
    env.setdefault("NUMBA_CACHE_DIR", str(REPO / ".numba_cache"))
    print(common.NUMBA_CACHE_NOTE, flush=True)
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
