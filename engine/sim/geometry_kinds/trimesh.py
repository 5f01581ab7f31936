"""The trimesh geom and mass shared by the mesh kinds (IndexedFaceSet, Mesh)."""

from __future__ import annotations

import numpy as np

from engine import ode
from engine.sim.geometry_kinds.kind import GeomBuild
from engine.world import Node


def trimesh_build(space: object, points: np.ndarray, triangles: np.ndarray) -> GeomBuild:
    """A trimesh geom in ``space`` over ``points`` (n, 3) [m] and ``triangles`` (m, 3)
    int32 (counter-clockwise seen from outside)."""
    data = ode.dGeomTriMeshDataCreate()
    ode.dGeomTriMeshDataBuildSimple(data, points, len(points), triangles.reshape(-1),
                                    triangles.size)
    return GeomBuild(ode.dCreateTriMesh(space, data), mesh=(points, triangles))


def trimesh_mass(node: Node, geom: object, density: float) -> ode.dMass | None:
    """The mass of a closed trimesh ``geom`` at ``density`` [kg/m^3], centred at its
    centroid; None when the mesh encloses no volume (open or inside-out)."""
    if geom is None:
        return None
    m = ode.dMass()
    try:
        ode.dMassSetTrimesh(m, density, geom)
    except ValueError:
        return None
    if not m.mass > 0.0:
        return None
    return m
