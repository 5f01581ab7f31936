"""Linear limit/motor rows acting at two chosen points ("two-point limot").

:func:`engine.ode.joints.limot.add_limot` applies a linear limit or motor
at the midpoint of the two body centres. Joints whose slide happens at an
anchor away from the centres (the PU joint) need the row to act at given
points instead: body 0's point ``pt1`` and body 1's point ``pt2``, both
expressed relative to their body's centre in world axes (m). The block
layout and the parameters are those of :mod:`engine.ode.joints.limot`.
"""

from __future__ import annotations

from numba import njit

from engine.ode.joints.limot import (
    LM_BOUNCE,
    LM_FMAX,
    LM_FUDGE,
    LM_HI,
    LM_LIMIT,
    LM_LO,
    LM_VEL,
    set_limot_bounds,
)
from engine.ode.kernels.vec import cross3, dot3


@njit(cache=True, nogil=True)
def add_two_point_limot(d, off, b0, b1, bodies, wp, rows, r, ax, pt1, pt2) -> int:
    """Fill row ``r`` for the linear axis ``ax`` (world unit vector (3,)) if the
    block at ``d[off:]`` is powered or at a stop; return the rows used (0 or 1).

    The row is J = [ax, pt1 x ax, -ax, pt2 x (-ax)]: the relative velocity of
    the two points along ``ax``, so its force acts at the points and creates
    the matching torques about each centre.
    """
    powered = d[off + LM_FMAX] > 0
    limit = int(d[off + LM_LIMIT])
    if not powered and limit == 0:
        return 0
    J = rows.J
    J[r, 0:3] = ax
    J[r, 3:6] = cross3(pt1, ax)
    if b1 >= 0:
        J[r, 6:9] = -ax
        J[r, 9:12] = cross3(pt2, -ax)
    lostop = d[off + LM_LO]
    histop = d[off + LM_HI]
    if limit != 0 and lostop == histop:
        powered = False
    if powered and limit != 0:
        _motor_against_stop(d, off, b0, b1, bodies, J, r, ax, limit)
    set_limot_bounds(d, off, wp, rows, r, powered, limit)
    if limit != 0 and lostop != histop:
        _bounce(d, off, b0, b1, bodies, J, rows.c, r, limit)
    return 1


@njit(cache=True, nogil=True)
def _motor_against_stop(d, off, b0, b1, bodies, J, r, ax, limit) -> None:
    """A motor pushing at a stop: its force goes straight to the bodies.

    Force fm·ax on body 1 and -fm·ax on body 0 (N), each applied at its
    point, i.e. with the torque -fm·(angular part of the row) (N·m).
    Driving away from the stop, fm is scaled by the fudge factor.
    """
    vel = d[off + LM_VEL]
    fm = d[off + LM_FMAX]
    if vel > 0 or (vel == 0 and limit == 2):
        fm = -fm
    if (limit == 1 and vel > 0) or (limit == 2 and vel < 0):
        fm *= d[off + LM_FUDGE]
    for k in range(3):
        bodies.facc[b0, k] -= fm * ax[k]
        bodies.tacc[b0, k] -= fm * J[r, 3 + k]
    if b1 >= 0:
        for k in range(3):
            bodies.facc[b1, k] += fm * ax[k]
            bodies.tacc[b1, k] -= fm * J[r, 9 + k]


@njit(cache=True, nogil=True)
def _bounce(d, off, b0, b1, bodies, J, c, r, limit) -> None:
    """Restitution at a stop from the relative velocity of the two points
    along the axis (the row's J times the body velocities, m/s)."""
    bounce = d[off + LM_BOUNCE]
    if bounce <= 0:
        return
    v = dot3(bodies.lvel[b0], J[r, 0:3]) + dot3(bodies.avel[b0], J[r, 3:6])
    if b1 >= 0:
        v += dot3(bodies.lvel[b1], J[r, 6:9]) + dot3(bodies.avel[b1], J[r, 9:12])
    if limit == 1:
        if v < 0:
            newc = -bounce * v
            if newc > c[r]:
                c[r] = newc
    else:
        if v > 0:
            newc = -bounce * v
            if newc < c[r]:
                c[r] = newc
