"""IndexedFaceSet: a trimesh of ``coord.point`` with the polygons of ``coordIndex``
(each ended by -1, fanned into triangles; ``ccw`` FALSE flips them)."""

from __future__ import annotations

import numpy as np

from engine.sim.errors import BuildError
from engine.sim.geometry_kinds.kind import GeomBuild, GeometryKind
from engine.sim.geometry_kinds.limits import within_range
from engine.sim.geometry_kinds.trimesh import trimesh_build, trimesh_mass
from engine.world import Node


def triangles(node: Node, label: str) -> tuple[np.ndarray, np.ndarray]:
    """Points (n, 3) float64 [m] and triangles (m, 3) int32 of the face set."""
    coord = node.get("coord")
    if coord is None or not coord.get("point"):
        raise BuildError(f"{label}: IndexedFaceSet.coord has no points")
    verts = np.array(coord.get("point"), dtype=np.float64)
    within_range(verts, coord, "point", label)
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


def build(node: Node, space: object, label: str, base_dir: str) -> GeomBuild:
    """The trimesh geom of the face set."""
    return trimesh_build(space, *triangles(node, label))


KIND = GeometryKind("IndexedFaceSet", build, trimesh_mass)
