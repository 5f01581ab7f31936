"""The ``odeon`` command.

- ``odeon`` (no argument): opens the desktop app on resources/worlds/default.wbt;
- ``odeon run WORLD [--duration S] [--stepper step|quickstep] [--log CSV]
  [--no-plugin]``: runs a world headless (with its WorldInfo.physics plugin
  unless ``--no-plugin``), streams console lines to stdout and optionally
  writes body trajectories to a CSV file;
- ``odeon WORLD.wbt``: opens that world in the desktop app.
"""

from __future__ import annotations

import argparse
import sys


def _run_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="odeon run", description="Run a world headless.")
    parser.add_argument("world", help="the .wbt world file")
    parser.add_argument("--duration", type=float, default=10.0,
                        help="simulated time to run, in seconds (default 10)")
    parser.add_argument("--stepper", choices=("step", "quickstep"), default=None,
                        help="override WorldInfo.stepper")
    parser.add_argument("--log", metavar="CSV", default=None,
                        help="write time_ms, solid, x, y, z, qw, qx, qy, qz per body per step")
    parser.add_argument("--no-plugin", action="store_true",
                        help="run without the world's physics plugin (WorldInfo.physics)")
    return parser


def _run(argv: list[str]) -> int:
    args = _run_parser().parse_args(argv)
    if args.duration < 0:
        print("odeon run: --duration must not be negative", file=sys.stderr)
        return 2
    from engine.numba_cache import watch_compiles
    from engine.sim.geometry import BuildError
    from engine.sim.headless import run_headless
    from engine.world import WorldError

    try:
        with watch_compiles(_say_compiling_once()):
            return run_headless(args.world, args.duration, sys.stdout, stepper=args.stepper,
                                log_path=args.log, plugin=not args.no_plugin)
    except (OSError, WorldError, BuildError) as exc:
        print(f"odeon run: {exc}", file=sys.stderr)
        return 1


def _say_compiling_once():
    """A compile callback printing one line on stderr at the first compilation."""
    said = []

    def say(_report) -> None:
        if not said:
            said.append(True)
            print("odeon run: preparing the physics engine (compiling its kernels: a few "
                  "minutes on the first run, cached afterwards)...", file=sys.stderr,
                  flush=True)
    return say


def main(argv: list[str] | None = None) -> int:
    """Entry point of the ``odeon`` console script."""
    argv = sys.argv[1:] if argv is None else argv
    if argv and argv[0] == "run":
        return _run(argv[1:])
    if argv and argv[0] in ("-h", "--help"):
        print(__doc__.strip())
        return 0
    return _open_app(argv[0] if argv else None)


def _open_app(world: str | None) -> int:
    """Show the main window on ``world`` (default world when None); Qt's exit code."""
    from app.gl_format import set_default_format

    set_default_format()  # before the QApplication exists
    from PySide6.QtWidgets import QApplication

    from app.main_window import MainWindow

    app = QApplication.instance() or QApplication(sys.argv[:1])
    window = MainWindow(world)
    window.show()
    return app.exec()


if __name__ == "__main__":
    raise SystemExit(main())
