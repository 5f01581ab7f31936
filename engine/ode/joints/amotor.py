"""Angular motor (AMotor): motors and stops on up to three rotation axes.

Two modes, as in ODE:

- ``dAMotorUser``: the user gives ``num`` axes (each anchored to the world,
  to body 1 or to body 2) and, if stops are used, the current angles.
- ``dAMotorEuler``: axis 0 is fixed in body 1, axis 2 in body 2, axis 1 =
  axis 2 × axis 0; the three Euler angles are computed at every step from
  two reference vectors recorded when the mode or an axis is set (all
  angles read 0 there).

Record (``RECORD``, declared below; floats): ``axes`` (axis k at 3k, k =
0..2; body-0 frame for rel 1, body-1 frame for rel 2, world otherwise; in
Euler mode axis 0 and 2 are in their body's frame whatever rel says),
``reference0`` (the Euler axis not kept by body 0 — axis 2, or axis 0 when
reversed — as it was when set, in body 0's frame), ``reference1`` (the axis
kept by body 0 as it was when set, in body 1's frame or the world's),
``angles`` (angle k at k, rad), three limot blocks ``limot_blocks`` (parameter
groups 1, 2, 3). Ints: ``mode``, ``axis_count``, ``axis_frame`` (rel of axis
k at k, in the internal body order: 1 and 2 swapped when the joint is
attached as (NULL, body)).

As in ODE 0.16.2, the Euler angles returned by dJointGetAMotorAngle are
those computed at the start of the last step (they are not recomputed on
demand), and in Euler mode the rows act on w0 − w1 along the derived axes
while the angles are measured body 1 -> body 2 in the user's order; for a
joint attached as (NULL, body) the two disagree in sign, so stops there push
the wrong way (ODE's behaviour, reproduced).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from engine.ode import checks
from engine.ode.constants import dAMotorEuler, dAMotorUser, dJointTypeAMotor
from engine.ode.errors import ODEError
from engine.ode.joints.anchors import body_arrays
from engine.ode.joints.base import Joint, create_joint, joint_of
from engine.ode.joints.dball import ode_normalize, ode_unit
from engine.ode.joints.layout import JF_REVERSE
from engine.ode.joints.limot import LIMOT_BLOCK, LM_FMAX, LM_SIZE, ROTATIONAL, add_limot, test_limit
from engine.ode.joints.record import JointRecord
from engine.ode.kernels import detmath
from engine.ode.kernels.detlinalg import matmul
from engine.ode.kernels.vec import cross3, dot3, mat_vec

#: the angular motor's record, declared field by field (offsets in ``d`` / ``di``)
RECORD = JointRecord("AMotor")
AXES = RECORD.floats("axes", 9)            # axis k at 3k (frame: see I_AXIS_FRAME)
REFERENCE0 = RECORD.floats("reference0", 3)  # Euler: axis not kept by body 0, body-0 frame
REFERENCE1 = RECORD.floats("reference1", 3)  # Euler: axis kept by body 0, body-1 frame / world
ANGLES = RECORD.floats("angles", 3)        # angle k (rad)
LIMOT_BLOCKS = RECORD.block("limot_blocks", LIMOT_BLOCK, 3)  # parameter groups 1, 2, 3
I_MODE = RECORD.ints("mode")               # dAMotorUser or dAMotorEuler
I_AXIS_COUNT = RECORD.ints("axis_count")   # number of axes in use
I_AXIS_FRAME = RECORD.ints("axis_frame", 3)  # rel of axis k: 0 world, 1 body 0, 2 body 1
# in Euler mode a body-relative axis k must be relative to this body (1, 2)
_EULER_REL = (1, 0, 2)


class AMotorJoint(Joint):
    TYPE = dJointTypeAMotor
    NAME = "AMotor"
    LIMOTS = (LIMOT_BLOCKS, LIMOT_BLOCKS + LM_SIZE, LIMOT_BLOCKS + 2 * LM_SIZE)
    __slots__ = ()

    @property
    def mode(self) -> int:
        return int(self.di[I_MODE])

    def global_axes(self) -> np.ndarray:
        """The three axes in world coordinates, (3, 3) (rows; unset rows zero)."""
        b0, b1 = self.body_rows()
        return global_axes(self.d, self.di, self.flags, b0, b1, body_arrays(self.world))

    def set_euler_references(self) -> None:
        """Record axis 2 in body 0's frame and axis 0 in body 1's (or the
        world's) frame: the Euler angles are zero in this configuration."""
        b0, b1 = self.body_rows()
        if b0 < 0:
            return
        s = self.world.bodies
        d = self.d
        first = 2 if self.reversed else 0
        second = 2 - first
        a_first = matmul(s.R[b0], d[AXES + 3 * first:AXES + 3 * first + 3])
        if b1 >= 0:
            d[REFERENCE1:REFERENCE1 + 3] = matmul(s.R[b1].T, a_first)
            a_second = matmul(s.R[b1], d[AXES + 3 * second:AXES + 3 * second + 3])
            d[REFERENCE0:REFERENCE0 + 3] = matmul(s.R[b0].T, a_second)
        else:
            d[REFERENCE1:REFERENCE1 + 3] = a_first
            second_axis = d[AXES + 3 * second:AXES + 3 * second + 3]
            d[REFERENCE0:REFERENCE0 + 3] = matmul(s.R[b0].T, second_axis)

    def set_axis(self, fn: str, anum: int, rel: int, v: np.ndarray) -> None:
        """Store world direction ``v`` (3,) as axis ``anum`` anchored per ``rel``."""
        if self.mode == dAMotorEuler and rel != 0 and rel != _EULER_REL[anum]:
            allowed = "0" if anum == 1 else f"0 or {_EULER_REL[anum]}"
            raise ODEError(fn, "rel", f"in Euler mode axis {anum} takes rel {allowed}, "
                           f"got {rel}")
        ode_unit(v, fn)
        if rel != 0 and self.reversed:
            rel = 3 - rel
        b0, b1 = self.body_rows()
        s = self.world.bodies
        if rel == 1:
            if b0 < 0:
                raise ODEError(fn, "rel", "attach the joint before giving a body-relative axis")
            a = matmul(s.R[b0].T, v)
        elif rel == 2 and b1 >= 0:
            a = matmul(s.R[b1].T, v)
        else:
            a = v
        self.di[I_AXIS_FRAME + anum] = rel
        self.d[AXES + 3 * anum:AXES + 3 * anum + 3] = ode_unit(a, fn)
        if self.mode == dAMotorEuler:
            self.set_euler_references()

    def axis(self, anum: int) -> np.ndarray:
        """Axis ``anum`` in world coordinates as ODE reports it, (3,)."""
        b0, b1 = self.body_rows()
        s = self.world.bodies
        if self.mode == dAMotorEuler:
            if b0 < 0:
                return np.zeros(3)
            ax = self.global_axes()
            # the axes the rows act on (not unit in general)
            if anum == 0:
                return np.cross(ax[1], ax[2])
            if anum == 2:
                return np.cross(ax[0], ax[1])
            return ax[1].copy()
        a = self.d[AXES + 3 * anum:AXES + 3 * anum + 3]
        rel = int(self.di[I_AXIS_FRAME + anum])
        if rel == 1 and b0 >= 0:
            return matmul(s.R[b0], a)
        if rel == 2 and b1 >= 0:
            return matmul(s.R[b1], a)
        return a.copy()


# ----------------------------------------------------------------------------- kernels
@njit(cache=True, nogil=True)
def global_axes(d, di, jf, b0, b1, bodies) -> np.ndarray:
    """The axes in world coordinates, rows of a (3, 3) array.

    Euler mode: the axis kept by body 0 (axis 0, or axis 2 when attached as
    (NULL, body)) turns with body 0, the other one with body 1 (or stays in
    the world), and axis 1 = axis 2 × axis 0, normalized.
    """
    ax = np.zeros((3, 3))
    R0 = bodies.R[b0]
    if di[I_MODE] == dAMotorEuler:
        first = 2 if jf & JF_REVERSE else 0
        second = 2 - first
        ax[first] = mat_vec(R0, d[AXES + 3 * first:AXES + 3 * first + 3])
        if b1 >= 0:
            ax[second] = mat_vec(bodies.R[b1], d[AXES + 3 * second:AXES + 3 * second + 3])
        else:
            ax[second] = d[AXES + 3 * second:AXES + 3 * second + 3]
        ax[1] = ode_normalize(cross3(ax[2], ax[0]))
        return ax
    for i in range(di[I_AXIS_COUNT]):
        a = d[AXES + 3 * i:AXES + 3 * i + 3]
        rel = di[I_AXIS_FRAME + i]
        if rel == 1:
            ax[i] = mat_vec(R0, a)
        elif rel == 2 and b1 >= 0:
            ax[i] = mat_vec(bodies.R[b1], a)
        else:
            ax[i] = a
    return ax


@njit(cache=True, nogil=True)
def euler_angles(d, jf, b0, b1, bodies, ax) -> None:
    """Store the three Euler angles (rad) of the current configuration.

    With e0, e1, e2 the global axes, ref1 = original axis 2 carried by the
    body that keeps axis 0, ref2 = original axis 0 carried by the other:
    θ0 is the turn of ref1 about e0 away from e2, θ1 the tilt of e2 towards
    e0 out of the plane normal to e0 × e1, θ2 the turn of ref2 about e2.
    Each is negated, ODE's sign convention (a positive turn reads negative).
    """
    ref0 = mat_vec(bodies.R[b0], d[REFERENCE0:REFERENCE0 + 3])
    if b1 >= 0:
        ref1 = mat_vec(bodies.R[b1], d[REFERENCE1:REFERENCE1 + 3])
    else:
        ref1 = d[REFERENCE1:REFERENCE1 + 3].copy()
    if jf & JF_REVERSE:
        r_first, r_second = ref1, ref0
    else:
        r_first, r_second = ref0, ref1
    e0 = ax[0]
    e1 = ax[1]
    e2 = ax[2]
    q = cross3(e0, r_first)
    d[ANGLES] = -detmath.atan2(dot3(e2, q), dot3(e2, r_first))
    q = cross3(e0, e1)
    d[ANGLES + 1] = -detmath.atan2(dot3(e2, e0), dot3(e2, q))
    q = cross3(e1, e2)
    d[ANGLES + 2] = -detmath.atan2(dot3(r_second, e1), dot3(r_second, q))


@njit(cache=True, nogil=True)
def info1(d, di, jf, b0, b1, bodies, wp):
    if di[I_MODE] == dAMotorEuler:
        euler_angles(d, jf, b0, b1, bodies, global_axes(d, di, jf, b0, b1, bodies))
    m = 0
    for i in range(di[I_AXIS_COUNT]):
        off = LIMOT_BLOCKS + i * LM_SIZE
        # the limit test runs first: it records the limit state info2 uses
        if test_limit(d, off, d[ANGLES + i]) or d[off + LM_FMAX] > 0:
            m += 1
    return m, 0


@njit(cache=True, nogil=True)
def info2(d, di, jf, b0, b1, bodies, wp, rows, r):
    ax = global_axes(d, di, jf, b0, b1, bodies)
    if di[I_MODE] == dAMotorEuler:
        # Euler angle k is constant when w1 − w0 has no component along these
        # (ODE's choice): e1 × e2 for θ0, e1 for θ1, e0 × e1 for θ2
        a0 = cross3(ax[1], ax[2])
        a2 = cross3(ax[0], ax[1])
        ax[0] = a0
        ax[2] = a2
    k = r
    for i in range(di[I_AXIS_COUNT]):
        k += add_limot(d, LIMOT_BLOCKS + i * LM_SIZE, b0, b1, bodies, wp, rows, k, ax[i].copy(),
                       ROTATIONAL)


# ----------------------------------------------------------------------------- API
def _amotor(j, fn: str) -> AMotorJoint:
    return joint_of(j, fn, AMotorJoint)


def _anum(anum, fn: str) -> int:
    a = checks.integer(anum, fn, "anum")
    if not 0 <= a <= 2:
        raise ODEError(fn, "anum", f"the axis number must be 0, 1 or 2, got {a}")
    return a


def dJointCreateAMotor(w, group=None) -> AMotorJoint:
    """A new angular motor: user mode, no axes (ODE's dJointCreateAMotor)."""
    return create_joint(AMotorJoint, w, group, "dJointCreateAMotor")


def dJointSetAMotorMode(j, mode: int) -> None:
    """dAMotorUser or dAMotorEuler; Euler mode sets 3 axes and makes the
    current relative orientation read as all Euler angles zero."""
    fn = "dJointSetAMotorMode"
    joint = _amotor(j, fn)
    m = checks.integer(mode, fn, "mode")
    if m not in (dAMotorUser, dAMotorEuler):
        raise ODEError(fn, "mode", f"must be dAMotorUser (0) or dAMotorEuler (1), got {m}")
    joint.di[I_MODE] = m
    if m == dAMotorEuler:
        joint.di[I_AXIS_COUNT] = 3
        joint.set_euler_references()


def dJointGetAMotorMode(j) -> int:
    return _amotor(j, "dJointGetAMotorMode").mode


def dJointSetAMotorNumAxes(j, num: int) -> None:
    """Number of controlled axes, 0..3 (always 3 in Euler mode)."""
    fn = "dJointSetAMotorNumAxes"
    joint = _amotor(j, fn)
    n = checks.integer(num, fn, "num")
    if not 0 <= n <= 3:
        raise ODEError(fn, "num", f"must be 0..3, got {n}")
    joint.di[I_AXIS_COUNT] = 3 if joint.mode == dAMotorEuler else n


def dJointGetAMotorNumAxes(j) -> int:
    return int(_amotor(j, "dJointGetAMotorNumAxes").di[I_AXIS_COUNT])


def dJointSetAMotorAxis(j, anum: int, rel: int, x: float, y: float, z: float) -> None:
    """Set axis ``anum`` (0..2) from a world direction, anchored to the world
    (rel 0), body 1 (rel 1) or body 2 (rel 2). In Euler mode axis 0 may only
    be relative to body 1 and axis 2 to body 2."""
    fn = "dJointSetAMotorAxis"
    joint = _amotor(j, fn)
    a = _anum(anum, fn)
    r = checks.integer(rel, fn, "rel")
    if not 0 <= r <= 2:
        raise ODEError(fn, "rel", f"must be 0 (world), 1 or 2 (body), got {r}")
    joint.set_axis(fn, a, r, checks.xyz(x, y, z, fn))


def dJointGetAMotorAxis(j, anum: int) -> np.ndarray:
    """Axis ``anum`` in world coordinates, (3,). In Euler mode: the axes the
    motor rows act on (axis 1 × axis 2, axis 1, axis 0 × axis 1)."""
    fn = "dJointGetAMotorAxis"
    joint = _amotor(j, fn)
    return joint.axis(_anum(anum, fn))


def dJointGetAMotorAxisRel(j, anum: int) -> int:
    """0 (world), 1 or 2 (body), in the order given to dJointAttach."""
    fn = "dJointGetAMotorAxisRel"
    joint = _amotor(j, fn)
    rel = int(joint.di[I_AXIS_FRAME + _anum(anum, fn)])
    return 3 - rel if rel != 0 and joint.reversed else rel


def dJointSetAMotorAngle(j, anum: int, angle: float) -> None:
    """Tell a user-mode motor the current angle (rad) about axis ``anum``
    (needed for stops only). Not allowed in Euler mode."""
    fn = "dJointSetAMotorAngle"
    joint = _amotor(j, fn)
    a = _anum(anum, fn)
    v = checks.real(angle, fn, "angle")
    if joint.mode != dAMotorUser:
        raise ODEError(fn, "j", "the angles of an Euler-mode AMotor are computed, not set")
    joint.d[ANGLES + a] = v


def dJointGetAMotorAngle(j, anum: int) -> float:
    """User mode: the angle last set. Euler mode: Euler angle ``anum`` (rad)
    as computed at the start of the last step."""
    fn = "dJointGetAMotorAngle"
    joint = _amotor(j, fn)
    return float(joint.d[ANGLES + _anum(anum, fn)])


def dJointGetAMotorAngleRate(j, anum: int) -> float:
    """Relative angular velocity (rad/s) of body 1 minus body 2 along axis
    ``anum`` as dJointGetAMotorAxis gives it (ODE 0.16.2 computes it in
    both modes); 0 while unattached."""
    fn = "dJointGetAMotorAngleRate"
    joint = _amotor(j, fn)
    a = _anum(anum, fn)
    b0, b1 = joint.body_rows()
    if b0 < 0:
        return 0.0
    axis = joint.axis(a)
    s = joint.world.bodies
    rate = float(matmul(axis, s.avel[b0]))
    if b1 >= 0:
        rate -= float(matmul(axis, s.avel[b1]))
    return -rate if joint.reversed else rate


def dJointSetAMotorParam(j, parameter: int, value: float) -> None:
    """Limit/motor parameters, groups 1..3 for axes 0..2 (dParamVel2...)."""
    fn = "dJointSetAMotorParam"
    _amotor(j, fn).set_param(fn, parameter, value)


def dJointGetAMotorParam(j, parameter: int) -> float:
    fn = "dJointGetAMotorParam"
    return _amotor(j, fn).get_param(fn, parameter)


def dJointAddAMotorTorques(j, torque1: float, torque2: float, torque3: float) -> None:
    """Add torques (N·m) about axes 0, 1, 2 to body 1 and their opposite to
    body 2; torques beyond the number of axes are ignored."""
    fn = "dJointAddAMotorTorques"
    joint = _amotor(j, fn)
    t = [checks.real(v, fn, f"torque{k + 1}")
         for k, v in enumerate((torque1, torque2, torque3))]
    num = int(joint.di[I_AXIS_COUNT])
    b0, b1 = joint.body_rows()
    if num == 0 or b0 < 0:
        return
    if joint.reversed:
        t = [-v for v in t]
    ax = joint.global_axes()
    # summed from the last axis down, as ODE does (same rounding)
    total = ax[num - 1] * t[num - 1]
    for k in range(num - 2, -1, -1):
        total = total + ax[k] * t[k]
    s = joint.world.bodies
    s.tacc[b0] += total
    if b1 >= 0:
        s.tacc[b1] -= total
