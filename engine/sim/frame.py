"""`Frame`: the immutable snapshot of a `Simulation` that a viewer draws, and its parts.

The simulation builds it (`Simulation.frame`) from its bulk-read API: every
Solid's pose as arrays (`SolidPoses`, `Simulation.solid_poses`) and the
contacts of the last step as arrays (`ContactSet`, `Simulation.contact_set`),
in the spirit of pymunk's batch API. Everything in a Frame is a copy: numpy
arrays are read-only, mappings are read-only views, so a reader in another
thread (the app's GUI) never sees a half-finished step and never races the
engine. The app's engine thread publishes one Frame after a step or a command
by swapping one reference; the GUI reads the newest one on its timer.

Attribute names are a contract with the app's viewport, plots and scene tree.
Nothing here imports Qt or the app.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import overload

import numpy as np

from engine import ode
from engine.ode.kernels.carried_frames import carried_velocities, compose_carried
from engine.sim.builder import Model, SolidRecord
from engine.sim.contact_columns import DefaultContactArrays, solid_columns
from engine.sim.contacts import ContactPoint
from engine.world import Node

#: A world pose: position (3,) [m] and rotation (3, 3).
Pose = tuple[np.ndarray, np.ndarray]

#: `ContactSet.state` of a contact whose state is not known (default contacts).
STATE_UNKNOWN = -1


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
    sequences of Solid `Node`s (or None): tuples, or `NodeColumn`s that gather
    their nodes on first read; and ``plugin`` (m,) bool marks the
    contacts a plugin made. Items are built on first use (readers that need
    only arrays never build them).
    """

    __slots__ = ("pos", "normal", "depth", "force", "has_force", "solid1", "solid2", "plugin",
                 "state", "cluster_size", "_items")

    def __init__(self, pos: np.ndarray, normal: np.ndarray, depth: np.ndarray,
                 force: np.ndarray, has_force: np.ndarray, solid1: Sequence[Node | None],
                 solid2: Sequence[Node | None], plugin: np.ndarray, *,
                 state: np.ndarray | None = None,
                 cluster_size: np.ndarray | None = None) -> None:
        m = len(depth)
        state = np.full(m, STATE_UNKNOWN, np.int8) if state is None else state
        cluster_size = np.ones(m, np.int64) if cluster_size is None else cluster_size
        for a in (pos, normal, depth, force, has_force, plugin, state, cluster_size):
            a.setflags(write=False)
        self.pos, self.normal, self.depth = pos, normal, depth
        self.force, self.has_force = force, has_force
        self.solid1, self.solid2, self.plugin = solid1, solid2, plugin
        self.state, self.cluster_size = state, cluster_size
        self._items: list[ContactInfo | None] = [None] * len(depth)

    @staticmethod
    def of(items: Sequence[ContactInfo]) -> ContactSet:
        """The set holding ``items`` (their arrays copied; a None force is a NaN row)."""
        m = len(items)
        if not m:
            return NO_CONTACTS
        force = np.array([c.force if c.force is not None else (np.nan,) * 3 for c in items],
                         np.float64).reshape(m, 3)
        return ContactSet(np.array([c.pos for c in items], np.float64).reshape(m, 3),
                          np.array([c.normal for c in items], np.float64).reshape(m, 3),
                          np.array([c.depth for c in items], np.float64),
                          force, np.array([c.force is not None for c in items], bool),
                          tuple(c.solid1 for c in items), tuple(c.solid2 for c in items),
                          np.array([c.plugin for c in items], bool))

    def __len__(self) -> int:
        return len(self._items)

    @overload
    def __getitem__(self, i: int) -> ContactInfo: ...

    @overload
    def __getitem__(self, i: slice) -> tuple[ContactInfo, ...]: ...

    def __getitem__(self, i: int | slice) -> ContactInfo | tuple[ContactInfo, ...]:
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
class SolidPoses:
    """The world pose of every Solid of a model (static ones included), as arrays.

    ``nodes`` (S,) are the Solid `Node`s in the model's Solid order (the same
    tuple object for every read of one model, so readers can cache an index
    per tuple) and ``labels`` (S,) their message names; ``t`` (S, 3) [m] and
    ``R`` (S, 3, 3) the positions and rotations of the Solids' frames; ``v``
    (S, 3) [m/s] the linear velocity of each Solid's origin (its body's
    velocity at that point; zero for static Solids). Arrays are read-only.
    """

    nodes: tuple[Node, ...]
    labels: tuple[str, ...]
    t: np.ndarray
    R: np.ndarray
    v: np.ndarray


