"""The ``odeon`` command.

- ``odeon`` (no argument): opens the desktop app on resources/worlds/default.wbt;
- ``odeon run WORLD [--duration S] [--stepper step|quickstep]
  [--contacts default|robust] [--log CSV] [--force] [--no-plugin]
  [--no-controllers]``: runs a world headless (``--contacts`` overrides the
  world's contact model) with its WorldInfo.physics plugin unless
  ``--no-plugin`` and its robots' controllers unless ``--no-controllers``,
  streams console lines to stdout and optionally writes body trajectories to
  a CSV file (never over the world file; over an existing file only with
  ``--force``);
- ``odeon batch WORLD --samples N --duration S --sample PATH=uniform(a,b) ...
  --return PATH ... --out results.parquet|.csv [--plot hist.png] [--seed K]
  [--scheduler tcp://HOST:PORT | --workers K] [--sim-step S] [--sim-dt S]``:
  a Monte Carlo study of a world (`engine.batch_cli`);
- ``odeon WORLD.wbt``: opens that world in the desktop app.
"""

from __future__ import annotations

import argparse
import math
import os
import sys
from typing import NoReturn


def _duration(text: str) -> float:
    """``--duration`` value: a finite number of seconds >= 0 (argparse type)."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number of seconds, got '{text}'") from None
    if not math.isfinite(value) or value < 0.0:
        raise argparse.ArgumentTypeError(
            f"expected a finite number of seconds >= 0, got '{text}'")
    return value


class _ArgumentParser(argparse.ArgumentParser):
    """argparse with one-line errors (``odeon run: error: ...``) and exit status 2."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: error: {message}\n")


def _run_parser() -> argparse.ArgumentParser:
    parser = _ArgumentParser(prog="odeon run", description="Run a world headless.")
    parser.add_argument("world", help="the .wbt world file")
    parser.add_argument("--duration", type=_duration, default=10.0,
                        help="simulated time to run, in seconds (finite, >= 0; default 10)")
    parser.add_argument("--stepper", choices=("step", "quickstep"), default=None,
                        help="override WorldInfo.stepper")
    parser.add_argument("--contacts", choices=("default", "robust"), default=None,
                        help="the contact model: Webots' default contacts or the robust "
                             "(Klamp't) model; overrides the world's 'odeon: contacts' line")
    parser.add_argument("--log", metavar="CSV", default=None,
                        help="write time_ms, solid, x, y, z, qw, qx, qy, qz per body per step; "
                             "never the world file itself, and an existing file only with "
                             "--force")
    parser.add_argument("--force", action="store_true",
                        help="let --log replace an existing file (never the world file)")
    parser.add_argument("--no-plugin", action="store_true",
                        help="run without the world's physics plugin (WorldInfo.physics)")
    parser.add_argument("--no-controllers", action="store_true",
                        help="run without the robots' controllers (Robot.controller)")
    return parser


def _log_problem(world: str, log: str, force: bool) -> str | None:
    """Why ``log`` may not be written (``--log`` argument), or None."""
    if os.path.isdir(log):
        return f"argument --log: '{log}' is a directory"
    if not os.path.lexists(log):
        return None
    try:
        same = os.path.exists(world) and os.path.samefile(world, log)
    except OSError:
        same = False
    if same:
        # also catches a symbolic or hard link to the world file
        return f"argument --log: '{log}' is the world file itself; choose another file"
    if not force:
        return f"argument --log: '{log}' already exists (add --force to replace it)"
    return None


def _run(argv: list[str]) -> int:
    args = _run_parser().parse_args(argv)
    if args.log is not None:
        problem = _log_problem(args.world, args.log, args.force)
        if problem is not None:
            print(f"odeon run: error: {problem}", file=sys.stderr)
            return 2
    from engine.headless import run_headless
    from engine.numba_cache import watch_compiles
    from engine.sim.geometry import BuildError
    from engine.world import WorldError

    try:
        with watch_compiles(_say_compiling_once()):
            return run_headless(args.world, args.duration, sys.stdout, stepper=args.stepper,
                                log_path=args.log, plugin=not args.no_plugin,
                                controllers=not args.no_controllers,
                                contacts=args.contacts)
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
    if argv and argv[0] == "batch":
        from engine.batch_cli import main as batch_main  # loaded only for this command

        return batch_main(argv[1:])
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
