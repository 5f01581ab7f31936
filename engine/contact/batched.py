"""Boundary-layer contacts of many single-piece pairs in one compiled pass.

`engine.contact.boundary.padded_contacts` serves any two geoms, one pair per
call; on a pile of primitives its per-pair Python work (building pieces,
ordering, box tests, a kernel call) costs more than the contacts themselves.
:func:`batched_contacts` does the same for every pair of geoms that are one
convex piece each (:data:`BATCHED_CLASSES`: sphere, box, capsule, cylinder,
plane, convex), with the same arithmetic in the same order, so its contacts
are bit-identical to ``padded_contacts``':

1. the pieces of all those geoms are built at once from the gathered poses
   and sizes (`_fill_pieces`, numba; a convex's through
   `engine.contact.pieces.side_of`);
2. one compiled loop (`_batch_rows`) takes each pair in padded_contacts'
   canonical order (class, padding, then pose, compared as tuples: the
   geom with the smaller key first), tests the two pieces' boxes grown by
   ``reach = pad1 + pad2``, makes the pair's contacts
   (`engine.contact.padded_pairs.pair_rows`), drops near-duplicates
   (`unique_rows`) and negates the normals of a pair taken swapped.

Rows are ``pos (3) m, normal (3) into g1, depth m, penetrating (0/1)``, pair
after pair; ``ends[i]`` is one past pair i's last row.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit

from engine.contact.padded_pairs import pair_rows, unique_rows
from engine.contact.pieces import (
    BOX_SIGNS,
    HALFSPACE,
    RIM,
    PieceSet,
    concat_piece_sets,
    side_of,
)
from engine.ode.collision.pairs.gjk import BOX, CAPSULE, CYLINDER, SPHERE
from engine.ode.constants import (
    dBoxClass,
    dCapsuleClass,
    dConvexClass,
    dCylinderClass,
    dPlaneClass,
    dSphereClass,
)

#: Geom class id -> piece code of the classes `_fill_pieces` builds from the
#: gathered size row (sphere r; box lengths; capsule/cylinder r, length; plane a, b, c, d).
FILLED_PIECES: dict[int, int] = {
    dSphereClass: SPHERE,
    dBoxClass: BOX,
    dCapsuleClass: CAPSULE,
    dCylinderClass: CYLINDER,
    dPlaneClass: HALFSPACE,
}
#: Classes whose geoms are one piece whatever they meet (`batched_contacts` takes them).
BATCHED_CLASSES = frozenset(FILLED_PIECES) | {dConvexClass}


class BatchedRows(NamedTuple):
    """``rows (n, 8)`` the contacts of all pairs, pair after pair (module
    docstring); ``ends (k,)`` int64: pair i's rows end before ``ends[i]``."""

    rows: np.ndarray
    ends: np.ndarray


# ---------------------------------------------------------------- pieces
@njit(cache=True, nogil=True)
def _piece_sizes(code: np.ndarray) -> tuple:
    """(parameters, probes) of each piece (m,) int64 each."""
    m = code.shape[0]
    nprm = np.empty(m, dtype=np.int64)
    nprobe = np.zeros(m, dtype=np.int64)
    for i in range(m):
        k = code[i]
        if k == SPHERE:
            nprm[i] = 1
        elif k == BOX:
            nprm[i] = 3
            nprobe[i] = 8
        elif k == CAPSULE:
            nprm[i] = 2
            nprobe[i] = 2
        elif k == CYLINDER:
            nprm[i] = 2
            nprobe[i] = 16
        else:
            nprm[i] = 4
    return nprm, nprobe


@njit(cache=True, nogil=True)
def _small_world(p0: float, p1: float, p2: float, R: np.ndarray, pos: np.ndarray,
                 out: np.ndarray) -> None:
    """out = R p + pos summed from 0.0 in index order (detlinalg's small matmul path)."""
    for j in range(3):
        s = 0.0
        s += p0 * R[j, 0]
        s += p1 * R[j, 1]
        s += p2 * R[j, 2]
        out[j] = s + pos[j]