@dataclass(frozen=True)
class Frame:
    """A snapshot of the simulation (see module docstring).

    ``poses`` maps every Solid `Node` (static ones included) to its world
    ``(position (3,), rotation (3, 3))``; ``pose_nodes`` (S,), ``pose_t``
    (S, 3) [m] and ``pose_R`` (S, 3, 3) hold the same poses as arrays, in the
    model's Solid order (``pose_nodes`` is the same tuple object for every
    frame of one model, so readers can cache an index per tuple); ``pose_v``
    (S, 3) [m/s] is the linear velocity of each Solid's origin (its body's
    velocity at that point; zero for static Solids); the arrays are None in a
    frame built from ``poses`` only;
    ``colliding`` holds the Solids whose boundingObject a plugin's collide
    callback marked with 2 in the last step;
    ``speed`` is simulated time / wall time over the last second; ``mode`` is
    "realtime", "fast" or "paused"; ``running`` is True when the engine thread
    is stepping; ``paused`` is its opposite, and ``pause_message`` says why
    when an error paused the simulation; ``contact_model`` is "default" or
    "robust" and ``contact_status`` the robust model's status of the last step
    (Normal, AdaptiveTimeStepping, ContactUnreliable, Unstable); ``paddings``
    maps each Solid with a boundary layer to its padding [m] (robust model).
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
    contact_model: str = "default"
    contact_status: str = "Normal"
    paddings: Mapping[Node, float] = field(default_factory=lambda: MappingProxyType({}))


class SolidPoseTable:
    """Per-model lookups of `read_poses`, built once per `Model`.

    Static Solids keep one frozen pose for as long as their record's ``frame``
    object is the same; moving Solids are composed together from their bodies'
    rows in the body store by the kernels of `engine.ode.kernels.carried_frames`
    (the same bits as `engine.sim.poses.solid_world_poses`). ``valid_for(model)``
    says whether the table still matches the model's records (identity checks).
    """

    def __init__(self, model: Model) -> None:
        self.model = model
        self.records = list(model.solids)
        self.bodies = [rec.ode_body for rec in self.records]
        self.offsets = [rec.body_offset if body is not None else None
                        for rec, body in zip(self.records, self.bodies, strict=True)]
        self.nodes = tuple(rec.node for rec in self.records)
        self.labels = tuple(rec.label for rec in self.records)
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
        self.moving_bodies = [self.bodies[i] for i in self.moving]
        self.moving_rows = np.array(self.moving, dtype=np.intp)
        self.store_owner = self.moving_bodies[0].world if self.moving_bodies else None
        self.index = np.array([b.index for b in self.moving_bodies], dtype=np.intp)
        self.same_store = all(b.world is self.store_owner for b in self.moving_bodies)
        self.off_R = np.array([self.offsets[i].R for i in self.moving],
                              dtype=np.float64).reshape(-1, 3, 3)
        self.off_t = np.array([self.offsets[i].t for i in self.moving],
                              dtype=np.float64).reshape(-1, 3)
        self._by_body = {id(rec.body): rec for rec in model.bodies}
        self.where = {node: i for i, node in enumerate(self.nodes)}
        self._frames_version = model.frames_version

    def valid_for(self, model: Model) -> bool:
        """True while ``model`` is the model this table was built from and no edit
        moved a static Solid since (`Model.frames_version`); a rebuild makes a
        new model."""
        return (model is self.model and len(model.solids) == len(self.records)
                and model.frames_version == self._frames_version)

    def read_poses(self) -> SolidPoses:
        """Every Solid's world pose and origin velocity now (see `SolidPoses`)."""
        t_all, R_all = self.static_t.copy(), self.static_R.copy()
        v_all = np.zeros_like(t_all)
        if self.moving:
            body_R, body_pos, body_lvel, body_avel, rows = self._body_states()
            # one pass without the GIL: world poses, then the rigid-body point
            # velocity v(p) = v_com + w x (p - com) of each Solid's origin
            compose_carried(body_R, body_pos, rows, self.off_R, self.off_t, self.moving_rows,
                            R_all, t_all)
            carried_velocities(body_pos, body_lvel, body_avel, rows, t_all, self.moving_rows,
                               v_all)
        for a in (t_all, R_all, v_all):
            a.setflags(write=False)
        return SolidPoses(self.nodes, self.labels, t_all, R_all, v_all)

    def pose_mapping(self, poses: SolidPoses) -> Mapping[Node, Pose]:
        """``poses`` as a read-only mapping Solid `Node` -> (t (3,), R (3, 3)); static
        Solids map to the same frozen arrays in every frame of the model. Made
        in constant time: entries are looked up when read."""
        return PoseMapping(self, poses)

    def _body_states(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """The moving Solids' bodies: R (n, 3, 3), position (n, 3) [m], linear (n, 3)
        [m/s] and angular (n, 3) [rad/s] velocity arrays, and each moving Solid's
        row in them (m,) (``self.moving`` order). One ODE world: its body store's
        own arrays (not copied); several: the rows gathered from their stores."""
        if self.same_store:
            store = self.store_owner.bodies
            return store.R, store.pos, store.lvel, store.avel, self.index
        rows = [(b.world.bodies, b.index) for b in self.moving_bodies]
        return (np.array([s.R[k] for s, k in rows], np.float64).reshape(-1, 3, 3),
                np.array([s.pos[k] for s, k in rows], np.float64).reshape(-1, 3),
                np.array([s.lvel[k] for s, k in rows], np.float64).reshape(-1, 3),
                np.array([s.avel[k] for s, k in rows], np.float64).reshape(-1, 3),
                np.arange(len(rows)))

    def record_of_body(self, body: object) -> SolidRecord | None:
        """The record owning ``body`` (None when none does)."""
        return None if body is None else self._by_body.get(id(body))


class PoseMapping(Mapping):
    """`SolidPoseTable.pose_mapping`: Solid `Node` -> (t (3,) [m], R (3, 3)), read
    from one frame's `SolidPoses` when asked (static Solids: the table's
    frozen rows)."""

    __slots__ = ("_table", "_poses")

    def __init__(self, table: SolidPoseTable, poses: SolidPoses) -> None:
        self._table = table
        self._poses = poses

    def __getitem__(self, node: Node) -> Pose:
        i = self._table.where[node]
        pose = self._table.static.get(i)
        return pose if pose is not None else (self._poses.t[i], self._poses.R[i])

    def __iter__(self) -> Iterator[Node]:
        return iter(self._table.nodes)

    def __len__(self) -> int:
        return len(self._table.nodes)


def contact_set(default: DefaultContactArrays | tuple, plugin_points: Sequence[ContactPoint],
                state: np.ndarray | None = None,
                cluster_size: np.ndarray | None = None) -> ContactSet:
    """The default then the plugin-made contacts of a step as one `ContactSet` (arrays
    copied). ``default`` is `ContactHandler.contact_arrays`' `DefaultContactArrays`
    (or a tuple of its first six fields); the plugin points' forces are their
    joint feedback's ``f1`` (NaN rows when none); ``state`` and ``cluster_size``
    (of the default part, robust model) go into the set's arrays (plugin
    contacts: unknown state, size 1)."""
    default = DefaultContactArrays(*default)
    pos, normal, depth, force = default.pos, default.normal, default.depth, default.force
    n_default = len(depth)
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
    pos, normal, depth, force = (np.concatenate(a) for a in zip(*parts, strict=True))
    solids = solid_columns(default, [cp.solid1 for cp in plugin_points],
                           [cp.solid2 for cp in plugin_points])
    # the joint feedback's f1 acts on the joint's first body; a contact between a
    # static Solid 1 and a body is attached (None, body): f1 is on Solid 2's body,
    # so the force on Solid 1 is -f1 (ODE's reversed joint)
    force[solids.reversed_joint] *= -1.0
    plugin = np.arange(len(depth)) >= n_default
    m = len(depth)
    all_state = np.full(m, STATE_UNKNOWN, np.int8)
    all_size = np.ones(m, np.int64)
    if state is not None:
        all_state[:n_default] = state
    if cluster_size is not None:
        all_size[:n_default] = cluster_size
    # a force is known when no component is NaN (three column tests: a third
    # of the time of np.isnan(force).any(axis=1))
    has_force = ~(np.isnan(force[:, 0]) | np.isnan(force[:, 1]) | np.isnan(force[:, 2]))
    return ContactSet(pos, normal, depth, force, has_force,
                      solids.nodes1, solids.nodes2, plugin, state=all_state,
                      cluster_size=all_size)


def colliding_solids(model: Model, geoms: set,
                     record_of_body: Callable[[object], SolidRecord | None]) -> frozenset[Node]:
    """Solids of ``geoms`` (the geoms a collide hook marked as colliding): a Solid's
    own geom, else the Solid owning the geom's body (a geom a plugin made)."""
    if not geoms:
        return frozenset()
    nodes = set()
    for g in geoms:
        rec = model.geom_solid.get(g)
        if rec is None and not ode.dGeomIsSpace(g):
            rec = record_of_body(ode.dGeomGetBody(g))
        if rec is not None:
            nodes.add(rec.node)
    return frozenset(nodes)
