"""The runs of a batch study: one run (Klamp't's doSim loop) and many runs
spread over an executor, with retries after lost workers and early stops.

`RunSpec` holds what all the runs of a study share; it is sent to the
workers with each run's initial condition, and a worker rebuilds the world
from its text (`WorldText`), so a run is the same computation wherever it
runs: results are bit-identical for every executor and worker count, except
``wall_clock_time``.

A result is Klamp't's dict: each return item's value, ``'status'`` (the
worst status string over the run), ``'time'`` (simulated seconds: outer
steps times simDt) and ``'wall_clock_time'`` (seconds, measured in
the worker). A run that raises gives ``{'error': 'Type: message',
'traceback': text, 'status': 'error', 'wall_clock_time': s}``
(docs/decisions/0022-batch-results.md).
"""

from __future__ import annotations

import heapq
import os
import time
import traceback
from collections.abc import Callable, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, wait
from dataclasses import dataclass
from typing import Any, NamedTuple

from engine.klampt import access
from engine.klampt.executors import Runner
from engine.world.model import World
from engine.world.parser import parse_world
from engine.world.writer import format_world

#: The callbacks' names in Klamp't (and in errors).
CALLBACK_NAMES = ("simInit", "simStep", "simTerm")
#: Retries of a sample whose worker died, before its result reports the loss.
MAX_RETRIES = 3
#: Initial-condition key whose value (a tuple) is passed to the callbacks.
ARGS = "args"


class WorldText(NamedTuple):
    """A world as sent to the workers: its ``.wbt`` text and the file name
    (None for an unsaved world) relative resources are found from."""

    text: str
    filename: str | None

    @staticmethod
    def of(world: World | str | os.PathLike[str]) -> WorldText:
        """A path's text as it is on disk; a World's as `format_world` writes it."""
        if isinstance(world, World):
            return WorldText(format_world(world), world.filename)
        path = os.fspath(world)
        with open(path, encoding="utf-8") as stream:
            return WorldText(stream.read(), path)

    def load(self) -> World:
        """A fresh World parsed from the text."""
        world = parse_world(self.text, self.filename or "<batch world>")
        world.filename = self.filename
        return world


@dataclass(frozen=True)
class RunSpec:
    """What every run of a study shares: the world, ``duration`` [s], the
    return items (None: Klamp't's defaults), the outer step ``sim_dt`` [s],
    the callbacks (``f(sim, *args)``) and the simulator factory
    (``simulator(world) -> Simulator``)."""

    world: WorldText
    duration: float
    return_items: tuple[str, ...] | None
    sim_dt: float
    sim_init: Callable[..., Any] | None
    sim_step: Callable[..., Any] | None
    sim_term: Callable[..., Any] | None
    simulator: Callable[[World], Any]

    def callbacks(self) -> dict[str, Any]:
        """Klamp't name -> callback, for the ones given."""
        found = zip(CALLBACK_NAMES, (self.sim_init, self.sim_step, self.sim_term), strict=True)
        return {name: fn for name, fn in found if fn is not None}


def make_spec(world: World | str | os.PathLike[str], duration: float,
              return_items: Sequence[str] | None, sim_dt: float,
              callbacks: tuple[Any, Any, Any], simulator: Callable[[World], Any]) -> RunSpec:
    """A checked `RunSpec` (ValueError for a non-positive ``sim_dt`` or a
    negative ``duration``)."""
    if not sim_dt > 0.0:
        raise ValueError(f"simDt must be > 0 s, got {sim_dt}")
    if not duration >= 0.0:
        raise ValueError(f"duration must be >= 0 s, got {duration}")
    items = None if return_items is None else tuple(return_items)
    return RunSpec(WorldText.of(world), float(duration), items, float(sim_dt), *callbacks,
                   simulator=simulator)


def default_return_items(sim: Any) -> list[str]:
    """Klamp't's default return items: time, each rigid object's transform and
    velocity, each controller's commanded and sensed config and velocity."""
    items = ["time"]
    for i in range(len(sim.index.rigid_objects)):
        items += [f"rigidObjects[{i}].transform", f"rigidObjects[{i}].velocity"]
    for i in range(len(sim.index.robots)):
        items += [f"controllers[{i}].{name}" for name in
                  ("commandedConfig", "commandedVelocity", "sensedConfig", "sensedVelocity")]
    return items


def _build(spec: RunSpec, initial_condition: dict[str, Any]) -> tuple[Any, tuple]:
    """The Simulator of one run, initial conditions applied (world items on
    the world, then Simulator-only items on the Simulator), and its args."""
    world = spec.world.load()
    later = {}
    for key, value in initial_condition.items():
        if key == ARGS:
            continue
        if access.needs_simulator(world, key):
            later[key] = value
        else:
            access.set_item(world, key, value)
    sim = spec.simulator(world)
    for key, value in later.items():
        access.set_item(sim, key, value)
    args = initial_condition.get(ARGS, ())
    return sim, tuple(args) if isinstance(args, (list, tuple)) else (args,)


