"""Constraint-row builders shared by several joint types (compiled).

Conventions of :mod:`engine.ode.joints.layout`. Anchors and axes are kept
in each body's frame (``anchor1``/``axis1`` in body 0's frame; ``anchor2``/
``axis2`` in body 1's frame, or in world coordinates when there is no
body 1), so they follow the bodies as they move.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from engine.ode.kernels import detmath
from engine.ode.kernels.vec import cross3, dot3, mat_vec, plane_space, qmul1, qmul2, qmul3


@njit(cache=True, nogil=True)
def world_axis1(d, off, b0, bodies) -> np.ndarray:
    """Body-0 direction at ``d[off:off+3]`` in world coordinates."""
    return mat_vec(bodies.R[b0], d[off:off + 3])


@njit(cache=True, nogil=True)
def world_axis2(d, off, b1, bodies) -> np.ndarray:
    """Body-1 direction at ``d[off:off+3]`` in world coordinates (as is if b1 < 0)."""
    if b1 >= 0:
        return mat_vec(bodies.R[b1], d[off:off + 3])
    return d[off:off + 3].copy()


@njit(cache=True, nogil=True)
def set_ball(d, a1, a2, b0, b1, bodies, wp, rows, r, erp) -> None:
    """Three rows making body 0's anchor (``d[a1:]``) meet body 1's (``d[a2:]``).

    Row k constrains world axis k: v0 + w0 x p0 = v1 + w1 x p1 where p0, p1
    are the anchors relative to the body origins; so J has the unit vector
    on the linear part and -[p0]x e_k = p0 x e_k on the angular part. The
    right-hand side pulls the anchors together by erp of their gap per step.
    """
    J = rows.J
    c = rows.c
    p0 = mat_vec(bodies.R[b0], d[a1:a1 + 3])
    for k in range(3):
        J[r + k, k] = 1.0
    # angular part of body 0: (p0 x e_k) for row k
    J[r, 4] = p0[2]
    J[r, 5] = -p0[1]
    J[r + 1, 3] = -p0[2]
    J[r + 1, 5] = p0[0]
    J[r + 2, 3] = p0[1]
    J[r + 2, 4] = -p0[0]
    k_erp = wp.fps * erp
    pos0 = bodies.pos[b0]
    if b1 >= 0:
        p1 = mat_vec(bodies.R[b1], d[a2:a2 + 3])
        for k in range(3):
            J[r + k, 6 + k] = -1.0
        J[r, 10] = -p1[2]
        J[r, 11] = p1[1]
        J[r + 1, 9] = p1[2]
        J[r + 1, 11] = -p1[0]
        J[r + 2, 9] = -p1[1]
        J[r + 2, 10] = p1[0]
        pos1 = bodies.pos[b1]
        for k in range(3):
            c[r + k] = k_erp * (p1[k] + pos1[k] - p0[k] - pos0[k])
    else:
        for k in range(3):
            c[r + k] = k_erp * (d[a2 + k] - p0[k] - pos0[k])


@njit(cache=True, nogil=True)
def set_ball2(d, a1, a2, b0, b1, bodies, wp, rows, r, axis, erp1) -> None:
    """Like :func:`set_ball` but along (axis, p, q) with ``axis`` a world unit
    vector; the first row uses ``erp1`` instead of the world ERP."""
    J = rows.J
    c = rows.c
    p, q = plane_space(axis)
    p0 = mat_vec(bodies.R[b0], d[a1:a1 + 3])
    dirs = (axis, p, q)
    for k in range(3):
        e = dirs[k]
        J[r + k, 0:3] = e
        J[r + k, 3:6] = cross3(p0, e)
    a1w = p0 + bodies.pos[b0]
    if b1 >= 0:
        p1 = mat_vec(bodies.R[b1], d[a2:a2 + 3])
        for k in range(3):
            e = dirs[k]
            J[r + k, 6:9] = -e
            J[r + k, 9:12] = cross3(e, p1)
        gap = p1 + bodies.pos[b1] - a1w
    else:
        gap = d[a2:a2 + 3] - a1w
    fps = wp.fps
    c[r] = fps * erp1 * dot3(axis, gap)
    c[r + 1] = fps * wp.erp * dot3(p, gap)
    c[r + 2] = fps * wp.erp * dot3(q, gap)


@njit(cache=True, nogil=True)
def set_fixed_orientation(qrel, b0, b1, bodies, wp, rows, r, erp) -> None:
    """Three rows locking the relative rotation of the bodies at ``qrel``.

    The rotation error q_err (body 1 relative to body 0, compared with
    qrel) is [cos(θ/2), sin(θ/2) u]; for small θ the correcting angular
    velocity erp·fps·θ·u ≈ erp·fps·2·v with v the vector part, expressed in
    world coordinates through body 0's rotation.
    """
    J = rows.J
    c = rows.c
    for k in range(3):
        J[r + k, 3 + k] = 1.0
    if b1 >= 0:
        for k in range(3):
            J[r + k, 9 + k] = -1.0
        qerr = qmul2(qmul1(bodies.q[b0], bodies.q[b1]), qrel)
    else:
        qerr = qmul3(bodies.q[b0], qrel)
    if qerr[0] < 0:
        qerr[1] = -qerr[1]
        qerr[2] = -qerr[2]
        qerr[3] = -qerr[3]
    e = mat_vec(bodies.R[b0], qerr[1:4])
    k2 = wp.fps * erp * 2.0
    for k in range(3):
        c[r + k] = k2 * e[k]


@njit(cache=True, nogil=True)
def angle_from_rel_quat(qrel: np.ndarray, axis: np.ndarray) -> float:
    """Rotation angle (rad, in (-π, π]) about ``axis`` of the relative rotation qrel.

    θ/2 = atan2(|v|, w) gives 0..2π; when the vector part points away from
    the axis the quaternion's other sign is used so the angle does not jump
    every other turn. ODE's convention makes the result the negative of that.
    """
    cost2 = qrel[0]
    sint2 = math.sqrt(qrel[1] * qrel[1] + qrel[2] * qrel[2] + qrel[3] * qrel[3])
    if qrel[1] * axis[0] + qrel[2] * axis[1] + qrel[3] * axis[2] >= 0:
        theta = 2 * detmath.atan2(sint2, cost2)
    else:
        theta = 2 * detmath.atan2(sint2, -cost2)
    if theta > math.pi:
        theta -= 2 * math.pi
    return -theta


@njit(cache=True, nogil=True)
def hinge_angle(bodies, b0, b1, axis, q_initial) -> float:
    """Angle of body 1 relative to body 0 (or to the world if b1 < 0) about
    ``axis`` (body-0 frame), zero at the relative rotation ``q_initial``."""
    if b1 >= 0:
        qrel = qmul2(qmul1(bodies.q[b0], bodies.q[b1]), q_initial)
    else:
        qrel = qmul3(bodies.q[b0], q_initial)
    return angle_from_rel_quat(qrel, axis)


@njit(cache=True, nogil=True)
def initial_rel_rotation(bodies, b0, b1) -> np.ndarray:
    """Relative rotation body 0 -> body 1, or the inverse of body 0's if b1 < 0."""
    q0 = bodies.q[b0]
    if b1 >= 0:
        return qmul1(q0, bodies.q[b1])
    out = np.empty(4)
    out[0] = q0[0]
    out[1] = -q0[1]
    out[2] = -q0[2]
    out[3] = -q0[3]
    return out
