"""Hinge joint: a ball joint plus two rows that keep the axes aligned, and a
limit/motor about the axis. The documented example for joint authors
(``docs/dev/joint-authoring.md``).

Record: declared below as ``RECORD`` (:class:`engine.ode.joints.record.JointRecord`),
one module constant per field holding its offset, in order:

- ``anchor1`` (3 floats): the anchor in body 0's frame (m);
- ``anchor2`` (3): the anchor in body 1's frame, or in world coordinates
  with no body 1 (m);
- ``axis1`` (3): the unit axis in body 0's frame; ``axis2`` (3): in body
  1's frame, or world;
- ``rel_rotation`` (4): body 0 -> body 1 rotation at angle 0 (w first);
- ``limot``: a limit/motor block (:data:`engine.ode.joints.limot.LIMOT_BLOCK`)
  about the axis, in radians;
- ``suspension_axis`` (3, body-0 frame), ``suspension_erp``,
  ``suspension_cfm`` (Webots' extension);
- int ``has_suspension``: 1 once a suspension axis is set.

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
from engine.ode.kernels.vec import cross3, dot3, mat_vec, plane_space, qmul3

#: the hinge's record, declared field by field (offsets in ``d`` / ``di``)
RECORD = JointRecord("Hinge")
ANCHOR1 = RECORD.floats("anchor1", 3)            # body-0 frame (m)
ANCHOR2 = RECORD.floats("anchor2", 3)            # body-1 frame, or world (m)
AXIS1 = RECORD.floats("axis1", 3)                # unit, body-0 frame
AXIS2 = RECORD.floats("axis2", 3)                # unit, body-1 frame, or world
REL_ROTATION = RECORD.floats("rel_rotation", 4)  # body 0 -> body 1 at angle 0, w first
LIMOT = RECORD.block("limot", LIMOT_BLOCK)       # limit/motor about the axis (rad)
SUSPENSION_AXIS = RECORD.floats("suspension_axis", 3)  # unit, body-0 frame
SUSPENSION_ERP = RECORD.floats("suspension_erp")
SUSPENSION_CFM = RECORD.floats("suspension_cfm")
I_HAS_SUSPENSION = RECORD.ints("has_suspension")  # 1 once a suspension axis is set


class HingeJoint(Joint):
    """A hinge handle: one limot block (parameter group 1, radians) and the
    suspension parameters (dParamSuspensionERP / dParamSuspensionCFM)."""

    TYPE = dJointTypeHinge
    NAME = "Hinge"
    LIMOTS = (LIMOT,)
    __slots__ = ()

    def init_record(self) -> None:
        """ODE's defaults: axes along x, no relative rotation; the
        suspension axis along x with the world's ERP and CFM."""
        super().init_record()
        d = self.d
        d[AXIS1] = 1.0
        d[AXIS2] = 1.0
        d[REL_ROTATION] = 1.0
        d[SUSPENSION_AXIS] = 1.0
        d[SUSPENSION_ERP] = self.world.erp
        d[SUSPENSION_CFM] = self.world.cfm

    def set_relative_values(self) -> None:
        """On attach: keep the world anchor and axis, re-expressed in the new
        bodies' frames, and measure the rest rotation."""
        set_anchors(self, self.anchor(), ANCHOR1, ANCHOR2)
        set_axes(self, get_axis1(self, AXIS1), AXIS1, AXIS2, "dJointAttach")
        self.compute_qrel()

    def compute_qrel(self) -> None:
        """Record the current relative rotation as angle 0 (``rel_rotation``)."""
        b0, b1 = self.body_rows()
        if b0 >= 0:
            self.d[REL_ROTATION:REL_ROTATION + 4] = initial_rel_rotation(
                body_arrays(self.world), b0, b1)

    def anchor(self) -> np.ndarray:
        """The anchor on the user's body 1, world coordinates (3,) m."""
        return get_anchor2(self, ANCHOR2) if self.reversed else get_anchor1(self, ANCHOR1)

    def anchor2(self) -> np.ndarray:
        """The anchor on the user's body 2, world coordinates (3,) m."""
        return get_anchor1(self, ANCHOR1) if self.reversed else get_anchor2(self, ANCHOR2)

    def set_extra_param(self, function: str, parameter: int, value: float) -> None:
        """The suspension ERP and CFM; other non-limot parameters are ignored."""
        if parameter == dParamSuspensionERP:
            self.d[SUSPENSION_ERP] = value
        elif parameter == dParamSuspensionCFM:
            self.d[SUSPENSION_CFM] = value

    def get_extra_param(self, function: str, parameter: int) -> float:
        """The suspension ERP or CFM; 0 for other non-limot parameters."""
        if parameter == dParamSuspensionERP:
            return float(self.d[SUSPENSION_ERP])
        if parameter == dParamSuspensionCFM:
            return float(self.d[SUSPENSION_CFM])
        return 0.0


@njit(cache=True, nogil=True)
def angle(d, b0, b1, bodies) -> float:
    """Hinge angle (rad) in the internal body order (not sign-corrected for reversal)."""
    return hinge_angle(bodies, b0, b1, d[AXIS1:AXIS1 + 3], d[REL_ROTATION:REL_ROTATION + 4])


@njit(cache=True, nogil=True)
def info1(d, di, jf, b0, b1, bodies, wp):
    m = 6 if d[LIMOT + LM_FMAX] > 0 else 5
    lo = d[LIMOT + LM_LO]
    hi = d[LIMOT + LM_HI]
    if (lo >= -math.pi or hi <= math.pi) and lo <= hi:
        if test_limit(d, np.int64(LIMOT), angle(d, b0, b1, bodies)):
            m = 6
    else:
        d[LIMOT + LM_LIMIT] = 0.0
    return m, 5


