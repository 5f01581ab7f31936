"""Ball-and-socket joint: three rows keep the two anchors together.

Record (``RECORD``, declared below): ``anchor1`` (3, body-0 frame),
``anchor2`` (3, body-1 frame, or world), ``erp`` and ``cfm`` (the joint's
own ERP/CFM, set with dParamERP/dParamCFM; default the world's).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from engine.ode import checks
from engine.ode.constants import dJointTypeBall, dParamCFM, dParamERP
from engine.ode.errors import ODEError
from engine.ode.joints.anchors import get_anchor1, get_anchor2, set_anchors
from engine.ode.joints.base import Joint, create_joint, joint_of
from engine.ode.joints.common import set_ball
from engine.ode.joints.record import JointRecord
from engine.ode.kernels.detlinalg import matmul

#: the ball joint's record, declared field by field (offsets in ``d``)
RECORD = JointRecord("Ball")
ANCHOR1 = RECORD.floats("anchor1", 3)  # body-0 frame (m)
ANCHOR2 = RECORD.floats("anchor2", 3)  # body-1 frame, or world (m)
ERP = RECORD.floats("erp")             # the joint's own ERP (dParamERP)
CFM = RECORD.floats("cfm")             # the joint's own CFM (dParamCFM)


class BallJoint(Joint):
    TYPE = dJointTypeBall
    NAME = "Ball"
    __slots__ = ()

    def init_record(self) -> None:
        self.d[ERP] = self.world.erp
        self.d[CFM] = self.world.cfm

    def set_relative_values(self) -> None:
        set_anchors(self, self.anchor(), ANCHOR1, ANCHOR2)

    def anchor(self) -> np.ndarray:
        return get_anchor2(self, ANCHOR2) if self.reversed else get_anchor1(self, ANCHOR1)

    def anchor2(self) -> np.ndarray:
        return get_anchor1(self, ANCHOR1) if self.reversed else get_anchor2(self, ANCHOR2)

    # ball's only parameters are its own ERP and CFM
    def _param_slot(self, function, parameter):
        p = checks.integer(parameter, function, "parameter")
        if p not in (dParamERP, dParamCFM):
            raise ODEError(function, "parameter", f"a Ball joint has no parameter {p:#x}")
        return (ERP if p == dParamERP else CFM), p

    def set_param(self, function, parameter, value):
        slot, _ = self._param_slot(function, parameter)
        self.d[slot] = checks.real(value, function, "value")

    def get_param(self, function, parameter):
        slot, _ = self._param_slot(function, parameter)
        return float(self.d[slot])


@njit(cache=True, nogil=True)
def info1(d, di, jf, b0, b1, bodies, wp):
    return 3, 3


@njit(cache=True, nogil=True)
def info2(d, di, jf, b0, b1, bodies, wp, rows, r):
    set_ball(d, ANCHOR1, ANCHOR2, b0, b1, bodies, wp, rows, r, d[ERP])
    for k in range(3):
        rows.cfm[r + k] = d[CFM]


def dJointCreateBall(w, group=None) -> BallJoint:
    return create_joint(BallJoint, w, group, "dJointCreateBall")


def dJointSetBallAnchor(j, x: float, y: float, z: float) -> None:
    joint = joint_of(j, "dJointSetBallAnchor", BallJoint)
    set_anchors(joint, checks.xyz(x, y, z, "dJointSetBallAnchor"), ANCHOR1, ANCHOR2)


def dJointSetBallAnchor2(j, x: float, y: float, z: float) -> None:
    """Set only the body-1 anchor (world point), leaving anchor 1 as it is."""
    joint = joint_of(j, "dJointSetBallAnchor2", BallJoint)
    p = checks.xyz(x, y, z, "dJointSetBallAnchor2")
    b1 = int(joint.world.joints.body[joint.index, 1])
    if b1 >= 0:
        store = joint.world.bodies
        joint.d[ANCHOR2:ANCHOR2 + 3] = matmul(store.R[b1].T, p - store.pos[b1])
    else:
        joint.d[ANCHOR2:ANCHOR2 + 3] = p


def dJointGetBallAnchor(j) -> np.ndarray:
    return joint_of(j, "dJointGetBallAnchor", BallJoint).anchor()


def dJointGetBallAnchor2(j) -> np.ndarray:
    return joint_of(j, "dJointGetBallAnchor2", BallJoint).anchor2()


def dJointSetBallParam(j, parameter: int, value: float) -> None:
    joint_of(j, "dJointSetBallParam", BallJoint).set_param("dJointSetBallParam", parameter, value)


def dJointGetBallParam(j, parameter: int) -> float:
    return joint_of(j, "dJointGetBallParam", BallJoint).get_param("dJointGetBallParam", parameter)
