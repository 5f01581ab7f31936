"""The broad phase in one place: the geoms as arrays, and the pairs that may collide.

ODE's rules for a candidate pair (i, j) are those of :mod:`.pair_rules`;
pairs are returned in the simple space's order: i before j in list order,
sorted by (i, j); :func:`~.sweep.sweep_pairs` (the sweep used by the simple
and hash spaces) finds them. :func:`~.gather.gather` turns a list of geoms
into the arrays every pass needs (:class:`~.gather.GeomArrays`), with the
bounds of the primitives from :func:`~.bounds.primitive_aabbs`. This module
names them all for the spaces and the callers of the broad phase, and holds
:func:`overlapping_with`: the boxes one extra geom may pair with.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from engine.ode.collision.spaces.bounds import (
    AABB_BOX,
    AABB_CAPSULE,
    AABB_CYLINDER,
    AABB_PLANE,
    AABB_SPHERE,
    primitive_aabbs,
)
from engine.ode.collision.spaces.gather import GatherCache, GeomArrays, gather
from engine.ode.collision.spaces.pair_rules import _may_pair, _overlap
from engine.ode.collision.spaces.sweep import overlapping_pairs, sweep_pairs

__all__ = ["AABB_BOX", "AABB_CAPSULE", "AABB_CYLINDER", "AABB_PLANE", "AABB_SPHERE",
           "GatherCache", "GeomArrays", "_may_pair", "_overlap", "gather",
           "overlapping_pairs", "overlapping_with", "primitive_aabbs", "sweep_pairs"]


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
