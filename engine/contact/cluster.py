"""Contact clustering: k-means reduction of a pair's contacts (Klamp't's rule).

When a pair of geoms yields more contacts than its budget ``k`` (maxContacts,
20 by default), the contacts are reduced by k-means instead of being
truncated. Each contact is the 7-D feature ``[x, y, z, s·nx, s·ny, s·nz,
depth]`` (``s`` = ``normal_scale``, 0.1 by default), so contacts group by
place first and by normal direction and depth second. The start is
deterministic, by one of two rules (:data:`START_RULES`):

- ``"stride"``, Klamp't's: centre ``i`` is the feature of contact
  ``(i·n) // k``. On contacts listed row by row (a grid under a flat face,
  as a mesh floor gives them) it starts all centres on the first row, and
  the k-means settles with one cluster per column: the face keeps its
  contacts on one line and loses its support across it;
- ``"farthest"`` (the default, our choice for that reason): centre 0 is
  contact 0, each next centre the contact farthest (in features) from the
  centres so far, ties to the lower index. It starts at the extremes of the
  set (the corners of a face) and keeps them.

A fixed
number of Lloyd iterations follows (each point goes to its nearest centre,
ties to the lower centre index; each centre moves to the mean of its
members; an empty cluster keeps its centre; the loop stops early once the
assignment no longer changes, which gives the same result). Each non-empty
cluster becomes one contact: the mean position, the mean normal
renormalised (the first member's normal when the mean is about zero) and the
mean depth. Empty clusters are dropped, so at most ``k`` contacts come out.

Large sets (``n·k > 5000`` and ``n² > 2000``) run the iterations on an evenly
strided subsample of ``max(5000 // k, 45, k)`` contacts taken over the whole
set (contact ``(i·n) // m`` for ``i < m``; Klamp't's own stride formula only
samples the start of the set; the start rules then pick from the sample's
rows), then assign every contact to the final
centres and average over all members, so the ``size`` of the outputs sums to
``n``. The ``k`` in the sample size (our addition) keeps a large budget from
having fewer sample points than centres.

All sums run in index order in one thread: the same inputs give the same
bits.
"""

from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np
from numba import njit

#: weight of the normal in the 7-D clustering features (Klamp't's clusterNormalScale)
DEFAULT_NORMAL_SCALE = 0.1
#: Lloyd iterations of the k-means (Klamp't's value)
DEFAULT_ITERATIONS = 20
#: subsampling starts when n·k exceeds this ...
_SUBSAMPLE_WORK = 5000
#: ... and n² exceeds this
_SUBSAMPLE_PAIRS = 2000
#: the fewest contacts a subsample keeps (ceil(sqrt(2000)))
_SUBSAMPLE_MIN = 45
#: a mean normal shorter than this is "about zero"
_ZERO_NORMAL = 1e-12
_FEATURES = 7
_START_STRIDE = 0
_START_FARTHEST = 1
#: the start rules of the k-means, by name (module docstring)
START_RULES = {"stride": _START_STRIDE, "farthest": _START_FARTHEST}
DEFAULT_START = "farthest"


class ClusteredContacts(NamedTuple):
    """Contacts after clustering (m <= k of them, or the n inputs unchanged).

    pos: (m, 3) float64, contact points (m); normal: (m, 3) float64, unit
    normals; depth: (m,) float64, depths (m); size: (m,) int64, how many input
    contacts each output contact stands for (sums to n); member: (n,) int64,
    the output index of each input contact.
    """

    pos: np.ndarray
    normal: np.ndarray
    depth: np.ndarray
    size: np.ndarray
    member: np.ndarray


@njit(cache=True, nogil=True)
def _features(pos, normal, depth, normal_scale):
    """(n, 7) features [x, y, z, s·n, depth] of the contacts."""
    n = pos.shape[0]
    f = np.empty((n, _FEATURES))
    for i in range(n):
        for c in range(3):
            f[i, c] = pos[i, c]
            f[i, 3 + c] = normal_scale * normal[i, c]
        f[i, 6] = depth[i]
    return f


