"""The sweeps that find every candidate pair of a list of boxes.

:func:`overlapping_pairs` is the plain reference sweep; :func:`sweep_pairs`
(the simple and hash spaces' broad phase) finds the same pairs faster. Both
return ``(k, 2)`` int64 rows ``(i, j)``, i < j, sorted by (i, j): the simple
space's order. Rules and array layouts: :mod:`.pair_rules`.

:func:`sweep_pairs` splits the enabled boxes in three:

* *big* boxes (a non-finite bound: planes, NaN) are tested against every box;
* *large* boxes (finite, wider than the column size ``h`` across the sweep
  axis, when they are few) likewise;
* the others are swept in *columns*: the plane across the sweep axis is cut
  into squares of side ``h`` and each box goes into every column its bounds
  cross (at most 2 x 2 since it is no wider than ``h``); within a column the
  boxes are taken by increasing minimum along the sweep axis and each is
  compared with the following ones until their minimum passes its maximum.
  A pair sharing several columns is kept only in the column holding the
  corner of its overlap (the larger of the two minima on each cross axis),
  so it is reported once.

When the boxes are too spread out for integer column indices, the finite
ones are swept together (:func:`_plain_sweep`), as the columns do with one
column.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from engine.ode.collision.spaces.pair_rules import (
    _may_pair,
    _overlap,
    may_pair_values,
    sorted_by_first,
)

#: A column index must stay below this (2**30) on each cross axis; beyond it
#: the finite boxes are swept in one column.
MAX_COLUMNS_PER_AXIS = 1 << 30
#: Column side = this times the mean width of the boxes across the sweep axis.
COLUMN_SIDE_FACTOR = 2.0


@njit(cache=True, nogil=True)
def overlapping_pairs(aabb, enabled, body, cat, col):
    """Candidate pairs among n boxes, (k, 2) int64, sorted by (i, j).

    aabb (n, 6) [minx, maxx, miny, maxy, minz, maxz]; enabled (n,) bool;
    body (n,) id of the geom's body or -1; cat, col (n,) uint64 bits.
    Sort-and-sweep along x: boxes sorted by min x; each is compared with the
    following ones until their min x passes its max x.
    """
    n = aabb.shape[0]
    order = np.argsort(aabb[:, 0], kind="mergesort")
    cap = 64
    out = np.empty((cap, 2), dtype=np.int64)
    k = 0
    for s in range(n):
        i = order[s]
        if not enabled[i]:
            continue
        xmax = aabb[i, 1]
        for t in range(s + 1, n):
            j = order[t]
            if aabb[j, 0] > xmax:
                break
            if not _overlap(aabb, i, aabb, j) or not _may_pair(i, j, enabled, body, cat, col):
                continue
            if k == cap:
                bigger = np.empty((2 * cap, 2), dtype=np.int64)
                bigger[:cap] = out
                out = bigger
                cap *= 2
            if i < j:
                out[k, 0] = i
                out[k, 1] = j
            else:
                out[k, 0] = j
                out[k, 1] = i
            k += 1
    out = out[:k]
    keys = out[:, 0] * n + out[:, 1]
    return out[np.argsort(keys, kind="mergesort")]


@njit(cache=True, nogil=True)
def _sweep_axis(aabb, fin, nf) -> int:
    """The axis (0..2) along which the centres of boxes ``fin[:nf]`` spread most."""
    lo = np.full(3, math.inf)
    hi = np.full(3, -math.inf)
    for s in range(nf):
        i = fin[s]
        for a in range(3):
            m = aabb[i, 2 * a] + aabb[i, 2 * a + 1]
            lo[a] = min(lo[a], m)
            hi[a] = max(hi[a], m)
    axis = 0
    for a in range(1, 3):
        if hi[a] - lo[a] > hi[axis] - lo[axis]:
            axis = a
    return axis


@njit(cache=True, nogil=True)
def _bounds_in_order(aabb, order, axis):
    """(m, 6) bounds of boxes ``order`` (m,) as [lo, hi] on ``axis`` then on the
    two following axes (cyclically): one row per box, read in sequence by the
    sweeps."""
    m = order.shape[0]
    b1 = (axis + 1) % 3
    b2 = (axis + 2) % 3
    b = np.empty((m, 6))
    for s in range(m):
        i = order[s]
        b[s, 0] = aabb[i, 2 * axis]
        b[s, 1] = aabb[i, 2 * axis + 1]
        b[s, 2] = aabb[i, 2 * b1]
        b[s, 3] = aabb[i, 2 * b1 + 1]
        b[s, 4] = aabb[i, 2 * b2]
        b[s, 5] = aabb[i, 2 * b2 + 1]
    return b


@njit(cache=True, nogil=True)
def _plain_sweep(b, order, enabled, body, cat, col, out, k):
    """Pairs among all boxes ``order`` (bounds ``b`` from :func:`_bounds_in_order`,
    rows sorted by minimum on the sweep axis) appended to ``out`` from row k
    (those beyond its end counted, not written: :func:`_all_pairs`); returns
    the new k."""
    m = order.shape[0]
    for s in range(m):
        top = b[s, 1]
        l0 = b[s, 0]
        l1 = b[s, 2]
        h1 = b[s, 3]
        l2 = b[s, 4]
        h2 = b[s, 5]
        for t in range(s + 1, m):
            if b[t, 0] > top:
                break
            if l1 > b[t, 3] or h1 < b[t, 2] or l2 > b[t, 5] or h2 < b[t, 4] or l0 > b[t, 1]:
                continue
            i = order[s]
            j = order[t]
            if may_pair_values(enabled[i], enabled[j], body[i], body[j], cat[i], col[i], cat[j],
                               col[j]):
                if k < out.shape[0]:
                    out[k, 0] = min(i, j)
                    out[k, 1] = max(i, j)
                k += 1
    return k


@njit(cache=True, nogil=True)
def _column_of(x, origin, h) -> np.int64:
    """Index of the column slab holding coordinate ``x`` (m): floor((x - origin) / h),
    non-decreasing in x."""
    return np.int64(math.floor((x - origin) / h))


@njit(cache=True, nogil=True)
def _column_sweep(b, order, h, enabled, body, cat, col, out, k):
    """Pairs among boxes ``order`` (bounds ``b`` of :func:`_bounds_in_order`, rows
    sorted by minimum on the sweep axis, none wider than ``h`` m across it),
    swept column by column (see the module docstring), appended to ``out``
    from row k (those beyond its end counted, not written: :func:`_all_pairs`);
    returns the new k, or -1 when the column indices would not fit (boxes too
    spread out for ``h``)."""
    m = order.shape[0]
    o1 = math.inf
    o2 = math.inf
    e1 = -math.inf
    e2 = -math.inf
    for s in range(m):
        o1 = min(o1, b[s, 2])
        o2 = min(o2, b[s, 4])
        e1 = max(e1, b[s, 3])
        e2 = max(e2, b[s, 5])
    if (e1 - o1) / h >= MAX_COLUMNS_PER_AXIS or (e2 - o2) / h >= MAX_COLUMNS_PER_AXIS:
        return -1
    # columns of each box: [c1a, c1b] x [c2a, c2b]
    cols = np.empty((m, 4), dtype=np.int64)
    total = 0
    for s in range(m):
        cols[s, 0] = _column_of(b[s, 2], o1, h)
        cols[s, 1] = _column_of(b[s, 3], o1, h)
        cols[s, 2] = _column_of(b[s, 4], o2, h)
        cols[s, 3] = _column_of(b[s, 5], o2, h)
        total += (cols[s, 1] - cols[s, 0] + 1) * (cols[s, 3] - cols[s, 2] + 1)
    # dense ids of the columns in use: open-addressing hash of (c1, c2)
    bits = 4
    while (1 << bits) < 2 * total:
        bits += 1
    size = 1 << bits
    mask = size - 1
    slot_key = np.full(size, -1, dtype=np.int64)
    slot_id = np.empty(size, dtype=np.int64)
    ncol = 0
    entry_col = np.empty(total, dtype=np.int64)
    entry_box = np.empty(total, dtype=np.int64)
    col_c1 = np.empty(total, dtype=np.int64)
    col_c2 = np.empty(total, dtype=np.int64)
    e = 0
    for s in range(m):
        for c1 in range(cols[s, 0], cols[s, 1] + 1):
            for c2 in range(cols[s, 2], cols[s, 3] + 1):
                key = c1 * MAX_COLUMNS_PER_AXIS + c2
                # Fibonacci hashing: the top bits of key * 2**64 / phi
                slot = np.int64((np.uint64(key) * np.uint64(0x9E3779B97F4A7C15))
                                >> np.uint64(64 - bits))
                while slot_key[slot] != -1 and slot_key[slot] != key:
                    slot = (slot + 1) & mask
                if slot_key[slot] == -1:
                    slot_key[slot] = key
                    slot_id[slot] = ncol
                    col_c1[ncol] = c1
                    col_c2[ncol] = c2
                    ncol += 1
                entry_col[e] = slot_id[slot]
                entry_box[e] = s
                e += 1
    # entries grouped by column, each column's run in sweep order (s increasing)
    start = np.zeros(ncol + 1, dtype=np.int64)
    for t in range(total):
        start[entry_col[t] + 1] += 1
    for c in range(ncol):
        start[c + 1] += start[c]
    fill = start[:ncol].copy()
    run = np.empty(total, dtype=np.int64)
    for t in range(total):
        c = entry_col[t]
        run[fill[c]] = entry_box[t]
        fill[c] += 1
    # the bounds and first columns of the entries in column order: the sweeps
    # below read them in sequence
    eb = np.empty((total, 6))
    ec = np.empty((total, 2), dtype=np.int64)
    for u in range(total):
        s = run[u]
        for q in range(6):
            eb[u, q] = b[s, q]
        ec[u, 0] = cols[s, 0]
        ec[u, 1] = cols[s, 2]
    for c in range(ncol):
        c1 = col_c1[c]
        c2 = col_c2[c]
        end = start[c + 1]
        for u in range(start[c], end):
            top = eb[u, 1]
            l0 = eb[u, 0]
            l1 = eb[u, 2]
            h1 = eb[u, 3]
            l2 = eb[u, 4]
            h2 = eb[u, 5]
            for v in range(u + 1, end):
                if eb[v, 0] > top:
                    break
                if l1 > eb[v, 3] or h1 < eb[v, 2] or l2 > eb[v, 5] or h2 < eb[v, 4] \
                        or l0 > eb[v, 1]:
                    continue
                # the pair's own column: the one holding the corner of its overlap,
                # max(lo_s, lo_t) on each cross axis; _column_of is non-decreasing,
                # so that column is the larger of the two first columns
                if max(ec[u, 0], ec[v, 0]) != c1 or max(ec[u, 1], ec[v, 1]) != c2:
                    continue
                i = order[run[u]]
                j = order[run[v]]
                if may_pair_values(enabled[i], enabled[j], body[i], body[j], cat[i], col[i],
                                   cat[j], col[j]):
                    if k < out.shape[0]:
                        out[k, 0] = min(i, j)
                        out[k, 1] = max(i, j)
                    k += 1
    return k


@njit(cache=True, nogil=True)
def sweep_pairs(aabb, enabled, body, cat, col):
    """The pairs of :func:`overlapping_pairs` (same rules, same (k, 2) sorted
    output), found faster: big and large boxes against every box, the others
    swept in columns along the axis on which their centres spread most (see
    the module docstring)."""
    n = aabb.shape[0]
    fin = np.empty(n, dtype=np.int64)
    isbig = np.zeros(n, dtype=np.bool_)
    nf = 0
    for i in range(n):
        if not enabled[i]:
            continue
        finite = True
        for c in range(6):
            if not math.isfinite(aabb[i, c]):
                finite = False
        if finite:
            fin[nf] = i
            nf += 1
        else:
            isbig[i] = True
    axis = _sweep_axis(aabb, fin, nf)
    b1 = (axis + 1) % 3
    b2 = (axis + 2) % 3
    # column side: a multiple of the mean width across the sweep axis; the few
    # boxes wider than that join the big ones
    width = np.empty(nf)
    mean = 0.0
    for s in range(nf):
        i = fin[s]
        width[s] = max(aabb[i, 2 * b1 + 1] - aabb[i, 2 * b1], aabb[i, 2 * b2 + 1] - aabb[i, 2 * b2])
        mean += width[s]
    h = COLUMN_SIDE_FACTOR * mean / max(nf, 1)
    nlarge = 0
    for s in range(nf):
        if width[s] > h:
            nlarge += 1
    if nlarge > 8 + nf // 64:
        # many wide boxes: no column cut, one sweep of them all
        h = math.inf
    elif nlarge:
        w = 0
        for s in range(nf):
            if width[s] > h:
                isbig[fin[s]] = True
            else:
                fin[w] = fin[s]
                w += 1
        nf = w
    keys = np.empty(nf)
    for s in range(nf):
        keys[s] = aabb[fin[s], 2 * axis]
    order = fin[:nf][np.argsort(keys, kind="mergesort")]
    b = _bounds_in_order(aabb, order, axis)
    out = np.empty((4 * n + 64, 2), dtype=np.int64)
    k = _all_pairs(aabb, isbig, b, order, h, enabled, body, cat, col, out)
    if k > out.shape[0]:
        # more pairs than rows: once more into a list of exactly their number
        out = np.empty((k, 2), dtype=np.int64)
        k = _all_pairs(aabb, isbig, b, order, h, enabled, body, cat, col, out)
    return sorted_by_first(out, k, n)


@njit(cache=True, nogil=True)
def _all_pairs(aabb, isbig, b, order, h, enabled, body, cat, col, out) -> int:
    """The pairs of :func:`sweep_pairs` (unsorted) into ``out`` from row 0: the
    boxes ``order`` (bounds ``b``) swept in columns of ``h`` m (or in one
    sweep), then the boxes ``isbig`` against every box. Returns their number,
    which may exceed the rows of ``out`` (the rest were counted, not written).

    The sweeps write a pair only while there is a row for it and count the
    rest, and :func:`sweep_pairs` runs them again with room for all: a list
    grown inside the loops (or a helper taking it, inlined by numba) would be
    a variable numba counts references to at every pair found."""
    k = -1
    if h > 0.0 and math.isfinite(h):
        k = _column_sweep(b, order, h, enabled, body, cat, col, out, 0)
    if k < 0:
        k = _plain_sweep(b, order, enabled, body, cat, col, out, 0)
    # big and large boxes against every enabled box (two of them: once); box
    # i's values in locals, the test written out (no array-taking helper in
    # the inner loop: see may_pair_values)
    n = aabb.shape[0]
    for i in range(n):
        if not isbig[i]:
            continue
        lo0, hi0, lo1, hi1, lo2, hi2 = (aabb[i, 0], aabb[i, 1], aabb[i, 2], aabb[i, 3],
                                        aabb[i, 4], aabb[i, 5])
        body_i = body[i]
        cat_i = cat[i]
        col_i = col[i]
        for j in range(n):
            if j == i or not enabled[j] or (isbig[j] and j < i):
                continue
            # overlap or touch (a NaN bound never separates)
            if (lo0 > aabb[j, 1] or hi0 < aabb[j, 0] or lo1 > aabb[j, 3] or hi1 < aabb[j, 2]
                    or lo2 > aabb[j, 5] or hi2 < aabb[j, 4]):
                continue
            if may_pair_values(True, True, body_i, body[j], cat_i, col_i, cat[j], col[j]):
                if k < out.shape[0]:
                    out[k, 0] = min(i, j)
                    out[k, 1] = max(i, j)
                k += 1
    return k
