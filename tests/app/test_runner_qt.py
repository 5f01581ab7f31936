"""RunnerBridge: the runner's events as Qt signals delivered in the GUI thread."""

from __future__ import annotations

import sys

import pytest
from PySide6.QtCore import QThread

from app.runner import EngineRunner
from app.runner_qt import GUI_SWITCH_INTERVAL_S, RunnerBridge
from tests.app.test_runner import TIMEOUT, make_project, sync

WAIT_MS = int(TIMEOUT * 1000)


@pytest.fixture
def bridge(qtbot, tmp_path):
    runner = EngineRunner(str(make_project(tmp_path, fail_at=80.0)))
    b = RunnerBridge(runner)
    yield b
    b.close()
    runner.stop()
    assert not runner.thread.is_alive()


def test_start_shortens_the_gil_switch_interval_and_never_lengthens_it(bridge) -> None:
    before = sys.getswitchinterval()
    try:
        sys.setswitchinterval(0.005)
        bridge.start()
        assert sys.getswitchinterval() == pytest.approx(GUI_SWITCH_INTERVAL_S)
        bridge.stop_timer()
        sys.setswitchinterval(GUI_SWITCH_INTERVAL_S / 2)
        bridge.start()
        assert sys.getswitchinterval() == pytest.approx(GUI_SWITCH_INTERVAL_S / 2)
    finally:
        sys.setswitchinterval(before)


def test_frames_arrive_in_the_gui_thread_on_the_timer(qtbot, bridge) -> None:
    gui = QThread.currentThread()
    seen = []
    bridge.frame_ready.connect(lambda f: seen.append((QThread.currentThread(), f)))
    bridge.start()
    bridge.runner.run_fast()
    with qtbot.waitSignal(bridge.frame_ready, timeout=WAIT_MS,
                          check_params_cb=lambda f: f.time_ms > 40):
        pass
    assert bridge.timer.isActive() and bridge.timer.interval() == 16
    assert all(thread is gui for thread, _ in seen)
    times = [f.time_ms for _, f in seen]
    assert times == sorted(times) and len(set(map(id, (f for _, f in seen)))) == len(seen)


def test_poll_emits_only_new_frames(qtbot, bridge) -> None:
    assert bridge.poll() is True        # the first frame
    assert bridge.poll() is False       # nothing new
    bridge.runner.step_once()
    sync(bridge.runner)
    with qtbot.waitSignal(bridge.frame_ready, timeout=WAIT_MS) as blocker:
        assert bridge.poll() is True
    assert blocker.args[0].steps == 1


def test_state_console_and_error_signals_arrive_in_the_gui_thread(qtbot, bridge) -> None:
    gui = QThread.currentThread()
    got: dict[str, list] = {"state": [], "console": [], "error": []}
    threads = []

    def recorder(kind: str):
        def slot(*args) -> None:
            threads.append(QThread.currentThread())
            got[kind].append(args)
        return slot

    bridge.state_changed.connect(recorder("state"))
    bridge.console_line.connect(recorder("console"))
    bridge.plugin_error.connect(recorder("error"))
    bridge.start()  # the timer delivers what the engine reported
    with qtbot.waitSignal(bridge.state_changed, timeout=WAIT_MS,
                          check_params_cb=lambda mode: mode == "fast"):
        bridge.runner.run_fast()
    # the probe plugin fails at 80 ms: a console traceback, an error, a pause
    qtbot.waitUntil(lambda: ("paused",) in got["state"] and bool(got["error"]),
                    timeout=WAIT_MS)
    assert got["state"] == [("fast",), ("paused",)]
    assert "probe failure" in got["error"][0][0].message
    assert any(source == "plugin-error" for source, _ in got["console"]), got["console"]
    assert threads and all(t is gui for t in threads)
    # the frame showing the pause is published right after the step that paused:
    # under load it may land a moment after the signals
    qtbot.waitUntil(lambda: "probe failure" in bridge.runner.latest_frame().pause_message,
                    timeout=WAIT_MS)


def test_poll_reports_an_engine_thread_that_is_gone(qtbot, bridge) -> None:
    got: list[str] = []
    bridge.state_changed.connect(got.append)
    bridge.poll()
    assert got == []  # a healthy engine reports its modes itself
    bridge.runner.stop()
    bridge.poll()
    bridge.poll()
    assert got == ["engine stopped"]  # once, not at every poll


def test_engine_events_wait_in_a_queue_until_the_gui_polls(qtbot, bridge) -> None:
    """The engine thread makes no Qt call: its events are emitted by `poll`, in order."""
    got: list[str] = []
    bridge.state_changed.connect(got.append)
    bridge.runner.run_fast()
    bridge.runner.pause()
    sync(bridge.runner)
    qtbot.wait(50)
    assert got == []  # heard in the engine thread, not emitted: the timer is off
    bridge.poll()
    assert got == ["fast", "paused"]
    bridge.close()
    bridge.runner.run_fast()
    bridge.runner.pause()
    sync(bridge.runner)
    assert not bridge._from_engine  # no longer listening
