"""Prismatic-universal (PU) joint: body 1 slides along the prismatic axis P
(axis 3, dParamX3, default x) towards the anchor, where a universal joint
(axis 1 on body 1, dParamX, default y; axis 2 on body 2, dParamX2, default z)
links it to body 2.

Rows (as ODE 0.16.2): one angular row keeping axis 1 perpendicular to
axis 2; two linear rows, along the normals of P, keeping body 2's anchor on
body 1's sliding line; then the limit/motor rows of axis 1, axis 2 (angular)
and P (linear, acting at the two anchor points).

Record (``RECORD``, declared below): ``anchor1`` (body-0 frame, m),
``anchor2`` (body-1 frame or world), ``axis1`` (body-0 frame), ``axis2``
(body-1 frame or world), ``cross_rotation1`` and ``cross_rotation2`` (rest
rotations of each body relative to the cross), ``prismatic_axis`` (body-0
frame), the limot blocks ``limot1`` (axis 1), ``limot2`` (axis 2) and
``prismatic_limot`` (P).

As in ODE, a joint attached as (NULL, body) swaps the roles of axes 1 and 2
(the user's axis 1 is stored in the axis-2 slot), and its prismatic row uses
the stored axis P as a world direction.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from engine.ode import checks
from engine.ode.constants import dJointTypePU
from engine.ode.joints.anchors import body_arrays, get_axis1, get_axis2, set_anchors, set_axes
from engine.ode.joints.base import Joint, create_joint, joint_of
from engine.ode.joints.common import angle_from_rel_quat, world_axis1, world_axis2
from engine.ode.joints.layout import JF_REVERSE
from engine.ode.joints.limot import (
    LIMOT_BLOCK,
    LM_FMAX,
    LM_HI,
    LM_LIMIT,
    LM_LO,
    ROTATIONAL,
    add_limot,
    test_limit,
)
from engine.ode.joints.limot2 import add_two_point_limot
from engine.ode.joints.record import JointRecord
from engine.ode.kernels.detlinalg import matmul
from engine.ode.kernels.vec import R_to_q, cross3, dot3, mat_vec, plane_space, qmul0, qmul1, qmul2

#: the PU joint's record, declared field by field (offsets in ``d``)
RECORD = JointRecord("PU")
ANCHOR1 = RECORD.floats("anchor1", 3)                  # body-0 frame (m)
ANCHOR2 = RECORD.floats("anchor2", 3)                  # body-1 frame, or world (m)
AXIS1 = RECORD.floats("axis1", 3)                      # body-0 frame
AXIS2 = RECORD.floats("axis2", 3)                      # body-1 frame, or world
CROSS_ROTATION1 = RECORD.floats("cross_rotation1", 4)  # rest rotation of body 0 to the cross
CROSS_ROTATION2 = RECORD.floats("cross_rotation2", 4)  # rest rotation of body 1 to the cross
PRISMATIC_AXIS = RECORD.floats("prismatic_axis", 3)    # body-0 frame
LIMOT1 = RECORD.block("limot1", LIMOT_BLOCK)           # axis 1 (dParamX, rad)
LIMOT2 = RECORD.block("limot2", LIMOT_BLOCK)           # axis 2 (dParamX2, rad)
PRISMATIC_LIMOT = RECORD.block("prismatic_limot", LIMOT_BLOCK)  # axis P (dParamX3, m)


class PUJoint(Joint):
    TYPE = dJointTypePU
    NAME = "PU"
    LIMOTS = (LIMOT1, LIMOT2, PRISMATIC_LIMOT)
    __slots__ = ()

    def init_record(self) -> None:
        super().init_record()
        d = self.d
        d[AXIS1 + 1] = 1.0
        d[AXIS2 + 2] = 1.0
        d[PRISMATIC_AXIS] = 1.0

    def set_relative_values(self) -> None:
        ax1, ax2, ax3 = self.axis(1), self.axis(2), self.axis(3)
        set_anchors(self, self.anchor(), ANCHOR1, ANCHOR2)
        if self.reversed:
            ax1, ax2 = ax2, ax1
        set_axes(self, ax1, AXIS1, None, "dJointAttach")
        set_axes(self, ax2, None, AXIS2, "dJointAttach")
        set_axes(self, ax3, PRISMATIC_AXIS, None, "dJointAttach")
        self.compute_qrels()

    def compute_qrels(self) -> None:
        b0, b1 = self.body_rows()
        if b0 >= 0:
            rest_rotations(self.d, b0, b1, body_arrays(self.world))

    def anchor(self) -> np.ndarray:
        """The anchor on body 2 (or the world point) in world coordinates (3,)."""
        b1 = self.body_rows()[1]
        if b1 < 0:
            return self.d[ANCHOR2:ANCHOR2 + 3].copy()
        s = self.world.bodies
        return matmul(s.R[b1], self.d[ANCHOR2:ANCHOR2 + 3]) + s.pos[b1]

    def axis(self, n: int) -> np.ndarray:
        """User axis ``n`` (1, 2 or 3 = P) in world coordinates (3,)."""
        if n == 3:
            return get_axis1(self, PRISMATIC_AXIS)
        if (n == 1) != self.reversed:
            return get_axis1(self, AXIS1)
        if self.body_rows()[0] < 0:
            return np.zeros(3)
        return get_axis2(self, AXIS2)

    def set_axis(self, n: int, v: np.ndarray, function: str) -> None:
        if n == 3:
            set_axes(self, v, PRISMATIC_AXIS, None, function)
        elif (n == 1) != self.reversed:
            set_axes(self, v, AXIS1, None, function)
        else:
            set_axes(self, v, None, AXIS2, function)
        self.compute_qrels()

    def set_anchor_shifted(self, p: np.ndarray, shift: np.ndarray) -> None:
        """Set the anchor at world point p as if body 1 stood at its position + shift."""
        b0 = self.body_rows()[0]
        set_anchors(self, p, ANCHOR1, ANCHOR2)
        if b0 >= 0:
            s = self.world.bodies
            self.d[ANCHOR1:ANCHOR1 + 3] = matmul(s.R[b0].T, p - (s.pos[b0] + shift))
        self.compute_qrels()


# ----------------------------------------------------------------------------- kernels
@njit(cache=True, nogil=True)
def _q_from_2_axes(a, b) -> np.ndarray:
    """Quaternion of the rotation whose x axis is a and whose x-y plane holds b."""
    an = a / math.sqrt(dot3(a, a))
    bp = b - dot3(an, b) * an
    bp = bp / math.sqrt(dot3(bp, bp))
    c = cross3(an, bp)
    R = np.empty((3, 3))
    for i in range(3):
        R[i, 0] = an[i]
        R[i, 1] = bp[i]
        R[i, 2] = c[i]
    return R_to_q(R)


@njit(cache=True, nogil=True)
def rest_rotations(d, b0, b1, bodies) -> None:
    """Record qrel1, qrel2: each body's rotation relative to the cross now."""
    ax1 = world_axis1(d, AXIS1, b0, bodies)
    ax2 = world_axis2(d, AXIS2, b1, bodies)
    d[CROSS_ROTATION1:CROSS_ROTATION1 + 4] = qmul1(bodies.q[b0], _q_from_2_axes(ax1, ax2))
    qc = _q_from_2_axes(ax2, ax1)
    d[CROSS_ROTATION2:CROSS_ROTATION2 + 4] = qmul1(bodies.q[b1], qc) if b1 >= 0 else qc


