"""Opaque handles for ODE objects (world, body, joint, joint group, geom, space).

A handle carries its C address as ``_as_parameter_``, so ctypes passes it
straight to a ``void *`` argument; ``None`` stands for NULL. Bodies and geoms
come back from C (``dGeomGetBody``, contact points, near callbacks), so each
kind has a :class:`Registry` that maps an address back to the one handle made
for it: a scene may compare handles with ``is`` / ``==`` as with engine.ode.
"""

from __future__ import annotations


class Handle:
    """One ODE object: ``kind`` (e.g. "body") and its C address."""

    __slots__ = ("_as_parameter_", "keep_alive", "kind")

    def __init__(self, kind: str, address: int) -> None:
        self.kind = kind
        self._as_parameter_ = address
        self.keep_alive: list[object] = []   # Python objects C holds pointers to

    def __repr__(self) -> str:
        return f"<libode {self.kind} 0x{self._as_parameter_:x}>"


class Registry:
    """The handles of one kind, by C address."""

    def __init__(self, kind: str) -> None:
        self.kind = kind
        self._by_address: dict[int, Handle] = {}

    def new(self, address: int | None) -> Handle:
        """A fresh handle for an object C has just created (an address C may
        have reused after a destroy gets a new handle)."""
        if not address:
            raise RuntimeError(f"libode returned NULL for a new {self.kind}")
        handle = Handle(self.kind, address)
        self._by_address[address] = handle
        return handle

    def find(self, address: int | None) -> Handle | None:
        """The handle made for ``address``; None for NULL."""
        if not address:
            return None
        return self._by_address[address]


def plain(kind: str, address: int | None) -> Handle:
    """A handle of a kind C never hands back to us (world, space, joint, group)."""
    if not address:
        raise RuntimeError(f"libode returned NULL for a new {kind}")
    return Handle(kind, address)


BODIES = Registry("body")
GEOMS = Registry("geom")
