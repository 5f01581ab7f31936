"""Klamp't's map paths over Odeon worlds and simulators (klampt.model.access).

A *path* names one value of a world or of a running simulation, as Klamp't's
``access``/``map`` module does::

    get_item(world, "robots[0].config")          # [q0, q1, ...]  (rad or m)
    set_item(world, "robots[0].config[0]", 0.3)  # one joint position
    get_item(sim, "rigidObjects[1].transform")   # (R 9-list column-major, t 3-list)
    get_item(sim, "controllers[0].sensedVelocity")

Grammar: ``step ("." step)*``, a step being a name followed by any number of
``[index]`` (an integer, or a name: ``robots[ONE_LINK]`` or
``robots["ONE_LINK"]``). The first step picks a collection (``robots``,
``rigidObjects``, ``terrains``, ``bodies``, and on a Simulator also
``controllers``) or a scalar (``time`` on a Simulator); the second an item
of the element; indices after an item index into its value
(``transform[1][2]`` is t's z).

On a `World` (the initial conditions of a batch):

* ``robots[i].config`` (list, one entry per config axis: rad or m), read from
  and written into the joints' ``position`` fields (`world_index`);
* ``rigidObjects[i].transform`` / ``terrains[i]`` / ``bodies[id]``:
  ``(R, t)``, the Solid's world frame; written as the Solid's
  ``translation``/``rotation`` fields (relative to its parent's frame);
* ``rigidObjects[i].velocity``: ``(w, v)`` [rad/s, m/s], the Solid's
  ``angularVelocity``/``linearVelocity`` fields (world frame, as Webots);
* ``robots[i].velocity`` only exists on a Simulator: `set_item` on a world
  raises `SimulatorOnlyError` (`needs_simulator` tells beforehand; the batch
  applies such items on the Simulator before simInit).

On a `Simulator` (the return items): ``time`` [s]; ``robots[i].config`` and
``.velocity`` (sensed; velocity writable); ``rigidObjects[i]`` /
``terrains[i]`` / ``bodies[id]`` ``.transform`` and ``.velocity`` (writable);
``controllers[i].commandedConfig``, ``.commandedVelocity``,
``.sensedConfig``, ``.sensedVelocity``.

A bad path raises `ValueError` naming the path and what is wrong, e.g.
``robots[3]: the world has 1 robot``.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

import numpy as np

from engine.klampt.world_index import (
    WorldIndex,
    axis_position,
    body_name,
    index_world,
    set_axis_position,
)
from engine.sim.poses import Frame, matrix_to_axis_angle
from engine.world.model import World
from engine.world.node import Node

Index = int | str


class PathStep(NamedTuple):
    """One step of a path: a ``name`` and the ``indices`` after it."""

    name: str
    indices: tuple[Index, ...]


class SimulatorOnlyError(ValueError):
    """The item exists on a Simulator only (``robots[i].velocity`` on a World)."""


_STEP = re.compile(r"\s*([A-Za-z_]\w*)\s*")
_INDEX = re.compile(r"\[\s*(?:(-?\d+)|([A-Za-z_][\w.]*)|\"([^\"]*)\"|'([^']*)')\s*\]\s*")


def parse_path(path: str) -> tuple[PathStep, ...]:
    """The steps of ``path``; ValueError naming the path and the position of a
    syntax error."""
    if not isinstance(path, str):
        raise ValueError(f"{path!r}: a path is a string such as 'robots[0].config'")
    steps: list[PathStep] = []
    pos = 0
    while True:
        m = _STEP.match(path, pos)
        if m is None:
            raise ValueError(f"{path}: expected a name at character {pos + 1}")
        pos = m.end()
        indices: list[Index] = []
        while (mi := _INDEX.match(path, pos)) is not None:
            number, bare, dq, sq = mi.groups()
            indices.append(int(number) if number is not None else next(
                v for v in (bare, dq, sq) if v is not None))
            pos = mi.end()
        steps.append(PathStep(m.group(1), tuple(indices)))
        if pos == len(path):
            return tuple(steps)
        if path[pos] != ".":
            raise ValueError(f"{path}: unexpected {path[pos]!r} at character {pos + 1}")
        pos += 1


# ----- values -----------------------------------------------------------------------------

def _numbers(path: str, value: Any, size: int | None, what: str) -> list[float]:
    """``value`` as a list of floats (of length ``size`` when given)."""
    try:
        out = [float(v) for v in value]
    except (TypeError, ValueError):
        raise ValueError(f"{path}: expected {what}, got {value!r}") from None
    if size is not None and len(out) != size:
        raise ValueError(f"{path}: expected {what}, got {len(out)} numbers")
    return out


def _pair(path: str, value: Any, sizes: tuple[int, int], what: str) -> tuple[list, list]:
    try:
        first, second = value
    except (TypeError, ValueError):
        raise ValueError(f"{path}: expected {what}, got {value!r}") from None
    return _numbers(path, first, sizes[0], what), _numbers(path, second, sizes[1], what)


def _column_major(R: np.ndarray) -> list[float]:
    """A (3, 3) rotation as Klamp't's 9-list (column-major)."""
    return [float(v) for v in np.asarray(R, dtype=np.float64).flatten(order="F")]


def _as_lists(value: Any) -> Any:
    """A value with its tuples turned into lists, so an element can be replaced."""
    if isinstance(value, (list, tuple)):
        return [_as_lists(v) for v in value]
    return value


def _sub_get(path: str, value: Any, indices: tuple[Index, ...]) -> Any:
    for k in indices:
        if not isinstance(value, (list, tuple)):
            raise ValueError(f"{path}: [{k}] indexes a number")
        if not isinstance(k, int) or not -len(value) <= k < len(value):
            raise ValueError(f"{path}: [{k}] is out of range (the value has "
                             f"{_count(len(value), 'entry', 'entries')})")
        value = value[k]
    return value


def _sub_set(path: str, whole: Any, indices: tuple[Index, ...], value: Any) -> Any:
    """``whole`` with the element at ``indices`` replaced by ``value``."""
    whole = _as_lists(whole)
    _sub_get(path, whole, indices)  # range checks
    target = whole
    for k in indices[:-1]:
        target = target[k]
    target[indices[-1]] = value
    return whole


def _count(n: int, one: str, many: str | None = None) -> str:
    return f"{n} {one if n == 1 else (many or one + 's')}"


# ----- items: how one element's values are read and written ----------------------------------

@dataclass(frozen=True)
class Accessor:
    """How an item of an element is read (``get(element)``) and written
    (``set(element, value, path)``; None: read-only). ``simulator_only``
    marks a World item that only a Simulator can take."""

    get: Callable[[Any], Any] | None
    set: Callable[[Any, Any, str], None] | None = None
    simulator_only: bool = False


# World elements -------------------------------------------------------------------------

class _WorldRobot(NamedTuple):
    index: WorldIndex
    i: int


class _WorldBody(NamedTuple):
    index: WorldIndex
    id: int


def _ancestor_frame(node: Node) -> Frame:
    """The world frame of ``node``'s parent (Solids, Transforms and Poses above it)."""
    frames = []
    parent = node.parent
    while parent is not None:
        if isinstance(parent, Node) and {"translation", "rotation"} <= set(parent.field_names()):
            frames.append(Frame.from_fields(parent.get("translation"), parent.get("rotation")))
        parent = parent.parent
    out = Frame.identity()
    for f in reversed(frames):
        out = out.compose(f)
    return out