@njit(cache=True, nogil=True)
def _angle2_of(d, b1, bodies, qc) -> float:
    """Angle about axis 2 (rad) from the cross's rotation ``qc`` as seen by body 2."""
    if b1 >= 0:
        qrel = qmul2(qmul1(bodies.q[b1], qc), d[CROSS_ROTATION2:CROSS_ROTATION2 + 4])
    else:
        qrel = qmul2(qc, d[CROSS_ROTATION2:CROSS_ROTATION2 + 4])
    return -angle_from_rel_quat(qrel, d[AXIS2:AXIS2 + 3])


@njit(cache=True, nogil=True)
def angles(d, b0, b1, bodies) -> tuple:
    """(angle about axis 1, angle about axis 2) in rad, internal body order.

    The cross's frame is built from the two current axes (x along axis 1,
    axis 2 in its x-y plane); each angle is the rotation of a body relative
    to the cross since the rest pose. As ODE's getAngles, body 2's view of
    the cross is that frame turned by π about ax1 + ax2, which swaps the
    axes (exactly the frame built the other way round when both are unit
    vectors; axis 2 of a one-body joint is kept as given, not normalized).
    """
    ax1 = world_axis1(d, AXIS1, b0, bodies)
    ax2 = world_axis2(d, AXIS2, b1, bodies)
    qc = _q_from_2_axes(ax1, ax2)
    qrel = qmul2(qmul1(bodies.q[b0], qc), d[CROSS_ROTATION1:CROSS_ROTATION1 + 4])
    a1 = angle_from_rel_quat(qrel, d[AXIS1:AXIS1 + 3])
    half = np.zeros(4)
    half[1:4] = ax1 + ax2
    half[1:4] /= math.sqrt(dot3(half[1:4], half[1:4]))
    return a1, _angle2_of(d, b1, bodies, qmul0(half, qc))


