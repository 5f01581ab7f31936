"""Hinge-2 joint: two hinges in series (a car's steering axis 1 on body 1 and
wheel axis 2 on body 2), with a suspension along axis 1. Needs two bodies.

Rows: three ball rows keeping the anchors together, built along (suspension
direction, p, q) so that the first one can be soft (dParamSuspensionERP/CFM);
one row keeping the angle between axis 1 and axis 2 at its initial value;
then axis 1's limit/motor row and axis 2's motor row (axis 2 has no stops).

Record (``RECORD``, declared below): ``anchor1`` (body-0 frame, m),
``anchor2`` (body-1 frame), ``axis1`` (body-0 frame), ``axis2`` (body-1
frame), ``rest_cos`` and ``rest_sin`` (of the rest angle between the axes),
``angle1_ref1``/``angle1_ref2`` (body-0 frame references for angle 1),
``angle2_ref1``/``angle2_ref2`` (body-1 frame references for angle 2), the
limot blocks of axis 1 and axis 2, the suspension ERP, CFM and axis (body-0
frame); int ``has_suspension`` is 1 once a suspension axis is set.

Suspension axis (Webots' extension, design choice): ODE springs the anchor
along axis 1. ``dJointSetHinge2SuspensionAxis`` gives any direction instead;
it is stored in body 1's frame (record slot 0: it follows the chassis, as
axis 1 does) and replaces axis 1 as the direction of the soft ball row;
everything else (the steering row, stops and motors) still uses axis 1. With no axis set the
joint is exactly ODE's. ``dJointGetHinge2SuspensionAxis`` returns the
direction in use: the set axis, or axis 1 when none was set.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from engine.ode import checks
from engine.ode.constants import dJointTypeHinge2, dParamSuspensionCFM, dParamSuspensionERP
from engine.ode.errors import ODEError
from engine.ode.joints.anchors import (
    body_arrays,
    get_anchor1,
    get_anchor2,
    get_axis1,
    get_axis2,
    set_anchors,
    set_axes,
    unit,
)
from engine.ode.joints.base import Joint, create_joint, joint_of
from engine.ode.joints.common import set_ball2, world_axis1, world_axis2
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
from engine.ode.kernels.detlinalg import matmul, norm
from engine.ode.kernels.vec import cross3, dot3, mat_t_vec

#: the hinge-2's record, declared field by field (offsets in ``d`` / ``di``)
RECORD = JointRecord("Hinge2")
ANCHOR1 = RECORD.floats("anchor1", 3)          # body-0 frame (m)
ANCHOR2 = RECORD.floats("anchor2", 3)          # body-1 frame (m)
AXIS1 = RECORD.floats("axis1", 3)              # body-0 frame
AXIS2 = RECORD.floats("axis2", 3)              # body-1 frame
REST_COS = RECORD.floats("rest_cos")           # cos of the rest angle between the axes
REST_SIN = RECORD.floats("rest_sin")           # sin of the rest angle between the axes
ANGLE1_REF1 = RECORD.floats("angle1_ref1", 3)  # body-0 frame references for angle 1
ANGLE1_REF2 = RECORD.floats("angle1_ref2", 3)
ANGLE2_REF1 = RECORD.floats("angle2_ref1", 3)  # body-1 frame references for angle 2
ANGLE2_REF2 = RECORD.floats("angle2_ref2", 3)
LIMOT1 = RECORD.block("limot1", LIMOT_BLOCK)   # axis 1 (dParamX)
LIMOT2 = RECORD.block("limot2", LIMOT_BLOCK)   # axis 2 (dParamX2)
SUSPENSION_ERP = RECORD.floats("suspension_erp")
SUSPENSION_CFM = RECORD.floats("suspension_cfm")
SUSPENSION_AXIS = RECORD.floats("suspension_axis", 3)  # body-0 frame
I_HAS_SUSPENSION = RECORD.ints("has_suspension")  # 1 once a suspension axis is set


class Hinge2Joint(Joint):
    TYPE = dJointTypeHinge2
    NAME = "Hinge2"
    LIMOTS = (LIMOT1, LIMOT2)
    TWO_BODIES = True
    __slots__ = ()

    def init_record(self) -> None:
        super().init_record()
        d = self.d
        d[AXIS1] = 1.0
        d[AXIS2 + 1] = 1.0
        d[ANGLE1_REF1] = 1.0
        d[ANGLE1_REF2 + 1] = 1.0
        d[SUSPENSION_ERP] = self.world.erp
        d[SUSPENSION_CFM] = self.world.cfm
        d[SUSPENSION_AXIS] = 1.0

    def set_relative_values(self) -> None:
        set_anchors(self, self.anchor(), ANCHOR1, ANCHOR2)
        b0, b1 = self.body_rows()
        if b0 >= 0 and b1 >= 0:
            set_axes(self, get_axis1(self, AXIS1), AXIS1, None, "dJointAttach")
            set_axes(self, self.axis2(), None, AXIS2, "dJointAttach")
        self.update_angle_refs(rest_angle=True, strict=False)

    # -- geometry ------------------------------------------------------------
    def anchor(self) -> np.ndarray:
        return get_anchor2(self, ANCHOR2) if self.reversed else get_anchor1(self, ANCHOR1)

    def anchor2(self) -> np.ndarray:
        return get_anchor1(self, ANCHOR1) if self.reversed else get_anchor2(self, ANCHOR2)

    def axis2(self) -> np.ndarray:
        """Axis 2 in world coordinates ((3,) zeros without body 2)."""
        if self.body_rows()[1] < 0:
            return np.zeros(3)
        return get_axis2(self, AXIS2)

    def update_angle_refs(self, rest_angle: bool, strict: bool, function: str = "") -> None:
        """Recompute the angle references v1, v2, w1, w2 (and, if
        ``rest_angle``, c0/s0, the rest angle between the axes) from the
        current poses. Axes along one line leave them unchanged, or raise
        ODEError naming ``function`` if ``strict``."""
        b0, b1 = self.body_rows()
        if b0 < 0 or b1 < 0:
            return
        store = self.world.bodies
        R0, R1 = store.R[b0], store.R[b1]
        ax1 = matmul(R0, self.d[AXIS1:AXIS1 + 3])
        ax2 = matmul(R1, self.d[AXIS2:AXIS2 + 3])
        if rest_angle:
            self.d[REST_SIN] = float(norm(np.cross(ax1, ax2)))
            self.d[REST_COS] = float(matmul(ax1, ax2))
        # v1: axis 2 made perpendicular to axis 1, v2 = axis1 x v1 (body-0 frame);
        # w1: axis 1 made perpendicular to axis 2, w2 = axis2 x w1 (body-1 frame)
        u = ax2 - (matmul(ax1, ax2)) * ax1
        w = ax1 - (matmul(ax2, ax1)) * ax2
        nu, nw = float(norm(u)), float(norm(w))
        if nu <= 1e-12 or nw <= 1e-12:
            if strict:
                raise ODEError(function, "axis", "hinge-2 axes must not lie along one line")
            return
        u /= nu
        w /= nw
        self.d[ANGLE1_REF1:ANGLE1_REF1 + 3] = matmul(R0.T, u)
        self.d[ANGLE1_REF2:ANGLE1_REF2 + 3] = matmul(R0.T, np.cross(ax1, u))
        self.d[ANGLE2_REF1:ANGLE2_REF1 + 3] = matmul(R1.T, w)
        self.d[ANGLE2_REF2:ANGLE2_REF2 + 3] = matmul(R1.T, np.cross(ax2, w))

    # -- parameters -------------------------------------------------------------
    def set_extra_param(self, function: str, parameter: int, value: float) -> None:
        if parameter == dParamSuspensionERP:
            self.d[SUSPENSION_ERP] = value
        elif parameter == dParamSuspensionCFM:
            self.d[SUSPENSION_CFM] = value

    def get_extra_param(self, function: str, parameter: int) -> float:
        if parameter == dParamSuspensionERP:
            return float(self.d[SUSPENSION_ERP])
        if parameter == dParamSuspensionCFM:
            return float(self.d[SUSPENSION_CFM])
        return 0.0


# ----------------------------------------------------------------------------- kernels
@njit(cache=True, nogil=True)
def angle1(d, b0, b1, bodies) -> float:
    """Steering angle (rad): axis 2 seen from body 0, measured in the plane
    (v1, v2) normal to axis 1; the sign makes a turn about +axis1 positive."""
    p = world_axis2(d, AXIS2, b1, bodies)
    q = mat_t_vec(bodies.R[b0], p)
    return -detmath.atan2(dot3(d[ANGLE1_REF2:ANGLE1_REF2 + 3], q),
                          dot3(d[ANGLE1_REF1:ANGLE1_REF1 + 3], q))


@njit(cache=True, nogil=True)
def angle2(d, b0, b1, bodies) -> float:
    """Wheel angle (rad): axis 1 seen from body 1, in the plane (w1, w2)."""
    p = world_axis1(d, AXIS1, b0, bodies)
    q = p if b1 < 0 else mat_t_vec(bodies.R[b1], p)
    return -detmath.atan2(dot3(d[ANGLE2_REF2:ANGLE2_REF2 + 3], q),
                          dot3(d[ANGLE2_REF1:ANGLE2_REF1 + 3], q))


@njit(cache=True, nogil=True)
def info1(d, di, jf, b0, b1, bodies, wp):
    m = 4
    lo = d[LIMOT1 + LM_LO]
    hi = d[LIMOT1 + LM_HI]
    d[LIMOT1 + LM_LIMIT] = 0.0
    if (lo >= -math.pi or hi <= math.pi) and lo <= hi:
        test_limit(d, np.int64(LIMOT1), angle1(d, b0, b1, bodies))
    if d[LIMOT1 + LM_LIMIT] != 0 or d[LIMOT1 + LM_FMAX] > 0:
        m += 1
    # axis 2 never has stops, only a motor
    d[LIMOT2 + LM_LIMIT] = 0.0
    if d[LIMOT2 + LM_FMAX] > 0:
        m += 1
    return m, 4


@njit(cache=True, nogil=True)
def info2(d, di, jf, b0, b1, bodies, wp, rows, r):
    ax1 = world_axis1(d, AXIS1, b0, bodies)
    ax2 = world_axis2(d, AXIS2, b1, bodies)
    u = cross3(ax1, ax2)
    s = math.sqrt(dot3(u, u))
    c = dot3(ax1, ax2)
    susp = world_axis1(d, SUSPENSION_AXIS, b0, bodies) if di[I_HAS_SUSPENSION] != 0 else ax1
    set_ball2(d, ANCHOR1, ANCHOR2, b0, b1, bodies, wp, rows, r, susp, d[SUSPENSION_ERP])
    rows.cfm[r] = d[SUSPENSION_CFM]
    # keep the angle θ between the axes at its rest value θ0. With u the unit
    # ax1 x ax2, the row's J·v = u·(w0 - w1) = -dθ/dt; asking for
    # erp·fps·sin(θ - θ0) = erp·fps·(c0·s - s0·c) (s = sin θ, c = cos θ)
    # turns θ back toward θ0 by about erp of the error per step
    if s > 0:
        u = u / s
    J = rows.J
    J[r + 3, 3:6] = u
    if b1 >= 0:
        J[r + 3, 9:12] = -u
    rows.c[r + 3] = wp.fps * wp.erp * (d[REST_COS] * s - d[REST_SIN] * c)
    k = r + 4
    k += add_limot(d, np.int64(LIMOT1), b0, b1, bodies, wp, rows, k, ax1, ROTATIONAL)
    add_limot(d, np.int64(LIMOT2), b0, b1, bodies, wp, rows, k, ax2, ROTATIONAL)


# ----------------------------------------------------------------------------- API
def _h2(j, fn: str) -> Hinge2Joint:
    return joint_of(j, fn, Hinge2Joint)


def dJointCreateHinge2(w, group=None) -> Hinge2Joint:
    """A new hinge-2 joint (axis 1 x, axis 2 y in the bodies' frames)."""
    return create_joint(Hinge2Joint, w, group, "dJointCreateHinge2")


def dJointSetHinge2Anchor(j, x: float, y: float, z: float) -> None:
    """Set the anchor (world point, m); the angle references are recomputed."""
    joint = _h2(j, "dJointSetHinge2Anchor")
    set_anchors(joint, checks.xyz(x, y, z, "dJointSetHinge2Anchor"), ANCHOR1, ANCHOR2)
    joint.update_angle_refs(rest_angle=False, strict=True, function="dJointSetHinge2Anchor")


def _set_axes(joint: Hinge2Joint, a1, a2, fn: str) -> None:
    """Store world axes a1 and/or a2 ((3,) arrays or None), refusing axes
    along one line, and reset the rest angle and the angle references."""
    b0, b1 = joint.body_rows()
    if b0 < 0 or b1 < 0:
        return
    store = joint.world.bodies
    d = joint.d
    new1 = unit(a1, fn, "axis1") if a1 is not None else matmul(store.R[b0], d[AXIS1:AXIS1 + 3])
    new2 = unit(a2, fn, "axis2") if a2 is not None else matmul(store.R[b1], d[AXIS2:AXIS2 + 3])
    if norm(np.cross(new1, new2)) <= 1e-12:
        raise ODEError(fn, "axis", "hinge-2 axes must not lie along one line")
    if a1 is not None:
        set_axes(joint, a1, AXIS1, None, fn)
    if a2 is not None:
        set_axes(joint, a2, None, AXIS2, fn)
    joint.update_angle_refs(rest_angle=True, strict=True, function=fn)


def dJointSetHinge2Axes(j, axis1, axis2) -> None:
    """Set axis 1 and/or axis 2 (world (3,) sequences; None keeps that axis).

    The current angle between the axes becomes their rest angle, and the
    current poses the zero of both hinge angles.
    """
    fn = "dJointSetHinge2Axes"
    joint = _h2(j, fn)
    if axis1 is None and axis2 is None:
        raise ODEError(fn, "axis1, axis2", "at least one axis must be given")
    a1 = None if axis1 is None else checks.vector(axis1, 3, fn, "axis1")
    a2 = None if axis2 is None else checks.vector(axis2, 3, fn, "axis2")
    _set_axes(joint, a1, a2, fn)


def dJointSetHinge2Axis1(j, x: float, y: float, z: float) -> None:
    """Set axis 1 (world direction); see :func:`dJointSetHinge2Axes`."""
    fn = "dJointSetHinge2Axis1"
    _set_axes(_h2(j, fn), checks.xyz(x, y, z, fn), None, fn)


def dJointSetHinge2Axis2(j, x: float, y: float, z: float) -> None:
    """Set axis 2 (world direction); see :func:`dJointSetHinge2Axes`."""
    fn = "dJointSetHinge2Axis2"
    _set_axes(_h2(j, fn), None, checks.xyz(x, y, z, fn), fn)


def dJointGetHinge2Anchor(j) -> np.ndarray:
    """The anchor on body 1, world coordinates (3,)."""
    return _h2(j, "dJointGetHinge2Anchor").anchor()


def dJointGetHinge2Anchor2(j) -> np.ndarray:
    """The anchor on body 2, world coordinates (3,)."""
    return _h2(j, "dJointGetHinge2Anchor2").anchor2()


def dJointGetHinge2Axis1(j) -> np.ndarray:
    """Axis 1 in world coordinates (3,); zeros without body 1."""
    return get_axis1(_h2(j, "dJointGetHinge2Axis1"), AXIS1)


def dJointGetHinge2Axis2(j) -> np.ndarray:
    """Axis 2 in world coordinates (3,); zeros without body 2."""
    return _h2(j, "dJointGetHinge2Axis2").axis2()


def dJointSetHinge2Param(j, parameter: int, value: float) -> None:
    """dParamX: axis 1 (and the suspension); dParamX2: axis 2."""
    _h2(j, "dJointSetHinge2Param").set_param("dJointSetHinge2Param", parameter, value)


def dJointGetHinge2Param(j, parameter: int) -> float:
    return _h2(j, "dJointGetHinge2Param").get_param("dJointGetHinge2Param", parameter)


def _angle(j, fn: str, kernel) -> float:
    joint = _h2(j, fn)
    b0, b1 = joint.body_rows()
    if b0 < 0 or b1 < 0:
        return 0.0
    return float(kernel(joint.d, b0, b1, body_arrays(joint.world)))


def dJointGetHinge2Angle1(j) -> float:
    """Angle about axis 1 (rad, -π..π), zero when the axes were last set."""
    return _angle(j, "dJointGetHinge2Angle1", angle1)


def dJointGetHinge2Angle2(j) -> float:
    """Angle about axis 2 (rad, -π..π), zero when the axes were last set.

    As in ODE 0.16.2 its sign is opposite to angle 1's convention: a turn of
    body 2 about +axis 2 reads positive, while dJointGetHinge2Angle2Rate
    reads negative for it.
    """
    return _angle(j, "dJointGetHinge2Angle2", angle2)


def _rate(j, fn: str, which: int) -> float:
    joint = _h2(j, fn)
    b0, b1 = joint.body_rows()
    if b0 < 0 or (which == 2 and b1 < 0):
        return 0.0
    store = joint.world.bodies
    axis = get_axis1(joint, AXIS1) if which == 1 else joint.axis2()
    rate = float(matmul(axis, store.avel[b0]))
    if b1 >= 0:
        rate -= float(matmul(axis, store.avel[b1]))
    return rate


def dJointGetHinge2Angle1Rate(j) -> float:
    """Relative angular velocity of body 1 to body 2 about axis 1 (rad/s)."""
    return _rate(j, "dJointGetHinge2Angle1Rate", 1)


def dJointGetHinge2Angle2Rate(j) -> float:
    """Relative angular velocity of body 1 to body 2 about axis 2 (rad/s)."""
    return _rate(j, "dJointGetHinge2Angle2Rate", 2)


def dJointAddHinge2Torques(j, torque1: float, torque2: float) -> None:
    """Torque ``torque1`` about axis 1 plus ``torque2`` about axis 2 (N·m) on
    body 1, and the opposite on body 2."""
    fn = "dJointAddHinge2Torques"
    joint = _h2(j, fn)
    t1 = checks.real(torque1, fn, "torque1")
    t2 = checks.real(torque2, fn, "torque2")
    b0, b1 = joint.body_rows()
    if b0 < 0 or b1 < 0:
        return
    t = get_axis1(joint, AXIS1) * t1 + joint.axis2() * t2
    store = joint.world.bodies
    store.tacc[b0] += t
    store.tacc[b1] -= t


def dJointSetHinge2SuspensionAxis(j, x: float, y: float, z: float) -> None:
    """Webots: spring the anchor along this world direction (kept in body 1's
    frame) instead of along axis 1, with dParamSuspensionERP/CFM."""
    fn = "dJointSetHinge2SuspensionAxis"
    joint = _h2(j, fn)
    axis = checks.xyz(x, y, z, fn)
    unit(axis, fn)
    if joint.body_rows()[0] < 0:
        return
    set_axes(joint, axis, SUSPENSION_AXIS, None, fn)
    joint.di[I_HAS_SUSPENSION] = 1


def dJointGetHinge2SuspensionAxis(j) -> np.ndarray:
    """Webots: the suspension direction in world coordinates (3,): the set
    axis, or axis 1 when none was set (ODE's suspension)."""
    joint = _h2(j, "dJointGetHinge2SuspensionAxis")
    return get_axis1(joint, SUSPENSION_AXIS if joint.di[I_HAS_SUSPENSION] else AXIS1)
