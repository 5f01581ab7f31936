"""Hinge joint: a ball joint plus two rows that keep the axes aligned, and a
limit/motor about the axis.

Record: ``anchor1`` 0:3 (body-0 frame), ``anchor2`` 3:6 (body-1 frame or
world), ``axis1`` 6:9 (body-0 frame), ``axis2`` 9:12 (body-1 frame or
world), ``qrel`` 12:16 (relative rotation at angle 0), limot 16:28,
suspension axis 28:31 (body-0 frame), suspension ERP 31 and CFM 32.
``idata[0]`` is 1 once a suspension axis is set (Webots' extension).

Suspension (Webots): with an axis set, the three anchor rows are built
along (suspension axis, p, q) and the first row uses the suspension ERP and
CFM, so the anchor can spring along that axis.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from engine.ode import checks
from engine.ode.constants import dJointTypeHinge, dParamSuspensionCFM, dParamSuspensionERP
from engine.ode.joints.anchors import (
    body_arrays,
    get_anchor1,
    get_anchor2,
    get_axis1,
    set_anchors,
    set_axes,
    unit,
)
from engine.ode.joints.base import Joint, create_joint, joint_of
from engine.ode.joints.common import (
    hinge_angle,
    initial_rel_rotation,
    set_ball,
    set_ball2,
    world_axis1,
)
from engine.ode.joints.limot import add_limot, test_limit
from engine.ode.kernels import detmath
from engine.ode.kernels.detlinalg import matmul
from engine.ode.kernels.vec import cross3, dot3, mat_vec, plane_space, qmul3

A1, A2, AX1, AX2, QREL, LIMOT = 0, 3, 6, 9, 12, 16
SUSP_AX, SUSP_ERP, SUSP_CFM = 28, 31, 32
I_HAS_SUSP = 0


class HingeJoint(Joint):
    TYPE = dJointTypeHinge
    NAME = "Hinge"
    LIMOTS = (LIMOT,)
    __slots__ = ()

    def init_record(self) -> None:
        super().init_record()
        d = self.d
        d[AX1] = 1.0
        d[AX2] = 1.0
        d[QREL] = 1.0
        d[SUSP_AX] = 1.0
        d[SUSP_ERP] = self.world.erp
        d[SUSP_CFM] = self.world.cfm

    def set_relative_values(self) -> None:
        set_anchors(self, self.anchor(), A1, A2)
        set_axes(self, get_axis1(self, AX1), AX1, AX2, "dJointAttach")
        self.compute_qrel()

    def compute_qrel(self) -> None:
        b0, b1 = self.body_rows()
        if b0 >= 0:
            self.d[QREL:QREL + 4] = initial_rel_rotation(body_arrays(self.world), b0, b1)

    def anchor(self) -> np.ndarray:
        return get_anchor2(self, A2) if self.reversed else get_anchor1(self, A1)

    def anchor2(self) -> np.ndarray:
        return get_anchor1(self, A1) if self.reversed else get_anchor2(self, A2)

    def set_extra_param(self, function, parameter, value):
        if parameter == dParamSuspensionERP:
            self.d[SUSP_ERP] = value
        elif parameter == dParamSuspensionCFM:
            self.d[SUSP_CFM] = value

    def get_extra_param(self, function, parameter):
        if parameter == dParamSuspensionERP:
            return float(self.d[SUSP_ERP])
        if parameter == dParamSuspensionCFM:
            return float(self.d[SUSP_CFM])
        return 0.0


@njit(cache=True, nogil=True)
def angle(d, b0, b1, bodies) -> float:
    """Hinge angle (rad) in the internal body order (not sign-corrected for reversal)."""
    return hinge_angle(bodies, b0, b1, d[AX1:AX1 + 3], d[QREL:QREL + 4])


@njit(cache=True, nogil=True)
def info1(d, di, jf, b0, b1, bodies, wp):
    m = 6 if d[LIMOT + 3] > 0 else 5
    lo = d[LIMOT]
    hi = d[LIMOT + 1]
    if (lo >= -math.pi or hi <= math.pi) and lo <= hi:
        if test_limit(d, LIMOT, angle(d, b0, b1, bodies)):
            m = 6
    else:
        d[LIMOT + 9] = 0.0
    return m, 5


@njit(cache=True, nogil=True)
def info2(d, di, jf, b0, b1, bodies, wp, rows, r):
    ax1 = world_axis1(d, AX1, b0, bodies)
    if di[I_HAS_SUSP] != 0:
        susp = world_axis1(d, SUSP_AX, b0, bodies)
        set_ball2(d, A1, A2, b0, b1, bodies, wp, rows, r, susp, d[SUSP_ERP])
        rows.cfm[r] = d[SUSP_CFM]
    else:
        set_ball(d, A1, A2, b0, b1, bodies, wp, rows, r, wp.erp)
    # two rows: no relative rotation about p and q, the normals of the axis
    p, q = plane_space(ax1)
    J = rows.J
    J[r + 3, 3:6] = p
    J[r + 4, 3:6] = q
    if b1 >= 0:
        J[r + 3, 9:12] = -p
        J[r + 4, 9:12] = -q
        ax2 = mat_vec(bodies.R[b1], d[AX2:AX2 + 3])
    else:
        ax2 = d[AX2:AX2 + 3]
    # misalignment ax1 x ax2 ~ rotation needed; erp of it per step along p, q
    err = cross3(ax1, ax2)
    k = wp.fps * wp.erp
    rows.c[r + 3] = k * dot3(err, p)
    rows.c[r + 4] = k * dot3(err, q)
    add_limot(d, LIMOT, b0, b1, bodies, wp, rows, r + 5, ax1, True)


# ----------------------------------------------------------------------------- API
def _hinge(j, fn: str) -> HingeJoint:
    return joint_of(j, fn, HingeJoint)


def dJointCreateHinge(w, group=None) -> HingeJoint:
    return create_joint(HingeJoint, w, group, "dJointCreateHinge")


def dJointSetHingeAnchor(j, x: float, y: float, z: float) -> None:
    joint = _hinge(j, "dJointSetHingeAnchor")
    set_anchors(joint, checks.xyz(x, y, z, "dJointSetHingeAnchor"), A1, A2)
    joint.compute_qrel()


def dJointSetHingeAnchorDelta(j, x, y, z, dx, dy, dz) -> None:
    """Set the anchor; with no body 1 the world anchor is offset by (dx, dy, dz)."""
    fn = "dJointSetHingeAnchorDelta"
    joint = _hinge(j, fn)
    p = checks.xyz(x, y, z, fn)
    delta = checks.xyz(dx, dy, dz, fn, "dx, dy, dz")
    set_anchors(joint, p, A1, A2)
    if joint.body_rows()[1] < 0 and joint.body_rows()[0] >= 0:
        joint.d[A2:A2 + 3] = p + delta
    joint.compute_qrel()


def dJointSetHingeAxis(j, x: float, y: float, z: float) -> None:
    joint = _hinge(j, "dJointSetHingeAxis")
    set_axes(joint, checks.xyz(x, y, z, "dJointSetHingeAxis"), AX1, AX2, "dJointSetHingeAxis")
    joint.compute_qrel()


def dJointSetHingeAxisOffset(j, x: float, y: float, z: float, dangle: float) -> None:
    """Set the axis so that the current configuration reads angle ``dangle``."""
    fn = "dJointSetHingeAxisOffset"
    joint = _hinge(j, fn)
    axis = checks.xyz(x, y, z, fn)
    a = checks.real(dangle, fn, "dangle")
    set_axes(joint, axis, AX1, AX2, fn)
    joint.compute_qrel()
    if joint.reversed:
        a = -a
    u = unit(axis, fn)
    q_angle = np.array([detmath.cos(a / 2), *(detmath.sin(a / 2) * u)])
    joint.d[QREL:QREL + 4] = qmul3(q_angle, joint.d[QREL:QREL + 4].copy())


def dJointGetHingeAnchor(j) -> np.ndarray:
    return _hinge(j, "dJointGetHingeAnchor").anchor()


def dJointGetHingeAnchor2(j) -> np.ndarray:
    return _hinge(j, "dJointGetHingeAnchor2").anchor2()


def dJointGetHingeAxis(j) -> np.ndarray:
    return get_axis1(_hinge(j, "dJointGetHingeAxis"), AX1)


def dJointSetHingeParam(j, parameter: int, value: float) -> None:
    _hinge(j, "dJointSetHingeParam").set_param("dJointSetHingeParam", parameter, value)


def dJointGetHingeParam(j, parameter: int) -> float:
    return _hinge(j, "dJointGetHingeParam").get_param("dJointGetHingeParam", parameter)


def dJointGetHingeAngle(j) -> float:
    """Angle (rad, -π..π) of body 2 relative to body 1 about the axis."""
    joint = _hinge(j, "dJointGetHingeAngle")
    b0, b1 = joint.body_rows()
    if b0 < 0:
        return 0.0
    a = float(angle(joint.d, b0, b1, body_arrays(joint.world)))
    return -a if joint.reversed else a


def dJointGetHingeAngleRate(j) -> float:
    """Time derivative of the hinge angle (rad/s)."""
    joint = _hinge(j, "dJointGetHingeAngleRate")
    b0, b1 = joint.body_rows()
    if b0 < 0:
        return 0.0
    store = joint.world.bodies
    axis = matmul(store.R[b0], joint.d[AX1:AX1 + 3])
    rate = float(matmul(axis, store.avel[b0]))
    if b1 >= 0:
        rate -= float(matmul(axis, store.avel[b1]))
    return -rate if joint.reversed else rate


def dJointAddHingeTorque(j, torque: float) -> None:
    """Apply ``torque`` (N·m) about the axis to body 1 and its opposite to body 2."""
    fn = "dJointAddHingeTorque"
    joint = _hinge(j, fn)
    t = checks.real(torque, fn, "torque")
    if joint.reversed:
        t = -t
    b0, b1 = joint.body_rows()
    if b0 < 0:
        return
    axis = get_axis1(joint, AX1) * t
    store = joint.world.bodies
    store.tacc[b0] += axis
    if b1 >= 0:
        store.tacc[b1] -= axis


def dJointSetHingeSuspensionAxis(j, x: float, y: float, z: float) -> None:
    """Webots: the axis (world) along which the anchor is sprung with the
    hinge's dParamSuspensionERP / dParamSuspensionCFM."""
    fn = "dJointSetHingeSuspensionAxis"
    joint = _hinge(j, fn)
    set_axes(joint, checks.xyz(x, y, z, fn), SUSP_AX, None, fn)
    joint.di[I_HAS_SUSP] = 1


def dJointGetHingeSuspensionAxis(j) -> np.ndarray:
    return get_axis1(_hinge(j, "dJointGetHingeSuspensionAxis"), SUSP_AX)


