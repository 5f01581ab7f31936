"""Webots' default contacts for a whole space in one batched pass.

Used by `engine.sim.contacts.ContactHandler` when no collide hook is set (a
plugin without ``webots_physics_collide``, or no plugin): the broad and
narrow phases run in one compiled pass (`engine.ode.collision.batch`), the
pairs are filtered with the same rules as the per-pair near callback, and
the contact joints are written into the joint store in bulk. The joints
are the ones the per-pair path makes (same rows, values, attachment order),
so trajectories are bit-identical; the per-pair path's cost (a Python
near callback, dCollide, dJointCreateContact and dJointAttach per point)
is gone.

Two things differ from the per-pair path and are documented in
docs/decisions/0010-batched-default-contacts.md: dCollide also runs for
pairs the rules then drop (harmless for the built-in colliders; a
dSetColliderOverride function sees those calls), and the joints carry no
dJointFeedback: the forces are read from the joint store after the step
(`ContactBatch.capture_forces`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from engine.ode.collision.batch import SpaceContacts, make_contact_joints, space_contacts
from engine.ode.collision.contact_select import (
    ContactSelection,
    SelectedJoints,
    make_selected_joints,
    select_by_table,
    select_contacts,
)
from engine.ode.constants import dContactFDir1
from engine.ode.joints.contact import N_SURFACE, surface_record
from engine.ode.structs import dJointFeedback


class ContactBatch:
    """The default contacts of one step, as arrays.

    ``joint_rows (m,)`` int64 joint-store rows; ``contact_rows (m, 9)``: pos (3)
    m, normal (3) (into Solid 1), depth m, side1, side2; ``pair_of (m,)`` the
    index into ``solids`` of each contact's Solid-record pair; ``solid_pairs
    (p, 2)`` int64 those pairs as indices into ``records`` (the model's
    Solid records); ``solids`` the same as (record 1, record 2) tuples, made
    when first asked; ``forces`` (m, 12) f1, t1, f2, t2 [N, N·m] after
    `capture_forces`, else None.
    """

    __slots__ = ("joint_rows", "contact_rows", "pair_of", "solid_pairs", "records", "_solids",
                 "forces")

    def __init__(self, joint_rows: np.ndarray, contact_rows: np.ndarray,
                 pair_of: np.ndarray, solid_pairs: np.ndarray, records: list) -> None:
        self.joint_rows = joint_rows
        self.contact_rows = contact_rows
        self.pair_of = pair_of
        self.solid_pairs = solid_pairs
        self.records = records
        self._solids: list[tuple[object, object]] | None = None
        self.forces: np.ndarray | None = None

    @classmethod
    def joined(cls, batches: list[ContactBatch], records: list) -> ContactBatch:
        """One batch of the contacts of ``batches``, in order."""
        if len(batches) == 1:
            return batches[0]
        if not batches:
            return cls(np.zeros(0, dtype=np.int64), np.zeros((0, 9)), np.zeros(0, dtype=np.int64),
                       np.zeros((0, 2), dtype=np.int64), records)
        first_pair = np.cumsum([0] + [b.solid_pairs.shape[0] for b in batches[:-1]])
        return cls(np.concatenate([b.joint_rows for b in batches]),
                   np.concatenate([b.contact_rows for b in batches]),
                   np.concatenate([b.pair_of + k for b, k in
                                   zip(batches, first_pair.tolist(), strict=True)]),
                   np.concatenate([b.solid_pairs for b in batches]), records)

    @property
    def solids(self) -> list[tuple[object, object]]:
        """(Solid record 1, Solid record 2) of each pair."""
        if self._solids is None:
            recs = self.records
            self._solids = [(recs[a], recs[b]) for a, b in self.solid_pairs.tolist()]
        return self._solids

    def __len__(self) -> int:
        return int(self.joint_rows.shape[0])

    def capture_forces(self, world) -> None:
        """Copy the joints' forces (f1, t1, f2, t2) out of ``world``'s joint store;
        call after the step, before the contact group is emptied."""
        self.forces = world.joints.feedback[self.joint_rows, :12].copy()

    def feedback(self, c: int) -> dJointFeedback:
        """A dJointFeedback with contact ``c``'s captured forces (zeros before capture)."""
        fb = dJointFeedback()
        if self.forces is not None:
            f = self.forces[c]
            fb.f1, fb.t1, fb.f2, fb.t2 = f[0:3], f[3:6], f[6:9], f[9:12]
        return fb


