"""Boundary-layer padding of geoms (an Odeon extension of engine.ode geoms).

Every geom has a ``padding`` (m, default 0.0): a shell of that thickness
around the shape. The broad phase sees AABBs grown by it (so dSpaceCollide
reports pairs whose padded shells overlap) and
:func:`engine.contact.boundary.padded_contacts` makes contacts wherever the
padded shells overlap. A padding of 0 changes nothing.
"""

from __future__ import annotations

import math

from engine.ode.collision.geoms.geom import Geom


def _geom(geom: object, function: str) -> Geom:
    if not isinstance(geom, Geom) or not geom.alive:
        raise ValueError(f"{function}: argument 'geom' must be a live engine.ode geom, "
                         f"got {geom!r}")
    return geom


def set_padding(geom: Geom, m: float) -> None:
    """Set the boundary layer of ``geom`` to ``m`` metres (finite, >= 0)."""
    g = _geom(geom, "set_padding")
    try:
        value = float(m)
    except (TypeError, ValueError):
        raise ValueError(f"set_padding: argument 'm' must be a number of metres, got {m!r}") \
            from None
    if not math.isfinite(value) or value < 0.0:
        raise ValueError(f"set_padding: argument 'm' must be finite and >= 0 (metres), "
                         f"got {m!r}")
    g.padding = value


def padding_of(geom: Geom) -> float:
    """The boundary layer of ``geom`` in metres."""
    return _geom(geom, "padding_of").padding
