"""A collision pass judged by a collide callback, with default contacts made in
bulk for the pairs it leaves (decision 0025).

The callback (a plugin's webots_physics_collide, through a `PairJudge`) sees
every candidate pair in dSpaceCollide's order after the narrow phase has
run for all of them. The default contacts of the pairs it returned 0 for
are made in bulk; the pairs judged so far get theirs just before the
callback creates a joint of its own (``World.before_joint_creation``), so
the joints come out in the per-pair path's order.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple

import numpy as np

from engine.ode.collision.batch import SpaceContacts
from engine.sim.contact_batch import ContactBatch, DefaultContactRules, default_contact_joints


class PairJudge(NamedTuple):
    """A collide callback asked about a whole collision pass (what a
    simulation's ``collide_session`` gives; `judge_each` makes one of a plain
    hook).

    ``ask(first, second, results)`` asks about the pairs ``(first[k],
    second[k])`` in order and appends what the callback returned for each to
    the list ``results`` as soon as it returns, so that a joint the callback
    makes meanwhile sees the pairs judged so far. It may stop early (a fault);
    the pairs it did not ask about count as 0. It returns ``verdicts(results)``
    of the whole pass.
    ``verdicts(results)`` -> (len(results),) uint8: what those return values
    mean: 0 default contacts, 1 handled, 2 handled and colliding.
    """

    ask: Callable[[list, list, list], np.ndarray]
    verdicts: Callable[[list], np.ndarray]


def judge_each(hook: Callable[[object, object], object]) -> PairJudge:
    """A `PairJudge` asking ``hook(g1, g2)`` about each pair in turn; its
    verdicts: 2 for 2 (handled, colliding), 1 for anything else true
    (handled), else 0."""
    def ask(first: list, second: list, results: list) -> np.ndarray:
        results.extend(map(hook, first, second))
        return verdicts(results)

    def verdicts(results: list) -> np.ndarray:
        return np.fromiter((2 if r == 2 else 1 if r else 0 for r in results), dtype=np.uint8,
                           count=len(results))

    return PairJudge(ask, verdicts)


class JudgedPass:
    """One judged collision pass over the candidate pairs of ``sc`` (default
    contacts into ``world`` and ``group`` by the rules ``how``).

    `ask` runs the judge over every pair; `finish` makes the default contacts
    left and returns them. ``handled`` gets ``(id(g1), id(g2))`` of the pairs
    the judge handled (1 or 2), ``colliding`` the geoms of those it said
    collide (2).

    An object rather than closures: ``world.before_joint_creation`` holds the
    bound `flush` only while the judge runs, so a pass leaves no reference
    cycle (with the garbage collector off, as in benchmarks, each cycle kept
    every array of its pass alive, and the step after ran ~20 % slower).
    """

    def __init__(self, sc: SpaceContacts, world, group, how: DefaultContactRules) -> None:
        self.sc = sc
        self.world = world
        self.group = group
        self.how = how
        self.first, self.second = sc.ga.objects.take(sc.pairs.T).tolist()
        self.results: list = []  # what the judge's callback returned, pair by pair
        self.verdicts = np.zeros(0, dtype=np.uint8)  # of ``results``, once the judge is done
        self.flushed = 0  # the pairs before this one have their default contacts
        self.batches: list[ContactBatch] = []
        self.judge: PairJudge | None = None

    def ask(self, judge: PairJudge, handled: set, colliding: set) -> None:
        """Ask ``judge`` about every pair, then note the pairs it handled and
        those it said collide."""
        world = self.world
        self.judge = judge
        world.before_joint_creation = self.flush
        try:
            self.verdicts = judge.ask(self.first, self.second, self.results)
        except BaseException:
            self.verdicts = judge.verdicts(self.results)
            raise
        finally:
            world.before_joint_creation = None
            verdicts = self.verdicts
            first, second = self.first, self.second
            for p in (np.flatnonzero(verdicts).tolist() if np.count_nonzero(verdicts) else ()):
                g1, g2 = first[p], second[p]
                handled.add((id(g1), id(g2)))
                if verdicts[p] == 2:
                    colliding.update((g1, g2))

    def flush(self) -> None:
        """Default contacts for the pairs judged 0 since the last flush (while
        the judge runs: just before the callback creates a joint)."""
        stop = len(self.results)
        self._default_contacts(stop, self.judge.verdicts(self.results[self.flushed:stop]))

    def _default_contacts(self, stop: int, judged: np.ndarray) -> None:
        """Default contacts for the pairs ``flushed`` to ``stop`` the judge
        returned 0 for (``judged``: their verdicts, (stop - flushed,) uint8)."""
        start = self.flushed
        self.flushed = stop
        pending = np.flatnonzero((judged == 0) & (self.sc.counts[start:stop] > 0)) + start
        if pending.size:
            world = self.world
            hook = world.before_joint_creation
            world.before_joint_creation = None  # our own joints must not flush again
            try:
                self.batches.append(default_contact_joints(self.sc, pending.astype(np.int64),
                                                           world, self.group, self.how))
            finally:
                world.before_joint_creation = hook

    def finish(self, solids: list) -> ContactBatch:
        """The default contacts of the pass, the pairs the judge never asked
        about (after a fault) counting as 0 (``solids``: the model's Solid
        records)."""
        if self.flushed == 0 and not np.count_nonzero(self.verdicts):
            # the usual pass: no pair handled, no joint made by the callback,
            # so the default contacts of every pair, as without a judge
            return default_contact_joints(self.sc, None, self.world, self.group, self.how)
        n = len(self.first)
        judged = np.zeros(n - self.flushed, dtype=np.uint8)
        asked = self.verdicts[self.flushed:]
        judged[:asked.shape[0]] = asked
        self._default_contacts(n, judged)
        return ContactBatch.joined(self.batches, solids)
