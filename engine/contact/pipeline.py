"""One robust contact pass: padded contacts -> clusters -> blended surfaces -> joints.

For each geom pair the caller allows (its own pair rules), `make_robust_contacts`

1. computes the boundary-layer contacts (`engine.contact.boundary.padded_contacts`);
2. gives each pair a contact budget: ``max_contacts``, or, for pairs that
   share a budget group (the Solids of one robot), a share of it in
   proportion to the pair's raw count (`engine.contact.cluster.contact_budget`);
3. clusters a pair down to its budget (`engine.contact.cluster.cluster_contacts`);
4. makes one ODE contact joint per contact with the pair's blended surface
   (`surface_row`), its friction direction aligned with the sliding (or
   about-to-slide) direction (`friction_directions`) so friction resists a
   push with mu·N whatever its direction.

The result (`RobustContacts`) keeps what a viewer and the adaptive stepper
need: points, normals, depths, cluster sizes, the blended mu of each
contact, each pair's remaining margin and whether it penetrates.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from engine.contact.adaptive import PairMargins, margin_tested
from engine.contact.batched import BATCHED_CLASSES, batch_pieces, batched_contacts
from engine.contact.boundary import SideCache, padded_contacts
from engine.contact.cluster import ClusteredContacts, cluster_contacts, contact_budget
from engine.contact.records import PaddedContacts
from engine.contact.surface import BlendedSurface, soft_erp_cfm
from engine.ode.collision.batch import SpaceContacts, make_contact_joints
from engine.ode.collision.spaces.broadphase import GeomArrays, gather
from engine.ode.constants import (
    dContactApprox1,
    dContactBounce,
    dContactFDir1,
    dContactSoftCFM,
    dContactSoftERP,
)
from engine.ode.joints.contact import N_SURFACE
from engine.ode.kernels.detlinalg import dot

#: Contact states (`contact_states`): no force, held by friction, sliding.
CONTACT_OPEN, CONTACT_STICKING, CONTACT_SLIDING = 0, 1, 2
#: A contact whose tangential force reaches this fraction of mu·N is sliding.
SLIDING_FRACTION = 0.99
#: Normal force [N] below which a contact counts as open.
OPEN_FORCE = 1e-9
#: Tangential speed [m/s] below which the friction direction is taken from the
#: predicted velocity (applied forces) instead of the current one.
_REST_SPEED = 1e-9
#: Indices of the surface record values (engine.ode.joints.contact order).
_MU, _BOUNCE_VEL, _BOUNCE, _SOFT_ERP, _SOFT_CFM = 0, 5, 6, 7, 8


class PairInput(NamedTuple):
    """One geom pair to make robust contacts for.

    ``g1``, ``g2`` the geoms; ``pad1``, ``pad2`` their paddings [m];
    ``surface`` the pair's blended surface; ``budget_group`` the index of the
    contact budget the pair shares (a robot's), or -1 for its own."""

    g1: object
    g2: object
    pad1: float
    pad2: float
    surface: BlendedSurface
    budget_group: int = -1


class RobustOptions(NamedTuple):
    """``max_contacts`` per pair (or per budget group) after clustering;
    ``cluster_normal_scale`` the weight of the normal in the clustering
    features; ``bounce_velocity`` [m/s] below which contacts do not bounce."""

    max_contacts: int = 20
    cluster_normal_scale: float = 0.1
    bounce_velocity: float = 0.01


class SurfaceRow(NamedTuple):
    """A contact joint's surface: ``mode`` flags and ``values`` (N_SURFACE,)
    in the contact record's order (mu, mu2, rho, rho2, rhoN, bounce_vel,
    bounce, soft_erp, soft_cfm, motion1, motion2, motionN, slip1, slip2)."""

    mode: int
    values: np.ndarray


class RobustContacts:
    """The contacts one pass made (m contacts over p pairs).

    ``joint_rows (m,)`` int64 joint-store rows; ``pos (m, 3)`` m; ``normal
    (m, 3)`` unit, into geom 1; ``depth (m,)`` m (padded-shell overlap);
    ``cluster_size (m,)`` raw contacts each stands for; ``mu (m,)`` blended
    friction; ``pair_of (m,)`` index into ``pairs``; ``pairs`` the
    `PairInput`s that made contacts; ``raw_count (p,)``; ``penetrating (p,)``
    bool (the unpadded shapes overlap); ``margin (p,)`` m: pad1 + pad2 minus
    the deepest contact (what is left of the boundary layer); ``forces``
    (m, 12) f1, t1, f2, t2 [N, N·m] after `capture_forces`, else None.
    """

    __slots__ = ("joint_rows", "pos", "normal", "depth", "cluster_size", "mu", "pair_of",
                 "pairs", "raw_count", "penetrating", "margin", "forces")

    def __init__(self) -> None:
        self.joint_rows = np.zeros(0, dtype=np.int64)
        self.pos = np.zeros((0, 3))
        self.normal = np.zeros((0, 3))
        self.depth = np.zeros(0)
        self.cluster_size = np.zeros(0, dtype=np.int64)
        self.mu = np.zeros(0)
        self.pair_of = np.zeros(0, dtype=np.int64)
        self.pairs: list[PairInput] = []
        self.raw_count = np.zeros(0, dtype=np.int64)
        self.penetrating = np.zeros(0, dtype=np.bool_)
        self.margin = np.zeros(0)
        self.forces: np.ndarray | None = None

    def __len__(self) -> int:
        return int(self.joint_rows.shape[0])

    def capture_forces(self, world) -> None:
        """Copy the joints' forces out of ``world``'s joint store; call after the
        step, before the contact group is emptied."""
        self.forces = world.joints.feedback[self.joint_rows, :12].copy()

    def states(self) -> np.ndarray:
        """(m,) int8 `CONTACT_OPEN` / `_STICKING` / `_SLIDING` from the captured
        forces (all open before `capture_forces`)."""
        if self.forces is None:
            return np.zeros(len(self), dtype=np.int8)
        return contact_states(self.forces[:, 0:3], self.normal, self.mu)


# ---------------------------------------------------------------- surfaces
def surface_row(surface: BlendedSurface, h: float, bounce_velocity: float) -> SurfaceRow:
    """The contact joint surface of a blended pair for the step ``h`` [s]: the
    friction pyramid (Approx1) with mu on both directions and fdir1 given
    per contact; soft ERP/CFM from the blended stiffness and damping unless
    the pair is rigid (the world's ERP/CFM then apply); bounce when the
    blended restitution is not 0."""
    values = np.zeros(N_SURFACE)
    mode = dContactApprox1 | dContactFDir1
    values[_MU] = surface.mu
    soft = soft_erp_cfm(surface, h)
    if soft is not None:
        mode |= dContactSoftERP | dContactSoftCFM
        values[_SOFT_ERP] = soft.erp
        values[_SOFT_CFM] = soft.cfm
    if surface.restitution != 0.0:
        mode |= dContactBounce
        values[_BOUNCE] = surface.restitution
        values[_BOUNCE_VEL] = bounce_velocity
    return SurfaceRow(int(mode), values)


# ---------------------------------------------------------------- friction
def friction_directions(world, body1: np.ndarray, body2: np.ndarray, pos: np.ndarray,
                        normal: np.ndarray, h: float) -> np.ndarray:
    """fdir1 (m, 3) unit, tangent to each contact: the direction body 1 slides
    (or is pushed to slide) relative to body 2 at the contact point.

    ``body1``, ``body2`` (m,) body rows in ``world``'s store (-1: static);
    ``pos``, ``normal`` (m, 3). The relative velocity at the point is
    v1 + w1 x r1 - (v2 + w2 x r2); when its tangential part is ~0 the
    velocity the applied forces would give after ``h`` [s] (v + h·F/m) is
    used instead; when that is ~0 too, any tangent. Aligning the pyramid
    with it makes friction resist with mu·N along the push, as Coulomb's
    cone does, instead of up to sqrt(2)·mu·N on the pyramid's diagonals."""
    store = world.bodies
    m = pos.shape[0]
    vel = np.zeros((m, 3))
    push = np.zeros((m, 3))
    for rows, sign in ((body1, 1.0), (body2, -1.0)):
        has = rows >= 0
        if not has.any():
            continue
        r = rows[has]
        arm = pos[has] - store.pos[r]
        v = store.lvel[r] + np.cross(store.avel[r], arm)
        vel[has] += sign * v
        push[has] += sign * (v + h * store.facc[r] * store.invmass[r][:, None])
    out = _tangent(vel, normal)
    still = dot(out, out) < 0.5
    if still.any():
        out[still] = _tangent(push[still], normal[still])
        none = dot(out, out) < 0.5
        if none.any():
            out[none] = _any_tangent(normal[none])
    return out


def _tangent(v: np.ndarray, n: np.ndarray) -> np.ndarray:
    """Unit tangential parts of v (k, 3) against normals n (k, 3); zero rows
    where the tangential speed is below `_REST_SPEED`."""
    t = v - dot(v, n)[:, None] * n
    length = np.sqrt(dot(t, t))
    ok = length > _REST_SPEED
    out = np.zeros_like(t)
    out[ok] = t[ok] / length[ok, None]
    return out


def _any_tangent(n: np.ndarray) -> np.ndarray:
    """A unit vector (k, 3) perpendicular to each normal."""
    helper = np.where(np.abs(n[:, 2:3]) < 0.9, [[0.0, 0.0, 1.0]], [[1.0, 0.0, 0.0]])
    t = np.cross(n, helper)
    return t / np.sqrt(dot(t, t))[:, None]


def contact_states(force1: np.ndarray, normal: np.ndarray, mu: np.ndarray) -> np.ndarray:
    """(m,) int8 state of each contact from the force on body 1 ``force1`` (m, 3) N,
    the normal (m, 3) (into body 1) and the friction coefficient (m,):
    open when the normal force is ~0, sliding when the tangential force
    reaches `SLIDING_FRACTION` of mu·N, else sticking."""
    fn = dot(force1, normal)
    tangential = force1 - fn[:, None] * normal
    ft = np.sqrt(dot(tangential, tangential))
    out = np.full(fn.shape[0], CONTACT_STICKING, dtype=np.int8)
    out[ft >= SLIDING_FRACTION * mu * fn] = CONTACT_SLIDING
    out[fn <= OPEN_FORCE] = CONTACT_OPEN
    return out


# ---------------------------------------------------------------- the pass
def _budgets(raw_counts: np.ndarray, groups: np.ndarray, max_contacts: int) -> np.ndarray:
    """Contacts allowed per pair (p,): ``max_contacts`` for a pair of its own;
    a share of ``max_contacts`` for pairs of one budget group."""
    budget = np.full(raw_counts.shape[0], max_contacts, dtype=np.int64)
    for g in np.unique(groups[groups >= 0]).tolist():
        members = np.flatnonzero(groups == g)
        budget[members] = contact_budget(raw_counts[members], max_contacts)
    return np.minimum(budget, np.maximum(raw_counts, 1))


class PairGeoms(NamedTuple):
    """Where the geoms of p pairs are in gathered arrays: ``arrays`` (their
    poses, sizes and bodies when gathered) and ``index (p, 2)`` int64, the
    rows of each pair's g1 and g2."""

    arrays: GeomArrays
    index: np.ndarray


class CandidatePairs(NamedTuple):
    """Pairs to detect (``pairs``, p) and where their geoms are (``where``)."""

    pairs: list[PairInput]
    where: PairGeoms


def pair_geoms(pairs: list[PairInput]) -> PairGeoms:
    """Gather the geoms of ``pairs`` (each once, poses read now)."""
    geoms: list = []
    row: dict[int, int] = {}
    index = np.empty((len(pairs), 2), dtype=np.int64)
    for k, p in enumerate(pairs):
        for side, g in enumerate((p.g1, p.g2)):
            i = row.get(id(g))
            if i is None:
                i = row[id(g)] = len(geoms)
                geoms.append(g)
            index[k, side] = i
    return PairGeoms(gather(geoms), index)


class Detection(NamedTuple):
    """The padded contacts of the p pairs that touch: ``pairs``, all their raw
    (unclustered) contacts ``contacts`` pair after pair, ``ends (p,)`` int64
    (pair i's contacts end before row ``ends[i]``), and ``where`` their geoms."""

    pairs: list[PairInput]
    contacts: PaddedContacts
    ends: np.ndarray
    where: PairGeoms

    @property
    def starts(self) -> np.ndarray:
        """(p,) int64: the first contact row of each pair."""
        return np.concatenate([[0], self.ends[:-1]]).astype(np.int64)

    def of_pair(self, i: int) -> PaddedContacts:
        """The contacts of pair ``i``."""
        lo = int(self.ends[i - 1]) if i else 0
        hi = int(self.ends[i])
        c = self.contacts
        return PaddedContacts(c.pos[lo:hi], c.normal[lo:hi], c.depth[lo:hi],
                              c.penetrating[lo:hi])


#: ODE class ids as an array, for masks over gathered classes.
_BATCHED = np.array(sorted(BATCHED_CLASSES), dtype=np.int64)


def _batchable(pairs: list[PairInput], where: PairGeoms, pads: np.ndarray) -> np.ndarray:
    """(p,) bool: pairs `batched_contacts` takes (two live single-piece geoms,
    valid paddings); the others go through `padded_contacts`, which also
    reports what is wrong with them."""
    ga = where.arrays
    ok_geom = np.isin(ga.cls, _BATCHED) & np.array([g.alive for g in ga.geoms], dtype=np.bool_)
    ok_pad = np.isfinite(pads) & (pads >= 0.0)
    return ok_geom[where.index[:, 0]] & ok_geom[where.index[:, 1]] & ok_pad.all(axis=1)


def _batched_rows(where: PairGeoms, index: np.ndarray, pads: np.ndarray):
    """`batched_contacts` of the pairs ``index (k, 2)`` (rows of ``where``'s arrays)."""
    ga = where.arrays
    used, local = np.unique(index, return_inverse=True)
    local = local.reshape(-1, 2)
    pieces = batch_pieces([ga.geoms[i] for i in used.tolist()], ga.cls[used], ga.pos[used],
                          ga.R[used], ga.size[used])
    pose = np.concatenate([ga.pos[used], ga.R[used].reshape(-1, 9)], axis=1)
    return batched_contacts(pieces, ga.cls[used], pose, local[:, 0], local[:, 1],
                            pads[:, 0], pads[:, 1])


def _rows_to_contacts(rows: np.ndarray) -> PaddedContacts:
    return PaddedContacts(np.ascontiguousarray(rows[:, 0:3]), np.ascontiguousarray(rows[:, 3:6]),
                          rows[:, 6].copy(), rows[:, 7] > 0.5)


def _concat_contacts(parts: list[PaddedContacts]) -> PaddedContacts:
    empty = _rows_to_contacts(np.zeros((0, 8)))
    return PaddedContacts(*(np.concatenate([getattr(c, f) for c in (empty, *parts)])
                            for f in PaddedContacts._fields))


def detect(pairs: list[PairInput], where: PairGeoms | None = None) -> Detection:
    """The boundary-layer contacts of every pair in ``pairs`` (``where``: their
    gathered geoms, gathered now when not given); pairs without any are
    dropped. Pairs of single-piece geoms are done in one compiled pass
    (`engine.contact.batched`), the others pair by pair
    (`engine.contact.boundary.padded_contacts`); both give the same bits."""
    if where is None:
        where = pair_geoms(pairs)
    p = len(pairs)
    pads = np.array([(q.pad1, q.pad2) for q in pairs], dtype=np.float64).reshape(p, 2)
    batch = _batchable(pairs, where, pads) if p else np.zeros(0, dtype=np.bool_)
    counts = np.zeros(p, dtype=np.int64)
    done = _batched_rows(where, where.index[batch], pads[batch]) if batch.any() else None
    if done is not None:
        counts[batch] = np.diff(np.concatenate([[0], done.ends]))
    if batch.all():
        flat = _rows_to_contacts(done.rows if done is not None else np.zeros((0, 8)))
    else:
        # pair by pair for meshes, heightfields, transforms; merged in pair order
        sides = SideCache()  # each geom's pieces built once for the whole pass
        parts: list[PaddedContacts] = []
        batched_parts = (iter(np.split(done.rows, done.ends[:-1])) if done is not None
                         else iter(()))
        for k, (q, b) in enumerate(zip(pairs, batch.tolist(), strict=True)):
            if b:
                parts.append(_rows_to_contacts(next(batched_parts)))
            else:
                parts.append(padded_contacts(q.g1, q.g2, q.pad1, q.pad2, sides))
                counts[k] = parts[-1].depth.shape[0]
        flat = _concat_contacts(parts)
    touching = np.flatnonzero(counts > 0)
    return Detection([pairs[k] for k in touching.tolist()], flat,
                     np.cumsum(counts[touching]).astype(np.int64),
                     PairGeoms(where.arrays, where.index[touching]))


def pair_margins(detection: Detection) -> PairMargins:
    """What the adaptive stepper compares between steps, per touching pair."""
    pairs = detection.pairs
    if not pairs:
        return PairMargins([], np.zeros(0), np.zeros(0), np.zeros(0, dtype=np.bool_),
                           np.zeros(0, dtype=np.bool_))
    pad = np.array([p.pad1 + p.pad2 for p in pairs])
    starts = detection.starts
    c = detection.contacts
    deepest = np.maximum.reduceat(c.depth, starts)
    return PairMargins([(id(p.g1), id(p.g2)) for p in pairs], pad - deepest, pad,
                       np.logical_or.reduceat(c.penetrating, starts),
                       np.array([margin_tested(p.g1.CLASS, p.g2.CLASS) for p in pairs],
                                dtype=np.bool_))


def _clustered(detection: Detection, budgets: np.ndarray, options: RobustOptions):
    """(pos, normal, depth, cluster size, contacts per pair) after clustering the
    pairs with more contacts than their budget (the others are kept as they are)."""
    c = detection.contacts
    counts = np.diff(np.concatenate([[0], detection.ends]))
    over = np.flatnonzero(counts > budgets)
    if over.size == 0:
        return (c.pos, c.normal, c.depth, np.ones(c.depth.shape[0], dtype=np.int64), counts)
    parts = []
    for k in range(counts.shape[0]):
        one = detection.of_pair(k)
        if counts[k] > budgets[k]:
            parts.append(cluster_contacts(one.pos, one.normal, one.depth, int(budgets[k]),
                                          options.cluster_normal_scale))
        else:
            n = int(counts[k])
            parts.append(ClusteredContacts(one.pos, one.normal, one.depth, np.ones(n, np.int64),
                                           np.arange(n, dtype=np.int64)))
    return (np.concatenate([p.pos for p in parts]), np.concatenate([p.normal for p in parts]),
            np.concatenate([p.depth for p in parts]),
            np.concatenate([p.size for p in parts]).astype(np.int64),
            np.array([p.depth.shape[0] for p in parts], dtype=np.int64))


def make_robust_contacts(world, group, detection: Detection, h: float,
                         options: RobustOptions) -> RobustContacts:
    """Robust contact joints for the pairs of ``detection`` in ``world`` (and
    joint ``group``) for a step of ``h`` [s] (module docstring)."""
    out = RobustContacts()
    kept = detection.pairs
    if not kept:
        return out
    counts = np.diff(np.concatenate([[0], detection.ends]))
    groups = np.array([p.budget_group for p in kept], dtype=np.int64)
    budgets = _budgets(counts, groups, options.max_contacts)
    pos, normal, depth, size, sizes = _clustered(detection, budgets, options)
    margins = pair_margins(detection)
    out.pairs = kept
    out.raw_count = counts
    out.penetrating = margins.penetrating
    out.margin = margins.margin
    out.pos = pos
    out.normal = normal
    out.depth = depth
    out.cluster_size = size
    out.pair_of = np.repeat(np.arange(len(kept), dtype=np.int64), sizes)
    out.mu = np.repeat(np.array([p.surface.mu for p in kept]), sizes)
    # contact joints in bulk, as the default batched contacts make them
    sc = SpaceContacts()
    sc.ga = detection.where.arrays
    sc.pairs = detection.where.index
    sc.counts = sizes
    m = depth.shape[0]
    rows = np.zeros((m, 9))
    rows[:, 0:3] = pos
    rows[:, 3:6] = normal
    rows[:, 6] = depth
    rows[:, 7:9] = -1.0
    sc.rows = rows
    sc.g1 = np.repeat(sc.pairs[:, 0], sizes)
    sc.g2 = np.repeat(sc.pairs[:, 1], sizes)
    sc.extra = {}
    surface_rows = [surface_row(p.surface, h, options.bounce_velocity) for p in kept]
    table = np.array([r.values for r in surface_rows]).reshape(-1, N_SURFACE)
    modes = np.array([r.mode for r in surface_rows], dtype=np.int64)
    fdir = friction_directions(world, sc.ga.body[sc.g1], sc.ga.body[sc.g2], pos, normal, h)
    out.joint_rows = make_contact_joints(world, group, sc, table, modes, fdir)
    return out
