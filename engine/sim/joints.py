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

from engine import ode
from engine.sim.ball_joint import create_ball_joint
from engine.sim.joint_params import (
    AxisParams,
    JointRecord,
    axis_param,
    param_setter,
    spring_erp_cfm,
)
from engine.sim.poses import Frame


def configure_axis(rec: JointRecord, axis: int, h: float, label: str, warn) -> None:
    """Apply stops, springs and static friction of ``rec.params[axis]``."""
    p = rec.params[axis]
    set_param = param_setter(rec.kind)
    rotational = rec.kind != "SliderJoint"
    if p.has_stops:
        lo, hi = p.min_stop - p.position, p.max_stop - p.position
        if rotational and (lo < -math.pi or hi > math.pi):
            warn(f"{label}: stops beyond [-pi, pi] from the initial position are clamped")
            lo, hi = max(lo, -math.pi), min(hi, math.pi)
        set_param(rec.joint, axis_param(rec.kind, axis, "LoStop"), lo)
        set_param(rec.joint, axis_param(rec.kind, axis, "HiStop"), hi)
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
            set_param(rec.joint, axis_param(rec.kind, axis, "LoStop"), rest)
            set_param(rec.joint, axis_param(rec.kind, axis, "HiStop"), rest)
            set_param(rec.joint, axis_param(rec.kind, axis, "StopERP"), erp)
            set_param(rec.joint, axis_param(rec.kind, axis, "StopCFM"), cfm)
    if p.static_friction > 0.0:
        set_param(rec.joint, axis_param(rec.kind, axis, "Vel"), 0.0)
        set_param(rec.joint, axis_param(rec.kind, axis, "FMax"), p.static_friction)


def _hinge_extras(rec: JointRecord, pnode, frame: Frame, h: float) -> None:
    """stopERP/stopCFM and the suspension of a HingeJointParameters node."""
    if pnode is None:
        return
    set_param = param_setter(rec.kind)
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
        return create_ball_joint(world, node, frame, parent_body, child_body, h, label, warn)
    for axis in range(len(rec.params)):
        configure_axis(rec, axis, h, label, warn)
    if kind in ("HingeJoint", "Hinge2Joint"):
        _hinge_extras(rec, pnode, frame, h)
    return rec


def _get(node, name: str, default):
    return default if node is None else node.get(name)