def simulate(spec: RunSpec, initial_condition: dict[str, Any], trace: bool = False
             ) -> dict[str, Any]:
    """One run (Klamp't's doSim): build, ``simInit(sim, *args)``, then while
    t < duration: stop if ``simTerm(sim, *args)``, ``simStep(sim, *args)``,
    ``sim.simulate(sim_dt)``, t = (outer steps) * sim_dt. Returns the result dict (module
    docstring); with ``trace`` each item holds its values after every outer
    step (the initial value first), ``'status'`` each step's status string.
    Errors propagate."""
    t0 = time.perf_counter()
    sim, args = _build(spec, initial_condition)
    if spec.sim_init is not None:
        spec.sim_init(sim, *args)
    items = list(spec.return_items) if spec.return_items is not None else \
        default_return_items(sim)
    res: dict[str, Any] = {}
    if trace:
        res = {k: [access.get_item(sim, k)] for k in items}
        res["status"] = [sim.getStatusString()]
    steps = 0
    worst = 0
    # t = steps * sim_dt rather than Klamp't's t += sim_dt, whose rounding runs
    # 501 steps of 0.01 s for 5 s (docs/decisions/0022-batch-results.md)
    while steps * spec.sim_dt < spec.duration - 1e-9 * spec.sim_dt:
        if spec.sim_term is not None and spec.sim_term(sim, *args):
            break
        if spec.sim_step is not None:
            spec.sim_step(sim, *args)
        sim.simulate(spec.sim_dt)
        worst = max(worst, sim.getStatus())
        if trace:
            for k in items:
                res[k].append(access.get_item(sim, k))
            res["status"].append(sim.getStatusString())
        steps += 1
    if not trace:
        res = {k: access.get_item(sim, k) for k in items}
        res["status"] = sim.getStatusString(worst)
    res["time"] = steps * spec.sim_dt
    res["wall_clock_time"] = time.perf_counter() - t0
    return res


def error_result(exc: BaseException, trace_text: str, wall: float) -> dict[str, Any]:
    """The result of a run that raised ``exc``."""
    return {"error": f"{type(exc).__name__}: {exc}", "traceback": trace_text,
            "status": "error", "wall_clock_time": wall}


def run_task(spec: RunSpec, initial_condition: dict[str, Any]) -> dict[str, Any]:
    """One run in a worker: its result, or its error result (never raises for
    an error of the run itself)."""
    t0 = time.perf_counter()
    try:
        return simulate(spec, initial_condition)
    except Exception as exc:  # noqa: BLE001 - a run's failure is its result
        return error_result(exc, traceback.format_exc(), time.perf_counter() - t0)


@dataclass
class Outcome:
    """What a study gave: ``results`` in sample order (None for a sample that
    did not finish), ``stopped`` (by the stop event or Ctrl-C) and
    ``interrupted`` (by Ctrl-C)."""

    results: list[dict[str, Any] | None]
    stopped: bool = False
    interrupted: bool = False

    @property
    def done(self) -> int:
        """How many samples finished."""
        return sum(r is not None for r in self.results)


class _Running(NamedTuple):
    index: int
    generation: int


def run_all(runner: Runner, spec: RunSpec, initial_conditions: Sequence[dict[str, Any]],
            on_result: Callable[[int, dict[str, Any]], None] | None = None,
            stop: Any = None, max_retries: int = MAX_RETRIES) -> Outcome:
    """Run every initial condition on ``runner``: results reported to
    ``on_result(index, result)`` as they arrive; stops early, keeping what
    finished, when ``stop`` (a threading.Event) is set or on KeyboardInterrupt.
    The runner is closed at the end.

    At most workers + 1 runs are in flight. When a worker dies, every sample
    in flight becomes a *suspect*: suspects are retried one at a time, alone on
    a recovered pool (lowest index first), so a sample that kills its worker
    is found out without costing the others their retries; after
    ``max_retries`` deaths of its own worker its result reports the loss."""
    runner.check_sendable({**spec.callbacks(), "the study": spec})
    out = Outcome([None] * len(initial_conditions))
    fresh = list(range(len(initial_conditions)))
    suspects: list[int] = []
    attempts = [0] * len(initial_conditions)
    running: dict[Future, _Running] = {}

    def submit(i: int) -> None:
        running[runner.submit(run_task, spec, initial_conditions[i])] = _Running(
            i, runner.generation)

    def finish(i: int, result: dict[str, Any]) -> None:
        out.results[i] = result
        if on_result is not None:
            on_result(i, result)

    def lost(i: int, generation: int, exc: BaseException) -> None:
        attempts[i] += 1
        if attempts[i] > max_retries:
            finish(i, error_result(exc, f"the worker running this sample died "
                                        f"{attempts[i]} times", 0.0))
        else:
            heapq.heappush(suspects, i)
        if generation == runner.generation:
            runner.recover()

    try:
        while fresh or suspects or running:
            if stop is not None and stop.is_set():
                out.stopped = True
                break
            if suspects and not running:
                submit(heapq.heappop(suspects))
            while fresh and not suspects and len(running) <= runner.workers and not any(
                    attempts[r.index] for r in running.values()):
                submit(heapq.heappop(fresh))
            done, _ = wait(list(running), timeout=0.1, return_when=FIRST_COMPLETED)
            for future in sorted(done, key=lambda f: running[f].index):
                i, generation = running.pop(future)
                exc = future.exception()
                if exc is None:
                    finish(i, future.result())
                elif runner.is_worker_loss(exc):
                    lost(i, generation, exc)
                else:
                    finish(i, error_result(exc, "".join(traceback.format_exception(exc)), 0.0))
    except KeyboardInterrupt:
        out.stopped = out.interrupted = True
    finally:
        for future in running:
            future.cancel()
        runner.close(cancel=bool(running))
    return out
