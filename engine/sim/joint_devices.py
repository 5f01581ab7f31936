"""Joint devices other than motors, and the joint's constraint-force readout
(docs/motors.md).

* `PositionSensor`: the joint position (rad or m, unwrapped, as
  `engine.sim.motors.AxisPosition` keeps it) with Webots' Gaussian ``noise``
  (σ, same unit) and ``resolution`` (-1 = exact).
* `Brake`: ``setDampingConstant(c)`` adds the damping torque ``-c v`` (N·m, or
  N on a slider; ``v`` the axis velocity at the start of the step) on the axis
  every step. Webots adds ``c`` to the joint's implicit spring-damper; this is
  an explicit damper (stable while ``c dt / I`` stays below 2, ``I`` the
  inertia about the axis).
* `axis_feedback`: the constraint torque a hinge / hinge-2 (force a slider)
  put on an axis in the last step, from its ``dJointFeedback``.

`JOINT_DEVICE_TYPES` is the registry the controller host uses: node type name
-> factory ``(sim, node, seed) -> device or None`` (None: the device's joint
is not simulated, e.g. an endPoint without Physics).

Noise: each PositionSensor with noise > 0 draws from its own
``numpy.random.Generator(PCG64(seed))``; ``seed`` is given by the host
(derived from ``WorldInfo.randomSeed`` and the device's index).
"""

from __future__ import annotations

from collections.abc import Callable

from numpy.random import PCG64, Generator

from engine import ode
from engine.sim.motor_law import discretize


class Brake:
    """A Brake node on a joint axis (module docstring).

    node: the Brake node (opaque until the schema knows Brake); axis: the
    `AxisPosition` of its joint axis; damping_constant: c (N·m·s/rad or N·s/m).
    """

    def __init__(self, node, axis) -> None:
        self.node = node
        self.axis = axis
        self.damping_constant = 0.0

    @property
    def rotational(self) -> bool:
        return self.axis.revolute

    def set_damping_constant(self, c: float) -> None:
        """``setDampingConstant``: c >= 0 (a negative value is taken as 0)."""
        self.damping_constant = max(float(c), 0.0)

    def pre_step(self, dt: float) -> None:
        """Add ``-c v`` on the axis for the coming step of ``dt`` s."""
        c = self.damping_constant
        if c > 0.0:
            # ODE effort = sign * Webots torque and ODE rate = sign * v: the signs cancel
            joint_axis = self.axis.axis
            joint_axis.add_effort(-c * joint_axis.rate())

    def reset(self) -> None:
        """Webots' reset: no braking."""
        self.damping_constant = 0.0


class PositionSensor:
    """A PositionSensor node on a joint axis (module docstring); ``read`` gives
    the value Webots' ``getValue`` returns now."""

    def __init__(self, node, axis, seed: int) -> None:
        self.node = node
        self.axis = axis
        self.noise = max(float(node.get("noise")), 0.0)
        self.resolution = float(node.get("resolution"))
        self._rng = Generator(PCG64(seed)) if self.noise > 0.0 else None

    @property
    def rotational(self) -> bool:
        return self.axis.revolute

    def post_step(self, dt: float) -> None:
        """Nothing to keep: the `MotorSet` updates the joint position after every step."""

    def read(self) -> float:
        """The joint position (rad or m) with noise, then resolution, applied."""
        value = self.axis.position
        if self._rng is not None:
            value += self.noise * float(self._rng.standard_normal())
        return discretize(value, self.resolution)


# ------------------------------------------------------------------ feedback
def _cross(a, b) -> tuple[float, float, float]:
    return (a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0])


def _dot(a, b) -> float:
    return float(a[0]) * float(b[0]) + float(a[1]) * float(b[1]) + float(a[2]) * float(b[2])


def _torque_about(anchor, fb, body) -> tuple[float, float, float]:
    """The torque (N·m, world) the joint put on its first body, about ``anchor``:
    t1 + (p1 - anchor) x f1, p1 the body's position (its centre of mass)."""
    p = ode.dBodyGetPosition(body)
    arm = [float(p[i]) - float(anchor[i]) for i in range(3)]
    m = _cross(arm, fb.f1)
    return (float(fb.t1[0]) + m[0], float(fb.t1[1]) + m[1], float(fb.t1[2]) + m[2])


def _hinge(joint, index: int, fb) -> float:
    torque = _torque_about(ode.dJointGetHingeAnchor(joint), fb, ode.dJointGetBody(joint, 0))
    return _dot(ode.dJointGetHingeAxis(joint), torque)


def _hinge2(joint, index: int, fb) -> float:
    torque = _torque_about(ode.dJointGetHinge2Anchor(joint), fb, ode.dJointGetBody(joint, 0))
    axis = ode.dJointGetHinge2Axis1(joint) if index == 0 else ode.dJointGetHinge2Axis2(joint)
    return _dot(axis, torque)


def _slider(joint, index: int, fb) -> float:
    return _dot(ode.dJointGetSliderAxis(joint), fb.f1)


#: joint kind -> (ODE joint, axis index, its dJointFeedback) -> effort on the axis
#: (N·m or N), positive when it pushes the ODE position up (on the joint's first body)
FEEDBACK_KINDS: dict[str, Callable] = {
    "HingeJoint": _hinge,
    "Hinge2Joint": _hinge2,
    "SliderJoint": _slider,
}


def axis_feedback(joint_record, index: int, fb) -> float:
    """The constraint effort on axis ``index`` of a joint from its last step's
    feedback ``fb`` (ODE's sign; `FEEDBACK_KINDS`)."""
    return FEEDBACK_KINDS[joint_record.kind](joint_record.joint, index, fb)


# ------------------------------------------------------------------ registry
def _position_sensor(sim, node, seed: int) -> PositionSensor | None:
    axis = sim.motors.axis_of(node)
    return None if axis is None else PositionSensor(node, axis, seed)


def _brake(sim, node, seed: int) -> Brake | None:
    return sim.motors.brake(node)


def _motor(sim, node, seed: int):
    return sim.motors.drive(node)


#: node type -> factory ``(sim, node, seed) -> device or None`` (module docstring);
#: motors give their `engine.sim.motors.MotorDrive`
JOINT_DEVICE_TYPES: dict[str, Callable] = {
    "RotationalMotor": _motor,
    "LinearMotor": _motor,
    "PositionSensor": _position_sensor,
    "Brake": _brake,
}
