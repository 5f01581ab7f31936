"""Universal joint: a ball joint whose two axes (axis 1 on body 0, axis 2 on
body 1) are kept perpendicular, like the cross of a cardan shaft; a
limit/motor about each axis.

Record (``RECORD``, declared below; float ``d``):

- ``anchor1`` (body-0 frame), ``anchor2`` (body-1 frame, or world);
- ``axis1`` (body-0 frame), ``axis2`` (body-1 frame, or world as given, not
  normalized, when there is no body 1);
- ``cross_rotation1`` (4): rotation of the virtual cross relative to body 0
  at angle 1 = 0; ``cross_rotation2`` (4): the same for body 1 (or the world);
- ``limot1`` (``dParamX``, about axis 1), ``limot2`` (``dParamX2``).

Attached as (None, b) the body sits in slot 0, so the user's axis 1 is the
record's axis 2 and the other way round; as in ODE the parameter groups are
not swapped (``dParamX`` always drives the record's axis 1).
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from engine.ode import checks
from engine.ode.constants import dJointTypeUniversal
from engine.ode.joints.anchors import (
    body_arrays,
    get_anchor1,
    get_anchor2,
    get_axis1,
    get_axis2,
    set_anchors,
    set_axes,
)
from engine.ode.joints.base import Joint, create_joint, joint_of
from engine.ode.joints.common import angle_from_rel_quat, set_ball, world_axis1, world_axis2
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
from engine.ode.joints.record import JointRecord
from engine.ode.kernels import detmath
from engine.ode.kernels.detlinalg import matmul
from engine.ode.kernels.vec import R_to_q, cross3, dot3, qmul0, qmul1, qmul2

#: the universal joint's record, declared field by field (offsets in ``d``)
RECORD = JointRecord("Universal")
ANCHOR1 = RECORD.floats("anchor1", 3)                # body-0 frame (m)
ANCHOR2 = RECORD.floats("anchor2", 3)                # body-1 frame, or world (m)
AXIS1 = RECORD.floats("axis1", 3)                    # body-0 frame
AXIS2 = RECORD.floats("axis2", 3)                    # body-1 frame, or world
CROSS_ROTATION1 = RECORD.floats("cross_rotation1", 4)  # the cross relative to body 0
CROSS_ROTATION2 = RECORD.floats("cross_rotation2", 4)  # the cross relative to body 1 / world
LIMOT1 = RECORD.block("limot1", LIMOT_BLOCK)         # about axis 1 (dParamX)
LIMOT2 = RECORD.block("limot2", LIMOT_BLOCK)         # about axis 2 (dParamX2)


class UniversalJoint(Joint):
    TYPE = dJointTypeUniversal
    NAME = "Universal"
    LIMOTS = (LIMOT1, LIMOT2)
    __slots__ = ()

    def init_record(self) -> None:
        super().init_record()
        self.d[AXIS1] = 1.0
        self.d[AXIS2 + 1] = 1.0

    def set_relative_values(self) -> None:
        set_anchors(self, self.anchor(), ANCHOR1, ANCHOR2)
        ax1, ax2 = self.axis1(), self.axis2()
        if self.reversed:
            set_axes(self, ax1, None, AXIS2, "dJointAttach")
            set_axes(self, ax2, AXIS1, None, "dJointAttach")
        else:
            set_axes(self, ax1, AXIS1, None, "dJointAttach")
            set_axes(self, ax2, None, AXIS2, "dJointAttach")
        self.compute_qrels()

    def compute_qrels(self) -> None:
        b0, b1 = self.body_rows()
        if b0 >= 0:
            initial_rotations(self.d, b0, b1, body_arrays(self.world))

    # user-facing (reversal-corrected) anchors and axes, world coordinates
    def anchor(self) -> np.ndarray:
        return get_anchor2(self, ANCHOR2) if self.reversed else get_anchor1(self, ANCHOR1)

    def anchor2(self) -> np.ndarray:
        return get_anchor1(self, ANCHOR1) if self.reversed else get_anchor2(self, ANCHOR2)

    def axis1(self) -> np.ndarray:
        return get_axis2(self, AXIS2) if self.reversed else get_axis1(self, AXIS1)

    def axis2(self) -> np.ndarray:
        return get_axis1(self, AXIS1) if self.reversed else get_axis2(self, AXIS2)


# ----------------------------------------------------------------------------- kernels
@njit(cache=True, nogil=True)
def r_from_2axes(a, b) -> np.ndarray:
    """Rotation (3,3) whose columns are a/|a|, b made perpendicular to a and
    normalized, and their cross product. Degenerate input gives the identity
    (ODE leaves its matrix unset then)."""
    R = np.eye(3)
    la = math.sqrt(a[0] * a[0] + a[1] * a[1] + a[2] * a[2])
    if la <= 0:
        return R
    la = 1.0 / la
    ax, ay, az = a[0] * la, a[1] * la, a[2] * la
    k = ax * b[0] + ay * b[1] + az * b[2]
    bx, by, bz = b[0] - k * ax, b[1] - k * ay, b[2] - k * az
    lb = math.sqrt(bx * bx + by * by + bz * bz)
    if lb <= 0:
        return R
    lb = 1.0 / lb
    bx, by, bz = bx * lb, by * lb, bz * lb
    R[0, 0], R[1, 0], R[2, 0] = ax, ay, az
    R[0, 1], R[1, 1], R[2, 1] = bx, by, bz
    R[0, 2] = ay * bz - by * az
    R[1, 2] = az * bx - bz * ax
    R[2, 2] = ax * by - bx * ay
    return R


@njit(cache=True, nogil=True)
def cross_quat(a, b) -> np.ndarray:
    """Quaternion (4,) of :func:`r_from_2axes` (a, b): the cross's frame."""
    return R_to_q(r_from_2axes(a, b))


