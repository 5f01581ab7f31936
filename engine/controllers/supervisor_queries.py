"""Supervisor calls answered by the simulation at once (between steps).

`SupervisorQueries.run(session, name, args)` looks ``name`` up in `QUERIES`
(a registry of handlers) and returns ``(value, errors)``: the value the
controller's call returns and Webots-style error lines it prints to its
stderr. Nodes travel as numbers: each node gets one the first time a
controller sees it (0 is the scene's root). Field edits go through
`engine.sim.edits` so the running physics follows; a Solid's translation
and rotation set by a supervisor are undone by a reset (Webots' reset
matrix), other fields keep the supervisor's value.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from engine import ode
from engine.sim.edits import apply_edit
from engine.sim.poses import Frame
from engine.world import Node
from engine.world.model import World
from engine.world.parser import parse_world
from engine.world.protos import expanded
from engine.world.writer import format_world, write_world

ROOT_ID = 0
#: A Solid's fields a reset puts back (Webots' reset matrix); others keep edits
_UNDONE_BY_RESET = ("translation", "rotation")


class QueryError(Exception):
    """A misuse the controller hears about (Webots prints it and returns None)."""


class SupervisorQueries:
    """Node numbering and the query handlers of one ControllerHost."""

    def __init__(self, host) -> None:
        self.host = host
        self._nodes: dict[int, Node] = {}
        self._ids: dict[int, int] = {}

    @property
    def sim(self):
        return self.host.sim

    def run(self, session, name: str, args: list) -> tuple[Any, list[str]]:
        """The value of query ``name`` and the error lines to print."""
        handler = QUERIES.get(name)
        if handler is None:
            return None, [f"unknown supervisor call {name!r}"]
        needs_supervisor = name not in ROBOT_QUERIES
        if needs_supervisor and not bool(session.robot.get("supervisor")):
            return None, ["this function can only be used by a Supervisor (set the Robot's "
                          "'supervisor' field to TRUE)"]
        try:
            return handler(self, session, *args), []
        except QueryError as exc:
            return None, [str(exc)]
        except TypeError as exc:  # wrong number of arguments from a controller
            return None, [f"{name}: {exc}"]
        except Exception as exc:  # noqa: BLE001 - a supervisor call must not stop the engine
            return None, [f"{name} failed: {type(exc).__name__}: {exc}"]

    # ------------------------------------------------------------ numbering
    def id_of(self, node: Node | None) -> int | None:
        if node is None:
            return None
        key = id(node)
        if key not in self._ids:
            number = len(self._nodes) + 1
            self._ids[key] = number
            self._nodes[number] = node
        return self._ids[key]

    def node(self, number: int | None) -> Node | None:
        if number is None or number == ROOT_ID:
            return None
        node = self._nodes.get(int(number))
        if node is None or node.world is None:
            raise QueryError(f"node {number} no longer exists")
        return node

    # ----------------------------------------------------------------- poses
    def world_frame(self, node: Node) -> Frame:
        """A node's world frame now (a Solid's from its body; a Pose's from its Solid)."""
        rec = self.sim.model.record_of(node)
        if rec is not None:
            return self.sim.solid_world_frame(rec)
        local = Frame.identity()
        current = node
        while current is not None:
            rec = self.sim.model.record_of(current)
            if rec is not None:
                return self.sim.solid_world_frame(rec).compose(local)
            if "translation" in current.field_names():
                local = Frame.from_fields(current.get("translation"),
                                          current.get("rotation")).compose(local)
            current = current.parent
        return local

    def body_of(self, node: Node):
        rec = self.sim.model.record_of(node)
        body = rec.ode_body if rec is not None else None
        if body is None:
            raise QueryError(f"{node.label()} has no physics: it cannot be moved by forces")
        return body


# ------------------------------------------------------------------ handlers
def _field_type(node: Node, name: str) -> str:
    return node.field_spec(name).type


def _value_out(q: SupervisorQueries, value: Any, type_name: str):
    if type_name.endswith("Node"):
        return q.id_of(value.target if getattr(value, "is_use", False) else value)
    if isinstance(value, tuple):
        return [float(v) if isinstance(v, float) else v for v in value]
    return value


def _field_node(q: SupervisorQueries, number, name: str) -> Node:
    node = q.node(number)
    if node is None:
        if name != "children":
            raise QueryError(f"the root has no field '{name}'")
        raise QueryError("the root's children are read with getMFNode on the root field")
    if name not in node.field_names():
        raise QueryError(f"{node.label()} has no field '{name}'")
    return node


def _root(q, s):
    return ROOT_ID