@njit(cache=True, nogil=True)
def angle2(d, b0, b1, bodies) -> float:
    """Angle about axis 2 alone (rad), ODE's getAngle2: the cross's frame
    built from axis 2 then axis 1."""
    ax1 = world_axis1(d, AXIS1, b0, bodies)
    ax2 = world_axis2(d, AXIS2, b1, bodies)
    return _angle2_of(d, b1, bodies, _q_from_2_axes(ax2, ax1))


@njit(cache=True, nogil=True)
def position(d, jf, b0, b1, bodies) -> float:
    """Prismatic position (m): P · (anchor on body 1 - anchor on body 2),
    sign-corrected for a reversed one-body joint."""
    q = world_axis1(d, ANCHOR1, b0, bodies) + bodies.pos[b0]
    if b1 >= 0:
        q -= mat_vec(bodies.R[b1], d[ANCHOR2:ANCHOR2 + 3]) + bodies.pos[b1]
    else:
        q -= d[ANCHOR2:ANCHOR2 + 3]
        if (jf & JF_REVERSE) != 0:
            q = -q
    return dot3(world_axis1(d, PRISMATIC_AXIS, b0, bodies), q)


@njit(cache=True, nogil=True)
def _limiting(d, off) -> bool:
    lo = d[off + LM_LO]
    hi = d[off + LM_HI]
    return (lo >= -math.pi or hi <= math.pi) and lo <= hi


@njit(cache=True, nogil=True)
def info1(d, di, jf, b0, b1, bodies, wp):
    m = 3
    lo = d[PRISMATIC_LIMOT + LM_LO]
    hi = d[PRISMATIC_LIMOT + LM_HI]
    d[PRISMATIC_LIMOT + LM_LIMIT] = 0.0
    if (lo > -math.inf or hi < math.inf) and lo <= hi:
        test_limit(d, np.int64(PRISMATIC_LIMOT), position(d, jf, b0, b1, bodies))
    d[LIMOT1 + LM_LIMIT] = 0.0
    d[LIMOT2 + LM_LIMIT] = 0.0
    lim1 = _limiting(d, LIMOT1)
    lim2 = _limiting(d, LIMOT2)
    if lim1 or lim2:
        a1, a2 = angles(d, b0, b1, bodies)
        if lim1:
            test_limit(d, np.int64(LIMOT1), a1)
        if lim2:
            test_limit(d, np.int64(LIMOT2), a2)
    for off in (PRISMATIC_LIMOT, LIMOT1, LIMOT2):
        if d[off + LM_LIMIT] != 0 or d[off + LM_FMAX] > 0:
            m += 1
    return m, 3


@njit(cache=True, nogil=True)
def info2(d, di, jf, b0, b1, bodies, wp, rows, r):
    k = wp.fps * wp.erp
    J = rows.J
    c = rows.c
    ax1 = world_axis1(d, AXIS1, b0, bodies)
    ax2 = world_axis2(d, AXIS2, b1, bodies)
    # row 0: no relative rotation about ax1 x ax2; the cosine between the
    # axes (≈ the angle away from 90°) is corrected by erp per step
    perp = cross3(ax1, ax2)
    perp = perp / math.sqrt(dot3(perp, perp))
    J[r, 3:6] = perp
    if b1 >= 0:
        J[r, 9:12] = -perp
    c[r] = -k * dot3(ax1, ax2)
    # rows 1-2: body 2's anchor stays on body 1's line through its anchor
    # along P: no relative velocity of the anchors along p, q normal to P
    reverse_one = b1 < 0 and (jf & JF_REVERSE) != 0
    if reverse_one:
        axp = d[PRISMATIC_AXIS:PRISMATIC_AXIS + 3].copy()
    else:
        axp = world_axis1(d, PRISMATIC_AXIS, b0, bodies)
    an1 = world_axis1(d, ANCHOR1, b0, bodies)
    an2w = world_axis2(d, ANCHOR2, b1, bodies)
    if b1 >= 0:
        an2 = an2w
        an2w = an2w + bodies.pos[b1]
    else:
        an2 = an2w
    sep = an2w - (an1 + bodies.pos[b0])
    p, q = plane_space(axp)
    J[r + 1, 0:3] = p
    J[r + 2, 0:3] = q
    J[r + 1, 3:6] = cross3(an1, p)
    J[r + 2, 3:6] = cross3(an1, q)
    if b1 >= 0:
        J[r + 1, 6:9] = -p
        J[r + 2, 6:9] = -q
        J[r + 1, 9:12] = cross3(p, an2)
        J[r + 2, 9:12] = cross3(q, an2)
    c[r + 1] = k * dot3(p, sep)
    c[r + 2] = k * dot3(q, sep)
    n = r + 3
    n += add_limot(d, np.int64(LIMOT1), b0, b1, bodies, wp, rows, n, ax1, ROTATIONAL)
    n += add_limot(d, np.int64(LIMOT2), b0, b1, bodies, wp, rows, n, ax2, ROTATIONAL)
    if reverse_one:
        axp = -axp
    add_two_point_limot(d, PRISMATIC_LIMOT, b0, b1, bodies, wp, rows, n, axp, an1, an2)