def _node_frame(node: Node) -> Frame:
    local = Frame.from_fields(node.get("translation"), node.get("rotation"))
    return _ancestor_frame(node).compose(local) if node.parent is not None else local


def _world_transform(body: _WorldBody) -> tuple[list[float], list[float]]:
    f = _node_frame(body.index.bodies[body.id].node)
    return _column_major(f.R), [float(v) for v in f.t]


def _set_world_transform(body: _WorldBody, value: Any, path: str) -> None:
    Rc, t = _pair(path, value, (9, 3), "(R, t): R 9 numbers (column-major), t 3 numbers")
    node = body.index.bodies[body.id].node
    frame = Frame(np.array(Rc, dtype=np.float64).reshape(3, 3, order="F"), np.array(t))
    if node.parent is not None:
        frame = _ancestor_frame(node).inverse().compose(frame)
    node.set("translation", tuple(float(v) for v in frame.t))
    node.set("rotation", matrix_to_axis_angle(frame.R))


def _world_velocity(body: _WorldBody) -> tuple[list[float], list[float]]:
    node = body.index.bodies[body.id].node
    return ([float(v) for v in node.get("angularVelocity")],
            [float(v) for v in node.get("linearVelocity")])


def _set_world_velocity(body: _WorldBody, value: Any, path: str) -> None:
    w, v = _pair(path, value, (3, 3), "(w, v): two 3-vectors (rad/s, m/s)")
    node = body.index.bodies[body.id].node
    if node.get("physics") is None:
        raise ValueError(f"{path}: '{body_name(node)}' has no physics (a terrain): no velocity")
    node.set("angularVelocity", tuple(w))
    node.set("linearVelocity", tuple(v))


