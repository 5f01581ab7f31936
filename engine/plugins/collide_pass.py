"""`CollidePass`: a plugin's ``webots_physics_collide`` asked about one whole
collision pass (what `PluginHost.collide_session` gives the simulation).

One object per loaded callback, entered once a step: a step at 100 bodies
asks about some 200 pairs, and what surrounds those calls (the watchdog, the
current host, the checks) costs as much as the calls unless it is kept to a
few attribute reads. ``with pass_ as judge:`` times the pass under the
watchdog and makes the host current; ``judge.ask(first, second, results)``
calls the plugin on each pair in order (`engine.sim.judged_pass.PairJudge`).

Faults: an exception in a call, or a stop the watchdog delivers, ends the
pass and is reported through ``fault``; destroying one of the simulation's
own objects ends the pass after that call (``check`` then abandons the step
by raising `StepAborted`, which passes through); a return value that is no
verdict is reported once the pass is over (``invalid``), its pair counting as 0.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from engine.ode.lifetime import listening
from engine.plugins.context import running
from engine.plugins.guard import StepAborted
from engine.plugins.watchdog import Watchdog
from engine.sim.judged_pass import PairJudge
from engine.sim.verdicts import plugin_verdicts

#: The callback a pass asks.
COLLIDE = "webots_physics_collide"


def verdict_codes(results: list) -> np.ndarray:
    """(len(results),) uint8: the verdicts of webots_physics_collide return values."""
    return plugin_verdicts(results).codes


class CollidePass:
    """The collide callback ``fn`` of plugin ``plugin_name``, run for host
    ``host`` under ``watchdog``.

    ``fault(exc)`` reports an exception of the pass (and disables the plugin);
    ``check()`` looks for destroyed simulation objects after the calls (it may
    raise `StepAborted`); ``destroyed()`` tells, inside a destroy call, whether
    one of those objects is gone; ``invalid(value)`` reports a return value
    that is no verdict."""

    __slots__ = ("fn", "plugin_name", "watchdog", "fault", "check", "destroyed", "invalid",
                 "judge", "_current", "_previous", "_listening", "_pairs", "_pair_count")

    def __init__(self, fn: Callable, plugin_name: str, host: object, watchdog: Watchdog,
                 fault: Callable[[BaseException], None], check: Callable[[], None],
                 destroyed: Callable[[], bool], invalid: Callable[[object], object]) -> None:
        self.fn = fn
        self.plugin_name = plugin_name
        self.watchdog = watchdog
        self.fault = fault
        self.check = check
        self.destroyed = destroyed
        self.invalid = invalid
        self.judge = PairJudge(self.ask, verdict_codes)
        self._current = running(host)
        self._previous = None
        # one listener for every pass (made once: the pass runs every step)
        self._listening = listening(self._end_pass_if_destroyed)
        self._pairs = None  # the pass's pair iterator while it asks
        self._pair_count = 0

    def __enter__(self) -> PairJudge:
        self._previous = self.watchdog.enter(self.plugin_name, COLLIDE)
        self._current.__enter__()
        return self.judge

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 traceback: object) -> bool:
        self._current.__exit__(exc_type, exc, traceback)
        watchdog, previous = self.watchdog, self._previous
        if isinstance(exc, StepAborted):
            watchdog.leave(previous)
            return False
        try:
            watchdog.leave(previous)
        except BaseException as late:  # a stop delivered while leaving
            watchdog.leave(previous)
            exc = exc if exc is not None else late
        if exc is None:
            return False
        self.fault(exc)
        return True  # a fault of the plugin's, reported: the step goes on without it

    def ask(self, first: list, second: list, results: list) -> np.ndarray:
        """Ask about the pairs ``(first[k], second[k])`` in order, appending each
        return value to ``results`` as it comes; their verdicts (k,) uint8."""
        self._pairs = pairs = iter(first)
        self._pair_count = len(first)
        try:
            with self._listening:
                # one C loop over the pairs, each return value appended as soon
                # as the call returns (list.extend keeps those given before an
                # exception)
                results.extend(map(self.fn, pairs, second))
        except BaseException as exc:  # sys.exit() in a plugin must not end the app
            self.fault(exc)
        finally:
            self._pairs = None
        self.check()
        verdicts = plugin_verdicts(results)
        if verdicts.first_invalid >= 0:
            self.invalid(results[verdicts.first_invalid])
        return verdicts.codes

    def _end_pass_if_destroyed(self) -> None:
        """Runs after every destruction while the pass asks (inside the
        plugin's destroy call): when one of the simulation's objects is gone,
        running the pairs' iterator to its end ends the loop once the call
        returns."""
        pairs = self._pairs
        if pairs is not None and self.destroyed():
            pairs.__setstate__(self._pair_count)
