"""Cylinder: an ODE cylinder of ``radius`` and ``height`` [m] along local z
(Webots R2022a+ and ODE share the axis)."""

from __future__ import annotations

from engine import ode
from engine.sim.geometry_kinds.kind import GeomBuild, GeometryKind
from engine.sim.geometry_kinds.limits import positive
from engine.world import Node


def build(node: Node, space: object, label: str, base_dir: str) -> GeomBuild:
    """The cylinder geom (radius and height in [MIN_SIZE, MAX_SIZE])."""
    return GeomBuild(ode.dCreateCylinder(space, positive(node, "radius", label),
                                         positive(node, "height", label)))


def mass(node: Node, geom: object, density: float) -> ode.dMass:
    """A solid cylinder's mass at ``density`` [kg/m^3] (axis z)."""
    m = ode.dMass()
    ode.dMassSetCylinder(m, density, 3, node.get("radius"), node.get("height"))
    return m


def resize(geom: object, node: Node) -> None:
    """The cylinder geom takes the node's new ``radius`` and ``height``."""
    ode.dGeomCylinderSetParams(geom, node.get("radius"), node.get("height"))


KIND = GeometryKind("Cylinder", build, mass, frozenset({"height", "radius"}), resize)
