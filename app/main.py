"""The ``odeon`` command.

Until the desktop window exists, ``odeon`` runs a small bundled engine demo
and prints what happens (the app issue replaces this with the main window).
"""

from __future__ import annotations

import sys


def main(argv: list[str] | None = None) -> int:
    """Entry point of the ``odeon`` console script."""
    from engine.demo import run_demo

    argv = sys.argv[1:] if argv is None else argv
    return run_demo(out=sys.stdout)


if __name__ == "__main__":
    raise SystemExit(main())
