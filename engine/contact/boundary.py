"""Boundary-layer contacts of two geoms (Klamp't's padded-shell model).

:func:`padded_contacts` returns a contact wherever the padded shells of two
geoms overlap, for every geom class of engine.ode (see
:mod:`engine.contact.pieces`): each geom becomes convex pieces, candidate
piece pairs come from the meshes' AABB trees (:mod:`engine.contact.bvh`;
tree against tree for two meshes, tree against each piece's grown box or a
half-space otherwise) or from box tests between the few pieces of
primitives, and :mod:`engine.contact.padded_pairs` makes the contacts
(closest pair plus probe points, a manifold per pair) in one compiled loop.
Near-duplicates are merged; nothing else is cut (clustering is separate).
"""

from __future__ import annotations

import math

import numpy as np

from engine.contact.bvh import tree_box, tree_halfspace, tree_tree
from engine.contact.padded_pairs import pair_contacts, unique_rows
from engine.contact.pieces import HALFSPACE, MeshSide, PieceSet, Side, mesh_pieces, side_of
from engine.contact.records import PaddedContacts
from engine.ode.collision.geoms.geom import Geom, grown_box
from engine.ode.constants import (
    dBoxClass,
    dCapsuleClass,
    dConvexClass,
    dCylinderClass,
    dPlaneClass,
    dSphereClass,
    dTriMeshClass,
)
from engine.ode.kernels.detlinalg import matmul

#: Most contact rows one call may make (a guard on memory).
MAX_ROWS = 100_000
#: Most box tests between two lists of pieces (heightfield patches) in one call.
MAX_BOX_TESTS = 10_000_000


def _pad(value: float, argument: str) -> float:
    try:
        pad = float(value)
    except (TypeError, ValueError):
        raise ValueError(f"padded_contacts: argument '{argument}' must be a number of metres, "
                         f"got {value!r}") from None
    if not math.isfinite(pad) or pad < 0.0:
        raise ValueError(f"padded_contacts: argument '{argument}' must be finite and >= 0 "
                         f"(metres), got {value!r}")
    return pad


def _geom(g: object, argument: str) -> Geom:
    if not isinstance(g, Geom) or not g.alive:
        raise ValueError(f"padded_contacts: argument '{argument}' must be a live engine.ode geom, "
                         f"got {g!r}")
    return g


def _mesh_vs_pieces(mesh: MeshSide, P: PieceSet, reach: float) -> np.ndarray:
    """(k, 2) [triangle, piece] candidates: the tree against each piece's
    box grown by ``reach`` (carried into the mesh frame) or half-space."""
    Rt = np.ascontiguousarray(mesh.R.T)
    found = []
    for j in range(P.kind.shape[0]):
        if P.kind[j] == HALFSPACE:
            nrm = P.prm[P.off[j]:P.off[j] + 3]
            d_local = float(P.prm[P.off[j] + 3]) - float(matmul(nrm, mesh.pos))
            tris, _ = tree_halfspace(mesh.tree, np.asarray(matmul(Rt, nrm)), d_local, reach)
        else:
            centre = 0.5 * (P.lo[j] + P.hi[j])
            half = 0.5 * (P.hi[j] - P.lo[j]) + reach
            lc = np.asarray(matmul(Rt, centre - mesh.pos))
            lh = np.asarray(matmul(np.abs(Rt), half))
            tris, _ = tree_box(mesh.tree, lc - lh, lc + lh)
        found.append(np.stack([tris, np.full(tris.shape[0], j, dtype=np.int64)], axis=1))
    return np.concatenate(found + [np.zeros((0, 2), dtype=np.int64)])


def _pieces_vs_pieces(P: PieceSet, Q: PieceSet, reach: float) -> np.ndarray:
    """(k, 2) pairs whose boxes come within ``reach``."""
    tests = P.kind.shape[0] * Q.kind.shape[0]
    if tests > MAX_BOX_TESTS:
        raise ValueError(f"padded_contacts: {P.kind.shape[0]} x {Q.kind.shape[0]} pieces to test "
                         f"(more than {MAX_BOX_TESTS}); reduce the padding or the grids")
    near = np.all((P.lo[:, None, :] - reach <= Q.hi[None, :, :])
                  & (P.hi[:, None, :] + reach >= Q.lo[None, :, :]), axis=2)
    return np.argwhere(near).astype(np.int64).reshape(-1, 2)


def _subset(mesh: MeshSide, column: np.ndarray) -> tuple:
    """Triangle pieces of the triangles in ``column`` and the column renumbered."""
    idx = np.unique(column)
    return mesh_pieces(mesh, idx), np.searchsorted(idx, column).astype(np.int64)


def candidates(s1: Side, s2: Side, reach: float) -> tuple:
    """(A, B, pairs (k, 2) int64): the piece sets of both sides and the piece
    pairs [A row, B row] whose boxes come within ``reach`` (m)."""
    m1, m2 = s1.mesh, s2.mesh
    if m1 is not None and m2 is not None:
        R1t = np.ascontiguousarray(m1.R.T)
        pairs, _ = tree_tree(m1.tree, m2.tree, np.asarray(matmul(R1t, m2.R)),
                             np.asarray(matmul(R1t, m2.pos - m1.pos)), reach)
        A, ca = _subset(m1, pairs[:, 0])
        B, cb = _subset(m2, pairs[:, 1])
        return A, B, np.stack([ca, cb], axis=1)
    if m1 is not None:
        pairs = _mesh_vs_pieces(m1, s2.pieces, reach)
        A, ca = _subset(m1, pairs[:, 0])
        return A, s2.pieces, np.stack([ca, pairs[:, 1]], axis=1)
    if m2 is not None:
        pairs = _mesh_vs_pieces(m2, s1.pieces, reach)
        B, cb = _subset(m2, pairs[:, 0])
        return s1.pieces, B, np.stack([pairs[:, 1], cb], axis=1)
    return s1.pieces, s2.pieces, _pieces_vs_pieces(s1.pieces, s2.pieces, reach)


