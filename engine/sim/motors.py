"""RotationalMotor / LinearMotor run as Webots runs them (docs/motors.md).

`MotorSet(sim)` finds, for every simulated joint (HingeJoint, SliderJoint,
Hinge2Joint, BallJoint; `engine.sim.robust_actuators.DEVICE_FIELDS`), the
devices of each axis and keeps:

* an `AxisPosition` per axis with a device: the Webots joint position (rad or
  m) after each step, read as Webots does (near the previous value under
  position control, integrated from the rate otherwise, so never wrapped);
* a `MotorDrive` per motor node: Webots' motor state and setters (warnings
  through ``warn``), the control law (`engine.sim.motor_law`) run every step
  in `MotorDrive.pre_step`, writing the ODE joint motor (``dParamVel``,
  ``dParamFMax``) or adding the torque of torque control;
* a `Brake` per Brake node (`engine.sim.joint_devices`).

Signs: Odeon attaches hinge and slider joints so that ODE's angle grows with
the Webots position (engine/sim/joints.py); a BallJoint axis may count the
other way round (``BallJointRecord.signs``). Webots position = ``position``
field + sign * ODE position; ODE velocities and efforts are sign * Webots'.

Under the robust contact model (``sim.robust`` not None) Klamp't's PID
actuators drive the motors (`engine.sim.robust_actuators`): a drive then writes
no ODE motor parameter; a command it receives is forwarded to its actuator
instead (position -> PID target, velocity -> locked velocity, torque ->
torque; gains and available torque -> the actuator's gains). Motors nobody
commands keep the robust model's own behaviour.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

from engine import ode
from engine.contact.actuators import PIDGains
from engine.contact.joint_axes import JointAxis
from engine.sim.joint_devices import FEEDBACK_KINDS, Brake, axis_feedback
from engine.sim.joint_params import JointRecord
from engine.sim.motor_law import (
    UNLIMITED_ACCELERATION,
    ControlPID,
    PIDState,
    limit_acceleration,
    normalize_near,
    position_control_velocity,
)
from engine.sim.robust_actuators import DEVICE_FIELDS, MOTOR_TYPES, axes_of, motor_of

Warn = Callable[[str], None]

#: motor node type -> (its torque/force limit field, the noun Webots' messages use)
LIMIT_FIELDS = {"RotationalMotor": ("maxTorque", "torque"), "LinearMotor": ("maxForce", "force")}


def _num(x: float) -> str:
    """A number as Webots' messages print it (shortest %g form)."""
    return format(x, "g")


@dataclass
class AxisPosition:
    """The Webots position of one joint axis.

    axis: the ODE axis (`engine.contact.joint_axes.JointAxis`); sign: ODE
    position = sign * (Webots position - initial); initial: the joint's
    ``position`` field at load (rad or m); position: the current Webots
    position (rad or m), updated by `update` after every step.
    """

    axis: JointAxis
    sign: float
    initial: float
    position: float

    @property
    def revolute(self) -> bool:
        return self.axis.revolute

    def raw(self) -> float:
        """The position from ODE's angle now (rad, within pi of ``initial``; or m)."""
        return self.initial + self.sign * self.axis.position()

    def rate(self) -> float:
        """The Webots velocity now (rad/s or m/s)."""
        return self.sign * self.axis.rate()

    def update(self, dt: float, from_angle: bool) -> None:
        """After a step of ``dt`` s: a slider reads its position; a revolute axis
        reads ODE's angle near the last position when ``from_angle`` (a motor
        under position control), else integrates its rate (R2023b: not wrapped)."""
        if not self.revolute:
            self.position = self.raw()
        elif from_angle:
            self.position = normalize_near(self.raw(), self.position)
        else:
            self.position += self.rate() * dt

    def reset(self) -> None:
        """Back to the loaded position (the joint was put back there)."""
        self.position = self.initial


