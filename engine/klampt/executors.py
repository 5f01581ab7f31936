"""Where a batch's runs go: one adapter per kind of executor.

`runner_for(executor, workers)` picks the adapter from `RUNNERS` (first match):

* ``None``: `LocalPool`, a process pool of our own (``workers`` processes,
  default one per core; spawn context, so workers start from a clean
  interpreter and inherit the parent's environment, ``NUMBA_CACHE_DIR``
  included, and ignore SIGINT: the caller decides when to stop);
* a Dask ``distributed.Client`` or its ``get_executor()``: `DaskRunner`;
* a ``concurrent.futures.ProcessPoolExecutor``: `UserProcessPool`;
* any other ``concurrent.futures.Executor`` (a ThreadPoolExecutor...):
  `ExecutorRunner`.

An adapter submits ``fn(*args)``, says which errors mean "a worker died"
(`is_worker_loss`), starts over after such a loss (`recover`: a fresh pool
for process pools; nothing for Dask, whose scheduler replaces workers), checks
that what it sends can be sent (`check_sendable`: pickle for processes,
cloudpickle for Dask, nothing for threads) and shuts down (`close`).
"""

from __future__ import annotations

import multiprocessing
import os
import pickle
import signal
from collections.abc import Callable
from concurrent.futures import Executor, Future, ProcessPoolExecutor, ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any

import cloudpickle

#: Dask errors meaning the worker running a task was lost (by class name: Dask
#: is imported only when a Dask executor is used).
DASK_WORKER_LOSS = frozenset({"KilledWorker", "CommClosedError", "FutureCancelledError"})


def default_workers() -> int:
    """One worker per core."""
    return max(1, os.cpu_count() or 1)


def _worker_init() -> None:
    """Pool workers ignore Ctrl-C: the caller stops the study and ends them."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _pickle_check(name: str, obj: Any, dumps: Callable[[Any], bytes], where: str) -> None:
    try:
        dumps(obj)
    except Exception as exc:  # noqa: BLE001 - any pickling failure is reported the same way
        raise TypeError(
            f"{name} {obj!r} cannot be sent to {where} ({type(exc).__name__}: {exc}); use a "
            f"module-level function (not a lambda, a nested function or a method of an "
            f"unpicklable object), or executor=concurrent.futures.ThreadPoolExecutor()"
        ) from None


class Runner:
    """The adapter interface (module docstring); `ExecutorRunner` is the plain case."""

    #: Errors (types) that mean the worker process died.
    loss_types: tuple[type[BaseException], ...] = ()

    def __init__(self, executor: Executor, workers: int) -> None:
        self.executor = executor
        self.workers = workers
        self.generation = 0  # bumped by recover(): futures of older pools are stale

    def submit(self, fn: Callable[..., Any], *args: Any) -> Future:
        """``fn(*args)`` on the executor."""
        return self.executor.submit(fn, *args)

    def is_worker_loss(self, exc: BaseException) -> bool:
        """True when ``exc`` means the worker died (not that the run raised)."""
        return isinstance(exc, self.loss_types)

    def recover(self) -> None:
        """Start over after a worker loss."""
        self.generation += 1

    def check_sendable(self, items: dict[str, Any]) -> None:
        """TypeError naming the first of ``items`` (name -> object) that cannot
        be sent to the workers."""
        for name, obj in items.items():
            _pickle_check(name, obj, pickle.dumps, "worker processes")

    def close(self, cancel: bool) -> None:
        """Release what the adapter owns; ``cancel``: end work still running
        (the caller has cancelled its futures)."""


class ExecutorRunner(Runner):
    """Any concurrent.futures Executor the caller owns (never shut down here).
    Threads need no pickling."""

    def check_sendable(self, items: dict[str, Any]) -> None:
        if not isinstance(self.executor, ThreadPoolExecutor):
            super().check_sendable(items)


class LocalPool(Runner):
    """A process pool of our own: replaced by a fresh one when a worker dies,
    its workers terminated when the study is cancelled."""

    loss_types = (BrokenProcessPool,)

    def __init__(self, workers: int) -> None:
        super().__init__(self._new_pool(workers), workers)

    @staticmethod
    def _new_pool(workers: int) -> ProcessPoolExecutor:
        return ProcessPoolExecutor(max_workers=workers,
                                   mp_context=multiprocessing.get_context("spawn"),
                                   initializer=_worker_init)

    def worker_pids(self) -> list[int]:
        """PIDs of the pool's live worker processes."""
        # ProcessPoolExecutor has no public list of its processes (3.11)
        processes = getattr(self.executor, "_processes", None) or {}
        return [p.pid for p in list(processes.values()) if p.is_alive()]

    def _terminate(self) -> None:
        processes = getattr(self.executor, "_processes", None) or {}
        for process in list(processes.values()):
            if process.is_alive():
                process.terminate()

    def recover(self) -> None:
        old = self.executor
        self._terminate()
        old.shutdown(wait=False, cancel_futures=True)
        self.executor = self._new_pool(self.workers)
        super().recover()

    def close(self, cancel: bool) -> None:
        if cancel:
            self._terminate()
        self.executor.shutdown(wait=not cancel, cancel_futures=cancel)


