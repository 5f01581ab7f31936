"""Which contacts of a batched collision pass become joints (compiled).

A near callback that decides pair by pair -- keep the pair or not, with
which surface, and at most how many of its points -- is a lookup in a table
of rule numbers indexed by the pair's owners (Webots' Solids, for
`engine.sim.contact_batch`) and, for a pair that gave too many points, a
choice of its deepest ones. These kernels do both for every candidate pair
of a pass (`engine.ode.collision.batch.SpaceContacts`) in one call each,
with the same result as deciding the pairs one by one in pair order;
`select_by_table` does both in one call, handing back the owner pairs the
table does not know yet (a pass's Python calls and returned arrays cost more
than its work), and
`make_selected_joints` also writes the contact joints of the contacts kept.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit

from engine.ode.collision.batch import (
    SpaceContacts,
    contact_flags,
    keep_contact_joints,
    write_contact_joints,
)
from engine.ode.constants import dJointTypeContact


class ContactSelection(NamedTuple):
    """The contacts :func:`select_contacts` keeps: per pair kept (q of them)
    and per contact kept (s of them)."""

    pairs: np.ndarray     #: (q, 2) int64 the pair's geoms
    owners: np.ndarray    #: (q, 2) int64 the pair's owners
    numbers: np.ndarray   #: (q,) int64 the pair's rule number
    counts: np.ndarray    #: (q,) int64 contacts kept of the pair
    pair_of: np.ndarray   #: (s,) int64 the contact's pair (index into ``pairs``)
    source: np.ndarray    #: (s,) int64 the contact's index in the pass's rows
    rows: np.ndarray      #: (s, 9) the contact rows
    g1: np.ndarray        #: (s,) int64 the contact's first geom
    g2: np.ndarray        #: (s,) int64 the contact's second geom
    first_over: int       #: first pair (index into ``pairs``) over its limit, -1: none
    first_over_count: int  #: the contacts that pair gave (0: none)


@njit(cache=True, nogil=True)
def pair_rule_numbers(counts, only, use_only, pairs, owner, table):
    """The rule numbers of the candidate pairs that gave contacts.

    ``counts (p,)`` contacts per candidate pair (negative or 0: none);
    ``only (k,)`` int64 the pairs to consider when ``use_only`` (increasing,
    each with contacts), else every pair with contacts; ``pairs (p, 2)``
    geom indices; ``owner (g,)`` the owner (table index) of each geom, -1
    for none; ``table (n + 1, n + 1)`` rule numbers per (owner 1, owner 2),
    whose last row and column stand for "no owner".

    Returns ``(live (k,), owner1 (k,), owner2 (k,), number (k,))`` int64:
    the pairs, their owners and their table entries (the caller decides
    the entries the table does not know yet).
    """
    if use_only:
        live = only.copy()
    else:
        k = 0
        for p in range(counts.shape[0]):
            if counts[p] > 0:
                k += 1
        live = np.empty(k, dtype=np.int64)
        k = 0
        for p in range(counts.shape[0]):
            if counts[p] > 0:
                live[k] = p
                k += 1
    none = table.shape[0] - 1
    n = live.shape[0]
    owner1 = np.empty(n, dtype=np.int64)
    owner2 = np.empty(n, dtype=np.int64)
    number = np.empty(n, dtype=np.int64)
    for i in range(n):
        a = owner[pairs[live[i], 0]]
        b = owner[pairs[live[i], 1]]
        owner1[i] = a
        owner2[i] = b
        number[i] = table[none if a < 0 else a, none if b < 0 else b]
    return live, owner1, owner2, number


@njit(cache=True, nogil=True)
def _depth_rank(crow, start, n, c):
    """Rank of contact ``start + c`` among the ``n`` contacts of its pair,
    deepest first, ties in contact order (rows ``crow``, depth in column 6)."""
    depth = crow[start + c, 6]
    rank = 0
    for d in range(n):
        other = crow[start + d, 6]
        if other > depth or (other == depth and d < c):
            rank += 1
    return rank


@njit(cache=True, nogil=True)
def select_contacts(live, owner1, owner2, number, counts, pairs, limit, crow):
    """The contacts of the pairs ``live`` (k,) (owners ``owner1``, ``owner2``
    (k,)) whose rule ``number`` (k,) is not negative, at most
    ``limit[number]`` per pair: the deepest, in contact order (ties: the
    first), as a :class:`ContactSelection`.

    ``counts (p,)``, ``pairs (p, 2)`` and ``crow (m, 9)`` (contact rows,
    depth in column 6) are the pass's, whose contacts are grouped by pair
    in pair order.
    """
    starts = np.empty(counts.shape[0] + 1, dtype=np.int64)
    starts[0] = 0
    for p in range(counts.shape[0]):
        starts[p + 1] = starts[p] + max(counts[p], 0)
    q = 0
    s = 0
    for i in range(live.shape[0]):
        if number[i] >= 0:
            q += 1
            s += min(counts[live[i]], limit[number[i]])
    kept_pairs = np.empty((q, 2), dtype=np.int64)
    owners = np.empty((q, 2), dtype=np.int64)
    numbers = np.empty(q, dtype=np.int64)
    got = np.empty(q, dtype=np.int64)
    pair_of = np.empty(s, dtype=np.int64)
    source = np.empty(s, dtype=np.int64)
    rows = np.empty((s, crow.shape[1]))
    g1 = np.empty(s, dtype=np.int64)
    g2 = np.empty(s, dtype=np.int64)
    first_over = -1
    first_over_count = 0
    q = 0
    s = 0
    for i in range(live.shape[0]):
        if number[i] < 0:
            continue
        p = live[i]
        n = counts[p]
        lim = limit[number[i]]
        start = starts[p]
        if n > lim and first_over < 0:
            first_over = q
            first_over_count = n
        for c in range(n):
            if n > lim and _depth_rank(crow, start, n, c) >= lim:
                continue
            pair_of[s] = q
            source[s] = start + c
            for t in range(crow.shape[1]):
                rows[s, t] = crow[start + c, t]
            g1[s] = pairs[p, 0]
            g2[s] = pairs[p, 1]
            s += 1
        kept_pairs[q, 0] = pairs[p, 0]
        kept_pairs[q, 1] = pairs[p, 1]
        owners[q, 0] = owner1[i]
        owners[q, 1] = owner2[i]
        numbers[q] = number[i]
        got[q] = min(n, lim)
        q += 1
    return ContactSelection(kept_pairs, owners, numbers, got, pair_of, source, rows, g1, g2,
                            first_over, first_over_count)


@njit(cache=True, nogil=True)
def undecided_owners(owner1, owner2, number, undecided):
    """(u, 2) int64: the owners ``(owner1[i], owner2[i])`` of the pairs whose
    rule ``number[i]`` is ``undecided`` (k,) each, in pair order (u may be 0)."""
    u = 0
    for i in range(number.shape[0]):
        if number[i] == undecided:
            u += 1
    waiting = np.empty((u, 2), dtype=np.int64)
    u = 0
    for i in range(number.shape[0]):
        if number[i] == undecided:
            waiting[u, 0] = owner1[i]
            waiting[u, 1] = owner2[i]
            u += 1
    return waiting


@njit(cache=True, nogil=True)
def select_by_table(counts, only, use_only, pairs, owner, table, undecided, limit, crow):
    """`pair_rule_numbers` then `select_contacts`, in one call.

    The arguments are theirs; ``undecided`` is the table entry of an owner
    pair not decided yet. Returns ``(waiting, selection)``: ``waiting`` (u,
    2) int64 the owners of the pairs whose entry is ``undecided``, in pair
    order; when there are any (u > 0) the selection is empty, for the caller
    to decide those entries and call again.
    """
    live, owner1, owner2, number = pair_rule_numbers(counts, only, use_only, pairs, owner, table)
    waiting = undecided_owners(owner1, owner2, number, undecided)
    if waiting.shape[0]:
        none = np.zeros(0, dtype=np.int64)
        return waiting, select_contacts(none, none, none, none, counts, pairs, limit, crow)
    return waiting, select_contacts(live, owner1, owner2, number, counts, pairs, limit, crow)


class SelectedJoints(NamedTuple):
    """What `make_selected_joints` made: the contact joints of the contacts
    kept (s of them, from q pairs), as `select_contacts` chooses them.

    Only what the callers read is returned: each array handed back to Python
    costs more than choosing the contacts of a small pass."""

    known: bool             #: False: some pairs' rules are not decided yet (nothing made)
    joint_rows: np.ndarray  #: (s,) int64 the joints' store rows, in contact order
    rows: np.ndarray        #: (s, 9) the contact rows
    pair_of: np.ndarray     #: (s,) int64 the contact's pair (index into ``owners``)
    owners: np.ndarray      #: (q, 2) int64 the pair's owners (when not ``known``: those
                            #: of the pairs not decided, in pair order)
    g1: np.ndarray          #: (s,) int64 the contact's first geom
    g2: np.ndarray          #: (s,) int64 the contact's second geom
    first_over: int         #: first pair (index into ``owners``) over its limit, -1: none
    first_over_count: int   #: the contacts that pair gave (0: none)
    first_over_limit: int   #: the contacts its rule keeps (0: none)


@njit(cache=True, nogil=True)
def select_and_write(counts, only, use_only, pairs, owner, table, undecided, limit, crow,
                     values, modes, gbody, base_flags, joint_type, batch_key, first_seq,
                     first_attach, free_rows, free_count, count, types, jflags, jseq, jbody,
                     attach_seq, data, idata, bulk):
    """`select_by_table`, then the contact joints of the contacts kept, each
    with its pair's rule: surface values ``values[number]`` (R, 14) and mode
    ``modes[number]`` (R,) (`write_contact_joints`, whose store arguments
    these are; the caller made room for every contact of ``crow``).

    Returns a `SelectedJoints`; when a pair's table entry is ``undecided``,
    nothing is written and its ``owners`` are those of the pairs to decide.
    """
    waiting, kept = select_by_table(counts, only, use_only, pairs, owner, table, undecided,
                                    limit, crow)
    if waiting.shape[0]:
        # the owner pairs to decide, and nothing made
        none = np.zeros(0, dtype=np.int64)
        return SelectedJoints(False, none, kept.rows, none, waiting, none, none, -1, 0, 0)
    q = kept.numbers.shape[0]
    pair_values = np.empty((q, values.shape[1]))
    pair_modes = np.empty(q, dtype=np.int64)
    for i in range(q):
        number = kept.numbers[i]
        for k in range(values.shape[1]):
            pair_values[i, k] = values[number, k]
        pair_modes[i] = modes[number]
    rows = write_contact_joints(kept.rows, kept.g1, kept.g2, gbody, kept.counts, pair_values,
                                pair_modes, True, np.zeros((0, 3)), base_flags, joint_type,
                                batch_key, first_seq, first_attach, free_rows, free_count, count,
                                types, jflags, jseq, jbody, attach_seq, data, idata, bulk)
    over_limit = 0
    if kept.first_over >= 0:
        over_limit = limit[kept.numbers[kept.first_over]]
    return SelectedJoints(True, rows, kept.rows, kept.pair_of, kept.owners, kept.g1, kept.g2,
                          kept.first_over, kept.first_over_count, over_limit)


def make_selected_joints(world, group, sc: SpaceContacts, only: np.ndarray | None,
                         owner: np.ndarray, table: np.ndarray, undecided: int,
                         limit: np.ndarray, values: np.ndarray,
                         modes: np.ndarray) -> SelectedJoints:
    """The contacts of ``sc`` kept by the rule table (as `select_by_table`
    keeps them: all the candidate pairs, or ``only`` (k,) int64) and their
    contact joints in ``world`` and ``group``, each with its rule's surface
    ``values (R, 14)`` and mode ``modes (R,)``, in one compiled call
    (`select_and_write`). When the table has pairs not decided yet, nothing
    is made and the result is not ``known`` (its ``owners``: those pairs');
    the geoms of ``sc`` must have their bodies in ``world`` and no geoms
    given directly (``sc.extra``)."""
    store = world.joints
    seq0 = store.next_seq
    store.reserve(sc.rows.shape[0])  # room for every contact: at most these are kept
    made = select_and_write(
        sc.counts, _NO_INDICES if only is None else only, only is not None, sc.pairs, owner,
        table, undecided, limit, sc.rows, values, modes, sc.ga.body, contact_flags(group),
        dJointTypeContact, store.next_batch, seq0, store.next_attach, store.free_rows,
        store.free_count, store.count, store.type, store.flags, store.seq, store.body,
        store.attach_seq, store.data, store.idata, store.bulk)
    if made.known and made.joint_rows.shape[0]:
        keep_contact_joints(world, group, made.joint_rows, seq0, sc.ga.geoms, made.g1, made.g2,
                            {})
    return made


_NO_INDICES = np.zeros(0, dtype=np.int64)
