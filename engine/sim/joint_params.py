"""What a Webots joint becomes on the ODE side: `AxisParams` (one axis' JointParameters),
`JointRecord` (the ODE joint with what the step loop needs) and the parameter helpers
shared by `engine.sim.joints`, `engine.sim.ball_joint` and `engine.sim.edits`
(kept apart so that those modules import it, not each other).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from engine import ode


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


def axis_param(kind: str, axis: int, name: str) -> int:
    """The ODE parameter code of ``name`` (``"LoStop"``...) for joint axis ``axis`` (0..2)."""
    return getattr(ode, f"dParam{name}{_SUFFIX[axis]}")


def param_setter(kind: str):
    """The dJointSet*Param function of a HingeJoint, SliderJoint or Hinge2Joint."""
    return {"HingeJoint": ode.dJointSetHingeParam, "SliderJoint": ode.dJointSetSliderParam,
            "Hinge2Joint": ode.dJointSetHinge2Param}[kind]


def spring_erp_cfm(k: float, c: float, h: float) -> tuple[float, float]:
    """ERP and CFM that make a constraint a spring k and damper c at step h [s]."""
    denom = h * k + c
    return h * k / denom, 1.0 / denom
