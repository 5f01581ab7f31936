"""A robot's config axes on the ODE side: positions, rates, actuators, kinematic moves.

`RobotJoints` joins a robot's config axes (`engine.klampt.world_index`) to
what the simulation built for them: the joint record, the `JointAxis`, the
initial position (Webots position = initial + ODE's), the motor's PID
actuator (None for an axis without a RotationalMotor / LinearMotor: a
passive axis) and the bodies that move with the axis (its endPoint and
everything below it). `set_config` and `set_rates` move those bodies
kinematically so that the axes read the values asked for (fakeSimulate,
initial joint rates): a revolute axis turns its bodies about the joint's
anchor and world axis, a slider slides them along its axis, parents first.
"""

from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np

from engine import ode
from engine.contact.actuators import PIDActuator, shortest_angle
from engine.contact.joint_axes import JointAxis
from engine.klampt.world_index import RobotRef, endpoint_of
from engine.ode.kernels.detlinalg import matmul
from engine.sim.robust_actuators import DEVICE_FIELDS, axes_of, motor_of


class AxisPivot(NamedTuple):
    """Where an axis turns or slides, in world coordinates: ``anchor (3,)`` m,
    unit ``direction (3,)`` and whether it is ``revolute``."""

    anchor: np.ndarray
    direction: np.ndarray
    revolute: bool


def _hinge(j) -> AxisPivot:
    return AxisPivot(np.asarray(ode.dJointGetHingeAnchor(j)), np.asarray(ode.dJointGetHingeAxis(j)),
                     True)


def _slider(j) -> AxisPivot:
    return AxisPivot(np.zeros(3), np.asarray(ode.dJointGetSliderAxis(j)), False)


def _hinge2_first(j) -> AxisPivot:
    return AxisPivot(np.asarray(ode.dJointGetHinge2Anchor(j)),
                     np.asarray(ode.dJointGetHinge2Axis1(j)), True)


def _hinge2_second(j) -> AxisPivot:
    return AxisPivot(np.asarray(ode.dJointGetHinge2Anchor(j)),
                     np.asarray(ode.dJointGetHinge2Axis2(j)), True)


#: (joint kind, axis) -> the pivot of that axis now. BallJoint axes have none:
#: a ball's three angles do not turn about fixed axes one after the other.
PIVOTS = {("HingeJoint", 0): _hinge, ("SliderJoint", 0): _slider,
          ("Hinge2Joint", 0): _hinge2_first, ("Hinge2Joint", 1): _hinge2_second}


class RobotAxis(NamedTuple):
    """One config entry: ``record`` (engine.sim JointRecord), ``index`` (axis in
    the joint), ``axis`` (JointAxis), ``position0`` (the initial Webots
    position; ODE's position counts from it), ``actuator`` (the motor's PID
    actuator, or None: passive), ``max_velocity`` (the motor's, inf without),
    ``bodies`` (the bodies the axis moves)."""

    record: object
    index: int
    axis: JointAxis
    position0: float
    actuator: PIDActuator | None
    max_velocity: float
    bodies: tuple


def _moved_bodies(model, joint_node) -> tuple:
    """The distinct bodies of the endPoint Solid of ``joint_node`` and every Solid below it."""
    end = endpoint_of(joint_node)
    if end is None:
        return ()
    top = model.record_of(end)
    out: list = []
    for rec in model.solids:
        r = rec
        while r is not None and r is not top:
            r = r.parent
        body = rec.ode_body
        if r is top and body is not None and all(body is not b for b in out):
            out.append(body)
    return tuple(out)


