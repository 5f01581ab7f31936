"""How many worlds, geoms (spaces included) and joint groups this process
has destroyed so far, and who wants to hear of each destruction.

Code that must notice its own objects being destroyed while foreign code
runs -- a physics plugin's collide callback, thousands of times a step --
compares one number before and after the foreign code instead of asking
every object whether it is still alive, or registers a listener (`listening`)
that hears each destruction as it happens.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager


class DestroyCount:
    """``value``: the destructions so far (it only grows); ``listeners``: the
    callables run (no argument) right after each one, in registration order."""

    __slots__ = ("value", "listeners")

    def __init__(self) -> None:
        self.value = 0
        self.listeners: list[Callable[[], None]] = []


#: The process's count, bumped by every dWorldDestroy, geom or space
#: destruction and dJointGroupDestroy.
DESTROYED = DestroyCount()


def note_destroyed() -> None:
    """Count one destruction (an object's ``alive`` just became False) and
    tell the listeners."""
    DESTROYED.value += 1
    for listener in tuple(DESTROYED.listeners):
        listener()


@contextmanager
def listening(listener: Callable[[], None]) -> Iterator[None]:
    """Run ``listener()`` after every destruction inside the block (any thread)."""
    DESTROYED.listeners.append(listener)
    try:
        yield
    finally:
        DESTROYED.listeners.remove(listener)
