"""HingeJoint, Hinge2Joint, SliderJoint and BallJoint -> ODE joints.

BallJoint (ball joint + Euler AMotors for its three axes) is built by
`engine.sim.ball_joint`; the rules below are those of the other joints.

Axis and anchor are given in the joint's frame (the closest upper Pose or
Solid) and converted to world coordinates at build time, with the endPoint
already at its initial pose, so ODE's zero position is Webots' initial
``position`` (we keep that offset: Webots position = ``position0`` + ODE's).

Attachment: hinge, slider and ball joints are attached ``(endPoint body,
parent body)`` so ODE's angle/position grow as the endPoint turns/slides
along the axis; a parent without a body attaches to the static world
(``None``). Hinge2 is attached ``(parent, endPoint)`` (ODE's axis 1 is on
body 1: the steering axis of the parent).

Parameters (ODE units: rad or m; N·m/rad or N/m; N·m·s/rad or N·s/m):
- minStop < maxStop: stops at ``minStop - position0`` and ``maxStop -
  position0`` (ODE coordinates); both 0: no stops.
- springConstant k / dampingConstant c without stops: ODE's stop trick, the
  implicit spring of ODE's manual: lo = hi = ``-position0`` (Webots: F = -k x
  with x the joint position, so the rest is at position 0),
  stopERP = h k / (h k + c), stopCFM = 1 / (h k + c).
- springs with stops: explicit forces ``-k x - c v`` added every step before
  collision detection (see `JointRecord.apply_spring`).
- staticFriction f: a motor at velocity 0 with fmax f.
- suspension (HingeJoint, Hinge2Joint): Webots' suspension axis and
  suspension ERP/CFM from the same formulas.
- stopERP / stopCFM of HingeJointParameters when not -1.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from engine import ode
from engine.sim.poses import Frame


@dataclass
class AxisParams:
    """One axis' JointParameters values (defaults when the node is NULL)."""

    position: float = 0.0
    min_stop: float = 0.0
    max_stop: float = 0.0
    spring: float = 0.0
    damping: float = 0.0
    static_friction: float = 0.0

    @staticmethod
    def of(node) -> AxisParams:
        """Values of a JointParameters-like node (None: defaults)."""
        if node is None:
            return AxisParams()
        return AxisParams(node.get("position"), node.get("minStop"), node.get("maxStop"),
                          node.get("springConstant"), node.get("dampingConstant"),
                          node.get("staticFriction"))

    @property
    def has_stops(self) -> bool:
        return self.min_stop < self.max_stop


@dataclass
class JointRecord:
    """An ODE joint made from a joint node, with what the step loop needs."""

    node: object
    joint: object
    kind: str
    params: list[AxisParams] = field(default_factory=list)
    explicit_springs: list[int] = field(default_factory=list)   # axis indices

    def position(self, axis: int = 0) -> float:
        """Webots position of ``axis`` (rad or m): initial position + ODE's."""
        j = self.joint
        if self.kind == "HingeJoint":
            value = ode.dJointGetHingeAngle(j)
        elif self.kind == "SliderJoint":
            value = ode.dJointGetSliderPosition(j)
        elif self.kind == "Hinge2Joint":
            value = ode.dJointGetHinge2Angle1(j) if axis == 0 else ode.dJointGetHinge2Angle2(j)
        else:
            return self.params[axis].position if self.params else 0.0
        return self.params[axis].position + float(value)

    def apply_spring(self) -> None:
        """Add the explicit spring/damper force ``-k x - c v`` of axes with stops
        (x the Webots position, v its rate)."""
        j = self.joint
        for axis in self.explicit_springs:
            p = self.params[axis]
            x = self.position(axis)
            if self.kind == "HingeJoint":
                v = ode.dJointGetHingeAngleRate(j)
                ode.dJointAddHingeTorque(j, -p.spring * x - p.damping * v)
            elif self.kind == "SliderJoint":
                v = ode.dJointGetSliderPositionRate(j)
                ode.dJointAddSliderForce(j, -p.spring * x - p.damping * v)
            elif axis == 0:  # Hinge2Joint
                v = ode.dJointGetHinge2Angle1Rate(j)
                ode.dJointAddHinge2Torques(j, -p.spring * x - p.damping * v, 0.0)
            else:
                v = ode.dJointGetHinge2Angle2Rate(j)
                ode.dJointAddHinge2Torques(j, 0.0, -p.spring * x - p.damping * v)


_SUFFIX = {0: "", 1: "2", 2: "3"}


def _param(kind: str, axis: int, name: str) -> int:
    return getattr(ode, f"dParam{name}{_SUFFIX[axis]}")


def _setter(kind: str):
    return {"HingeJoint": ode.dJointSetHingeParam, "SliderJoint": ode.dJointSetSliderParam,
            "Hinge2Joint": ode.dJointSetHinge2Param}[kind]


def spring_erp_cfm(k: float, c: float, h: float) -> tuple[float, float]:
    """ERP and CFM that make a constraint a spring k and damper c at step h [s]."""
    denom = h * k + c
    return h * k / denom, 1.0 / denom


