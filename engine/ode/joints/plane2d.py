"""Plane-2D joint: keeps body 0 in the world plane z = 0, turning only about z.

Three rows: no velocity along z (with an ERP pull of z back to 0) and no
angular velocity about x and y (no correction of drifted tilt: as in ODE,
that is left to the application). Each of x, y and the angle about z has a
motor (``dJointSetPlane2DXParam``/``YParam``/``AngleParam``) that adds a row
when its FMax > 0. As in ODE 0.16.2 these limots are motors only: their
stops are stored but never tested.

Record (``RECORD``, declared below; float ``d``): the limot blocks
``limot_x``, ``limot_y`` and ``limot_angle``.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from engine.ode import checks
from engine.ode.constants import dJointTypePlane2D
from engine.ode.constants import dParamsInGroup as _N_PARAMS  # dParamLoStop .. dParamERP
from engine.ode.errors import ODEError
from engine.ode.joints.base import Joint, create_joint, joint_of
from engine.ode.joints.limot import LIMOT_BLOCK, LINEAR, LM_FMAX, ROTATIONAL, add_limot, limot_set
from engine.ode.joints.record import JointRecord

#: the plane-2D joint's record, declared field by field (offsets in ``d``)
RECORD = JointRecord("Plane2D")
LIMOT_X = RECORD.block("limot_x", LIMOT_BLOCK)          # motor along x (m)
LIMOT_Y = RECORD.block("limot_y", LIMOT_BLOCK)          # motor along y (m)
LIMOT_ANGLE = RECORD.block("limot_angle", LIMOT_BLOCK)  # motor about z (rad)


class Plane2DJoint(Joint):
    TYPE = dJointTypePlane2D
    NAME = "Plane2D"
    LIMOTS = (LIMOT_X, LIMOT_Y, LIMOT_ANGLE)
    __slots__ = ()

    def set_motor_param(self, function: str, off: int, parameter: int, value: float) -> None:
        """Set one group-less dParam* of the motor at ``off``."""
        p = checks.integer(parameter, function, "parameter")
        if not 0 <= p < _N_PARAMS:
            raise ODEError(function, "parameter",
                           f"unknown parameter {p:#x} for a Plane2D motor")
        limot_set(self.d, off, p, checks.real_or_inf(value, function, "value"))


@njit(cache=True, nogil=True)
def info1(d, di, jf, b0, b1, bodies, wp):
    """3 rows (v_z, w_x, w_y) plus one per motor with FMax > 0."""
    m = 3
    for off in (LIMOT_X, LIMOT_Y, LIMOT_ANGLE):
        if d[off + LM_FMAX] > 0:
            m += 1
    return m, 3


@njit(cache=True, nogil=True)
def info2(d, di, jf, b0, b1, bodies, wp, rows, r):
    """Rows v_z = -erp·fps·z, w_x = 0, w_y = 0, then the x, y, angle motors."""
    J = rows.J
    J[r, 2] = 1.0        # v_z
    J[r + 1, 3] = 1.0    # w_x
    J[r + 2, 4] = 1.0    # w_y
    rows.c[r] = -wp.fps * wp.erp * bodies.pos[b0][2]
    k = r + 3
    ex = np.array([1.0, 0.0, 0.0])
    ey = np.array([0.0, 1.0, 0.0])
    ez = np.array([0.0, 0.0, 1.0])
    # motors only (their limit state is never set, so only FMax > 0 adds a row)
    if d[LIMOT_X + LM_FMAX] > 0:
        k += add_limot(d, np.int64(LIMOT_X), b0, b1, bodies, wp, rows, k, ex, LINEAR)
    if d[LIMOT_Y + LM_FMAX] > 0:
        k += add_limot(d, np.int64(LIMOT_Y), b0, b1, bodies, wp, rows, k, ey, LINEAR)
    if d[LIMOT_ANGLE + LM_FMAX] > 0:
        add_limot(d, np.int64(LIMOT_ANGLE), b0, b1, bodies, wp, rows, k, ez, ROTATIONAL)


# ----------------------------------------------------------------------------- API
def dJointCreatePlane2D(w, group=None) -> Plane2DJoint:
    """A new plane-2D joint (attach it to one body)."""
    return create_joint(Plane2DJoint, w, group, "dJointCreatePlane2D")


def _set(j, fn: str, off: int, parameter: int, value: float) -> None:
    joint_of(j, fn, Plane2DJoint).set_motor_param(fn, off, parameter, value)


def dJointSetPlane2DXParam(j, parameter: int, value: float) -> None:
    """Set a parameter (dParamVel in m/s, dParamFMax in N...) of the x motor."""
    _set(j, "dJointSetPlane2DXParam", LIMOT_X, parameter, value)


def dJointSetPlane2DYParam(j, parameter: int, value: float) -> None:
    """Set a parameter (dParamVel in m/s, dParamFMax in N...) of the y motor."""
    _set(j, "dJointSetPlane2DYParam", LIMOT_Y, parameter, value)


def dJointSetPlane2DAngleParam(j, parameter: int, value: float) -> None:
    """Set a parameter (dParamVel in rad/s, dParamFMax in N·m...) of the motor about z."""
    _set(j, "dJointSetPlane2DAngleParam", LIMOT_ANGLE, parameter, value)
