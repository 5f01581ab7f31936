"""Prismatic-rotoide (PR) joint: body 2 slides along the prismatic axis of
body 1 and turns about the rotoide axis, which sits at the anchor.

Axis 1 (parameters dParamX) is the prismatic axis, default y; axis 2
(dParamX2) the rotoide axis, default x; the two should be perpendicular.

Rows (as ODE 0.16.2): two angular rows along the prismatic axis P and
R x P keep the rotoide axes of the two bodies aligned; two linear rows along
R and R x P keep the anchor on the line through body 1's centre along P;
then the prismatic limit/motor row and the rotoide one.

Record (``RECORD``, declared below): ``offset`` (anchor relative to body 1,
body-0 frame, m), ``anchor2`` (body-1 frame, or world with no body 2),
``rotoide_axis1`` (body-0 frame), ``rotoide_axis2`` (body-1 frame or world),
``prismatic_axis1`` (body-0 frame), ``rel_rotation`` (relative rotation at
angle 0), ``prismatic_limot``, ``rotoide_limot``.

ODE quirk kept: with one body attached as (NULL, body), the linear rows use
the body-to-anchor vector with the opposite sign; that is exact only while
the anchor stays at the body's centre, and ODE 0.16.2 diverges in that
set-up once the body slides (e.g. against stops). Attach (body, NULL) or use
two bodies instead.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from engine.ode import checks
from engine.ode.constants import dJointTypePR
from engine.ode.joints.anchors import body_arrays, get_axis1, set_anchors, set_axes
from engine.ode.joints.base import Joint, create_joint, joint_of
from engine.ode.joints.common import hinge_angle, initial_rel_rotation, world_axis1, world_axis2
from engine.ode.joints.layout import JF_REVERSE
from engine.ode.joints.limot import (
    LIMOT_BLOCK,
    LINEAR,
    LM_FMAX,
    LM_HI,
    LM_LIMIT,
    LM_LO,
    ROTATIONAL,
    add_limot,
    test_limit,
)
from engine.ode.joints.record import JointRecord
from engine.ode.kernels.detlinalg import matmul
from engine.ode.kernels.vec import cross3, dot3, mat_vec

#: the PR joint's record, declared field by field (offsets in ``d``)
RECORD = JointRecord("PR")
OFFSET = RECORD.floats("offset", 3)                    # anchor from body 1, body-0 frame (m)
ANCHOR2 = RECORD.floats("anchor2", 3)                  # body-1 frame, or world (m)
ROTOIDE_AXIS1 = RECORD.floats("rotoide_axis1", 3)      # body-0 frame
ROTOIDE_AXIS2 = RECORD.floats("rotoide_axis2", 3)      # body-1 frame, or world
PRISMATIC_AXIS1 = RECORD.floats("prismatic_axis1", 3)  # body-0 frame
REL_ROTATION = RECORD.floats("rel_rotation", 4)        # body 0 -> body 1 at angle 0, w first
PRISMATIC_LIMOT = RECORD.block("prismatic_limot", LIMOT_BLOCK)  # dParamX (m)
ROTOIDE_LIMOT = RECORD.block("rotoide_limot", LIMOT_BLOCK)      # dParamX2 (rad)


class PRJoint(Joint):
    TYPE = dJointTypePR
    NAME = "PR"
    LIMOTS = (PRISMATIC_LIMOT, ROTOIDE_LIMOT)
    __slots__ = ()

    def init_record(self) -> None:
        super().init_record()
        d = self.d
        d[ROTOIDE_AXIS1] = 1.0
        d[ROTOIDE_AXIS2] = 1.0
        d[PRISMATIC_AXIS1 + 1] = 1.0

    def set_relative_values(self) -> None:
        set_anchors(self, self.anchor(), OFFSET, ANCHOR2)
        set_axes(self, get_axis1(self, PRISMATIC_AXIS1), PRISMATIC_AXIS1, None, "dJointAttach")
        set_axes(self, get_axis1(self, ROTOIDE_AXIS1), ROTOIDE_AXIS1, ROTOIDE_AXIS2, "dJointAttach")
        self.compute_qrel()

    def compute_qrel(self) -> None:
        b0, b1 = self.body_rows()
        if b0 >= 0:
            self.d[REL_ROTATION:REL_ROTATION + 4] = initial_rel_rotation(
                body_arrays(self.world), b0, b1)

    def anchor(self) -> np.ndarray:
        """The anchor on body 2 in world coordinates (3,), m."""
        b1 = self.body_rows()[1]
        if b1 < 0:
            return self.d[ANCHOR2:ANCHOR2 + 3].copy()
        s = self.world.bodies
        return matmul(s.R[b1], self.d[ANCHOR2:ANCHOR2 + 3]) + s.pos[b1]


# ----------------------------------------------------------------------------- kernels
@njit(cache=True, nogil=True)
def position(d, jf, b0, b1, bodies) -> float:
    """Prismatic position (m): P · ((body 1 centre + offset) - anchor on body 2),
    sign-corrected for a reversed one-body joint."""
    q = world_axis1(d, OFFSET, b0, bodies) + bodies.pos[b0]
    if b1 >= 0:
        q -= mat_vec(bodies.R[b1], d[ANCHOR2:ANCHOR2 + 3]) + bodies.pos[b1]
    else:
        q -= d[ANCHOR2:ANCHOR2 + 3]
        if (jf & JF_REVERSE) != 0:
            q = -q
    return dot3(world_axis1(d, PRISMATIC_AXIS1, b0, bodies), q)


@njit(cache=True, nogil=True)
def info1(d, di, jf, b0, b1, bodies, wp):
    m = 4
    lo = d[PRISMATIC_LIMOT + LM_LO]
    hi = d[PRISMATIC_LIMOT + LM_HI]
    d[PRISMATIC_LIMOT + LM_LIMIT] = 0.0
    if (lo > -math.inf or hi < math.inf) and lo <= hi:
        test_limit(d, np.int64(PRISMATIC_LIMOT), position(d, jf, b0, b1, bodies))
    if d[PRISMATIC_LIMOT + LM_LIMIT] != 0 or d[PRISMATIC_LIMOT + LM_FMAX] > 0:
        m += 1
    lo = d[ROTOIDE_LIMOT + LM_LO]
    hi = d[ROTOIDE_LIMOT + LM_HI]
    d[ROTOIDE_LIMOT + LM_LIMIT] = 0.0
    if (lo >= -math.pi or hi <= math.pi) and lo <= hi:
        test_limit(d, np.int64(ROTOIDE_LIMOT),
                   hinge_angle(bodies, b0, b1, d[ROTOIDE_AXIS1:ROTOIDE_AXIS1 + 3],
                               d[REL_ROTATION:REL_ROTATION + 4]))
    if d[ROTOIDE_LIMOT + LM_LIMIT] != 0 or d[ROTOIDE_LIMOT + LM_FMAX] > 0:
        m += 1
    return m, 4


@njit(cache=True, nogil=True)
def info2(d, di, jf, b0, b1, bodies, wp, rows, r):
    k = wp.fps * wp.erp
    pos0 = bodies.pos[b0]
    axp = world_axis1(d, PRISMATIC_AXIS1, b0, bodies)
    ax1 = world_axis1(d, ROTOIDE_AXIS1, b0, bodies)
    ax2 = world_axis2(d, ROTOIDE_AXIS2, b1, bodies)
    # dist: from body 1's centre to the anchor on body 2 (sign flipped for a
    # reversed one-body joint, as ODE does)
    wanchor2 = np.zeros(3)
    if b1 >= 0:
        wanchor2 = mat_vec(bodies.R[b1], d[ANCHOR2:ANCHOR2 + 3])
        dist = wanchor2 + bodies.pos[b1] - pos0
    elif (jf & JF_REVERSE) != 0:
        dist = pos0 - d[ANCHOR2:ANCHOR2 + 3]
    else:
        dist = d[ANCHOR2:ANCHOR2 + 3] - pos0
    q = cross3(ax1, axp)
    J = rows.J
    c = rows.c
    # rows 0-1: no relative rotation about P and R x P; the misalignment of
    # the rotoide axes, ax1 x ax2 (≈ the rotation needed), corrected by erp
    J[r, 3:6] = axp
    J[r + 1, 3:6] = q
    if b1 >= 0:
        J[r, 9:12] = -axp
        J[r + 1, 9:12] = -q
    err_rot = cross3(ax1, ax2)
    c[r] = k * dot3(err_rot, axp)
    c[r + 1] = k * dot3(err_rot, q)
    # rows 2-3: the anchor point moves with body 1 except along P, i.e.
    # u·(v0 + w0 x dist) = u·(v1 + w1 x anchor2) for u = R and R x P;
    # u·(w x a) = w·(a x u) gives the angular parts
    J[r + 2, 0:3] = ax1
    J[r + 2, 3:6] = cross3(dist, ax1)
    J[r + 3, 0:3] = q
    J[r + 3, 3:6] = cross3(dist, q)
    if b1 >= 0:
        J[r + 2, 6:9] = -ax1
        J[r + 2, 9:12] = cross3(ax2, wanchor2)
        J[r + 3, 6:9] = -q
        J[r + 3, 9:12] = cross3(q, wanchor2)
    # positional error: the anchor's drift away from body 1's offset point
    err = dist - world_axis1(d, OFFSET, b0, bodies)
    c[r + 2] = k * dot3(ax1, err)
    c[r + 3] = k * dot3(q, err)
    if b1 < 0 and (jf & JF_REVERSE) != 0:
        axp = -axp
    n = r + 4
    n += add_limot(d, np.int64(PRISMATIC_LIMOT), b0, b1, bodies, wp, rows, n, axp, LINEAR)
    add_limot(d, np.int64(ROTOIDE_LIMOT), b0, b1, bodies, wp, rows, n, ax1, ROTATIONAL)


# ----------------------------------------------------------------------------- API
def _pr(j, fn: str) -> PRJoint:
    return joint_of(j, fn, PRJoint)


def dJointCreatePR(w, group=None) -> PRJoint:
    """A new PR joint (prismatic axis y, rotoide axis x in body 1's frame)."""
    return create_joint(PRJoint, w, group, "dJointCreatePR")


def dJointSetPRAnchor(j, x: float, y: float, z: float) -> None:
    """Set the rotoide articulation point (world, m); position 0 is here."""
    joint = _pr(j, "dJointSetPRAnchor")
    set_anchors(joint, checks.xyz(x, y, z, "dJointSetPRAnchor"), OFFSET, ANCHOR2)


def dJointSetPRAxis1(j, x: float, y: float, z: float) -> None:
    """Set the prismatic axis (world direction); the pose becomes angle 0."""
    fn = "dJointSetPRAxis1"
    joint = _pr(j, fn)
    set_axes(joint, checks.xyz(x, y, z, fn), PRISMATIC_AXIS1, None, fn)
    joint.compute_qrel()


def dJointSetPRAxis2(j, x: float, y: float, z: float) -> None:
    """Set the rotoide axis (world direction); the pose becomes angle 0."""
    fn = "dJointSetPRAxis2"
    joint = _pr(j, fn)
    set_axes(joint, checks.xyz(x, y, z, fn), ROTOIDE_AXIS1, ROTOIDE_AXIS2, fn)
    joint.compute_qrel()


def dJointGetPRAnchor(j) -> np.ndarray:
    """The anchor (on body 2, or the world point), world coordinates (3,)."""
    return _pr(j, "dJointGetPRAnchor").anchor()


def dJointGetPRAxis1(j) -> np.ndarray:
    """The prismatic axis in world coordinates (3,)."""
    return get_axis1(_pr(j, "dJointGetPRAxis1"), PRISMATIC_AXIS1)


def dJointGetPRAxis2(j) -> np.ndarray:
    """The rotoide axis in world coordinates (3,)."""
    return get_axis1(_pr(j, "dJointGetPRAxis2"), ROTOIDE_AXIS1)


def dJointSetPRParam(j, parameter: int, value: float) -> None:
    """dParamX: the prismatic axis; dParamX2: the rotoide axis."""
    _pr(j, "dJointSetPRParam").set_param("dJointSetPRParam", parameter, value)


def dJointGetPRParam(j, parameter: int) -> float:
    return _pr(j, "dJointGetPRParam").get_param("dJointGetPRParam", parameter)


def dJointGetPRPosition(j) -> float:
    """Prismatic extension (m): P · ((body 1 + offset) - (body 2 + anchor2))."""
    joint = _pr(j, "dJointGetPRPosition")
    b0, b1 = joint.body_rows()
    if b0 < 0:
        return 0.0
    return float(position(joint.d, joint.flags, b0, b1, body_arrays(joint.world)))


def dJointGetPRPositionRate(j) -> float:
    """Time derivative of the position (m/s): P · (v1 - velocity of body 2's anchor)."""
    joint = _pr(j, "dJointGetPRPositionRate")
    b0, b1 = joint.body_rows()
    if b0 < 0:
        return 0.0
    s = joint.world.bodies
    axp = get_axis1(joint, PRISMATIC_AXIS1)
    rate = float(matmul(axp, s.lvel[b0]))
    if b1 >= 0:
        arm = matmul(s.R[b1], joint.d[ANCHOR2:ANCHOR2 + 3])
        rate -= float(matmul(axp, s.lvel[b1] + np.cross(s.avel[b1], arm)))
        return rate
    return -rate if joint.reversed else rate


def dJointGetPRAngle(j) -> float:
    """Rotoide angle (rad, -π..π), zero when the axes were last set."""
    joint = _pr(j, "dJointGetPRAngle")
    b0, b1 = joint.body_rows()
    if b0 < 0:
        return 0.0
    d = joint.d
    a = float(hinge_angle(body_arrays(joint.world), b0, b1, d[ROTOIDE_AXIS1:ROTOIDE_AXIS1 + 3],
                          d[REL_ROTATION:REL_ROTATION + 4]))
    return -a if joint.reversed else a


def dJointGetPRAngleRate(j) -> float:
    """Time derivative of the rotoide angle (rad/s)."""
    joint = _pr(j, "dJointGetPRAngleRate")
    b0, b1 = joint.body_rows()
    if b0 < 0:
        return 0.0
    s = joint.world.bodies
    axis = get_axis1(joint, ROTOIDE_AXIS1)
    rate = float(matmul(axis, s.avel[b0]))
    if b1 >= 0:
        rate -= float(matmul(axis, s.avel[b1]))
    return -rate if joint.reversed else rate


def dJointAddPRTorque(j, torque: float) -> None:
    """Torque (N·m) about the rotoide axis on body 1, the opposite on body 2."""
    fn = "dJointAddPRTorque"
    joint = _pr(j, fn)
    t = checks.real(torque, fn, "torque")
    b0, b1 = joint.body_rows()
    if b0 < 0:
        return
    if joint.reversed:
        t = -t
    axis = get_axis1(joint, ROTOIDE_AXIS1) * t
    s = joint.world.bodies
    s.tacc[b0] += axis
    if b1 >= 0:
        s.tacc[b1] -= axis
