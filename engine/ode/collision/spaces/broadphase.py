"""Compiled broad phase: every pair of boxes that overlap and may collide.

ODE's rules for a candidate pair (i, j): both enabled, not on the same body,
category/collide bits match one way or the other, AABBs overlap (touching
counts). Pairs are returned in the simple space's order: i before j in list
order, sorted by (i, j).

:func:`gather` turns a list of geoms into the arrays every pass needs
(:class:`GeomArrays`: classes, poses, shape parameters, bodies, bits,
bounds); the bounds of spheres, boxes, capsules, cylinders and planes are
computed together by :func:`primitive_aabbs`, the others by their
``compute_aabb``. :func:`sweep_pairs` is the sweep used by the simple and
hash spaces.
"""

from __future__ import annotations

import math
from operator import attrgetter, is_

import numpy as np
from numba import njit

from engine.ode.constants import (
    dBoxClass,
    dCapsuleClass,
    dCylinderClass,
    dPlaneClass,
    dSphereClass,
)
from engine.ode.kernels.detlinalg import matmul


@njit(cache=True, nogil=True)
def _may_pair(i, j, enabled, body, cat, col) -> bool:
    if not enabled[i] or not enabled[j]:
        return False
    if body[i] >= 0 and body[i] == body[j]:
        return False
    return (cat[i] & col[j]) != 0 or (cat[j] & col[i]) != 0


@njit(cache=True, nogil=True)
def _overlap(a, i, b, j) -> bool:
    return not (a[i, 0] > b[j, 1] or a[i, 1] < b[j, 0] or a[i, 2] > b[j, 3]
                or a[i, 3] < b[j, 2] or a[i, 4] > b[j, 5] or a[i, 5] < b[j, 4])


@njit(cache=True, nogil=True)
def overlapping_pairs(aabb, enabled, body, cat, col):
    """Candidate pairs among n boxes, (k, 2) int64, sorted by (i, j).

    aabb (n, 6) [minx, maxx, miny, maxy, minz, maxz]; enabled (n,) bool;
    body (n,) id of the geom's body or -1; cat, col (n,) uint64 bits.
    Sort-and-sweep along x: boxes sorted by min x; each is compared with the
    following ones until their min x passes its max x.
    """
    n = aabb.shape[0]
    order = np.argsort(aabb[:, 0], kind="mergesort")
    cap = 64
    out = np.empty((cap, 2), dtype=np.int64)
    k = 0
    for s in range(n):
        i = order[s]
        if not enabled[i]:
            continue
        xmax = aabb[i, 1]
        for t in range(s + 1, n):
            j = order[t]
            if aabb[j, 0] > xmax:
                break
            if not _overlap(aabb, i, aabb, j) or not _may_pair(i, j, enabled, body, cat, col):
                continue
            if k == cap:
                bigger = np.empty((2 * cap, 2), dtype=np.int64)
                bigger[:cap] = out
                out = bigger
                cap *= 2
            if i < j:
                out[k, 0] = i
                out[k, 1] = j
            else:
                out[k, 0] = j
                out[k, 1] = i
            k += 1
    out = out[:k]
    keys = out[:, 0] * n + out[:, 1]
    return out[np.argsort(keys, kind="mergesort")]


