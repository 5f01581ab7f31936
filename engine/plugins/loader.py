"""Importing a plugin's source file as a fresh module and resolving its callbacks.

Each load compiles the file's current text (no ``.pyc``: an edit made within
the same second is never missed) into a new module registered in
``sys.modules`` under a unique name (``odeon_plugin_<name>_<n>``), so a reload
is a fresh import with fresh globals.

Mandatory callbacks follow the Webots documentation: ``webots_physics_step``
and ``webots_physics_cleanup``. (Webots' code also requires
``webots_physics_init``; we follow the documentation and make init optional:
docs/webots-behaviour.md, "Loading a plugin".) ``webots_physics_collide`` missing means "return 0".
"""

from __future__ import annotations

import itertools
import sys
import types
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

MANDATORY = ("webots_physics_step", "webots_physics_cleanup")
CALLBACKS = ("webots_physics_init", "webots_physics_step", "webots_physics_step_end",
             "webots_physics_collide", "webots_physics_draw", "webots_physics_cleanup")

_serial = itertools.count(1)


class MissingCallbacks(Exception):
    """The module lacks mandatory callbacks (``missing`` names them)."""

    def __init__(self, missing: list[str]) -> None:
        super().__init__(", ".join(missing))
        self.missing = missing


@dataclass
class LoadedPlugin:
    """A plugin module and its callbacks (name -> function; absent ones missing)."""

    name: str
    source: Path
    module: types.ModuleType
    callbacks: dict[str, Callable] = field(default_factory=dict)

    @property
    def folder(self) -> Path:
        """The plugin's folder (the working directory during init)."""
        return self.source.parent

    def has(self, callback: str) -> bool:
        """True when the plugin defines ``callback``."""
        return callback in self.callbacks

    def forget(self) -> None:
        """Drop the module from ``sys.modules``."""
        if sys.modules.get(self.module.__name__) is self.module:
            del sys.modules[self.module.__name__]


def import_plugin(name: str, source: Path) -> LoadedPlugin:
    """Compile and run ``source`` as a new module; raise `SyntaxError`, any
    exception of the module's top-level code, or `MissingCallbacks`."""
    text = source.read_text(encoding="utf-8")
    code = compile(text, str(source), "exec", dont_inherit=True)
    mod_name = f"odeon_plugin_{_identifier(name)}_{next(_serial)}"
    module = types.ModuleType(mod_name)
    module.__file__ = str(source)
    sys.modules[mod_name] = module
    try:
        exec(code, module.__dict__)
    except BaseException:
        del sys.modules[mod_name]
        raise
    callbacks = {cb: getattr(module, cb) for cb in CALLBACKS
                 if callable(getattr(module, cb, None))}
    missing = [cb for cb in MANDATORY if cb not in callbacks]
    if missing:
        del sys.modules[mod_name]
        raise MissingCallbacks(missing)
    return LoadedPlugin(name, source, module, callbacks)


def _identifier(name: str) -> str:
    return "".join(c if c.isalnum() or c == "_" else "_" for c in name)
