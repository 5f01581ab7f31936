"""PID actuators and stick-slip joint friction on joint axes (Klamp't's model).

A :class:`PIDActuator` drives one :class:`~engine.contact.joint_axes.JointAxis`
in one of four modes:

- ``OFF``: nothing;
- ``TORQUE``: a commanded torque (N·m, or force in N on a slider), clamped
  to ± the torque limit, as Klamp't clamps every actuator torque;
- ``PID``: every sub-step h (s), with θ the axis position and θ̇ its rate,
  ``e = θd − θ``, ``I += e·h``, ``τ = kP·e + kD·(θ̇d − θ̇) + kI·I``. Anti-windup:
  ``kI·I`` is clamped into [−limit, limit] (I is set back accordingly), then
  τ is clamped to ± limit and added on the axis;
- ``LOCKED_VELOCITY``: the axis motor with target velocity v and at most the
  torque limit (ODE's constraint motor: it holds v exactly when the limit
  allows).

Angle wrapping: a revolute axis with no stops turns freely and ODE reports
its angle in (−π, π]; its error ``θd − θ`` is taken as the shortest angle
difference, in (−π, π], so a target is reached the short way round (a
target outside (−π, π] acts as the same angle modulo 2π). Axes with stops
and sliders use the plain difference.

:class:`JointFriction` is Klamp't's stick-slip friction: the axis motor at
velocity 0 with the most torque ``dry + viscous·|θ̇|``, θ̇ being the rate at
the start of the sub-step (what the previous sub-step left), re-evaluated
every sub-step. The motor holds the joint still until the torque needed
exceeds ``dry`` and then resists the motion with ``dry + viscous·|θ̇|``.
An actuator in ``LOCKED_VELOCITY`` mode on the same axis owns the motor:
the friction then leaves it alone (the locked motor already limits the
torque).

:class:`ActuatorSet` applies all actuators, then all frictions, before each
sub-step (ODE clears added torques after every step, so this runs before
every step). Its :meth:`ActuatorSet.state` / :meth:`ActuatorSet.restore` save
and restore everything the actuators change over time (integral terms,
modes and commands, which motors they hold), so a step rolled back and
retried at h/2 replays bit for bit. Friction keeps no state of its own: it
reads the rate from the bodies, which the caller restores.
"""

from __future__ import annotations

import enum
import math
from dataclasses import dataclass
from typing import NamedTuple

from engine.contact.joint_axes import JointAxis

_TWO_PI = 2.0 * math.pi


class ActuatorMode(enum.IntEnum):
    """What a :class:`PIDActuator` does each sub-step."""

    OFF = 0
    TORQUE = 1
    PID = 2
    LOCKED_VELOCITY = 3


def _check(name: str, value: float, allow_inf: bool) -> float:
    """``value`` as a float, >= 0 and not NaN (and finite unless allowed)."""
    v = float(value)
    if math.isnan(v) or v < 0 or (math.isinf(v) and not allow_inf):
        bound = "math.inf" if allow_inf else "finite"
        raise ValueError(f"{name} must be >= 0 ({bound} allowed: {allow_inf}), got {value!r}")
    return v


def _finite(name: str, value: float) -> float:
    v = float(value)
    if not math.isfinite(v):
        raise ValueError(f"{name} must be a finite number, got {value!r}")
    return v


def shortest_angle(difference: float) -> float:
    """``difference`` (rad) wrapped into (−π, π]."""
    return difference - _TWO_PI * math.ceil((difference - math.pi) / _TWO_PI)


def _clamp(value: float, limit: float) -> float:
    return min(max(value, -limit), limit)


