"""Double hinge joint: a distance joint whose two bodies also share a hinge axis.

Four rows: the anchor distance (as :mod:`engine.ode.joints.dball`), two
rows locking relative rotation about the normals of the axis, and one row
keeping both anchors in the same plane perpendicular to the axis.

Record (``RECORD``, declared below): the double ball's record (``anchor1``,
``anchor2``, ``erp``, ``cfm``, ``distance``) extended by ``axis1`` (3) in
body 0's frame and ``axis2`` (3) in body 1's frame (world for a missing
body). Both axes
start as zero, as in ODE: until dJointSetDHingeAxis is called only the
distance row acts (ODE builds NaN rows then; see the module tests).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from engine.ode import checks
from engine.ode.constants import dJointTypeDHinge
from engine.ode.errors import ODEError
from engine.ode.joints.base import create_joint, joint_of
from engine.ode.joints.dball import (
    ANCHOR1,
    ANCHOR2,
    DISTANCE,
    ERP,
    DistanceJoint,
    distance_row,
    ode_unit,
)
from engine.ode.joints.dball import RECORD as DBALL_RECORD
from engine.ode.kernels.detlinalg import matmul
from engine.ode.kernels.vec import cross3, dot3, mat_vec, plane_space

#: the double hinge's record: the double ball's fields, then the axes
RECORD = DBALL_RECORD.extended("DHinge")
AXIS1 = RECORD.floats("axis1", 3)  # body-0 frame
AXIS2 = RECORD.floats("axis2", 3)  # body-1 frame, or world


class DHingeJoint(DistanceJoint):
    TYPE = dJointTypeDHinge
    NAME = "DHinge"
    __slots__ = ()


# ----------------------------------------------------------------------------- kernels
@njit(cache=True, nogil=True)
def info1(d, di, jf, b0, b1, bodies, wp):
    return 4, 4


@njit(cache=True, nogil=True)
def info2(d, di, jf, b0, b1, bodies, wp, rows, r):
    distance_row(d, b0, b1, bodies, wp, rows, r)
    ax1 = mat_vec(bodies.R[b0], d[AXIS1:AXIS1 + 3])
    if dot3(ax1, ax1) == 0.0:
        return
    J = rows.J
    c = rows.c
    k = wp.fps * d[ERP]
    # rows 1, 2: no relative rotation about p and q, the normals of the axis;
    # the misalignment ax1 × ax2 (≈ the rotation that would realign the
    # axes) is corrected by erp of it per step
    p, q = plane_space(ax1)
    J[r + 1, 3:6] = p
    J[r + 2, 3:6] = q
    if b1 >= 0:
        J[r + 1, 9:12] = -p
        J[r + 2, 9:12] = -q
        ax2 = mat_vec(bodies.R[b1], d[AXIS2:AXIS2 + 3])
    else:
        ax2 = d[AXIS2:AXIS2 + 3].copy()
    err = cross3(ax1, ax2)
    c[r + 1] = k * dot3(err, p)
    c[r + 2] = k * dot3(err, q)
    # row 3: no relative sliding along the axis, measured at the midpoint h
    # of the body centres so that the pair of forces makes no torque couple
    J[r + 3, 0:3] = ax1
    if b1 >= 0:
        h = 0.5 * (bodies.pos[b1] - bodies.pos[b0])
        t = cross3(h, ax1)
        J[r + 3, 3:6] = t
        J[r + 3, 6:9] = -ax1
        J[r + 3, 9:12] = t
        g2 = mat_vec(bodies.R[b1], d[ANCHOR2:ANCHOR2 + 3]) + bodies.pos[b1]
    else:
        g2 = d[ANCHOR2:ANCHOR2 + 3].copy()
    g1 = mat_vec(bodies.R[b0], d[ANCHOR1:ANCHOR1 + 3]) + bodies.pos[b0]
    # both anchors should lie in one plane perpendicular to the axis
    c[r + 3] = -k * dot3(ax1, g1 - g2)


# ----------------------------------------------------------------------------- API
def _dhinge(j, fn: str) -> DHingeJoint:
    return joint_of(j, fn, DHingeJoint)


def dJointCreateDHinge(w, group=None) -> DHingeJoint:
    """A new double hinge joint (ODE's dJointCreateDHinge)."""
    return create_joint(DHingeJoint, w, group, "dJointCreateDHinge")


def dJointSetDHingeAxis(j, x: float, y: float, z: float) -> None:
    """Set the common axis (world direction, normalized) of both hinges.

    The joint must be attached: ODE reads body 1's frame unconditionally.
    """
    fn = "dJointSetDHingeAxis"
    joint = _dhinge(j, fn)
    v = checks.xyz(x, y, z, fn)
    ode_unit(v, fn)
    b0, b1 = joint.body_rows()
    if b0 < 0:
        raise ODEError(fn, "j", "the joint must be attached to a body first")
    s = joint.world.bodies
    joint.d[AXIS1:AXIS1 + 3] = ode_unit(matmul(s.R[b0].T, v), fn)
    joint.d[AXIS2:AXIS2 + 3] = ode_unit(v if b1 < 0 else matmul(s.R[b1].T, v), fn)


def dJointGetDHingeAxis(j) -> np.ndarray:
    """The axis in world coordinates, (3,); zeros while unattached."""
    joint = _dhinge(j, "dJointGetDHingeAxis")
    b0 = joint.body_rows()[0]
    if b0 < 0:
        return np.zeros(3)
    return matmul(joint.world.bodies.R[b0], joint.d[AXIS1:AXIS1 + 3])


def dJointSetDHingeAnchor1(j, x: float, y: float, z: float) -> None:
    """Anchor on body 1 (world point, m); the distance is re-measured."""
    fn = "dJointSetDHingeAnchor1"
    _dhinge(j, fn).set_anchor(1, checks.xyz(x, y, z, fn))


def dJointSetDHingeAnchor2(j, x: float, y: float, z: float) -> None:
    """Anchor on body 2 (world point, m); the distance is re-measured."""
    fn = "dJointSetDHingeAnchor2"
    _dhinge(j, fn).set_anchor(2, checks.xyz(x, y, z, fn))


def dJointGetDHingeAnchor1(j) -> np.ndarray:
    """Anchor 1 in world coordinates, (3,) m."""
    return _dhinge(j, "dJointGetDHingeAnchor1").get_anchor(1)


def dJointGetDHingeAnchor2(j) -> np.ndarray:
    """Anchor 2 in world coordinates, (3,) m."""
    return _dhinge(j, "dJointGetDHingeAnchor2").get_anchor(2)


def dJointGetDHingeDistance(j) -> float:
    """Target distance between the anchors (m), measured at attach/anchor setting."""
    return float(_dhinge(j, "dJointGetDHingeDistance").d[DISTANCE])


def dJointSetDHingeParam(j, parameter: int, value: float) -> None:
    """Set dParamERP or dParamCFM (the only parameters of the joint)."""
    fn = "dJointSetDHingeParam"
    _dhinge(j, fn).set_param(fn, parameter, value)


def dJointGetDHingeParam(j, parameter: int) -> float:
    fn = "dJointGetDHingeParam"
    return _dhinge(j, fn).get_param(fn, parameter)
