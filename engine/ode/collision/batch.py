"""Whole-space contact generation in one compiled pass, and contact joints in bulk.

:func:`space_contacts` gathers a space's geoms into arrays
(:func:`~engine.ode.collision.spaces.broadphase.gather`), finds the candidate pairs
with the space's own broad phase, then runs the narrow phase for all pairs
in one ``nogil`` kernel for the classes that dominate real scenes (sphere,
box, capsule, cylinder, plane: the built-in colliders of the ``pairs``
modules ``colliders_sphere``, ``_plane``, ``_capsule``, ``_box_box`` and
``_cylinder``). Other class pairs, and pairs with a user override
(dSetColliderOverride), go through the Python
:func:`~engine.ode.collision.dispatch.dCollide`. The contacts are exactly
those of calling dCollide on every pair dSpaceCollide reports, in the same
order. Nested spaces are opened as the standard near callback does
(dSpaceCollide2 on a pair involving a space, then dSpaceCollide inside it).

:func:`create_contact_joints` then makes one contact joint per contact in
the world's joint store and a joint group, writing the records of
:mod:`engine.ode.joints.contact` directly: the same rows, record values,
flags and attachment order as dJointCreateContact + dJointAttach per point.

Contact rows are ``(m, 9)`` float64: ``pos (3) m, normal (3) (into geom 1),
depth m, side1, side2``.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from engine.ode.collision import dispatch
from engine.ode.collision.pairs.narrow import (  # noqa: F401 (K_*: named here for callers)
    K_FALLBACK,
    K_SB,
    PAIR_CONNECTED,
    PAIR_PYTHON,
    kernel_table,
    narrow_phase,
)
from engine.ode.collision.spaces.broadphase import GeomArrays, gather
from engine.ode.collision.spaces.space import Space, dSpaceCollide, dSpaceCollide2
from engine.ode.constants import dJointTypeContact
from engine.ode.joints.base import dAreConnectedExcluding
from engine.ode.joints.bulk import JointBatch, adopt_rows, register_batch, retire_batch
from engine.ode.joints.contact import DEPTH, FDIR1, I_MODE, NORMAL, POS, ContactJoint
from engine.ode.joints.contact import RECORD as CONTACT_RECORD
from engine.ode.joints.layout import JF_ALIVE, JF_ENABLED, JF_IN_GROUP, JF_REVERSE
from engine.ode.jointstore import take_rows


# ----------------------------------------------------------------------------- kernels
@njit(cache=True, nogil=True)
def connected_keys(nbody, count, jtype, jbody, jflags, exclude_type):
    """Sorted keys lo * nbody + hi (int64) of the body-row pairs joined by a live
    joint whose type is not ``exclude_type`` (dAreConnectedExcluding's test)."""
    keys = np.empty(count, dtype=np.int64)
    m = 0
    for j in range(count):
        if not jflags[j] & JF_ALIVE or jtype[j] == exclude_type:
            continue
        a = jbody[j, 0]
        b = jbody[j, 1]
        if a < 0 or b < 0:
            continue
        keys[m] = min(a, b) * nbody + max(a, b)
        m += 1
    return np.sort(keys[:m])


@njit(cache=True, nogil=True)
def contact_geoms(pairs, counts):
    """``(g1, g2, n_python)``: the geoms (m,) each of the contacts of the
    pairs ``pairs`` (p, 2) whose row counts are ``counts`` (p,) (negative:
    none), in pair order, and how many pairs are ``PAIR_PYTHON``."""
    m = 0
    n_python = 0
    for p in range(counts.shape[0]):
        if counts[p] > 0:
            m += counts[p]
        elif counts[p] == PAIR_PYTHON:
            n_python += 1
    g1 = np.empty(m, dtype=np.int64)
    g2 = np.empty(m, dtype=np.int64)
    c = 0
    for p in range(counts.shape[0]):
        for _ in range(counts[p]):
            g1[c] = pairs[p, 0]
            g2[c] = pairs[p, 1]
            c += 1
    return g1, g2, n_python


@njit(cache=True, nogil=True)
def write_contact_joints(crow, g1, g2, gbody, counts, table, modes, per_pair, fdir1, base_flags,
                         joint_type, batch_key, first_seq, first_attach, free_rows, free_count,
                         count, types, jflags, jseq, jbody, attach_seq, data, idata, bulk):
    """The contact joints of ``m`` contacts written into the joint store,
    exactly as ``m`` dJointCreateContact + dJointAttach calls make them.

    Contacts: rows ``crow`` (m, 9), geoms ``g1``, ``g2`` (m,) whose body
    rows are ``gbody[g]`` (-1: none). Surface: ``table`` (t, 14) record
    values and ``modes`` (t,); ``per_pair``: row p for the contacts of
    candidate pair p (``counts`` (p,) contacts per pair, negative: none),
    else row 0 for all. ``fdir1`` (0, 3) none, (1, 3) for all or (m, 3) per
    contact. Rows come from the free stack ``free_rows[:free_count]`` then
    from ``count`` on (:func:`take_rows`; the caller made room); each gets
    type ``joint_type``, creation number ``first_seq + c``, attachment number
    ``first_attach + c``, flags ``base_flags`` (with ``JF_REVERSE`` when only
    the second geom has a body, which then moves to slot 0) and
    ``bulk = batch_key``. Returns the rows (m,) int64.
    """
    m = crow.shape[0]
    rows = take_rows(m, free_rows, free_count, count)
    nfd = fdir1.shape[0]
    nfloat = table.shape[1]
    t = 0
    p = 0
    used = 0
    for c in range(m):
        if per_pair:
            while used >= counts[p]:
                p += 1
                used = 0
            used += 1
            t = p
        r = rows[c]
        types[r] = joint_type
        jseq[r] = first_seq + c
        for k in range(nfloat):
            data[r, k] = table[t, k]
        data[r, DEPTH] = crow[c, 6]
        for k in range(3):
            data[r, POS + k] = crow[c, k]
            data[r, NORMAL + k] = crow[c, 3 + k]
        if nfd > 0:
            f = c if nfd > 1 else 0
            for k in range(3):
                data[r, FDIR1 + k] = fdir1[f, k]
        idata[r, I_MODE] = modes[t]
        a = gbody[g1[c]]
        b = gbody[g2[c]]
        if a < 0:
            jbody[r, 0] = b
            jbody[r, 1] = -1
            jflags[r] = base_flags | JF_REVERSE
        else:
            jbody[r, 0] = a
            jbody[r, 1] = b
            jflags[r] = base_flags
        attach_seq[r] = first_attach + c
        bulk[r] = batch_key
    return rows


# ----------------------------------------------------------------------------- pairs
def _leaves(space: Space, out: list) -> None:
    for g in space.ordered():
        if isinstance(g, Space):
            _leaves(g, out)
        else:
            out.append(g)


def _recorded_pairs(space: Space) -> list:
    """Leaf pairs of a space holding spaces, in the standard recursive near
    callback's order (dSpaceCollide2 into a pair with a space, then
    dSpaceCollide inside each space of the pair)."""
    pairs: list = []

    def near(data, o1, o2):
        s1 = isinstance(o1, Space)
        s2 = isinstance(o2, Space)
        if s1 or s2:
            dSpaceCollide2(o1, o2, None, near)
            if s1:
                dSpaceCollide(o1, None, near)
            if s2:
                dSpaceCollide(o2, None, near)
        else:
            pairs.append((o1, o2))

    dSpaceCollide(space, None, near)
    return pairs


class SpaceContacts:
    """Contacts of a whole space.

    ``ga``: the gathered geoms; ``pairs (p, 2)`` candidate pairs (indices into
    ``ga.geoms``); ``counts (p,)`` contacts per pair (``PAIR_CONNECTED``: skipped);
    ``rows (m, 9)``; ``g1``, ``g2 (m,)`` geom indices of each contact;
    ``extra``: {contact index: (g1, g2)} geoms given by user colliders.
    """

    __slots__ = ("ga", "pairs", "counts", "rows", "g1", "g2", "extra")


_NO_CONN = np.zeros(0, dtype=np.int64)


def has_nested_spaces(space: Space) -> bool:
    """True if ``space`` holds another space."""
    return space.spaces_held > 0


def candidate_pairs(space: Space) -> tuple[GeomArrays, np.ndarray]:
    """The leaf geoms of ``space`` gathered into arrays and the candidate pairs
    (p, 2) (indices into ``ga.geoms``) dSpaceCollide reports for them, nested
    spaces opened as the standard recursive near callback does, in its order."""
    top = space.ordered()
    if has_nested_spaces(space):
        leaves: list = []
        _leaves(space, leaves)
        ga = gather(leaves, space.gather_cache)
        where = {id(g): i for i, g in enumerate(leaves)}
        rec = _recorded_pairs(space)
        pairs = np.array([(where[id(a)], where[id(b)]) for a, b in rec],
                         dtype=np.int64).reshape(-1, 2)
    else:
        ga = gather(top, space.gather_cache)
        pairs = space.reported_pairs(ga) if len(top) > 1 else np.zeros((0, 2), dtype=np.int64)
    return ga, pairs


def space_contacts(space: Space, max_contacts: int, skip_joined: bool = False) -> SpaceContacts:
    """Every contact dCollide(g1, g2, max_contacts) gives for the pairs
    dSpaceCollide(space) reports (nested spaces opened), in that order.

    ``skip_joined``: skip the pairs whose two bodies are joined by a
    non-contact joint (dAreConnectedExcluding(b1, b2, dJointTypeContact)).
    """
    maxc = int(max_contacts) & 0xFFFF
    if maxc < 1:
        raise ValueError("max_contacts must be at least 1")
    ga, pairs = candidate_pairs(space)
    conn = _NO_CONN
    nbody = 0
    mixed = ga.world is None and bool(ga.body.size) and int(ga.body.max()) >= 0
    if skip_joined and ga.world is not None:
        w = ga.world
        jt = w.joints
        nbody = w.bodies.capacity
        conn = connected_keys(nbody, jt.count, jt.type, jt.body, jt.flags, dJointTypeContact)
    space.locked = True
    try:
        if mixed:
            res = _python_pairs(ga, pairs, maxc, bool(skip_joined))
        else:
            rows, counts = narrow_phase(pairs, ga.cls, kernel_table(), ga.pos, ga.R, ga.size,
                                        ga.body, nbody, conn, maxc)
            res = _finish(ga, pairs, rows, counts, maxc)
    finally:
        space.locked = False
    return res


def _python_pairs(ga: GeomArrays, pairs: np.ndarray, maxc: int,
                  skip_joined: bool) -> SpaceContacts:
    """Every pair through dCollide (bodies in several worlds)."""
    counts = np.full(pairs.shape[0], PAIR_PYTHON, dtype=np.int64)
    for p, (i, j) in enumerate(pairs.tolist()):
        b1 = ga.geoms[i].body
        b2 = ga.geoms[j].body
        if (skip_joined and b1 is not None and b2 is not None
                and dAreConnectedExcluding(b1, b2, dJointTypeContact)):
            counts[p] = PAIR_CONNECTED
    return _finish(ga, pairs, np.zeros((0, 9)), counts, maxc)


def _finish(ga: GeomArrays, pairs: np.ndarray, rows: np.ndarray, counts: np.ndarray,
            maxc: int) -> SpaceContacts:
    """Fill the pairs left to Python in, keeping pair order."""
    res = SpaceContacts()
    res.ga = ga
    res.pairs = pairs
    res.extra = {}
    g1, g2, n_python = contact_geoms(pairs, counts)
    if n_python:
        py = np.flatnonzero(counts == PAIR_PYTHON)
        geoms = ga.geoms
        chunks = []
        start = 0
        ci = np.maximum(counts, 0)
        offs = np.concatenate(([0], np.cumsum(ci)))
        done = 0
        for p in py.tolist():
            i, j = int(pairs[p, 0]), int(pairs[p, 1])
            chunks.append(rows[offs[start]:offs[p]])
            done += int(offs[p] - offs[start])
            cgs = dispatch.dCollide(geoms[i], geoms[j], maxc)
            part = np.array([[*c.pos, *c.normal, c.depth, c.side1, c.side2] for c in cgs],
                            dtype=np.float64).reshape(-1, 9)
            for q, c in enumerate(cgs):
                if c.g1 is not geoms[i] or c.g2 is not geoms[j]:
                    res.extra[done + q] = (c.g1, c.g2)
            done += len(cgs)
            chunks.append(part)
            counts[p] = len(cgs)
            start = p + 1
        chunks.append(rows[offs[start]:])
        rows = np.concatenate(chunks)
        g1, g2, _none = contact_geoms(pairs, counts)
    res.counts = counts
    res.rows = rows
    res.g1 = g1
    res.g2 = g2
    return res


# ----------------------------------------------------------------------------- joints
def create_contact_joints(world, group, sc: SpaceContacts, surface: np.ndarray, mode: int,
                          fdir1: np.ndarray | None = None) -> int:
    """One contact joint per contact of ``sc`` in ``world`` (and ``group``),
    attached to (body(g1), body(g2)), exactly as dJointCreateContact +
    dJointAttach per contact would make them, in contact order.

    ``surface``: (14,) float64 surface values in record order (mu, mu2, rho,
    rho2, rhoN, bounce_vel, bounce, soft_erp, soft_cfm, motion1, motion2,
    motionN, slip1, slip2), or (p, 14) one row per candidate pair; ``mode``
    the surface mode (int, or (p,) int64 per pair); ``fdir1`` (3,) for every
    contact, (m, 3) one per contact, or None (zeros, as a fresh dContact).
    Returns the number of joints made.
    """
    return int(make_contact_joints(world, group, sc, surface, mode, fdir1).shape[0])


def make_contact_joints(world, group, sc: SpaceContacts, surface: np.ndarray, mode,
                        fdir1: np.ndarray | None = None) -> np.ndarray:
    """`create_contact_joints`, returning the joint store rows (m,) int64 of the
    joints made, in contact order (their forces are ``world.joints.feedback[rows]``
    after a step)."""
    m = sc.rows.shape[0]
    if m == 0:
        return np.zeros(0, dtype=np.int64)
    ga = sc.ga
    store = world.joints
    gbody = ga.body if ga.world is world else _body_rows_in(world, ga, sc)
    surface = np.asarray(surface, dtype=np.float64)
    if surface.ndim == 1 and isinstance(mode, int | np.integer):
        # one surface and mode for every contact (the usual near callback)
        per_pair = False
        table = surface.reshape(1, -1)
        modes = np.array([mode], dtype=np.int64)
    else:
        # one surface (and/or mode) per candidate pair: each contact takes its pair's
        per_pair = True
        table = surface if surface.ndim == 2 else np.broadcast_to(
            surface, (sc.pairs.shape[0], surface.shape[0]))
        modes = np.asarray(mode, dtype=np.int64)
        if modes.shape != (table.shape[0],):
            modes = np.broadcast_to(modes, (table.shape[0],))
    table = np.ascontiguousarray(table, dtype=np.float64)
    modes = np.ascontiguousarray(modes)
    fd = _NO_FDIR if fdir1 is None else np.ascontiguousarray(
        np.asarray(fdir1, dtype=np.float64).reshape(-1, 3))
    base = contact_flags(group)
    seq0 = store.next_seq    # the first new joint's creation number
    key = store.next_batch
    store.reserve(m)
    rows = write_contact_joints(sc.rows, sc.g1, sc.g2, gbody, sc.counts, table, modes, per_pair,
                                fd, base, dJointTypeContact, key, seq0, store.next_attach,
                                store.free_rows, store.free_count, store.count, store.type,
                                store.flags, store.seq, store.body, store.attach_seq, store.data,
                                store.idata, store.bulk)
    keep_contact_joints(world, group, rows, seq0, ga.geoms, sc.g1, sc.g2, sc.extra)
    return rows


def contact_flags(group) -> int:
    """The flags of a contact joint made into ``group`` (or None)."""
    return JF_ALIVE | JF_ENABLED | (JF_IN_GROUP if group is not None else 0)


def keep_contact_joints(world, group, rows: np.ndarray, seq0: int, geoms: list,
                        g1: np.ndarray, g2: np.ndarray, extra: dict) -> None:
    """Account for the contact joints :func:`write_contact_joints` just wrote
    into ``world``'s store: rows ``rows`` (m,) int64 (m > 0), numbered from
    ``seq0`` (the store's ``next_seq`` before), between the geoms ``g1``,
    ``g2`` (m,) (indices into ``geoms``; ``extra``: {k: (g1, g2)} given
    directly). ``group`` (or None) keeps them as one batch."""
    store = world.joints
    m = rows.shape[0]
    store.commit_taken(m)
    store.next_seq += m
    store.next_attach += m
    # handles are made on demand and the bodies' joint lists take these rows
    # when asked (engine.ode.joints.bulk); the group keeps the batch
    batch = JointBatch(world, group, ContactJoint, rows, seq0, geoms, g1, g2, extra,
                       record_floats=CONTACT_RECORD.float_size)
    register_batch(batch)
    if group is not None:
        group.members.append(batch)
    else:
        adopt_rows(world, rows)
        retire_batch(batch)


_NO_FDIR = np.zeros((0, 3))


def _body_rows_in(world, ga: GeomArrays, sc: SpaceContacts) -> np.ndarray:
    """Body rows in ``world`` (n,) of the geoms of ``ga`` that ``sc``'s contacts
    touch (-1: no body, or not touched); bodies of another world are an error."""
    rows = np.full(len(ga.geoms), -1, dtype=np.int64)
    for i in np.unique(np.concatenate((sc.g1, sc.g2))).tolist():
        rows[i] = _row_in(ga.geoms[i].body, world)
    return rows


def _row_in(body, world) -> int:
    if body is None:
        return -1
    if body.world is not world:
        raise ValueError("joint and bodies must be in the same world")
    return body.index