def configure_axis(rec: JointRecord, axis: int, h: float, label: str, warn) -> None:
    """Apply stops, springs and static friction of ``rec.params[axis]``."""
    p = rec.params[axis]
    set_param = _setter(rec.kind)
    rotational = rec.kind != "SliderJoint"
    if p.has_stops:
        lo, hi = p.min_stop - p.position, p.max_stop - p.position
        if rotational and (lo < -math.pi or hi > math.pi):
            warn(f"{label}: stops beyond [-pi, pi] from the initial position are clamped")
            lo, hi = max(lo, -math.pi), min(hi, math.pi)
        set_param(rec.joint, _param(rec.kind, axis, "LoStop"), lo)
        set_param(rec.joint, _param(rec.kind, axis, "HiStop"), hi)
    if p.spring > 0.0 or p.damping > 0.0:
        if p.spring < 0.0 or p.damping < 0.0:
            warn(f"{label}: negative spring/damping constants are ignored")
        elif p.has_stops:
            rec.explicit_springs.append(axis)
        else:
            erp, cfm = spring_erp_cfm(p.spring, p.damping, h)
            rest = -p.position
            if rotational and abs(rest) > math.pi:
                warn(f"{label}: a spring rest position beyond pi from the initial position "
                     "is clamped")
                rest = max(-math.pi, min(math.pi, rest))
            set_param(rec.joint, _param(rec.kind, axis, "LoStop"), rest)
            set_param(rec.joint, _param(rec.kind, axis, "HiStop"), rest)
            set_param(rec.joint, _param(rec.kind, axis, "StopERP"), erp)
            set_param(rec.joint, _param(rec.kind, axis, "StopCFM"), cfm)
    if p.static_friction > 0.0:
        set_param(rec.joint, _param(rec.kind, axis, "Vel"), 0.0)
        set_param(rec.joint, _param(rec.kind, axis, "FMax"), p.static_friction)


def _hinge_extras(rec: JointRecord, pnode, frame: Frame, h: float) -> None:
    """stopERP/stopCFM and the suspension of a HingeJointParameters node."""
    if pnode is None:
        return
    set_param = _setter(rec.kind)
    if pnode.get("stopERP") >= 0.0 and rec.params[0].spring == 0.0:
        set_param(rec.joint, ode.dParamStopERP, pnode.get("stopERP"))
    if pnode.get("stopCFM") > 0.0 and rec.params[0].spring == 0.0:
        set_param(rec.joint, ode.dParamStopCFM, pnode.get("stopCFM"))
    k, c = pnode.get("suspensionSpringConstant"), pnode.get("suspensionDampingConstant")
    if k > 0.0 or c > 0.0:
        erp, cfm = spring_erp_cfm(k, c, h)
        axis = frame.rotate(pnode.get("suspensionAxis"))
        if rec.kind == "HingeJoint":
            ode.dJointSetHingeSuspensionAxis(rec.joint, *axis)
        else:
            ode.dJointSetHinge2SuspensionAxis(rec.joint, *axis)
        set_param(rec.joint, ode.dParamSuspensionERP, erp)
        set_param(rec.joint, ode.dParamSuspensionCFM, cfm)


def create_joint(world, node, frame: Frame, parent_body, child_body, h: float, label: str,
                 warn) -> JointRecord:
    """The ODE joint of joint ``node`` whose frame (world) is ``frame``."""
    kind = node.type_name
    pnode = node.get("jointParameters")
    if kind == "HingeJoint":
        j = ode.dJointCreateHinge(world, None)
        ode.dJointAttach(j, child_body, parent_body)
        ode.dJointSetHingeAnchor(j, *frame.apply(_get(pnode, "anchor", (0.0, 0.0, 0.0))))
        ode.dJointSetHingeAxis(j, *frame.rotate(_get(pnode, "axis", (1.0, 0.0, 0.0))))
        rec = JointRecord(node, j, kind, [AxisParams.of(pnode)])
    elif kind == "SliderJoint":
        j = ode.dJointCreateSlider(world, None)
        ode.dJointAttach(j, child_body, parent_body)
        ode.dJointSetSliderAxis(j, *frame.rotate(_get(pnode, "axis", (0.0, 0.0, 1.0))))
        rec = JointRecord(node, j, kind, [AxisParams.of(pnode)])
    elif kind == "Hinge2Joint":
        p2 = node.get("jointParameters2")
        j = ode.dJointCreateHinge2(world, None)
        ode.dJointAttach(j, parent_body, child_body)
        ode.dJointSetHinge2Anchor(j, *frame.apply(_get(pnode, "anchor", (0.0, 0.0, 0.0))))
        ode.dJointSetHinge2Axes(j, frame.rotate(_get(pnode, "axis", (1.0, 0.0, 0.0))),
                                frame.rotate(_get(p2, "axis", (0.0, 0.0, 1.0))))
        rec = JointRecord(node, j, kind, [AxisParams.of(pnode), AxisParams.of(p2)])
    else:  # BallJoint: ball joint + Euler angular motors (ball_joint.py)
        from engine.sim.ball_joint import create_ball_joint

        return create_ball_joint(world, node, frame, parent_body, child_body, h, label, warn)
    for axis in range(len(rec.params)):
        configure_axis(rec, axis, h, label, warn)
    if kind in ("HingeJoint", "Hinge2Joint"):
        _hinge_extras(rec, pnode, frame, h)
    return rec


def _get(node, name: str, default):
    return default if node is None else node.get(name)
