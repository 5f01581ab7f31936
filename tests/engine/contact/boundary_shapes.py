"""Geoms for the boundary-layer tests: mesh cubes, grid floors, helpers."""

from __future__ import annotations

import numpy as np

from engine import ode

#: A cube of side 1 as 12 triangles, faces counter-clockwise seen from outside.
CUBE_V = np.array([[-0.5, -0.5, -0.5], [-0.5, -0.5, 0.5], [-0.5, 0.5, -0.5], [-0.5, 0.5, 0.5],
                   [0.5, -0.5, -0.5], [0.5, -0.5, 0.5], [0.5, 0.5, -0.5], [0.5, 0.5, 0.5]])
CUBE_I = np.array([0, 3, 2, 0, 1, 3, 4, 6, 7, 4, 7, 5, 0, 4, 5, 0, 5, 1, 2, 7, 6, 2, 3, 7,
                   0, 6, 4, 0, 2, 6, 1, 5, 7, 1, 7, 3])


def grid(nx: int, ny: int, cell: float) -> tuple:
    """(vertices (n, 3), indices (3 t,)) of a flat floor at z = 0 centred on the
    origin: nx * ny cells of side ``cell``, two triangles each, normals +z."""
    xs = (np.arange(nx + 1) - 0.5 * nx) * cell
    ys = (np.arange(ny + 1) - 0.5 * ny) * cell
    v = np.array([[x, y, 0.0] for x in xs for y in ys])
    tris = []
    for i in range(nx):
        for j in range(ny):
            a = i * (ny + 1) + j
            b, c = a + ny + 1, a + 1
            tris += [a, b, c, b, b + 1, c]
    return v, np.array(tris)


def trimesh(vertices: np.ndarray, indices: np.ndarray, pos=(0.0, 0.0, 0.0)):
    d = ode.dGeomTriMeshDataCreate()
    ode.dGeomTriMeshDataBuildSimple(d, vertices, len(vertices), indices, len(indices))
    g = ode.dCreateTriMesh(None, d, None, None, None)
    ode.dGeomSetPosition(g, *pos)
    return g


def cube_mesh(side: float, pos) -> object:
    return trimesh(CUBE_V * side, CUBE_I, pos)


def floor_mesh() -> object:
    """A 2000-triangle flat floor at z = 0 (40 x 25 cells of 5 cm)."""
    v, i = grid(40, 25, 0.05)
    return trimesh(v, i)


def placed(g, pos, R=None):
    ode.dGeomSetPosition(g, *pos)
    if R is not None:
        ode.dGeomSetRotation(g, R)
    return g


def has_point(contacts, p, tol: float = 1e-9) -> bool:
    return bool(np.any(np.linalg.norm(contacts.pos - np.asarray(p), axis=1) < tol))


def same_contacts(a, b, flip: bool, tol: float = 1e-9) -> bool:
    """Every contact of a has one of b at the same point with the same (or,
    with ``flip``, the negated) normal and depth, and the other way round."""
    sign = -1.0 if flip else 1.0

    def covered(x, y, s):
        for p, n, d, f in zip(x.pos, x.normal, x.depth, x.penetrating, strict=True):
            near = ((np.linalg.norm(y.pos - p, axis=1) < tol)
                    & (np.linalg.norm(y.normal - s * n, axis=1) < 1e-7)
                    & (np.abs(y.depth - d) < tol) & (y.penetrating == f))
            if not near.any():
                return False
        return True

    return covered(a, b, sign) and covered(b, a, sign)