class UserProcessPool(Runner):
    """The caller's ProcessPoolExecutor; after it breaks, the study goes on in a
    `LocalPool` of the same size (the caller's pool stays theirs)."""

    loss_types = (BrokenProcessPool,)

    def __init__(self, executor: ProcessPoolExecutor) -> None:
        super().__init__(executor, getattr(executor, "_max_workers", default_workers()))
        self._replacement: LocalPool | None = None

    def submit(self, fn: Callable[..., Any], *args: Any) -> Future:
        if self._replacement is not None:
            return self._replacement.submit(fn, *args)
        return super().submit(fn, *args)

    def recover(self) -> None:
        if self._replacement is None:
            self._replacement = LocalPool(self.workers)
        else:
            self._replacement.recover()
        super().recover()

    def close(self, cancel: bool) -> None:
        if self._replacement is not None:
            self._replacement.close(cancel)


class DaskRunner(Runner):
    """A Dask client's executor. Tasks are submitted impure (a retry is a new
    task, never the failed one's cached result); lost workers are Dask's
    KilledWorker and lost connections."""

    def __init__(self, executor: Executor, client: Any) -> None:
        super().__init__(executor, max(1, sum(client.nthreads().values())))

    def submit(self, fn: Callable[..., Any], *args: Any) -> Future:
        return self.executor.submit(fn, *args, pure=False)

    def is_worker_loss(self, exc: BaseException) -> bool:
        return type(exc).__name__ in DASK_WORKER_LOSS

    def check_sendable(self, items: dict[str, Any]) -> None:
        for name, obj in items.items():
            _pickle_check(name, obj, cloudpickle.dumps, "the Dask workers")


def _is_dask_client(executor: Any) -> bool:
    return type(executor).__module__.startswith("distributed") and hasattr(
        executor, "get_executor")


def _is_dask_executor(executor: Any) -> bool:
    return type(executor).__module__.startswith("distributed") and hasattr(executor, "_client")


#: (matches the executor, makes its adapter), tried in order.
RUNNERS: list[tuple[Callable[[Any], bool], Callable[[Any], Runner]]] = [
    (_is_dask_client, lambda c: DaskRunner(c.get_executor(), c)),
    (_is_dask_executor, lambda e: DaskRunner(e, e._client)),
    (lambda e: isinstance(e, ProcessPoolExecutor), UserProcessPool),
    (lambda e: isinstance(e, Executor), lambda e: ExecutorRunner(e, default_workers())),
]


def runner_for(executor: Any, workers: int | None) -> Runner:
    """The adapter of ``executor`` (None: a `LocalPool` of ``workers``
    processes, default one per core)."""
    if executor is None:
        n = default_workers() if workers is None else int(workers)
        if n < 1:
            raise ValueError(f"workers must be >= 1, got {workers}")
        return LocalPool(n)
    for matches, make in RUNNERS:
        if matches(executor):
            return make(executor)
    raise TypeError(f"executor must be None, a concurrent.futures.Executor or a Dask "
                    f"distributed.Client, got {type(executor).__name__}")