@dataclass(frozen=True)
class PIDGains:
    """Gains of a PID actuator on an axis.

    kp: N·m/rad (N/m on a slider); ki: N·m/(rad·s); kd: N·m·s/rad;
    torque_limit: the largest torque magnitude, N·m (N), >= 0, math.inf
    for none.
    """

    kp: float
    ki: float
    kd: float
    torque_limit: float = math.inf

    def __post_init__(self) -> None:
        for name in ("kp", "ki", "kd"):
            object.__setattr__(self, name, _check(f"PIDGains.{name}", getattr(self, name), False))
        object.__setattr__(self, "torque_limit",
                           _check("PIDGains.torque_limit", self.torque_limit, True))


class ActuatorState(NamedTuple):
    """Everything a :class:`PIDActuator` changes over time (for restore)."""

    mode: ActuatorMode
    target_position: float
    target_velocity: float
    torque: float
    locked_velocity: float
    integral: float
    holds_motor: bool


class PIDActuator:
    """An actuator on one joint axis (module docstring); starts ``OFF``.

    axis: the axis it drives; gains: its :class:`PIDGains`.
    """

    def __init__(self, axis: JointAxis, gains: PIDGains) -> None:
        self.axis = axis
        self.gains = gains
        self.mode = ActuatorMode.OFF
        self.target_position = 0.0   # rad or m
        self.target_velocity = 0.0   # rad/s or m/s
        self.torque = 0.0            # N·m or N (TORQUE mode)
        self.locked_velocity = 0.0   # rad/s or m/s (LOCKED_VELOCITY mode)
        self.integral = 0.0          # rad·s or m·s
        self.holds_motor = False     # the axis motor is set by this actuator

    # -- commands -------------------------------------------------------------
    def set_target(self, position: float, velocity: float = 0.0) -> None:
        """PID mode towards ``position`` (rad or m) and ``velocity`` (rad/s
        or m/s). The integral term is kept across target changes; it is
        cleared when the actuator enters PID mode from another mode."""
        if self.mode != ActuatorMode.PID:
            self.integral = 0.0
        self.mode = ActuatorMode.PID
        self.target_position = _finite("set_target: position", position)
        self.target_velocity = _finite("set_target: velocity", velocity)

    def set_torque(self, torque: float) -> None:
        """TORQUE mode: add ``torque`` (N·m, or N; clamped to ± the limit)."""
        self.mode = ActuatorMode.TORQUE
        self.torque = _finite("set_torque: torque", torque)

    def set_locked_velocity(self, velocity: float) -> None:
        """LOCKED_VELOCITY mode: the axis motor at ``velocity`` (rad/s or
        m/s) with at most the torque limit."""
        self.mode = ActuatorMode.LOCKED_VELOCITY
        self.locked_velocity = _finite("set_locked_velocity: velocity", velocity)

    def off(self) -> None:
        """OFF mode: no torque."""
        self.mode = ActuatorMode.OFF

    # -- stepping -------------------------------------------------------------
    def position_error(self) -> float:
        """θd − θ (rad or m), the shortest angle for a free revolute axis."""
        error = self.target_position - self.axis.position()
        if self.axis.revolute and not self.axis.has_stops():
            return shortest_angle(error)
        return error

    def _pid_torque(self, h: float) -> float:
        g = self.gains
        error = self.position_error()
        self.integral += error * h
        if g.ki > 0.0:
            wound = g.ki * self.integral
            if abs(wound) > g.torque_limit:
                self.integral = _clamp(wound, g.torque_limit) / g.ki
        rate_error = self.target_velocity - self.axis.rate()
        return g.kp * error + g.kd * rate_error + g.ki * self.integral

    def apply(self, h: float) -> float:
        """Act for a sub-step of ``h`` s; returns the torque added (N·m or N;
        0 in OFF and LOCKED_VELOCITY modes)."""
        limit = self.gains.torque_limit
        locked = self.mode == ActuatorMode.LOCKED_VELOCITY
        if locked:
            self.axis.set_motor(self.locked_velocity, limit)
            self.holds_motor = True
        elif self.holds_motor:
            self.axis.set_motor(0.0, 0.0)
            self.holds_motor = False
        torque = 0.0
        if self.mode == ActuatorMode.PID:
            torque = _clamp(self._pid_torque(h), limit)
        elif self.mode == ActuatorMode.TORQUE:
            torque = _clamp(self.torque, limit)
        if torque != 0.0:
            self.axis.add_effort(torque)
        return torque

    def state(self) -> ActuatorState:
        """The actuator's changing state (see :meth:`restore`)."""
        return ActuatorState(self.mode, self.target_position, self.target_velocity,
                             self.torque, self.locked_velocity, self.integral,
                             self.holds_motor)

    def restore(self, state: ActuatorState) -> None:
        """Back to a state from :meth:`state`."""
        (self.mode, self.target_position, self.target_velocity, self.torque,
         self.locked_velocity, self.integral, self.holds_motor) = state