def _world_config(robot: _WorldRobot) -> list[float]:
    return [axis_position(a) for a in robot.index.robots[robot.i].axes]


def _set_world_config(robot: _WorldRobot, value: Any, path: str) -> None:
    axes = robot.index.robots[robot.i].axes
    q = _numbers(path, value, len(axes), f"{_count(len(axes), 'number')} (the robot's config)")
    for ref, v in zip(axes, q, strict=True):
        set_axis_position(ref, v)


_WORLD_ROBOT_ITEMS = {
    "config": Accessor(_world_config, _set_world_config),
    "velocity": Accessor(None, None, simulator_only=True),
    "name": Accessor(lambda r: body_name(r.index.robots[r.i].node)),
}
_WORLD_BODY_ITEMS = {
    "transform": Accessor(_world_transform, _set_world_transform),
    "velocity": Accessor(_world_velocity, _set_world_velocity),
    "name": Accessor(lambda b: body_name(b.index.bodies[b.id].node)),
    "id": Accessor(lambda b: b.id),
}

# Simulator elements ---------------------------------------------------------------------


class _SimRobot(NamedTuple):
    sim: Any
    i: int


class _SimBody(NamedTuple):
    sim: Any
    id: int


def _listed(values: Sequence) -> list[float]:
    return [float(v) for v in values]


def _sim_transform(body: _SimBody) -> tuple[list[float], list[float]]:
    R, t = body.sim.body(body.id).getTransform()
    return _listed(R), _listed(t)


def _set_sim_transform(body: _SimBody, value: Any, path: str) -> None:
    R, t = _pair(path, value, (9, 3), "(R, t): R 9 numbers (column-major), t 3 numbers")
    body.sim.body(body.id).setTransform(R, t)


def _sim_velocity(body: _SimBody) -> tuple[list[float], list[float]]:
    w, v = body.sim.body(body.id).getVelocity()
    return _listed(w), _listed(v)


def _set_sim_velocity(body: _SimBody, value: Any, path: str) -> None:
    w, v = _pair(path, value, (3, 3), "(w, v): two 3-vectors (rad/s, m/s)")
    body.sim.body(body.id).setVelocity(w, v)


def _set_sim_robot_velocity(robot: _SimRobot, value: Any, path: str) -> None:
    n = len(robot.sim.index.robots[robot.i].axes)
    robot.sim.setRobotVelocity(robot.i, _numbers(path, value, n, f"{_count(n, 'number')}"))


def _controller_item(method: str) -> Accessor:
    return Accessor(lambda r: _listed(getattr(r.sim.controller(r.i), method)()))


_SIM_ROBOT_ITEMS = {
    "config": Accessor(lambda r: _listed(r.sim.controller(r.i).getSensedConfig())),
    "velocity": Accessor(lambda r: _listed(r.sim.controller(r.i).getSensedVelocity()),
                         _set_sim_robot_velocity),
    "name": Accessor(lambda r: body_name(r.sim.index.robots[r.i].node)),
}
_SIM_CONTROLLER_ITEMS = {
    "commandedConfig": _controller_item("getCommandedConfig"),
    "commandedVelocity": _controller_item("getCommandedVelocity"),
    "sensedConfig": _controller_item("getSensedConfig"),
    "sensedVelocity": _controller_item("getSensedVelocity"),
}
_SIM_BODY_ITEMS = {
    "transform": Accessor(_sim_transform, _set_sim_transform),
    "velocity": Accessor(_sim_velocity, _set_sim_velocity),
    "name": Accessor(lambda b: body_name(b.sim.index.bodies[b.id].node)),
    "id": Accessor(lambda b: b.id),
}


