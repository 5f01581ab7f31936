"""Sphere: an ODE sphere of ``radius`` [m]."""

from __future__ import annotations

from engine import ode
from engine.sim.geometry_kinds.kind import GeomBuild, GeometryKind
from engine.sim.geometry_kinds.limits import positive
from engine.world import Node


def build(node: Node, space: object, label: str, base_dir: str) -> GeomBuild:
    """The sphere geom (radius in [MIN_SIZE, MAX_SIZE])."""
    return GeomBuild(ode.dCreateSphere(space, positive(node, "radius", label)))


def mass(node: Node, geom: object, density: float) -> ode.dMass:
    """A solid sphere's mass at ``density`` [kg/m^3]."""
    m = ode.dMass()
    ode.dMassSetSphere(m, density, node.get("radius"))
    return m


def resize(geom: object, node: Node) -> None:
    """The sphere geom takes the node's new ``radius``."""
    ode.dGeomSphereSetRadius(geom, node.get("radius"))


KIND = GeometryKind("Sphere", build, mass, frozenset({"radius"}), resize)