def stored_feedback(joint) -> dJointFeedback:
    """A dJointFeedback with the forces (f1, t1, f2, t2) [N, N·m] the last world
    step applied through ``joint``, read from its world's joint store (zeros when
    it had no rows): the force of a contact joint a plugin made without giving
    it a dJointFeedback. Call after the step, before the joint's group is emptied."""
    row = joint.world.joints.feedback[joint.index]
    fb = dJointFeedback()
    fb.f1, fb.t1, fb.f2, fb.t2 = (row[k:k + 3].copy() for k in (0, 3, 6, 9))
    return fb


class SurfaceRows:
    """Contact-joint surface values per (Surface, swapped), computed once.

    ``params(surface, swapped) -> (dSurfaceParameters, need_fdir)`` is
    `engine.sim.contacts.surface_parameters`. `row` gives the joint mode
    (with dContactFDir1 when a friction direction is needed), the 14 surface
    values in record order, and whether fdir1 must be computed.
    """

    def __init__(self, params: Callable) -> None:
        self._params = params
        self._rows: dict = {}

    def row(self, surface, swapped: bool) -> tuple[int, list[float], bool]:
        key = (surface, swapped)
        got = self._rows.get(key)
        if got is None:
            sp, need_fdir = self._params(surface, swapped)
            if need_fdir:
                sp.mode |= dContactFDir1
            got = (*surface_record(sp), need_fdir)
            self._rows[key] = got
        return got


class PairRule:
    """What the default contacts of one pair of Solid records use: its surface,
    the joint mode and surface values (`SurfaceRows.row`), and whether fdir1
    must be computed."""

    __slots__ = ("surface", "mode", "values", "need_fdir")

    def __init__(self, surface, mode: int, values: list[float], need_fdir: bool) -> None:
        self.surface, self.mode, self.values, self.need_fdir = surface, mode, values, need_fdir


#: `PairRules.numbers` of a pair that makes no contacts / not decided yet.
NO_RULE, UNDECIDED = -1, -2
#: Above this many Solid records the rule numbers are kept in a dict, not a table.
DENSE_RECORDS = 4096
_NO_PAIRS = np.zeros(0, dtype=np.int64)


