"""View-frustum planes for culling bounding spheres (numpy, no GL).

The six frustum planes come straight from the view-projection matrix M
(Gribb & Hartmann): a world point p (homogeneous q = (p, 1)) is inside the
clip volume when -w <= x, y, z <= w with (x, y, z, w) = M q, i.e. when
``(M[3] +- M[i]) . q >= 0`` for i = 0, 1, 2. Each of those six rows is a
plane n . p + d >= 0; divided by |n| it gives signed distances in metres.
A sphere is outside when it lies entirely on the negative side of one
plane (distance < -radius, less a small slack). That test never drops a
visible sphere (a sphere near a frustum corner may be kept although
outside: conservative); `app.viewport.instance_kernels.bucket_instances`
runs it for each instance of a group.
"""

from __future__ import annotations

import numpy as np

#: Relative and absolute slack on the radius against float32 / rounding differences with GL.
SLACK_REL, SLACK_ABS = 1e-3, 1e-6


def frustum_planes(viewproj: np.ndarray) -> np.ndarray:
    """(6, 4) unit-normal planes (n, d), inside where n . p + d >= 0: left, right, bottom,
    top, near, far of a (4, 4) world -> clip matrix."""
    M = np.asarray(viewproj, np.float64)
    planes = np.stack([M[3] + M[0], M[3] - M[0], M[3] + M[1], M[3] - M[1],
                       M[3] + M[2], M[3] - M[2]])
    norms = np.linalg.norm(planes[:, :3], axis=1, keepdims=True)
    return planes / np.maximum(norms, 1e-300)