@njit(cache=True, nogil=True)
def info2(d, di, jf, b0, b1, bodies, wp, rows, r):
    ax1 = world_axis1(d, AXIS1, b0, bodies)
    if di[I_HAS_SUSPENSION] != 0:
        susp = world_axis1(d, SUSPENSION_AXIS, b0, bodies)
        set_ball2(d, ANCHOR1, ANCHOR2, b0, b1, bodies, wp, rows, r, susp, d[SUSPENSION_ERP])
        rows.cfm[r] = d[SUSPENSION_CFM]
    else:
        set_ball(d, ANCHOR1, ANCHOR2, b0, b1, bodies, wp, rows, r, wp.erp)
    # two rows: no relative rotation about p and q, the normals of the axis
    p, q = plane_space(ax1)
    J = rows.J
    J[r + 3, 3:6] = p
    J[r + 4, 3:6] = q
    if b1 >= 0:
        J[r + 3, 9:12] = -p
        J[r + 4, 9:12] = -q
        ax2 = mat_vec(bodies.R[b1], d[AXIS2:AXIS2 + 3])
    else:
        ax2 = d[AXIS2:AXIS2 + 3]
    # misalignment ax1 x ax2 ~ rotation needed; erp of it per step along p, q
    err = cross3(ax1, ax2)
    k = wp.fps * wp.erp
    rows.c[r + 3] = k * dot3(err, p)
    rows.c[r + 4] = k * dot3(err, q)
    add_limot(d, np.int64(LIMOT), b0, b1, bodies, wp, rows, r + 5, ax1, ROTATIONAL)


# ----------------------------------------------------------------------------- API
def _hinge(j, fn: str) -> HingeJoint:
    return joint_of(j, fn, HingeJoint)


def dJointCreateHinge(w, group=None) -> HingeJoint:
    return create_joint(HingeJoint, w, group, "dJointCreateHinge")


def dJointSetHingeAnchor(j, x: float, y: float, z: float) -> None:
    joint = _hinge(j, "dJointSetHingeAnchor")
    set_anchors(joint, checks.xyz(x, y, z, "dJointSetHingeAnchor"), ANCHOR1, ANCHOR2)
    joint.compute_qrel()


def dJointSetHingeAnchorDelta(j, x, y, z, dx, dy, dz) -> None:
    """Set the anchor; with no body 1 the world anchor is offset by (dx, dy, dz)."""
    fn = "dJointSetHingeAnchorDelta"
    joint = _hinge(j, fn)
    p = checks.xyz(x, y, z, fn)
    delta = checks.xyz(dx, dy, dz, fn, "dx, dy, dz")
    set_anchors(joint, p, ANCHOR1, ANCHOR2)
    if joint.body_rows()[1] < 0 and joint.body_rows()[0] >= 0:
        joint.d[ANCHOR2:ANCHOR2 + 3] = p + delta
    joint.compute_qrel()


def dJointSetHingeAxis(j, x: float, y: float, z: float) -> None:
    joint = _hinge(j, "dJointSetHingeAxis")
    set_axes(joint, checks.xyz(x, y, z, "dJointSetHingeAxis"), AXIS1, AXIS2, "dJointSetHingeAxis")
    joint.compute_qrel()


def dJointSetHingeAxisOffset(j, x: float, y: float, z: float, dangle: float) -> None:
    """Set the axis so that the current configuration reads angle ``dangle``."""
    fn = "dJointSetHingeAxisOffset"
    joint = _hinge(j, fn)
    axis = checks.xyz(x, y, z, fn)
    a = checks.real(dangle, fn, "dangle")
    set_axes(joint, axis, AXIS1, AXIS2, fn)
    joint.compute_qrel()
    if joint.reversed:
        a = -a
    u = unit(axis, fn)
    q_angle = np.array([detmath.cos(a / 2), *(detmath.sin(a / 2) * u)])
    rel = joint.d[REL_ROTATION:REL_ROTATION + 4]
    rel[:] = qmul3(q_angle, rel.copy())


def dJointGetHingeAnchor(j) -> np.ndarray:
    return _hinge(j, "dJointGetHingeAnchor").anchor()


def dJointGetHingeAnchor2(j) -> np.ndarray:
    return _hinge(j, "dJointGetHingeAnchor2").anchor2()


def dJointGetHingeAxis(j) -> np.ndarray:
    return get_axis1(_hinge(j, "dJointGetHingeAxis"), AXIS1)


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
    axis = matmul(store.R[b0], joint.d[AXIS1:AXIS1 + 3])
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
    axis = get_axis1(joint, AXIS1) * t
    store = joint.world.bodies
    store.tacc[b0] += axis
    if b1 >= 0:
        store.tacc[b1] -= axis


def dJointSetHingeSuspensionAxis(j, x: float, y: float, z: float) -> None:
    """Webots: the axis (world) along which the anchor is sprung with the
    hinge's dParamSuspensionERP / dParamSuspensionCFM."""
    fn = "dJointSetHingeSuspensionAxis"
    joint = _hinge(j, fn)
    set_axes(joint, checks.xyz(x, y, z, fn), SUSPENSION_AXIS, None, fn)
    joint.di[I_HAS_SUSPENSION] = 1


def dJointGetHingeSuspensionAxis(j) -> np.ndarray:
    return get_axis1(_hinge(j, "dJointGetHingeSuspensionAxis"), SUSPENSION_AXIS)


