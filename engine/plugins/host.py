"""`PluginHost`: runs a Python physics plugin around a `Simulation`'s steps.

The host installs itself in the Simulation's hooks (docs/simulation.md, "Step order"):

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
half-finished step. `draw` gives up after ``timeout`` seconds instead of
freezing the GUI. A draw (or `locked`) waiting for the lock goes first:
`step()` lets it in before taking the lock for the next step (a lock alone is
not fair, and a thread that steps flat out would often take it back before
the waiting GUI wakes up).

Time budgets: every callback, the module's top level included, runs under a
`Watchdog`; one that overruns its budget is reported once on the console, and
`stop_callback()` (any thread) raises `PluginStopped` in it, which is then a
fault like any other (decision 0013).

Faults: any exception a callback raises (every `BaseException`: SystemExit,
KeyboardInterrupt, GeneratorExit, `PluginStopped`...) is caught, its
traceback (plugin frames, file:line) goes to the console under
``"plugin-error"`` and to `errors`, the plugin is disabled, the simulation
pauses (``paused``, ``pause_message``). A callback that destroys the
simulation's own world, space or contact group is a fault too: the step is
abandoned and the ODE objects are rebuilt from the current fields
(`engine.plugins.guard`). ``simulation.resume()`` carries on without the
plugin.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager, nullcontext
from pathlib import Path

from engine.ode.lifetime import DESTROYED
from engine.plugins import discovery
from engine.plugins.collide_pass import COLLIDE, CollidePass
from engine.plugins.context import running
from engine.plugins.faults import (
    SOURCE_ERROR,
    SOURCE_OUTPUT,
    PluginError,
    RateLimiter,
    error_from_exception,
)
from engine.plugins.guard import (
    StepAborted,
    destroyed_objects,
    rebuild_objects,
)
from engine.plugins.loader import LoadedPlugin, MissingCallbacks, import_plugin
from engine.plugins.messages import Inbox, Outbox
from engine.plugins.watchdog import Budgets, PluginStopped, Watchdog
from engine.sim.judged_pass import PairJudge, judge_each
from engine.sim.verdicts import INVALID, verdict_of

#: Longest time [s] a step waits for a pending draw to take the lock first.
DRAW_FIRST_WAIT = 0.1
#: Callbacks run inside a step (destroying the world there abandons the step).
_STEP_CALLBACKS = (COLLIDE, "webots_physics_step", "webots_physics_step_end")


class PluginHost:
    """The physics-plugin host of one `Simulation` (see module docstring)."""

    def __init__(self, simulation, console_limit: int = 200,
                 bundled_dir: Path | None = None, env: dict | None = None,
                 budgets: Budgets | None = None) -> None:
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
        self._damage: str | None = None  # set when a callback destroyed the world
        #: `DESTROYED.value` when the simulation's objects were last found alive
        self._destroyed_seen = -1
        self._collide_pass: CollidePass | None = None  # of the loaded collide callback
        self.watchdog = Watchdog(lambda text: simulation.console.print(SOURCE_ERROR, text),
                                 budgets)
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
        s.collide_session = None
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
        """Find plugin ``name`` (search order of docs/plugin-guide.md) and load it."""
        with self.lock:
            self.unload()
            self.source = None
            if discovery.is_no_plugin(name):
                return False
            try:
                name = discovery.check_name(name, self.world_path())
            except discovery.BadPluginName as exc:
                self._report_load(str(exc), self.world_path(), None)
                return False
            where = discovery.find_plugin(name, self.world_path(), self._bundled_dir, self._env)
            if where is None:
                folders = discovery.candidate_folders(name, self.world_path(),
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
                plugin = self._import(name, source)
            except MissingCallbacks as exc:
                for fn in exc.missing:
                    self._report_load(f"Function {fn}() missing in '{source}'.", str(source), None)
                self._report_load(f"You need to implement this function to activate the "
                                  f"'{name}' plugin.", str(source), None)
                return False
            except BaseException as exc:  # syntax error, failing or stopped top-level code
                err = error_from_exception(exc, "import", str(source))
                self._record(err)
                self.sim.console.print(SOURCE_ERROR, f"{err.location}: plugin '{name}' could "
                                       f"not be loaded: {_reason(err)}")
                self._print_lines(err.text)
                self.sim.console.print(SOURCE_ERROR, "The simulation runs without the plugin.")
                return False
            self.plugin = plugin
            self.enabled = True
            self._init()
            return self.running

    def _import(self, name: str, source: Path) -> LoadedPlugin:
        """`import_plugin` under the watchdog (the top level may never return)."""
        previous = self.watchdog.enter(name, "import")
        try:
            try:
                return import_plugin(name, source)
            finally:
                self.watchdog.leave(previous)
        except BaseException:
            self.watchdog.leave(previous)  # a stop delivered inside the first leave
            raise

    def disable(self) -> None:
        """Stop using the plugin between steps (the user's Stop while no callback
        runs): disabled without cleanup, the simulation paused, world kept."""
        with self.lock:
            if not self.running:
                return
            self.enabled = False
            self.sim.pause(f"physics plugin '{self.name}' stopped by the user")
            self.sim.console.print(SOURCE_ERROR, f"The physics plugin '{self.name}' is "
                                   "disabled (stopped by the user) and the simulation is paused.")

    def stop_callback(self) -> bool:
        """Stop the plugin code running now (any thread but its own): raise
        `PluginStopped` in it; the host then disables the plugin and pauses.
        False when no plugin code runs."""
        return self.watchdog.interrupt()

    @contextmanager
    def locked(self, timeout: float) -> Iterator[bool]:
        """Hold `lock` if it is free within ``timeout`` s (yields True), else
        yield False without it; a waiting caller goes before the next step."""
        self._no_draw_waiting.clear()
        try:
            acquired = self.lock.acquire(timeout=timeout)
        finally:
            self._no_draw_waiting.set()
        try:
            yield acquired
        finally:
            if acquired:
                self.lock.release()

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
        self.watchdog.close()

    # ---------------------------------------------------------- stepping
    def step(self) -> bool:
        """One `Simulation.step` with `lock` held (what the engine thread calls);
        a draw waiting for the lock runs first (at most `DRAW_FIRST_WAIT` s)."""
        if not self._no_draw_waiting.is_set():  # (is_set: no lock taken when none waits)
            self._no_draw_waiting.wait(DRAW_FIRST_WAIT)
        with self.lock:
            try:
                return self.sim.step()
            except StepAborted:
                self._repair()
                return False

    def reset(self) -> None:
        """`Simulation.reset` (cleanup, restore, init) with `lock` held."""
        with self.lock:
            self.sim.reset()

    def collide(self, g1, g2) -> int:
        """The plugin's verdict on a candidate pair: 0 default handling, 1 handled,
        2 handled and colliding (0 without a running collide callback)."""
        if not self.running or not self.plugin.has(COLLIDE):
            return 0
        return self._verdict(self._call(COLLIDE, g1, g2))

    def collide_session(self) -> AbstractContextManager[PairJudge]:
        """`collide` for one whole collision pass: a context manager giving a
        `PairJudge` whose ``ask(first, second, results)`` asks the plugin about
        the pairs ``(first[k], second[k])`` in order, appending each return
        value to ``results`` as it comes, and returns their verdicts, which its
        ``verdicts`` reads alike (`engine.sim.verdicts`). The watchdog times the
        pass (not each pair) and the plugin is made current once; faults as in
        `engine.plugins.collide_pass`."""
        if not self.running or not self.plugin.has(COLLIDE):
            return nullcontext(judge_each(self.collide))
        fn = self.plugin.callbacks[COLLIDE]
        if self._collide_pass is None or self._collide_pass.fn is not fn:
            self._collide_pass = CollidePass(
                fn, self.plugin.name, self, self.watchdog,
                fault=lambda exc: self._fault(exc, COLLIDE),
                check=lambda: self._check_objects(COLLIDE),
                destroyed=lambda: bool(destroyed_objects(self.sim)),
                invalid=self._verdict)
        return self._collide_pass

    def _verdict(self, result) -> int:
        """0, 1 or 2 from what webots_physics_collide returned (a fault if it is
        no verdict: `engine.sim.verdicts`)."""
        if not self.running:
            return 0
        verdict = verdict_of(result)
        if verdict == INVALID:
            self._fault(TypeError(f"webots_physics_collide() must return 0, 1 or 2, not "
                                  f"{result!r}"), COLLIDE)
            return 0
        return verdict

    @property
    def draws(self) -> bool:
        """Whether the running plugin has a ``webots_physics_draw`` (what `draw` calls)."""
        return self.running and self.plugin.has("webots_physics_draw")

    def draw(self, pass_: int, view: str | None = None, timeout: float = 0.1) -> bool:
        """Run ``webots_physics_draw(pass_, view)`` while no step is in progress
        (GUI thread, GL context current). False when there is nothing to draw or
        the step lock was not free within ``timeout`` seconds."""
        if not self.draws:
            return False
        with self.locked(timeout) as acquired:
            if not acquired or not self.running:
                return False
            self._call("webots_physics_draw", int(pass_), view)
            return self.running

    def _before_step(self) -> None:
        self.inbox.start_step()
        self.output.end_window()
        # the pair hook only while a running plugin judges pairs: without it the
        # simulation makes its default contacts in one batched pass
        judging = self.running and self.plugin.has(COLLIDE)
        self.sim.collide_hook = self.collide if judging else None
        self.sim.collide_session = self.collide_session if judging else None

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
            self.sim.pause(self._reset_fault)
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
        """Run one callback with this host current, under the watchdog; any
        exception (every BaseException: sys.exit() in a plugin must not end the
        app) becomes a fault, and so does destroying the simulation's objects."""
        fn = self.plugin.callbacks[callback]
        previous = self.watchdog.enter(self.plugin.name, callback)
        try:
            try:
                with running(self):
                    result = fn(*args)
            finally:
                self.watchdog.leave(previous)
        except BaseException as exc:
            self.watchdog.leave(previous)  # a stop delivered inside the first leave
            self._fault(exc, callback)
            result = None
        self._check_objects(callback)
        return result

    def _check_objects(self, callback: str) -> None:
        """Fault (and abandon the step) when ``callback`` destroyed one of the
        simulation's own ODE objects."""
        if self._damage is not None:
            return
        # nothing destroyed in the process since the last look: nothing to look for
        count = DESTROYED.value
        if count == self._destroyed_seen:
            return
        lost = destroyed_objects(self.sim)
        if not lost:
            self._destroyed_seen = count
            return
        self._damage = callback
        self._fault(RuntimeError(f"it destroyed {' and '.join(lost)} of the simulation "
                                 "(rebuilt from the current fields)"), callback)
        if callback in _STEP_CALLBACKS:
            raise StepAborted(callback)  # the step goes no further; step() repairs
        self._repair()  # between steps (init, cleanup, draw): at once

    def _repair(self) -> None:
        """Rebuild the ODE objects a callback destroyed; the pause stays."""
        self._damage = None
        message = self.sim.pause_message
        rebuild_objects(self.sim)
        self.sim.pause(message)

    def _fault(self, exc: BaseException, callback: str) -> None:
        """Report ``exc``, disable the plugin and pause the simulation."""
        err = error_from_exception(exc, callback, str(self.plugin.source))
        self._record(err)
        name = self.plugin.name
        where = f" at {err.location}" if err.location else ""
        reason = _reason(err)
        self.sim.console.print(SOURCE_ERROR, f"{err.location}: physics plugin '{name}' "
                               f"failed in {callback}(): {reason}")
        self._print_lines(err.text)
        self.sim.console.print(SOURCE_ERROR, f"The physics plugin '{name}' is disabled and "
                               "the simulation is paused.")
        self.enabled = False
        self.sim.pause(f"physics plugin '{name}' failed in {callback}(){where}: {reason}")

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


def _reason(err: PluginError) -> str:
    """What the user reads after "failed in x():" (a stop is not an error)."""
    if err.message.split(":")[0].endswith(PluginStopped.__name__):
        return "stopped by the user (it did not return)"
    return err.message
