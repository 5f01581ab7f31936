"""What Klamp't's names mean in a Webots world: IDs, terrains, rigid objects, robots.

Klamp't numbers every simulated body of a world and sorts them into
terrains, rigid objects and robots (docs/scripting.md). Over a
`.wbt` world (`engine.world.World`):

* a **body** is a Solid node (Robot included) with a ``physics`` node or a
  ``boundingObject``; bodies get IDs 0, 1, ... in the scene tree's pre-order;
* a body inside a Robot (or the Robot itself) is a **robot link** of the
  closest enclosing Robot; any other body with ``physics`` is a **rigid
  object**; any other body is **terrain**;
* a **robot** is a Robot node (pre-order); its **config** is the position of
  each joint axis below it (HingeJoint and SliderJoint 1 axis, Hinge2Joint 2,
  BallJoint 3), joints taken in pre-order, not entering a nested Robot. Axis
  k of a joint reads the ``position`` of its k-th JointParameters field
  (``jointParameters``, ``jointParameters2``, ``jointParameters3``).

A body's **name** is its DEF name, else its ``name`` field.
"""

from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np

from engine.ode.kernels.detlinalg import dot, matmul
from engine.sim.poses import axis_angle_to_matrix, matrix_to_axis_angle
from engine.world.model import World
from engine.world.node import Node
from engine.world.protos import expanded

#: Joint node type -> its JointParameters fields, one per axis, in axis order.
JOINT_AXIS_FIELDS: dict[str, tuple[str, ...]] = {
    "HingeJoint": ("jointParameters",),
    "SliderJoint": ("jointParameters",),
    "Hinge2Joint": ("jointParameters", "jointParameters2"),
    "BallJoint": ("jointParameters", "jointParameters2", "jointParameters3"),
}

#: Joint node type -> the node type of its first JointParameters field.
_FIRST_PARAMS = {"HingeJoint": "HingeJointParameters", "Hinge2Joint": "HingeJointParameters",
                 "BallJoint": "BallJointParameters"}
#: Body kinds.
TERRAIN, RIGID_OBJECT, ROBOT_LINK = "terrain", "rigidObject", "robotLink"


class AxisRef(NamedTuple):
    """One entry of a robot's config: axis ``axis`` of joint node ``joint``
    (whose parameters are in field ``params_field``)."""

    joint: Node
    axis: int
    params_field: str


class BodyRef(NamedTuple):
    """One body: its ``node``, ``kind`` (TERRAIN / RIGID_OBJECT / ROBOT_LINK)
    and the index of its ``robot`` in `WorldIndex.robots` (-1 for none)."""

    node: Node
    kind: str
    robot: int


class RobotRef(NamedTuple):
    """A Robot node and its config axes (pre-order)."""

    node: Node
    axes: tuple[AxisRef, ...]


class WorldIndex:
    """The IDs and groups of one world (module docstring)."""

    def __init__(self, bodies: list[BodyRef], robots: list[RobotRef]) -> None:
        self.bodies = bodies
        self.robots = robots
        self._id_of = {id(b.node): i for i, b in enumerate(bodies)}

    def id_of(self, node: Node) -> int:
        """The ID of a body node, or -1."""
        return self._id_of.get(id(node), -1)

    def of_kind(self, kind: str) -> list[int]:
        """IDs of the bodies of one kind, in ID order."""
        return [i for i, b in enumerate(self.bodies) if b.kind == kind]

    @property
    def terrains(self) -> list[int]:
        return self.of_kind(TERRAIN)

    @property
    def rigid_objects(self) -> list[int]:
        return self.of_kind(RIGID_OBJECT)


def body_name(node: Node) -> str:
    """A body's name: its DEF name, else its ``name`` field."""
    if node.def_name:
        return node.def_name
    return str(node.get("name")) if "name" in node.field_names() else node.type_name


def _is_body(node: Node) -> bool:
    node = expanded(node)  # a PROTO stand-in (RectangleArena...) is what it expands to
    fields = node.field_names()
    return ("physics" in fields and node.get("physics") is not None) or (
        "boundingObject" in fields and node.get("boundingObject") is not None)


def joint_params(joint: Node, field: str) -> Node | None:
    """The JointParameters node in a joint's ``field`` (a USE resolved), or None."""
    if field not in joint.field_names():
        return None
    value = joint.get(field)
    if value is None:
        return None
    return value.target if value.is_use else value


def axis_position(ref: AxisRef) -> float:
    """The ``position`` of an axis' JointParameters (0 when it has none)."""
    params = joint_params(ref.joint, ref.params_field)
    return 0.0 if params is None else float(params.get("position"))


