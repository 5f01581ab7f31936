"""Webots' motor control law, as pure functions on scalars (docs/motors.md).

Every basic step (``ts`` = basicTimeStep in s) a position- or
velocity-controlled motor turns its command into the velocity ``Vc`` the
joint motor is asked to reach with at most the available torque:

- position control (finite target ``Pt``): ``e = Pt - Pc`` with ``Pc`` the
  joint position of the previous step; ``I += e ts``; ``D = (e - e_prev) /
  ts``; ``out = P e + Ki I + Kd D``; the velocity wanted is ``out`` when
  ``|out| < |Vt|`` and ``sign(out) |Vt|`` otherwise (``Vt`` the target
  velocity, rad/s or m/s);
- velocity control (``Pt`` infinite): the velocity wanted is ``Vt`` itself;
- acceleration ``A`` (rad/s² or m/s², -1 = unlimited): ``Vc`` moves towards
  the wanted velocity by at most ``A ts`` per step.

Units: positions rad (rotational) or m (linear), velocities per second. Only
Python float arithmetic (no numpy): the results are the same bits on every
CPU.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

#: the acceleration field value meaning "no acceleration limit"
UNLIMITED_ACCELERATION = -1.0


@dataclass(frozen=True)
class ControlPID:
    """The gains of Webots' ``controlPID`` field: ``p`` (1/s: velocity per unit of
    position error), ``i`` (1/s²), ``d`` (dimensionless)."""

    p: float = 10.0
    i: float = 0.0
    d: float = 0.0


@dataclass
class PIDState:
    """What the position PID keeps between steps: the error integral (rad·s or
    m·s) and the previous error (rad or m)."""

    integral: float = 0.0
    previous_error: float = 0.0


def position_control_velocity(target: float, current: float, speed_limit: float,
                              gains: ControlPID, state: PIDState, ts: float) -> float:
    """The velocity the PID asks for (rad/s or m/s) to bring ``current`` to
    ``target`` (rad or m), saturated at ``|speed_limit|``; updates ``state``."""
    error = target - current
    state.integral += error * ts
    derivative = (error - state.previous_error) / ts
    state.previous_error = error
    out = gains.p * error + gains.i * state.integral + gains.d * derivative
    limit = abs(speed_limit)
    if abs(out) < limit:
        return out
    return limit if out > 0.0 else -limit


def limit_acceleration(wanted: float, current: float, acceleration: float,
                       ts: float) -> float:
    """The next motor velocity: ``wanted`` when ``acceleration`` is -1, else
    ``current`` moved towards ``wanted`` by at most ``acceleration * ts``."""
    if acceleration == UNLIMITED_ACCELERATION:
        return wanted
    step = acceleration * ts
    gap = wanted - current
    if abs(gap) <= step:
        return wanted
    return current + step if gap > 0.0 else current - step


def normalize_near(angle: float, reference: float) -> float:
    """``angle + 2πk`` (rad) closest to ``reference``: in (reference - π,
    reference + π]."""
    return angle + math.tau * math.floor((reference - angle + math.pi) / math.tau)


def discretize(value: float, resolution: float) -> float:
    """``value`` rounded to the nearest multiple of ``resolution`` (> 0);
    a resolution of -1 (Webots' "infinite") leaves it unchanged."""
    if resolution <= 0.0:
        return value
    return resolution * math.floor(value / resolution + 0.5)