class RobotJoints:
    """The config axes of one robot in a running simulation (module docstring)."""

    def __init__(self, sim, robot: RobotRef) -> None:
        model = sim.model
        self.node = robot.node
        records = {id(rec.node): rec for rec in model.joints}
        motors = sim.robust.actuators if sim.robust is not None else None
        axes: list[RobotAxis] = []
        for ref in robot.axes:
            rec = records.get(id(ref.joint))
            if rec is None:
                raise ValueError(f"Simulator: {ref.joint.label()} has no ODE joint (is its "
                                 f"endPoint a Solid with physics?)")
            joint_axes = axes_of(rec, model.ode_world)
            fields = DEVICE_FIELDS.get(rec.kind, ())
            motor = motor_of(rec.node, fields[ref.axis]) if ref.axis < len(fields) else None
            motor_actuator = motors.motor(motor) if motor is not None and motors else None
            axes.append(RobotAxis(
                rec, ref.axis, joint_axes[ref.axis],
                rec.params[ref.axis].position if ref.axis < len(rec.params) else 0.0,
                motor_actuator.actuator if motor_actuator is not None else None,
                motor_actuator.max_velocity if motor_actuator is not None else math.inf,
                _moved_bodies(model, rec.node)))
        self.axes = tuple(axes)

    def __len__(self) -> int:
        return len(self.axes)

    def positions(self) -> list[float]:
        """Sensed config: each axis' Webots position (rad or m). A revolute axis
        without stops turns freely and ODE counts its angle from the start in
        (−π, π], which would jump by 2π half a turn away from the start: its
        position is read wrapped into (−π, π] instead, the angle convention of
        the PID's error (`engine.contact.actuators.shortest_angle`)."""
        out = []
        for a in self.axes:
            if a.record.kind == "BallJoint":
                out.append(a.record.position(a.index))
            elif a.axis.revolute and not a.axis.has_stops():
                out.append(shortest_angle(a.position0 + a.axis.position()))
            else:
                out.append(a.position0 + a.axis.position())
        return out

    def rates(self) -> list[float]:
        """Sensed velocity: each axis' rate (rad/s or m/s)."""
        return [a.axis.rate() for a in self.axes]

    def _pivot(self, a: RobotAxis, what: str) -> AxisPivot:
        get = PIVOTS.get((a.record.kind, a.index))
        if get is None:
            raise ValueError(f"{what}: {a.record.node.label()} axis {a.index + 1} cannot be "
                             f"moved kinematically (BallJoint)")
        return get(a.record.joint)

    def set_config(self, q: list[float], what: str) -> None:
        """Move the robot's bodies so that axis k reads ``q[k]`` (parents first)."""
        for a, target in zip(self.axes, q, strict=True):
            delta = float(target) - (a.position0 + a.axis.position())
            if delta != 0.0:
                _move(a.bodies, self._pivot(a, what), delta)

    def set_rates(self, dq: list[float], what: str) -> None:
        """Change the bodies' velocities so that axis k's rate is ``dq[k]``."""
        for a, target in zip(self.axes, dq, strict=True):
            delta = float(target) - a.axis.rate()
            if delta != 0.0:
                _spin(a.bodies, self._pivot(a, what), delta)


def _move(bodies: tuple, pivot: AxisPivot, delta: float) -> None:
    """Turn ``bodies`` by ``delta`` rad about the pivot (or slide them ``delta`` m)."""
    u = pivot.direction
    if not pivot.revolute:
        for b in bodies:
            p = np.asarray(ode.dBodyGetPosition(b)) + delta * u
            ode.dBodySetPosition(b, *p.tolist())
        return
    turn = np.asarray(ode.dRFromAxisAndAngle(u[0], u[1], u[2], delta)).reshape(3, 4)[:, :3]
    for b in bodies:
        R = np.asarray(ode.dBodyGetRotation(b)).reshape(3, 4)[:, :3]
        p = np.asarray(ode.dBodyGetPosition(b))
        ode.dBodySetPosition(b, *(np.asarray(matmul(turn, p - pivot.anchor)) + pivot.anchor)
                             .tolist())
        ode.dBodySetRotation(b, np.asarray(matmul(turn, R)))


def _spin(bodies: tuple, pivot: AxisPivot, rate: float) -> None:
    """Add the rigid motion of turning at ``rate`` rad/s about the pivot (or
    sliding at ``rate`` m/s) to the velocities of ``bodies``."""
    u = pivot.direction
    for b in bodies:
        v = np.asarray(ode.dBodyGetLinearVel(b), dtype=float)
        if pivot.revolute:
            w = np.asarray(ode.dBodyGetAngularVel(b), dtype=float) + rate * u
            arm = np.asarray(ode.dBodyGetPosition(b)) - pivot.anchor
            v = v + rate * np.cross(u, arm)
            ode.dBodySetAngularVel(b, *w.tolist())
        else:
            v = v + rate * u
        ode.dBodySetLinearVel(b, *v.tolist())