@njit(cache=True, nogil=True)
def initial_rotations(d, b0, b1, bodies) -> None:
    """Store qrel1/qrel2 so that both angles read 0 in the current pose."""
    ax1 = world_axis1(d, AXIS1, b0, bodies)
    ax2 = world_axis2(d, AXIS2, b1, bodies)
    d[CROSS_ROTATION1:CROSS_ROTATION1 + 4] = qmul1(bodies.q[b0], cross_quat(ax1, ax2))
    qc = cross_quat(ax2, ax1)
    if b1 >= 0:
        d[CROSS_ROTATION2:CROSS_ROTATION2 + 4] = qmul1(bodies.q[b1], qc)
    else:
        d[CROSS_ROTATION2:CROSS_ROTATION2 + 4] = qc


@njit(cache=True, nogil=True)
def _angle2_from_cross(d, b1, bodies, qcross) -> float:
    """Angle (rad) of body 1 (or the world) about axis 2 relative to the cross
    whose frame (axis 2 first) is ``qcross``."""
    if b1 >= 0:
        qrel = qmul2(qmul1(bodies.q[b1], qcross), d[CROSS_ROTATION2:CROSS_ROTATION2 + 4])
    else:
        qrel = qmul2(qcross, d[CROSS_ROTATION2:CROSS_ROTATION2 + 4])
    return -angle_from_rel_quat(qrel, d[AXIS2:AXIS2 + 3])


@njit(cache=True, nogil=True)
def angle1(d, b0, b1, bodies) -> float:
    """Angle (rad) about the record's axis 1, body 0 relative to the cross."""
    qcross = cross_quat(world_axis1(d, AXIS1, b0, bodies), world_axis2(d, AXIS2, b1, bodies))
    qrel = qmul2(qmul1(bodies.q[b0], qcross), d[CROSS_ROTATION1:CROSS_ROTATION1 + 4])
    return angle_from_rel_quat(qrel, d[AXIS1:AXIS1 + 3])


@njit(cache=True, nogil=True)
def angle2(d, b0, b1, bodies) -> float:
    """Angle (rad) about the record's axis 2, body 1 (or world) relative to the cross."""
    qcross = cross_quat(world_axis2(d, AXIS2, b1, bodies), world_axis1(d, AXIS1, b0, bodies))
    return _angle2_from_cross(d, b1, bodies, qcross)


