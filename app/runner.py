"""`EngineRunner`: the simulation in a background thread (docs/app.md, "Threads").

The engine thread alone owns the `Simulation` (and its `World`) while it
runs. The GUI talks to it only through:

- commands (``run_realtime()``, ``run_fast()``, ``pause()``, ``step_once()``,
  ``reset()``, ``reload_world()``, ``reload_plugin()``, ``call(fn)``,
  ``edit_field(...)``, ``stop()``), queued and drained between steps;
- ``latest_frame()``: the newest immutable `Frame`, published by swapping one
  reference after each step (in fast mode only once the last one was read,
  and at most every ``FRAME_PERIOD`` s: a frame nobody reads is not built);
- ``draw(pass_, view)``: the plugin's draw callback under the step lock;
- listeners (console lines, plugin errors, mode changes), called in the
  engine thread (`app.runner_qt.RunnerBridge` marshals them to the GUI).

Real-time mode paces simulated time to the wall clock (re-anchoring when it
falls more than ``MAX_LAG`` s behind instead of racing to catch up); fast
mode steps flat out, without yielding between steps: the GUI thread gets
the GIL whenever a kernel releases it, many times a step (decision 0034;
Python's switch interval, 0.1 ms in the app, bounds the wait in a step that
runs only Python).
The engine thread runs at a low CPU priority (nice ``ENGINE_THREAD_NICE``):
flat out, it takes whatever CPU the GUI and the GL driver leave, instead of
slowing the frames down on a machine with few cores (decision 0011). Any
exception raised in the engine thread pauses the simulation with a message;
the thread survives.

Plugins (decision 0013): the world's plugin is imported and initialised in
the engine thread (never the GUI's), as the first command. A plugin callback
that overruns its budget is reported on the console; `stop_plugin()` stops it
(or disables an idle plugin), and ``reset()``, ``reload_plugin()`` and
``reload_world()`` stop an overrunning callback before they run. `state()`
tells the engine's real state (a dead thread or a callback that does not
return is not "fast"), and `save_world` writes the node tree without the
engine thread when that thread does not answer at once.

Before its first step in a run mode the engine waits, polling, while a
kernel warm-up runs in another process (`make run` on a fresh install
starts one in the background; `engine.warmup_marker`), rather than compile
the same kernels here too.

No Qt here: this module is usable (and tested) headless.
"""

from __future__ import annotations

import collections
import contextlib
import queue
import threading
import time
import traceback
from collections.abc import Callable, Iterator
from concurrent.futures import Future
from typing import Any

from app.thread_priority import lower_current_thread_priority
from engine.controllers import ControllerHost
from engine.plugins import PluginHost
from engine.sim import Simulation
from engine.sim.baseline import format_as_edited
from engine.sim.edits import EditResult, apply_edit
from engine.sim.frame import Frame
from engine.warmup_marker import warmup_running
from engine.world import Node, World, write_world

#: Minimum wall time [s] between two published frames in fast mode.
FRAME_PERIOD = 0.008
#: Real-time mode re-anchors its clock when it is this far behind [s].
MAX_LAG = 0.25
#: Wall-time window [s] of the speed estimate.
SPEED_WINDOW = 1.0
#: Longest wait [s] of the engine thread for a GUI frame (`EngineRunner.gui_first`).
GUI_FIRST_WAIT = 0.05
#: Nice value of the engine thread (Linux; 0 keeps the process's priority).
ENGINE_THREAD_NICE = 10
#: Longest wait [s] of `EngineRunner.save_world` for the engine to finish its step.
SAVE_LOCK_WAIT = 0.5
#: How often [s] the engine looks again whether a background kernel warm-up ended.
WARMUP_POLL = 0.25

ConsoleListener = Callable[[str, str], None]


class _Stop(Exception):
    """Raised inside the engine thread to leave the loop."""


