"""Box: an ODE box of side lengths ``size`` (3,) [m], centred at its frame."""

from __future__ import annotations

from engine import ode
from engine.sim.geometry_kinds.kind import GeomBuild, GeometryKind
from engine.sim.geometry_kinds.limits import positive
from engine.world import Node


def build(node: Node, space: object, label: str, base_dir: str) -> GeomBuild:
    """The box geom (each side in [MIN_SIZE, MAX_SIZE])."""
    sx, sy, sz = (positive(node, "size", label, v) for v in node.get("size"))
    return GeomBuild(ode.dCreateBox(space, sx, sy, sz))


def mass(node: Node, geom: object, density: float) -> ode.dMass:
    """A solid box's mass at ``density`` [kg/m^3]."""
    m = ode.dMass()
    ode.dMassSetBox(m, density, *node.get("size"))
    return m


def resize(geom: object, node: Node) -> None:
    """The box geom takes the node's new ``size``."""
    ode.dGeomBoxSetLengths(geom, *node.get("size"))


KIND = GeometryKind("Box", build, mass, frozenset({"size"}), resize)
