"""``odeon batch``: a Monte Carlo study of a world from the command line.

    odeon batch WORLD.wbt --samples N --duration S --sample PATH=uniform(a,b) ...
                --return PATH ... [--seed K] [--scheduler tcp://HOST:PORT | --workers K]
                --out results.parquet|.csv [--plot hist.png] [--sim-step S] [--sim-dt S]

Samples are drawn here (`engine.klampt.study`, one seeded stream per
sampler; without ``--seed`` a random seed is drawn and printed), the runs go
to a local process pool (``--workers``, default one per core) or to a Dask
scheduler (``--scheduler``), and the finished rows are written atomically to
``--out`` (`study.write_table`), with a histogram of each returned scalar
when ``--plot`` is given.

Before the study, one Simulator of the world is built here: it checks the
world and every path, and compiles the engine's kernels once (cached for the
workers). Progress goes to stderr: one line updated in place on a terminal,
plain lines otherwise. Ctrl-C keeps and writes the finished results (exit
status 130). Usage errors (missing world, bad spec, bad path) print one line
``odeon batch: error: ...`` and exit with status 2.

This module is the engine side of the command (no Qt); ``app.main`` only
dispatches to `main`.
"""

from __future__ import annotations

import argparse
import math
import os
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import NoReturn, TextIO

from engine.klampt import access, study
from engine.klampt.batch import run_samples, sample_conditions
from engine.klampt.simulator import Simulator
from engine.numba_cache import watch_compiles
from engine.world import WorldError, read_world

PROG = "odeon batch"
#: Exit statuses.
OK, FAILED, USAGE, INTERRUPTED = 0, 1, 2, 130


class UsageError(Exception):
    """A problem with the command line or its files (exit status 2)."""


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        raise UsageError(message)


