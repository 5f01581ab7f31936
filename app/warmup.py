"""Compile the app's own kernels ahead of time: ``python -m app.warmup``.

The viewport computes its instances' rows with two numba kernels
(`app.viewport.instance_kernels`). Compiled on first use they would hold up
the first paint of a world for some seconds on a fresh machine, so the
installation compiles them once into numba's cache, after the engine's
kernels (Makefile: the ``$(STAMP)`` rule and `make run`'s background warm-up).
"""

from __future__ import annotations

import sys

import engine  # noqa: F401  (numba's CPU target, engine/__init__.py: the app compiles for it too)
from app.viewport.instance_kernels import warm_up


def main() -> int:
    """Compile (or load) the viewport's kernels and say how long it took."""
    print(f"viewport kernels ready in {warm_up():.1f} s", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
