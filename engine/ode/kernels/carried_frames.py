"""Frames carried by rigid bodies: world poses and velocities in one pass, without the GIL.

A frame fixed in a body (a Webots Solid in its ODE body, at offset rotation
``off_R`` (3, 3) and translation ``off_t`` (3,) [m] in the body's frame) is at

    R = body_R off_R,    t = body_R off_t + body_pos

in the world, and its origin moves at the rigid-body point velocity

    v = lvel + avel x (t - body_pos)    [m/s].

`compose_carried` and `carried_velocities` compute these for many frames at
once, reading the bodies' rows straight from a body store's arrays (no
gathered copies) and writing into the caller's output rows. Every product
sums over the contracted index in increasing order, as
`engine.ode.kernels.detlinalg.matmul` does, and the cross product is
``(a1 b2 - a2 b1, a2 b0 - a0 b2, a0 b1 - a1 b0)`` as numpy's ``np.cross``
writes it, so the results are the same bits as those numpy statements on every
x86-64 machine (decision 0012; ``tests/engine/test_carried_frames.py``).
Never compile them with ``fastmath``.
"""

from __future__ import annotations

import numpy as np
from numba import njit


@njit(cache=True, nogil=True)
def compose_carried(body_R: np.ndarray, body_pos: np.ndarray, body_rows: np.ndarray,
                    off_R: np.ndarray, off_t: np.ndarray, out_rows: np.ndarray,
                    R_out: np.ndarray, t_out: np.ndarray) -> None:
    """World poses of frames carried by bodies.

    For each k: b = ``body_rows[k]``, s = ``out_rows[k]``;
    ``R_out[s] = body_R[b] off_R[k]`` and
    ``t_out[s] = body_R[b] off_t[k] + body_pos[b]``.

    body_R (n, 3, 3), body_pos (n, 3) [m]: the bodies (a store's arrays);
    body_rows (m,) int: each frame's body; off_R (m, 3, 3), off_t (m, 3) [m]:
    each frame in its body's frame; out_rows (m,) int: where each frame goes
    in R_out (S, 3, 3) and t_out (S, 3) [m].
    """
    for k in range(body_rows.shape[0]):
        b = body_rows[k]
        s = out_rows[k]
        for i in range(3):
            a0 = body_R[b, i, 0]
            a1 = body_R[b, i, 1]
            a2 = body_R[b, i, 2]
            for j in range(3):
                R_out[s, i, j] = (a0 * off_R[k, 0, j] + a1 * off_R[k, 1, j]) + a2 * off_R[k, 2, j]
            t_out[s, i] = ((a0 * off_t[k, 0] + a1 * off_t[k, 1]) + a2 * off_t[k, 2]
                           + body_pos[b, i])


@njit(cache=True, nogil=True)
def carried_velocities(body_pos: np.ndarray, body_lvel: np.ndarray, body_avel: np.ndarray,
                       body_rows: np.ndarray, t: np.ndarray, out_rows: np.ndarray,
                       v_out: np.ndarray) -> None:
    """Velocities of points carried by bodies (rigid-body point velocity).

    For each k: b = ``body_rows[k]``, s = ``out_rows[k]``, d = ``t[s] - body_pos[b]``;
    ``v_out[s] = body_lvel[b] + body_avel[b] x d``.

    body_pos (n, 3) [m], body_lvel (n, 3) [m/s], body_avel (n, 3) [rad/s]: the
    bodies; body_rows (m,) int: each point's body; t (S, 3) [m]: the points
    (world); out_rows (m,) int: each point's row in t and v_out (S, 3) [m/s].
    """
    for k in range(body_rows.shape[0]):
        b = body_rows[k]
        s = out_rows[k]
        d0 = t[s, 0] - body_pos[b, 0]
        d1 = t[s, 1] - body_pos[b, 1]
        d2 = t[s, 2] - body_pos[b, 2]
        w0 = body_avel[b, 0]
        w1 = body_avel[b, 1]
        w2 = body_avel[b, 2]
        v_out[s, 0] = body_lvel[b, 0] + (w1 * d2 - w2 * d1)
        v_out[s, 1] = body_lvel[b, 1] + (w2 * d0 - w0 * d2)
        v_out[s, 2] = body_lvel[b, 2] + (w0 * d1 - w1 * d0)
