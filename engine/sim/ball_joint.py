"""BallJoint -> an ODE ball joint plus Euler-mode angular motors (as Webots).

Webots (`WbBallJoint`) joins the endPoint to its parent with a ball joint at
the anchor and an AMotor in Euler mode (the "control motor") on three axes:

- axis 1 = ``jointParameters2.axis`` (NULL: (1, 0, 0), or derived from axis 3),
  fixed in the parent; axis 3 = ``jointParameters3.axis`` (NULL: (0, 0, 1), or
  derived from axis 1), fixed in the endPoint; axis 2 = axis 3 x axis 1.
  Aligned axes: x and z instead (warning). Axes are in the joint's frame.
- The endPoint's rotation relative to its initial pose is
  ``R(axis1, p1) R(axis2, p2) R(axis3, p3)`` with ``p_k`` the Webots positions
  minus the ``position`` fields (the parameters of axis 1 are those of
  ``jointParameters``, a BallJointParameters, of axes 2 and 3 those of
  ``jointParameters2`` and ``jointParameters3``).
- Stops (minStop < maxStop) are the control motor's stops; staticFriction is
  its motor at velocity 0 with ``dParamFMax`` = the value.
- springConstant / dampingConstant: a second Euler AMotor whose three axes are
  stops with lo = hi at position 0 and stop ERP/CFM from ``h k / (h k + c)``,
  ``1 / (h k + c)``. Webots' "homogeneous case": without a jointParameters2
  (3) node, axis 2 (3) takes the spring and damping of ``jointParameters``
  (Webots' docs add staticFriction; its code does not, nor do we). An axis
  whose k and c are both 0 gets no stop in that motor (our choice).
- Axes are turned into world coordinates with the joint's frame for both
  motors (Webots' control motor takes them untransformed).

Attachment. Two bodies: the motors are attached ``(parent, endPoint)``, axis 0
rel 1 = axis 1, axis 2 rel 2 = axis 3; ODE's Euler angle ``k`` is minus
the Webots position ``k`` (ODE's sign). To the static world Webots attaches
``(NULL, endPoint)``, which ODE handles wrongly in Euler mode (stops push the
wrong way: docs/webots-behaviour.md, "BallJoint"). We attach ``(endPoint, NULL)``
instead and mirror the conventions: the motor then measures the world's
rotation relative to the endPoint, ``R^T = R(axis3, -p3) R(-axis2, p2)
R(axis1, -p1)``, so ODE axis 0 is Webots axis 3 (rel 1: the endPoint), ODE
axis 2 is Webots axis 1 (rel 2: the world), and the ODE angles are
``(p3, -p2, p1)``. `BallJointRecord` keeps the axis map and the signs.

Positions (`BallJointRecord.position`) are read as Webots does, from the
control motor's Euler angles, which ODE computes at the start of a step:
after a step they describe the pose before that step. They lie in
[-pi, pi] (+ ``position``), no multi-turn counting.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

from engine import ode
from engine.ode.kernels.detlinalg import norm
from engine.sim.joint_params import AxisParams, JointRecord, spring_erp_cfm
from engine.sim.poses import Frame

_SUFFIX = ("", "2", "3")
# (ODE axis of each Webots axis, ODE angle = sign * (Webots position - position0))
_TWO_BODIES = ((0, 1, 2), (-1.0, -1.0, -1.0))
_TO_STATIC = ((2, 1, 0), (1.0, -1.0, 1.0))


@dataclass
class BallJointRecord(JointRecord):
    """A BallJoint: the ball joint, its control motor and spring motor."""

    motor: object = None
    spring_motor: object = None
    ode_axis: tuple = (0, 1, 2)
    signs: tuple = (-1.0, -1.0, -1.0)
    axes: list = field(default_factory=list)   # Webots axes 1..3, world, at build time

    def position(self, axis: int = 0) -> float:
        """Webots position of ``axis`` (0, 1, 2) in rad: ``position`` field + the
        Euler angle of the control motor (as computed at the last step start)."""
        angle = ode.dJointGetAMotorAngle(self.motor, self.ode_axis[axis])
        return self.params[axis].position + self.signs[axis] * float(angle)


def ball_axes(p2, p3, label: str, warn) -> tuple[np.ndarray, np.ndarray]:
    """Webots' axis 1 and axis 3 (joint frame) from jointParameters2/3."""
    x, z = np.array([1.0, 0.0, 0.0]), np.array([0.0, 0.0, 1.0])
    v2 = None if p2 is None else np.asarray(p2.get("axis"), dtype=float)
    v3 = None if p3 is None else np.asarray(p3.get("axis"), dtype=float)
    if v2 is not None:
        a1 = v2
    elif v3 is None:
        a1 = x
    else:
        a1 = np.cross(v3, z) if np.any(np.cross(v3, z)) else np.cross(v3, x)
    if v3 is not None:
        a3 = v3
    elif v2 is None:
        a3 = z
    else:
        a3 = np.cross(v2, x) if np.any(np.cross(v2, x)) else np.cross(v2, z)
    if not np.any(np.cross(a1, a3)):
        warn(f"{label}: BallJoint axes are aligned; using x and z axes instead")
        a1, a3 = x, z
    return a1, a3