# ----- collections ------------------------------------------------------------------------

@dataclass(frozen=True)
class Collection:
    """A named list of elements of a root (a World's robots, a Simulator's
    bodies...): ``members(index)`` -> the element keys (robot indices or body
    IDs), ``make(root, index, key)`` -> the element, its ``items``, and the
    words for errors (``one``: "robot")."""

    members: Callable[[WorldIndex], list[int]]
    make: Callable[[Any, WorldIndex, int], Any]
    items: dict[str, Accessor]
    one: str
    by_id: bool = False  # indexed by body ID (bodies[id]) rather than position
    of_robots: bool = False  # members are robot indices (names from the Robot nodes)

    def name(self, index: WorldIndex, key: int) -> str:
        """The name of member ``key`` (its DEF name, else its ``name`` field)."""
        return body_name(index.robots[key].node if self.of_robots else index.bodies[key].node)


def _robots(index: WorldIndex) -> list[int]:
    return list(range(len(index.robots)))


def _all_bodies(index: WorldIndex) -> list[int]:
    return list(range(len(index.bodies)))


def _world_robot(_root: Any, index: WorldIndex, i: int) -> _WorldRobot:
    return _WorldRobot(index, i)


def _world_body(_root: Any, index: WorldIndex, i: int) -> _WorldBody:
    return _WorldBody(index, i)


def _sim_robot(root: Any, _index: WorldIndex, i: int) -> _SimRobot:
    return _SimRobot(root, i)


def _sim_body(root: Any, _index: WorldIndex, i: int) -> _SimBody:
    return _SimBody(root, i)


WORLD_COLLECTIONS: dict[str, Collection] = {
    "robots": Collection(_robots, _world_robot, _WORLD_ROBOT_ITEMS, "robot", of_robots=True),
    "rigidObjects": Collection(lambda ix: ix.rigid_objects, _world_body, _WORLD_BODY_ITEMS,
                               "rigid object"),
    "terrains": Collection(lambda ix: ix.terrains, _world_body, _WORLD_BODY_ITEMS, "terrain"),
    "bodies": Collection(_all_bodies, _world_body, _WORLD_BODY_ITEMS, "body", by_id=True),
}
SIM_COLLECTIONS: dict[str, Collection] = {
    "robots": Collection(_robots, _sim_robot, _SIM_ROBOT_ITEMS, "robot", of_robots=True),
    "controllers": Collection(_robots, _sim_robot, _SIM_CONTROLLER_ITEMS, "controller",
                              of_robots=True),
    "rigidObjects": Collection(lambda ix: ix.rigid_objects, _sim_body, _SIM_BODY_ITEMS,
                               "rigid object"),
    "terrains": Collection(lambda ix: ix.terrains, _sim_body, _SIM_BODY_ITEMS, "terrain"),
    "bodies": Collection(_all_bodies, _sim_body, _SIM_BODY_ITEMS, "body", by_id=True),
}
#: Scalars of a Simulator root (``time``).
SIM_SCALARS: dict[str, Accessor] = {"time": Accessor(lambda sim: float(sim.getTime()))}


# ----- resolution -------------------------------------------------------------------------

class _Root(NamedTuple):
    obj: Any
    index: WorldIndex
    collections: dict[str, Collection]
    scalars: dict[str, Accessor]
    owner: str  # "the world" / "the simulator"


def _root(obj: Any) -> _Root:
    if isinstance(obj, World):
        return _Root(obj, index_world(obj), WORLD_COLLECTIONS, {}, "the world")
    index = getattr(obj, "index", None)
    if isinstance(index, WorldIndex):
        return _Root(obj, index, SIM_COLLECTIONS, SIM_SCALARS, "the simulator's world")
    raise ValueError(f"access: expected an engine.world World or a Simulator, got "
                     f"{type(obj).__name__}")


