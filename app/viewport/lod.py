"""Screen-size level of detail of the curved meshes (no GL here).

A `LodLevels` is a list of tessellations of one mesh kind, coarse to fine,
with the projected radius (in pixels) up to which each level is good
enough. Spheres, Cylinders and Capsules get several levels; every other
mesh kind a single one. Per frame, `app.viewport.instance_kernels`
estimates how big each instance looks (the projected radius of its
bounding sphere) and picks the first level good enough for it.

Thresholds: a level whose silhouette lies at most ``gap`` (a fraction of the
bounding radius) inside the true surface is used while
``radius_px * gap <= SILHOUETTE_TOL_PX``, i.e. its outline is never off by
more than that many pixels.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from app.viewport import meshes
from app.viewport.meshes import MeshData

SILHOUETTE_TOL_PX = 1.0  # about the aliasing of an edge without multisampling

# (icosphere subdivisions, segments of the three wireframe circles): 20 ... 5120 triangles;
# a circle of n segments is off by r (1 - cos(pi / n)), within the tolerance up to each
# level's largest radius (about 5, 15, 56 and 220 px at 1 px)
_SPHERE_LEVELS = ((0, 6), (1, 10), (2, 18), (3, 36), (4, 96))
_CYLINDER_SEGMENTS = (8, 12, 24, 48, 96)
# (segments around, rings per cap): around and along the caps the arcs have the same step
_CAPSULE_LEVELS = ((8, 2), (12, 3), (24, 6), (48, 12))


@dataclass(frozen=True, eq=False)
class LodLevels:
    """Tessellations of one mesh kind, coarse to fine.

    ``meshes``: L `MeshData`; ``max_radius_px``: (L - 1,) increasing, level k
    serves instances whose projected bounding radius is <= max_radius_px[k]
    (the last level serves the rest); ``centre`` (3,) and ``radius`` (m): the
    bounding sphere of the mesh in its local frame (same for every level).
    """

    meshes: tuple[MeshData, ...]
    max_radius_px: np.ndarray
    centre: np.ndarray
    radius: float


def mesh_bounds(mesh: MeshData) -> tuple[np.ndarray, float]:
    """Bounding sphere ``(centre (3,), radius)`` of a mesh (centre of its box), local units."""
    pts = np.concatenate([mesh.positions, mesh.edges]).astype(np.float64)
    if len(pts) == 0:
        return np.zeros(3), 0.0
    centre = (pts.min(axis=0) + pts.max(axis=0)) / 2.0
    return centre, float(np.max(np.linalg.norm(pts - centre, axis=1)))


def _thresholds(gaps: list[float]) -> np.ndarray:
    """(L - 1,) max projected radii of levels 0 .. L-2 from their relative silhouette gaps."""
    return np.array([SILHOUETTE_TOL_PX / g for g in gaps[:-1]], np.float64)


def _arc_gap(segments: int) -> float:
    """Relative gap between a circle and an inscribed regular polygon: 1 - cos(pi / n)."""
    return float(1.0 - np.cos(np.pi / segments))


@lru_cache(maxsize=64)
def curved_levels(key: tuple) -> LodLevels | None:
    """The (cached, shared) levels of a sphere, cylinder or capsule mesh key, else None."""
    kind = key[0]
    if kind == "sphere":
        lv = [meshes.icosphere(s, c) for s, c in _SPHERE_LEVELS]
        gaps = [meshes.sphere_gap(m) for m in lv]
    elif kind == "cylinder":
        lv = [meshes.unit_cylinder(n) for n in _CYLINDER_SEGMENTS]
        # the unit cylinder's radius 1 is below its bounding radius: the gap relative to
        # the bounding radius is smaller, using the radius' gap is conservative
        gaps = [_arc_gap(n) for n in _CYLINDER_SEGMENTS]
    elif kind == "capsule" and len(key) == 3:
        r, h = float(key[1]), float(key[2])
        lv = [meshes.capsule(r, h, n, k, n) for n, k in _CAPSULE_LEVELS]
        # gap around the axis plus gap along a cap's arc (step pi / 2k, half of it), in
        # units of the capsule radius r, then rescaled to the bounding radius r + h / 2
        gaps = [(_arc_gap(n) + _arc_gap(4 * k)) * r / max(r + h / 2.0, 1e-12)
                for n, k in _CAPSULE_LEVELS]
    else:
        return None
    centre, radius = mesh_bounds(lv[-1])
    return LodLevels(tuple(lv), _thresholds(gaps), centre, radius)


def levels_for(key: tuple, base: MeshData) -> LodLevels:
    """The levels of mesh kind ``key``: several for sphere/cylinder/capsule, else ``base`` alone."""
    lv = curved_levels(tuple(key))
    if lv is not None:
        return lv
    centre, radius = mesh_bounds(base)
    return LodLevels((base,), np.zeros(0), centre, radius)


def shear_stretch(local: np.ndarray) -> np.ndarray:
    """(n,) >= 1: largest singular value over largest column norm of each (n, 4, 4) 3x3 block.

    1 for rotation-times-axis-scales matrices; larger when a Transform's
    non-uniform scale shears a rotated child. Multiplying the column-norm
    bound of the bounding spheres (`app.viewport.instance_kernels.fill_instance_rows`)
    by it keeps that bound conservative.
    """
    A = np.asarray(local, np.float64)[:, :3, :3]
    if len(A) == 0:
        return np.ones(0)
    col = np.sqrt(np.max(np.sum(A * A, axis=1), axis=1))
    return np.linalg.norm(A, 2, axis=(1, 2)) / np.maximum(col, 1e-300)