def _positive(kind: type, what: str):
    def convert(text: str):
        try:
            value = kind(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected {what}, got '{text}'") from None
        if not (math.isfinite(value) and value > 0):
            raise argparse.ArgumentTypeError(f"expected {what} > 0, got '{text}'")
        return value
    return convert


def _sampler(text: str) -> study.SamplerSpec:
    try:
        return study.parse_sampler(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def parser() -> argparse.ArgumentParser:
    """The command's argument parser."""
    p = _Parser(prog=PROG, description="Run a Monte Carlo study of a world.")
    p.add_argument("world", help="the .wbt world file")
    p.add_argument("--samples", type=_positive(int, "a whole number of samples"), required=True)
    p.add_argument("--duration", type=_positive(float, "seconds"), required=True,
                   help="simulated seconds per run")
    p.add_argument("--sample", type=_sampler, action="append", default=[], metavar="SPEC",
                   help="PATH=uniform(a,b) or PATH=normal(mean,std), e.g. "
                        "'robots[0].config[0]=uniform(-pi,pi)' (repeatable)")
    p.add_argument("--return", dest="returns", action="append", default=[], metavar="PATH",
                   help="a value to record at the end of each run, e.g. robots[0].config "
                        "(repeatable)")
    p.add_argument("--seed", type=int, default=None, help="seed of the samplers")
    where = p.add_mutually_exclusive_group()
    where.add_argument("--scheduler", metavar="tcp://HOST:PORT",
                       help="run on a Dask cluster through its scheduler")
    where.add_argument("--workers", type=_positive(int, "a number of processes"),
                       help="local worker processes (default: one per core)")
    p.add_argument("--out", required=True, help="results file, .parquet or .csv")
    p.add_argument("--plot", metavar="PNG", help="write a histogram of each returned scalar")
    p.add_argument("--sim-step", type=_positive(float, "seconds"), default=None,
                   help="the Simulator's sub-step (setSimStep)")
    p.add_argument("--sim-dt", type=_positive(float, "seconds"), default=0.01,
                   help="outer step of each run (default 0.01 s)")
    return p


@dataclass(frozen=True)
class SimStepInit:
    """simInit of a command-line study: ``sim.setSimStep(step)`` (picklable)."""

    step: float | None

    def __call__(self, sim) -> None:
        if self.step is not None:
            sim.setSimStep(self.step)


def _check_out(path: str, flag: str) -> None:
    folder = os.path.dirname(os.path.abspath(path))
    if os.path.isdir(path):
        raise UsageError(f"argument {flag}: '{path}' is a directory")
    if not os.path.isdir(folder):
        raise UsageError(f"argument {flag}: folder '{folder}' does not exist")


def _check_study(args: argparse.Namespace) -> None:
    """Usage errors found before any run: files, suffixes, paths on the world
    and on one Simulator of it (which also compiles the kernels)."""
    _check_out(args.out, "--out")
    try:
        study.table_format(args.out)
    except ValueError as exc:
        raise UsageError(f"argument --out: {exc}") from None
    if args.plot is not None:
        _check_out(args.plot, "--plot")
    if not args.returns:
        raise UsageError("give at least one --return PATH")
    try:
        world = read_world(args.world)
    except (OSError, WorldError) as exc:
        raise UsageError(f"cannot read the world: {exc}") from None
    later = []
    for spec in args.sample:
        try:
            if access.needs_simulator(world, spec.path):
                later.append(spec.path)
        except ValueError as exc:
            raise UsageError(f"--sample {spec}: {exc}") from None
    with watch_compiles(_say_compiling_once()):
        try:
            sim = Simulator(world)
        except Exception as exc:  # noqa: BLE001 - any build failure ends the command
            raise UsageError(f"cannot simulate the world: {type(exc).__name__}: {exc}") from None
        for path in later + args.returns:
            try:
                access.get_item(sim, path)
            except ValueError as exc:
                raise UsageError(f"{exc}") from None


def _say_compiling_once():
    said = []

    def say(_report) -> None:
        if not said:
            said.append(True)
            print(f"{PROG}: preparing the physics engine (compiling its kernels: a few minutes "
                  f"on the first run, cached afterwards)...", file=sys.stderr, flush=True)
    return say


class Progress:
    """Runs done / N, runs per second and time left on ``stream``: one line
    updated in place on a terminal, a plain line per second otherwise."""

    def __init__(self, total: int, stream: TextIO) -> None:
        self.total, self.stream = total, stream
        self.done = 0
        self.start = time.monotonic()
        self.last = -math.inf
        self.tty = stream.isatty()

    def line(self) -> str:
        elapsed = time.monotonic() - self.start
        rate = self.done / elapsed if elapsed > 0 else 0.0
        left = (self.total - self.done) / rate if rate > 0 else math.inf
        eta = "?" if not math.isfinite(left) else f"{left:.0f} s"
        return f"{PROG}: {self.done}/{self.total} runs, {rate:.2f} runs/s, {eta} left"

    def update(self, _index: int = 0, _result: dict | None = None) -> None:
        self.done += 1
        now = time.monotonic()
        if self.tty:
            self.stream.write(f"\r{self.line()}\x1b[K")
        elif now - self.last >= 1.0 or self.done == self.total:
            self.stream.write(self.line() + "\n")
            self.last = now
        self.stream.flush()

    def finish(self) -> None:
        if self.tty:
            self.stream.write("\n")
            self.stream.flush()


def _executor(args: argparse.Namespace):
    if args.scheduler is None:
        return None
    from distributed import Client  # only for --scheduler: Dask's client is slow to import

    try:
        return Client(args.scheduler, timeout="10s")
    except OSError as exc:
        raise UsageError(f"argument --scheduler: cannot reach '{args.scheduler}': {exc}") from None


def run(args: argparse.Namespace, err: TextIO) -> int:
    """Run a parsed study; the exit status."""
    _check_study(args)
    seed = args.seed if args.seed is not None else study.new_seed()
    if args.seed is None:
        print(f"{PROG}: seed {seed} (pass --seed {seed} to draw the same samples)", file=err)
    conditions = sample_conditions(study.make_samplers(args.sample, seed), args.samples)
    executor = _executor(args)
    progress = Progress(args.samples, err)
    try:
        outcome = run_samples(args.world, args.duration, conditions, args.returns,
                              sim_dt=args.sim_dt, sim_init=SimStepInit(args.sim_step),
                              executor=executor, workers=args.workers,
                              on_result=progress.update)
    finally:
        progress.finish()
        if executor is not None:
            executor.close()
    table = study.results_table(conditions, outcome.results)
    study.write_table(table, args.out)
    if args.plot is not None:
        study.write_histograms(table, args.plot)
    failed = sum(1 for e in table.columns["error"] if e)
    if outcome.interrupted:
        print(f"{PROG}: interrupted: wrote the {outcome.done} of {args.samples} results "
              f"finished to {args.out}", file=err)
        return INTERRUPTED
    note = f" ({failed} failed: see the error column)" if failed else ""
    print(f"{PROG}: wrote {outcome.done} results to {args.out}{note}", file=err)
    return FAILED if failed == outcome.done and failed else OK


def main(argv: Sequence[str], err: TextIO | None = None) -> int:
    """Entry point of ``odeon batch ARGS``; the exit status."""
    err = sys.stderr if err is None else err
    try:
        return run(parser().parse_args(list(argv)), err)
    except UsageError as exc:
        print(f"{PROG}: error: {exc}", file=err)
        return USAGE
    except KeyboardInterrupt:
        print(f"{PROG}: interrupted before the study started", file=err)
        return INTERRUPTED
