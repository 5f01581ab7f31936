"""`SimRobotController`: Klamp't's robot controller over a robot's motors.

`Simulator.controller(i)` drives the i-th Robot (tree order). Its config is
one value per joint axis (`engine.klampt.world_index`); commands for a
passive axis (no motor in its ``device`` field) are kept as commanded values
but drive nothing. The motors' PID actuators (`engine.contact.actuators`) are
evaluated every sub-step (docs/robust-contacts.md) with the commanded position and
velocity the controller gives them at that time:

* **PID commands** (`setPIDCommand(q, dq)`) hold a target; `setPIDGains`
  changes the gains (the torque limit stays the motor's maxTorque);
* **torque commands** (`setTorque(t)`) apply a torque per axis (clamped to
  the limit); **velocity commands** (`setVelocity(dq, dt)`) move the
  commanded config at rate dq for dt seconds from where it is, then hold;
* **milestones** (`setMilestone(q, dq)`, `addMilestone(q, dq)`,
  `addMilestoneLinear(q)`) queue motions through configs: each segment is a
  cubic (smooth, matching the end velocities) or a line, its duration the
  shortest that keeps every motorised axis within its motor's maxVelocity
  (`remainingTime()` tells what is left).

Positions are Webots positions (rad or m); the actuators work in ODE's
coordinates (0 = the initial position), the conversion is here. A revolute
axis without stops (free to turn) reads its angle wrapped into (−π, π]
(`RobotJoints.positions`); its commands may be any angle, reached the short
way round.
"""

from __future__ import annotations

import math
from typing import NamedTuple

from engine.contact.actuators import PIDGains
from engine.klampt.robot_joints import RobotJoints

#: Shortest milestone segment [s] (a segment that does not move takes this).
MIN_SEGMENT = 1e-3
#: Peak speed of a smooth cubic segment, in units of its mean speed.
_CUBIC_PEAK = 1.5


class Segment(NamedTuple):
    """One queued motion: from ``q0`` (with ``dq0``) at ``start`` [s, simulation
    time] to ``q1`` (with ``dq1``) at ``start + duration``; ``linear`` moves
    at constant rate."""

    start: float
    duration: float
    q0: tuple
    dq0: tuple
    q1: tuple
    dq1: tuple
    linear: bool

    def at(self, t: float) -> tuple[list[float], list[float]]:
        """(q, dq) at simulation time t (clamped to the segment)."""
        T = self.duration
        s = min(max((t - self.start) / T, 0.0), 1.0)
        if self.linear:
            q = [a + s * (b - a) for a, b in zip(self.q0, self.q1, strict=True)]
            dq = [(b - a) / T if s < 1.0 else 0.0 for a, b in zip(self.q0, self.q1, strict=True)]
            return q, dq
        # cubic Hermite on [0, 1] with end slopes dq0·T, dq1·T (products, not pow:
        # the same bits on every machine)
        s2 = s * s
        s3 = s2 * s
        h00 = 2 * s3 - 3 * s2 + 1
        h10 = s3 - 2 * s2 + s
        h01 = -2 * s3 + 3 * s2
        h11 = s3 - s2
        d00 = 6 * s2 - 6 * s
        d10 = 3 * s2 - 4 * s + 1
        d01 = -6 * s2 + 6 * s
        d11 = 3 * s2 - 2 * s
        q = [h00 * a + h10 * T * va + h01 * b + h11 * T * vb
             for a, va, b, vb in zip(self.q0, self.dq0, self.q1, self.dq1, strict=True)]
        dq = [(d00 * a + d10 * T * va + d01 * b + d11 * T * vb) / T
              for a, va, b, vb in zip(self.q0, self.dq0, self.q1, self.dq1, strict=True)]
        return q, dq

    @property
    def end(self) -> float:
        return self.start + self.duration


def _vector(name: str, value, n: int) -> list[float]:
    try:
        out = [float(v) for v in value]
    except TypeError:
        raise ValueError(f"{name}: expected a list of {n} numbers, got {value!r}") from None
    if len(out) != n:
        raise ValueError(f"{name}: expected {n} values (one per joint axis), got {len(out)}")
    if not all(math.isfinite(v) for v in out):
        raise ValueError(f"{name}: values must be finite, got {out}")
    return out