# ----------------------------------------------------------------------------- API
def _pu(j, fn: str) -> PUJoint:
    return joint_of(j, fn, PUJoint)


def dJointCreatePU(w, group=None) -> PUJoint:
    """A new PU joint (axis 1 y, axis 2 z, prismatic axis x)."""
    return create_joint(PUJoint, w, group, "dJointCreatePU")


def dJointSetPUAnchor(j, x: float, y: float, z: float) -> None:
    """Set the universal articulation point (world, m); position 0 is here."""
    fn = "dJointSetPUAnchor"
    _pu(j, fn).set_anchor_shifted(checks.xyz(x, y, z, fn), np.zeros(3))


def dJointSetPUAnchorDelta(j, x: float, y: float, z: float, dx: float, dy: float,
                           dz: float) -> None:
    """Set the anchor as if body 1 stood at its position + (dx, dy, dz) (m)."""
    fn = "dJointSetPUAnchorDelta"
    joint = _pu(j, fn)
    joint.set_anchor_shifted(checks.xyz(x, y, z, fn), checks.xyz(dx, dy, dz, fn, "dx, dy, dz"))


def dJointSetPUAnchorOffset(j, x: float, y: float, z: float, dx: float, dy: float,
                            dz: float) -> None:
    """Set the anchor so that the position now reads P · (dx, dy, dz) (m):
    as if body 1 stood at its position - (dx, dy, dz)."""
    fn = "dJointSetPUAnchorOffset"
    joint = _pu(j, fn)
    delta = checks.xyz(dx, dy, dz, fn, "dx, dy, dz")
    if joint.reversed:
        delta = -delta
    joint.set_anchor_shifted(checks.xyz(x, y, z, fn), -delta)


def _set_axis(j, fn: str, n: int, x, y, z) -> None:
    _pu(j, fn).set_axis(n, checks.xyz(x, y, z, fn), fn)


def dJointSetPUAxis1(j, x: float, y: float, z: float) -> None:
    """Set universal axis 1 (world direction); the pose becomes angle 0."""
    _set_axis(j, "dJointSetPUAxis1", 1, x, y, z)


def dJointSetPUAxis2(j, x: float, y: float, z: float) -> None:
    """Set universal axis 2 (world direction); the pose becomes angle 0."""
    _set_axis(j, "dJointSetPUAxis2", 2, x, y, z)


def dJointSetPUAxis3(j, x: float, y: float, z: float) -> None:
    """Set the prismatic axis (world direction)."""
    _set_axis(j, "dJointSetPUAxis3", 3, x, y, z)


def dJointSetPUAxisP(j, x: float, y: float, z: float) -> None:
    """Another name of :func:`dJointSetPUAxis3`."""
    _set_axis(j, "dJointSetPUAxisP", 3, x, y, z)


def dJointGetPUAnchor(j) -> np.ndarray:
    return _pu(j, "dJointGetPUAnchor").anchor()


def dJointGetPUAxis1(j) -> np.ndarray:
    return _pu(j, "dJointGetPUAxis1").axis(1)


def dJointGetPUAxis2(j) -> np.ndarray:
    return _pu(j, "dJointGetPUAxis2").axis(2)


def dJointGetPUAxis3(j) -> np.ndarray:
    return _pu(j, "dJointGetPUAxis3").axis(3)


def dJointGetPUAxisP(j) -> np.ndarray:
    """Another name of :func:`dJointGetPUAxis3`."""
    return _pu(j, "dJointGetPUAxisP").axis(3)


def dJointSetPUParam(j, parameter: int, value: float) -> None:
    """dParamX: axis 1; dParamX2: axis 2; dParamX3: the prismatic axis."""
    _pu(j, "dJointSetPUParam").set_param("dJointSetPUParam", parameter, value)