@njit(cache=True, nogil=True)
def _fill_pieces(code: np.ndarray, pos: np.ndarray, R: np.ndarray, size: np.ndarray,
                 rim: np.ndarray, box_signs: np.ndarray) -> PieceSet:
    """The PieceSet of m primitive geoms (piece codes ``code (m,)``, world
    ``pos (m, 3)`` m, ``R (m, 3, 3)``, gathered ``size (m, 4)``), value for
    value what `engine.contact.pieces.side_of` builds for each."""
    m = code.shape[0]
    nprm, nprobe = _piece_sizes(code)
    off = np.zeros(m + 1, dtype=np.int64)
    poff = np.zeros(m + 1, dtype=np.int64)
    for i in range(m):
        off[i + 1] = off[i] + nprm[i]
        poff[i + 1] = poff[i] + nprobe[i]
    prm = np.empty(off[m])
    ppts = np.empty((poff[m], 3))
    prad = np.zeros(poff[m])
    Rout = np.empty((m, 3, 3))
    pout = np.empty((m, 3))
    lo = np.empty((m, 3))
    hi = np.empty((m, 3))
    half = np.empty(3)
    for i in range(m):
        k = code[i]
        o = off[i]
        q = poff[i]
        Ri = R[i]
        pi = pos[i]
        if k == HALFSPACE:
            for a in range(4):
                prm[o + a] = size[i, a]
            for a in range(3):
                pout[i, a] = 0.0
                lo[i, a] = -np.inf
                hi[i, a] = np.inf
                for b in range(3):
                    Rout[i, a, b] = 1.0 if a == b else 0.0
            continue
        r = size[i, 0]
        if k == SPHERE:
            prm[o] = r
            half[0] = r
            half[1] = r
            half[2] = r
        elif k == BOX:
            for a in range(3):
                half[a] = 0.5 * size[i, a]
                prm[o + a] = half[a]
            for c in range(8):
                _small_world(box_signs[c, 0] * half[0], box_signs[c, 1] * half[1],
                             box_signs[c, 2] * half[2], Ri, pi, ppts[q + c])
        elif k == CAPSULE:
            h = 0.5 * size[i, 1]
            prm[o] = r
            prm[o + 1] = h
            half[0] = r
            half[1] = r
            half[2] = h + r
            _small_world(0.0, 0.0, -h, Ri, pi, ppts[q])
            _small_world(0.0, 0.0, h, Ri, pi, ppts[q + 1])
            prad[q] = r
            prad[q + 1] = r
        else:  # CYLINDER: 8 rim points per cap, numpy's matmul order (no 0.0 start)
            h = 0.5 * size[i, 1]
            prm[o] = r
            prm[o + 1] = h
            half[0] = r
            half[1] = r
            half[2] = h
            for c in range(16):
                x = r * rim[c % 8, 0]
                y = r * rim[c % 8, 1]
                z = -h if c < 8 else h
                for j in range(3):
                    ppts[q + c, j] = (x * Ri[j, 0] + y * Ri[j, 1]) + z * Ri[j, 2] + pi[j]
        for a in range(3):
            # the world box: pos -+ |R| half, summed as detlinalg's (3, 3) x (3,)
            ext = abs(Ri[a, 0]) * half[0] + abs(Ri[a, 1]) * half[1] + abs(Ri[a, 2]) * half[2]
            lo[i, a] = pi[a] - ext
            hi[i, a] = pi[a] + ext
            pout[i, a] = pi[a]
            for b in range(3):
                Rout[i, a, b] = Ri[a, b]
    return PieceSet(code.copy(), off, prm, pout, Rout, np.ones((m, 3), dtype=np.bool_), poff,
                    ppts, prad, lo, hi)


class BatchPieces(NamedTuple):
    """``pieces`` of m geoms and ``row (m,)`` int64: geom i's piece row."""

    pieces: PieceSet
    row: np.ndarray


def batch_pieces(geoms: list, cls: np.ndarray, pos: np.ndarray, R: np.ndarray,
                 size: np.ndarray) -> BatchPieces:
    """The pieces of ``geoms`` (all of `BATCHED_CLASSES`), one per geom.

    ``cls (m,)`` class ids, ``pos (m, 3)`` m, ``R (m, 3, 3)``, ``size (m, 4)``
    as `engine.ode.collision.spaces.broadphase.gather` gives them."""
    filled = np.array([FILLED_PIECES.get(c, -1) for c in np.asarray(cls).tolist()],
                      dtype=np.int64).reshape(-1)
    simple = np.flatnonzero(filled >= 0)
    convex = np.flatnonzero(filled < 0)
    built = _fill_pieces(filled[simple], np.ascontiguousarray(pos[simple]),
                         np.ascontiguousarray(R[simple]), np.ascontiguousarray(size[simple]),
                         RIM, BOX_SIGNS)
    row = np.empty(len(geoms), dtype=np.int64)
    row[simple] = np.arange(simple.size)
    if convex.size == 0:
        return BatchPieces(built, row)
    # a convex carries its points: built as padded_contacts builds it, appended
    parts = [side_of(geoms[i], pos[i], R[i], np.zeros(6)).pieces for i in convex.tolist()]
    row[convex] = simple.size + np.arange(convex.size)
    return BatchPieces(concat_piece_sets([built, *parts]), row)


