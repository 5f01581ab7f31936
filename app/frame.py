"""`Frame`: the immutable snapshot the engine thread publishes for the GUI.

The engine thread builds one `Frame` after a step (or a command) with
`frame_from_simulation` and publishes it by swapping one reference; the GUI
reads the newest one on its 60 Hz timer. Everything in a Frame is a copy:
numpy arrays are read-only, mappings are read-only views, so the GUI never
sees a half-finished step and never races the engine.

Attribute names are a contract with the viewport, plots and scene tree.
"""

from __future__ import annotations

import weakref
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType

import numpy as np

from engine import ode
from engine.world import Node

Pose = tuple[np.ndarray, np.ndarray]


@dataclass(frozen=True)
class ContactInfo:
    """One contact point of the last step.

    ``pos`` (3,) [m] and ``normal`` (3,) in world coordinates, ``depth`` [m],
    ``force`` (3,) [N] on ``solid1`` from the contact joint's feedback (None
    when not recorded), ``solid1``/``solid2`` the Solid `Node`s (None for a
    geom a plugin created itself); ``plugin`` is True for a contact joint the
    physics plugin made itself (in dWebotsGetContactJointGroup()), whose force
    is known only when the plugin set a dJointFeedback on it.
    """

    pos: np.ndarray
    normal: np.ndarray
    depth: float
    force: np.ndarray | None
    solid1: Node | None
    solid2: Node | None
    plugin: bool = False


class ContactSet(Sequence[ContactInfo]):
    """The contacts of one step: a read-only sequence of `ContactInfo` backed by arrays.

    ``pos``, ``normal`` (m, 3), ``depth`` (m,) and ``force`` (m, 3) [N on
    ``solid1``] are read-only arrays (``force`` rows are NaN where no force is
    known, ``has_force`` (m,) bool says which); ``solid1``, ``solid2`` are
    tuples of Solid `Node`s (or None) and ``plugin`` (m,) bool marks the
    contacts a plugin made. Items are built on first use (readers that need
    only arrays never build them).
    """

    __slots__ = ("pos", "normal", "depth", "force", "has_force", "solid1", "solid2", "plugin",
                 "_items")

    def __init__(self, pos: np.ndarray, normal: np.ndarray, depth: np.ndarray,
                 force: np.ndarray, has_force: np.ndarray, solid1: tuple, solid2: tuple,
                 plugin: np.ndarray) -> None:
        for a in (pos, normal, depth, force, has_force, plugin):
            a.setflags(write=False)
        self.pos, self.normal, self.depth = pos, normal, depth
        self.force, self.has_force = force, has_force
        self.solid1, self.solid2, self.plugin = solid1, solid2, plugin
        self._items: list[ContactInfo | None] = [None] * len(depth)

    def __len__(self) -> int:
        return len(self._items)

    def __getitem__(self, i):  # type: ignore[override]
        if isinstance(i, slice):
            return tuple(self[k] for k in range(*i.indices(len(self))))
        item = self._items[i]
        if item is None:
            k = range(len(self))[i]
            item = self._items[k] = ContactInfo(
                self.pos[k], self.normal[k], float(self.depth[k]),
                self.force[k] if self.has_force[k] else None, self.solid1[k], self.solid2[k],
                plugin=bool(self.plugin[k]))
        return item

    def __repr__(self) -> str:
        return f"<ContactSet of {len(self)} contacts>"


NO_CONTACTS = ContactSet(np.zeros((0, 3)), np.zeros((0, 3)), np.zeros(0), np.zeros((0, 3)),
                         np.zeros(0, bool), (), (), np.zeros(0, bool))


@dataclass(frozen=True)
class Frame:
    """A snapshot of the simulation (see module docstring).

    ``poses`` maps every Solid `Node` (static ones included) to its world
    ``(position (3,), rotation (3, 3))``; ``pose_nodes`` (S,), ``pose_t``
    (S, 3) [m] and ``pose_R`` (S, 3, 3) hold the same poses as arrays, in the
    model's Solid order (``pose_nodes`` is the same tuple object for every
    frame of one model, so readers can cache an index per tuple); ``pose_v``
    (S, 3) [m/s] is the linear velocity of each Solid's origin (its body's
    velocity at that point; zero for static Solids);
    ``colliding`` holds the Solids whose boundingObject a plugin's collide
    callback marked with 2 in the last step;
    ``speed`` is simulated time / wall time over the last second; ``mode`` is
    "realtime", "fast" or "paused"; ``running`` is True when the engine thread
    is stepping; ``paused`` is its opposite, and ``pause_message`` says why
    when an error paused the simulation.
    """

    time_ms: float = 0.0
    steps: int = 0
    poses: Mapping[Node, Pose] = field(default_factory=lambda: MappingProxyType({}))
    pose_nodes: tuple[Node, ...] = ()
    pose_t: np.ndarray | None = None
    pose_R: np.ndarray | None = None
    pose_v: np.ndarray | None = None
    contacts: ContactSet = NO_CONTACTS
    colliding: frozenset[Node] = frozenset()
    paused: bool = True
    pause_message: str = ""
    speed: float = 0.0
    running: bool = False
    mode: str = "paused"


