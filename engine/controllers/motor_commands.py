"""Motors, position sensors and brakes of a robot: the controller's commands
mapped onto `engine.sim.motors` (the drives the Simulation runs every step).

A motor's sample is its torque (force) feedback; a position sensor's, the
joint position. Motor ``info`` carries the fields libController reports
(limits, initial target and velocity) so the controller's getters work
before the first step.
"""

from __future__ import annotations

from engine.controllers.device_records import DeviceContext, RobotDevice
from engine.sim.joint_devices import JOINT_DEVICE_TYPES


class _FeedbackSampler:
    """A motor's torque (force) feedback as a sample."""

    def __init__(self, drive) -> None:
        self.drive = drive

    def post_step(self, dt: float) -> None:
        """The feedback is read from the joint when sampled."""

    def read(self) -> float:
        return self.drive.torque_feedback()


def attach_motor(ctx: DeviceContext, device: RobotDevice) -> None:
    """Describe a RotationalMotor/LinearMotor and route its commands to its drive."""
    node = device.node
    limit_field = "maxTorque" if node.type_name == "RotationalMotor" else "maxForce"
    drive = JOINT_DEVICE_TYPES[node.type_name](ctx.sim, node, ctx.seed)
    device.info.update(maxVelocity=abs(float(node.get("maxVelocity"))),
                       acceleration=float(node.get("acceleration")),
                       maxTorque=float(node.get(limit_field)),
                       minPosition=float(node.get("minPosition")),
                       maxPosition=float(node.get("maxPosition")),
                       multiplier=float(node.get("multiplier")),
                       position=drive.position if drive is not None else 0.0)
    if drive is None:
        ctx.warn(f'{node.type_name} "{device.name}" is not in a joint\'s device field: '
                 "its commands do nothing")
        return
    device.sampler = _FeedbackSampler(drive)

    def enable(period_ms: int) -> None:
        if period_ms > 0:
            drive.enable_torque_feedback()
        else:
            drive.disable_torque_feedback()

    device.handlers.update(
        position=drive.set_position, velocity=drive.set_velocity,
        acceleration=drive.set_acceleration, available=drive.set_available_torque,
        torque=drive.set_torque, pid=drive.set_control_pid, feedback=enable)


def attach_joint_device(ctx: DeviceContext, device: RobotDevice) -> None:
    """A PositionSensor (sampled joint position) or a Brake (damping command)."""
    node = device.node
    part = JOINT_DEVICE_TYPES[node.type_name](ctx.sim, node, ctx.seed)
    linear = node.parent is not None and node.parent.type_name == "SliderJoint"
    device.info["linear"] = linear
    if part is None:
        ctx.warn(f'{node.type_name} "{device.name}" is not in a joint\'s device field')
        return
    if node.type_name == "Brake":
        device.handlers["damping"] = part.set_damping_constant
    else:
        device.sampler = part