class Resolved(NamedTuple):
    """A path resolved on a root: the element (or the root for a scalar), the
    accessor of its item and the indices into the item's value."""

    element: Any
    accessor: Accessor
    indices: tuple[Index, ...]


def _pick(path: str, root: _Root, coll_name: str, coll: Collection, key: Index) -> int:
    members = coll.members(root.index)
    if isinstance(key, str):
        for m in members:
            if coll.name(root.index, m) == key:
                return m
        names = ", ".join(coll.name(root.index, m) for m in members) or "none"
        raise ValueError(f"{path}: {root.owner} has no {coll.one} named '{key}' "
                         f"({coll_name}: {names})")
    if coll.by_id:
        if 0 <= key < len(members):
            return key
    elif 0 <= key < len(members):
        return members[key]
    plural = "bodies" if coll.one == "body" else None
    raise ValueError(f"{path}: {coll_name}[{key}]: {root.owner} has "
                     f"{_count(len(members), coll.one, plural)}")


def _resolve(root: _Root, path: str) -> Resolved:
    steps = parse_path(path)
    first = steps[0]
    if first.name in root.scalars and len(steps) == 1:
        return Resolved(root.obj, root.scalars[first.name], first.indices)
    coll = root.collections.get(first.name)
    if coll is None:
        known = ", ".join([*root.collections, *root.scalars])
        raise ValueError(f"{path}: '{first.name}' is not an item of {root.owner} "
                         f"(known: {known})")
    if len(first.indices) != 1:
        raise ValueError(f"{path}: '{first.name}' takes one index, e.g. {first.name}[0]")
    key = _pick(path, root, first.name, coll, first.indices[0])
    element = coll.make(root.obj, root.index, key)
    if len(steps) != 2:
        raise ValueError(f"{path}: expected {first.name}[i].<item> "
                         f"(items: {', '.join(coll.items)})")
    item = steps[1]
    accessor = coll.items.get(item.name)
    if accessor is None:
        raise ValueError(f"{path}: a {coll.one} has no item '{item.name}' "
                         f"(items: {', '.join(coll.items)})")
    return Resolved(element, accessor, item.indices)


def needs_simulator(world: World, path: str) -> bool:
    """True when ``path`` names an item only a Simulator can take (ValueError
    for a bad path)."""
    return _resolve(_root(world), path).accessor.simulator_only


def get_item(obj: World | Any, path: str) -> Any:
    """The value at ``path`` of a World or a Simulator (module docstring):
    floats, lists of floats, or ``(R, t)`` / ``(w, v)`` pairs of lists."""
    r = _resolve(_root(obj), path)
    if r.accessor.get is None:
        raise SimulatorOnlyError(f"{path}: only a Simulator has this item")
    return _sub_get(path, r.accessor.get(r.element), r.indices)


def set_item(obj: World | Any, path: str, value: Any) -> None:
    """Write ``value`` at ``path`` of a World or a Simulator. Raises
    `SimulatorOnlyError` for an item only a Simulator takes, ValueError for a
    bad path, a read-only item or a value of the wrong shape."""
    r = _resolve(_root(obj), path)
    if r.accessor.simulator_only:
        raise SimulatorOnlyError(f"{path}: only a Simulator can take this item (the batch "
                                 f"applies it once the Simulator is built)")
    if r.accessor.set is None:
        raise ValueError(f"{path}: read-only")
    if r.indices:
        value = _sub_set(path, r.accessor.get(r.element), r.indices, value)
    r.accessor.set(r.element, value, path)


def flatten(value: Any) -> list:
    """The scalars of a nested value, depth first (``(R, t)`` -> 12 numbers)."""
    if isinstance(value, (list, tuple)):
        return [x for v in value for x in flatten(v)]
    return [value]


def flat_names(path: str, value: Any) -> list[str]:
    """Path names of ``flatten(value)``'s scalars: ``path`` for a scalar,
    ``path[i]`` / ``path[i][j]`` for nested values (each a valid path)."""
    if isinstance(value, (list, tuple)):
        return [n for i, v in enumerate(value) for n in flat_names(f"{path}[{i}]", v)]
    return [path]