@njit(cache=True, nogil=True)
def angles(d, b0, b1, bodies):
    """(angle1, angle2) in rad, sharing one cross frame as ODE's getAngles does."""
    ax1 = world_axis1(d, AXIS1, b0, bodies)
    ax2 = world_axis2(d, AXIS2, b1, bodies)
    qcross = cross_quat(ax1, ax2)
    a1 = angle_from_rel_quat(
        qmul2(qmul1(bodies.q[b0], qcross), d[CROSS_ROTATION1:CROSS_ROTATION1 + 4]),
        d[AXIS1:AXIS1 + 3])
    # a half turn about the bisector of the two axes swaps them: it turns the
    # frame (ax1, ax2, ...) into (ax2, ax1, ...), the cross seen from axis 2
    h = ax1 + ax2
    inv = 1.0 / math.sqrt(h[0] * h[0] + h[1] * h[1] + h[2] * h[2])
    qhalf = np.array([0.0, h[0] * inv, h[1] * inv, h[2] * inv])
    a2 = _angle2_from_cross(d, b1, bodies, qmul0(qhalf, qcross))
    return a1, a2


@njit(cache=True, nogil=True)
def _limiting(d, off) -> bool:
    lo = d[off + LM_LO]
    hi = d[off + LM_HI]
    return (lo >= -math.pi or hi <= math.pi) and lo <= hi


@njit(cache=True, nogil=True)
def info1(d, di, jf, b0, b1, bodies, wp):
    """4 rows (ball + axes perpendicular), plus one per powered or stopped axis."""
    lim1 = _limiting(d, LIMOT1)
    lim2 = _limiting(d, LIMOT2)
    d[LIMOT1 + LM_LIMIT] = 0.0
    d[LIMOT2 + LM_LIMIT] = 0.0
    if lim1 or lim2:
        a1, a2 = angles(d, b0, b1, bodies)
        if lim1:
            test_limit(d, np.int64(LIMOT1), a1)
        if lim2:
            test_limit(d, np.int64(LIMOT2), a2)
    m = 4
    for off in (LIMOT1, LIMOT2):
        if d[off + LM_LIMIT] != 0 or d[off + LM_FMAX] > 0:
            m += 1
    return m, 4


@njit(cache=True, nogil=True)
def info2(d, di, jf, b0, b1, bodies, wp, rows, r):
    """Rows 0-2 ball, 3 no twist about axis1 x axis2, then limot 1 and limot 2."""
    set_ball(d, ANCHOR1, ANCHOR2, b0, b1, bodies, wp, rows, r, wp.erp)
    ax1 = world_axis1(d, AXIS1, b0, bodies)
    ax2 = world_axis2(d, AXIS2, b1, bodies)
    # row 3: no relative rotation about p, the normal of both axes. axis 2 is
    # first made perpendicular to axis 1 (in their plane) in case they drift.
    k = dot3(ax1, ax2)
    p = cross3(ax1, ax2 - k * ax1)
    n = math.sqrt(dot3(p, p))
    if n > 0:
        p = p / n
    else:
        p = np.array([1.0, 0.0, 0.0])
    J = rows.J
    J[r + 3, 3:6] = p
    if b1 >= 0:
        J[r + 3, 9:12] = -p
    # the axes' angle θ should be π/2; θ - π/2 ≈ -cos θ = -ax1·ax2 for small
    # errors, corrected by erp of it per step
    rows.c[r + 3] = wp.fps * wp.erp * (-k)
    n1 = add_limot(d, np.int64(LIMOT1), b0, b1, bodies, wp, rows, r + 4, ax1, ROTATIONAL)
    add_limot(d, np.int64(LIMOT2), b0, b1, bodies, wp, rows, r + 4 + n1, ax2, ROTATIONAL)


# ----------------------------------------------------------------------------- API
def _universal(j, fn: str) -> UniversalJoint:
    return joint_of(j, fn, UniversalJoint)


def _q_axis_angle(axis: np.ndarray, angle: float) -> np.ndarray:
    """Quaternion (4,) of a rotation by ``angle`` rad about ``axis`` (any length)."""
    l2 = float(matmul(axis, axis))
    if not l2 > 0:
        return np.array([1.0, 0.0, 0.0, 0.0])
    half = 0.5 * angle
    k = detmath.sin(half) * (1.0 / math.sqrt(l2))
    return np.array([detmath.cos(half), axis[0] * k, axis[1] * k, axis[2] * k])


def dJointCreateUniversal(w, group=None) -> UniversalJoint:
    """A new universal joint (axis 1 +x, axis 2 +y in the bodies' frames)."""
    return create_joint(UniversalJoint, w, group, "dJointCreateUniversal")


def dJointSetUniversalAnchor(j, x: float, y: float, z: float) -> None:
    """Set the anchor (world point, m); the current pose becomes angles (0, 0)."""
    fn = "dJointSetUniversalAnchor"
    joint = _universal(j, fn)
    set_anchors(joint, checks.xyz(x, y, z, fn), ANCHOR1, ANCHOR2)
    joint.compute_qrels()


