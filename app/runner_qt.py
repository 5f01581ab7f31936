"""`RunnerBridge`: an `EngineRunner` seen from Qt (signals in the GUI thread).

The runner calls its listeners in the engine thread; the bridge's listeners
only append the event to a queue there (no Qt call: an emit from the engine
thread could wait for a Qt lock the GUI thread holds while it waits for the
GIL), and a 60 Hz timer in the GUI thread emits the queued events, in order,
as ``console_line(source, text)``, ``plugin_error(error)``,
``state_changed(state)`` and ``controller_status(robot, status)`` (the
controllers' late / ended / restarted reports,
`ControllerHost.status_listeners`). The same timer polls
``runner.latest_frame()`` and emits ``frame_ready(frame)`` when a new frame
was published (frames are compared by identity: one reference swap each),
and ``state_changed(state)`` when `EngineRunner.state` changes without the
engine saying so (its thread died, or a plugin callback overruns its budget:
no frame comes then, and the status must not keep saying "fast").

    bridge = RunnerBridge(runner)        # in the GUI thread
    bridge.frame_ready.connect(viewport.set_frame)
    bridge.start()                       # the 60 Hz timer
"""

from __future__ import annotations

import sys
from collections import deque

from PySide6.QtCore import QObject, Qt, QTimer, Signal

from app.runner import EngineRunner
from engine.sim.frame import Frame

#: Frame polling period [ms] (60 Hz).
FRAME_INTERVAL_MS = 16

#: The interpreter's thread switch interval while a bridge runs [s] (Python's default 5 ms).
#: The engine thread holds the GIL for most of a step; each time the GUI thread
#: comes back from Qt (a timer, a paint) it waits up to this long for it, a few
#: times a frame. With bench/bench_viewport.py, 100 bodies: 5 ms 18 fps, 1 ms 22,
#: 0.25 ms 19, 0.1 ms 20-27, 0.05 ms 28; 1000 bodies: 0.25 ms 8 fps, 0.1 ms 10-13
#: (docs/decisions/0009). Only threads that both want the GIL switch more often.
GUI_SWITCH_INTERVAL_S = 0.0001


class RunnerBridge(QObject):
    """Qt signals for an `EngineRunner` (see module docstring)."""

    frame_ready = Signal(object)  # an engine.sim.frame.Frame
    console_line = Signal(str, str)
    plugin_error = Signal(object)
    state_changed = Signal(str)
    controller_status = Signal(str, str)  # robot name, "late" / "ended" / "restarted"

    def __init__(self, runner: EngineRunner, parent: QObject | None = None,
                 interval_ms: int = FRAME_INTERVAL_MS) -> None:
        super().__init__(parent)
        self.runner = runner
        self._last_frame: Frame | None = None
        self._unusual_state: str | None = None
        #: events heard in the engine thread, emitted by `poll`: (signal name, arguments)
        self._from_engine: deque[tuple[str, tuple]] = deque()
        runner.add_console_listener(self._hear_console)
        runner.add_error_listener(self._hear_error)
        runner.add_state_listener(self._hear_state)
        runner.robots.status_listeners.append(self._hear_controller)
        self.timer = QTimer(self)
        self.timer.setTimerType(Qt.TimerType.PreciseTimer)
        self.timer.setInterval(interval_ms)
        self.timer.timeout.connect(self.poll)

    # engine thread: queue only (deque.append is atomic)
    def _hear_console(self, source: str, text: str) -> None:
        self._from_engine.append(("console_line", (source, text)))

    def _hear_error(self, error: object) -> None:
        self._from_engine.append(("plugin_error", (error,)))

    def _hear_state(self, state: str) -> None:
        self._from_engine.append(("state_changed", (state,)))

    def _hear_controller(self, robot: str, status: str) -> None:
        self._from_engine.append(("controller_status", (robot, status)))

    def close(self) -> None:
        """Stop the timer and stop listening to the runner."""
        self.timer.stop()
        for fn in (self._hear_console, self._hear_error, self._hear_state):
            self.runner.remove_listener(fn)
        listeners = self.runner.robots.status_listeners
        if self._hear_controller in listeners:
            listeners.remove(self._hear_controller)

    def start(self) -> None:
        """Start the 60 Hz frame timer (and shorten the GIL switch interval, see
        `GUI_SWITCH_INTERVAL_S`; never lengthened)."""
        if sys.getswitchinterval() > GUI_SWITCH_INTERVAL_S:
            sys.setswitchinterval(GUI_SWITCH_INTERVAL_S)
        self.timer.start()

    def stop_timer(self) -> None:
        """Stop the frame timer (the runner keeps running)."""
        self.timer.stop()

    def poll(self) -> bool:
        """Emit the events the engine reported since the last poll, in order;
        ``frame_ready`` if a newer frame was published (True then), and
        ``state_changed`` if the engine's state changed without its saying so."""
        queued = self._from_engine
        while queued:
            name, args = queued.popleft()
            getattr(self, name).emit(*args)
        state = self.runner.state()
        # only what the engine does not report itself (a dead thread, a busy plugin)
        # and the way back from it; mode changes come from the engine's listener
        unusual = state if state != self.runner.mode else None
        if unusual != self._unusual_state:
            self._unusual_state = unusual
            self.state_changed.emit(state)
        frame = self.runner.latest_frame()
        if frame is self._last_frame:
            return False
        self._last_frame = frame
        self.frame_ready.emit(frame)
        return True