# ---------------------------------------------------------------- pairs
@njit(cache=True, nogil=True)
def _first_is_larger(cls: np.ndarray, pose: np.ndarray, a: int, pad_a: float, b: int,
                     pad_b: float) -> bool:
    """True if key(b) < key(a), the keys (class, padding, pose (12,)) compared
    as Python compares tuples (the first unequal entry decides)."""
    if cls[b] != cls[a]:
        return cls[b] < cls[a]
    if pad_b != pad_a:
        return pad_b < pad_a
    for c in range(pose.shape[1]):
        if pose[b, c] != pose[a, c]:
            return pose[b, c] < pose[a, c]
    return False


@njit(cache=True, nogil=True)
def _batch_rows(P: PieceSet, cls: np.ndarray, pose: np.ndarray, first: np.ndarray,
                second: np.ndarray, pad_first: np.ndarray, pad_second: np.ndarray) -> tuple:
    """(rows (n, 8), ends (k,)) of pairs ``first``/``second (k,)`` (piece
    rows of P) with paddings ``pad_first``/``pad_second`` (k,) m; ``cls (m,)``,
    ``pose (m, 12)`` (position, rotation row-major) the order keys of each
    piece's geom."""
    k = first.shape[0]
    bound = 0
    for p in range(k):
        bound += 1 + (P.poff[first[p] + 1] - P.poff[first[p]]) \
            + (P.poff[second[p] + 1] - P.poff[second[p]])
    rows = np.empty((bound, 8))
    ends = np.empty(k, dtype=np.int64)
    n = 0
    for p in range(k):
        a = first[p]
        b = second[p]
        pa = pad_first[p]
        pb = pad_second[p]
        swap = _first_is_larger(cls, pose, a, pa, b, pb)
        if swap:
            a, b = b, a
            pa, pb = pb, pa
        reach = pa + pb
        near = True
        for c in range(3):
            if not (P.lo[a, c] - reach <= P.hi[b, c] and P.hi[a, c] + reach >= P.lo[b, c]):
                near = False
        if near:
            start = n
            n = pair_rows(P, a, P, b, reach, rows, n)
            keep = unique_rows(rows[start:n], n - start)
            n = start
            for i in range(keep.shape[0]):
                if keep[i]:
                    for c in range(8):
                        rows[n, c] = rows[start + i, c]
                    if swap:
                        for c in range(3, 6):
                            rows[n, c] = -rows[n, c]
                    n += 1
        ends[p] = n
    return rows[:n].copy(), ends


def batched_contacts(pieces: BatchPieces, cls: np.ndarray, pose: np.ndarray,
                     first: np.ndarray, second: np.ndarray, pad_first: np.ndarray,
                     pad_second: np.ndarray) -> BatchedRows:
    """The boundary-layer contacts of k geom pairs (module docstring).

    ``pieces`` the m geoms' pieces (`batch_pieces`); ``cls (m,)`` int64 class
    ids and ``pose (m, 12)`` position (m) and row-major rotation of each geom
    (the canonical order's key); ``first``, ``second (k,)`` int64 geom rows of
    each pair; ``pad_first``, ``pad_second (k,)`` their paddings (m, finite,
    >= 0)."""
    row = pieces.row
    m = row.shape[0]
    key_cls = np.empty(m, dtype=np.int64)
    key_cls[row] = cls
    key_pose = np.empty((m, 12))
    key_pose[row] = pose
    rows, ends = _batch_rows(pieces.pieces, key_cls, key_pose,
                             np.ascontiguousarray(row[first]), np.ascontiguousarray(row[second]),
                             np.ascontiguousarray(pad_first, dtype=np.float64),
                             np.ascontiguousarray(pad_second, dtype=np.float64))
    return BatchedRows(rows, ends)