def endpoint_of(joint: Node) -> Node | None:
    """A joint's endPoint Solid (a USE resolved), or None."""
    end = joint.get("endPoint") if "endPoint" in joint.field_names() else None
    if end is None:
        return None
    return end.target if end.is_use else end


def _turnendpoint_of(end: Node, params: Node | None, delta: float, revolute: bool) -> None:
    """Move ``end`` as the joint turning by ``delta`` rad (sliding ``delta`` m)
    about (along) its axis through its anchor, in the joint's parent frame."""
    axis = np.array(params.get("axis") if params is not None else
                    ((1.0, 0.0, 0.0) if revolute else (0.0, 0.0, 1.0)), dtype=float)
    length = math.sqrt(dot(axis, axis))
    if length == 0.0:
        raise ValueError(f"{end.label()}: its joint's axis is zero")
    axis = axis / length
    t = np.array(end.get("translation"), dtype=float)
    if not revolute:
        end.set("translation", tuple((t + delta * axis).tolist()))
        return
    anchor = np.array(params.get("anchor") if params is not None else (0.0, 0.0, 0.0),
                      dtype=float)
    turn = axis_angle_to_matrix((*axis.tolist(), delta))
    end.set("translation", tuple((np.asarray(matmul(turn, t - anchor)) + anchor).tolist()))
    R = np.asarray(matmul(turn, axis_angle_to_matrix(end.get("rotation"))))
    end.set("rotation", matrix_to_axis_angle(R))


#: (joint type, axis) whose position can be set in a world: revolute or not.
SETTABLE_AXES = {("HingeJoint", 0): True, ("Hinge2Joint", 0): True, ("SliderJoint", 0): False}


def set_axis_position(ref: AxisRef, value: float) -> None:
    """Set an axis' position in a world as Webots does when the ``position``
    field is edited: the endPoint (and all below it) turns about the axis
    through the anchor (or slides along it) by the change, and the field
    takes ``value``. A JointParameters node is added when the joint has
    none. HingeJoint, SliderJoint and a Hinge2Joint's first axis only: the
    others' axes move with the endPoint (ValueError)."""
    revolute = SETTABLE_AXES.get((ref.joint.type_name, ref.axis))
    if revolute is None:
        raise ValueError(f"{ref.joint.label()}: the position of axis {ref.axis + 1} of a "
                         f"{ref.joint.type_name} cannot be set in a world (set it on the "
                         f"Simulator)")
    target = float(value)
    if not math.isfinite(target):
        raise ValueError(f"{ref.joint.label()}: a joint position must be finite, got {value!r}")
    params = joint_params(ref.joint, ref.params_field)
    delta = target - (0.0 if params is None else float(params.get("position")))
    end = endpoint_of(ref.joint)
    if end is not None and delta != 0.0:
        _turnendpoint_of(end, params, delta, revolute)
    if params is None:
        params = Node(_FIRST_PARAMS.get(ref.joint.type_name, "JointParameters")
                      if ref.axis == 0 else "JointParameters")
        ref.joint.set(ref.params_field, params)
    params.set("position", target)


def _walk(node: Node, robot: int, bodies: list[BodyRef], robots: list[RobotRef],
          axes: list[AxisRef] | None) -> None:
    """Pre-order over ``node``: bodies, robots and the axes of the robot whose
    ``axes`` list is open."""
    if not isinstance(node, Node) or node.is_use or node.is_opaque:
        return
    if node.is_a("Robot"):
        robot = len(robots)
        axes = []
        robots.append(RobotRef(node, ()))
    if node.is_a("Solid") and _is_body(node):
        kind = ROBOT_LINK if robot >= 0 else (
            RIGID_OBJECT if node.get("physics") is not None else TERRAIN)
        bodies.append(BodyRef(node, kind, robot))
    fields = JOINT_AXIS_FIELDS.get(node.type_name)
    if fields is not None and axes is not None:
        axes.extend(AxisRef(node, k, f) for k, f in enumerate(fields))
    for _name, _index, child in node.child_nodes():
        _walk(child, robot, bodies, robots, axes)
    if node.is_a("Robot"):
        idx = next(i for i, r in enumerate(robots) if r.node is node)
        robots[idx] = RobotRef(node, tuple(axes or ()))


def index_world(world: World) -> WorldIndex:
    """The `WorldIndex` of ``world``."""
    bodies: list[BodyRef] = []
    robots: list[RobotRef] = []
    for node in world.nodes:
        _walk(node, -1, bodies, robots, None)
    return WorldIndex(bodies, robots)