def dJointGetPUParam(j, parameter: int) -> float:
    return _pu(j, "dJointGetPUParam").get_param("dJointGetPUParam", parameter)


def dJointGetPUPosition(j) -> float:
    """Prismatic extension (m), zero where the anchor was set."""
    joint = _pu(j, "dJointGetPUPosition")
    b0, b1 = joint.body_rows()
    if b0 < 0:
        return 0.0
    return float(position(joint.d, joint.flags, b0, b1, body_arrays(joint.world)))


def dJointGetPUPositionRate(j) -> float:
    """Time derivative of the position (m/s) along P: body 1's anchor-point
    velocity minus body 2's linear velocity.

    As ODE 0.16.2, body 2's spin contributes with the wrong sign (its
    anchor-point velocity is added instead of subtracted); this reading is
    not used by the joint's rows.
    """
    joint = _pu(j, "dJointGetPUPositionRate")
    b0, b1 = joint.body_rows()
    if b0 < 0:
        return 0.0
    s = joint.world.bodies
    d = joint.d
    if b1 >= 0:
        arm2 = matmul(s.R[b1], d[ANCHOR2:ANCHOR2 + 3])
        r = s.pos[b0] - (arm2 + s.pos[b1])
    else:
        r = s.pos[b0] - d[ANCHOR2:ANCHOR2 + 3]
    # velocity of body 1's material point at the anchor: v0 + w0 x (anchor - c0)
    v = s.lvel[b0] + np.cross(r, s.avel[b0])
    axp = get_axis1(joint, PRISMATIC_AXIS)
    if b1 >= 0:
        v = v - (np.cross(arm2, s.avel[b1]) + s.lvel[b1])
        return float(matmul(axp, v))
    rate = float(matmul(axp, v))
    return -rate if joint.reversed else rate


def _angles(joint: PUJoint) -> tuple[float, float]:
    b0, b1 = joint.body_rows()
    if b0 < 0:
        return 0.0, 0.0
    a1, a2 = angles(joint.d, b0, b1, body_arrays(joint.world))
    return (float(a2), float(a1)) if joint.reversed else (float(a1), float(a2))


def _angle(j, fn: str, n: int) -> float:
    """User angle ``n`` computed alone, as ODE's dJointGetPUAngle1/2 do."""
    joint = _pu(j, fn)
    b0, b1 = joint.body_rows()
    if b0 < 0:
        return 0.0
    bodies = body_arrays(joint.world)
    if (n == 1) != joint.reversed:
        return float(angles(joint.d, b0, b1, bodies)[0])
    return float(angle2(joint.d, b0, b1, bodies))


def dJointGetPUAngles(j) -> tuple[float, float]:
    """(angle 1, angle 2) in rad, -π..π, zero when the anchor/axes were set."""
    return _angles(_pu(j, "dJointGetPUAngles"))


def dJointGetPUAngle1(j) -> float:
    return _angle(j, "dJointGetPUAngle1", 1)


def dJointGetPUAngle2(j) -> float:
    return _angle(j, "dJointGetPUAngle2", 2)


def _angle_rate(j, fn: str, n: int) -> float:
    joint = _pu(j, fn)
    b0, b1 = joint.body_rows()
    if b0 < 0:
        return 0.0
    s = joint.world.bodies
    axis = joint.axis(n)
    rate = float(matmul(axis, s.avel[b0]))
    if b1 >= 0:
        rate -= float(matmul(axis, s.avel[b1]))
    return rate


def dJointGetPUAngle1Rate(j) -> float:
    """Relative angular velocity about axis 1 (rad/s)."""
    return _angle_rate(j, "dJointGetPUAngle1Rate", 1)


def dJointGetPUAngle2Rate(j) -> float:
    """Relative angular velocity about axis 2 (rad/s)."""
    return _angle_rate(j, "dJointGetPUAngle2Rate", 2)


def dJointAddPUTorque(j, torque: float) -> None:
    """Torque (N·m) about axis 1 on body 1 and the opposite on body 2.

    ODE 0.16.2 declares this function but does not define it; here it acts
    as the PR joint's dJointAddPRTorque does, about the first rotoide axis.
    """
    fn = "dJointAddPUTorque"
    joint = _pu(j, fn)
    t = checks.real(torque, fn, "torque")
    b0, b1 = joint.body_rows()
    if b0 < 0:
        return
    if joint.reversed:
        t = -t
    axis = joint.axis(1) * t
    s = joint.world.bodies
    s.tacc[b0] += axis
    if b1 >= 0:
        s.tacc[b1] -= axis
