"""Uniform access to the degrees of freedom of ODE joints (for actuators).

:func:`joint_axes` turns a joint into its axes, through a registry keyed by
the ODE joint type (:data:`AXIS_BUILDERS`): a hinge and a slider have one
axis, a hinge-2 two (axis 1 and axis 2), an angular motor (AMotor) as many
as it has (three in Euler mode), and a bare ball joint gets an Euler-mode
AMotor created for it (axis 0 = world x fixed in body 1, axis 2 = world z
fixed in body 2, axis 1 = their cross product) whose three axes are
returned. A Webots BallJoint already has such a motor (its "control motor",
see engine/sim/ball_joint.py): pass that AMotor to get its axes.

Each :class:`JointAxis` reads the axis position (rad, or m for a slider) and
rate (rad/s or m/s), adds a torque (N·m) or force (N) on the axis, and sets
the axis motor (target velocity and the most effort it may use). Positive
effort increases the rate, and the rate is the time derivative of the
position.

Positions are the current ones. For an Euler AMotor ODE only stores the
angles computed at the start of the last step, so they are recomputed here
from the bodies' current orientations (the motor's own record is left
untouched); a user-mode AMotor's angles are those the user set.
"""

from __future__ import annotations

import math
from abc import ABC, abstractmethod

from engine import ode
from engine.ode.joints.amotor import ANGLES, euler_angles, global_axes
from engine.ode.joints.anchors import body_arrays


class JointAxis(ABC):
    """One degree of freedom of a joint.

    joint: the ODE joint that carries the axis; index: the axis number in it
    (0 for single-axis joints); revolute: True for a rotation (rad), False
    for a translation (m).
    """

    revolute = True

    def __init__(self, joint: object, index: int = 0) -> None:
        self.joint = joint
        self.index = index

    @property
    def key(self) -> tuple[object, int]:
        """(joint, index): the same axis of the same joint gives equal keys."""
        return (self.joint, self.index)

    @abstractmethod
    def position(self) -> float:
        """Current position: rad (revolute) or m (prismatic)."""

    @abstractmethod
    def rate(self) -> float:
        """Current rate: rad/s or m/s."""

    @abstractmethod
    def add_effort(self, effort: float) -> None:
        """Add a torque (N·m) or force (N) along the axis for the next step."""

    @abstractmethod
    def _set_param(self, parameter: int, value: float) -> None:
        """Set ODE parameter ``parameter`` of the joint."""

    @abstractmethod
    def _get_param(self, parameter: int) -> float:
        """ODE parameter ``parameter`` of the joint."""

    def _param(self, base: int) -> int:
        """The ODE parameter ``base`` of this axis (dParamVel -> dParamVel2, ...)."""
        return base + ode.dParamGroup * self.index

    def set_motor(self, velocity: float, max_effort: float) -> None:
        """Drive the axis towards ``velocity`` (rad/s or m/s) with at most
        ``max_effort`` (N·m or N, >= 0, may be math.inf); 0 releases it."""
        self._set_param(self._param(ode.dParamVel), velocity)
        self._set_param(self._param(ode.dParamFMax), max_effort)

    def has_stops(self) -> bool:
        """True when the axis has a finite low or high stop."""
        lo = self._get_param(self._param(ode.dParamLoStop))
        hi = self._get_param(self._param(ode.dParamHiStop))
        return not (math.isinf(lo) and lo < 0 and math.isinf(hi) and hi > 0)


class HingeAxis(JointAxis):
    """The axis of a hinge joint (rad)."""

    def position(self) -> float:
        return float(ode.dJointGetHingeAngle(self.joint))

    def rate(self) -> float:
        return float(ode.dJointGetHingeAngleRate(self.joint))

    def add_effort(self, effort: float) -> None:
        ode.dJointAddHingeTorque(self.joint, effort)

    def _set_param(self, parameter: int, value: float) -> None:
        ode.dJointSetHingeParam(self.joint, parameter, value)

    def _get_param(self, parameter: int) -> float:
        return float(ode.dJointGetHingeParam(self.joint, parameter))


class SliderAxis(JointAxis):
    """The axis of a slider joint (m)."""

    revolute = False

    def position(self) -> float:
        return float(ode.dJointGetSliderPosition(self.joint))

    def rate(self) -> float:
        return float(ode.dJointGetSliderPositionRate(self.joint))

    def add_effort(self, effort: float) -> None:
        ode.dJointAddSliderForce(self.joint, effort)

    def _set_param(self, parameter: int, value: float) -> None:
        ode.dJointSetSliderParam(self.joint, parameter, value)

    def _get_param(self, parameter: int) -> float:
        return float(ode.dJointGetSliderParam(self.joint, parameter))


