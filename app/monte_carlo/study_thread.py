"""A Monte Carlo study running in a Python thread, reporting through Qt signals.

`StudyThread.start(request)` draws the samples (`engine.klampt.study`), then
runs them with `engine.klampt.batch.run_samples` in a daemon thread: each
finished sample arrives as ``sample_done(index, result)`` in the GUI thread
(queued signal), the end as ``finished(StudyOutcome)``, a failure before the
runs start (bad world, bad path, no scheduler) as ``failed(message)``.
`stop()` stops the study; the samples already finished are kept.
"""

from __future__ import annotations

import threading
import traceback
from dataclasses import dataclass, field
from typing import Any

from PySide6.QtCore import QObject, Signal

from engine.klampt import study
from engine.klampt.batch import run_samples, sample_conditions
from engine.world import World, parse_world


@dataclass(frozen=True)
class StudyRequest:
    """What to run: the world's text and file name, ``samples`` N, ``duration``
    [s] each, sampler specs (``PATH=uniform(a,b)``), return paths, the seed,
    local ``workers`` or a Dask ``scheduler`` address ('' for none)."""

    world_text: str
    filename: str | None
    samples: int
    duration: float
    samplers: tuple[str, ...]
    returns: tuple[str, ...]
    seed: int
    workers: int
    scheduler: str = ""

    def world(self) -> World:
        """A fresh World of the text."""
        world = parse_world(self.world_text, self.filename or "<unsaved world>")
        world.filename = self.filename
        return world


@dataclass
class StudyOutcome:
    """The drawn ``conditions`` (N), the ``results`` (None where not finished)
    and whether the study was ``stopped`` early."""

    conditions: list[dict[str, Any]]
    results: list[dict[str, Any] | None] = field(default_factory=list)
    stopped: bool = False

    @property
    def done(self) -> int:
        return sum(r is not None for r in self.results)

    def table(self) -> study.ResultsTable:
        """The finished samples as `engine.klampt.study`'s results table."""
        return study.results_table(self.conditions, self.results)


def draw_conditions(request: StudyRequest) -> list[dict[str, Any]]:
    """The N initial conditions of a request (ValueError for a bad spec)."""
    specs = [study.parse_sampler(text) for text in request.samplers]
    return sample_conditions(study.make_samplers(specs, request.seed), request.samples)


class StudyThread(QObject):
    """Runs one study at a time (module docstring)."""

    sample_done = Signal(int, object)
    finished = Signal(object)
    failed = Signal(str)

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    @property
    def running(self) -> bool:
        return self._thread is not None and self._thread.is_alive()

    def start(self, request: StudyRequest, conditions: list[dict[str, Any]]) -> None:
        """Run ``conditions`` of ``request`` in the background."""
        if self.running:
            raise RuntimeError("a study is already running")
        self._stop.clear()
        self._thread = threading.Thread(target=self._run, args=(request, conditions),
                                        name="odeon-monte-carlo", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        """Stop the study: runs still in flight are ended, the finished ones kept."""
        self._stop.set()

    def wait(self, timeout: float | None = None) -> bool:
        """Wait for the thread; True when it has ended."""
        if self._thread is not None:
            self._thread.join(timeout)
        return not self.running

    def _run(self, request: StudyRequest, conditions: list[dict[str, Any]]) -> None:
        client = None
        try:
            executor = None
            if request.scheduler:
                from distributed import Client  # Dask's client is slow to import: only here
                client = Client(request.scheduler, timeout="10s")
                executor = client
            outcome = run_samples(request.world(), request.duration, conditions,
                                  list(request.returns) or None, executor=executor,
                                  workers=None if executor is not None else request.workers,
                                  on_result=self.sample_done.emit, stop=self._stop)
        except Exception as exc:  # reported in the dialog, never raised into Qt
            self.failed.emit(f"{type(exc).__name__}: {exc}\n\n{traceback.format_exc(limit=3)}")
            return
        finally:
            if client is not None:
                client.close()
        self.finished.emit(StudyOutcome(conditions, list(outcome.results),
                                        bool(outcome.stopped or self._stop.is_set())))
