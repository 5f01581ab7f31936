"""Geoms as convex **pieces** in world coordinates, for boundary-layer contacts.

A piece is one convex shape of ``engine.ode.collision.pairs.gjk`` (shape
code, parameters, pose) or a half-space (:data:`HALFSPACE`, parameters
``(nx, ny, nz, d)``: the points with ``n.x <= d``). Each piece also has
**probe points**: the vertices of polytope-like pieces (box corners, convex
vertices, triangle corners, a capsule's two segment ends with the capsule
radius, a cylinder's two rims sampled at 8 points each), from which extra
contacts make a manifold.

Per geom class, :data:`SIDE_BUILDERS` (a registry keyed by the ODE class
id) turns a geom at a world pose into a :class:`Side`:

=================  ============================================================
class              pieces
=================  ============================================================
sphere, box,       one SPHERE / BOX / CAPSULE / CYLINDER piece
capsule, cylinder
plane              one HALFSPACE piece
convex             one POLYTOPE piece (its vertices)
trimesh            a :class:`MeshSide`: the mesh in its local frame with its
                   cached AABB tree; TRIANGLE pieces are made only for the
                   triangles the tree finds near the other geom
heightfield        TRIANGLE pieces of the grid cells under the other geom's
                   padded box (plus one cell around)
geom transform     its object's side at the composed pose
=================  ============================================================

Triangle pieces know which of their edges are **convex** (their neighbour
across the edge bends away, or there is none): a contact whose witness
lies only on non-convex (flat or concave) edges with a normal tilted away
from the face is covered by the neighbouring triangle and is dropped by
the pair kernel. Lengths in metres.

Limits: a trimesh's triangle callbacks (dGeomTriMeshSetCallback...) are not
consulted; a heightfield is its surface (its ``thickness`` is not a solid
below it) and gives no contacts against an unbounded geom (a plane), as
dCollide; a mesh buried so deep that no triangle pair is within the
padding gives no contacts (as Klamp't's mesh-mesh query).
"""

from __future__ import annotations

import math
import weakref
from collections.abc import Callable
from typing import NamedTuple

import numpy as np

from engine.contact.bvh import MeshTree, build_tree
from engine.ode.collision.geoms.geom import Geom
from engine.ode.collision.geoms.heightfield import data_of as heightfield_data
from engine.ode.collision.geoms.transform import check_object
from engine.ode.collision.pairs.gjk import BOX, CAPSULE, CYLINDER, POLYTOPE, SPHERE, TRIANGLE
from engine.ode.constants import (
    dBoxClass,
    dCapsuleClass,
    dConvexClass,
    dCylinderClass,
    dGeomTransformClass,
    dHeightfieldClass,
    dPlaneClass,
    dSphereClass,
    dTriMeshClass,
)
from engine.ode.kernels.detlinalg import matmul

#: Piece code of a half-space (after the gjk shape codes).
HALFSPACE = 8
#: Heightfield cells one patch may hold.
MAX_CELLS = 200_000
_S = math.sqrt(0.5)
#: Unit circle at 8 points (cos, sin of k * 45 degrees): a cylinder cap's probes.
RIM = np.array([[1.0, 0.0], [_S, _S], [0.0, 1.0], [-_S, _S], [-1.0, 0.0], [-_S, -_S],
                 [0.0, -1.0], [_S, -_S]])
#: Signs of a box's 8 corners (x slowest, z fastest): its probes.
BOX_SIGNS = np.array([[sx, sy, sz] for sx in (-1.0, 1.0) for sy in (-1.0, 1.0)
                       for sz in (-1.0, 1.0)])