class PairRules:
    """`PairRule`s per ordered pair of Solid records, decided once per pair
    and kept (the rules and surfaces depend on the records and the
    ContactProperties only: `engine.sim.contacts.ContactHandler` is rebuilt
    when those change).

    ``records``: the model's Solid records (pairs are given as indices into
    it); ``allowed(r1, r2)`` the per-pair rules; ``surface_of(r1, r2)`` ->
    (Surface, swapped); ``surfaces`` the `SurfaceRows`. Each distinct rule
    gets a number; ``mode (R,)``, ``values (R, N_SURFACE)``, ``need_fdir
    (R,)`` and ``max_contacts (R,)`` are indexed by it.
    """

    def __init__(self, records: list, allowed: Callable, surface_of: Callable,
                 surfaces: SurfaceRows) -> None:
        self.records = records
        self._allowed = allowed
        self._surface_of = surface_of
        self._surfaces = surfaces
        n = len(records)
        #: rule number per (record 1, record 2), UNDECIDED until first met; an
        #: extra last row and column (index -1: a geom of no Solid) hold NO_RULE
        self._table = None
        if n <= DENSE_RECORDS:
            self._table = np.full((n + 1, n + 1), UNDECIDED, dtype=np.int32)
            self._table[n, :] = NO_RULE
            self._table[:, n] = NO_RULE
        self._sparse: dict[tuple[int, int], int] = {}
        self.rules: list[PairRule] = []
        self._number: dict[tuple, int] = {}
        self._by_surface: dict[tuple[int, bool], int] = {}
        self._arrays_for = -1

    def selection(self, sc: SpaceContacts, only: np.ndarray | None,
                  owner: np.ndarray) -> ContactSelection:
        """The contacts kept of the candidate pairs of ``sc`` (all, or ``only``
        (k,) int64; ``owner (g,)`` the Solid record of each geom, an index into
        ``records``, -1 for none): those of the pairs with a rule, at most its
        surface's maxContactJoints points each (the deepest, in contact order),
        pairs met for the first time decided now, in pair order."""
        if self._table is None:
            live, first, second, number = self._sparse_pair_numbers(sc, only, owner)
            return select_contacts(live, first, second, number, sc.counts, sc.pairs,
                                   self.arrays()[3], sc.rows)
        while True:
            # one compiled call; owner pairs met for the first time come back,
            # are decided, and the call runs again (then every pair is known)
            waiting, kept = select_by_table(
                sc.counts, _NO_PAIRS if only is None else only, only is not None, sc.pairs,
                owner, self._table, UNDECIDED, self.arrays()[3], sc.rows)
            if not waiting.shape[0]:
                return kept
            self._decide_waiting(waiting)

    def _sparse_pair_numbers(self, sc: SpaceContacts, only: np.ndarray | None, owner: np.ndarray
                             ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """Without a dense table: ``(live, first, second, number)`` (k,) int64
        each, the candidate pairs of ``sc`` with contacts (all, or ``only``),
        their Solid records (-1: a geom of no Solid) and their rule numbers
        (NO_RULE: the pair makes no contacts), decided in pair order."""
        live = np.flatnonzero(sc.counts > 0) if only is None else only
        first = owner[sc.pairs[live, 0]]
        second = owner[sc.pairs[live, 1]]
        number = np.array([self._decide(a, b) if a >= 0 and b >= 0 else NO_RULE for a, b in
                           zip(first.tolist(), second.tolist(), strict=True)], dtype=np.int64)
        return live, first, second, number

    def joints_in_one_call(self, sc: SpaceContacts, only: np.ndarray | None,
                           owner: np.ndarray, world, group) -> SelectedJoints | None:
        """`selection` and the contact joints of the contacts kept (into
        ``world`` and ``group``) in one compiled call (`make_selected_joints`),
        when nothing needs Python: a dense rule table (owner pairs met for
        the first time are decided first, then the call runs again), no rule
        with a friction direction, the geoms' bodies in ``world`` and no geoms
        given directly. None (nothing made) otherwise."""
        if self._table is None or sc.extra or sc.ga.world is not world:
            return None
        made = self._selected_joints(sc, only, owner, world, group)
        if made is not None and not made.known:
            # owner pairs met for the first time: decide them in pair order, then
            # again (every pair is known now; a new rule may need a friction direction)
            self._decide_waiting(made.owners)
            made = self._selected_joints(sc, only, owner, world, group)
        return made

    def _selected_joints(self, sc: SpaceContacts, only: np.ndarray | None, owner: np.ndarray,
                         world, group) -> SelectedJoints | None:
        """`make_selected_joints` by the rules decided so far; None when one
        of them needs a friction direction."""
        mode, values, need_fdir, max_contacts = self.arrays()
        if np.count_nonzero(need_fdir):
            return None
        return make_selected_joints(world, group, sc, only, owner, self._table, UNDECIDED,
                                    max_contacts, values, mode)

    def _decide_waiting(self, owners: np.ndarray) -> None:
        """Decide the owner pairs ``owners`` (u, 2) not decided yet, in order
        (a pair may come more than once)."""
        for a, b in owners.tolist():
            if self._table[a, b] == UNDECIDED:
                self._decide(a, b)

    def _decide(self, a: int, b: int) -> int:
        if self._table is None and (a, b) in self._sparse:
            return self._sparse[(a, b)]
        number = NO_RULE
        r1, r2 = self.records[a], self.records[b]
        if self._allowed(r1, r2):
            surface, swapped = self._surface_of(r1, r2)
            # the rule of a (Surface, swapped) is always the same one: found
            # by identity (the rules keep their Surfaces alive)
            number = self._by_surface.get((id(surface), swapped), -1)
            if number < 0:
                mode, values, need_fdir = self._surfaces.row(surface, swapped)
                key = (id(surface), mode, tuple(values), need_fdir)
                number = self._number.get(key, -1)
                if number < 0:
                    number = self._number[key] = len(self.rules)
                    self.rules.append(PairRule(surface, mode, values, need_fdir))
                self._by_surface[(id(surface), swapped)] = number
        if self._table is None:
            self._sparse[(a, b)] = number
        else:
            self._table[a, b] = number
        return number

    def arrays(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """(mode (R,) int64, values (R, N_SURFACE), need_fdir (R,) bool,
        max_contacts (R,) int64) of the rules decided so far."""
        if self._arrays_for != len(self.rules):
            rules = self.rules
            self._arrays = (np.array([r.mode for r in rules], dtype=np.int64),
                            np.array([r.values for r in rules], dtype=np.float64
                                     ).reshape(-1, N_SURFACE),
                            np.array([r.need_fdir for r in rules], dtype=bool),
                            np.array([r.surface.max_contacts for r in rules], dtype=np.int64))
            self._arrays_for = len(rules)
        return self._arrays


class SolidIndex:
    """The Solid record (as an index into ``records``) of each gathered geom.

    ``solid_of(geom)`` -> record or None (the model's geom map). The array is
    kept for as long as the broad phase gives the same geom list."""

    def __init__(self, records: list, solid_of: Callable) -> None:
        self._where = {id(rec): k for k, rec in enumerate(records)}
        self._solid_of = solid_of
        self._geoms: list | None = None
        self._index = np.zeros(0, dtype=np.int64)

    def of(self, geoms: list) -> np.ndarray:
        """(g,) int64: the record index of each of ``geoms``, -1 for none."""
        # the same geoms as last time (compared by identity, element by element)
        if geoms is not self._geoms and geoms != self._geoms:
            where = self._where
            self._index = np.array([where.get(id(self._solid_of(g)), -1) for g in geoms],
                                   dtype=np.int64)
            self._geoms = list(geoms)
        return self._index


@dataclass(frozen=True)
class DefaultContactRules:
    """What default contacts need besides the pairs: ``solid_index`` maps
    geoms to Solid records; ``rules`` gives each record pair's `PairRule`
    (none when the pair rules drop it: static pairs, one body, joints, robot
    self-collision; bodies joined by a joint are dropped by the batch
    already); ``fdir_of(normal (3,), r1, rotation)`` -> fdir1 (3,);
    ``too_many(r1, r2, n, keep)`` warns when a pair gives more than
    ``surface.max_contacts`` points (the deepest are kept, in contact order)."""

    solid_index: SolidIndex
    rules: PairRules
    fdir_of: Callable
    too_many: Callable


def batched_contacts(space, world, group, max_points: int,
                     how: DefaultContactRules) -> ContactBatch:
    """Default contact joints for every pair of ``space`` (into ``world``/``group``)."""
    return default_contact_joints(space_contacts(space, max_points, skip_joined=True), None,
                                  world, group, how)


def default_contact_joints(sc: SpaceContacts, only: np.ndarray | None, world, group,
                           how: DefaultContactRules) -> ContactBatch:
    """Default contact joints for the candidate pairs of ``sc`` (all, or the
    pair indices ``only`` (k,) int64, increasing, each with contacts)."""
    rules = how.rules
    records = rules.records
    owner = how.solid_index.of(sc.ga.geoms)
    made = rules.joints_in_one_call(sc, only, owner, world, group)
    if made is not None:
        if made.first_over >= 0:
            _warn_too_many(how, made.owners[made.first_over], made.first_over_count,
                           made.first_over_limit)
        return ContactBatch(made.joint_rows, made.rows, made.pair_of, made.owners, records)
    kept = rules.selection(sc, only, owner)
    mode, values, need_fdir, max_contacts = rules.arrays()
    number = kept.numbers
    if kept.first_over >= 0:
        _warn_too_many(how, kept.owners[kept.first_over], kept.first_over_count,
                       int(max_contacts[number[kept.first_over]]))
    sel = SpaceContacts()
    sel.ga = sc.ga
    sel.pairs = kept.pairs
    sel.counts = kept.counts
    sel.rows = kept.rows
    sel.g1 = kept.g1
    sel.g2 = kept.g2
    sel.extra = {}
    if sc.extra:  # geoms a user collider reported, keyed by contact index
        new_index = {c: k for k, c in enumerate(kept.source.tolist())}
        sel.extra = {new_index[c]: g for c, g in sc.extra.items() if c in new_index}
    fdir = None
    # (most worlds have no rule with a friction direction: one look at the rules)
    fdir_pairs = (np.flatnonzero(need_fdir.take(number)) if np.count_nonzero(need_fdir)
                  else _NO_PAIRS)
    if fdir_pairs.size:
        fdir = np.zeros((sel.rows.shape[0], 3))
        for c in np.flatnonzero(np.isin(kept.pair_of, fdir_pairs)).tolist():
            k = int(kept.pair_of[c])
            rot = rules.rules[int(number[k])].surface.friction_rotation[0]
            fdir[c] = how.fdir_of(sel.rows[c, 3:6], records[kept.owners[k, 0]], rot)
    joint_rows = make_contact_joints(world, group, sel, values.take(number, axis=0),
                                     mode.take(number), fdir)
    return ContactBatch(joint_rows, sel.rows, kept.pair_of, kept.owners, records)


def _warn_too_many(how: DefaultContactRules, owners: np.ndarray, count: int,
                   keep: int) -> None:
    """``how.too_many`` about a pair of owners ``owners`` (2,) (indices into the
    Solid records) that gave ``count`` points, of which its surface keeps ``keep``."""
    records = how.rules.records
    how.too_many(records[owners[0]], records[owners[1]], count, keep)