class JointFriction:
    """Stick-slip friction on an axis (module docstring).

    axis: the axis; dry: the breaking torque μD (N·m, or N on a slider,
    >= 0); viscous: μV (N·m·s/rad, or N·s/m, >= 0).
    """

    def __init__(self, axis: JointAxis, dry: float, viscous: float = 0.0) -> None:
        self.axis = axis
        self.dry = _check("JointFriction: dry", dry, False)
        self.viscous = _check("JointFriction: viscous", viscous, False)

    def bound(self) -> float:
        """The most friction torque for the coming sub-step: μD + μV·|θ̇|."""
        return self.dry + self.viscous * abs(self.axis.rate())

    def apply(self) -> None:
        """Set the axis motor to velocity 0 with FMax = :meth:`bound`."""
        self.axis.set_motor(0.0, self.bound())


class ActuatorSetState(NamedTuple):
    """The states of an :class:`ActuatorSet`'s actuators, in order."""

    actuators: tuple[ActuatorState, ...]


class ActuatorSet:
    """The actuators and joint frictions of a simulation, applied together."""

    def __init__(self) -> None:
        self.actuators: list[PIDActuator] = []
        self.frictions: list[JointFriction] = []

    def add_actuator(self, actuator: PIDActuator) -> PIDActuator:
        """Add ``actuator`` (one per axis); returns it."""
        if any(a.axis.key == actuator.axis.key for a in self.actuators):
            raise ValueError("ActuatorSet: this axis already has an actuator")
        self.actuators.append(actuator)
        return actuator

    def add_friction(self, friction: JointFriction) -> JointFriction:
        """Add ``friction`` (one per axis); returns it."""
        if any(f.axis.key == friction.axis.key for f in self.frictions):
            raise ValueError("ActuatorSet: this axis already has a friction")
        self.frictions.append(friction)
        return friction

    def apply(self, h: float) -> None:
        """Before a sub-step of ``h`` s: every actuator acts, then every
        friction sets its motor unless a locked-velocity actuator holds it."""
        if not h > 0.0 or math.isinf(h):
            raise ValueError(f"ActuatorSet.apply: h must be a positive finite time (s), got {h!r}")
        locked = set()
        for actuator in self.actuators:
            actuator.apply(h)
            if actuator.mode == ActuatorMode.LOCKED_VELOCITY:
                locked.add(actuator.axis.key)
        for friction in self.frictions:
            if friction.axis.key not in locked:
                friction.apply()

    def state(self) -> ActuatorSetState:
        """Everything :meth:`apply` changes, to replay a step exactly."""
        return ActuatorSetState(tuple(a.state() for a in self.actuators))

    def restore(self, state: ActuatorSetState) -> None:
        """Back to a state from :meth:`state` (same actuators, same order)."""
        if len(state.actuators) != len(self.actuators):
            raise ValueError(f"ActuatorSet.restore: {len(state.actuators)} actuator states for "
                             f"{len(self.actuators)} actuators")
        for actuator, saved in zip(self.actuators, state.actuators, strict=True):
            actuator.restore(saved)