def _contiguous(P: PieceSet) -> PieceSet:
    return PieceSet(*(np.ascontiguousarray(a) for a in P))


def _empty() -> PaddedContacts:
    return PaddedContacts(np.zeros((0, 3)), np.zeros((0, 3)), np.zeros(0),
                          np.zeros(0, dtype=np.bool_))


class SideCache:
    """The pieces and pose keys of geoms, shared by the `padded_contacts` calls of
    one detection pass (no geom may move meanwhile). Only the geoms whose pieces
    do not depend on the other geom (`CACHEABLE_CLASSES`) are kept."""

    def __init__(self) -> None:
        self.sides: dict[int, Side] = {}
        self.poses: dict[int, tuple] = {}


#: Geom classes whose pieces are the same whatever geom they meet (a
#: heightfield's depend on the other geom's box; a transform may hold one).
CACHEABLE_CLASSES = frozenset({dSphereClass, dBoxClass, dCapsuleClass, dCylinderClass,
                               dPlaneClass, dConvexClass, dTriMeshClass})


def _pose_key(g: Geom, cache: SideCache | None) -> tuple:
    got = cache.poses.get(id(g)) if cache is not None else None
    if got is None:
        got = (*np.asarray(g.pos, dtype=float).tolist(),
               *np.asarray(g.R, dtype=float).reshape(-1).tolist())
        if cache is not None:
            cache.poses[id(g)] = got
    return got


def _order_key(g: Geom, pad: float, cache: SideCache | None) -> tuple:
    """A key that does not depend on the argument order (class, padding, pose)."""
    return (g.CLASS, pad, *_pose_key(g, cache))


def _side(g: Geom, other: Geom, reach: float, cache: SideCache | None) -> Side:
    """The pieces of ``g`` against ``other`` (from ``cache`` when it may be)."""
    keep = cache is not None and g.CLASS in CACHEABLE_CLASSES
    if keep:
        got = cache.sides.get(id(g))
        if got is not None:
            return got
    side = side_of(g, g.pos, g.R, grown_box(other.compute_aabb(), reach))
    if keep:
        cache.sides[id(g)] = side
    return side


def padded_contacts(g1: Geom, g2: Geom, pad1: float, pad2: float,
                    cache: SideCache | None = None) -> PaddedContacts:
    """Contacts where the shells of ``g1`` padded by ``pad1`` (m) and ``g2``
    padded by ``pad2`` (m) overlap (see :class:`PaddedContacts`: depth =
    pad1 + pad2 - distance, unit normal into g1, point between the closest
    points, ``penetrating`` where the unpadded shapes overlap). ``cache``: a
    `SideCache` shared by the calls of one pass (nothing moves meanwhile).

    Raises ValueError for a bad argument, a geom class without pieces (rays,
    user classes), or more than :data:`MAX_ROWS` contacts."""
    a = _geom(g1, "g1")
    b = _geom(g2, "g2")
    p1, p2 = _pad(pad1, "pad1"), _pad(pad2, "pad2")
    if _order_key(b, p2, cache) < _order_key(a, p1, cache):
        # one canonical order, so that swapping the geoms gives exactly the
        # same contacts with negated normals (closest points of parallel
        # faces are not unique: GJK's choice depends on the order)
        c = _ordered_contacts(b, a, p2 + p1, cache)
        return c._replace(normal=-c.normal)
    return _ordered_contacts(a, b, p1 + p2, cache)


def _ordered_contacts(a: Geom, b: Geom, reach: float, cache: SideCache | None) -> PaddedContacts:
    s1 = _side(a, b, reach, cache)
    s2 = _side(b, a, reach, cache)
    A, B, pairs = candidates(s1, s2, reach)
    if pairs.shape[0] == 0:
        return _empty()
    probes_a = np.diff(A.poff)[pairs[:, 0]]
    probes_b = np.diff(B.poff)[pairs[:, 1]]
    bound = int(pairs.shape[0] + probes_a.sum() + probes_b.sum())
    rows = np.empty((min(bound, MAX_ROWS), 8))
    n = pair_contacts(_contiguous(A), _contiguous(B), np.ascontiguousarray(pairs), reach, rows)
    if n < 0:
        raise ValueError(f"padded_contacts: more than {MAX_ROWS} contacts between {a!r} and "
                         f"{b!r} (pad1 + pad2 = {reach} m); reduce the padding or the meshes")
    keep = np.flatnonzero(unique_rows(rows, n))
    kept = rows[keep]
    return PaddedContacts(np.ascontiguousarray(kept[:, 0:3]), np.ascontiguousarray(kept[:, 3:6]),
                          kept[:, 6].copy(), kept[:, 7] > 0.5)