def _self(q, s):
    return q.id_of(s.robot)


def _from_def(q, s, name: str, scope=None):
    """``getFromDef`` (scope None: the world's DEFs, dotted paths included) or
    ``getFromProtoDef`` (a DEF inside the PROTO node ``scope``: its expansion)."""
    if scope is None:
        node = q.sim.world.find_by_def(name)
        return q.id_of(node.target if node is not None and node.is_use else node)
    return q.id_of(_find_def_below(expanded(q.node(scope)), name))


def _find_def_below(node, name: str):
    if node is None or node.is_use or node.is_opaque:
        return None
    if node.def_name == name:
        return node
    for _field_name, _index, child in node.child_nodes():
        found = _find_def_below(child, name)
        if found is not None:
            return found
    return None


def _from_id(q, s, number: int):
    try:
        return number if number == ROOT_ID or q.node(number) is not None else None
    except QueryError:
        return None


def _from_device(q, s, tag: int):
    device = s.device(tag)
    return None if device is None else q.id_of(device.node)


def _node_info(q, s, number):
    node = q.node(number)
    if node is None:
        return {"type_name": "Group", "base_type_name": "Group", "def": "", "is_proto": False}
    spec = node.spec
    base = node.type_name
    if spec is not None and spec.bases:
        base = node.type_name if node.type_name in _WEBOTS_BASES else spec.bases[0]
    return {"type_name": node.type_name, "base_type_name": base,
            "def": node.def_name or "", "is_proto": node.type_name not in _WEBOTS_BASES}


def _node_parent(q, s, number):
    node = q.node(number)
    if node is None:
        return None
    return ROOT_ID if node.parent is None else q.id_of(node.parent)


def _field(q, s, number, name: str):
    node = q.node(number)
    if node is None:
        return "MFNode" if name == "children" else None
    return _field_type(node, name) if name in node.field_names() else None


def _field_count(q, s, number, name: str):
    node = q.node(number)
    if node is None:
        return len(q.sim.world.nodes)
    return len(_field_node(q, number, name).get(name))


def _field_count_of_node(q, s, number):
    node = q.node(number)
    return 1 if node is None else len(node.field_names())


def _index(values, index: int, name: str) -> int:
    count = len(values)
    k = index + count if index < 0 else index
    if not 0 <= k < count:
        raise QueryError(f"index {index} out of range for field '{name}' ({count} items)")
    return k


def _field_get(q, s, number, name: str, index=None):
    if q.node(number) is None:
        nodes = q.sim.world.nodes
        return q.id_of(nodes[_index(nodes, int(index), name)])
    node = _field_node(q, number, name)
    type_name = _field_type(node, name)
    value = node.get(name)
    if type_name.startswith("MF"):
        value = value[_index(value, int(index), name)]
    return _value_out(q, value, type_name)


def _converted(type_name: str, value):
    base = "SF" + type_name[2:]
    if base in ("SFVec2f", "SFVec3f", "SFRotation", "SFColor"):
        return tuple(float(v) for v in value)
    if base == "SFFloat":
        return float(value)
    if base == "SFInt32":
        return int(value)
    if base == "SFBool":
        return bool(value)
    return str(value)


def _set_field(q, s, node: Node, name: str, value) -> None:
    sim = q.sim
    keep = sim.baseline.value(node, name) if name in _UNDONE_BY_RESET else None
    try:
        result = (apply_edit(sim, node, name, value, baseline=keep)
                  if name in _UNDONE_BY_RESET else apply_edit(sim, node, name, value))
    except (ValueError, TypeError) as exc:
        raise QueryError(f"new field value has wrong type or length: {exc}") from None
    if result.needs_rebuild:
        sim.rebuild()
        q.host.rebind()


def _field_set(q, s, number, name: str, index, value):
    node = _field_node(q, number, name)
    type_name = _field_type(node, name)
    if type_name.endswith("Node"):
        raise QueryError(f"field '{name}' holds nodes: use importMFNodeFromString")
    new = _converted(type_name, value)
    if type_name.startswith("MF"):
        items = list(node.get(name))
        items[_index(items, int(index), name)] = new
        new = tuple(items)
    _set_field(q, s, node, name, new)


def _field_insert(q, s, number, name: str, index, value):
    node = _field_node(q, number, name)
    type_name = _field_type(node, name)
    items = list(node.get(name))
    k = len(items) + 1 + int(index) if int(index) < 0 else int(index)
    items.insert(max(0, min(k, len(items))), _converted(type_name, value))
    _set_field(q, s, node, name, tuple(items))


