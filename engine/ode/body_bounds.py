"""A quick check that bodies' states are sane (compiled): Webots pauses a
simulation whose bodies fly off or whose numbers stop being finite."""

from __future__ import annotations

import math

from numba import njit


@njit(cache=True, nogil=True)
def first_out_of_bounds(rows, bound, pos, lvel, avel, q) -> int:
    """The first ``k`` such that body row ``rows[k]`` has a position (m),
    linear (m/s) or angular (rad/s) velocity component whose magnitude is
    not within ``bound`` (NaN included), or a non-finite quaternion
    component; -1 when there is none. ``pos``, ``lvel``, ``avel`` (n, 3),
    ``q`` (n, 4) the body store's arrays."""
    for k in range(rows.shape[0]):
        b = rows[k]
        for i in range(3):
            if not (abs(pos[b, i]) <= bound and abs(lvel[b, i]) <= bound
                    and abs(avel[b, i]) <= bound):
                return k
        for i in range(4):
            if not math.isfinite(q[b, i]):
                return k
    return -1
