"""The watchdog: overrun reports, stopping a loop, no stop left pending."""

from __future__ import annotations

import threading
import time

from engine.numba_cache import CompileEvent, _CompileClock
from engine.plugins import watchdog as wd
from engine.plugins.watchdog import Budgets, PluginStopped, Watchdog


def _run_in_thread(watchdog: Watchdog, body) -> tuple[threading.Thread, list]:
    outcome: list = []

    def run() -> None:
        previous = watchdog.enter("p", "webots_physics_step")
        try:
            try:
                body()
            finally:
                watchdog.leave(previous)
        except PluginStopped:
            watchdog.leave(previous)
            outcome.append("stopped")
        else:
            outcome.append("returned")
        try:  # a withdrawn stop never lands after the callback
            for _ in range(200_000):
                pass
            outcome.append("after")
        except PluginStopped:
            outcome.append("stop leaked")

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    return thread, outcome


def _endless() -> None:
    while True:
        pass


def test_an_overrun_is_reported_once_and_a_loop_is_stopped() -> None:
    lines: list[str] = []
    watchdog = Watchdog(lines.append, Budgets(load=1.0, callback=0.1))
    thread, outcome = _run_in_thread(watchdog, _endless)
    deadline = time.monotonic() + 10
    while not lines and time.monotonic() < deadline:
        time.sleep(0.01)
    time.sleep(0.3)
    assert len(lines) == 1
    assert lines[0].startswith("plugin 'p': webots_physics_step() has run for")
    assert watchdog.overrunning() is not None
    assert watchdog.interrupt() is True
    thread.join(10)
    assert outcome == ["stopped", "after"]
    assert watchdog.running is None and watchdog.interrupt() is False
    watchdog.close()


def test_nothing_is_stopped_between_callbacks_or_from_the_callback_itself() -> None:
    watchdog = Watchdog(lambda _t: None)
    assert watchdog.interrupt() is False
    previous = watchdog.enter("p", "webots_physics_init")
    assert watchdog.interrupt() is False  # its own thread: never
    watchdog.leave(previous)
    assert watchdog.running is None
    watchdog.close()


def test_budgets_of_loading_and_callbacks() -> None:
    budgets = Budgets(load=5.0, callback=1.0)
    assert budgets.of("import") == budgets.of("webots_physics_init") == 5.0
    assert budgets.of("webots_physics_step") == budgets.of("webots_physics_draw") == 1.0


def test_time_spent_compiling_kernels_does_not_count_against_a_budget(monkeypatch) -> None:
    clock = {"compile": 10.0}
    monkeypatch.setattr(wd, "compile_seconds", lambda: clock["compile"])
    reports: list[str] = []
    dog = Watchdog(reports.append, Budgets(load=5.0, callback=0.2))
    try:
        dog.enter("p", "webots_physics_collide")
        time.sleep(0.3)
        clock["compile"] += 0.25  # 0.25 s of the 0.3 s went to numba compiling
        assert dog.running.elapsed() < 0.2
        assert dog.overrunning() is None
        clock["compile"] -= 0.25
        assert dog.overrunning() is not None  # without the compile time: late
        dog.leave()
    finally:
        dog.close()


def test_the_compile_clock_counts_nested_compilations_once() -> None:
    clock = _CompileClock()
    clock.event(CompileEvent("outer", 1, 0, True))
    clock.event(CompileEvent("inner", 2, 0, True))
    time.sleep(0.05)
    clock.event(CompileEvent("inner", 2, 1, True))
    assert clock.seconds() >= 0.05
    clock.event(CompileEvent("outer", 2, 2, False))
    done = clock.seconds()
    time.sleep(0.02)
    assert clock.seconds() == done and 0.05 <= done < 0.5
