"""boundingObject -> ODE geoms, and the primitive volumes behind Physics.density.

`collect_primitives` walks a boundingObject (Box, Sphere, Capsule, Cylinder,
Plane, IndexedFaceSet, Mesh, ElevationGrid, Shape, Pose/Transform, Group) and
returns a tree of `Primitive`s, each with its frame relative to the Solid.
`create_geoms` turns that tree into geoms in a space (a Group becomes a
nested simple space, as in Webots); the caller then places the geoms with
`place_geom`. `primitive_mass` gives one primitive's dMass at a density, in
the Solid frame (Webots adds the volumes and ignores overlaps).

What each geometry node type builds and weighs is its kind's business
(engine/sim/geometry_kinds/, one module per type, looked up with `kind_of`);
a node type without a kind is not a geometry: it is skipped with a warning
while collecting, and a BuildError if asked to build.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from engine import ode
from engine.sim.errors import BuildError, located
from engine.sim.geometry_kinds import MAX_SIZE, MIN_SIZE, kind_of
from engine.sim.poses import Frame
from engine.world import Node

__all__ = ["MAX_SIZE", "MIN_SIZE", "BuildError", "GeomSet", "Primitive", "collect_primitives",
           "create_geoms", "place_geom", "primitive_mass"]


@dataclass
class Primitive:
    """One geometry of a boundingObject: its node and frame (relative to the Solid).

    ``children`` is set for a Group (a nested space) and ``node`` is the Group.
    """

    node: Node
    frame: Frame
    children: list[Primitive] | None = None
    geom: object = None
    mesh: tuple[np.ndarray, np.ndarray] | None = None


@dataclass
class GeomSet:
    """The geoms made for one Solid: ``top`` (a geom or a nested space, what
    dWebotsGetGeomFromDEF returns) and ``leaves`` (placed geoms with frames)."""

    top: object = None
    leaves: list[Primitive] = field(default_factory=list)


def collect_primitives(bo: Node, solid_label: str, warn) -> Primitive | None:
    """The primitive tree of boundingObject ``bo`` (None if it holds no geometry)."""
    return _collect(bo, Frame.identity(), solid_label, warn)


def _collect(node, frame: Frame, label: str, warn) -> Primitive | None:
    if node is None or node.is_opaque:
        if node is not None:
            warn(f"{label}: boundingObject node {node.type_name} is not supported; ignored")
        return None
    node = node.target if node.is_use else node
    t = node.type_name
    if t == "Shape":
        return _collect(node.get("geometry"), frame, label, warn)
    if t in ("Pose", "Transform"):
        if t == "Transform" and tuple(node.get("scale")) != (1.0, 1.0, 1.0):
            warn(f"{label}: Transform.scale is not allowed in a boundingObject; ignored")
        children = node.get("children")
        if len(children) > 1:
            warn(f"{label}: a {t} in a boundingObject holds one geometry; extra children ignored")
        if not children:
            return None
        sub = frame.compose(Frame.from_fields(node.get("translation"), node.get("rotation")))
        return _collect(children[0], sub, label, warn)
    if t == "Group":
        kids = [p for p in (_collect(c, frame, label, warn) for c in node.get("children")) if p]
        return Primitive(node, frame, children=kids)
    if kind_of(t) is not None:
        return Primitive(node, frame)
    warn(f"{label}: {t} cannot be a boundingObject; ignored")
    return None


def create_geoms(prim: Primitive, space, label: str, base_dir: str, warn) -> GeomSet:
    """Create the geoms of a primitive tree in ``space`` (unplaced)."""
    result = GeomSet()
    result.top = _create(prim, space, label, base_dir, warn, result.leaves)
    return result


def _create(prim: Primitive, space, label, base_dir, warn, leaves: list) -> object:
    if prim.children is not None:
        sub = ode.dSimpleSpaceCreate(space)
        ode.dSpaceSetCleanup(sub, 0)
        for child in prim.children:
            _create(child, sub, label, base_dir, warn, leaves)
        return sub
    with located(prim.node, None, label, prim.node.type_name):
        geom = _make_geom(prim, space, label, base_dir)
    if geom is not None:
        prim.geom = geom
        leaves.append(prim)
    return geom


def _make_geom(prim: Primitive, space, label: str, base_dir: str):
    """Build the primitive's geom through its kind; keep its mesh and geom offset."""
    t = prim.node.type_name
    kind = kind_of(t)
    if kind is None:
        raise BuildError(f"{label}: {t} cannot be a boundingObject")
    built = kind.build(prim.node, space, label, base_dir)
    if built.mesh is not None:
        prim.mesh = built.mesh
    if built.offset is not None:
        prim.frame = prim.frame.compose(built.offset)
    return built.geom


def primitive_mass(prim: Primitive, density: float) -> ode.dMass | None:
    """The dMass (Solid frame) of one primitive at ``density`` [kg/m^3]; None for
    geometries without a volume (Plane, ElevationGrid, open meshes)."""
    kind = kind_of(prim.node.type_name)
    m = kind.mass(prim.node, prim.geom, density) if kind is not None else None
    if m is None:
        return None
    ode.dMassRotate(m, prim.frame.R)
    ode.dMassTranslate(m, *prim.frame.t)
    return m


def place_geom(prim: Primitive, frame_world: Frame, body=None,
               body_frame: Frame | None = None) -> None:
    """Put the geom of leaf ``prim`` at world frame ``frame_world``: as an offset
    from ``body`` (whose world frame is ``body_frame``) or directly when static
    (``body`` None); a geom its kind places (a plane) is placed by the kind."""
    geom = prim.geom
    kind = kind_of(prim.node.type_name)
    if kind is not None and kind.place is not None:
        kind.place(geom, frame_world)
        return
    if body is None:
        ode.dGeomSetPosition(geom, *frame_world.t)
        ode.dGeomSetRotation(geom, frame_world.R)
        return
    rel = body_frame.inverse().compose(frame_world)
    ode.dGeomSetBody(geom, body)
    if np.any(rel.t != 0.0):
        ode.dGeomSetOffsetPosition(geom, *rel.t)
    if np.any(rel.R != np.eye(3)):
        ode.dGeomSetOffsetRotation(geom, rel.R)
