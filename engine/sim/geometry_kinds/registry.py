"""The table of geometry kinds by node type name.

`kind_of` is the one dispatch over geometry node types: the builder, the
mass, the live edits and (through the app's own table) the drawing look a
node's kind up here; a type without a kind is not a geometry (the caller's
one "not supported" path).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from engine.sim.geometry_kinds.kind import GeometryKind

_KINDS: dict[str, GeometryKind] = {}


def register(kind: GeometryKind) -> GeometryKind:
    """Add ``kind`` under its name (ValueError if the name is taken); returns it."""
    if kind.name in _KINDS:
        raise ValueError(f"geometry kind {kind.name} is already registered")
    _KINDS[kind.name] = kind
    return kind


def unregister(name: str) -> None:
    """Remove the kind named ``name`` (KeyError if there is none)."""
    del _KINDS[name]


@contextmanager
def registered(kind: GeometryKind) -> Iterator[GeometryKind]:
    """``kind`` registered inside the block only (a plugin's or a test's own kind)."""
    register(kind)
    try:
        yield kind
    finally:
        unregister(kind.name)


def kind_of(type_name: str) -> GeometryKind | None:
    """The kind of geometry node type ``type_name``, or None if it is not a geometry."""
    return _KINDS.get(type_name)


def kind_names() -> tuple[str, ...]:
    """The registered type names, in registration order."""
    return tuple(_KINDS)