@njit(cache=True, nogil=True)
def sweep_pairs(aabb, enabled, body, cat, col):
    """The pairs of :func:`overlapping_pairs` (same rules, same (k, 2) sorted
    output), found faster: boxes with a non-finite bound (planes, NaN) are
    tested against every box; the finite ones are swept along the axis on
    which their centres spread most (each compared with the following ones
    until their minimum passes its maximum)."""
    n = aabb.shape[0]
    fin = np.empty(n, dtype=np.int64)
    big = np.empty(n, dtype=np.int64)
    isbig = np.zeros(n, dtype=np.bool_)
    nf = 0
    nb = 0
    lo = np.full(3, math.inf)
    hi = np.full(3, -math.inf)
    for i in range(n):
        if not enabled[i]:
            continue
        finite = True
        for c in range(6):
            if not math.isfinite(aabb[i, c]):
                finite = False
        if not finite:
            big[nb] = i
            isbig[i] = True
            nb += 1
            continue
        fin[nf] = i
        nf += 1
        for a in range(3):
            m = aabb[i, 2 * a] + aabb[i, 2 * a + 1]
            lo[a] = min(lo[a], m)
            hi[a] = max(hi[a], m)
    axis = 0
    for a in range(1, 3):
        if hi[a] - lo[a] > hi[axis] - lo[axis]:
            axis = a
    b1 = (axis + 1) % 3
    b2 = (axis + 2) % 3
    keys = np.empty(nf)
    for s in range(nf):
        keys[s] = aabb[fin[s], 2 * axis]
    order = fin[:nf][np.argsort(keys, kind="mergesort")]
    # the bounds in sweep order, one contiguous array per side: the inner loop
    # then reads memory in sequence
    b = np.empty((6, nf))
    for s in range(nf):
        i = order[s]
        b[0, s] = aabb[i, 2 * axis]
        b[1, s] = aabb[i, 2 * axis + 1]
        b[2, s] = aabb[i, 2 * b1]
        b[3, s] = aabb[i, 2 * b1 + 1]
        b[4, s] = aabb[i, 2 * b2]
        b[5, s] = aabb[i, 2 * b2 + 1]
    lo0, hi0, lo1, hi1, lo2, hi2 = b[0], b[1], b[2], b[3], b[4], b[5]
    out = np.empty((64, 2), dtype=np.int64)
    k = 0
    for s in range(nf):
        top = hi0[s]
        l0 = lo0[s]
        l1 = lo1[s]
        h1 = hi1[s]
        l2 = lo2[s]
        h2 = hi2[s]
        for t in range(s + 1, nf):
            if lo0[t] > top:
                break
            if l1 > hi1[t] or h1 < lo1[t] or l2 > hi2[t] or h2 < lo2[t] or l0 > hi0[t]:
                continue
            i = order[s]
            j = order[t]
            if _may_pair(i, j, enabled, body, cat, col):
                out = _push_pair(out, k, i, j)
                k += 1
    for s in range(nb):
        i = big[s]
        for j in range(n):
            if j == i or not enabled[j]:
                continue
            if isbig[j] and j < i:
                continue     # two big boxes: once
            if _overlap(aabb, i, aabb, j) and _may_pair(i, j, enabled, body, cat, col):
                out = _push_pair(out, k, i, j)
                k += 1
    out = out[:k]
    pk = out[:, 0] * n + out[:, 1]
    return out[np.argsort(pk, kind="mergesort")]


@njit(cache=True, nogil=True)
def _push_pair(out, k, i, j):
    """Append pair (min, max) of (i, j) at row k of ``out`` (growing it); returns out."""
    if k == out.shape[0]:
        bigger = np.empty((2 * out.shape[0], 2), dtype=np.int64)
        bigger[:k] = out
        out = bigger
    out[k, 0] = min(i, j)
    out[k, 1] = max(i, j)
    return out


@njit(cache=True, nogil=True)
def overlapping_with(aabb, enabled, body, cat, col, box, g_enabled, g_body, g_cat, g_col):
    """Indices of the n boxes that may pair with one extra geom (its ``box``,
    flags, body and bits given separately), in list order."""
    n = aabb.shape[0]
    out = np.empty(n, dtype=np.int64)
    k = 0
    # as ODE, the extra geom's own enabled flag is not consulted (g_enabled is kept
    # in the signature for callers that want to filter it themselves)
    for i in range(n):
        if not enabled[i]:
            continue
        if body[i] >= 0 and body[i] == g_body:
            continue
        if (cat[i] & g_col) == 0 and (g_cat & col[i]) == 0:
            continue
        if (aabb[i, 0] > box[1] or aabb[i, 1] < box[0] or aabb[i, 2] > box[3]
                or aabb[i, 3] < box[2] or aabb[i, 4] > box[5] or aabb[i, 5] < box[4]):
            continue
        out[k] = i
        k += 1
    return out[:k]


