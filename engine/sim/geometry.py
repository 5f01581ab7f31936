"""boundingObject -> ODE geoms, and the primitive volumes behind Physics.density.

`collect_primitives` walks a boundingObject (Box, Sphere, Capsule, Cylinder,
Plane, IndexedFaceSet, Mesh, ElevationGrid, Shape, Pose/Transform, Group) and
returns a tree of `Primitive`s, each with its frame relative to the Solid.
`create_geoms` turns that tree into geoms in a space (a Group becomes a
nested simple space, as in Webots); the caller then places the geoms with
`place_geom`. `primitive_mass` gives one primitive's dMass at a density, in
the Solid frame (Webots adds the volumes and ignores overlaps).

Axis conventions: Webots (R2022a+, ENU) Capsule and Cylinder lie along their
local z axis, like ODE's, so no extra rotation is needed. A Plane has its
normal along local +z and becomes an infinite ODE plane (static Solids only).
An ElevationGrid (heights along z, grid in x/y starting at the origin)
becomes an ODE heightfield (heights along its local y, centred) rotated by
+90 deg about x and shifted by half the grid size.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field

import numpy as np

from engine import ode
from engine.ode.kernels.detlinalg import dot
from engine.sim.errors import BuildError, located
from engine.sim.meshes import MeshError, load_mesh
from engine.sim.poses import Frame
from engine.world import Node

#: ODE heightfield local axes (x, y=height, z) written in ElevationGrid axes.
_HEIGHTFIELD_R = np.array([[1.0, 0.0, 0.0], [0.0, 0.0, -1.0], [0.0, 1.0, 0.0]])


#: smallest and largest shape dimension [m] built (radius, height, box side,
#: grid spacing); also the largest |coordinate| of mesh points and grid heights.
#: Outside, ODE's mass and collision maths under- or overflows (decision 0014).
MIN_SIZE = 1e-6
MAX_SIZE = 1e6


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
    if t in ("Box", "Sphere", "Capsule", "Cylinder", "Plane", "IndexedFaceSet", "Mesh",
             "ElevationGrid"):
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


def _positive(node: Node, name: str, label: str, value=None) -> float:
    """A dimension [m] in [MIN_SIZE, MAX_SIZE], or BuildError naming node and field."""
    v = node.get(name) if value is None else value
    if not v > 0.0:
        raise BuildError(f"{label}: {node.type_name}.{name} must be positive, got {v}", node)
    if not MIN_SIZE <= v <= MAX_SIZE:
        raise BuildError(f"{label}: {node.type_name}.{name} {v:g} is outside the supported "
                         f"range [{MIN_SIZE:g}, {MAX_SIZE:g}] m", node)
    return float(v)


def _within_range(values: np.ndarray, node: Node, name: str, label: str) -> None:
    """BuildError unless every |value| of ``values`` [m] is at most MAX_SIZE."""
    if values.size and not float(np.abs(values).max()) <= MAX_SIZE:
        raise BuildError(f"{label}: {node.type_name}.{name} holds a value beyond "
                         f"{MAX_SIZE:g} m in magnitude", node)


def _make_geom(prim: Primitive, space, label: str, base_dir: str):
    node = prim.node
    t = node.type_name
    if t == "Box":
        sx, sy, sz = (_positive(node, "size", label, v) for v in node.get("size"))
        return ode.dCreateBox(space, sx, sy, sz)
    if t == "Sphere":
        return ode.dCreateSphere(space, _positive(node, "radius", label))
    if t == "Capsule":
        return ode.dCreateCapsule(space, _positive(node, "radius", label),
                                  _positive(node, "height", label))
    if t == "Cylinder":
        return ode.dCreateCylinder(space, _positive(node, "radius", label),
                                   _positive(node, "height", label))
    if t == "Plane":
        return ode.dCreatePlane(space, 0.0, 0.0, 1.0, 0.0)
    if t in ("IndexedFaceSet", "Mesh"):
        verts, tris = _ifs_mesh(node, label) if t == "IndexedFaceSet" else _file_mesh(
            node, label, base_dir)
        prim.mesh = (verts, tris)
        data = ode.dGeomTriMeshDataCreate()
        ode.dGeomTriMeshDataBuildSimple(data, verts, len(verts), tris.reshape(-1), tris.size)
        return ode.dCreateTriMesh(space, data)
    if t == "ElevationGrid":
        return _heightfield(prim, space, label)
    raise BuildError(f"{label}: {t} cannot be a boundingObject")


def _ifs_mesh(node: Node, label: str) -> tuple[np.ndarray, np.ndarray]:
    coord = node.get("coord")
    if coord is None or not coord.get("point"):
        raise BuildError(f"{label}: IndexedFaceSet.coord has no points")
    verts = np.array(coord.get("point"), dtype=np.float64)
    _within_range(verts, coord, "point", label)
    tris: list[tuple[int, int, int]] = []
    face: list[int] = []
    for i in list(node.get("coordIndex")) + [-1]:
        if i >= 0:
            if i >= len(verts):
                raise BuildError(f"{label}: IndexedFaceSet.coordIndex {i} is out of range "
                                 f"({len(verts)} points)")
            face.append(i)
            continue
        tris.extend((face[0], face[k], face[k + 1]) for k in range(1, len(face) - 1))
        face = []
    if not tris:
        raise BuildError(f"{label}: IndexedFaceSet.coordIndex defines no face")
    arr = np.array(tris, dtype=np.int32)
    if not node.get("ccw"):
        arr = arr[:, ::-1].copy()
    return verts, arr


def _file_mesh(node: Node, label: str, base_dir: str) -> tuple[np.ndarray, np.ndarray]:
    urls = node.get("url")
    if not urls:
        raise BuildError(f"{label}: Mesh.url is empty")
    path = urls[0] if os.path.isabs(urls[0]) else os.path.join(base_dir, urls[0])
    try:
        verts, tris = load_mesh(path)
    except MeshError as exc:
        raise BuildError(f"{label}: Mesh.url: {exc}") from None
    _within_range(np.asarray(verts), node, "url (mesh points)", label)
    if not node.get("ccw"):
        tris = tris[:, ::-1].copy()
    return verts, tris


def _heightfield(prim: Primitive, space, label: str):
    node = prim.node
    nx, ny = node.get("xDimension"), node.get("yDimension")
    heights = node.get("height")
    if nx < 2 or ny < 2:
        raise BuildError(f"{label}: ElevationGrid.xDimension and yDimension must be >= 2")
    if len(heights) < nx * ny:
        raise BuildError(f"{label}: ElevationGrid.height has {len(heights)} values, "
                         f"expected xDimension*yDimension = {nx * ny}")
    dx = _positive(node, "xSpacing", label)
    dy = _positive(node, "ySpacing", label)
    width, depth = (nx - 1) * dx, (ny - 1) * dy
    grid = np.array(heights[: nx * ny], dtype=np.float64).reshape(ny, nx)
    _within_range(grid, node, "height", label)
    _within_range(np.array([width, depth]), node, "xSpacing/ySpacing (grid size)", label)
    # ODE sample (x, k) lies at ElevationGrid row j = ny - 1 - k (its z axis is -y here)
    data = grid[::-1].reshape(-1).copy()
    hf_data = ode.dGeomHeightfieldDataCreate()
    thickness = max(float(node.get("thickness")), 0.0)
    ode.dGeomHeightfieldDataBuildDouble(hf_data, data, 1, width, depth, nx, ny, 1.0, 0.0,
                                        thickness, 0)
    ode.dGeomHeightfieldDataSetBounds(hf_data, float(grid.min()), float(grid.max()))
    prim.frame = prim.frame.compose(Frame(_HEIGHTFIELD_R, np.array([width / 2, depth / 2, 0.0])))
    return ode.dCreateHeightfield(space, hf_data, 1)


def primitive_mass(prim: Primitive, density: float) -> ode.dMass | None:
    """The dMass (Solid frame) of one primitive at ``density`` [kg/m^3]; None for
    geometries without a volume (Plane, ElevationGrid, open meshes)."""
    node, m = prim.node, ode.dMass()
    t = node.type_name
    if t == "Box":
        ode.dMassSetBox(m, density, *node.get("size"))
    elif t == "Sphere":
        ode.dMassSetSphere(m, density, node.get("radius"))
    elif t == "Capsule":
        ode.dMassSetCapsule(m, density, 3, node.get("radius"), node.get("height"))
    elif t == "Cylinder":
        ode.dMassSetCylinder(m, density, 3, node.get("radius"), node.get("height"))
    elif t in ("IndexedFaceSet", "Mesh") and prim.geom is not None:
        try:
            ode.dMassSetTrimesh(m, density, prim.geom)
        except ValueError:
            return None
        if not m.mass > 0.0:
            return None
        # dMassSetTrimesh leaves the centre at the mesh centroid
    else:
        return None
    ode.dMassRotate(m, prim.frame.R)
    ode.dMassTranslate(m, *prim.frame.t)
    return m


def place_geom(geom, frame_world: Frame, body, body_frame: Frame | None) -> None:
    """Put ``geom`` at world frame ``frame_world``: as an offset from ``body``
    (whose world frame is ``body_frame``) or directly when static."""
    if ode.dGeomGetClass(geom) == ode.dPlaneClass:
        n = frame_world.rotate((0.0, 0.0, 1.0))
        ode.dGeomPlaneSetParams(geom, n[0], n[1], n[2], dot(n, frame_world.t))
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
