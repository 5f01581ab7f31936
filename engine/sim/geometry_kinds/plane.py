"""Plane: an infinite ODE plane, normal along local +z (static Solids only; its
``size`` only bounds the drawing). `engine.sim.geometry.place_geom` sets its
world normal and offset."""

from __future__ import annotations

from engine import ode
from engine.sim.geometry_kinds.kind import GeomBuild, GeometryKind, no_volume
from engine.world import Node


def build(node: Node, space: object, label: str, base_dir: str) -> GeomBuild:
    """The plane z = 0 of the node's frame (placed later)."""
    return GeomBuild(ode.dCreatePlane(space, 0.0, 0.0, 1.0, 0.0))


KIND = GeometryKind("Plane", build, no_volume)