def _contact_set(sim, table: _PoseTable) -> ContactSet:
    """The default then the plugin contacts of the last step (arrays copied)."""
    pos, normal, depth, force, rec1, rec2 = sim.contact_arrays()
    n_default = len(depth)
    plugin_points = list(getattr(sim, "plugin_contacts", ()))
    if not n_default and not plugin_points:
        return NO_CONTACTS
    if force is None:
        force = np.full((n_default, 3), np.nan)
    parts = [(np.asarray(pos, np.float64), np.asarray(normal, np.float64),
              np.asarray(depth, np.float64), np.asarray(force, np.float64))]
    if plugin_points:
        m = len(plugin_points)
        fb = [cp.feedback for cp in plugin_points]
        parts.append((
            np.array([cp.pos for cp in plugin_points], np.float64).reshape(m, 3),
            np.array([cp.normal for cp in plugin_points], np.float64).reshape(m, 3),
            np.array([cp.depth for cp in plugin_points], np.float64),
            np.array([f.f1 if f is not None else (np.nan,) * 3 for f in fb],
                     np.float64).reshape(m, 3)))
        rec1 = list(rec1) + [cp.solid1 for cp in plugin_points]
        rec2 = list(rec2) + [cp.solid2 for cp in plugin_points]
    pos, normal, depth, force = (np.concatenate(a) for a in zip(*parts, strict=True))
    # the joint feedback's f1 acts on the joint's first body; a contact between a
    # static Solid 1 and a body is attached (None, body): f1 is on Solid 2's body,
    # so the force on Solid 1 is -f1 (ODE's reversed joint)
    force[_reversed(rec1, rec2)] *= -1.0
    node_of = table.node_of_record
    plugin = np.arange(len(depth)) >= n_default
    return ContactSet(pos, normal, depth, force, ~np.isnan(force).any(axis=1),
                      tuple(node_of(r) for r in rec1), tuple(node_of(r) for r in rec2),
                      plugin)


def _reversed(rec1: Sequence, rec2: Sequence) -> np.ndarray:
    """(m,) bool: contacts whose Solid 1 is static and Solid 2 has a body."""
    return np.fromiter((r1 is not None and r1.ode_body is None and r2 is not None
                        and r2.ode_body is not None for r1, r2 in zip(rec1, rec2, strict=True)),
                       bool, len(rec1))


def _colliding(sim, table: _PoseTable) -> frozenset[Node]:
    """Solids of the geoms a collide hook marked as colliding in the last step."""
    colliding = sim.colliding_geoms
    if not colliding:
        return frozenset()
    geom_solid = sim.model.geom_solid
    nodes = set()
    for g in colliding:
        rec = geom_solid.get(g)
        if rec is None and not ode.dGeomIsSpace(g):
            rec = table.record_of_body(ode.dGeomGetBody(g))
        if rec is not None:
            nodes.add(rec.node)
    return frozenset(nodes)


