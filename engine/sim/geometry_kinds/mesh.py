"""Mesh: a trimesh loaded from the first ``url`` (.obj or .stl, relative to the
world file's folder; ``ccw`` FALSE flips the triangles)."""

from __future__ import annotations

import os

import numpy as np

from engine.sim.errors import BuildError
from engine.sim.geometry_kinds.kind import GeomBuild, GeometryKind
from engine.sim.geometry_kinds.limits import within_range
from engine.sim.geometry_kinds.trimesh import trimesh_build, trimesh_mass
from engine.sim.meshes import MeshError, load_mesh
from engine.world import Node


def triangles(node: Node, label: str, base_dir: str) -> tuple[np.ndarray, np.ndarray]:
    """Points (n, 3) float64 [m] and triangles (m, 3) int32 of the mesh file."""
    urls = node.get("url")
    if not urls:
        raise BuildError(f"{label}: Mesh.url is empty")
    path = urls[0] if os.path.isabs(urls[0]) else os.path.join(base_dir, urls[0])
    try:
        verts, tris = load_mesh(path)
    except MeshError as exc:
        raise BuildError(f"{label}: Mesh.url: {exc}") from None
    within_range(np.asarray(verts), node, "url (mesh points)", label)
    if not node.get("ccw"):
        tris = tris[:, ::-1].copy()
    return verts, tris


def build(node: Node, space: object, label: str, base_dir: str) -> GeomBuild:
    """The trimesh geom of the mesh file."""
    return trimesh_build(space, *triangles(node, label, base_dir))


KIND = GeometryKind("Mesh", build, trimesh_mass)
