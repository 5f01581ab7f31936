"""4x4 homogeneous transforms for the viewport (float64, row-major, column vectors).

``M @ [x, y, z, 1]`` maps local to parent coordinates. OpenGL wants
column-major data, so matrices are passed to GL as ``M.T`` (C order).
Rotations of the world's fields (Webots axis-angle) come from the engine
(`engine.sim.poses.axis_angle_to_matrix`), so the viewport and the simulation
place a Solid the same way.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np


def pose_matrix(pos: Sequence[float] | np.ndarray, R: np.ndarray | None = None,
                scale: Sequence[float] | None = None) -> np.ndarray:
    """(4, 4) transform ``T(pos) R diag(scale)``."""
    M = np.eye(4)
    if R is not None:
        M[:3, :3] = np.asarray(R, dtype=float).reshape(3, 3)
    if scale is not None:
        M[:3, :3] = M[:3, :3] * np.asarray(scale, dtype=float)[None, :]
    M[:3, 3] = np.asarray(pos, dtype=float)
    return M


def perspective(fovy: float, aspect: float, near: float, far: float) -> np.ndarray:
    """(4, 4) OpenGL perspective projection (fovy in radians)."""
    f = 1.0 / np.tan(fovy / 2.0)
    P = np.zeros((4, 4))
    P[0, 0] = f / aspect
    P[1, 1] = f
    P[2, 2] = (far + near) / (near - far)
    P[2, 3] = 2.0 * far * near / (near - far)
    P[3, 2] = -1.0
    return P


def _cross(a: tuple[float, ...], b: tuple[float, ...]) -> tuple[float, float, float]:
    return (a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0])


def _unit(a: tuple[float, ...]) -> tuple[float, float, float]:
    n = math.sqrt(a[0] * a[0] + a[1] * a[1] + a[2] * a[2])
    return (a[0] / n, a[1] / n, a[2] / n)


def look_at(eye: np.ndarray, target: np.ndarray, up: np.ndarray) -> np.ndarray:
    """(4, 4) view matrix: world -> eye coordinates (eye looks down its -Z).

    In Python floats: numpy's cross product of two 3-vectors costs about 50 us,
    and the view is built on every frame.
    """
    e = tuple(float(v) for v in np.asarray(eye).reshape(3))
    t = tuple(float(v) for v in np.asarray(target).reshape(3))
    f = _unit((t[0] - e[0], t[1] - e[1], t[2] - e[2]))
    s = _cross(f, tuple(float(v) for v in np.asarray(up).reshape(3)))
    if math.sqrt(s[0] * s[0] + s[1] * s[1] + s[2] * s[2]) < 1e-9:
        # looking straight along `up`: pick any side vector
        s = _cross(f, (1.0, 0.0, 0.0) if abs(f[0]) < 0.9 else (0.0, 1.0, 0.0))
    s = _unit(s)
    u = _cross(s, f)
    rows = (s, u, (-f[0], -f[1], -f[2]))
    V = np.eye(4)
    V[:3, :3] = rows
    V[:3, 3] = [-(r[0] * e[0] + r[1] * e[1] + r[2] * e[2]) for r in rows]
    return V


def gl_matrix(M: np.ndarray) -> np.ndarray:
    """Column-major float32 copy of ``M`` for glLoadMatrixf / glUniformMatrix4fv."""
    return np.ascontiguousarray(M.T, dtype=np.float32)