class _PoseTable:
    """Per-model lookups of `frame_from_simulation`, built once per `Model`.

    Static Solids keep one frozen pose for as long as their record's ``frame``
    object is the same; moving Solids are computed together from the body
    store's arrays: ``R = R_body[idx] @ R_offset``, ``t = R_body[idx] @ t_offset
    + pos_body[idx]`` (as `Simulation.solid_world_frame`). ``valid_for(model)``
    says whether the table still matches the model's records (identity checks).
    """

    def __init__(self, model) -> None:
        self.model = model
        self.records = list(model.solids)
        self.bodies = [rec.ode_body for rec in self.records]
        self.frames = [rec.frame for rec in self.records]
        self.offsets = [rec.body_offset if body is not None else None
                        for rec, body in zip(self.records, self.bodies, strict=True)]
        self.nodes = tuple(rec.node for rec in self.records)
        # every Solid's pose as read-only arrays, static rows filled once here;
        # the static Solids' entries of the pose dict are views of these rows
        self.static_t = np.zeros((len(self.records), 3))
        self.static_R = np.tile(np.eye(3), (len(self.records), 1, 1))
        static = [i for i, body in enumerate(self.bodies) if body is None]
        for i in static:
            frame = self.records[i].frame
            self.static_t[i] = np.asarray(frame.t, dtype=np.float64).reshape(3)
            self.static_R[i] = np.asarray(frame.R, dtype=np.float64).reshape(3, 3)
        self.static_t.setflags(write=False)
        self.static_R.setflags(write=False)
        self.static = {i: (self.static_t[i], self.static_R[i]) for i in static}
        self.moving = [i for i, body in enumerate(self.bodies) if body is not None]
        moving_bodies = [self.bodies[i] for i in self.moving]
        self.store_owner = moving_bodies[0].world if moving_bodies else None
        self.index = np.array([b.index for b in moving_bodies], dtype=np.intp)
        self.same_store = all(b.world is self.store_owner for b in moving_bodies)
        self.off_R = np.array([self.offsets[i].R for i in self.moving],
                              dtype=np.float64).reshape(-1, 3, 3)
        self.off_t = np.array([self.offsets[i].t for i in self.moving],
                              dtype=np.float64).reshape(-1, 3, 1)
        self._by_body = {id(rec.body): rec for rec in model.bodies}

    def valid_for(self, model) -> bool:
        """True when ``model``'s Solid records, bodies, frames and offsets are the
        ones this table was built from."""
        if model is not self.model or len(model.solids) != len(self.records):
            return False
        for i, rec in enumerate(model.solids):
            body = rec.ode_body
            if (rec is not self.records[i] or body is not self.bodies[i]
                    or (body is None and rec.frame is not self.frames[i])
                    or (body is not None and rec.body_offset is not self.offsets[i])):
                return False
        return True

    def poses(self, sim) -> tuple[dict[Node, Pose], np.ndarray, np.ndarray, np.ndarray]:
        """World pose of every Solid, in the model's order: as a dict of frozen
        (3,)/(3, 3) arrays, and as read-only arrays t (S, 3), R (S, 3, 3); and
        the velocity of each Solid's origin v (S, 3) [m/s] (zero when static)."""
        t_all, R_all = self.static_t.copy(), self.static_R.copy()
        v_all = np.zeros_like(t_all)
        if self.moving:
            t_all[self.moving], R_all[self.moving] = self._moving_poses(sim)
            v_all[self.moving] = self._moving_velocities(sim, t_all[self.moving])
        for a in (t_all, R_all, v_all):
            a.setflags(write=False)
        out: dict[Node, Pose] = {}
        for i, node in enumerate(self.nodes):
            pose = self.static.get(i)
            out[node] = pose if pose is not None else (t_all[i], R_all[i])
        return out, t_all, R_all, v_all

    def _moving_poses(self, sim) -> tuple[np.ndarray, np.ndarray]:
        """t (m, 3) and R (m, 3, 3) of the moving Solids (``self.moving`` order)."""
        if not self.same_store:  # bodies of several ODE worlds: one by one
            frames = [sim.solid_world_frame(self.records[i]) for i in self.moving]
            return (np.array([f.t for f in frames], dtype=np.float64).reshape(-1, 3),
                    np.array([f.R for f in frames], dtype=np.float64).reshape(-1, 3, 3))
        store = self.store_owner.bodies
        Rb = store.R[self.index]                       # (m, 3, 3)
        R = Rb @ self.off_R                             # (m, 3, 3)
        t = (Rb @ self.off_t)[:, :, 0] + store.pos[self.index]  # (m, 3)
        return t, R

    def _moving_velocities(self, sim, t: np.ndarray) -> np.ndarray:
        """v (m, 3) [m/s] of the moving Solids' origins ``t`` (m, 3) (``self.moving`` order)."""
        if not self.same_store:
            return np.array([ode.dBodyGetPointVel(self.bodies[i], *t[k])
                             for k, i in enumerate(self.moving)], np.float64).reshape(-1, 3)
        store = self.store_owner.bodies
        # rigid body: v(p) = v_com + w x (p - com)
        return store.lvel[self.index] + np.cross(store.avel[self.index],
                                                 t - store.pos[self.index])

    def node_of_record(self, rec) -> Node | None:
        """The Solid node of a record (None for None)."""
        return rec.node if rec is not None else None

    def record_of_body(self, body):
        """The record owning ``body`` (None when none does)."""
        return None if body is None else self._by_body.get(id(body))


_TABLES: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def _table_of(sim) -> _PoseTable:
    """The `_PoseTable` of ``sim``'s current model (rebuilt when it changed)."""
    table = _TABLES.get(sim)
    if table is None or not table.valid_for(sim.model):
        table = _TABLES[sim] = _PoseTable(sim.model)
    return table


def frame_from_simulation(sim, *, mode: str, running: bool, speed: float) -> Frame:
    """Snapshot ``sim`` (an `engine.sim.Simulation`); call it in the thread
    that owns the simulation, between steps. Per-model lookups are cached
    (`_PoseTable`); the moving Solids' poses are computed as arrays."""
    table = _table_of(sim)
    paused = bool(sim.paused) or not running
    poses, pose_t, pose_R, pose_v = table.poses(sim)
    return Frame(time_ms=float(sim.time_ms), steps=int(sim.steps),
                 poses=MappingProxyType(poses), pose_nodes=table.nodes, pose_t=pose_t,
                 pose_R=pose_R, pose_v=pose_v, contacts=_contact_set(sim, table),
                 colliding=_colliding(sim, table), paused=paused,
                 pause_message=str(sim.pause_message), speed=float(speed),
                 running=bool(running) and not sim.paused,
                 mode="paused" if paused else mode)