def _param(axis: int, name: str) -> int:
    return getattr(ode, f"dParam{name}{_SUFFIX[axis]}")


def _euler_motor(world, parent_body, child_body, a1: np.ndarray, a3: np.ndarray):
    """An Euler AMotor on (a1 fixed in the parent, a3 fixed in the endPoint),
    attached so that ODE's Euler mode works (module docstring)."""
    j = ode.dJointCreateAMotor(world, None)
    if parent_body is not None:
        ode.dJointAttach(j, parent_body, child_body)
        first, last = a1, a3
    else:
        ode.dJointAttach(j, child_body, None)
        first, last = a3, a1
    ode.dJointSetAMotorMode(j, ode.dAMotorEuler)
    ode.dJointSetAMotorAxis(j, 0, 1, *first)
    ode.dJointSetAMotorAxis(j, 2, 2, *last)
    return j


def _clamped(lo: float, hi: float, label: str, warn, what: str) -> tuple[float, float]:
    if lo < -math.pi or hi > math.pi:
        warn(f"{label}: BallJoint {what} beyond [-pi, pi] from the initial position "
             "is clamped")
    return max(lo, -math.pi), min(hi, math.pi)


def _spring_constants(pnode, p2, p3, params: list[AxisParams]) -> list[tuple[float, float]]:
    """(k, c) per Webots axis, with Webots' homogeneous case."""
    kc = [(p.spring, p.damping) for p in params]
    if pnode is not None:
        for k, node in ((1, p2), (2, p3)):
            if node is None:
                kc[k] = kc[0]
    return kc


def create_ball_joint(world, node, frame: Frame, parent_body, child_body, h: float,
                      label: str, warn) -> BallJointRecord:
    """The ball joint, control motor and (if needed) spring motor of ``node``."""
    pnode = node.get("jointParameters")
    p2, p3 = node.get("jointParameters2"), node.get("jointParameters3")
    j = ode.dJointCreateBall(world, None)
    ode.dJointAttach(j, child_body, parent_body)
    anchor = (0.0, 0.0, 0.0) if pnode is None else pnode.get("anchor")
    ode.dJointSetBallAnchor(j, *frame.apply(anchor))
    a1, a3 = ball_axes(p2, p3, label, warn)
    a1, a3 = frame.rotate(a1), frame.rotate(a3)
    a1, a3 = a1 / norm(a1), a3 / norm(a3)
    a2 = np.cross(a3, a1)
    ode_axis, signs = _TWO_BODIES if parent_body is not None else _TO_STATIC
    params = [AxisParams.of(pnode), AxisParams.of(p2), AxisParams.of(p3)]
    rec = BallJointRecord(node, j, "BallJoint", params, motor=_euler_motor(
        world, parent_body, child_body, a1, a3), ode_axis=ode_axis, signs=signs,
        axes=[a1, a2 / norm(a2), a3])
    for k, p in enumerate(params):
        m = ode_axis[k]
        if p.has_stops:
            lo, hi = _clamped(p.min_stop - p.position, p.max_stop - p.position, label, warn,
                              "stops")
            lo, hi = sorted((signs[k] * lo, signs[k] * hi))
            ode.dJointSetAMotorParam(rec.motor, _param(m, "LoStop"), lo)
            ode.dJointSetAMotorParam(rec.motor, _param(m, "HiStop"), hi)
        if p.static_friction > 0.0:
            ode.dJointSetAMotorParam(rec.motor, _param(m, "Vel"), 0.0)
            ode.dJointSetAMotorParam(rec.motor, _param(m, "FMax"), p.static_friction)
    kc = _spring_constants(pnode, p2, p3, params)
    if any(k < 0.0 or c < 0.0 for k, c in kc):
        warn(f"{label}: negative spring/damping constants are ignored")
        kc = [(0.0, 0.0) if k < 0.0 or c < 0.0 else (k, c) for k, c in kc]
    if any(k > 0.0 or c > 0.0 for k, c in kc):
        rec.spring_motor = _euler_motor(world, parent_body, child_body, a1, a3)
        for k, (spring, damping) in enumerate(kc):
            if spring == 0.0 and damping == 0.0:
                continue
            m = ode_axis[k]
            rest = -params[k].position
            if abs(rest) > math.pi:
                warn(f"{label}: a BallJoint spring rest position beyond pi from the initial "
                     "position is clamped")
                rest = max(-math.pi, min(math.pi, rest))
            rest = signs[k] * rest
            erp, cfm = spring_erp_cfm(spring, damping, h)
            ode.dJointSetAMotorParam(rec.spring_motor, _param(m, "LoStop"), rest)
            ode.dJointSetAMotorParam(rec.spring_motor, _param(m, "HiStop"), rest)
            ode.dJointSetAMotorParam(rec.spring_motor, _param(m, "StopERP"), erp)
            ode.dJointSetAMotorParam(rec.spring_motor, _param(m, "StopCFM"), cfm)
    return rec
