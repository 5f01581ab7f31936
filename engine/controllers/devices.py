"""A robot's devices on the simulation side: found in the robot's subtree,
numbered (``tag``), described to the controller, commanded and sampled.

`robot_devices` walks a Robot's nodes in declaration order (joint ``device``
fields included, nested Robots excluded: they are robots of their own) and
builds one `RobotDevice` per device node through `DEVICE_KINDS`, a registry
from node type name to a `DeviceBuilder` that fills in the static
description the controller's object reads, the engine-side sampler and the
command handlers (`engine.controllers.device_records`).
Samplers come from `engine.sim.sensors` (sensors) and `engine.sim.motors`
(motors, position sensors, brakes); Emitters, Receivers, LEDs and Cameras
are handled here and in `engine.controllers.radio`.
"""

from __future__ import annotations

import math
from collections.abc import Callable

from engine.controllers.cameras import CameraSampler
from engine.controllers.device_records import DeviceBuilder, DeviceContext, RobotDevice
from engine.controllers.motor_commands import attach_joint_device, attach_motor
from engine.ode.kernels import detmath
from engine.sim.sensors import SENSOR_TYPES
from engine.world import Node


def _lookup_table(node: Node) -> list[float]:
    return [float(v) for row in node.get("lookupTable") for v in row]


def _output_range(node: Node) -> tuple[float, float]:
    outputs = [float(row[1]) for row in node.get("lookupTable")]
    return (min(outputs), max(outputs)) if outputs else (0.0, 0.0)


def _sensor_sampler(ctx: DeviceContext, device: RobotDevice) -> None:
    factory = SENSOR_TYPES.get(device.type_name)
    if factory is not None:
        device.sampler = factory(ctx.sim, device.node, ctx.seed)


def _distance_sensor(ctx: DeviceContext, device: RobotDevice) -> None:
    node = device.node
    kinds = {"generic": 0, "infra-red": 1, "infrared": 1, "sonar": 2, "laser": 3}
    low, high = _output_range(node)
    device.info.update(lookup_table=_lookup_table(node), min_value=low, max_value=high,
                       aperture=float(node.get("aperture")),
                       kind=kinds.get(str(node.get("type")).lower(), 2))
    _sensor_sampler(ctx, device)


def _touch_sensor(ctx: DeviceContext, device: RobotDevice) -> None:
    kinds = {"bumper": 0, "force": 1, "force-3d": 2}
    kind = kinds.get(str(device.node.get("type")), 0)
    device.info.update(lookup_table=_lookup_table(device.node), kind=kind,
                       components=3 if kind == 2 else 0)
    _sensor_sampler(ctx, device)


def _vector_sensor(ctx: DeviceContext, device: RobotDevice) -> None:
    if "lookupTable" in device.node.field_names():
        device.info["lookup_table"] = _lookup_table(device.node)
    device.info["components"] = 3
    _sensor_sampler(ctx, device)


def _gps(ctx: DeviceContext, device: RobotDevice) -> None:
    _vector_sensor(ctx, device)
    sampler = device.sampler
    if sampler is not None:
        tag = device.tag
        # the speed of the position just read (the sampler updates both in read())
        device.extra_values = lambda: {
            (tag, "speed"): float(sampler.speed),
            (tag, "speed_vector"): [float(v) for v in sampler.speed_vector]}


class AttitudeSampler:
    """An InertialUnit's sample: its quaternion [x, y, z, w] followed by roll,
    pitch and yaw [rad], computed here with `detmath` so that every machine
    gives a controller the same bits (Webots computes them in libController)."""

    def __init__(self, quaternion_sampler) -> None:
        self.quaternion_sampler = quaternion_sampler

    def post_step(self, dt: float) -> None:
        self.quaternion_sampler.post_step(dt)

    def read(self) -> list[float]:
        x, y, z, w = (float(v) for v in self.quaternion_sampler.read())
        if math.isnan(w):
            return [math.nan] * 7
        # ENU, R = Rz(yaw) Ry(pitch) Rx(roll): the quaternion's Tait-Bryan angles
        roll = detmath.atan2(2.0 * (w * x + y * z), 1.0 - 2.0 * (x * x + y * y))
        pitch = detmath.asin(max(-1.0, min(1.0, 2.0 * (w * y - z * x))))
        yaw = detmath.atan2(2.0 * (w * z + x * y), 1.0 - 2.0 * (y * y + z * z))
        return [x, y, z, w, roll, pitch, yaw]