@dataclass(frozen=True)
class MotorLimits:
    """A motor's fields after Webots' load-time checks: max_velocity (rad/s or
    m/s, >= 0), max_effort (maxTorque N·m / maxForce N, >= 0), min_position,
    max_position (rad or m; equal = no soft limits), multiplier (!= 0)."""

    max_velocity: float
    max_effort: float
    min_position: float
    max_position: float
    multiplier: float

    @property
    def limited(self) -> bool:
        return self.min_position != self.max_position


@dataclass
class DriveState:
    """What a `MotorDrive` changes over time (`MotorDrive.state` / `restore`)."""

    target_position: float
    target_velocity: float
    available: float
    acceleration: float
    gains: ControlPID
    integral: float
    previous_error: float
    current_velocity: float
    torque_mode: bool
    raw_input: float
    position: float


class MotorDrive:
    """One RotationalMotor / LinearMotor on one joint axis (module docstring).

    node: the motor node; joint: its `JointRecord`; axis: the `AxisPosition`
    it drives; static_friction: the axis' JointParameters ``staticFriction``;
    robust: returns the robust model's actuator of the motor, or None under
    the default model; warn: receives Webots' warnings.
    """

    def __init__(self, node, joint: JointRecord, axis: AxisPosition, index: int,
                 static_friction: float, robust: Callable[[], object], warn: Warn) -> None:
        self.node = node
        self.joint = joint
        self.axis = axis
        self.index = index
        self.static_friction = static_friction
        self._robust = robust
        label = f'{node.type_name} "{node.get("name")}"'
        self._warn = lambda text: warn(f"{label}: {text}")
        self.limits = self._read_limits()
        self.coupled: list[MotorDrive] = []
        self._feedback: object = None
        self._own_feedback = False
        self._commanded = False
        self.gains = self._field_pid()
        self.reset()

    # ----------------------------------------------------------- load / reset
    def _read_limits(self) -> MotorLimits:
        """The node's fields with Webots' corrections (and warnings)."""
        node = self.node
        limit_field, _ = LIMIT_FIELDS[node.type_name]
        max_effort = float(node.get(limit_field))
        if max_effort < 0.0:
            self._warn(f"'{limit_field}' must be non-negative; reset to 10.")
            max_effort = 10.0
        max_velocity = float(node.get("maxVelocity"))
        if max_velocity < 0.0:
            self._warn(f"'maxVelocity' must be non-negative; reset to {_num(-max_velocity)}.")
            max_velocity = -max_velocity
        multiplier = float(node.get("multiplier"))
        if multiplier == 0.0:
            self._warn("The value of 'multiplier' cannot be 0. Value reverted to 1.")
            multiplier = 1.0
        lo, hi = float(node.get("minPosition")), float(node.get("maxPosition"))
        p0 = self.axis.initial
        if lo != hi:  # the joint's position must lie inside the soft limits
            if hi < p0:
                self._warn(f"'maxPosition' must be >= the joint position {_num(p0)}; reset.")
                hi = p0
            if lo > p0:
                self._warn(f"'minPosition' must be <= the joint position {_num(p0)}; reset.")
                lo = p0
        return MotorLimits(max_velocity, max_effort, lo, hi, multiplier)

    def _field_acceleration(self) -> float:
        a = float(self.node.get("acceleration"))
        if a < 0.0 and a != UNLIMITED_ACCELERATION:
            self._warn("'acceleration' must be non-negative or -1; reset to -1.")
            return UNLIMITED_ACCELERATION
        return a

    def _field_pid(self) -> ControlPID:
        p, i, d = (float(v) for v in self.node.get("controlPID"))
        self._check_pid(p, i, d)
        return ControlPID(p, i, d)

    def _check_pid(self, p: float, i: float, d: float) -> None:
        if p <= 0.0:
            self._warn(f"'controlP' (currently {_num(p)}) must be positive.")
        if i < 0.0:
            self._warn(f"'controlI' (currently {_num(i)}) must be non-negative.")
        if d < 0.0:
            self._warn(f"'controlD' (currently {_num(d)}) must be non-negative.")

    def reset(self) -> None:
        """Webots' motor reset: target = the joint position, target velocity =
        maxVelocity, acceleration from the field, available torque = maxTorque,
        motor velocity and PID state 0, position control. The gains keep a
        `set_control_pid` (Webots' reset leaves controlPID as edited) except at
        load, where they come from the field."""
        self.target_position = self.axis.position
        self.target_velocity = self.limits.max_velocity
        self.acceleration = self._field_acceleration()
        self.available = self.limits.max_effort
        self.pid = PIDState()
        self.current_velocity = 0.0
        self.torque_mode = False
        self.raw_input = 0.0
        if self._commanded:
            self._forward_reset()
        self._commanded = False

    # ----------------------------------------------------------------- setters
    def set_position(self, position: float) -> None:
        """``setPosition``: a finite target (times the multiplier, clamped to the
        soft limits with Webots' warning) for position control; ±inf switches
        to velocity control. Leaves torque control. NaN raises ValueError (the
        controller library rejects it before it reaches the simulator).
        Coupled motors get the same command."""
        for drive in (self, *self.coupled):
            drive._set_position(position)

    def _set_position(self, position: float) -> None:
        p = float(position)
        if math.isnan(p):
            raise ValueError("set_position: NaN is not a position")
        target = p if math.isinf(p) else p * self.limits.multiplier
        lim = self.limits
        if lim.limited and not math.isinf(p):
            if target > lim.max_position:
                target = lim.max_position
                self._warn(f"too big requested position: {_num(p)} > {_num(lim.max_position)}")
            elif target < lim.min_position:
                target = lim.min_position
                self._warn(f"too low requested position: {_num(p)} < {_num(lim.min_position)}")
        self.target_position = target
        self.torque_mode = False
        self._commanded = True

    def set_velocity(self, velocity: float) -> None:
        """``setVelocity``: the speed limit under position control, the signed
        velocity under velocity control (times the multiplier, clamped to
        ±maxVelocity with Webots' warning); coupled motors get it too."""
        for drive in (self, *self.coupled):
            drive._set_velocity(velocity)

    def _set_velocity(self, velocity: float) -> None:
        v = float(velocity) * self.limits.multiplier
        m = self.limits.max_velocity
        if abs(v) > m:
            self._warn(f"The requested velocity {_num(v)} exceeds 'maxVelocity' = {_num(m)}.")
            v = m if v >= 0.0 else -m
        self.target_velocity = v
        self._commanded = True

    def set_acceleration(self, acceleration: float) -> None:
        """``setAcceleration`` (rad/s² or m/s²; -1 = unlimited; never multiplied)."""
        self.acceleration = float(acceleration)
        self._commanded = True

    def set_available_torque(self, torque: float) -> None:
        """``setAvailableTorque`` (``setAvailableForce`` of a LinearMotor): the most
        effort the motor uses (ODE's FMax), clamped to maxTorque / maxForce with
        Webots' warning."""
        t = float(torque)
        field, noun = LIMIT_FIELDS[self.node.type_name]
        m = self.limits.max_effort
        if t > m:
            if not self.coupled:
                self._warn(f"The requested available motor {noun} {_num(t)} exceeds "
                           f"'{field}' = {_num(m)}")
            t = m
        self.available = t
        self._commanded = True


    def set_torque(self, torque: float) -> None:
        """``setTorque`` (``setForce`` of a LinearMotor): torque control. The joint motor is turned
        off (FMax = staticFriction) and ``torque`` (times the multiplier, |.|
        clamped to the available torque with Webots' warning) is added every
        step; coupled motors get it too."""
        for drive in (self, *self.coupled):
            drive._set_torque(torque)

    def _set_torque(self, torque: float) -> None:
        if not self.torque_mode:
            self._turn_off_motor()
        self.torque_mode = True
        t = float(torque) * self.limits.multiplier
        if abs(t) > self.available:
            if not self.coupled:
                field, noun = LIMIT_FIELDS[self.node.type_name]
                self._warn(f"The requested motor {noun} {_num(t)} exceeds "
                           f"'{field}' = {_num(self.available)}")
            t = self.available if t >= 0.0 else -self.available
        self.raw_input = t
        self._commanded = True


    def set_control_pid(self, p: float, i: float, d: float) -> None:
        """``setControlPID``: new gains; the integral and previous error restart at 0."""
        p, i, d = float(p), float(i), float(d)
        self._check_pid(p, i, d)
        self.gains = ControlPID(p, i, d)
        self.pid = PIDState()
        self._commanded = True

    def _turn_off_motor(self) -> None:
        if self._robust() is None:
            self.axis.axis.set_motor(0.0, self.static_friction)

    # ----------------------------------------------------------------- getters
    @property
    def position(self) -> float:
        """The joint position (rad or m) after the last step."""
        return self.axis.position

    @property
    def rotational(self) -> bool:
        return self.node.type_name == "RotationalMotor"

    @property
    def position_control(self) -> bool:
        """Webots' "PID position control": not torque control, some available
        torque, a finite target."""
        return (not self.torque_mode and self.available != 0.0
                and not math.isinf(self.target_position))

    # -------------------------------------------------------------- stepping
    def motor_velocity(self, dt: float) -> float:
        """Run the control law for a step of ``dt`` s: the velocity (Webots sign,
        rad/s or m/s) the joint motor is to reach (updates the PID state)."""
        if self.available == 0.0:
            self.current_velocity = 0.0
            return 0.0
        wanted = self.target_velocity
        if not math.isinf(self.target_position):
            wanted = position_control_velocity(self.target_position, self.axis.position,
                                               self.target_velocity, self.gains, self.pid, dt)
        self.current_velocity = limit_acceleration(wanted, self.current_velocity,
                                                   self.acceleration, dt)
        return self.current_velocity

    def pre_step(self, dt: float) -> None:
        """Before the world step of ``dt`` s (module docstring)."""
        actuator = self._robust()
        if actuator is not None:
            if self._commanded:
                self._forward(actuator)
            return
        axis = self.axis
        if self.torque_mode:
            axis.axis.add_effort(axis.sign * self.raw_input)
            return
        velocity = self.motor_velocity(dt)
        axis.axis.set_motor(axis.sign * velocity, max(self.static_friction, self.available))

    # ------------------------------------------------------ the robust model
    def _forward(self, motor) -> None:
        """This drive's command to its robust-model actuator (`MotorActuator`)."""
        sign = self.axis.sign
        pid = motor.actuator
        g = self.gains
        pid.gains = PIDGains(max(g.p, 0.0), max(g.i, 0.0), max(g.d, 0.0), self.available)
        if self.torque_mode:
            pid.set_torque(sign * self.raw_input)
        elif math.isinf(self.target_position):
            pid.set_locked_velocity(sign * self.target_velocity)
        else:
            motor.set_target(sign * (self.target_position - self.axis.initial), 0.0)

    def _forward_reset(self) -> None:
        """A commanded robust actuator back to holding the loaded position."""
        motor = self._robust()
        if motor is not None:
            motor.actuator.gains = PIDGains(*(max(v, 0.0) for v in (
                self.gains.p, self.gains.i, self.gains.d)), self.limits.max_effort)
            motor.set_target(0.0, 0.0)

    # ------------------------------------------------------- torque feedback
    def enable_torque_feedback(self) -> bool:
        """Ask ODE for the joint's constraint forces (``dJointSetFeedback``; a
        feedback a plugin already set is shared). Webots' conditions: the
        joint's endPoint and parent need Physics; BallJoint motors have none.
        False (and a warning) when not available."""
        kind = self.joint.kind
        fn = ("wb_motor_enable_torque_feedback()" if self.rotational
              else "wb_motor_enable_force_feedback()")
        if kind not in FEEDBACK_KINDS:
            self._warn(f"{fn}: feedback is not available for a {kind}.")
            return False
        joint = self.joint.joint
        if any(ode.dJointGetBody(joint, k) is None for k in (0, 1)):
            self._warn(f"{fn}: cannot be invoked because the parent Solid has no Physics node.")
            return False
        if self._feedback is None:
            existing = ode.dJointGetFeedback(joint)
            if existing is None:
                existing = ode.dJointFeedback()
                ode.dJointSetFeedback(joint, existing)
                self._own_feedback = True
            self._feedback = existing
        return True

    def disable_torque_feedback(self) -> None:
        """Stop the feedback this drive asked for (a plugin's stays)."""
        if self._own_feedback and ode.dJointGetFeedback(self.joint.joint) is self._feedback:
            ode.dJointSetFeedback(self.joint.joint, None)
        self._feedback = None
        self._own_feedback = False

    def torque_feedback(self) -> float:
        """The constraint torque (N·m; force, N, for a LinearMotor) the joint put
        on the axis in the last step, positive along the Webots position
        (motor, stops and friction; not springs nor `set_torque`); NaN when not
        enabled."""
        if self._feedback is None:
            return math.nan
        fb = ode.dJointGetFeedback(self.joint.joint)
        if fb is None:
            return math.nan
        return self.axis.sign * axis_feedback(self.joint, self.index, fb)

    # ------------------------------------------------------------ snapshots
    def state(self) -> DriveState:
        """Everything `pre_step` and the setters change (see `restore`)."""
        return DriveState(self.target_position, self.target_velocity, self.available,
                          self.acceleration, self.gains, self.pid.integral,
                          self.pid.previous_error, self.current_velocity, self.torque_mode,
                          self.raw_input, self.axis.position)

    def restore(self, s: DriveState) -> None:
        """Back to a `state`."""
        self.target_position, self.target_velocity = s.target_position, s.target_velocity
        self.available, self.acceleration, self.gains = s.available, s.acceleration, s.gains
        self.pid = PIDState(s.integral, s.previous_error)
        self.current_velocity, self.torque_mode = s.current_velocity, s.torque_mode
        self.raw_input, self.axis.position = s.raw_input, s.position


