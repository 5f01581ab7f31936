"""trimesh against cylinder, convex and trimesh: per-triangle convex tests.

Pairs served (contact rows ``pos (3), normal (3), depth, side1, side2``,
float64 (k, 9), the normal pointing into g1): cylinder-trimesh,
convex-trimesh and trimesh-trimesh; side1/side2 are triangle indices on the
trimesh sides and -1 otherwise. Triangles come from
``TriMesh.candidate_triangles`` (bounding-box overlap, then the user's
array and per-triangle callbacks).

**Direction and depth of one triangle.** A mesh is a one-sided surface: a
shape C touching triangle ``t`` (flat triangle against the solid C, an
exact test) is pushed out through the front of ``t`` along the direction
``d`` (from the mesh towards C: the contact normal when C is g1) of least

    overlap(d) = max_{x in t} d.x - min_{y in C} d.y

among the directions *admissible* for ``t``: not behind ``t``, and with
``t``'s corner furthest along ``d`` a local maximum of ``d.x`` over its mesh
neighbours (``d`` lies in the mesh's normal cone there). On a closed convex
mesh the admissible directions of the triangles tile the sphere and the
overlap restricted to them is that of the solid mesh, so the least overlap
over the triangles is the exact minimum translation distance; on a floor
split into many triangles only the floor normal is admissible (inner edges
and corners are flat); a crease gives each side its own normal.

The minimum is taken over candidate directions: the face normals around
``t`` (its "ring": faces sharing a corner with it) and the cross products of
ring edges with C's edges; for polytopes this is exact (the minimum of a
support-function difference over a region of the sphere lies on a vertex
of the overlaid normal cones). A cylinder's support function is curved:
golden-section searches along the normal arcs of the ring edges and a
compass search inside the corners' cones refine sampled directions. For
trimesh-trimesh a pair of touching triangles needs a direction admissible
for both (``-d`` for the mesh of g1); surfaces crossing steeply (smooth
meshes pushed deep) may have none, and then the face normal of either
triangle is used, with the other triangle's reach behind it.

**Redundant triangles.** Triangles touching C away from the supporting
features (the rim of a deep overlap with a finely tessellated mesh) would
report too much: a triangle, or triangle pair, is dropped when moving C
(mesh 1) out of a shallower one's overlap, along that one's direction,
already clears it. On a convex mesh only the exact minimum then remains;
on a non-convex one (a groove) each side keeps its own contacts.

**Points.** Per triangle, each point with its own depth along ``d`` (never
more than the triangle's overlap): the corners of ``t`` clipped to C (depth:
C's chord from the point along ``-d``), C's edges (cylinder: 16-sided rim
polygons and side lines) clipped to the prism swept by ``t`` along ``d``
(depth: the distance to ``t`` along ``d``; for two meshes also within the
prism along ``t``'s normal, and both ways), the closest points of the two
deepest features when they face each other along ``d``, and one point at
the full overlap when ``t`` reaches beyond C and no point has it (a wall
whose lower edge passes under C; not a floor under a tilted C). A polytope
keeps the points at least half as deep as the triangle's deepest; a
cylinder touching with its side (|axis . d| < cos 45 deg) only those of its
deepest line (within 1 % of the deepest along the same ``d``). For two
meshes each pair also adds the point where its triangles cross, with depth
0 (the patch's outline), or with the pair's overlap if no point along its
direction reaches that (a deep overlap whose supporting features lie
inside the other mesh). All points are pooled, exact duplicates dropped,
and ``max_contacts`` kept: the deepest first, then repeatedly the farthest
from those kept (among the points at least a quarter as deep as the
deepest while there are any).

**Against ODE 0.16.2.** Depths and normals follow the exact geometry where
ODE departs from it (docs/ode-behaviour.md, "Contacts that differ from the
exact geometry": cylinder-trimesh oblique,
convex-trimesh z_face and z_deep, trimesh-trimesh everywhere). Point counts
differ: ODE's convex-trimesh (libccd) gives one point per triangle, here a
face resting on a face gives its corners; trimesh-trimesh, as in ODE,
depends on the argument order (the point sets, not the deepest contact).
"""