class Hinge2Axis(JointAxis):
    """Axis 1 (index 0) or axis 2 (index 1) of a hinge-2 joint (rad)."""

    _POSITION = (ode.dJointGetHinge2Angle1, ode.dJointGetHinge2Angle2)
    _RATE = (ode.dJointGetHinge2Angle1Rate, ode.dJointGetHinge2Angle2Rate)

    def position(self) -> float:
        return float(self._POSITION[self.index](self.joint))

    def rate(self) -> float:
        return float(self._RATE[self.index](self.joint))

    def add_effort(self, effort: float) -> None:
        torques = [0.0, 0.0]
        torques[self.index] = effort
        ode.dJointAddHinge2Torques(self.joint, *torques)

    def _set_param(self, parameter: int, value: float) -> None:
        ode.dJointSetHinge2Param(self.joint, parameter, value)

    def _get_param(self, parameter: int) -> float:
        return float(ode.dJointGetHinge2Param(self.joint, parameter))


class AMotorAxis(JointAxis):
    """Axis ``index`` (0..2) of an angular motor (rad); in Euler mode the
    position is the Euler angle of the current orientations."""

    def position(self) -> float:
        motor = self.joint
        if ode.dJointGetAMotorMode(motor) != ode.dAMotorEuler:
            return float(ode.dJointGetAMotorAngle(motor, self.index))
        b0, b1 = motor.body_rows()
        if b0 < 0:
            return 0.0
        bodies = body_arrays(motor.world)
        record = motor.d.copy()
        axes = global_axes(record, motor.di, motor.flags, b0, b1, bodies)
        euler_angles(record, motor.flags, b0, b1, bodies, axes)
        return float(record[ANGLES + self.index])

    def rate(self) -> float:
        return float(ode.dJointGetAMotorAngleRate(self.joint, self.index))

    def add_effort(self, effort: float) -> None:
        torques = [0.0, 0.0, 0.0]
        torques[self.index] = effort
        ode.dJointAddAMotorTorques(self.joint, *torques)

    def _set_param(self, parameter: int, value: float) -> None:
        ode.dJointSetAMotorParam(self.joint, parameter, value)

    def _get_param(self, parameter: int) -> float:
        return float(ode.dJointGetAMotorParam(self.joint, parameter))


def _single(kind: type[JointAxis]):
    def build(joint: object, world: object) -> tuple[JointAxis, ...]:
        return (kind(joint, 0),)
    return build


def _hinge2_axes(joint: object, world: object) -> tuple[JointAxis, ...]:
    return (Hinge2Axis(joint, 0), Hinge2Axis(joint, 1))


def _amotor_axes(motor: object, world: object) -> tuple[JointAxis, ...]:
    return tuple(AMotorAxis(motor, k) for k in range(ode.dJointGetAMotorNumAxes(motor)))


def ball_motor(world: object, joint: object) -> object:
    """A new Euler AMotor on the bodies of ball joint ``joint``: axis 0 =
    world x fixed in the first body, axis 2 = world z fixed in the second
    (the current orientation reads as angles 0). A joint attached to the
    static world on its first side gets the motor attached the other way
    round, (body, static world)."""
    first, second = ode.dJointGetBody(joint, 0), ode.dJointGetBody(joint, 1)
    if first is None:
        first, second = second, None
    if first is None:
        raise ValueError("ball_motor: the ball joint is not attached to a body")
    motor = ode.dJointCreateAMotor(world, None)
    ode.dJointAttach(motor, first, second)
    ode.dJointSetAMotorMode(motor, ode.dAMotorEuler)
    ode.dJointSetAMotorAxis(motor, 0, 1, 1.0, 0.0, 0.0)
    ode.dJointSetAMotorAxis(motor, 2, 2 if second is not None else 0, 0.0, 0.0, 1.0)
    return motor


def _ball_axes(joint: object, world: object) -> tuple[JointAxis, ...]:
    if world is None:
        raise ValueError("joint_axes: a bare ball joint needs the world (an AMotor is created "
                         "for its axes)")
    return _amotor_axes(ball_motor(world, joint), world)


#: ODE joint type -> builder of the joint's axes, ``(joint, world) -> axes``
AXIS_BUILDERS = {
    ode.dJointTypeHinge: _single(HingeAxis),
    ode.dJointTypeSlider: _single(SliderAxis),
    ode.dJointTypeHinge2: _hinge2_axes,
    ode.dJointTypeAMotor: _amotor_axes,
    ode.dJointTypeBall: _ball_axes,
}


def joint_axes(joint: object, world: object = None) -> tuple[JointAxis, ...]:
    """The axes of ``joint`` (module docstring). ``world`` is needed only
    for a bare ball joint (its AMotor is created in it); call this once per
    ball joint and keep the axes."""
    kind = ode.dJointGetType(joint)
    try:
        build = AXIS_BUILDERS[kind]
    except KeyError:
        raise ValueError(f"joint_axes: joint type {kind} has no actuated axes "
                         f"(supported: {sorted(AXIS_BUILDERS)})") from None
    return build(joint, world)
