"""The host whose plugin is running now (what the ``dWebots*`` functions talk to).

The host sets itself as current for the duration of every callback
(`running`); outside callbacks there is none and the ``dWebots*`` functions
raise `NoPluginRunning`. Callbacks run on one thread at a time (the step
lock), so one module-level slot is enough.
"""

from __future__ import annotations

from typing import Any

_current: Any = None


class NoPluginRunning(RuntimeError):
    """A ``dWebots*`` function was called while no physics plugin callback runs."""


def current(function: str) -> Any:
    """The running host, or `NoPluginRunning` naming ``function``."""
    if _current is None:
        raise NoPluginRunning(f"{function}() can only be called from a physics plugin callback "
                              "(no plugin is running)")
    return _current


class running:  # noqa: N801 (used like the function it replaced: ``with running(host):``)
    """Make ``host`` current inside the block (nesting restores the previous one).

    A class rather than a generator: the host enters it around every plugin
    callback, and ``contextlib.contextmanager`` costs several times more."""

    __slots__ = ("host", "previous")

    def __init__(self, host: Any) -> None:
        self.host = host
        self.previous: Any = None

    def __enter__(self) -> None:
        global _current
        self.previous = _current
        _current = self.host

    def __exit__(self, *_exc_info: object) -> None:
        global _current
        _current = self.previous
