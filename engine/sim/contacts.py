"""Default collision handling (docs/simulation.md, "Default contacts";
docs/webots-behaviour.md, "Collision and default contacts").

For every candidate pair of `dSpaceCollide` the hook ``collide_hook(g1, g2)``
(a plugin's webots_physics_collide) runs first: 0 -> default handling,
1 -> handled, 2 -> handled and both geoms are reported as colliding. With 0,
a space on either side is recursed into with `dSpaceCollide2` (the hook runs
again for the sub-pairs), then default contacts are made only between two
geoms of Solids (never for geoms a plugin created), never between two static
Solids, Solids of one body, Solids joined by a joint (bodies connected by a
non-contact joint, or an endPoint and its static parent Solid), or two Solids
of the same Robot without ``selfCollision``.

Surface: the first ContactProperties whose material1/material2 match the two
Solids' contactMaterial in either order, else Webots' defaults (mu 1, bounce
0.5, bounce_vel 0.01, soft_erp 0.2, soft_cfm 0.001); mode Approx1 | SoftERP |
SoftCFM (+ Bounce, Mu2/FDir1, Slip, Rolling as needed); -1 means infinity.
Only the deepest ``maxContactJoints`` points are kept.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from contextlib import AbstractContextManager, nullcontext
from dataclasses import dataclass, field

import numpy as np

from engine import ode
from engine.ode.collision.batch import has_nested_spaces, space_contacts
from engine.ode.kernels.detlinalg import dot, matmul, norm
from engine.ode.kernels.detmath import sincos
from engine.sim.contact_batch import (
    ContactBatch,
    DefaultContactRules,
    PairRules,
    SolidIndex,
    SurfaceRows,
    batched_contacts,
)
from engine.sim.contact_columns import DefaultContactArrays, RecordLookup
from engine.sim.judged_pass import JudgedPass, judge_each

#: Contact points asked from dCollide per pair (Webots grows its buffer; we ask many).
MAX_POINTS = 1000


@dataclass(frozen=True)
class Surface:
    """The contact parameters of one material pair (ContactProperties values)."""

    coulomb: tuple[float, ...] = (1.0,)
    friction_rotation: tuple[float, float] = (0.0, 0.0)
    rolling: tuple[float, float, float] = (0.0, 0.0, 0.0)
    bounce: float = 0.5
    bounce_velocity: float = 0.01
    slip: tuple[float, ...] = (0.0,)
    soft_erp: float = 0.2
    soft_cfm: float = 0.001
    max_contacts: int = 10

    @staticmethod
    def of(node) -> Surface:
        """Values of a ContactProperties node."""
        return Surface(tuple(node.get("coulombFriction")) or (1.0,),
                       tuple(node.get("frictionRotation")), tuple(node.get("rollingFriction")),
                       node.get("bounce"), node.get("bounceVelocity"),
                       tuple(node.get("forceDependentSlip")) or (0.0,), node.get("softERP"),
                       node.get("softCFM"), node.get("maxContactJoints"))


DEFAULT_SURFACE = Surface()


def _inf(v: float) -> float:
    return ode.dInfinity if v == -1.0 else float(v)


def surface_parameters(s: Surface, swapped: bool) -> tuple[ode.dSurfaceParameters, bool]:
    """ODE surface parameters of ``s`` and whether an fdir1 is needed.

    ``swapped``: the first geom belongs to ``material2`` (3-4 coulombFriction
    values then take the second Solid's coefficients).
    """
    sp = ode.dSurfaceParameters()
    mode = ode.dContactApprox1 | ode.dContactSoftERP | ode.dContactSoftCFM
    mu = s.coulomb
    if len(mu) >= 3:
        mu = (mu[2], mu[3] if len(mu) > 3 else mu[2]) if swapped else mu[:2]
    sp.mu = _inf(mu[0])
    need_fdir = False
    if len(mu) >= 2 and mu[1] != mu[0]:
        mode |= ode.dContactMu2
        sp.mu2 = _inf(mu[1])
        need_fdir = True
    if s.bounce != 0.0:
        mode |= ode.dContactBounce
        sp.bounce = float(s.bounce)
        sp.bounce_vel = float(s.bounce_velocity)
    slip = s.slip
    if len(slip) >= 3:
        slip = (slip[2], slip[3] if len(slip) > 3 else slip[2]) if swapped else slip[:2]
    if slip[0] > 0.0:
        mode |= ode.dContactSlip1
        sp.slip1 = float(slip[0])
    s2 = slip[1] if len(slip) > 1 else slip[0]
    if s2 > 0.0:
        mode |= ode.dContactSlip2
        sp.slip2 = float(s2)
        need_fdir = need_fdir or len(slip) > 1
    if any(r != 0.0 for r in s.rolling):
        mode |= ode.dContactRolling
        sp.rho, sp.rho2, sp.rhoN = (_inf(r) for r in s.rolling)
    sp.soft_erp = float(s.soft_erp)
    sp.soft_cfm = float(s.soft_cfm)
    sp.mode = mode
    return sp, need_fdir


@dataclass
class ContactPoint:
    """A contact made by default handling: position (3,), normal (3,), depth [m],
    the two Solid records, and its joint feedback (when recorded)."""

    pos: np.ndarray
    normal: np.ndarray
    depth: float
    solid1: object
    solid2: object
    feedback: object = None


@dataclass
class ContactHandler:
    """Runs one collision pass: hook first, then default contacts.

    Without a hook the whole space is done in one batched pass
    (`engine.sim.contact_batch`; ``batched=False`` forces the per-pair path,
    which gives the same joints). ``contacts`` lists the default contacts of
    the last pass (`ContactPoint`s, built on first use after a batched pass).
    """

    model: object
    group: object
    warn: Callable[[str], None]
    collide_hook: Callable[[object, object], int] | None = None
    #: optional: a context manager factory giving the per-pair hook to use for
    #: one whole batched pass instead of ``collide_hook``
    collide_session: Callable[[], AbstractContextManager] | None = None
    record_feedback: bool = False
    colliding: set = field(default_factory=set)
    #: (id(g1), id(g2)) of the pairs the hook handled in the last pass
    handled: set = field(default_factory=set)
    batched: bool = True
    _points: list[ContactPoint] | None = field(default_factory=list)
    _batch: ContactBatch | None = None
    _warned_at: float = -math.inf
    _table: dict = field(default_factory=dict)
    _lookup: RecordLookup | None = None   # of `_lookup_of`, see `_record_lookup`
    _lookup_of: list | None = None

    def __post_init__(self) -> None:
        surfaces: dict[int, Surface] = {}
        for key, (node, swapped) in material_pairs(self.model.settings.contact_properties).items():
            surface = surfaces.setdefault(id(node), Surface.of(node))
            self._table[key] = (surface, swapped)
        self._surface_rows = SurfaceRows(surface_parameters)
        records = self.model.solids
        self._how = DefaultContactRules(
            SolidIndex(records, self.model.geom_solid.get),
            PairRules(records, solids_may_touch, self._surface_of, self._surface_rows),
            friction_direction, self._too_many)

    def lookup(self, mat1: str, mat2: str) -> tuple[Surface, bool]:
        """The first ContactProperties for (mat1, mat2) in either order, and
        whether mat1 matched its material2; defaults when none."""
        return self._table.get((mat1, mat2), (DEFAULT_SURFACE, False))

    @property
    def contacts(self) -> list[ContactPoint]:
        """The default contacts made by the last pass."""
        if self._points is None:
            b = self._batch
            rows = b.contact_rows
            solids = b.solids
            self._points = [
                ContactPoint(rows[c, 0:3].copy(), rows[c, 3:6].copy(), float(rows[c, 6]),
                             *solids[k], b.feedback(c) if self.record_feedback else None)
                for c, k in enumerate(b.pair_of.tolist())]
        return self._points

    @contacts.setter
    def contacts(self, points: list[ContactPoint]) -> None:
        self._points = list(points)
        self._batch = None

    def contact_count(self) -> int:
        """How many default contacts the last pass made (no `ContactPoint`s
        built after a batched pass)."""
        return len(self._batch) if self._batch is not None else len(self.contacts)

    def contact_arrays(self) -> DefaultContactArrays:
        """The default contacts of the last pass as arrays, without building
        `ContactPoint`s after a batched pass: pos (m, 3) m, normal (m, 3), depth
        (m,) m, force on Solid 1 (m, 3) N (None when feedback is not recorded;
        zeros before the step), Solid records 1 and 2 (sequences of m), and after
        a batched pass the records as indices into their `RecordLookup`."""
        b = self._batch
        if b is None:
            points = self.contacts
            m = len(points)
            force = None
            if self.record_feedback:
                force = np.array([p.feedback.f1 for p in points], dtype=np.float64).reshape(m, 3)
            return DefaultContactArrays(
                np.array([p.pos for p in points], dtype=np.float64).reshape(m, 3),
                np.array([p.normal for p in points], dtype=np.float64).reshape(m, 3),
                np.array([p.depth for p in points], dtype=np.float64),
                force, [p.solid1 for p in points], [p.solid2 for p in points])
        rows = b.contact_rows
        force = None
        if self.record_feedback:
            force = b.forces[:, 0:3] if b.forces is not None else np.zeros((len(b), 3))
        lookup = self._record_lookup(b.records)
        record1, record2 = b.solid_pairs[b.pair_of, 0], b.solid_pairs[b.pair_of, 1]
        return DefaultContactArrays(rows[:, 0:3], rows[:, 3:6], rows[:, 6], force,
                                    lookup.records[record1], lookup.records[record2],
                                    lookup, record1, record2)

    def _record_lookup(self, records: list) -> RecordLookup:
        """The `RecordLookup` of ``records`` (the model's Solid records), made again
        only when the list or its length changed."""
        if self._lookup is None or self._lookup_of is not records \
                or len(self._lookup.records) != len(records) + 1:
            self._lookup, self._lookup_of = RecordLookup.of(records), records
        return self._lookup

    def run(self, time_ms: float) -> None:
        """Collide the whole space; contacts go into ``group``."""
        self.contacts = []
        self.colliding = set()
        self.handled = set()
        self._time = time_ms
        if self.batched and self.collide_hook is None:
            self._batch = batched_contacts(self.model.space, self.model.ode_world, self.group,
                                           MAX_POINTS, self._how)
            self._points = None
            return
        if self.batched and not has_nested_spaces(self.model.space):
            self._batch = self._judged_batch(self.collide_hook)
            self._points = None
            return
        ode.dSpaceCollide(self.model.space, self.default_contacts, self._near)

    def _judged_batch(self, hook: Callable[[object, object], int]) -> ContactBatch:
        """The hook's verdict on every candidate pair, in dSpaceCollide's order,
        then default contacts in bulk for the pairs it left (returned 0), in the
        per-pair path's joint order (`engine.sim.judged_pass`)."""
        space = self.model.space
        judged = JudgedPass(space_contacts(space, MAX_POINTS, skip_joined=True),
                            self.model.ode_world, self.group, self._how)
        session = (self.collide_session() if self.collide_session
                   else nullcontext(judge_each(hook)))
        space.locked = True
        try:
            with session as judge:
                judged.ask(judge, self.handled, self.colliding)
        finally:
            space.locked = False
        return judged.finish(self.model.solids)

    def run_hook_only(self, hook: Callable[[object, object], int] | None
                      ) -> set[tuple[int, int]]:
        """The collision pass of the robust model: ``hook`` (the plugin's collide
        callback) sees every candidate pair as in `run` (spaces opened when it
        returns 0) but no default contacts are made. Returns the (id(g1), id(g2))
        pairs the hook handled (returned 1 or 2); 2 also marks them colliding."""
        self.contacts = []
        self.colliding = set()
        self.handled = set()
        self.collide_hook = hook
        if hook is not None:
            ode.dSpaceCollide(self.model.space, None, self._near)
        return self.handled

    def capture_forces(self) -> None:
        """After the step (before the contact group is emptied): keep the forces of
        a batched pass's joints when feedback is recorded."""
        b = self._batch
        if b is None or not self.record_feedback:
            return
        b.capture_forces(self.model.ode_world)
        if self._points is not None:  # listed before the step: give them the forces
            for c, cp in enumerate(self._points):
                fb = b.feedback(c)
                cp.feedback.f1, cp.feedback.t1 = fb.f1, fb.t1
                cp.feedback.f2, cp.feedback.t2 = fb.f2, fb.t2

    def _near(self, leaf, g1, g2) -> None:
        """The near callback: the hook first (a pair it handles is recorded in
        ``handled``), spaces opened, then ``leaf(g1, g2)`` (dSpaceCollide's data:
        `default_contacts`, or None when the robust model makes the contacts)."""
        hook = self.collide_hook
        result = hook(g1, g2) if hook is not None else 0
        if result:
            self.handled.add((id(g1), id(g2)))
            if result == 2:
                self.colliding.update((g1, g2))
            return
        if ode.dGeomIsSpace(g1) or ode.dGeomIsSpace(g2):
            ode.dSpaceCollide2(g1, g2, leaf, self._near)
            return
        if leaf is not None:
            leaf(g1, g2)

    def _surface_of(self, r1, r2) -> tuple[Surface, bool]:
        return self.lookup(r1.node.get("contactMaterial"), r2.node.get("contactMaterial"))

    def default_contacts(self, g1, g2) -> None:
        """Webots' default contact joints between two Solid geoms."""
        solids = touching_solids(self.model, g1, g2)
        if solids is None:
            return
        r1, r2 = solids
        b1, b2 = r1.ode_body, r2.ode_body
        points = ode.dCollide(g1, g2, MAX_POINTS)
        if not points:
            return
        surface, swapped = self._surface_of(r1, r2)
        if len(points) > surface.max_contacts:
            self._too_many(r1, r2, len(points), surface.max_contacts)
            order = sorted(range(len(points)), key=lambda i: -points[i].depth)
            points = [points[i] for i in sorted(order[: surface.max_contacts])]
        sp, need_fdir = surface_parameters(surface, swapped)
        for cg in points:
            self._make_contact(cg, sp, need_fdir, surface, r1, r2, b1, b2)

    def _make_contact(self, cg, sp, need_fdir, surface, r1, r2, b1, b2) -> None:
        c = ode.dContact()
        c.surface = sp
        c.geom = cg
        if need_fdir:
            c.surface.mode |= ode.dContactFDir1
            c.fdir1 = friction_direction(cg.normal, r1, surface.friction_rotation[0])
        j = ode.dJointCreateContact(self.model.ode_world, self.group, c)
        ode.dJointAttach(j, b1, b2)
        fb = None
        if self.record_feedback:
            fb = ode.dJointFeedback()
            ode.dJointSetFeedback(j, fb)
        self._points.append(ContactPoint(np.array(cg.pos, dtype=float),
                                         np.array(cg.normal, dtype=float), float(cg.depth),
                                         r1, r2, fb))

    def _too_many(self, r1, r2, n: int, keep: int) -> None:
        if self._time - self._warned_at >= 1000.0:
            self._warned_at = self._time
            self.warn(f"{n} contact points between {r1.label} and {r2.label}; keeping the "
                      f"deepest {keep} (ContactProperties.maxContactJoints)")


def touching_solids(model, g1, g2) -> tuple | None:
    """The Solid records (r1, r2) of two geoms when the pair rules let them
    touch (`solids_may_touch`, and bodies not joined by a non-contact joint),
    else None (a geom of no Solid included)."""
    r1 = model.geom_solid.get(g1)
    r2 = model.geom_solid.get(g2)
    if r1 is None or r2 is None or not solids_may_touch(r1, r2):
        return None
    b1, b2 = r1.ode_body, r2.ode_body
    if b1 is not None and b2 is not None and ode.dAreConnectedExcluding(
            b1, b2, ode.dJointTypeContact):
        return None
    return r1, r2


def material_pairs(nodes) -> dict[tuple[str, str], tuple[object, bool]]:
    """(material1, material2) -> (the first ContactProperties node for the two
    materials in either order, whether it matched them swapped)."""
    table: dict[tuple[str, str], tuple[object, bool]] = {}
    for node in nodes:
        pair = (node.get("material1"), node.get("material2"))
        for key, swapped in ((pair, False), (pair[::-1], True)):
            table.setdefault(key, (node, swapped))
    return table


def solids_may_touch(r1, r2) -> bool:
    """The pair rules but the joint test on two bodies: not two static Solids,
    not one body, not a joint endPoint and its parent, not one Robot's Solids
    without selfCollision."""
    b1, b2 = r1.ode_body, r2.ode_body
    if (b1 is None and b2 is None) or b1 is b2:
        return False
    if _jointed(r1, r2) or _jointed(r2, r1):
        return False
    return not (r1.robot is not None and r1.robot is r2.robot
                and not r1.robot.node.get("selfCollision"))


def _jointed(a, b) -> bool:
    """True if ``a`` (or the Solid whose body carries it) is a joint's endPoint
    whose parent Solid is ``b`` or shares ``b``'s body (covers static parents,
    which have no body for dAreConnected to see)."""
    top = a.owner if a.owner is not None else a
    parent = top.parent
    if not top.via_joint or parent is None:
        return False
    return parent is b or (parent.owner is not None and parent.owner is b.owner)


def friction_direction(normal, rec, rotation: float) -> np.ndarray:
    """fdir1 (3,): the first Solid's local x axis projected on the contact
    plane and turned by ``rotation`` [rad] about the normal."""
    n = np.asarray(normal, dtype=np.float64)
    body = rec.ode_body
    if body is not None:
        R = np.asarray(ode.dBodyGetRotation(body)).reshape(3, 4)[:, :3]
        x = matmul(R, rec.body_offset.R[:, 0])
    else:
        x = rec.frame.R[:, 0]
    d = x - dot(x, n) * n
    if norm(d) < 1e-9:
        d = np.cross(n, (0.0, 0.0, 1.0) if abs(n[2]) < 0.9 else (0.0, 1.0, 0.0))
    d /= norm(d)
    if rotation:
        s, c = sincos(rotation)
        d = d * c + np.cross(n, d) * s
    return d