class PieceSet(NamedTuple):
    """m pieces in world coordinates (the pair kernel's input).

    ``kind (m,)`` int64 shape codes (gjk codes or HALFSPACE); ``off (m + 1,)``
    int64: piece i's parameters are ``prm[off[i]:off[i + 1]]`` (``prm (P,)``
    float64, m); ``pos (m, 3)`` m and ``R (m, 3, 3)`` poses; ``conv (m, 3)``
    bool: triangle edge (v_i, v_i+1) convex (True for other pieces);
    ``poff (m + 1,)`` int64: piece i's probes are rows ``poff[i]:poff[i + 1]``
    of ``ppts (Q, 3)`` m with radii ``prad (Q,)`` m; ``lo``, ``hi (m, 3)``
    world box of each unpadded piece (±inf for half-spaces).
    """

    kind: np.ndarray
    off: np.ndarray
    prm: np.ndarray
    pos: np.ndarray
    R: np.ndarray
    conv: np.ndarray
    poff: np.ndarray
    ppts: np.ndarray
    prad: np.ndarray
    lo: np.ndarray
    hi: np.ndarray


class MeshSide(NamedTuple):
    """A triangle mesh at a world pose: ``vertices (n, 3)`` local m,
    ``triangles (t, 3)`` int64, ``conv (t, 3)`` bool convex edges, ``tree`` its
    local AABB tree, ``pos (3,)`` m, ``R (3, 3)`` local-to-world."""

    vertices: np.ndarray
    triangles: np.ndarray
    conv: np.ndarray
    tree: MeshTree
    pos: np.ndarray
    R: np.ndarray


class Side(NamedTuple):
    """One geom of a pair: either ``pieces`` or ``mesh`` is set."""

    pieces: PieceSet | None
    mesh: MeshSide | None


class _Piece(NamedTuple):
    kind: int
    prm: np.ndarray
    pos: np.ndarray
    R: np.ndarray
    probes: np.ndarray
    radii: np.ndarray
    lo: np.ndarray
    hi: np.ndarray


def piece_set(pieces: list) -> PieceSet:
    """The PieceSet of a list of single (non-triangle) pieces."""
    m = len(pieces)
    sizes = [p.prm.size for p in pieces]
    nprobe = [p.probes.shape[0] for p in pieces]
    return PieceSet(
        np.array([p.kind for p in pieces], dtype=np.int64).reshape(m),
        np.concatenate([[0], np.cumsum(sizes, dtype=np.int64)]).astype(np.int64),
        np.ascontiguousarray(np.concatenate([p.prm for p in pieces] + [np.zeros(0)])),
        np.ascontiguousarray(np.array([p.pos for p in pieces], dtype=float).reshape(m, 3)),
        np.ascontiguousarray(np.array([p.R for p in pieces], dtype=float).reshape(m, 3, 3)),
        np.ones((m, 3), dtype=np.bool_),
        np.concatenate([[0], np.cumsum(nprobe, dtype=np.int64)]).astype(np.int64),
        np.ascontiguousarray(np.concatenate([p.probes for p in pieces] + [np.zeros((0, 3))])),
        np.ascontiguousarray(np.concatenate([p.radii for p in pieces] + [np.zeros(0)])),
        np.array([p.lo for p in pieces], dtype=float).reshape(m, 3),
        np.array([p.hi for p in pieces], dtype=float).reshape(m, 3))


def concat_piece_sets(sets: list) -> PieceSet:
    """One PieceSet of the pieces of ``sets``, in order (offsets shifted)."""
    def joined(field: str, empty: np.ndarray) -> np.ndarray:
        return np.ascontiguousarray(np.concatenate([getattr(s, field) for s in sets] + [empty]))

    def offsets(field: str) -> np.ndarray:
        sizes = [np.diff(getattr(s, field)) for s in sets]
        return np.concatenate([[0], np.cumsum(np.concatenate(sizes + [np.zeros(0, np.int64)]))]
                              ).astype(np.int64)

    return PieceSet(joined("kind", np.zeros(0, np.int64)), offsets("off"),
                    joined("prm", np.zeros(0)), joined("pos", np.zeros((0, 3))),
                    joined("R", np.zeros((0, 3, 3))), joined("conv", np.zeros((0, 3), np.bool_)),
                    offsets("poff"), joined("ppts", np.zeros((0, 3))), joined("prad", np.zeros(0)),
                    joined("lo", np.zeros((0, 3))), joined("hi", np.zeros((0, 3))))


