"""`PluginHost`: runs a Python physics plugin around a `Simulation`'s steps.

The host installs itself in the Simulation's hooks (DESIGN.md section 4):

=================  =============================================================
``before_step``    the Receive buffer is cleared if it was read; console window
``collide_hook``   ``webots_physics_collide(g1, g2)`` for every candidate pair
``after_collide``  ``webots_physics_step()``
``after_step``     ``webots_physics_step_end()``
``before_reset``   ``webots_physics_cleanup()``
``after_reset``    ``webots_physics_init()`` (same module, globals kept)
=================  =============================================================

Threading: `lock` (a re-entrant lock) is held for a whole step by `step()`
and by `draw()`, `reset()`, `reload_plugin()`, `reload_world()`, `load*()`;
an engine thread calls ``host.step()`` (not ``simulation.step()``) and the GUI
calls ``host.draw(pass_, view)`` from its paint code, so a draw never sees a
half-finished step. A plugin callback that never returns cannot be stopped
(Python threads cannot be killed): the step, and then every draw, stays
blocked; `draw` gives up after ``timeout`` seconds instead of freezing the GUI.
A draw that is waiting for the lock goes first: `step()` lets it in before
taking the lock for the next step (a lock alone is not fair, and a thread that
steps flat out would often take it back before the waiting GUI wakes up).

Faults: an exception in any callback is caught, its traceback (plugin frames,
file:line) goes to the console under ``"plugin-error"`` and to `errors`, the
plugin is disabled, the simulation pauses (``paused``, ``pause_message``).
Setting ``simulation.paused = False`` carries on without the plugin.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable
from pathlib import Path

from engine.plugins import discovery
from engine.plugins.context import running
from engine.plugins.faults import (
    SOURCE_ERROR,
    SOURCE_OUTPUT,
    PluginError,
    RateLimiter,
    error_from_exception,
)
from engine.plugins.loader import LoadedPlugin, MissingCallbacks, import_plugin
from engine.plugins.messages import Inbox, Outbox

#: Longest time [s] a step waits for a pending draw to take the lock first.
DRAW_FIRST_WAIT = 0.1


class PluginHost:
    """The physics-plugin host of one `Simulation` (see module docstring)."""

    def __init__(self, simulation, console_limit: int = 200,
                 bundled_dir: Path | None = None, env: dict | None = None) -> None:
        self.sim = simulation
        self.lock = threading.RLock()
        # set while no draw is waiting for the lock (cleared by draw, waited on by step)
        self._no_draw_waiting = threading.Event()
        self._no_draw_waiting.set()
        self.plugin: LoadedPlugin | None = None
        self.enabled = False
        self.source: Path | None = None
        self.errors: list[PluginError] = []
        self.error_listeners: list[Callable[[PluginError], None]] = []
        self.inbox = Inbox()
        self.outbox = Outbox()
        self.output = RateLimiter(simulation.console, console_limit)
        self._bundled_dir = bundled_dir
        self._reset_fault: str | None = None
        self._env = env
        self.install()

    # ------------------------------------------------------------ hooks
    def install(self) -> None:
        """Set the Simulation's plugin hooks to this host."""
        s = self.sim
        s.before_step = self._before_step
        s.collide_hook = self.collide
        s.after_collide = self._physics_step
        s.after_step = self._physics_step_end
        s.before_reset = self._before_reset
        s.after_reset = self._after_reset

    def uninstall(self) -> None:
        """Remove this host's hooks from the Simulation."""
        s = self.sim
        s.before_step = s.collide_hook = s.after_collide = s.after_step = None
        s.before_reset = s.after_reset = None

    @property
    def name(self) -> str | None:
        """The loaded plugin's name (None without one)."""
        return self.plugin.name if self.plugin is not None else None

    @property
    def running(self) -> bool:
        """True when a plugin is loaded and not disabled."""
        return self.plugin is not None and self.enabled

    # ----------------------------------------------------------- loading
    def world_path(self) -> str | None:
        """The world file the Simulation was built from (None for in-memory worlds)."""
        return getattr(self.sim, "_path", None) or self.sim.world.filename

    def load_world_plugin(self) -> bool:
        """Load the plugin named by ``WorldInfo.physics`` (True when one runs)."""
        info = self.sim.world.world_info
        name = info.get("physics") if info is not None else discovery.NO_PLUGIN
        return self.load(name)

    def load(self, name: str) -> bool:
        """Find plugin ``name`` (DESIGN.md section 5 search order) and load it."""
        with self.lock:
            self.unload()
            self.source = None
            if discovery.is_no_plugin(name):
                return False
            where = discovery.find_plugin(name, self.world_path(), self._bundled_dir, self._env)
            if where is None:
                folders = discovery.candidate_folders(name.strip(), self.world_path(),
                                                      self._bundled_dir, self._env)
                self._report_load(f"Plugin '{name}' not found. Search in: "
                                  + ", ".join(str(f) for f in folders), None, None)
                return False
            if not where.exists:
                self.source = where.source  # reload_plugin() works once the file is written
                self._report_load(f"Error while loading plugin '{where.folder}': "
                                  f"{where.source.name} not found", str(where.source), None)
                return False
            return self.load_file(where.source, where.name)

    def load_file(self, source: str | os.PathLike, name: str | None = None) -> bool:
        """Import ``source`` (a fresh module) and run its init; True when it runs."""
        source = Path(source).resolve()
        name = name or source.stem
        with self.lock:
            self.unload()
            self.source = source
            try:
                plugin = import_plugin(name, source)
            except MissingCallbacks as exc:
                for fn in exc.missing:
                    self._report_load(f"Function {fn}() missing in '{source}'.", str(source), None)
                self._report_load(f"You need to implement this function to activate the "
                                  f"'{name}' plugin.", str(source), None)
                return False
            except (Exception, SystemExit) as exc:  # syntax error or failing top-level code
                err = error_from_exception(exc, "import", str(source))
                self._record(err)
                self.sim.console.print(SOURCE_ERROR, f"{err.location}: plugin '{name}' could "
                                       f"not be loaded: {err.message}")
                self._print_lines(err.text)
                self.sim.console.print(SOURCE_ERROR, "The simulation runs without the plugin.")
                return False
            self.plugin = plugin
            self.enabled = True
            self._init()
            return self.running

    def unload(self) -> None:
        """Run cleanup (if the plugin is enabled) and drop the plugin."""
        with self.lock:
            if self.plugin is None:
                return
            if self.enabled:
                self._call("webots_physics_cleanup")
            self.output.end_window()
            self.plugin.forget()
            self.plugin = None
            self.enabled = False
            self.inbox.clear()

    def reload_plugin(self) -> bool:
        """Cleanup, fresh import of the (edited) source, init; the simulation
        carries on from the same state. False (the simulation runs without a
        plugin) when the new source fails to load or to initialise."""
        with self.lock:
            if self.source is None:
                return False
            name = self.plugin.name if self.plugin is not None else self.source.stem
            return self.load_file(self.source, name)

    def reload_world(self) -> bool:
        """World reload: cleanup, `Simulation.reload` (fresh parse), then the
        world's plugin loaded again by a fresh import."""
        with self.lock:
            self.unload()
            self.sim.reload()
            self.install()
            return self.load_world_plugin()

    def close(self) -> None:
        """Cleanup the plugin and remove the hooks (world closed)."""
        with self.lock:
            self.unload()
            self.uninstall()

    # ---------------------------------------------------------- stepping
    def step(self) -> bool:
        """One `Simulation.step` with `lock` held (what the engine thread calls);
        a draw waiting for the lock runs first (at most `DRAW_FIRST_WAIT` s)."""
        self._no_draw_waiting.wait(DRAW_FIRST_WAIT)
        with self.lock:
            return self.sim.step()

    def reset(self) -> None:
        """`Simulation.reset` (cleanup, restore, init) with `lock` held."""
        with self.lock:
            self.sim.reset()

    def collide(self, g1, g2) -> int:
        """The plugin's verdict on a candidate pair: 0 default handling, 1 handled,
        2 handled and colliding (0 without a running collide callback)."""
        if not self.running or not self.plugin.has("webots_physics_collide"):
            return 0
        result = self._call("webots_physics_collide", g1, g2)
        if result is None or not self.running:
            return 0
        if isinstance(result, bool) or not isinstance(result, int):
            self._fault(TypeError(f"webots_physics_collide() must return 0, 1 or 2, not "
                                  f"{result!r}"), "webots_physics_collide")
            return 0
        return 2 if result == 2 else (1 if result else 0)

    def draw(self, pass_: int, view: str | None = None, timeout: float = 0.1) -> bool:
        """Run ``webots_physics_draw(pass_, view)`` while no step is in progress
        (GUI thread, GL context current). False when there is nothing to draw or
        the step lock was not free within ``timeout`` seconds."""
        if not self.running or not self.plugin.has("webots_physics_draw"):
            return False
        self._no_draw_waiting.clear()
        try:
            acquired = self.lock.acquire(timeout=timeout)
        finally:
            self._no_draw_waiting.set()
        if not acquired:
            return False
        try:
            if not self.running:
                return False
            self._call("webots_physics_draw", int(pass_), view)
            return self.running
        finally:
            self.lock.release()

    def _before_step(self) -> None:
        self.inbox.start_step()
        self.output.end_window()
        # the pair hook only while a running plugin judges pairs: without it the
        # simulation makes its default contacts in one batched pass
        judging = self.running and self.plugin.has("webots_physics_collide")
        self.sim.collide_hook = self.collide if judging else None

    def _physics_step(self) -> None:
        if self.running:
            self._call("webots_physics_step")

    def _physics_step_end(self) -> None:
        if self.running and self.plugin.has("webots_physics_step_end"):
            self._call("webots_physics_step_end")
        self.output.end_window()

    def _before_reset(self) -> None:
        self._reset_fault = None
        if self.running:
            self._call("webots_physics_cleanup")
            if not self.running:  # cleanup failed: keep the pause through the reset
                self._reset_fault = self.sim.pause_message
        self.output.end_window()
        self.inbox.clear()
        self.outbox.take()

    def _after_reset(self) -> None:
        if self._reset_fault is not None:
            self.sim.paused = True
            self.sim.pause_message = self._reset_fault
            return
        if self.plugin is not None:
            self.enabled = True  # a reset gives a plugin disabled by a fault another chance
            self._init()

    def _init(self) -> None:
        """``webots_physics_init()`` with the plugin's folder as working directory."""
        if not self.plugin.has("webots_physics_init"):
            return
        previous = os.getcwd()
        os.chdir(self.plugin.folder)
        try:
            self._call("webots_physics_init")
        finally:
            os.chdir(previous)
            self.output.end_window()

    # ---------------------------------------------------- plugin services
    def print_text(self, text: str) -> None:
        """dWebotsConsolePrintf output: one console line per line of ``text``
        (source ``"physics"``, prefixed by the plugin's name); ``"\\f"`` clears."""
        prefix = f"{self.name}: " if self.name else ""
        for i, part in enumerate(text.split("\f")):
            if i > 0:
                self.output.print(SOURCE_OUTPUT, "\f")
            if part == "" and "\f" in text:
                continue
            lines = part.split("\n")
            if len(lines) > 1 and lines[-1] == "":
                lines.pop()
            for line in lines:
                self.output.print(SOURCE_OUTPUT, prefix + line)

    def warn(self, text: str) -> None:
        """A warning about the plugin's use of the API (rate-limited)."""
        self.output.print(SOURCE_OUTPUT, f"WARNING: {text}")

    def deliver_from_robot(self, channel: int, data: bytes) -> bool:
        """A robot's Emitter sent ``data`` on ``channel``: the plugin keeps it when
        the channel is 0 (True). Controllers call this."""
        with self.lock:
            return self.inbox.deliver(channel, data)

    def take_for_robots(self) -> list[tuple[int, bytes]]:
        """What the plugin sent with dWebotsSend since the last call, as
        ``(channel, bytes)``, oldest first. Controllers call this and hand
        each packet to every enabled Receiver on exactly that channel."""
        with self.lock:
            return self.outbox.take()

    # ------------------------------------------------------------ faults
    def _call(self, callback: str, *args):
        """Run one callback with this host current; an exception becomes a fault."""
        fn = self.plugin.callbacks[callback]
        try:
            with running(self):
                return fn(*args)
        except (Exception, SystemExit) as exc:  # sys.exit() in a plugin must not end the app
            self._fault(exc, callback)
            return None

    def _fault(self, exc: BaseException, callback: str) -> None:
        """Report ``exc``, disable the plugin and pause the simulation."""
        err = error_from_exception(exc, callback, str(self.plugin.source))
        self._record(err)
        name = self.plugin.name
        where = f" at {err.location}" if err.location else ""
        self.sim.console.print(SOURCE_ERROR, f"{err.location}: physics plugin '{name}' "
                               f"failed in {callback}(): {err.message}")
        self._print_lines(err.text)
        self.sim.console.print(SOURCE_ERROR, f"The physics plugin '{name}' is disabled and "
                               "the simulation is paused.")
        self.enabled = False
        self.sim.paused = True
        self.sim.pause_message = (f"physics plugin '{name}' failed in {callback}(){where}: "
                                  f"{err.message}")

    def _record(self, err: PluginError) -> None:
        self.errors.append(err)
        for listener in list(self.error_listeners):
            listener(err)

    def _report_load(self, text: str, file: str | None, line: int | None) -> None:
        self._record(PluginError("load", file, line, text, text))
        self.sim.console.print(SOURCE_ERROR, text)

    def _print_lines(self, text: str) -> None:
        for line in text.splitlines():
            self.sim.console.print(SOURCE_ERROR, line)