from __future__ import annotations

import numpy as np

from engine.ode.collision.pairs.convex_triangles import (
    convex_triangles_kernel,
)
from engine.ode.collision.pairs.cylinder_triangles import (
    cylinder_triangles_kernel,
)
from engine.ode.collision.pairs.mesh_surface import (
    mesh_topology,
)
from engine.ode.collision.pairs.triangle_pairs import (
    reduce_contacts,
    trimesh_pairs_kernel,
)
from engine.ode.kernels.detlinalg import matmul

__all__: list[str] = []


# --------------------------------------------------------------------------
# registered colliders
# --------------------------------------------------------------------------
def _mesh_arrays(g) -> tuple:
    """World arrays of trimesh geom g: (V, T, FN, nb_ptr, nb_idx, vt_ptr, vt_idx)."""
    d = g.mesh_data
    R = np.ascontiguousarray(g.R, dtype=np.float64)
    V = np.ascontiguousarray(matmul(d.vertices, R.T) + np.asarray(g.pos, dtype=np.float64))
    FN = np.ascontiguousarray(matmul(d.face_normals, R.T))
    T = np.ascontiguousarray(d.triangles, dtype=np.int64)
    return (V, T, FN) + tuple(mesh_topology(d))


def cylinder_trimesh(g1, g2, max_contacts: int) -> np.ndarray:
    """Contacts (k, 9) of cylinder ``g1`` with trimesh ``g2`` (side2 = triangle)."""
    tris = g2.candidate_triangles(g1, g1.compute_aabb())
    if tris.size == 0:
        return np.zeros((0, 9))
    rows = cylinder_triangles_kernel(np.ascontiguousarray(g1.pos, dtype=np.float64),
                                     np.ascontiguousarray(g1.R, dtype=np.float64),
                                     float(g1.radius), float(g1.length),
                                     *_mesh_arrays(g2), np.ascontiguousarray(tris))
    return reduce_contacts(rows, int(max_contacts))


def convex_world_arrays(g) -> tuple:
    """World arrays of convex geom g: points Q (n, 3) m, planes P (f, 4) with
    unit outward normals (n.x <= off inside) and edges E (e, 2) int64."""
    R = np.asarray(g.R, dtype=np.float64)
    p = np.asarray(g.pos, dtype=np.float64)
    Q = np.ascontiguousarray(matmul(np.asarray(g.points, dtype=np.float64), R.T) + p)
    pl = np.asarray(g.planes, dtype=np.float64)
    wn = matmul(pl[:, :3], R.T)
    P = np.ascontiguousarray(np.column_stack([wn, pl[:, 3] + matmul(wn, p)]))
    E = np.ascontiguousarray(g.edges, dtype=np.int64).reshape(-1, 2)
    return Q, P, E


def convex_trimesh(g1, g2, max_contacts: int) -> np.ndarray:
    """Contacts (k, 9) of convex ``g1`` with trimesh ``g2`` (side2 = triangle)."""
    tris = g2.candidate_triangles(g1, g1.compute_aabb())
    if tris.size == 0:
        return np.zeros((0, 9))
    Q, P, E = convex_world_arrays(g1)
    rows = convex_triangles_kernel(Q, P, E, *_mesh_arrays(g2), np.ascontiguousarray(tris))
    return reduce_contacts(rows, int(max_contacts))


def trimesh_trimesh(g1, g2, max_contacts: int) -> np.ndarray:
    """Contacts (k, 9) of trimesh ``g1`` with trimesh ``g2`` (sides = triangles)."""
    tris1 = g1.candidate_triangles(g2, g2.compute_aabb())
    if tris1.size == 0:
        return np.zeros((0, 9))
    tris2 = g2.candidate_triangles(g1, g1.compute_aabb())
    if tris2.size == 0:
        return np.zeros((0, 9))
    rows = trimesh_pairs_kernel(*_mesh_arrays(g1), np.ascontiguousarray(tris1),
                                *_mesh_arrays(g2), np.ascontiguousarray(tris2))
    return reduce_contacts(rows, int(max_contacts))
