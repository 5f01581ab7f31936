"""4x4 homogeneous transforms for the viewport (float64, row-major, column vectors).

``M @ [x, y, z, 1]`` maps local to parent coordinates. OpenGL wants
column-major data, so matrices are passed to GL as ``M.T`` (C order).
Rotations of the world's fields (Webots axis-angle) come from the engine
(`engine.sim.poses.axis_angle_to_matrix`), so the viewport and the simulation
place a Solid the same way.
"""

from __future__ import annotations

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


def look_at(eye: np.ndarray, target: np.ndarray, up: np.ndarray) -> np.ndarray:
    """(4, 4) view matrix: world -> eye coordinates (eye looks down its -Z)."""
    f = target - eye
    f = f / np.linalg.norm(f)
    s = np.cross(f, up)
    if np.linalg.norm(s) < 1e-9:  # looking straight along `up`: pick any side vector
        s = np.cross(f, np.array([1.0, 0.0, 0.0]) if abs(f[0]) < 0.9 else np.array([0, 1.0, 0]))
    s = s / np.linalg.norm(s)
    u = np.cross(s, f)
    V = np.eye(4)
    V[0, :3], V[1, :3], V[2, :3] = s, u, -f
    V[:3, 3] = -V[:3, :3] @ eye
    return V


def gl_matrix(M: np.ndarray) -> np.ndarray:
    """Column-major float32 copy of ``M`` for glLoadMatrixf / glUniformMatrix4fv."""
    return np.ascontiguousarray(M.T, dtype=np.float32)
