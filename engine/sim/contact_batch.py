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

import numpy as np

from engine.ode.collision.batch import SpaceContacts, make_contact_joints, space_contacts
from engine.ode.constants import dContactFDir1
from engine.ode.joints.contact import N_SURFACE, surface_record
from engine.ode.structs import dJointFeedback


class ContactBatch:
    """The default contacts of one step, as arrays.

    ``joint_rows (m,)`` int64 joint-store rows; ``contact_rows (m, 9)``: pos (3)
    m, normal (3) (into Solid 1), depth m, side1, side2; ``pair_of (m,)`` the
    index into ``solids`` of each contact's Solid-record pair; ``forces``
    (m, 12) f1, t1, f2, t2 [N, N·m] after `capture_forces`, else None.
    """

    __slots__ = ("joint_rows", "contact_rows", "pair_of", "solids", "forces")

    def __init__(self, joint_rows: np.ndarray, contact_rows: np.ndarray,
                 pair_of: np.ndarray, solids: list[tuple[object, object]]) -> None:
        self.joint_rows = joint_rows
        self.contact_rows = contact_rows
        self.pair_of = pair_of
        self.solids = solids
        self.forces: np.ndarray | None = None

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


class PairRules:
    """`PairRule`s per pair of Solid records, decided once per pair and kept
    (the rules and surfaces depend on the records and the ContactProperties
    only: `engine.sim.contacts.ContactHandler` is rebuilt when those change).

    ``allowed(r1, r2)`` the per-pair rules; ``surface_of(r1, r2)`` ->
    (Surface, swapped); ``surfaces`` the `SurfaceRows`.
    """

    def __init__(self, allowed: Callable, surface_of: Callable, surfaces: SurfaceRows) -> None:
        self._allowed = allowed
        self._surface_of = surface_of
        self._surfaces = surfaces
        self._rules: dict[tuple[int, int], PairRule | None] = {}

    def __call__(self, r1, r2) -> PairRule | None:
        """The rule of the pair, or None when the pair makes no contacts."""
        key = (id(r1), id(r2))
        try:
            return self._rules[key]
        except KeyError:
            pass
        rule = None
        if self._allowed(r1, r2):
            surface, swapped = self._surface_of(r1, r2)
            mode, values, need_fdir = self._surfaces.row(surface, swapped)
            rule = PairRule(surface, mode, values, need_fdir)
        self._rules[key] = rule
        return rule


def batched_contacts(space, world, group, max_points: int, solid_of: Callable,
                     rule_of: PairRules, fdir_of: Callable, too_many: Callable) -> ContactBatch:
    """Default contact joints for every pair of ``space`` (into ``world``/``group``).

    ``solid_of(geom)`` -> Solid record or None; ``rule_of(r1, r2)`` -> the
    pair's `PairRule`, None when the pair rules drop it (static pairs, one
    body, joints, robot self-collision; bodies joined by a joint are dropped
    by the batch already); ``fdir_of(normal (3,), r1, surface)`` -> fdir1
    (3,); ``too_many(r1, r2, n, keep)`` warns when a pair gives more than
    ``surface.max_contacts`` points (the deepest are kept).
    """
    sc = space_contacts(space, max_points, skip_joined=True)
    counts = sc.counts
    start = np.concatenate(([0], np.cumsum(np.maximum(counts, 0)))).tolist()
    geoms = sc.ga.geoms
    pairs = sc.pairs.tolist()
    kept_pairs: list[int] = []
    kept_counts: list[int] = []
    kept: list[int] = []  # the source contact of each kept contact, in order
    table: list[list[float]] = []
    modes: list[int] = []
    solids: list[tuple[object, object]] = []
    fdirs: list[tuple[int, np.ndarray]] = []  # (first contact index, (k, 3)) of FDir1 pairs
    m = 0
    for p in np.flatnonzero(counts > 0).tolist():
        i, j = pairs[p]
        r1 = solid_of(geoms[i])
        r2 = solid_of(geoms[j])
        if r1 is None or r2 is None:
            continue
        rule = rule_of(r1, r2)
        if rule is None:
            continue
        surface = rule.surface
        a, b = start[p], start[p + 1]
        idx = list(range(a, b))
        if len(idx) > surface.max_contacts:
            too_many(r1, r2, len(idx), surface.max_contacts)
            depth = sc.rows[a:b, 6].tolist()
            order = sorted(range(len(idx)), key=lambda q: -depth[q])
            idx = [a + q for q in sorted(order[: surface.max_contacts])]
        if rule.need_fdir:
            rot = surface.friction_rotation[0]
            fdirs.append((m, np.array([fdir_of(sc.rows[q, 3:6], r1, rot)
                                       for q in idx]).reshape(-1, 3)))
        kept_pairs.append(p)
        kept_counts.append(len(idx))
        kept.extend(idx)
        table.append(rule.values)
        modes.append(rule.mode)
        solids.append((r1, r2))
        m += len(idx)
    sel = SpaceContacts()
    sel.ga = sc.ga
    sel.pairs = sc.pairs[kept_pairs].reshape(-1, 2)
    sel.counts = np.array(kept_counts, dtype=np.int64)
    sel.rows = sc.rows[np.array(kept, dtype=np.int64)] if kept else np.zeros((0, 9))
    sel.g1 = np.repeat(sel.pairs[:, 0], sel.counts)
    sel.g2 = np.repeat(sel.pairs[:, 1], sel.counts)
    sel.extra = {}
    if sc.extra:  # geoms a user collider reported, keyed by contact index
        new_index = {src: k for k, src in enumerate(kept)}
        sel.extra = {new_index[c]: g for c, g in sc.extra.items() if c in new_index}
    fdir = None
    if fdirs:
        fdir = np.zeros((m, 3))
        for first, block in fdirs:
            fdir[first:first + block.shape[0]] = block
    surface_table = np.array(table, dtype=np.float64).reshape(-1, N_SURFACE)
    joint_rows = make_contact_joints(world, group, sel, surface_table,
                                     np.array(modes, dtype=np.int64), fdir)
    pair_of = np.repeat(np.arange(len(solids), dtype=np.int64), sel.counts)
    return ContactBatch(joint_rows, sel.rows, pair_of, solids)