def _inertial_unit(ctx: DeviceContext, device: RobotDevice) -> None:
    device.info.update(components=7, noise=float(device.node.get("noise")))
    _sensor_sampler(ctx, device)
    if device.sampler is not None:
        device.sampler = AttitudeSampler(device.sampler)


def _emitter(ctx: DeviceContext, device: RobotDevice) -> None:
    node = device.node
    device.info.update(channel=int(node.get("channel")), range=float(node.get("range")),
                       max_range=float(node.get("maxRange")),
                       buffer_size=int(node.get("bufferSize")),
                       allowed_channels=[int(c) for c in node.get("allowedChannels")])
    ctx.radio.add_emitter(device, ctx.robot_name)


def _receiver(ctx: DeviceContext, device: RobotDevice) -> None:
    node = device.node
    device.info.update(channel=int(node.get("channel")),
                       allowed_channels=[int(c) for c in node.get("allowedChannels")])
    ctx.radio.add_receiver(device, ctx.robot_name)


class LEDState:
    """The value an LED was last set to (shown by the app)."""

    def __init__(self) -> None:
        self.value = 0

    def set(self, value: int) -> None:
        self.value = int(value)


def _led(ctx: DeviceContext, device: RobotDevice) -> None:
    state = LEDState()
    device.handlers["set"] = state.set
    device.state = state


def _camera(ctx: DeviceContext, device: RobotDevice) -> None:
    node = device.node
    device.info.update(width=int(node.get("width")), height=int(node.get("height")),
                       fov=float(node.get("fieldOfView")), near=float(node.get("near")),
                       far=float(node.get("far")))
    device.sampler = CameraSampler(device, ctx.robot_name)


#: Device node type -> what builds its description, sampler and commands.
DEVICE_KINDS: dict[str, DeviceBuilder] = {
    "Accelerometer": _vector_sensor, "Brake": attach_joint_device, "Camera": _camera,
    "Compass": _vector_sensor, "DistanceSensor": _distance_sensor, "Emitter": _emitter,
    "GPS": _gps, "Gyro": _vector_sensor, "InertialUnit": _inertial_unit, "LED": _led,
    "LinearMotor": attach_motor, "PositionSensor": attach_joint_device, "Receiver": _receiver,
    "RotationalMotor": attach_motor, "TouchSensor": _touch_sensor,
}


def _device_nodes(node: Node, out: list[Node], top: bool = True) -> None:
    """Device nodes under ``node`` in declaration order, not entering nested Robots."""
    if node.is_use or node.is_opaque:
        return
    if not top and node.type_name in DEVICE_KINDS:
        out.append(node)
    if not top and node.is_a("Robot"):
        return
    for _name, _index, child in node.child_nodes():
        _device_nodes(child, out, top=False)


def robot_devices(ctx_for: Callable[[int], DeviceContext], robot: Node) -> list[RobotDevice]:
    """The devices of ``robot``, tags 0..n-1 in declaration order; ``ctx_for(tag)``
    gives each one's build context."""
    nodes: list[Node] = []
    _device_nodes(robot, nodes)
    devices = []
    for tag, node in enumerate(nodes):
        name = str(node.get("name"))
        device = RobotDevice(tag, node, name, node.type_name,
                             {"tag": tag, "name": name, "type": node.type_name,
                              "model": str(node.get("model"))
                              if "model" in node.field_names() else ""})
        ctx = ctx_for(tag)
        try:
            DEVICE_KINDS[node.type_name](ctx, device)
        except ValueError as exc:  # e.g. a device the simulation did not build
            ctx.warn(f'{node.type_name} "{name}" measures nothing: {exc}')
        devices.append(device)
    _link_joint_siblings(devices)
    return devices


def _link_joint_siblings(devices: list[RobotDevice]) -> None:
    """A motor, position sensor and brake in the same device field know each
    other's names (``getPositionSensor``, ``getMotor``, ``getBrake``)."""
    keys = {"RotationalMotor": "motor", "LinearMotor": "motor",
            "PositionSensor": "position_sensor", "Brake": "brake"}
    groups: dict[tuple[int, str | None], list[RobotDevice]] = {}
    for device in devices:
        if device.type_name in keys and device.node.parent is not None:
            groups.setdefault((id(device.node.parent), device.node.parent_field),
                              []).append(device)
    for group in groups.values():
        for device in group:
            for other in group:
                if other is not device:
                    device.info[keys[other.type_name]] = other.name


def missing_value(device: RobotDevice):
    """NaN, or a list of NaN for a multi-component device."""
    components = device.info.get("components", 0)
    return [math.nan] * components if components else math.nan
