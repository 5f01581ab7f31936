"""Plane: an infinite ODE plane, normal along local +z through the frame's origin
(static Solids only; its ``size`` only bounds the drawing). ODE planes have no
position: placing one sets its world normal and offset."""

from __future__ import annotations

from engine import ode
from engine.ode.kernels.detlinalg import dot
from engine.sim.geometry_kinds.kind import GeomBuild, GeometryKind, no_volume
from engine.sim.poses import Frame
from engine.world import Node


def build(node: Node, space: object, label: str, base_dir: str) -> GeomBuild:
    """The plane z = 0 of the node's frame (placed later)."""
    return GeomBuild(ode.dCreatePlane(space, 0.0, 0.0, 1.0, 0.0))


def place(geom: object, frame_world: Frame) -> None:
    """The plane through ``frame_world``'s origin with normal its +z axis."""
    n = frame_world.rotate((0.0, 0.0, 1.0))
    ode.dGeomPlaneSetParams(geom, n[0], n[1], n[2], dot(n, frame_world.t))


KIND = GeometryKind("Plane", build, no_volume, place=place,
                    static_reason="planes are static in ODE")