@njit(cache=True, nogil=True)
def _assign(f, centres, label) -> bool:
    """Label each row of ``f`` with its nearest centre (ties: lower index);
    True when some label changed."""
    changed = False
    for i in range(f.shape[0]):
        best = -1
        best_d = 0.0
        for c in range(centres.shape[0]):
            d = 0.0
            for j in range(_FEATURES):
                diff = f[i, j] - centres[c, j]
                d += diff * diff
            if best < 0 or d < best_d:
                best = c
                best_d = d
        if label[i] != best:
            label[i] = best
            changed = True
    return changed


@njit(cache=True, nogil=True)
def _update(f, label, centres) -> None:
    """Move each centre to the mean of its members (empty: unchanged)."""
    k = centres.shape[0]
    sums = np.zeros((k, _FEATURES))
    counts = np.zeros(k, dtype=np.int64)
    for i in range(f.shape[0]):
        c = label[i]
        counts[c] += 1
        for j in range(_FEATURES):
            sums[c, j] += f[i, j]
    for c in range(k):
        if counts[c] > 0:
            for j in range(_FEATURES):
                centres[c, j] = sums[c, j] / counts[c]


@njit(cache=True, nogil=True)
def _sample_rows(n, k):
    """Rows of the k-means sample: all n, or an even stride over the set."""
    if n * k > _SUBSAMPLE_WORK and n * n > _SUBSAMPLE_PAIRS:
        m = max(_SUBSAMPLE_WORK // k, _SUBSAMPLE_MIN, k)
        if m < n:
            rows = np.empty(m, dtype=np.int64)
            for i in range(m):
                rows[i] = (i * n) // m
            return rows
    return np.arange(n)


@njit(cache=True, nogil=True)
def _summarise(pos, normal, depth, label, k):
    """One contact per non-empty cluster: mean position, renormalised mean
    normal (first member's if about zero), mean depth; clusters in index order."""
    n = pos.shape[0]
    counts = np.zeros(k, dtype=np.int64)
    first = np.full(k, -1, dtype=np.int64)
    psum = np.zeros((k, 3))
    nsum = np.zeros((k, 3))
    dsum = np.zeros(k)
    for i in range(n):
        c = label[i]
        if counts[c] == 0:
            first[c] = i
        counts[c] += 1
        for j in range(3):
            psum[c, j] += pos[i, j]
            nsum[c, j] += normal[i, j]
        dsum[c] += depth[i]
    index = np.full(k, -1, dtype=np.int64)
    m = 0
    for c in range(k):
        if counts[c] > 0:
            index[c] = m
            m += 1
    out_pos = np.empty((m, 3))
    out_normal = np.empty((m, 3))
    out_depth = np.empty(m)
    size = np.empty(m, dtype=np.int64)
    for c in range(k):
        o = index[c]
        if o < 0:
            continue
        cnt = counts[c]
        size[o] = cnt
        for j in range(3):
            out_pos[o, j] = psum[c, j] / cnt
        out_depth[o] = dsum[c] / cnt
        mx = nsum[c, 0] / cnt
        my = nsum[c, 1] / cnt
        mz = nsum[c, 2] / cnt
        length = math.sqrt(mx * mx + my * my + mz * mz)
        if length > _ZERO_NORMAL:
            out_normal[o, 0] = mx / length
            out_normal[o, 1] = my / length
            out_normal[o, 2] = mz / length
        else:
            for j in range(3):
                out_normal[o, j] = normal[first[c], j]
    member = np.empty(n, dtype=np.int64)
    for i in range(n):
        member[i] = index[label[i]]
    return out_pos, out_normal, out_depth, size, member


@njit(cache=True, nogil=True)
def _stride_start(sample, k):
    """Klamp't's start: centre i is sample row (i·m) // k."""
    m = sample.shape[0]
    centres = np.empty((k, _FEATURES))
    for c in range(k):
        centres[c] = sample[(c * m) // k]
    return centres


@njit(cache=True, nogil=True)
def _farthest_start(sample, k):
    """Farthest-point start: centre 0 is sample row 0, each next centre the
    row farthest from the centres so far (ties: the lower row)."""
    m = sample.shape[0]
    centres = np.empty((k, _FEATURES))
    nearest = np.full(m, np.inf)
    row = 0
    for c in range(k):
        centres[c] = sample[row]
        best = -1.0
        for i in range(m):
            d = 0.0
            for j in range(_FEATURES):
                diff = sample[i, j] - centres[c, j]
                d += diff * diff
            if d < nearest[i]:
                nearest[i] = d
            if nearest[i] > best:
                best = nearest[i]
                row = i
    return centres


@njit(cache=True, nogil=True)
def cluster_kernel(pos, normal, depth, k, normal_scale, iterations, start):
    """k-means reduction of n > k contacts to at most k (module docstring).

    pos (n, 3), normal (n, 3), depth (n,) float64; k >= 1; start: 0 for the
    stride start, 1 for the farthest-point start (:data:`START_RULES`);
    returns the arrays of :class:`ClusteredContacts` as a plain tuple.
    """
    n = pos.shape[0]
    f = _features(pos, normal, depth, normal_scale)
    sample = f[_sample_rows(n, k)]
    if start == _START_FARTHEST:
        centres = _farthest_start(sample, k)
    else:
        centres = _stride_start(sample, k)
    label = np.full(sample.shape[0], -1, dtype=np.int64)
    for _ in range(iterations):
        if not _assign(sample, centres, label):
            break
        _update(sample, label, centres)
    full_label = np.full(n, -1, dtype=np.int64)
    _assign(f, centres, full_label)
    return _summarise(pos, normal, depth, full_label, k)


def cluster_contacts(pos: np.ndarray, normal: np.ndarray, depth: np.ndarray, k: int,
                     normal_scale: float = DEFAULT_NORMAL_SCALE,
                     iterations: int = DEFAULT_ITERATIONS,
                     start: str = DEFAULT_START) -> ClusteredContacts:
    """Reduce n contacts to at most ``k`` by deterministic k-means.

    pos: (n, 3) contact points (m); normal: (n, 3) unit normals; depth: (n,)
    depths (m); k: the budget (>= 1); normal_scale: weight of the normal in
    the features (dimensionless); iterations: Lloyd iterations (>= 0);
    start: the start rule, a key of :data:`START_RULES`.
    With n <= k the contacts come back unchanged (size 1 each).
    """
    pos = np.ascontiguousarray(pos, dtype=np.float64)
    normal = np.ascontiguousarray(normal, dtype=np.float64)
    depth = np.ascontiguousarray(depth, dtype=np.float64)
    n = pos.shape[0]
    if pos.shape != (n, 3) or normal.shape != (n, 3) or depth.shape != (n,):
        raise ValueError(f"cluster_contacts: expected pos (n, 3), normal (n, 3), depth (n,); "
                         f"got {pos.shape}, {normal.shape}, {depth.shape}")
    if int(k) < 1:
        raise ValueError(f"cluster_contacts: k must be >= 1, got {k}")
    if int(iterations) < 0:
        raise ValueError(f"cluster_contacts: iterations must be >= 0, got {iterations}")
    if start not in START_RULES:
        raise ValueError(f"cluster_contacts: start must be one of {sorted(START_RULES)}, "
                         f"got {start!r}")
    if n <= k:
        return ClusteredContacts(pos.copy(), normal.copy(), depth.copy(),
                                 np.ones(n, dtype=np.int64), np.arange(n, dtype=np.int64))
    return ClusteredContacts(*cluster_kernel(pos, normal, depth, int(k), float(normal_scale),
                                             int(iterations), START_RULES[start]))


def contact_budget(counts: np.ndarray, max_contacts: int) -> np.ndarray:
    """Klamp't's per-robot budget: how many clustered contacts each pair keeps.

    counts: (p,) contact counts of the pairs one robot is in; max_contacts:
    the robot's total budget. When the counts sum to more than
    ``max_contacts``, pair i gets ``ceil(counts_i · max_contacts / total)``
    (at least 1 for a nonzero count, 0 for none); otherwise the counts are
    returned unchanged. Returns (p,) int64.
    """
    c = np.asarray(counts, dtype=np.int64)
    if c.ndim != 1 or (c < 0).any():
        raise ValueError(f"contact_budget: counts must be a 1-D array of counts >= 0, "
                         f"got {counts!r}")
    if int(max_contacts) < 1:
        raise ValueError(f"contact_budget: max_contacts must be >= 1, got {max_contacts}")
    total = int(c.sum())
    if total <= max_contacts:
        return c.copy()
    return (c * int(max_contacts) + total - 1) // total