def _field_remove(q, s, number, name: str, index):
    node = _field_node(q, number, name)
    type_name = _field_type(node, name)
    if type_name.endswith("Node"):
        current = node.get(name)
        target = current if index is None else current[_index(current, int(index), name)]
        if target is not None:
            node.remove_node(target)
            q.sim.rebuild()
            q.host.rebind()
        return None
    items = list(node.get(name))
    del items[_index(items, int(index), name)]
    _set_field(q, s, node, name, tuple(items))


def _import_node(q, s, number, name: str, position, text: str):
    parsed = parse_world(f"#VRML_SIM R2023b utf8\n{text}\n", "<importMFNodeFromString>")
    new_nodes = list(parsed.nodes)
    for node in new_nodes:
        parsed.remove_node(node)
    parent = q.node(number)
    world = q.sim.world
    for offset, node in enumerate(new_nodes):
        if parent is None:
            at = None if position in (None, -1) else int(position) + offset
            world.add_node(node, at)
        elif position is None:
            parent.set(name, node)
        else:
            count = len(parent.get(name))
            at = count if int(position) == -1 else int(position) + offset
            parent.insert(name, at, node)
    q.sim.rebuild()
    q.host.rebind()


def _remove(q, s, number):
    node = q.node(number)
    if node is None:
        raise QueryError("the root cannot be removed")
    if node.parent is None:
        q.sim.world.remove_node(node)
    else:
        node.parent.remove_node(node)
    q.sim.rebuild()
    q.host.rebind()


def _position(q, s, number):
    node = q.node(number)
    if node is None or "translation" not in node.field_names():
        raise QueryError("wb_supervisor_node_get_position() can only be used with Pose "
                         "nodes")
    return [float(v) for v in q.world_frame(node).t]


def _orientation(q, s, number):
    node = q.node(number)
    if node is None or "rotation" not in node.field_names():
        raise QueryError("wb_supervisor_node_get_orientation() can only be used with Pose "
                         "nodes")
    return [float(v) for v in np.asarray(q.world_frame(node).R).reshape(9)]


def _pose(q, s, number, from_number=None):
    node = q.node(number)
    if node is None:
        raise QueryError("wb_supervisor_node_get_pose() can only be used with Pose nodes")
    frame = q.world_frame(node)
    if from_number is not None:
        reference = q.node(from_number)
        if reference is not None:
            frame = q.world_frame(reference).inverse().compose(frame)
    out = []
    for row in range(3):
        out.extend([float(v) for v in frame.R[row]] + [float(frame.t[row])])
    return out + [0.0, 0.0, 0.0, 1.0]


def _velocity(q, s, number):
    node = q.node(number)
    rec = q.sim.model.record_of(node) if node is not None else None
    if rec is None:
        raise QueryError("wb_supervisor_node_get_velocity() can only be used with Solid nodes")
    body = rec.ode_body
    if body is None:
        return [0.0] * 6
    return [float(v) for v in ode.dBodyGetLinearVel(body)] + \
        [float(v) for v in ode.dBodyGetAngularVel(body)]


def _set_velocity(q, s, number, velocity):
    body = q.body_of(q.node(number))
    ode.dBodyEnable(body)
    ode.dBodySetLinearVel(body, *velocity[:3])
    ode.dBodySetAngularVel(body, *velocity[3:6])


def _add_force(q, s, number, force, relative: bool, offset=None):
    body = q.body_of(q.node(number))
    ode.dBodyEnable(body)
    node = q.node(number)
    frame = q.world_frame(node)
    f = frame.rotate(force) if relative else np.asarray(force, float)
    point = frame.apply(offset if offset is not None else (0.0, 0.0, 0.0))
    if offset is None:
        ode.dBodyAddForce(body, *[float(v) for v in f])
    else:
        ode.dBodyAddForceAtPos(body, *[float(v) for v in f], *[float(v) for v in point])


def _add_torque(q, s, number, torque, relative: bool):
    node = q.node(number)
    body = q.body_of(node)
    ode.dBodyEnable(body)
    t = q.world_frame(node).rotate(torque) if relative else np.asarray(torque, float)
    ode.dBodyAddTorque(body, *[float(v) for v in t])


def _reset_physics(q, s, number):
    node = q.node(number)
    rec = q.sim.model.record_of(node) if node is not None else None
    if rec is None or rec.ode_body is None:
        return None
    ode.dBodySetLinearVel(rec.ode_body, 0.0, 0.0, 0.0)
    ode.dBodySetAngularVel(rec.ode_body, 0.0, 0.0, 0.0)


def _center_of_mass(q, s, number):
    body = q.body_of(q.node(number))
    return [float(v) for v in ode.dBodyGetPosition(body)]