def _set_axis(joint: UniversalJoint, axis: np.ndarray, which: int, fn: str) -> None:
    """Store user axis ``which`` (1 or 2) in its record slot (swapped when reversed)."""
    if (which == 1) != joint.reversed:
        set_axes(joint, axis, AXIS1, None, fn)
    else:
        set_axes(joint, axis, None, AXIS2, fn)


def dJointSetUniversalAxis1(j, x: float, y: float, z: float) -> None:
    """Set axis 1 (world direction); the current pose becomes angles (0, 0)."""
    fn = "dJointSetUniversalAxis1"
    joint = _universal(j, fn)
    _set_axis(joint, checks.xyz(x, y, z, fn), 1, fn)
    joint.compute_qrels()


def dJointSetUniversalAxis2(j, x: float, y: float, z: float) -> None:
    """Set axis 2 (world direction); the current pose becomes angles (0, 0)."""
    fn = "dJointSetUniversalAxis2"
    joint = _universal(j, fn)
    _set_axis(joint, checks.xyz(x, y, z, fn), 2, fn)
    joint.compute_qrels()


def _offset_qrels(joint: UniversalJoint, a: np.ndarray, b: np.ndarray,
                  offset1: float, offset2: float) -> None:
    """Zero references such that the current pose reads (offset1, offset2).

    ``a``/``b`` are the directions the cross frames are built from (ODE uses
    the user's axis as given for one of them). qrel1 is the cross turned by
    offset1 about ``a``, seen from body 0; qrel2 the cross of (b, a) turned
    back by offset2 about ``b``, seen from body 1. With no body 1, ODE keeps
    the plain cross for qrel2 (offset2 then has no effect).
    """
    b0, b1 = joint.body_rows()
    s = joint.world.bodies
    q_off = qmul0(_q_axis_angle(a, offset1), cross_quat(a, b))
    joint.d[CROSS_ROTATION1:CROSS_ROTATION1 + 4] = qmul1(s.q[b0], q_off)
    qc = cross_quat(b, a)
    if b1 >= 0:
        joint.d[CROSS_ROTATION2:CROSS_ROTATION2 + 4] = qmul1(
            s.q[b1], qmul1(_q_axis_angle(b, offset2), qc))
    else:
        joint.d[CROSS_ROTATION2:CROSS_ROTATION2 + 4] = qc


def dJointSetUniversalAxis1Offset(j, x: float, y: float, z: float,
                                  offset1: float, offset2: float) -> None:
    """Set axis 1 so that the current pose reads angles (offset1, offset2) rad."""
    fn = "dJointSetUniversalAxis1Offset"
    joint = _universal(j, fn)
    axis = checks.xyz(x, y, z, fn)
    o1 = checks.real(offset1, fn, "offset1")
    o2 = checks.real(offset2, fn, "offset2")
    _set_axis(joint, axis, 1, fn)
    if joint.reversed:
        o1, o2 = -o1, -o2
    joint.compute_qrels()
    b0, b1 = joint.body_rows()
    if b0 < 0:
        return
    ax2 = world_axis2(joint.d, AXIS2, b1, body_arrays(joint.world))
    _offset_qrels(joint, axis, ax2, o1, o2)


def dJointSetUniversalAxis2Offset(j, x: float, y: float, z: float,
                                  offset1: float, offset2: float) -> None:
    """Set axis 2 so that the current pose reads angles (offset1, offset2) rad.

    Reversed (None, b) joints: ODE 0.16.2 reads offset1 = -offset2 and keeps
    offset2; reproduced as is.
    """
    fn = "dJointSetUniversalAxis2Offset"
    joint = _universal(j, fn)
    axis = checks.xyz(x, y, z, fn)
    o1 = checks.real(offset1, fn, "offset1")
    o2 = checks.real(offset2, fn, "offset2")
    _set_axis(joint, axis, 2, fn)
    if joint.reversed:
        o1 = -o2
        o2 = -o1
    joint.compute_qrels()
    b0, b1 = joint.body_rows()
    if b0 < 0:
        return
    bodies = body_arrays(joint.world)
    _offset_qrels(joint, world_axis1(joint.d, AXIS1, b0, bodies),
                  world_axis2(joint.d, AXIS2, b1, bodies), o1, o2)