class SimRobotController:
    """The controller of one robot (module docstring)."""

    def __init__(self, simulator, index: int, joints: RobotJoints) -> None:
        self._simulator = simulator
        self.index = index
        self.joints = joints
        n = len(joints)
        q = joints.positions()
        self._commanded_q = list(q)
        self._commanded_dq = [0.0] * n
        self._torques = [0.0] * n
        self._mode = "PID"
        self._segments: list[Segment] = []

    # ------------------------------------------------------------ reading
    def getSensedConfig(self) -> list[float]:
        """The robot's joint positions now (rad or m)."""
        return self.joints.positions()

    def getSensedVelocity(self) -> list[float]:
        """The robot's joint rates now (rad/s or m/s)."""
        return self.joints.rates()

    def getCommandedConfig(self) -> list[float]:
        """The position the controller commands now."""
        return list(self._commanded_q)

    def getCommandedVelocity(self) -> list[float]:
        """The velocity the controller commands now."""
        return list(self._commanded_dq)

    def getCommandedTorque(self) -> list[float]:
        """The torques of a torque command (zeros otherwise)."""
        return list(self._torques) if self._mode == "torque" else [0.0] * len(self.joints)

    def getControlType(self) -> str:
        """'PID' (targets, velocity commands, milestones) or 'torque'."""
        return self._mode

    def getPIDGains(self) -> tuple[list[float], list[float], list[float]]:
        """(kP, kI, kD) per axis (zeros for passive axes)."""
        gains = [a.actuator.gains if a.actuator is not None else PIDGains(0.0, 0.0, 0.0)
                 for a in self.joints.axes]
        return [g.kp for g in gains], [g.ki for g in gains], [g.kd for g in gains]

    def remainingTime(self) -> float:
        """Seconds left of the queued milestones (0 when none)."""
        if not self._segments:
            return 0.0
        return max(0.0, self._segments[-1].end - self._simulator.getTime())

    # ------------------------------------------------------------ commands
    def setPIDGains(self, kP, kI, kD) -> None:
        """New gains per axis (the torque limit stays the motor's)."""
        n = len(self.joints)
        kp, ki, kd = (_vector(f"setPIDGains: {name}", v, n)
                      for name, v in (("kP", kP), ("kI", kI), ("kD", kD)))
        for a, p, i, d in zip(self.joints.axes, kp, ki, kd, strict=True):
            if a.actuator is not None:
                a.actuator.gains = PIDGains(p, i, d, a.actuator.gains.torque_limit)

    def setPIDCommand(self, q, dq=None) -> None:
        """Hold position ``q`` with velocity ``dq`` (zeros by default); drops milestones."""
        n = len(self.joints)
        target = _vector("setPIDCommand: q", q, n)
        rate = [0.0] * n if dq is None else _vector("setPIDCommand: dq", dq, n)
        self._segments = []
        self._mode = "PID"
        self._commanded_q, self._commanded_dq = target, rate
        self._send()

    def setTorque(self, t) -> None:
        """Apply torque ``t[k]`` on each motorised axis (N·m or N), clamped to its limit."""
        self._torques = _vector("setTorque: t", t, len(self.joints))
        self._segments = []
        self._mode = "torque"
        self._send()

    def setVelocity(self, dq, dt: float) -> None:
        """Move the commanded config at rate ``dq`` for ``dt`` seconds, then hold."""
        rate = _vector("setVelocity: dq", dq, len(self.joints))
        dt = float(dt)
        if not (dt > 0.0 and math.isfinite(dt)):
            raise ValueError(f"setVelocity: dt must be a positive number of seconds, got {dt!r}")
        q0 = tuple(self._commanded_q)
        q1 = tuple(a + v * dt for a, v in zip(q0, rate, strict=True))
        self._mode = "PID"
        self._segments = [Segment(self._simulator.getTime(), dt, q0, tuple(rate), q1,
                                  tuple(rate), True)]
        self._send()

    def setMilestone(self, q, dq=None) -> None:
        """Drop the queue and move smoothly from the commanded config to ``q``."""
        self._mode = "PID"
        self._segments = []
        self._append("setMilestone", q, dq, linear=False)

    def addMilestone(self, q, dq=None) -> None:
        """Queue a smooth motion to ``q`` (arriving with velocity ``dq``, zeros by default)."""
        self._mode = "PID"
        self._append("addMilestone", q, dq, linear=False)

    def addMilestoneLinear(self, q) -> None:
        """Queue a straight-line motion to ``q``."""
        self._mode = "PID"
        self._append("addMilestoneLinear", q, None, linear=True)

    def _append(self, what: str, q, dq, linear: bool) -> None:
        n = len(self.joints)
        q1 = tuple(_vector(f"{what}: q", q, n))
        dq1 = tuple([0.0] * n if dq is None else _vector(f"{what}: dq", dq, n))
        now = self._simulator.getTime()
        if self._segments and self._segments[-1].end > now:
            last = self._segments[-1]
            start, q0, dq0 = last.end, last.q1, last.dq1
        else:
            start, q0, dq0 = now, tuple(self._commanded_q), tuple(self._commanded_dq)
        self._segments.append(Segment(start, self._duration(q0, q1, linear), q0,
                                      (0.0,) * n if linear else dq0, q1,
                                      (0.0,) * n if linear else dq1, linear))

    def _duration(self, q0: tuple, q1: tuple, linear: bool) -> float:
        """The shortest segment keeping each motorised axis within maxVelocity."""
        peak = 1.0 if linear else _CUBIC_PEAK
        longest = MIN_SEGMENT
        for a, x0, x1 in zip(self.joints.axes, q0, q1, strict=True):
            if a.actuator is not None and math.isfinite(a.max_velocity) and a.max_velocity > 0:
                longest = max(longest, peak * abs(x1 - x0) / a.max_velocity)
        return longest

    # ------------------------------------------------------------ stepping
    def update(self, t: float) -> None:
        """Before a sub-step at simulation time ``t`` [s]: the commanded config of
        the queued motion at t goes to the actuators."""
        if self._segments:
            while len(self._segments) > 1 and self._segments[0].end <= t:
                self._segments.pop(0)
            seg = self._segments[0]
            self._commanded_q, self._commanded_dq = seg.at(t)
            if seg.end <= t:
                self._commanded_dq = [0.0] * len(self.joints)
                self._segments = []
            self._send()

    def _send(self) -> None:
        for k, a in enumerate(self.joints.axes):
            if a.actuator is None:
                continue
            if self._mode == "torque":
                a.actuator.set_torque(self._torques[k])
            else:
                a.actuator.set_target(self._commanded_q[k] - a.position0,
                                      self._commanded_dq[k])

    # ------------------------------------------------------------ state
    def state_record(self) -> dict:
        """The controller's changing state (for `Simulator.getState`)."""
        return {"q": list(self._commanded_q), "dq": list(self._commanded_dq),
                "torques": list(self._torques), "mode": self._mode,
                "gains": [list(g) for g in self.getPIDGains()],
                "segments": [[s.start, s.duration, list(s.q0), list(s.dq0), list(s.q1),
                              list(s.dq1), s.linear] for s in self._segments]}

    def check_record(self, record: dict) -> None:
        """Raise ValueError if ``record`` does not fit this controller."""
        n = len(self.joints)
        for key in ("q", "dq", "torques"):
            if len(record[key]) != n:
                raise ValueError(f"controller {self.index}: {key} has {len(record[key])} "
                                 f"values for {n} axes")
        if record["mode"] not in ("PID", "torque"):
            raise ValueError(f"controller {self.index}: unknown mode {record['mode']!r}")

    def restore_record(self, record: dict) -> None:
        """Back to a `state_record` (checked first by `check_record`)."""
        self._commanded_q = [float(v) for v in record["q"]]
        self._commanded_dq = [float(v) for v in record["dq"]]
        self._torques = [float(v) for v in record["torques"]]
        self._mode = record["mode"]
        kp, ki, kd = record["gains"]
        for a, p, i, d in zip(self.joints.axes, kp, ki, kd, strict=True):
            if a.actuator is not None:
                a.actuator.gains = PIDGains(p, i, d, a.actuator.gains.torque_limit)
        self._segments = [Segment(float(s[0]), float(s[1]), tuple(s[2]), tuple(s[3]),
                                  tuple(s[4]), tuple(s[5]), bool(s[6]))
                          for s in record["segments"]]