# ----------------------------------------------------------------------------- gathering
#: Classes whose bounds :func:`primitive_aabbs` computes (the rest use compute_aabb).
AABB_SPHERE, AABB_BOX, AABB_CAPSULE, AABB_CYLINDER, AABB_PLANE = 0, 1, 2, 3, 4


@njit(cache=True, nogil=True)
def primitive_aabbs(kind, pos, R, size, aabb) -> None:
    """Bounds (n, 6) of the primitives, in place; rows with ``kind`` < 0 are left.

    kind (n,) int64 (AABB_* codes); pos (n, 3) m; R (n, 3, 3); size (n, 4):
    sphere (r), box (lx, ly, lz), capsule/cylinder (r, length along local z),
    plane (unit normal (3), d). A box's half extent on world axis i is
    sum_j |R_ij| l_j / 2; a cylinder's rim adds r sqrt(1 - a_i^2) for its unit
    axis a; a plane is unbounded except behind an axis-aligned normal.
    """
    inf = math.inf
    for i in range(kind.shape[0]):
        k = kind[i]
        if k < 0:
            continue
        if k == AABB_PLANE:
            for a in range(3):
                aabb[i, 2 * a] = -inf
                aabb[i, 2 * a + 1] = inf
            for a in range(3):
                b = (a + 1) % 3
                c = (a + 2) % 3
                if size[i, b] == 0 and size[i, c] == 0:
                    if size[i, a] > 0:
                        aabb[i, 2 * a + 1] = size[i, 3]
                    else:
                        aabb[i, 2 * a] = -size[i, 3]
            continue
        for a in range(3):
            if k == AABB_SPHERE:
                e = size[i, 0]
            elif k == AABB_BOX:
                e = (abs(R[i, a, 0]) * (0.5 * size[i, 0]) + abs(R[i, a, 1]) * (0.5 * size[i, 1])
                     + abs(R[i, a, 2]) * (0.5 * size[i, 2]))
            elif k == AABB_CAPSULE:
                e = abs(R[i, a, 2] * size[i, 1]) * 0.5 + size[i, 0]
            else:
                ax = R[i, a, 2]
                e = abs(ax * size[i, 1]) * 0.5 + size[i, 0] * math.sqrt(max(0.0, 1.0 - ax * ax))
            aabb[i, 2 * a] = pos[i, a] - e
            aabb[i, 2 * a + 1] = pos[i, a] + e


_AABB_KIND = {dSphereClass: AABB_SPHERE, dBoxClass: AABB_BOX, dCapsuleClass: AABB_CAPSULE,
              dCylinderClass: AABB_CYLINDER, dPlaneClass: AABB_PLANE}


class GeomArrays:
    """A list of geoms as arrays, built once per collision pass.

    ``geoms`` the list (n); ``cls (n,)`` int64 class ids; ``pos (n, 3)`` m and
    ``R (n, 3, 3)`` world poses (exact copies of ``g.pos``/``g.R``);
    ``size (n, 4)`` shape parameters (see :func:`primitive_aabbs`, zeros for
    other classes); ``body (n,)`` body row or -1; ``world`` the one world of
    all the bodies (None if there are none or several); ``bkey (n,)`` int64
    equal for geoms of the same body, -1 without one; ``enabled (n,)`` bool;
    ``cat``, ``col (n,)`` uint64 bits; ``aabb (n, 6)`` bounds in metres, grown by
    each geom's boundary-layer ``padding`` (engine.contact.padding).
    """

    __slots__ = ("geoms", "cls", "pos", "R", "size", "body", "world", "bkey", "enabled",
                 "cat", "col", "aabb")

    def broad(self) -> tuple:
        """(aabb, enabled, bkey, cat, col): the broad-phase kernels' arguments."""
        return self.aabb, self.enabled, self.bkey, self.cat, self.col


_CLASS = attrgetter("CLASS")
_BODY = attrgetter("body")
_ENABLED = attrgetter("enabled")
_CAT = attrgetter("category_bits")
_COL = attrgetter("collide_bits")
_PADDING = attrgetter("padding")
_OFFSET = attrgetter("offset_pos")
_OFFSET_R = attrgetter("offset_R")
_INDEX = attrgetter("index")
_RADIUS = attrgetter("radius")
_LENGTH = attrgetter("length")
_LENGTHS = attrgetter("lengths")
_PARAMS = attrgetter("params")