def dJointGetUniversalAnchor(j) -> np.ndarray:
    """Anchor on body 1 in world coordinates, (3,) m."""
    return _universal(j, "dJointGetUniversalAnchor").anchor()


def dJointGetUniversalAnchor2(j) -> np.ndarray:
    """Anchor on body 2 (or the world point) in world coordinates, (3,) m."""
    return _universal(j, "dJointGetUniversalAnchor2").anchor2()


def dJointGetUniversalAxis1(j) -> np.ndarray:
    """Axis 1 in world coordinates, (3,)."""
    return _universal(j, "dJointGetUniversalAxis1").axis1()


def dJointGetUniversalAxis2(j) -> np.ndarray:
    """Axis 2 in world coordinates, (3,)."""
    return _universal(j, "dJointGetUniversalAxis2").axis2()


def dJointSetUniversalParam(j, parameter: int, value: float) -> None:
    fn = "dJointSetUniversalParam"
    _universal(j, fn).set_param(fn, parameter, value)


def dJointGetUniversalParam(j, parameter: int) -> float:
    fn = "dJointGetUniversalParam"
    return _universal(j, fn).get_param(fn, parameter)


def _kernel_args(joint: UniversalJoint):
    b0, b1 = joint.body_rows()
    return joint.d, b0, b1, body_arrays(joint.world)


def dJointGetUniversalAngle1(j) -> float:
    """Angle (rad, -π..π) between body 1 and the cross about axis 1."""
    joint = _universal(j, "dJointGetUniversalAngle1")
    d, b0, b1, bodies = _kernel_args(joint)
    if b0 < 0:
        return 0.0
    return float(angle2(d, b0, b1, bodies) if joint.reversed else angle1(d, b0, b1, bodies))


def dJointGetUniversalAngle2(j) -> float:
    """Angle (rad, -π..π) between the cross and body 2 about axis 2."""
    joint = _universal(j, "dJointGetUniversalAngle2")
    d, b0, b1, bodies = _kernel_args(joint)
    if b0 < 0:
        return 0.0
    return float(-angle1(d, b0, b1, bodies) if joint.reversed else angle2(d, b0, b1, bodies))


def dJointGetUniversalAngles(j) -> tuple[float, float]:
    """(angle1, angle2) in rad, computed together (cheaper than one by one)."""
    joint = _universal(j, "dJointGetUniversalAngles")
    d, b0, b1, bodies = _kernel_args(joint)
    if b0 < 0:
        return 0.0, 0.0
    a1, a2 = angles(d, b0, b1, bodies)
    if joint.reversed:
        return float(a2), float(-a1)
    return float(a1), float(a2)


def _rate(joint: UniversalJoint, axis: np.ndarray) -> float:
    b0, b1 = joint.body_rows()
    if b0 < 0:
        return 0.0
    s = joint.world.bodies
    rate = float(matmul(axis, s.avel[b0]))
    if b1 >= 0:
        rate -= float(matmul(axis, s.avel[b1]))
    return rate


def dJointGetUniversalAngle1Rate(j) -> float:
    """Body 1's angular velocity about axis 1 minus body 2's (rad/s)."""
    joint = _universal(j, "dJointGetUniversalAngle1Rate")
    return _rate(joint, joint.axis1())


def dJointGetUniversalAngle2Rate(j) -> float:
    """Body 1's angular velocity about axis 2 minus body 2's (rad/s)."""
    joint = _universal(j, "dJointGetUniversalAngle2Rate")
    return _rate(joint, joint.axis2())


def dJointAddUniversalTorques(j, torque1: float, torque2: float) -> None:
    """Apply torque1 (N·m) about axis 1 plus torque2 about axis 2 to body 1,
    and the opposite to body 2."""
    fn = "dJointAddUniversalTorques"
    joint = _universal(j, fn)
    t1 = checks.real(torque1, fn, "torque1")
    t2 = checks.real(torque2, fn, "torque2")
    if joint.reversed:
        t1, t2 = -t2, -t1
    b0, b1 = joint.body_rows()
    if b0 < 0:
        return
    t = get_axis1(joint, AXIS1) * t1 + get_axis2(joint, AXIS2) * t2
    s = joint.world.bodies
    s.tacc[b0] += t
    if b1 >= 0:
        s.tacc[b1] -= t