def _contact_points(q, s, number, include_descendants: bool):
    node = q.node(number)
    out = []
    for contact in q.sim.contacts:
        for rec in (contact.solid1, contact.solid2):
            if rec is not None and (rec.node is node or (include_descendants and
                                                          _descends(rec.node, node))):
                out.append([float(v) for v in contact.pos])
                break
    return out


def _descends(node: Node, ancestor: Node) -> bool:
    while node is not None:
        if node is ancestor:
            return True
        node = node.parent
    return False


def _export(q, s, number):
    node = q.node(number)
    world = World()
    copy = node.copy()
    world.add_node(copy)
    return format_world(world).split("\n", 1)[1].strip()


def _restart_controller(q, s, number):
    node = q.node(number)
    q.host.restart_later(str(node.get("name")))


def _simulation_reset(q, s):
    q.host.reset_later = True


def _simulation_reset_physics(q, s):
    for rec in q.sim.model.bodies:
        ode.dBodySetLinearVel(rec.body, 0.0, 0.0, 0.0)
        ode.dBodySetAngularVel(rec.body, 0.0, 0.0, 0.0)


def _simulation_set_mode(q, s, mode: int):
    q.host.requested_mode = {0: "paused", 1: "realtime", 2: "fast"}.get(int(mode))


def _simulation_get_mode(q, s):
    return {"paused": 0, "realtime": 1, "fast": 2}.get(q.host.mode, 1)


def _simulation_quit(q, s, status: int):
    q.host.quit_status = int(status)


def _world_reload(q, s):
    q.host.reload_later = True


def _world_save(q, s, filename=None):
    path = filename or q.sim.world.filename
    if not path:
        raise QueryError("wb_supervisor_world_save(): the world has no file name")
    write_world(q.sim.world, path)
    return True


def _not_available(function: str) -> Callable[..., Any]:
    def handler(q, s, *args):
        raise QueryError(f"{function}() is not available in Odeon (docs/controllers.md)")
    return handler


#: Webots' own node types (a type outside this set is a PROTO instance).
_WEBOTS_BASES = frozenset({
    "Solid", "Robot", "Pose", "Transform", "Group", "Shape", "HingeJoint", "Hinge2Joint",
    "SliderJoint", "BallJoint", "Emitter", "Receiver", "DistanceSensor", "TouchSensor",
    "Accelerometer", "Gyro", "InertialUnit", "GPS", "Compass", "LED", "Camera", "Box",
    "Sphere", "Capsule", "Cylinder", "Plane", "IndexedFaceSet", "ElevationGrid", "Mesh",
    "Physics", "WorldInfo", "Viewpoint", "Background", "DirectionalLight", "PointLight",
    "SpotLight", "RotationalMotor", "LinearMotor", "PositionSensor", "Brake",
    "ContactProperties", "Appearance", "PBRAppearance", "Material",
})

#: Queries any robot may make (the others need ``supervisor TRUE``).
ROBOT_QUERIES = frozenset({"urdf"})

#: Query name -> handler ``(queries, session, *args) -> value``.
QUERIES: dict[str, Callable[..., Any]] = {
    "root": _root, "self": _self, "from_def": _from_def, "from_id": _from_id,
    "from_device": _from_device, "node_info": _node_info, "node_parent": _node_parent,
    "field": _field, "field_count": _field_count, "field_count_of_node": _field_count_of_node,
    "field_get": _field_get, "field_set": _field_set, "field_insert": _field_insert,
    "field_remove": _field_remove, "import_node": _import_node, "remove": _remove,
    "position": _position, "orientation": _orientation, "pose": _pose,
    "velocity": _velocity, "set_velocity": _set_velocity, "add_force": _add_force,
    "add_torque": _add_torque, "reset_physics": _reset_physics,
    "center_of_mass": _center_of_mass, "contact_points": _contact_points,
    "export": _export, "restart_controller": _restart_controller,
    "simulation_reset": _simulation_reset,
    "simulation_reset_physics": _simulation_reset_physics,
    "simulation_set_mode": _simulation_set_mode, "simulation_get_mode": _simulation_get_mode,
    "simulation_quit": _simulation_quit, "world_reload": _world_reload,
    "world_save": _world_save, "urdf": _not_available("wb_robot_get_urdf"),
    "save_state": _not_available("wb_supervisor_node_save_state"),
    "load_state": _not_available("wb_supervisor_node_load_state"),
    "set_joint_position": _not_available("wb_supervisor_node_set_joint_position"),
    "static_balance": _not_available("wb_supervisor_node_get_static_balance"),
}
