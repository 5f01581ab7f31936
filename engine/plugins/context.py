"""The host whose plugin is running now (what the ``dWebots*`` functions talk to).

The host sets itself as current for the duration of every callback
(`running`); outside callbacks there is none and the ``dWebots*`` functions
raise `NoPluginRunning`. Callbacks run on one thread at a time (the step
lock), so one module-level slot is enough.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
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


@contextmanager
def running(host: Any) -> Iterator[None]:
    """Make ``host`` current inside the block (nesting restores the previous one)."""
    global _current
    previous = _current
    _current = host
    try:
        yield
    finally:
        _current = previous
