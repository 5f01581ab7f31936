"""How many worlds, geoms (spaces included) and joint groups this process
has destroyed so far.

Code that must notice its own objects being destroyed while foreign code
runs -- a physics plugin's collide callback, thousands of times a step --
compares one number before and after each call instead of asking every
object whether it is still alive.
"""

from __future__ import annotations


class DestroyCount:
    """``value``: the destructions so far (it only grows)."""

    __slots__ = ("value",)

    def __init__(self) -> None:
        self.value = 0


#: The process's count, bumped by every dWorldDestroy, geom or space
#: destruction and dJointGroupDestroy.
DESTROYED = DestroyCount()


def note_destroyed() -> None:
    """Count one destruction (an object's ``alive`` just became False)."""
    DESTROYED.value += 1
