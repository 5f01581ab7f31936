"""Compiled broad phase: every pair of boxes that overlap and may collide.

ODE's rules for a candidate pair (i, j): both enabled, not on the same body,
category/collide bits match one way or the other, AABBs overlap (touching
counts). Pairs are returned in the simple space's order: i before j in list
order, sorted by (i, j).
"""

from __future__ import annotations

import numpy as np
from numba import njit


@njit(cache=True, nogil=True)
def _may_pair(i, j, enabled, body, cat, col) -> bool:
    if not enabled[i] or not enabled[j]:
        return False
    if body[i] >= 0 and body[i] == body[j]:
        return False
    return (cat[i] & col[j]) != 0 or (cat[j] & col[i]) != 0


@njit(cache=True, nogil=True)
def _overlap(a, i, b, j) -> bool:
    return not (a[i, 0] > b[j, 1] or a[i, 1] < b[j, 0] or a[i, 2] > b[j, 3]
                or a[i, 3] < b[j, 2] or a[i, 4] > b[j, 5] or a[i, 5] < b[j, 4])


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
def overlapping_with(aabb, enabled, body, cat, col, box, g_enabled, g_body, g_cat, g_col):
    """Indices of the n boxes that may pair with one extra geom (its ``box``,
    flags, body and bits given separately), in list order."""
    n = aabb.shape[0]
    out = np.empty(n, dtype=np.int64)
    k = 0
    # as ODE, the extra geom's own enabled flag is not consulted (g_enabled is kept
    # in the signature for callers that want to filter it themselves)
    for i in range(n):
        if not enabled[i]:
            continue
        if body[i] >= 0 and body[i] == g_body:
            continue
        if (cat[i] & g_col) == 0 and (g_cat & col[i]) == 0:
            continue
        if (aabb[i, 0] > box[1] or aabb[i, 1] < box[0] or aabb[i, 2] > box[3]
                or aabb[i, 3] < box[2] or aabb[i, 4] > box[5] or aabb[i, 5] < box[4]):
            continue
        out[k] = i
        k += 1
    return out[:k]
