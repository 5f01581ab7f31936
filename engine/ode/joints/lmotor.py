"""Linear motor (LMotor): drives the relative linear velocity of two bodies
(or of a body against the world) along up to three axes.

Each axis i < num has a limit/motor block (parameter group i) and adds one
row when its FMax > 0: body 0's velocity along the axis minus body 1's is
driven to dParamVel with at most FMax newtons. As in ODE 0.16.2 the stops
are stored but never tested, so an LMotor is a motor only.

Axis modes (``rel``): 0 the axis is fixed in the world, 1 it turns with
body 0, 2 with body 1 (1 if there is no body 1 when the axis is set).

Record (``RECORD``, declared below): floats ``axes`` (axis i at 3i, unit,
in the frame ``rel`` names) and three limot blocks ``limot_blocks``; ints
``axis_count`` and ``axis_frame`` (rel of axis i at i).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from engine.ode import checks
from engine.ode.constants import dJointTypeLMotor
from engine.ode.errors import ODEError
from engine.ode.joints.anchors import unit
from engine.ode.joints.base import Joint, create_joint, joint_of
from engine.ode.joints.limot import LIMOT_BLOCK, LINEAR, LM_FMAX, LM_SIZE, add_limot
from engine.ode.joints.record import JointRecord
from engine.ode.kernels.detlinalg import matmul
from engine.ode.kernels.vec import mat_vec

#: the linear motor's record, declared field by field (offsets in ``d`` / ``di``)
RECORD = JointRecord("LMotor")
AXES = RECORD.floats("axes", 9)              # axis i at 3i, unit, in the frame I_AXIS_FRAME names
LIMOT_BLOCKS = RECORD.block("limot_blocks", LIMOT_BLOCK, 3)  # parameter groups 1, 2, 3
LIMOTS = tuple(LIMOT_BLOCKS + i * LM_SIZE for i in range(3))
I_AXIS_COUNT = RECORD.ints("axis_count")     # number of axes in use
I_AXIS_FRAME = RECORD.ints("axis_frame", 3)  # rel of axis i: 0 world, 1 body 0, 2 body 1


class LMotorJoint(Joint):
    TYPE = dJointTypeLMotor
    NAME = "LMotor"
    LIMOTS = LIMOTS
    __slots__ = ()


@njit(cache=True, nogil=True)
def global_axis(d, di, i, b0, b1, bodies) -> np.ndarray:
    """Axis i in world coordinates, (3,). A body-1 axis with no body 1 reads
    as zero (ODE leaves it undefined)."""
    a = d[AXES + 3 * i:AXES + 3 * i + 3]
    rel = di[I_AXIS_FRAME + i]
    if rel == 1:
        return mat_vec(bodies.R[b0], a)
    if rel == 2:
        if b1 >= 0:
            return mat_vec(bodies.R[b1], a)
        return np.zeros(3)
    return a.copy()


@njit(cache=True, nogil=True)
def info1(d, di, jf, b0, b1, bodies, wp):
    """One bounded row per axis in use with FMax > 0."""
    m = 0
    for i in range(di[I_AXIS_COUNT]):
        if d[LIMOTS[i] + LM_FMAX] > 0:
            m += 1
    return m, 0


@njit(cache=True, nogil=True)
def info2(d, di, jf, b0, b1, bodies, wp, rows, r):
    """The motor rows of the axes in use, in axis order (m/s, N)."""
    k = r
    for i in range(di[I_AXIS_COUNT]):
        ax = global_axis(d, di, i, b0, b1, bodies)
        k += add_limot(d, LIMOTS[i], b0, b1, bodies, wp, rows, k, ax, LINEAR)


# ----------------------------------------------------------------------------- API
def _lmotor(j, fn: str) -> LMotorJoint:
    return joint_of(j, fn, LMotorJoint)


def _axis_number(anum: int, fn: str) -> int:
    a = checks.integer(anum, fn, "anum")
    if not 0 <= a <= 2:
        raise ODEError(fn, "anum", f"must be 0, 1 or 2, got {a}")
    return a


def dJointCreateLMotor(w, group=None) -> LMotorJoint:
    """A new linear motor with no axes (set them with dJointSetLMotorNumAxes/Axis)."""
    return create_joint(LMotorJoint, w, group, "dJointCreateLMotor")


def dJointSetLMotorNumAxes(j, num: int) -> None:
    """Use axes 0..num-1 (num 0 to 3; 0 turns the motor off)."""
    fn = "dJointSetLMotorNumAxes"
    joint = _lmotor(j, fn)
    n = checks.integer(num, fn, "num")
    if not 0 <= n <= 3:
        raise ODEError(fn, "num", f"must be 0..3, got {n}")
    joint.di[I_AXIS_COUNT] = n


def dJointGetLMotorNumAxes(j) -> int:
    return int(_lmotor(j, "dJointGetLMotorNumAxes").di[I_AXIS_COUNT])


def dJointSetLMotorAxis(j, anum: int, rel: int, x: float, y: float, z: float) -> None:
    """Set axis ``anum`` to the world direction (x, y, z), kept fixed in the
    world (rel 0), in body 1 (rel 1) or in body 2 (rel 2)."""
    fn = "dJointSetLMotorAxis"
    joint = _lmotor(j, fn)
    a = _axis_number(anum, fn)
    mode = checks.integer(rel, fn, "rel")
    if not 0 <= mode <= 2:
        raise ODEError(fn, "rel", f"must be 0, 1 or 2, got {mode}")
    v = checks.xyz(x, y, z, fn)
    b0, b1 = joint.body_rows()
    if mode == 2 and b1 < 0:
        mode = 1
    if mode > 0:
        b = b0 if mode == 1 else b1
        if b < 0:
            raise ODEError(fn, "rel", "a body-relative axis needs the joint attached to a body")
        v = matmul(joint.world.bodies.R[b].T, v)
    u = unit(v, fn)
    joint.di[I_AXIS_FRAME + a] = mode
    joint.d[AXES + 3 * a:AXES + 3 * a + 3] = u


def dJointGetLMotorAxis(j, anum: int) -> np.ndarray:
    """Axis ``anum`` as stored, (3,): world coordinates for rel 0, the body's
    frame for rel 1 and 2 (ODE 0.16.2 returns the stored vector)."""
    fn = "dJointGetLMotorAxis"
    joint = _lmotor(j, fn)
    a = _axis_number(anum, fn)
    return joint.d[AXES + 3 * a:AXES + 3 * a + 3].copy()


def dJointSetLMotorParam(j, parameter: int, value: float) -> None:
    """Set a parameter; group i (dParamX, dParamX2, dParamX3) is axis i."""
    _lmotor(j, "dJointSetLMotorParam").set_param("dJointSetLMotorParam", parameter, value)


def dJointGetLMotorParam(j, parameter: int) -> float:
    return _lmotor(j, "dJointGetLMotorParam").get_param("dJointGetLMotorParam", parameter)
