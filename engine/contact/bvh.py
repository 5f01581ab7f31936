"""Bounding-volume hierarchy (AABB tree) of a triangle mesh, and its queries (numba).

A tree is built once per mesh in the mesh's **local** frame from the
triangles' bounding boxes: top down, each node's triangles are split at the
median of their box centres along the longest axis of those centres
(a stable sort, so the tree depends only on the input), down to leaves of at
most :data:`LEAF_SIZE` triangles. Nodes are stored in arrays
(:class:`MeshTree`); node 0 is the root, ``left``/``right`` are -1 at leaves,
and a node's triangles are ``order[start:start + count]``.

Queries walk the tree with an explicit stack (no recursion):

* :func:`tree_box` — triangles whose box overlaps a local box;
* :func:`tree_halfspace` — triangles whose box comes within ``reach`` of
  the half-space ``n.x <= d`` (local n, d);
* :func:`tree_tree` — pairs of triangles of two meshes whose boxes come
  within ``reach`` of each other, with B's frame given in A's frame: B's
  boxes are carried over as the boxes around their rotated selves (centre
  ``R c + t``, half sizes ``|R| e``) and grown by ``reach``. The larger
  node (by the sum of its half sizes) is opened first.

Every query also returns the number of node pairs (or nodes) it visited.
Lengths are in metres.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit

#: Most triangles in a leaf.
LEAF_SIZE = 4


class MeshTree(NamedTuple):
    """An AABB tree over t triangles with N <= 2 t nodes (local frame, m).

    ``lo``, ``hi (N, 3)`` node box corners; ``left``, ``right (N,)`` int64
    child nodes (-1 at leaves); ``start``, ``count (N,)`` int64 the node's
    slice of ``order``; ``order (t,)`` int64 triangle indices;
    ``tri_lo``, ``tri_hi (t, 3)`` the triangles' own box corners.
    """

    lo: np.ndarray
    hi: np.ndarray
    left: np.ndarray
    right: np.ndarray
    start: np.ndarray
    count: np.ndarray
    order: np.ndarray
    tri_lo: np.ndarray
    tri_hi: np.ndarray


@njit(cache=True, nogil=True)
def _build(tri_lo: np.ndarray, tri_hi: np.ndarray) -> tuple:
    t = tri_lo.shape[0]
    cap = max(2 * t, 1)
    lo = np.zeros((cap, 3))
    hi = np.zeros((cap, 3))
    left = np.full(cap, -1, dtype=np.int64)
    right = np.full(cap, -1, dtype=np.int64)
    start = np.zeros(cap, dtype=np.int64)
    count = np.zeros(cap, dtype=np.int64)
    order = np.arange(t)
    centre = 0.5 * (tri_lo + tri_hi)
    n_nodes = 1
    count[0] = t
    stack = np.empty(cap, dtype=np.int64)
    stack[0] = 0
    top = 1
    while top > 0:
        top -= 1
        node = stack[top]
        s = start[node]
        c = count[node]
        for a in range(3):
            lo[node, a] = np.inf
            hi[node, a] = -np.inf
        clo = np.full(3, np.inf)
        chi = np.full(3, -np.inf)
        for k in range(s, s + c):
            i = order[k]
            for a in range(3):
                lo[node, a] = min(lo[node, a], tri_lo[i, a])
                hi[node, a] = max(hi[node, a], tri_hi[i, a])
                clo[a] = min(clo[a], centre[i, a])
                chi[a] = max(chi[a], centre[i, a])
        if c <= LEAF_SIZE:
            continue
        axis = 0
        for a in range(1, 3):
            if chi[a] - clo[a] > chi[axis] - clo[axis]:
                axis = a
        seg = order[s:s + c].copy()
        keys = np.empty(c)
        for k in range(c):
            keys[k] = centre[seg[k], axis]
        srt = np.argsort(keys, kind="mergesort")
        for k in range(c):
            order[s + k] = seg[srt[k]]
        half = c // 2
        lft = n_nodes
        rgt = n_nodes + 1
        n_nodes += 2
        left[node] = lft
        right[node] = rgt
        start[lft] = s
        count[lft] = half
        start[rgt] = s + half
        count[rgt] = c - half
        stack[top] = rgt
        stack[top + 1] = lft
        top += 2
    return (lo[:n_nodes].copy(), hi[:n_nodes].copy(), left[:n_nodes].copy(),
            right[:n_nodes].copy(), start[:n_nodes].copy(), count[:n_nodes].copy(), order)


def build_tree(tri_lo: np.ndarray, tri_hi: np.ndarray) -> MeshTree:
    """The tree of triangles with local box corners ``tri_lo``, ``tri_hi`` (t, 3) m."""
    lo3 = np.ascontiguousarray(tri_lo, dtype=np.float64).reshape(-1, 3)
    hi3 = np.ascontiguousarray(tri_hi, dtype=np.float64).reshape(-1, 3)
    return MeshTree(*_build(lo3, hi3), lo3, hi3)


@njit(cache=True, nogil=True)
def _boxes_overlap(alo: np.ndarray, ahi: np.ndarray, blo: np.ndarray, bhi: np.ndarray) -> bool:
    for a in range(3):
        if alo[a] > bhi[a] or ahi[a] < blo[a]:
            return False
    return True


@njit(cache=True, nogil=True)
def _push(buf: np.ndarray, n: int, value: int) -> np.ndarray:
    if n == buf.shape[0]:
        bigger = np.empty(2 * buf.shape[0], dtype=np.int64)
        bigger[:n] = buf
        buf = bigger
    buf[n] = value
    return buf


@njit(cache=True, nogil=True)
def tree_box(tree: MeshTree, qlo: np.ndarray, qhi: np.ndarray) -> tuple:
    """(triangle indices (k,) int64, nodes visited) of the triangles whose box
    overlaps the local box ``qlo``, ``qhi`` (3,) m, in tree order."""
    out = np.empty(16, dtype=np.int64)
    n = 0
    visited = 0
    if tree.order.shape[0] == 0:
        return out[:0], visited
    stack = np.empty(tree.lo.shape[0] + 1, dtype=np.int64)
    stack[0] = 0
    top = 1
    while top > 0:
        top -= 1
        node = stack[top]
        visited += 1
        if not _boxes_overlap(tree.lo[node], tree.hi[node], qlo, qhi):
            continue
        if tree.left[node] < 0:
            for k in range(tree.start[node], tree.start[node] + tree.count[node]):
                i = tree.order[k]
                if _boxes_overlap(tree.tri_lo[i], tree.tri_hi[i], qlo, qhi):
                    out = _push(out, n, i)
                    n += 1
        else:
            stack[top] = tree.right[node]
            stack[top + 1] = tree.left[node]
            top += 2
    return out[:n].copy(), visited


@njit(cache=True, nogil=True)
def _below(lo: np.ndarray, hi: np.ndarray, nrm: np.ndarray, d: float, reach: float) -> bool:
    """The box (lo, hi) has a point with n.x - d < reach."""
    v = -d
    for a in range(3):
        v += nrm[a] * (lo[a] if nrm[a] >= 0.0 else hi[a])
    return v < reach


@njit(cache=True, nogil=True)
def tree_halfspace(tree: MeshTree, nrm: np.ndarray, d: float, reach: float) -> tuple:
    """(triangle indices (k,) int64, nodes visited) of the triangles whose box
    has a point within ``reach`` (m) of the half-space ``nrm.x <= d`` (local
    unit ``nrm`` (3,), offset ``d`` m), or inside it."""
    out = np.empty(16, dtype=np.int64)
    n = 0
    visited = 0
    if tree.order.shape[0] == 0:
        return out[:0], visited
    stack = np.empty(tree.lo.shape[0] + 1, dtype=np.int64)
    stack[0] = 0
    top = 1
    while top > 0:
        top -= 1
        node = stack[top]
        visited += 1
        if not _below(tree.lo[node], tree.hi[node], nrm, d, reach):
            continue
        if tree.left[node] < 0:
            for k in range(tree.start[node], tree.start[node] + tree.count[node]):
                i = tree.order[k]
                if _below(tree.tri_lo[i], tree.tri_hi[i], nrm, d, reach):
                    out = _push(out, n, i)
                    n += 1
        else:
            stack[top] = tree.right[node]
            stack[top + 1] = tree.left[node]
            top += 2
    return out[:n].copy(), visited


@njit(cache=True, nogil=True)
def _carried(lo: np.ndarray, hi: np.ndarray, R: np.ndarray, t: np.ndarray, grow: float,
             out_lo: np.ndarray, out_hi: np.ndarray) -> None:
    """The box around box (lo, hi) moved by x -> R x + t, grown by ``grow``."""
    for a in range(3):
        c = t[a]
        e = grow
        for b in range(3):
            cb = 0.5 * (lo[b] + hi[b])
            eb = 0.5 * (hi[b] - lo[b])
            c += R[a, b] * cb
            e += abs(R[a, b]) * eb
        out_lo[a] = c - e
        out_hi[a] = c + e


@njit(cache=True, nogil=True)
def tree_tree(ta: MeshTree, tb: MeshTree, R_ab: np.ndarray, t_ab: np.ndarray,
              reach: float) -> tuple:
    """(pairs (k, 2) int64 [triangle of A, triangle of B], node pairs visited)
    whose boxes come within ``reach`` (m); B's local points x are at
    ``R_ab x + t_ab`` in A's local frame."""
    out = np.empty(32, dtype=np.int64)
    n = 0
    visited = 0
    if ta.order.shape[0] == 0 or tb.order.shape[0] == 0:
        return out[:0].reshape(0, 2), visited
    stack = np.empty((64, 2), dtype=np.int64)
    stack[0, 0] = 0
    stack[0, 1] = 0
    top = 1
    blo = np.empty(3)
    bhi = np.empty(3)
    while top > 0:
        top -= 1
        na = stack[top, 0]
        nb = stack[top, 1]
        visited += 1
        _carried(tb.lo[nb], tb.hi[nb], R_ab, t_ab, reach, blo, bhi)
        if not _boxes_overlap(ta.lo[na], ta.hi[na], blo, bhi):
            continue
        a_leaf = ta.left[na] < 0
        b_leaf = tb.left[nb] < 0
        if a_leaf and b_leaf:
            for kb in range(tb.start[nb], tb.start[nb] + tb.count[nb]):
                j = tb.order[kb]
                _carried(tb.tri_lo[j], tb.tri_hi[j], R_ab, t_ab, reach, blo, bhi)
                for ka in range(ta.start[na], ta.start[na] + ta.count[na]):
                    i = ta.order[ka]
                    if _boxes_overlap(ta.tri_lo[i], ta.tri_hi[i], blo, bhi):
                        out = _push(out, n, i)
                        out = _push(out, n + 1, j)
                        n += 2
            continue
        if top + 2 > stack.shape[0]:
            bigger = np.empty((2 * stack.shape[0], 2), dtype=np.int64)
            bigger[:top] = stack[:top]
            stack = bigger
        size_a = 0.0
        size_b = 0.0
        for a in range(3):
            size_a += ta.hi[na, a] - ta.lo[na, a]
            size_b += tb.hi[nb, a] - tb.lo[nb, a]
        if b_leaf or (not a_leaf and size_a >= size_b):
            stack[top, 0] = ta.right[na]
            stack[top, 1] = nb
            stack[top + 1, 0] = ta.left[na]
            stack[top + 1, 1] = nb
        else:
            stack[top, 0] = na
            stack[top, 1] = tb.right[nb]
            stack[top + 1, 0] = na
            stack[top + 1, 1] = tb.left[nb]
        top += 2
    return out[:n].copy().reshape(n // 2, 2), visited
