"""Time budgets of plugin callbacks, and stopping a callback that never returns.

The host brackets every plugin callback (module top level and init included)
with `Watchdog.enter` / `Watchdog.leave`. A daemon thread checks the callback
in progress every ``POLL_S`` seconds; when it has run longer than its budget
(`Budgets`) it reports the overrun once on the console, naming the plugin and
the callback (``plugin 'x': webots_physics_step() has run for 1.0 s``).

`Watchdog.interrupt` stops the callback in progress: it raises `PluginStopped`
(our own `BaseException` subclass, which no ``except Exception`` in a plugin
catches) asynchronously in the thread running it, with CPython's
``PyThreadState_SetAsyncExc``. The exception takes effect at that thread's
next bytecode boundary, so a pure-Python endless loop stops at once; code
stuck inside C (``time.sleep(1e9)``, a compiled kernel) only stops when it
returns to Python (decision 0013). At most one stop is sent per callback, and
a stop still pending when the callback returns is withdrawn, so it never
lands in the host's own code.
"""

from __future__ import annotations

import ctypes
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import NamedTuple

from engine.numba_cache import compile_seconds

#: Watchdog thread period [s].
POLL_S = 0.05


class PluginStopped(BaseException):  # noqa: N818 (an interruption, not an error)
    """Raised in a plugin callback stopped by the user (`Watchdog.interrupt`)."""


@dataclass(frozen=True)
class Budgets:
    """Wall-time budgets [s] after which a callback is reported as overrunning:
    ``load`` for the module top level and ``webots_physics_init`` (they may
    build a lot), ``callback`` for every other callback (step, collide per
    pair, step_end, draw, cleanup)."""

    load: float = 5.0
    callback: float = 1.0

    def of(self, callback: str) -> float:
        """The budget of ``callback`` (``"import"`` or a ``webots_physics_*`` name)."""
        return self.load if callback in ("import", "webots_physics_init") else self.callback


class Running(NamedTuple):
    """The callback in progress: plugin and callback names, the thread running
    it, when it started (``time.monotonic()`` seconds) and the process's
    compile clock then (`engine.numba_cache.compile_seconds`). A named tuple:
    one is made for every plugin callback, and a tuple is the cheapest record."""

    plugin: str
    callback: str
    thread_id: int
    started: float
    compiling_before: float = 0.0

    def elapsed(self) -> float:
        """Seconds since the callback started, without the time numba spent
        compiling kernels meanwhile (a first call that compiles is not slow)."""
        compiling = compile_seconds() - self.compiling_before
        return time.monotonic() - self.started - compiling


class Watchdog:
    """Watches the callbacks of one host. ``report(text)`` prints an overrun
    (called from the watchdog thread)."""

    def __init__(self, report: Callable[[str], None], budgets: Budgets | None = None) -> None:
        self.report = report
        self.budgets = budgets or Budgets()
        self._lock = threading.Lock()
        self._running: Running | None = None
        self._reported = False
        self._stop_sent = False
        self._wake = threading.Event()
        self._closed = False
        self._thread: threading.Thread | None = None

    # ------------------------------------------------------------ callbacks
    def enter(self, plugin: str, callback: str) -> Running | None:
        """A callback starts in this thread; returns the previous one (nested
        calls: draw inside nothing, or init inside a reload) for `leave`."""
        now = Running(plugin, callback, threading.get_ident(), time.monotonic(),
                      compile_seconds())
        with self._lock:
            previous = self._running
            self._running = now
            if previous is None:
                self._reported = False
                self._stop_sent = False
        self._ensure_thread()
        return previous

    def leave(self, previous: Running | None = None) -> None:
        """The callback returned (or raised); withdraws a stop not yet delivered.
        Idempotent."""
        with self._lock:
            current = self._running
            if current is None or current.thread_id != threading.get_ident():
                return
            if self._stop_sent:
                _set_async_exc(current.thread_id, None)  # withdraw if still pending
            self._running = previous
            if previous is None:
                self._stop_sent = False

    @property
    def running(self) -> Running | None:
        """The callback in progress (None between callbacks)."""
        return self._running

    def overrunning(self) -> Running | None:
        """The callback in progress if it has overrun its budget, else None."""
        current = self._running
        if current is not None and current.elapsed() > self.budgets.of(current.callback):
            return current
        return None

    def interrupt(self, thread_id: int | None = None) -> bool:
        """Raise `PluginStopped` in the callback in progress (in ``thread_id``
        only, when given). True when a stop was sent (or already was)."""
        with self._lock:
            current = self._running
            if current is None or (thread_id is not None and current.thread_id != thread_id):
                return False
            if not self._stop_sent:
                if current.thread_id == threading.get_ident():
                    return False  # never from inside the callback itself
                self._stop_sent = _set_async_exc(current.thread_id, PluginStopped)
            return self._stop_sent

    def close(self) -> None:
        """End the watchdog thread (waits for it, at most one period)."""
        self._closed = True
        self._wake.set()
        thread = self._thread
        if thread is not None and thread is not threading.current_thread():
            thread.join(2 * POLL_S + 1.0)

    # ---------------------------------------------------------- the thread
    def _ensure_thread(self) -> None:
        if self._thread is None and not self._closed:
            self._thread = threading.Thread(target=self._watch, name="odeon-plugin-watchdog",
                                            daemon=True)
            self._thread.start()

    def _watch(self) -> None:
        while not self._closed:
            self._wake.wait(POLL_S)
            if self._closed:
                return
            with self._lock:
                late = None if self._reported else self.overrunning()
                if late is not None:
                    self._reported = True
            if late is not None:
                self.report(overrun_text(late, self.budgets.of(late.callback)))


def overrun_text(running: Running, budget: float) -> str:
    """The console line reporting an overrunning callback."""
    name = "the module's top level" if running.callback == "import" else f"{running.callback}()"
    return (f"plugin '{running.plugin}': {name} has run for {running.elapsed():.1f} s (budget "
            f"{budget:g} s). Tools > Stop Physics Plugin (or Reload Physics Plugin) stops it.")


def _set_async_exc(thread_id: int, exc_type: type[BaseException] | None) -> bool:
    """``PyThreadState_SetAsyncExc``: schedule ``exc_type`` in thread ``thread_id``
    (None withdraws a pending one); True when a thread was found."""
    target = ctypes.py_object(exc_type) if exc_type is not None else None
    found = ctypes.pythonapi.PyThreadState_SetAsyncExc(ctypes.c_ulong(thread_id), target)
    return found == 1