def _devices(node, field: str) -> list:
    """The device nodes (USE resolved, opaque ones kept) in a joint's field."""
    if field not in node.field_names():
        return []
    return [d.target if d.is_use else d for d in node.get(field)]


class MotorSet:
    """The motors, brakes and tracked joint axes of a `Simulation` (module docstring).

    warn: receives the motors' warnings (default: the simulation console's).
    """

    def __init__(self, sim, warn: Warn | None = None) -> None:
        self._sim = sim
        warn = warn if warn is not None else sim.console.warn
        model = sim.model
        self.axes: list[AxisPosition] = []
        self.drives: list[MotorDrive] = []
        self.brakes: list[Brake] = []
        self._axis_of: dict[int, AxisPosition] = {}
        self._drive_of: dict[int, MotorDrive] = {}
        self._brake_of: dict[int, Brake] = {}
        robots: dict[int, object] = {}
        for rec in model.joints:
            fields = DEVICE_FIELDS.get(rec.kind, ())
            axes = None
            for k, field in enumerate(fields):
                devices = _devices(rec.node, field)
                if not devices or k >= len(rec.params):
                    continue
                if axes is None:
                    axes = axes_of(rec, model.ode_world)
                signs = getattr(rec, "signs", (1.0, 1.0, 1.0))
                p0 = float(rec.params[k].position)
                state = AxisPosition(axes[k], signs[k], p0, p0)
                self.axes.append(state)
                for device in devices:
                    self._axis_of[id(device)] = state
                motor = motor_of(rec.node, field)
                if motor is not None:
                    drive = MotorDrive(motor, rec, state, k, rec.params[k].static_friction,
                                       self._robust_of(motor), warn)
                    self.drives.append(drive)
                    self._drive_of[id(motor)] = drive
                    robots[id(drive)] = _robot_of(model, rec)
                for device in devices:
                    if not device.is_opaque and device.type_name in MOTOR_TYPES:
                        continue
                    if device.type_name == "Brake":
                        brake = Brake(device, state)
                        self.brakes.append(brake)
                        self._brake_of[id(device)] = brake
        _couple(self.drives, robots, warn)

    def _robust_of(self, motor) -> Callable[[], object]:
        sim = self._sim

        def actuator():
            robust = sim.robust
            return None if robust is None else robust.actuators.motor(motor)
        return actuator

    def drive(self, node) -> MotorDrive | None:
        """The drive of a RotationalMotor / LinearMotor node (None: not in a
        simulated joint)."""
        return self._drive_of.get(id(node.target if node.is_use else node))

    def brake(self, node) -> Brake | None:
        """The `Brake` of a Brake node (None: not in a simulated joint)."""
        return self._brake_of.get(id(node.target if node.is_use else node))

    def axis_of(self, node) -> AxisPosition | None:
        """The joint axis a device node (motor, PositionSensor, Brake) sits on."""
        return self._axis_of.get(id(node.target if node.is_use else node))

    def pre_step(self, dt: float) -> None:
        """Every motor's control law, then every brake, before the step of ``dt`` s."""
        for drive in self.drives:
            drive.pre_step(dt)
        for brake in self.brakes:
            brake.pre_step(dt)

    def post_step(self, dt: float) -> None:
        """The joint positions after the step of ``dt`` s."""
        for drive in self.drives:
            drive.axis.update(dt, drive.position_control)
        driven = {id(d.axis) for d in self.drives}
        for axis in self.axes:
            if id(axis) not in driven:
                axis.update(dt, False)

    def reset(self) -> None:
        """Webots' reset (after the joints are back at their loaded positions):
        positions, motors and brakes."""
        for axis in self.axes:
            axis.reset()
        for drive in self.drives:
            drive.reset()
        for brake in self.brakes:
            brake.reset()

    def state(self) -> tuple:
        """The drives' and brakes' states, to continue bit for bit (`restore`)."""
        return (tuple(d.state() for d in self.drives),
                tuple(a.position for a in self.axes),
                tuple(b.damping_constant for b in self.brakes))

    def restore(self, state: tuple) -> None:
        """Back to a `state` of this set."""
        drives, positions, brakes = state
        for d, s in zip(self.drives, drives, strict=True):
            d.restore(s)
        for a, p in zip(self.axes, positions, strict=True):
            a.position = p
        for b, c in zip(self.brakes, brakes, strict=True):
            b.damping_constant = c


def _robot_of(model, rec: JointRecord):
    """The Robot record above a joint (None outside robots)."""
    end = rec.node.get("endPoint")
    solid = model.record_of(end) if end is not None else None
    return solid.robot if solid is not None else None


def _couple(drives: list[MotorDrive], robots: dict[int, object], warn: Warn) -> None:
    """Webots' coupled motors: names "<group>::<rest>" in the same robot relay
    their position, velocity and torque commands to each other."""
    groups: dict[tuple, list[MotorDrive]] = {}
    for drive in drives:
        chunks = str(drive.node.get("name")).split("::")
        if len(chunks) == 2:
            groups.setdefault((id(robots[id(drive)]), chunks[0]), []).append(drive)
    for members in groups.values():
        if len(members) == 1:
            warn(f"Motor '{members[0].node.get('name')}' uses the coupled motor name structure "
                 "but does not have any siblings.")
        for drive in members:
            drive.coupled = [m for m in members if m is not drive]
