"""Klamp't's batch simulation (klampt.sim.batch) over Odeon worlds.

    from engine.klampt import batch
    def sim_init(sim):                    # a module-level function (sent to workers)
        c = sim.controller(0)
        c.setPIDCommand([0], [0]); c.setPIDGains([20], [8], [5])
    res = batch.monteCarloSim("one_link.wbt", 5.0,
                              {"robots[0].config[0]": lambda: random.uniform(-pi, pi)},
                              100, ["robots[0].config", "robots[0].velocity"],
                              simInit=sim_init)
    start, result = res[0]                # result["robots[0].config"] -> [q] (rad)

* `doSim` runs one initial condition in this process; `batchSim` many given
  initial conditions (a list of dicts or a dict of lists); `monteCarloSim`
  ``N`` sampled ones (the samplers run here, in sample order) and returns
  ``(initialCondition, result)`` pairs; `run_samples` is the lower-level entry
  of ``odeon batch`` and the app (results reported as they arrive, early stop).
* ``world`` is a path or an `engine.world.World` (sent to the workers as its
  text, `runs.WorldText`). Initial-condition keys are map paths
  (`engine.klampt.access`); ``'args'`` is a tuple passed to
  ``simInit(sim, *args)``, ``simStep(sim, *args)`` and ``simTerm(sim, *args)``.
* ``executor``: None for a local process pool (``workers`` processes, default
  one per core), any ``concurrent.futures.Executor``, or a Dask
  ``distributed.Client`` / its ``get_executor()`` for a cluster
  (`executors`). With processes the callbacks must be picklable: module-level
  functions (a script's own functions need its ``if __name__ == "__main__":``
  guard, as with any process pool).
* Results are in sample order and bit-identical for every executor and worker
  count; ``'wall_clock_time'`` is the only entry that differs. A run that
  raises gives ``{'error': 'Type: message', 'traceback': ..., 'status':
  'error', 'wall_clock_time': s}`` (Klamp't gives the bare string 'error';
  docs/decisions/0022-batch-results.md); a sample whose worker died is retried
  on a fresh pool (`runs.MAX_RETRIES` times, then its result says so).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from engine.klampt.executors import runner_for
from engine.klampt.runs import Outcome, make_spec, run_all, simulate
from engine.klampt.simulator import Simulator
from engine.world.model import World

WorldLike = World | str | os.PathLike[str]
Callback = Callable[..., Any] | None
Result = dict[str, Any]


def doSim(world: WorldLike, duration: float, initialCondition: Mapping[str, Any],
          returnItems: Sequence[str] | None = None, trace: bool = False, simDt: float = 0.01,
          simInit: Callback = None, simStep: Callback = None, simTerm: Callback = None) -> Result:
    """One run in this process (module docstring): ``duration`` [s] in outer
    steps of ``simDt`` [s]; returns the result dict (``returnItems`` None:
    time, rigid objects' transforms and velocities, controllers' commanded and
    sensed configs and velocities). Errors of the run propagate. The caller's
    World is not changed (the run works on a copy read from its text)."""
    spec = make_spec(world, duration, returnItems, simDt, (simInit, simStep, simTerm), Simulator)
    return simulate(spec, dict(initialCondition), trace=trace)


def _as_list(initialConditions: Sequence[Mapping[str, Any]] | Mapping[str, Sequence[Any]]
             ) -> list[dict[str, Any]]:
    """A dict of lists (all the same length) or a list of dicts, as a list of dicts."""
    if isinstance(initialConditions, Mapping):
        lengths = {k: len(v) for k, v in initialConditions.items()}
        if len(set(lengths.values())) > 1:
            raise ValueError(f"initialConditions: every list must have the same length, got "
                             f"{lengths}")
        n = next(iter(lengths.values()), 0)
        return [{k: v[i] for k, v in initialConditions.items()} for i in range(n)]
    return [dict(c) for c in initialConditions]


def run_samples(world: WorldLike, duration: float,
                initial_conditions: Sequence[Mapping[str, Any]],
                return_items: Sequence[str] | None, *, sim_dt: float = 0.01,
                sim_init: Callback = None, sim_step: Callback = None, sim_term: Callback = None,
                executor: Any = None, workers: int | None = None,
                on_result: Callable[[int, Result], None] | None = None, stop: Any = None,
                simulator: Callable[[World], Any] = Simulator) -> Outcome:
    """Run each initial condition (module docstring) and return an `Outcome`
    (results in sample order, None where a sample did not finish). Each
    finished sample is passed to ``on_result(index, result)`` as it arrives
    (in this thread); the study stops early, keeping what finished, when
    ``stop`` (a threading.Event) is set or on Ctrl-C (``Outcome.interrupted``).
    ``simulator`` builds the Simulator of a World (a Simulator subclass, say;
    it must be picklable for process executors)."""
    spec = make_spec(world, duration, return_items, sim_dt, (sim_init, sim_step, sim_term),
                     simulator)
    conditions = [dict(c) for c in initial_conditions]
    return run_all(runner_for(executor, workers), spec, conditions, on_result=on_result,
                   stop=stop)


def _finished(outcome: Outcome) -> list[Result]:
    if outcome.interrupted:
        raise KeyboardInterrupt
    return [r for r in outcome.results if r is not None]


def batchSim(world: WorldLike, duration: float,
             initialConditions: Sequence[Mapping[str, Any]] | Mapping[str, Sequence[Any]],
             returnItems: Sequence[str] | None, simDt: float = 0.01, simInit: Callback = None,
             simStep: Callback = None, simTerm: Callback = None, executor: Any = None, *,
             workers: int | None = None) -> list[Result]:
    """The result of each initial condition, in order (a list of dicts, or a
    dict of equally long lists)."""
    outcome = run_samples(world, duration, _as_list(initialConditions), returnItems,
                          sim_dt=simDt, sim_init=simInit, sim_step=simStep, sim_term=simTerm,
                          executor=executor, workers=workers)
    return _finished(outcome)


def sample_conditions(initialConditionSamplers: Mapping[str, Callable[[], Any]], N: int
                      ) -> list[dict[str, Any]]:
    """``N`` initial conditions, sampled here in sample order (each sample calls
    every sampler once, in the dict's order)."""
    return [{k: sampler() for k, sampler in initialConditionSamplers.items()}
            for _ in range(int(N))]


def monteCarloSim(world: WorldLike, duration: float,
                  initialConditionSamplers: Mapping[str, Callable[[], Any]], N: int,
                  returnItems: Sequence[str] | None, simInit: Callback = None,
                  simStep: Callback = None, simTerm: Callback = None, executor: Any = None,
                  simDt: float = 0.01, *, workers: int | None = None
                  ) -> list[tuple[dict[str, Any], Result]]:
    """``N`` runs from sampled initial conditions: ``(initialCondition,
    result)`` pairs in sample order."""
    conditions = sample_conditions(initialConditionSamplers, N)
    results = batchSim(world, duration, conditions, returnItems, simDt, simInit, simStep,
                       simTerm, executor, workers=workers)
    return list(zip(conditions, results, strict=True))
