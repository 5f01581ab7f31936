"""Bounds of the primitive geoms (sphere, box, capsule, cylinder, plane), all at once.

AABBs are ``(n, 6)`` arrays ``[minx, maxx, miny, maxy, minz, maxz]`` in metres.
"""

from __future__ import annotations

import math

from numba import njit

#: Classes whose bounds :func:`primitive_aabbs` computes (the rest use compute_aabb).
AABB_SPHERE, AABB_BOX, AABB_CAPSULE, AABB_CYLINDER, AABB_PLANE = 0, 1, 2, 3, 4


@njit(cache=True, nogil=True)
def primitive_aabbs(kind, pos, R, size, aabb) -> None:
    """Bounds (n, 6) of the primitives, in place; rows with ``kind`` < 0 are left.

    kind (n,) int64 (AABB_* codes); pos (n, 3) m; R (n, 3, 3); size (n, 4):
    sphere (r), box (lx, ly, lz), capsule/cylinder (r, length along local z),
    plane (unit normal (3), d). A box's half extent on world axis i is
    sum_j |R_ij| l_j / 2; a cylinder's rim adds r sqrt(1 - a_i^2) for its unit
    axis a; a plane is unbounded except behind an axis-aligned normal.
    """
    inf = math.inf
    for i in range(kind.shape[0]):
        k = kind[i]
        if k < 0:
            continue
        if k == AABB_PLANE:
            for a in range(3):
                aabb[i, 2 * a] = -inf
                aabb[i, 2 * a + 1] = inf
            for a in range(3):
                b = (a + 1) % 3
                c = (a + 2) % 3
                if size[i, b] == 0 and size[i, c] == 0:
                    if size[i, a] > 0:
                        aabb[i, 2 * a + 1] = size[i, 3]
                    else:
                        aabb[i, 2 * a] = -size[i, 3]
            continue
        for a in range(3):
            if k == AABB_SPHERE:
                e = size[i, 0]
            elif k == AABB_BOX:
                e = (abs(R[i, a, 0]) * (0.5 * size[i, 0]) + abs(R[i, a, 1]) * (0.5 * size[i, 1])
                     + abs(R[i, a, 2]) * (0.5 * size[i, 2]))
            elif k == AABB_CAPSULE:
                e = abs(R[i, a, 2] * size[i, 1]) * 0.5 + size[i, 0]
            else:
                ax = R[i, a, 2]
                e = abs(ax * size[i, 1]) * 0.5 + size[i, 0] * math.sqrt(max(0.0, 1.0 - ax * ax))
            aabb[i, 2 * a] = pos[i, a] - e
            aabb[i, 2 * a + 1] = pos[i, a] + e