class EngineRunner:
    """Owns a `Simulation` + `PluginHost` in a daemon thread (see module docstring).

    ``EngineRunner("resources/worlds/default.wbt")`` builds the world (in the
    calling thread), then starts the engine thread paused; its first command
    loads the world's plugin (unless ``load_plugin`` is False: the world then
    runs without it until ``host.load_world_plugin()`` is called through `call`).
    """

    def __init__(self, world_path: str, *, bundled_dir=None, env: dict | None = None,
                 start: bool = True, load_plugin: bool = True,
                 run_controllers: bool | None = None) -> None:
        self.world_path = str(world_path)
        self.sim = Simulation(self.world_path)
        self.sim.record_contact_feedback = True
        self.host = PluginHost(self.sim, bundled_dir=bundled_dir, env=env)
        #: the robots' controllers (started in the engine thread, after the plugin)
        self.robots = ControllerHost(self.sim, env=env, to_plugin=self.host.deliver_from_robot,
                                     from_plugin=self.host.take_for_robots)
        self.robots.interrupted = self._wanted_elsewhere
        self._console_listeners: list[ConsoleListener] = []
        self._error_listeners: list[Callable[[Any], None]] = []
        self._state_listeners: list[Callable[[str], None]] = []
        self.sim.console.add_listener(self._on_console)
        self.host.error_listeners.append(self._on_plugin_error)
        self._commands: queue.SimpleQueue = queue.SimpleQueue()
        #: Step commands queued and not yet run (they do not interrupt each other)
        self._queued_steps = 0
        self._steps_lock = threading.Lock()
        self._wake = threading.Event()
        self._gui_idle = threading.Event()  # cleared while the GUI paints a frame
        self._gui_idle.set()
        self._mode = "paused"
        self._stopping = False
        self._speed_samples: collections.deque = collections.deque()
        self._anchor = (time.perf_counter(), self.sim.time_ms)
        self._last_publish = 0.0
        self._frame_read = True  # the published frame was read: build the next one
        self._kernels_ready = False  # set once no background kernel warm-up runs
        self._said_waiting = False
        self._frame = self._make_frame()
        self._thread = threading.Thread(target=self._loop, name="odeon-engine", daemon=True)
        if load_plugin:  # False: the user did not trust the world's folder (app.trust)
            self._post(self._do(self.host.load_world_plugin))  # in the engine thread
        # controllers are code from the world's folder too: they run when the plugin may
        if load_plugin if run_controllers is None else run_controllers:
            self._post(self._do(self.robots.start))
        if start:
            self._thread.start()

    # ------------------------------------------------------------ public API
    @property
    def world(self) -> World:
        """The engine.world World (owned by the engine thread while running)."""
        return self.sim.world

    @property
    def mode(self) -> str:
        """"realtime", "fast" or "paused" (as last set by the engine thread)."""
        return self._mode

    @property
    def thread(self) -> threading.Thread:
        """The engine thread."""
        return self._thread

    def latest_frame(self) -> Frame:
        """The newest published `Frame` (one reference read; any thread). Reading
        it asks for the next one: in fast mode the engine builds a frame after a
        step only when the last was read (about 1.3 ms of the engine thread's
        time with 1000 bodies and 2500 contacts)."""
        self._frame_read = True
        return self._frame

    def run_realtime(self) -> None:
        """Run with simulated time paced to the wall clock."""
        self._post(lambda: self._set_mode("realtime"))

    def run_fast(self) -> None:
        """Run as fast as possible."""
        self._post(lambda: self._set_mode("fast"))

    def pause(self) -> None:
        """Stop stepping (the next frame has ``paused`` True)."""
        self._post(lambda: self._set_mode("paused"))

    def step_once(self) -> None:
        """Pause, then advance exactly one basicTimeStep."""
        with self._steps_lock:
            self._queued_steps += 1
        if not self._post(self._do_step_once):
            with self._steps_lock:
                self._queued_steps -= 1

    def reset(self) -> None:
        """Simulation reset (plugin cleanup, initial state, plugin init) with the
        controllers restarted (Webots' reset matrix); the mode is kept. An
        overrunning plugin callback is stopped first."""
        self._stop_overrun()
        self._post(self._do(self._reset_with_controllers))

    def reload_world(self) -> None:
        """Fresh parse of the world file, a fresh import of its plugin and new
        controller processes (an overrunning plugin callback is stopped first)."""
        self._stop_overrun()
        self._post(self._do(self._reload_with_controllers))

    def restart_controller(self, robot_name: str | None = None) -> None:
        """Stop and start again one robot's controller (every one: None): after
        an edit, or when it is late."""
        self._post(self._do(lambda: self.robots.restart(robot_name)))

    def set_keys(self, keys: list[int]) -> None:
        """The keys held in the 3D view now (codes as ``Keyboard.getKey`` gives them)."""
        self.robots.keys = list(keys)

    def _reset_with_controllers(self) -> None:
        had = bool(self.robots.sessions)
        self.robots.stop()
        self.host.reset()
        if had:
            self.robots.start()

    def _reload_with_controllers(self) -> None:
        had = bool(self.robots.sessions)
        self.robots.stop()
        self.host.reload_world()
        if had:
            self.robots.start()

    def _wanted_elsewhere(self) -> bool:
        """True while commands other than Step wait (pause, reset, restart...) or
        the runner stops: waiting for controllers gives way to them (queued
        Steps wait their turn: each one steps)."""
        with self._steps_lock:
            queued_steps = self._queued_steps
        return self._stopping or self._commands.qsize() > queued_steps

    def stop_plugin(self) -> bool:
        """Stop the plugin: the callback running now gets `PluginStopped` (a
        fault: plugin disabled, simulation paused, world kept); an idle plugin
        is disabled between steps. True when plugin code was interrupted."""
        if self.host.stop_callback():
            return True
        self._post(self._do(self.host.disable))
        return False

    def state(self) -> str:
        """The engine's real state for the status bar: the mode ("realtime",
        "fast", "paused"), or why it does not step: "engine stopped" (its
        thread ended) or "plugin 'x' busy in cb() for N s" (over its budget)."""
        if self._thread.ident is not None and not self._thread.is_alive():
            return "engine stopped"
        late = self.host.watchdog.overrunning()
        if late is not None:
            return f"plugin '{late.plugin}' busy in {late.callback}() for {late.elapsed():.0f} s"
        return self._mode

    def save_world(self, path: str, write: Callable[[Simulation, str], Any] | None = None,
                   wait: float = SAVE_LOCK_WAIT) -> bool:
        """Write the world's node tree to ``path`` with ``write(sim, path)``
        (default: `write_world` of ``sim.world``), from the calling thread, never
        through the engine thread: between two steps when the engine finishes
        its step within ``wait`` s, else as the tree is (the poses of the last
        finished step: the engine is inside plugin code, stuck, or dead). True
        when written between steps, False when the engine was busy; raises the
        write's error."""
        with self.host.locked(wait) as between_steps:
            if write is None:
                write_world(self.sim.world, path)
            else:
                write(self.sim, path)
        return between_steps

    def edited_world_text(self, wait: float = SAVE_LOCK_WAIT) -> str:
        """The world's text as the user edited it (what Save writes), read between
        two steps when the engine finishes its step within ``wait`` s."""
        with self.host.locked(wait):
            return format_as_edited(self.sim.world, self.sim.baseline)

    def reload_plugin(self) -> None:
        """Cleanup, fresh import of the plugin source, init; the state is kept
        (an overrunning plugin callback is stopped first)."""
        self._stop_overrun()

        def reload() -> None:
            was_fault = self.sim.paused and not self.host.running
            self.host.reload_plugin()
            if was_fault and self.host.running:
                self.sim.resume()  # the fixed plugin may carry on
        self._post(self._do(reload))

    def call(self, fn: Callable[[Simulation], Any]) -> Future:
        """Run ``fn(sim)`` in the engine thread between steps (at once when
        paused) with the step lock held; its result or exception in the Future,
        which resolves after a frame showing the call's effect is published."""
        fut: Future = Future()

        def run() -> None:
            if not fut.set_running_or_notify_cancel():
                return
            error: BaseException | None = None
            try:
                with self.host.lock:
                    result = fn(self.sim)
            except BaseException as exc:  # delivered to the caller, not a pause
                error = exc
            try:
                self._publish(force=True)
            finally:  # resolved even if the frame could not be made
                if error is not None:
                    fut.set_exception(error)
                else:
                    fut.set_result(result)
        if not self._post(run):
            fut.set_exception(RuntimeError("the engine runner is stopped"))
        return fut

    def edit_field(self, node: Node, field: str, value: Any) -> Future:
        """Set ``node.field = value`` in the engine thread and make it take effect
        (`engine.sim.edits`); the Future gives the `EditResult`. Edits that need
        a rebuild are applied by rebuilding the world in place, time kept."""
        def edit(sim: Simulation) -> EditResult:
            result = apply_edit(sim, node, field, value)
            if result.needs_rebuild:
                sim.rebuild()
            elif result.kind == "plugin":
                self.host.load_world_plugin()
            return result
        return self.call(edit)

    @contextlib.contextmanager
    def gui_first(self) -> Iterator[None]:
        """While the block runs (the GUI painting a frame), the engine thread starts
        no new step (it waits at most ``GUI_FIRST_WAIT`` s per step), so the
        paint's plugin passes find the step lock free (`draw`) and the GUI's
        Python does not share the GIL with the engine's. Only while the plugin
        has a draw callback: without one the paint needs nothing from the
        engine, and holding it back cost it a quarter of its steps with 100
        bodies (decision 0033)."""
        if not self.host.draws:
            yield
            return
        self._gui_idle.clear()
        try:
            yield
        finally:
            self._gui_idle.set()

    def draw(self, pass_: int, view: str | None = None) -> bool:
        """The plugin's ``webots_physics_draw(pass_, view)`` under the step lock
        (GUI thread, GL context current); False when nothing was drawn."""
        return self.host.draw(pass_, view)

    def add_console_listener(self, fn: ConsoleListener) -> None:
        """``fn(source, text)`` for every console line (engine thread)."""
        self._console_listeners.append(fn)

    def add_error_listener(self, fn: Callable[[Any], None]) -> None:
        """``fn(PluginError)`` for every plugin error (engine thread)."""
        self._error_listeners.append(fn)

    def add_state_listener(self, fn: Callable[[str], None]) -> None:
        """``fn(mode)`` whenever the mode changes (engine thread)."""
        self._state_listeners.append(fn)

    def remove_listener(self, fn: Callable) -> None:
        """Stop calling ``fn`` (from any of the listener lists)."""
        for listeners in (self._console_listeners, self._error_listeners,
                          self._state_listeners):
            for i in range(len(listeners) - 1, -1, -1):
                if listeners[i] == fn:
                    del listeners[i]

    def stop(self, timeout: float = 10.0) -> None:
        """End the engine thread (waits up to ``timeout`` s) and unload the plugin."""
        if self._thread.is_alive():
            self._stop_overrun()
            self._post(self._raise_stop)
            self._thread.join(timeout)
        self._stopping = True
        self.robots.stop()
        if not self._thread.is_alive():
            with self.host.lock:
                self.host.close()

    def __enter__(self) -> EngineRunner:
        return self

    def __exit__(self, *exc) -> None:
        self.stop()

    # -------------------------------------------------------- engine thread
    def _post(self, command: Callable[[], None]) -> bool:
        if self._stopping:
            return False
        self._commands.put(command)
        self._wake.set()
        return True

    @staticmethod
    def _raise_stop() -> None:
        raise _Stop

    def _stop_overrun(self) -> None:
        if self.host.watchdog.overrunning() is not None:
            self.host.stop_callback()

    def _do(self, action: Callable[[], Any]) -> Callable[[], None]:
        def run() -> None:
            action()
            self._reanchor()
            self._speed_samples.clear()
            self._after_change()
        return run

    def _set_mode(self, mode: str) -> None:
        if mode != "paused" and self.sim.paused:
            self.sim.resume()  # after a fault: carry on (plugin disabled)
        self._reanchor()
        self._speed_samples.clear()
        self._change_mode(mode)
        self._publish(force=True)

    def _change_mode(self, mode: str) -> None:
        if mode == self._mode:
            return
        self._mode = mode
        self.robots.mode = mode
        for fn in list(self._state_listeners):
            fn(mode)

    def _do_step_once(self) -> None:
        with self._steps_lock:
            self._queued_steps -= 1
        self._change_mode("paused")
        if self.sim.paused:
            self.sim.resume()
        if self._controllers_ready():
            self.host.step()
            self._supervisor_requests()
        self._after_change()

    def _after_change(self) -> None:
        if self.sim.paused:
            self._change_mode("paused")
        self._publish(force=True)

    def _reanchor(self) -> None:
        self._anchor = (time.perf_counter(), self.sim.time_ms)

    def _loop(self) -> None:
        if ENGINE_THREAD_NICE:
            lower_current_thread_priority(ENGINE_THREAD_NICE)
        while True:
            try:
                if not self._drain():
                    break
                if self._mode != "paused":
                    self._run_once()
            except _Stop:
                break
            except BaseException as exc:  # never die silently: pause with a message
                self._engine_error(exc)
        self._publish(force=True)

    def _drain(self) -> bool:
        """Run queued commands; when paused, wait for one. False to stop."""
        block = self._mode == "paused"
        while True:
            try:
                command = self._commands.get(block=block, timeout=0.2 if block else None)
            except queue.Empty:
                return True
            try:
                command()
            except _Stop:
                return False
            except BaseException as exc:  # never die silently: pause with a message
                self._engine_error(exc)
            block = False

    def _run_once(self) -> None:
        if not self._kernels_ready and not self._warmup_over():
            self._wake.wait(WARMUP_POLL)  # woken early by a command
            self._wake.clear()
            return
        if self._mode == "realtime":
            wall0, sim0 = self._anchor
            ahead = (self.sim.time_ms - sim0) / 1000.0 - (time.perf_counter() - wall0)
            if ahead > 0.0:
                # wait for the wall clock, woken early by a command
                self._wake.wait(min(ahead, 0.05))
                self._wake.clear()
                return
            if -ahead > MAX_LAG:
                self._reanchor()
        self._gui_idle.wait(GUI_FIRST_WAIT)
        if not self._controllers_ready():
            return
        self.host.step()
        self._supervisor_requests()
        if self.sim.paused:
            self._change_mode("paused")
            self._publish(force=True)
            return
        # no yield between fast steps: the kernels release the GIL many times a
        # step, and a sleep(0) here only made both threads wait (decision 0034)
        self._publish(force=self._mode == "realtime")

    def _warmup_over(self) -> bool:
        """False while a kernel warm-up runs in another process (`make run` on a
        fresh install starts one in the background, `engine.warmup_marker`):
        Run waits for it instead of compiling the same kernels in this process
        too. Looked at until it is first seen over; says so on the console."""
        if warmup_running():
            if not self._said_waiting:
                self._said_waiting = True
                self.sim.console.print("odeon", "Waiting for the physics engine: its kernels "
                                       "are being compiled in the background (make run "
                                       "started the warm-up); the simulation starts when "
                                       "they are ready.")
            return False
        self._kernels_ready = True
        if self._said_waiting:
            self.sim.console.print("odeon", "Physics engine ready.")
            self._reanchor()
        return True

    def _controllers_ready(self) -> bool:
        """Wait for the controllers' requests of the next step without holding
        the step lock (a late controller must not slow the plugin's draw in
        the GUI); False when a command (other than Step) wants the thread."""
        robots = self.robots
        while True:
            with self.host.lock:
                if robots.ready(wait=False):
                    return True
            if self._wanted_elsewhere():
                return False
            robots.wait_for_messages(0.05)

    def _supervisor_requests(self) -> None:
        """Carry out what a Supervisor asked for in the last step: a mode, a
        world reload, a quit (the app pauses and says so; it does not close)."""
        robots = self.robots
        if robots.requested_mode is not None:
            mode, robots.requested_mode = robots.requested_mode, None
            self._set_mode(mode)
        if robots.reload_later:
            robots.reload_later = False
            self._reload_with_controllers()
            self._after_change()
        if robots.quit_status is not None:
            status, robots.quit_status = robots.quit_status, None
            self.sim.console.print("odeon", f"a supervisor asked to quit (status {status}): "
                                            "the simulation is paused")
            self._set_mode("paused")

    def _engine_error(self, exc: BaseException) -> None:
        text = f"engine error: {type(exc).__name__}: {exc}"
        self.sim.pause(text)
        self.sim.console.print("odeon", text)
        for line in traceback.format_exception(exc):
            for part in line.rstrip("\n").splitlines():
                self.sim.console.print("odeon", part)
        self._change_mode("paused")
        self._publish(force=True)

    def _speed(self, now: float) -> float:
        samples = self._speed_samples
        samples.append((now, self.sim.time_ms))
        while len(samples) > 2 and now - samples[0][0] > SPEED_WINDOW:
            samples.popleft()
        (w0, s0), (w1, s1) = samples[0], samples[-1]
        return (s1 - s0) / 1000.0 / (w1 - w0) if w1 > w0 else 0.0

    def _make_frame(self) -> Frame:
        now = time.perf_counter()
        running = self._mode != "paused"
        speed = self._speed(now) if running else 0.0
        return self.sim.frame(mode=self._mode, running=running, speed=speed)

    def _publish(self, force: bool = False) -> None:
        now = time.perf_counter()
        if not force and (not self._frame_read or now - self._last_publish < FRAME_PERIOD):
            return
        self._last_publish = now
        self._frame_read = False
        self._frame = self._make_frame()  # the one-reference swap

    # ------------------------------------------------------------ listeners
    def _on_console(self, source: str, text: str) -> None:
        for fn in list(self._console_listeners):
            try:
                fn(source, text)
            except Exception:  # a broken listener must not stop the engine
                traceback.print_exc()

    def _on_plugin_error(self, err) -> None:
        for fn in list(self._error_listeners):
            try:
                fn(err)
            except Exception:
                traceback.print_exc()
