"""The Body handle and its checks: the piece of ``engine.ode.body`` that
``body_settings`` and the joints build on (kept apart so that ``body`` can use
``body_settings`` without an import cycle).

A Body is a thin handle (world, row) over :class:`~engine.ode.bodystore.BodyStore`.
"""

from __future__ import annotations

from engine.ode.errors import ODEError
from engine.ode.world import World


class Body:
    """Handle of one rigid body (ODE's dBodyID)."""

    __slots__ = ("world", "index", "data", "geoms", "moved_callback", "__weakref__")

    def __init__(self, world: World) -> None:
        self.world = world
        self.index = world.bodies.create()
        world.bodies.handles[self.index] = self
        self.data = None
        self.geoms: list = []
        self.moved_callback = None

    @property
    def alive(self) -> bool:
        return self.world.alive and self.world.bodies.handles[self.index] is self

    def __repr__(self) -> str:
        return f"<Body {self.index}{'' if self.alive else ' destroyed'}>"


def body_of(b, function: str, argument: str = "b") -> Body:
    """``b`` checked to be a live Body (None is rejected: ODE's NULL)."""
    if b is None:
        raise ODEError(function, argument, "must not be NULL (None)")
    if not isinstance(b, Body):
        raise ODEError(function, argument, f"expected a dBodyID, got {b!r}")
    if not b.alive:
        raise ODEError(function, argument, "the body has been destroyed")
    return b


def set_flag(b: Body, bit: int, on: bool) -> None:
    """Set (``on``) or clear flag ``bit`` (a ``BF_*`` of bodystore) of body ``b``."""
    flags = b.world.bodies.flags
    if on:
        flags[b.index] |= bit
    else:
        flags[b.index] &= ~bit


def has_flag(b: Body, bit: int) -> bool:
    """Whether flag ``bit`` (a ``BF_*`` of bodystore) of body ``b`` is set."""
    return bool(b.world.bodies.flags[b.index] & bit)