class GatherCache:
    """What :func:`gather` keeps between passes over the same geoms list: the
    attributes read last time and the arrays made from them, reused while
    the attributes are the same objects / equal values (geoms announce no
    changes, so every pass reads them, but converts only what changed)."""

    __slots__ = ("geoms", "cls", "cls_list", "kind", "by_kind", "bodies", "offsets", "body",
                 "world", "mixed", "bkey", "direct", "other", "flags", "enabled", "cat", "col",
                 "size_src", "size", "generic", "pad", "padded", "offsets_R", "offset_idx",
                 "offset_rows", "offset_pos", "offset_rot")

    def __init__(self) -> None:
        self.geoms = None


def _same(a: list, b: list) -> bool:
    """Two lists of the same objects (identity, no __eq__ calls)."""
    return len(a) == len(b) and all(map(is_, a, b))


def _same_size(a: tuple, b: tuple) -> bool:
    if a[0] is not None:
        return _same(a[0], b[0])
    return a[1] == b[1]


def gather(geoms: list, cache: GatherCache | None = None) -> GeomArrays:
    """The arrays of ``geoms`` (poses read from their bodies now); ``cache``
    (kept by the caller, e.g. a space) saves conversions between passes."""
    c = GatherCache() if cache is None else cache
    n = len(geoms)
    ga = GeomArrays()
    ga.geoms = geoms
    if c.geoms is None or not _same(c.geoms, geoms):
        c.geoms = list(geoms)
        c.cls_list = list(map(_CLASS, geoms))
        c.cls = np.array(c.cls_list, dtype=np.int64).reshape(n)
        c.kind = np.full(n, -1, dtype=np.int64)
        c.by_kind = []
        for cl, k in _AABB_KIND.items():
            idx = np.flatnonzero(c.cls == cl)
            if idx.size:
                c.kind[idx] = k
                c.by_kind.append((k, idx, [geoms[i] for i in idx.tolist()]))
        c.generic = np.flatnonzero(c.kind < 0).tolist()
        c.bodies = None
        c.flags = None
        c.size_src = None
    ga.cls = c.cls
    # bits and flags
    enabled = list(map(_ENABLED, geoms))
    cat = list(map(_CAT, geoms))
    col = list(map(_COL, geoms))
    pads = list(map(_PADDING, geoms))
    flags = (enabled, cat, col, pads)
    if c.flags is None or c.flags != flags:
        c.flags = flags
        c.enabled = np.array(enabled, dtype=np.bool_).reshape(n)
        c.cat = np.array(cat, dtype=np.uint64).reshape(n)
        c.col = np.array(col, dtype=np.uint64).reshape(n)
        c.pad = np.array(pads, dtype=np.float64).reshape(n)
        c.padded = np.flatnonzero(c.pad > 0.0)
    ga.enabled, ga.cat, ga.col = c.enabled, c.cat, c.col
    # bodies and offsets
    bodies = list(map(_BODY, geoms))
    offsets = list(map(_OFFSET, geoms))
    offsets_R = list(map(_OFFSET_R, geoms))
    if c.bodies is None or not _same(c.bodies, bodies) or not _same(c.offsets, offsets) \
            or not _same(c.offsets_R, offsets_R):
        _bodies_changed(c, geoms, bodies, offsets, offsets_R)
    # shape parameters
    # floats compared by value, arrays (box sides, plane parameters) by identity:
    # the dGeom*Set* functions always store new arrays
    src = [(list(map(_LENGTHS if k == AABB_BOX else _PARAMS, sel)), None)
           if k in (AABB_BOX, AABB_PLANE) else
           (None, (list(map(_RADIUS, sel)), list(map(_LENGTH, sel)) if k != AABB_SPHERE else None))
           for k, _idx, sel in c.by_kind]
    if c.size_src is None or not all(map(_same_size, src, c.size_src)):
        c.size_src = src
        c.size = size = np.zeros((n, 4))
        for (k, idx, _sel), vals in zip(c.by_kind, src, strict=True):
            arrays, floats = vals
            if k == AABB_BOX:
                size[idx, :3] = arrays
            elif k == AABB_PLANE:
                size[idx] = arrays
            else:
                size[idx, 0] = floats[0]
                if k != AABB_SPHERE:
                    size[idx, 1] = floats[1]
    size = c.size
    # poses: a body's own pose when the geom has no offset (and the body is in
    # ``world``), else the geom's properties (same arithmetic as g.pos / g.R)
    pos = np.empty((n, 3))
    R = np.empty((n, 3, 3))
    if c.direct.size:
        store = c.world.bodies
        rows = c.body[c.direct]
        pos[c.direct] = store.pos[rows]
        R[c.direct] = store.R[rows]
    if c.offset_idx.size:
        # geoms offset from their bodies, all at once: the arithmetic of g.pos / g.R
        # (each sum over k in increasing order), so the same bits
        store = c.world.bodies
        body_R = store.R[c.offset_rows]
        pos[c.offset_idx] = store.pos[c.offset_rows] + matmul(
            body_R, c.offset_pos[:, :, None])[:, :, 0]
        R[c.offset_idx] = matmul(body_R, c.offset_rot)
    for i in c.other:
        g = geoms[i]
        if g.PLACEABLE:
            pos[i] = g.pos
            R[i] = g.R
        else:
            pos[i] = 0.0
            R[i] = np.eye(3)
    aabb = np.empty((n, 6))
    for i in c.generic:
        aabb[i] = geoms[i].compute_aabb()
    primitive_aabbs(c.kind, pos, R, size, aabb)
    if c.padded.size:
        # boundary layers (engine.contact.padding): the broad phase sees the padded shells
        grow = c.pad[c.padded, None]
        aabb[c.padded, 0::2] -= grow
        aabb[c.padded, 1::2] += grow
    ga.pos, ga.R, ga.size, ga.aabb = pos, R, size, aabb
    ga.body, ga.world, ga.bkey = c.body, None if c.mixed else c.world, c.bkey
    return ga


