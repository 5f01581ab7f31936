"""ODE's rules for a candidate pair and the pair lists the broad phases build.

A pair (i, j) of boxes is a candidate when both are enabled, they are not on
the same body, the category/collide bits match one way or the other, and
their AABBs overlap (touching counts). AABBs are ``(n, 6)`` arrays
``[minx, maxx, miny, maxy, minz, maxz]`` in metres; bodies are keys (-1:
none); bits are uint64. Pair lists are ``(k, 2)`` int64 rows ``(min, max)``.
"""

from __future__ import annotations

import numpy as np
from numba import njit


@njit(cache=True, nogil=True, inline="always")
def may_pair_values(enabled_i, enabled_j, body_i, body_j, cat_i, col_i, cat_j, col_j) -> bool:
    """The pair rule on the two boxes' values: both enabled, not on one body
    (keys; -1 none), bits (uint64) matching one way or the other.

    Scalars only: a helper that took the arrays, inlined by numba
    (``inline="always"``) into a sweep's inner loop, made numba count
    references to each array at every candidate (two atomic operations per
    array), which cost more than the test itself."""
    if not enabled_i or not enabled_j:
        return False
    if body_i >= 0 and body_i == body_j:
        return False
    return (cat_i & col_j) != 0 or (cat_j & col_i) != 0


@njit(cache=True, nogil=True)
def _may_pair(i, j, enabled, body, cat, col) -> bool:
    """Enabled, not on one body, bits matching one way or the other
    (:func:`may_pair_values` of boxes i and j)."""
    return may_pair_values(enabled[i], enabled[j], body[i], body[j], cat[i], col[i], cat[j],
                           col[j])


@njit(cache=True, nogil=True)
def _overlap(a, i, b, j) -> bool:
    """Boxes a[i] and b[j] overlap or touch (a NaN bound never separates)."""
    return not (a[i, 0] > b[j, 1] or a[i, 1] < b[j, 0] or a[i, 2] > b[j, 3]
                or a[i, 3] < b[j, 2] or a[i, 4] > b[j, 5] or a[i, 5] < b[j, 4])


@njit(cache=True, nogil=True)
def sorted_by_first(out, k, n):
    """The first ``k`` rows of ``out`` (distinct pairs (i, j), i < j < n), sorted
    by (i, j): counted into runs by i, each run kept sorted on j by insertion
    (runs are short: the few neighbours of one box). Returns (k, 2) int64."""
    start = np.zeros(n + 1, dtype=np.int64)
    for r in range(k):
        start[out[r, 0] + 1] += 1
    for i in range(n):
        start[i + 1] += start[i]
    fill = start[:n].copy()     # next free row of each run
    res = np.empty((k, 2), dtype=np.int64)
    for r in range(k):
        i = out[r, 0]
        j = out[r, 1]
        q = fill[i]
        fill[i] = q + 1
        res[q, 0] = i
        first = start[i]
        while q > first and res[q - 1, 1] > j:
            res[q, 1] = res[q - 1, 1]
            q -= 1
        res[q, 1] = j
    return res
