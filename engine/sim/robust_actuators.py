"""Motors and joint friction of a world under the robust model (docs/robust-contacts.md).

For each joint of the model (HingeJoint, SliderJoint, Hinge2Joint, BallJoint)
and each of its axes (`engine.contact.joint_axes`; a BallJoint's axes are those
of its control AMotor):

* a RotationalMotor / LinearMotor in the axis' ``device`` field becomes a PID
  actuator (`engine.contact.actuators.PIDActuator`) with the gains of its
  ``controlPID`` (kP, kI, kD), the torque limit ``maxTorque`` (``maxForce``),
  and, as target, the axis' initial position at rest (targets are in the
  axis' ODE coordinates: a BallJoint axis may count the other way round from
  Webots' position, see `engine.sim.ball_joint`); ``maxVelocity`` bounds
  the target velocity a caller may set (`MotorActuator.set_target`);
* JointParameters ``staticFriction`` (the dry friction μD) and the joint's
  ``odeon: joint <DEF> viscousFriction`` (μV) become a stick-slip
  `JointFriction` on the axis.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

from engine.contact.actuators import ActuatorSet, JointFriction, PIDActuator, PIDGains
from engine.contact.joint_axes import JointAxis, joint_axes
from engine.world.odeon_settings import OdeonSettings

#: Joint kind -> the ``device`` fields of its axes, in axis order.
DEVICE_FIELDS = {
    "HingeJoint": ("device",),
    "SliderJoint": ("device",),
    "Hinge2Joint": ("device", "device2"),
    "BallJoint": ("device", "device2", "device3"),
}
MOTOR_TYPES = ("RotationalMotor", "LinearMotor")


@dataclass
class MotorActuator:
    """A motor node's PID actuator: ``node`` (the motor), ``actuator`` and the
    motor's ``max_velocity`` [rad/s or m/s]."""

    node: object
    actuator: PIDActuator
    max_velocity: float

    def set_target(self, position: float, velocity: float = 0.0) -> None:
        """Drive the axis towards ``position`` (ODE coordinates: 0 = where the joint
        started) at ``velocity``, bounded by the motor's maxVelocity."""
        v = max(-self.max_velocity, min(self.max_velocity, float(velocity)))
        self.actuator.set_target(position, v)


def motor_of(node, field: str):
    """The motor node in a joint's device field, or None."""
    for device in node.get(field) if field in node.field_names() else ():
        device = device.target if device.is_use else device
        if not device.is_opaque and device.type_name in MOTOR_TYPES:
            return device
    return None


def _gains(motor) -> PIDGains:
    kp, ki, kd = (float(v) for v in motor.get("controlPID"))
    limit_field = "maxTorque" if motor.type_name == "RotationalMotor" else "maxForce"
    limit = float(motor.get(limit_field))
    return PIDGains(max(kp, 0.0), max(ki, 0.0), max(kd, 0.0),
                    math.inf if limit < 0.0 else limit)


def axes_of(rec, world) -> tuple[JointAxis, ...]:
    """The driven axes of a joint record in Webots' axis order (a BallJoint's are
    its control motor's, whose ODE axis of Webots axis k is ``rec.ode_axis[k]``)."""
    if rec.kind != "BallJoint":
        return joint_axes(rec.joint, world)
    motor_axes = joint_axes(rec.motor, world)
    return tuple(motor_axes[i] for i in rec.ode_axis)


def build_actuators(model, settings: OdeonSettings, warn: Callable[[str], None]
                    ) -> RobustActuators:
    """The PID actuators and joint frictions of ``model`` (module docstring)."""
    out = RobustActuators()
    for rec in model.joints:
        fields = DEVICE_FIELDS.get(rec.kind)
        if fields is None:
            continue
        axes = axes_of(rec, model.ode_world)
        own = settings.joints.get(rec.node.def_name) if rec.node.def_name else None
        viscous = own.viscous_friction if own is not None and own.viscous_friction else 0.0
        for k, axis in enumerate(axes):
            motor = motor_of(rec.node, fields[k]) if k < len(fields) else None
            if motor is not None:
                pid = PIDActuator(axis, _gains(motor))
                pid.set_target(axis.position(), 0.0)
                out.actuators.add_actuator(pid)
                out.motors[id(motor)] = MotorActuator(motor, pid,
                                                      abs(float(motor.get("maxVelocity"))))
            dry = rec.params[k].static_friction if k < len(rec.params) else 0.0
            if dry > 0.0 or viscous > 0.0:
                out.actuators.add_friction(JointFriction(axis, max(dry, 0.0), viscous))
    return out


class RobustActuators:
    """The actuator set the robust stepper applies every sub-step, and the
    motors' actuators by motor node (``motor(node)``)."""

    def __init__(self) -> None:
        self.actuators = ActuatorSet()
        self.motors: dict[int, MotorActuator] = {}

    def motor(self, node) -> MotorActuator | None:
        """The actuator of a RotationalMotor / LinearMotor node, or None."""
        return self.motors.get(id(node))

    def apply(self, h: float) -> None:
        """Torques and friction bounds for a sub-step of ``h`` [s]."""
        self.actuators.apply(h)

    def state(self):
        """What `restore` needs to redo a sub-step exactly."""
        return self.actuators.state()

    def restore(self, state) -> None:
        """Go back to a `state`."""
        self.actuators.restore(state)