def triangle_set(tris: np.ndarray, conv: np.ndarray) -> PieceSet:
    """The PieceSet of k world triangles ``tris (k, 3, 3)`` [triangle, corner,
    xyz] m with convex-edge flags ``conv (k, 3)``; corners are the probes."""
    k = tris.shape[0]
    t = np.ascontiguousarray(tris, dtype=np.float64).reshape(k, 3, 3)
    return PieceSet(np.full(k, TRIANGLE, dtype=np.int64), np.arange(k + 1, dtype=np.int64) * 9,
                    t.reshape(-1).copy(), np.zeros((k, 3)), np.repeat(np.eye(3)[None], k, axis=0),
                    np.ascontiguousarray(conv, dtype=np.bool_).reshape(k, 3),
                    np.arange(k + 1, dtype=np.int64) * 3, t.reshape(k * 3, 3).copy(),
                    np.zeros(3 * k), t.min(axis=1), t.max(axis=1))


def _world(points: np.ndarray, pos: np.ndarray, R: np.ndarray) -> np.ndarray:
    """Local points (n, 3) to world (n, 3)."""
    if np.size(points) == 0:
        return np.zeros((0, 3))
    return np.asarray(matmul(np.asarray(points, dtype=float).reshape(-1, 3), R.T)) + pos


def _posed(kind: int, prm: np.ndarray, pos: np.ndarray, R: np.ndarray, probes: np.ndarray,
           radii: np.ndarray, half: np.ndarray) -> Side:
    """A single piece whose world box is pos ± |R| half."""
    ext = np.asarray(matmul(np.abs(R), half))
    return Side(piece_set([_Piece(kind, np.asarray(prm, dtype=float), pos, R,
                                  probes.reshape(-1, 3), radii, pos - ext, pos + ext)]), None)


def _sphere(g: Geom, pos: np.ndarray, R: np.ndarray, box: np.ndarray) -> Side:
    r = g.radius
    return _posed(SPHERE, np.array([r]), pos, R, np.zeros((0, 3)), np.zeros(0),
                  np.array([r, r, r]))


def _box(g: Geom, pos: np.ndarray, R: np.ndarray, box: np.ndarray) -> Side:
    h = 0.5 * np.asarray(g.lengths, dtype=float)
    return _posed(BOX, h, pos, R, _world(BOX_SIGNS * h, pos, R), np.zeros(8), h)


def _capsule(g: Geom, pos: np.ndarray, R: np.ndarray, box: np.ndarray) -> Side:
    r, h = g.radius, 0.5 * g.length
    ends = _world(np.array([[0.0, 0.0, -h], [0.0, 0.0, h]]), pos, R)
    return _posed(CAPSULE, np.array([r, h]), pos, R, ends, np.full(2, r), np.array([r, r, h + r]))


def _cylinder(g: Geom, pos: np.ndarray, R: np.ndarray, box: np.ndarray) -> Side:
    r, h = g.radius, 0.5 * g.length
    rims = np.concatenate([np.column_stack([r * RIM, np.full(8, z)]) for z in (-h, h)])
    return _posed(CYLINDER, np.array([r, h]), pos, R, _world(rims, pos, R), np.zeros(16),
                  np.array([r, r, h]))


def _plane(g: Geom, pos: np.ndarray, R: np.ndarray, box: np.ndarray) -> Side:
    inf = np.full(3, np.inf)
    return Side(piece_set([_Piece(HALFSPACE, np.asarray(g.params, dtype=float), np.zeros(3),
                                  np.eye(3), np.zeros((0, 3)), np.zeros(0), -inf, inf)]), None)


def _convex(g: Geom, pos: np.ndarray, R: np.ndarray, box: np.ndarray) -> Side:
    pts = np.asarray(g.points, dtype=float).reshape(-1, 3)
    w = _world(pts, pos, R)
    return Side(piece_set([_Piece(POLYTOPE, pts.reshape(-1).copy(), pos, R, w,
                                  np.zeros(w.shape[0]), w.min(axis=0), w.max(axis=0))]), None)


