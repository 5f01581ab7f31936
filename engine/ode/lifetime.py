"""How many worlds, geoms (spaces included) and joint groups this process
has destroyed so far, and who wants to hear of each destruction.

Code that must notice its own objects being destroyed while foreign code
runs -- a physics plugin's collide callback, thousands of times a step --
compares one number before and after the foreign code instead of asking
every object whether it is still alive, or registers a listener (`listening`)
that hears each destruction as it happens.
"""

from __future__ import annotations

from collections.abc import Callable


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


class listening:  # noqa: N801 (used like a function: ``with listening(listener):``)
    """Run ``listener()`` after every destruction inside the block (any thread).
    A class rather than a generator: the plugin host enters one every step."""

    __slots__ = ("listener",)

    def __init__(self, listener: Callable[[], None]) -> None:
        self.listener = listener

    def __enter__(self) -> None:
        DESTROYED.listeners.append(self.listener)

    def __exit__(self, *_exc_info: object) -> None:
        DESTROYED.listeners.remove(self.listener)