def _bodies_changed(c: GatherCache, geoms: list, bodies: list, offsets: list,
                    offsets_R: list) -> None:
    n = len(geoms)
    c.bodies = bodies
    c.offsets = offsets
    c.offsets_R = offsets_R
    body = np.full(n, -1, dtype=np.int64)
    with_body = [i for i, b in enumerate(bodies) if b is not None]
    world = None
    mixed = False
    if with_body:
        bl = [bodies[i] for i in with_body]
        world = bl[0].world
        mixed = len(set(map(_WORLD, bl))) > 1
        body[np.array(with_body, dtype=np.int64)] = list(map(_INDEX, bl))
    direct = [i for i in with_body if offsets[i] is None] if with_body and not mixed else []
    c.body = body
    c.world = world
    c.mixed = mixed
    c.direct = np.array(direct, dtype=np.int64)
    # placeable geoms with an offset on a body of ``world``: posed in one batch
    offset = ([i for i in with_body if offsets[i] is not None and geoms[i].PLACEABLE]
              if with_body and not mixed else [])
    c.offset_idx = np.array(offset, dtype=np.int64)
    c.offset_rows = body[c.offset_idx]
    c.offset_pos = np.array([offsets[i] for i in offset], dtype=np.float64).reshape(-1, 3)
    c.offset_rot = np.array([offsets_R[i] for i in offset], dtype=np.float64).reshape(-1, 3, 3)
    done = set(direct) | set(offset)
    c.other = [i for i in range(n) if i not in done]
    if mixed:
        c.bkey = np.array([-1 if b is None else id(b) for b in bodies], dtype=np.int64)
    else:
        c.bkey = body


_WORLD = attrgetter("world")
_SIZE_SRC = {AABB_SPHERE: _RADIUS, AABB_BOX: _LENGTHS, AABB_CAPSULE: _RADIUS,
             AABB_CYLINDER: _RADIUS, AABB_PLANE: _PARAMS}
