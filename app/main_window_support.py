"""Helpers of the main window: time format, the engine edit sink, recent files.

* `format_time` gives the status bar's simulated time (``H:MM:SS:mmm``, Webots).
* `EngineSink` is the scene tree's `EditSink`: it runs every edit in the engine
  thread (`EngineRunner.call`) and waits for it (at most one engine step when
  running), so the tree sees the result and errors reach the undo command
  (which reports them in the dock). An edit the engine thread has not started
  within ``EDIT_TIMEOUT`` (a plugin stuck in a loop) is withdrawn and reported
  as refused, so the world never changes behind the tree's back. A failure
  of the views' refresh after a successful edit is logged, never reported as
  a failed edit.
* `RecentFiles` keeps the File > Open Recent list in a `QSettings`.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QSettings

from app.runner import EngineRunner
from app.scene_tree.edits import Edit, SetField
from app.scene_tree.edits import apply_edit as apply_tree_edit
from engine.sim.edits import apply_edit as apply_sim_edit
from engine.world import DEF_FIELD

log = logging.getLogger(__name__)

#: Longest wait [s] for the engine thread to apply an edit.
EDIT_TIMEOUT = 10.0
#: Entries kept in File > Open Recent.
MAX_RECENT = 8


def format_time(time_ms: float) -> str:
    """Simulated time as ``H:MM:SS:mmm`` (e.g. ``0:00:01:024``)."""
    total = int(round(time_ms))
    ms = total % 1000
    seconds = total // 1000
    return f"{seconds // 3600}:{seconds // 60 % 60:02d}:{seconds % 60:02d}:{ms:03d}"


def format_speed(speed: float, running: bool) -> str:
    """The speedometer text (``1.00x``; ``-`` when not running)."""
    return f"{speed:.2f}x" if running else "-"


class EngineBusyError(ValueError):
    """The engine thread did not start an edit in time; the edit was withdrawn."""


class EngineSink:
    """Scene tree edits applied in the engine thread (see module docstring).

    ``on_applied(edit, visual)`` runs in the GUI thread after each edit;
    ``visual`` is True when the 3D scene must be rebuilt (structural edits,
    looks, edits that needed a simulation rebuild).
    """

    def __init__(self, runner: EngineRunner,
                 on_applied: Callable[[Edit, bool], None] | None = None,
                 timeout: float = EDIT_TIMEOUT) -> None:
        self.runner = runner
        self.on_applied = on_applied
        self.timeout = timeout

    def apply(self, edit: Edit) -> None:
        """Apply ``edit`` in the engine thread; raises the edit's error."""
        host = self.runner.host

        def run(sim) -> bool:
            if isinstance(edit, SetField) and edit.field != DEF_FIELD:
                if edit.engine_effect is not None:  # first: if it refuses, nothing changed
                    edit.engine_effect(sim)
                result = apply_sim_edit(sim, edit.node, edit.field, edit.value,
                                        edit.baseline)
                if result.needs_rebuild:
                    sim.rebuild()
                elif result.kind == "plugin":
                    host.load_world_plugin()
                return result.kind in ("none", "rebuild")
            apply_tree_edit(sim.world, edit)
            if not isinstance(edit, SetField):
                sim.rebuild()
            return True

        state = self.runner.state()
        if state not in ("paused", "realtime", "fast"):  # stuck or dead: refuse at once
            raise EngineBusyError(f"the engine cannot take the edit ({state}; Tools > Stop "
                                  "Physics Plugin stops a plugin): edit not applied")
        future = self.runner.call(run)
        try:
            visual = future.result(self.timeout)
        except TimeoutError:
            if future.cancel():  # never started: the world is untouched
                raise EngineBusyError(
                    f"the engine thread did not take the edit within {self.timeout:g} s "
                    "(is a physics plugin stuck in a loop?): edit not applied") from None
            visual = future.result()  # started meanwhile: it finishes
        if self.on_applied is None:
            return
        try:
            self.on_applied(edit, bool(visual))
        except Exception:  # the edit is done: a failing view refresh must not undo it
            log.exception("refreshing the views after %r failed", edit)

    def baseline_value(self, node, field: str) -> Any:
        """The value Reset gives ``node.field`` back (the simulation's baseline,
        decision 0016); read in the GUI thread: only edits change it, and the
        GUI waits for each edit."""
        if field == DEF_FIELD:
            return node.def_name
        return self.runner.sim.baseline.value(node, field)

    def solid_contact(self, node) -> Any:
        """``node``'s effective robust-contact values (`Simulation.solid_contact`:
        ``padding`` [m] and ``surface``, defaults included); read in the GUI thread
        like `baseline_value` (only edits change them)."""
        return self.runner.sim.solid_contact(node)


class RecentFiles:
    """The File > Open Recent list stored under ``recentFiles`` in ``settings``."""

    KEY = "recentFiles"

    def __init__(self, settings: QSettings) -> None:
        self.settings = settings

    def paths(self) -> list[str]:
        """Newest first."""
        value = self.settings.value(self.KEY, [])
        if isinstance(value, str):
            value = [value]
        return [str(p) for p in (value or [])]

    def add(self, path: str) -> None:
        """Put ``path`` first (once)."""
        path = os.path.abspath(path)
        paths = [path] + [p for p in self.paths() if p != path]
        self.settings.setValue(self.KEY, paths[:MAX_RECENT])
