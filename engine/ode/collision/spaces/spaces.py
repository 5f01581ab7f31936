"""The hash, quadtree and sweep-and-prune spaces (dHashSpaceCreate...).

Each is a :class:`~engine.ode.collision.spaces.space.Space` whose
:meth:`pairs_of` finds the pairs with its own structure (the hash space
uses the broad phase's sweep in hashed columns, faster here than ODE's
multi-level hash grid). The pairs
are always exactly those of the simple space (ODE's rules: both enabled,
not on the same body, category/collide bits match one way or the other,
AABBs overlap with touching counting), as ``(k, 2)`` int64 indices
``i < j`` into the geoms list, sorted by ``(i, j)``. Only the work done to
find them differs; the kernels are compiled with numba.

AABBs are ``(n, 6)`` arrays ``[minx, maxx, miny, maxy, minz, maxz]`` in
metres; bodies are ids (-1: none); bits are uint64.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from engine.ode import checks
from engine.ode.collision.spaces.broadphase import GeomArrays
from engine.ode.collision.spaces.pair_rules import _may_pair, _overlap
from engine.ode.collision.spaces.space import Space, space_of
from engine.ode.collision.spaces.sweep import sweep_pairs
from engine.ode.constants import (
    dHashSpaceClass,
    dQuadTreeSpaceClass,
    dSAP_AXES_XYZ,
    dSAP_AXES_XZY,
    dSAP_AXES_YXZ,
    dSAP_AXES_YZX,
    dSAP_AXES_ZXY,
    dSAP_AXES_ZYX,
    dSweepAndPruneSpaceClass,
)
from engine.ode.errors import ODEError

#: Deepest quadtree accepted (4**depth blocks, as ODE allocates them).
QUADTREE_MAX_DEPTH = 20


# ----------------------------------------------------------------------------- shared
@njit(cache=True, nogil=True)
def _push(out, k, i, j):
    """Append pair (min, max) of (i, j) to ``out`` (k, 2), growing it; returns out."""
    if k == out.shape[0]:
        bigger = np.empty((2 * out.shape[0], 2), dtype=np.int64)
        bigger[:k] = out
        out = bigger
    if i < j:
        out[k, 0] = i
        out[k, 1] = j
    else:
        out[k, 0] = j
        out[k, 1] = i
    return out


@njit(cache=True, nogil=True)
def _sorted_unique(out, k, n):
    """The first ``k`` pairs of ``out`` sorted by (i, j), duplicates removed."""
    pairs = out[:k]
    keys = pairs[:, 0] * n + pairs[:, 1]
    order = np.argsort(keys, kind="mergesort")
    res = np.empty((k, 2), dtype=np.int64)
    m = 0
    last = -1
    for t in range(k):
        key = keys[order[t]]
        if key == last:
            continue
        last = key
        res[m, 0] = pairs[order[t], 0]
        res[m, 1] = pairs[order[t], 1]
        m += 1
    return res[:m]


@njit(cache=True, nogil=True)
def _finite_box(aabb, i) -> bool:
    for c in range(6):
        if not math.isfinite(aabb[i, c]):
            return False
    return True


# ----------------------------------------------------------------------------- hash space
class HashSpace(Space):
    """ODE's multi-resolution hash space: cell levels ``minlevel..maxlevel``
    (cells of 2**level m); defaults -3 and 10 as in ODE."""

    CLASS = dHashSpaceClass
    NAME = "hash space"
    CREATOR = "dHashSpaceCreate"
    __slots__ = ("minlevel", "maxlevel")

    def __init__(self, space) -> None:
        self.minlevel = -3
        self.maxlevel = 10
        super().__init__(space)

    def pairs_of(self, ga: GeomArrays) -> np.ndarray:
        """(k, 2) indices into ``ga.geoms`` of every pair to report, sorted.

        The pairs are the same whatever the structure; the compiled sweep of
        :func:`~engine.ode.collision.spaces.sweep.sweep_pairs` (boxes hashed
        into columns, swept within each) finds them faster than ODE's
        multi-level grid on the scenes measured (bench/bench_broadphase.py),
        so the hash space uses it; its levels are kept for dHashSpaceGetLevels
        only."""
        return sweep_pairs(*ga.broad())


# ----------------------------------------------------------------------------- quadtree
@njit(cache=True, nogil=True)
def _node_offset(d) -> np.int64:
    """Number of quadtree nodes above depth ``d``: (4**d - 1) / 3."""
    return ((np.int64(1) << np.int64(2 * d)) - 1) // 3


@njit(cache=True, nogil=True)
def quadtree_nodes(aabb, enabled, center, extents, depth):
    """Node id (n,) int64 of each box in a quadtree over x and y (-1: disabled).

    The tree covers [center - extents, center + extents) on x and y with
    ``depth`` levels of subdivision; a box goes in the deepest block whose
    half-open x/y range holds it (the root if none does, as in ODE). The
    block at depth d with cell indices (ix, iy) has id offset(d) + iy 2**d + ix.
    """
    n = aabb.shape[0]
    node = np.full(n, -1, dtype=np.int64)
    x0 = center[0] - extents[0]
    y0 = center[1] - extents[1]
    for i in range(n):
        if not enabled[i]:
            continue
        node[i] = 0
        if not _finite_box(aabb, i):
            continue
        ix = 0
        iy = 0
        for d in range(1, depth + 1):
            cells = float(1 << d)
            sx = 2.0 * extents[0] / cells
            sy = 2.0 * extents[1] / cells
            found = False
            for cx in range(2 * ix, 2 * ix + 2):
                if not (x0 + cx * sx <= aabb[i, 0] and aabb[i, 1] < x0 + (cx + 1) * sx):
                    continue
                for cy in range(2 * iy, 2 * iy + 2):
                    if y0 + cy * sy <= aabb[i, 2] and aabb[i, 3] < y0 + (cy + 1) * sy:
                        ix = cx
                        iy = cy
                        found = True
            if not found:
                break
            node[i] = _node_offset(d) + iy * (np.int64(1) << np.int64(d)) + ix
    return node


@njit(cache=True, nogil=True)
def quadtree_pairs(aabb, enabled, body, cat, col, center, extents, depth):
    """Candidate pairs (k, 2): each box is tested against the boxes of its own
    block and of every ancestor block (blocks that do not nest are disjoint,
    so boxes in them cannot touch)."""
    n = aabb.shape[0]
    node = quadtree_nodes(aabb, enabled, center, extents, depth)
    order = np.argsort(node, kind="mergesort")
    sorted_nodes = node[order]
    out = np.empty((64, 2), dtype=np.int64)
    k = 0
    for i in range(n):
        if node[i] < 0:
            continue
        # recover (d, ix, iy) of i's block
        d = 0
        while d < depth and node[i] >= _node_offset(d + 1):
            d += 1
        rel = node[i] - _node_offset(d)
        ix = rel % (np.int64(1) << np.int64(d))
        iy = rel // (np.int64(1) << np.int64(d))
        for up in range(d + 1):
            da = d - up
            anc = _node_offset(da) + (iy >> up) * (np.int64(1) << np.int64(da)) + (ix >> up)
            t = np.searchsorted(sorted_nodes, anc)
            while t < n and sorted_nodes[t] == anc:
                j = order[t]
                t += 1
                if j == i or (up == 0 and j < i):
                    continue
                if _overlap(aabb, i, aabb, j) and _may_pair(i, j, enabled, body, cat, col):
                    out = _push(out, k, i, j)
                    k += 1
    return _sorted_unique(out, k, n)


class QuadTreeSpace(Space):
    """ODE's quadtree space over the x/y plane: ``center`` (3,) and
    ``extents`` (3,) half sizes in m, ``depth`` levels of subdivision."""

    CLASS = dQuadTreeSpaceClass
    NAME = "quadtree space"
    CREATOR = "dQuadTreeSpaceCreate"
    __slots__ = ("center", "extents", "depth")

    def __init__(self, space, center: np.ndarray, extents: np.ndarray, depth: int) -> None:
        self.center = center
        self.extents = extents
        self.depth = depth
        super().__init__(space)

    def pairs_of(self, ga: GeomArrays) -> np.ndarray:
        """(k, 2) indices into ``ga.geoms`` of every pair to report, sorted."""
        return quadtree_pairs(*ga.broad(), self.center, self.extents, self.depth)


# ----------------------------------------------------------------------------- sweep and prune
@njit(cache=True, nogil=True)
def sap_pairs(aabb, enabled, body, cat, col, axis0, axis1, axis2):
    """Candidate pairs (k, 2) by sweep and prune: enabled boxes sorted by their
    minimum on ``axis0``; an active list holds the boxes whose interval on
    that axis is still open; each new box is checked on ``axis1`` and
    ``axis2`` against the active ones."""
    n = aabb.shape[0]
    lo0 = 2 * axis0
    ids = np.empty(n, dtype=np.int64)
    m = 0
    for i in range(n):
        # disabled boxes and boxes with NaN bounds never pair
        if enabled[i] and not (math.isnan(aabb[i, lo0]) or math.isnan(aabb[i, lo0 + 1])):
            ids[m] = i
            m += 1
    ids = ids[:m]
    keys = np.empty(m)
    for s in range(m):
        keys[s] = aabb[ids[s], lo0]
    ids = ids[np.argsort(keys, kind="mergesort")]
    active = np.empty(m, dtype=np.int64)
    na = 0
    out = np.empty((64, 2), dtype=np.int64)
    k = 0
    for s in range(m):
        i = ids[s]
        start = aabb[i, lo0]
        # drop the boxes that ended before this one starts
        w = 0
        for a in range(na):
            if aabb[active[a], lo0 + 1] >= start:
                active[w] = active[a]
                w += 1
        na = w
        for a in range(na):
            j = active[a]
            if (aabb[i, 2 * axis1] > aabb[j, 2 * axis1 + 1]
                    or aabb[i, 2 * axis1 + 1] < aabb[j, 2 * axis1]
                    or aabb[i, 2 * axis2] > aabb[j, 2 * axis2 + 1]
                    or aabb[i, 2 * axis2 + 1] < aabb[j, 2 * axis2]):
                continue
            if _overlap(aabb, i, aabb, j) and _may_pair(i, j, enabled, body, cat, col):
                out = _push(out, k, i, j)
                k += 1
        active[na] = i
        na += 1
    return _sorted_unique(out, k, n)


_SAP_ORDERS = (dSAP_AXES_XYZ, dSAP_AXES_XZY, dSAP_AXES_YXZ, dSAP_AXES_YZX, dSAP_AXES_ZXY,
               dSAP_AXES_ZYX)


class SweepAndPruneSpace(Space):
    """ODE's sweep-and-prune space; ``axes`` (3,) is the axis order decoded
    from a dSAP_AXES_* constant (sorted on the first)."""

    CLASS = dSweepAndPruneSpaceClass
    NAME = "sweep and prune space"
    CREATOR = "dSweepAndPruneSpaceCreate"
    __slots__ = ("axes",)

    def __init__(self, space, axisorder: int) -> None:
        self.axes = (axisorder & 3, (axisorder >> 2) & 3, (axisorder >> 4) & 3)
        super().__init__(space)

    def pairs_of(self, ga: GeomArrays) -> np.ndarray:
        """(k, 2) indices into ``ga.geoms`` of every pair to report, sorted."""
        return sap_pairs(*ga.broad(), *self.axes)


# ----------------------------------------------------------------------------- API
def dHashSpaceCreate(space) -> HashSpace:
    """A hash space inside ``space`` (None: top level), levels -3..10."""
    return HashSpace(space)


def dHashSpaceSetLevels(space, minlevel: int, maxlevel: int) -> None:
    """Cell sizes 2**minlevel .. 2**maxlevel m; boxes larger than the top
    level are tested against all the others."""
    fn = "dHashSpaceSetLevels"
    s = _hash_space(space, fn)
    lo = checks.integer(minlevel, fn, "minlevel")
    hi = checks.integer(maxlevel, fn, "maxlevel")
    if lo > hi:
        raise ODEError(fn, "minlevel", f"must be <= maxlevel, got {lo} > {hi}")
    if not -1000 <= lo <= 1000 or not -1000 <= hi <= 1000:
        raise ODEError(fn, "minlevel, maxlevel", "levels must lie in -1000..1000")
    s.minlevel, s.maxlevel = lo, hi


def dHashSpaceGetLevels(space) -> tuple[int, int]:
    """(minlevel, maxlevel)."""
    s = _hash_space(space, "dHashSpaceGetLevels")
    return s.minlevel, s.maxlevel


def _hash_space(space, function: str) -> HashSpace:
    s = space_of(space, function)
    if not isinstance(s, HashSpace):
        raise ODEError(function, "space", f"must be a hash space, got {s!r}")
    return s


def _vec3(v, function: str, argument: str) -> np.ndarray:
    a = np.asarray(v, dtype=float).ravel() if v is not None else None
    if a is not None and a.shape == (4,):
        a = a[:3]  # a padded dVector3
    return checks.vector(a, 3, function, argument)


def dQuadTreeSpaceCreate(space, center, extents, depth: int) -> QuadTreeSpace:
    """A quadtree space over x/y: ``center`` (3,) and ``extents`` (3,) half
    sizes in m (z is ignored), ``depth`` >= 0 subdivisions (at most 20)."""
    fn = "dQuadTreeSpaceCreate"
    c = _vec3(center, fn, "center")
    e = _vec3(extents, fn, "extents")
    if np.any(e < 0):
        raise ODEError(fn, "extents", f"must be >= 0, got {e}")
    d = checks.integer(depth, fn, "depth")
    if not 0 <= d <= QUADTREE_MAX_DEPTH:
        raise ODEError(fn, "depth", f"must lie in 0..{QUADTREE_MAX_DEPTH}, got {d}")
    return QuadTreeSpace(space, c, e, d)


def dSweepAndPruneSpaceCreate(space, axisorder: int) -> SweepAndPruneSpace:
    """A sweep-and-prune space; ``axisorder`` is one of the dSAP_AXES_* constants."""
    fn = "dSweepAndPruneSpaceCreate"
    order = checks.integer(axisorder, fn, "axisorder")
    if order not in _SAP_ORDERS:
        raise ODEError(fn, "axisorder", f"must be a dSAP_AXES_* constant, got {order}")
    return SweepAndPruneSpace(space, order)