def edge_convexity(vertices: np.ndarray, triangles: np.ndarray, normals: np.ndarray) -> np.ndarray:
    """(t, 3) bool: edge (v_i, v_i+1) of each triangle is convex — no single
    neighbour shares it (border or non-manifold), or the neighbour's far
    vertex lies below the triangle's plane (unit ``normals (t, 3)``)."""
    t = triangles.shape[0]
    conv = np.ones((t, 3), dtype=np.bool_)
    if t == 0:
        return conv
    a = triangles
    b = np.roll(triangles, -1, axis=1)
    lo = np.minimum(a, b).reshape(-1)
    hi = np.maximum(a, b).reshape(-1)
    order = np.lexsort((hi, lo))
    sl, sh = lo[order], hi[order]
    new = np.concatenate([[True], (sl[1:] != sl[:-1]) | (sh[1:] != sh[:-1])])
    group = np.cumsum(new) - 1
    sizes = np.bincount(group)
    first = np.flatnonzero(new & (sizes[group] == 2))
    if first.size == 0:
        return conv
    p, q = order[first], order[first + 1]
    tp, ep = p // 3, p % 3
    tq, eq = q // 3, q % 3
    span = vertices.max(axis=0) - vertices.min(axis=0)
    tol = 1e-9 * float(np.max(span))
    for tx, ex, ty, ey in ((tp, ep, tq, eq), (tq, eq, tp, ep)):
        far = vertices[triangles[ty, (ey + 2) % 3]] - vertices[triangles[tx, ex]]
        height = np.sum(normals[tx] * far, axis=1)
        conv[tx, ex] = height < -tol
    return conv


class _MeshInfo(NamedTuple):
    vertices: np.ndarray
    triangles: np.ndarray
    tree: MeshTree
    conv: np.ndarray


#: TriMeshData -> its tree and edge flags, rebuilt when a Build* call or
#: dGeomTriMeshDataUpdate replaces the vertex or index arrays.
_MESH_CACHE: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def mesh_info(data) -> _MeshInfo:
    """The cached AABB tree and convex-edge flags of a TriMeshData."""
    info = _MESH_CACHE.get(data)
    if info is None or info.vertices is not data.vertices or info.triangles is not data.triangles:
        v, t = data.vertices, data.triangles
        info = _MeshInfo(v, t, build_tree(data.tri_aabbs[:, 0::2], data.tri_aabbs[:, 1::2]),
                         edge_convexity(v, t, data.face_normals))
        _MESH_CACHE[data] = info
    return info


def _trimesh(g: Geom, pos: np.ndarray, R: np.ndarray, box: np.ndarray) -> Side:
    data = g.mesh_data
    info = mesh_info(data)
    return Side(None, MeshSide(info.vertices, info.triangles, info.conv, info.tree,
                               np.asarray(pos, dtype=float), np.asarray(R, dtype=float)))


def mesh_pieces(mesh: MeshSide, idx: np.ndarray) -> PieceSet:
    """Triangle pieces of mesh triangles ``idx`` (k,) int64, in world coordinates."""
    local = mesh.vertices[mesh.triangles[idx]]
    return triangle_set(_world(local, mesh.pos, mesh.R).reshape(-1, 3, 3), mesh.conv[idx])


def _cell_range(lo: float, hi: float, spacing: float, half: float, samples: int,
                wrap: int) -> tuple:
    """First and last cell index under [lo, hi] (one cell more on each side)."""
    c0 = math.floor((lo + half) / spacing) - 1
    c1 = math.floor((hi + half) / spacing) + 1
    if not wrap:
        c0, c1 = max(c0, 0), min(c1, samples - 2)
    return c0, c1


def _heightfield(g: Geom, pos: np.ndarray, R: np.ndarray, box: np.ndarray) -> Side:
    d = heightfield_data(g.hf_data, "padded_contacts", "heightfield data")
    empty = Side(triangle_set(np.zeros((0, 3, 3)), np.zeros((0, 3), dtype=np.bool_)), None)
    if not np.all(np.isfinite(box)):
        return empty        # an unbounded other side (a plane): no contacts, as in dCollide
    centre = 0.5 * (box[0::2] + box[1::2])
    half = 0.5 * (box[1::2] - box[0::2])
    lc = np.asarray(matmul(R.T, centre - pos))
    lh = np.asarray(matmul(np.abs(R.T), half))
    x0, x1 = _cell_range(lc[0] - lh[0], lc[0] + lh[0], d.sample_width, d.half_width,
                         d.width_samples, d.wrap)
    z0, z1 = _cell_range(lc[2] - lh[2], lc[2] + lh[2], d.sample_depth, d.half_depth,
                         d.depth_samples, d.wrap)
    if x1 < x0 or z1 < z0:
        return empty
    nx, nz = x1 - x0 + 1, z1 - z0 + 1
    if nx * nz > MAX_CELLS:
        raise ValueError(f"padded_contacts: {nx * nz} heightfield cells under the other geom "
                         f"(more than {MAX_CELLS})")
    heights = d.grid(x0, x1 + 1, z0, z1 + 1)                      # (nx + 1, nz + 1)
    xs = np.arange(x0, x1 + 2) * d.sample_width - d.half_width
    zs = np.arange(z0, z1 + 2) * d.sample_depth - d.half_depth
    verts = np.stack([np.repeat(xs, nz + 1), heights.reshape(-1), np.tile(zs, nx + 1)], axis=1)
    ia, ja = np.meshgrid(np.arange(nx), np.arange(nz), indexing="ij")
    a = (ia * (nz + 1) + ja).reshape(-1)
    b, c = a + (nz + 1), a + 1
    tris = np.concatenate([np.stack([a, c, b], axis=1), np.stack([b, c, b + 1], axis=1)])
    p0, p1, p2 = verts[tris[:, 0]], verts[tris[:, 1]], verts[tris[:, 2]]
    n = np.cross(p1 - p0, p2 - p0)
    length = np.sqrt(np.sum(n * n, axis=1))
    n[length > 0] /= length[length > 0, None]
    conv = edge_convexity(verts, tris, n)
    return Side(triangle_set(_world(verts, pos, R)[tris], conv), None)


def _transform(g: Geom, pos: np.ndarray, R: np.ndarray, box: np.ndarray) -> Side:
    if g.obj is None:
        return Side(piece_set([]), None)
    obj = check_object(g, "padded_contacts")
    return side_of(obj, np.asarray(matmul(R, obj.own_pos)) + pos,
                   np.asarray(matmul(R, obj.own_R)), box)


#: Geom class id -> builder(geom, world pos (3,), world R (3, 3), the other
#: geom's padded world box (6,)) -> Side.
SIDE_BUILDERS: dict[int, Callable[[Geom, np.ndarray, np.ndarray, np.ndarray], Side]] = {
    dSphereClass: _sphere,
    dBoxClass: _box,
    dCapsuleClass: _capsule,
    dCylinderClass: _cylinder,
    dPlaneClass: _plane,
    dConvexClass: _convex,
    dTriMeshClass: _trimesh,
    dHeightfieldClass: _heightfield,
    dGeomTransformClass: _transform,
}


def side_of(g: Geom, pos: np.ndarray, R: np.ndarray, box: np.ndarray) -> Side:
    """The pieces of geom ``g`` placed at world ``pos`` (3,), ``R`` (3, 3);
    ``box`` (6,) is the other geom's padded world box (heightfields use it)."""
    builder = SIDE_BUILDERS.get(g.CLASS)
    if builder is None:
        raise ValueError(f"padded_contacts: {g.NAME} geoms have no boundary-layer pieces")
    return builder(g, np.asarray(pos, dtype=float), np.asarray(R, dtype=float), box)
