"""Gathering a list of geoms into the arrays every collision pass needs.

:func:`gather` turns a list of geoms into a :class:`GeomArrays` (classes,
poses, shape parameters, bodies, bits, bounds); the bounds of spheres,
boxes, capsules, cylinders and planes are computed together by
:func:`~engine.ode.collision.spaces.bounds.primitive_aabbs`, the others by
their ``compute_aabb``.

A :class:`GatherCache` (kept by a space) carries what was read from the
geoms' attributes to the next pass. While no attribute of any geom has been
assigned since (:func:`~engine.ode.collision.geoms.geom.geom_edits`
unchanged) and the list holds the same geoms, a pass reads nothing from
them: it poses the geoms of bodies from the body store in one compiled call
(:func:`pose_rows`), reuses the poses of bodyless geoms, and recomputes the
bounds. Otherwise the attributes are read again and only what changed is
converted.
"""

from __future__ import annotations

from operator import attrgetter, is_

import numpy as np
from numba import njit

from engine.ode.collision.geoms.geom import geom_edits
from engine.ode.collision.spaces.bounds import (
    AABB_BOX,
    AABB_CAPSULE,
    AABB_CYLINDER,
    AABB_PLANE,
    AABB_SPHERE,
    primitive_aabbs,
)
from engine.ode.constants import (
    dBoxClass,
    dCapsuleClass,
    dCylinderClass,
    dFirstUserClass,
    dPlaneClass,
    dSphereClass,
)

_AABB_KIND = {dSphereClass: AABB_SPHERE, dBoxClass: AABB_BOX, dCapsuleClass: AABB_CAPSULE,
              dCylinderClass: AABB_CYLINDER, dPlaneClass: AABB_PLANE}


class GeomArrays:
    """A list of geoms as arrays, built once per collision pass.

    ``geoms`` the list (n) and ``objects`` the same geoms as an (n,) object
    array (fancy indexing picks the geoms of many pairs at once); ``cls (n,)``
    int64 class ids; ``pos (n, 3)`` m and ``R (n, 3, 3)`` world poses (exact
    copies of ``g.pos``/``g.R``); ``size (n, 4)`` shape parameters (see
    :func:`primitive_aabbs`, zeros for other classes); ``body (n,)`` body row
    or -1; ``world`` the one world of all the bodies (None if there are none or
    several); ``bkey (n,)`` int64 equal for geoms of the same body, -1 without
    one; ``enabled (n,)`` bool; ``cat``, ``col (n,)`` uint64 bits; ``aabb (n,
    6)`` bounds in metres, grown by each geom's boundary-layer ``padding``
    (engine.contact.padding);
    ``user_classes``: some geom is of a user class (whose ``aabb_test`` may
    rule pairs out).
    """

    __slots__ = ("geoms", "objects", "cls", "pos", "R", "size", "body", "world", "bkey", "enabled",
                 "cat", "col", "aabb", "user_classes")

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
    attributes read last time, the arrays made from them and ``edits``, the
    value of :func:`geom_edits` then. While it is unchanged nothing is read
    from the geoms again; otherwise they are read and the arrays of the
    attributes that are not the same objects / equal values are remade."""

    __slots__ = ("geoms", "objects", "edits", "cls", "user_classes", "cls_list", "kind", "by_kind",
                 "bodies", "offsets", "body", "world", "mixed", "bkey", "direct", "direct_rows",
                 "flags", "enabled", "cat", "col", "size_src", "size", "generic", "pad", "padded",
                 "offsets_R", "offset_idx", "offset_rows", "offset_pos", "offset_rot",
                 "static", "static_pos", "static_R", "moving")

    def __init__(self) -> None:
        self.geoms = None
        self.edits = -1


def _same(a: list, b: list) -> bool:
    """Two lists of the same objects (identity, no __eq__ calls)."""
    return len(a) == len(b) and all(map(is_, a, b))


def _same_size(a: tuple, b: tuple) -> bool:
    if a[0] is not None:
        return _same(a[0], b[0])
    return a[1] == b[1]


_NO_BODY_POS = np.zeros((0, 3))
_NO_BODY_R = np.zeros((0, 3, 3))


@njit(cache=True, nogil=True)
def pose_rows(body_pos, body_R, direct, direct_rows, offset_idx, offset_rows, offset_pos,
              offset_rot, static, static_pos, static_R, pos, R) -> None:
    """World poses of the geoms into ``pos`` (n, 3) m and ``R`` (n, 3, 3), in place.

    body_pos (b, 3), body_R (b, 3, 3): the body store's rows. Geoms ``direct``
    (d,) take the pose of body rows ``direct_rows`` (d,); geoms ``offset_idx``
    (o,) that of body rows ``offset_rows`` (o,) moved by their offsets
    ``offset_pos`` (o, 3) m and ``offset_rot`` (o, 3, 3); geoms ``static`` (s,)
    the poses ``static_pos`` (s, 3), ``static_R`` (s, 3, 3). Other rows are
    left. The offset arithmetic is that of ``Geom.pos`` / ``Geom.R``.
    """
    for t in range(direct.shape[0]):
        g = direct[t]
        r = direct_rows[t]
        for i in range(3):
            pos[g, i] = body_pos[r, i]
            for j in range(3):
                R[g, i, j] = body_R[r, i, j]
    for t in range(offset_idx.shape[0]):
        g = offset_idx[t]
        r = offset_rows[t]
        # p + Rb o and Rb Ro, each sum over k in increasing order (as detlinalg.matmul)
        for i in range(3):
            pos[g, i] = body_pos[r, i] + (body_R[r, i, 0] * offset_pos[t, 0]
                                          + body_R[r, i, 1] * offset_pos[t, 1]
                                          + body_R[r, i, 2] * offset_pos[t, 2])
            for j in range(3):
                R[g, i, j] = (body_R[r, i, 0] * offset_rot[t, 0, j]
                              + body_R[r, i, 1] * offset_rot[t, 1, j]
                              + body_R[r, i, 2] * offset_rot[t, 2, j])
    for t in range(static.shape[0]):
        g = static[t]
        for i in range(3):
            pos[g, i] = static_pos[t, i]
            for j in range(3):
                R[g, i, j] = static_R[t, i, j]


def gather(geoms: list, cache: GatherCache | None = None) -> GeomArrays:
    """The arrays of ``geoms`` (poses read from their bodies now); ``cache``
    (kept by the caller, e.g. a space) saves reading and converting the
    geoms' attributes between passes."""
    c = GatherCache() if cache is None else cache
    edits = geom_edits()
    if c.geoms is None or c.edits != edits or len(c.geoms) != len(geoms) or c.geoms != geoms:
        # (list equality: identity of each geom, geoms define no __eq__)
        _read_geoms(c, geoms)
        c.edits = edits
    n = len(geoms)
    pos = np.empty((n, 3))
    R = np.empty((n, 3, 3))
    store = None if c.world is None else c.world.bodies
    pose_rows(_NO_BODY_POS if store is None else store.pos,
              _NO_BODY_R if store is None else store.R, c.direct, c.direct_rows,
              c.offset_idx, c.offset_rows, c.offset_pos, c.offset_rot, c.static, c.static_pos,
              c.static_R, pos, R)
    for i in c.moving:
        g = geoms[i]
        pos[i] = g.pos
        R[i] = g.R
    aabb = np.empty((n, 6))
    for i in c.generic:
        aabb[i] = geoms[i].compute_aabb()
    primitive_aabbs(c.kind, pos, R, c.size, aabb)
    if c.padded.size:
        # boundary layers (engine.contact.padding): the broad phase sees the padded shells
        grow = c.pad[c.padded, None]
        aabb[c.padded, 0::2] -= grow
        aabb[c.padded, 1::2] += grow
    ga = GeomArrays()
    ga.geoms = geoms
    ga.objects = c.objects
    ga.cls, ga.user_classes = c.cls, c.user_classes
    ga.enabled, ga.cat, ga.col = c.enabled, c.cat, c.col
    ga.pos, ga.R, ga.size, ga.aabb = pos, R, c.size, aabb
    ga.body, ga.world, ga.bkey = c.body, None if c.mixed else c.world, c.bkey
    return ga


def _read_geoms(c: GatherCache, geoms: list) -> None:
    """Read the attributes of ``geoms`` into ``c``, remaking the arrays of those
    that changed since the last read."""
    n = len(geoms)
    if c.geoms is None or not _same(c.geoms, geoms):
        c.geoms = list(geoms)
        c.objects = np.fromiter(geoms, dtype=object, count=n)  # never looks inside a geom
        c.cls_list = list(map(_CLASS, geoms))
        c.cls = np.array(c.cls_list, dtype=np.int64).reshape(n)
        c.user_classes = bool(np.any(c.cls >= dFirstUserClass))
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
    # bodies and offsets
    bodies = list(map(_BODY, geoms))
    offsets = list(map(_OFFSET, geoms))
    offsets_R = list(map(_OFFSET_R, geoms))
    if c.bodies is None or not _same(c.bodies, bodies) or not _same(c.offsets, offsets) \
            or not _same(c.offsets_R, offsets_R):
        _bodies_changed(c, geoms, bodies, offsets, offsets_R)
    # poses of the bodyless geoms, kept until an attribute changes
    static = [geoms[i] for i in c.static.tolist()]
    c.static_pos = np.array([g.pos if g.PLACEABLE else np.zeros(3) for g in static],
                            dtype=np.float64).reshape(-1, 3)
    c.static_R = np.array([g.R if g.PLACEABLE else np.eye(3) for g in static],
                          dtype=np.float64).reshape(-1, 3, 3)
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
    c.direct_rows = body[c.direct]
    # placeable geoms with an offset on a body of ``world``: posed in one batch
    offset = ([i for i in with_body if offsets[i] is not None and geoms[i].PLACEABLE]
              if with_body and not mixed else [])
    c.offset_idx = np.array(offset, dtype=np.int64)
    c.offset_rows = body[c.offset_idx]
    c.offset_pos = np.array([offsets[i] for i in offset], dtype=np.float64).reshape(-1, 3)
    c.offset_rot = np.array([offsets_R[i] for i in offset], dtype=np.float64).reshape(-1, 3, 3)
    done = set(direct) | set(offset)
    other = [i for i in range(n) if i not in done]
    # bodyless geoms keep their pose until an attribute changes; the rest
    # (bodies of several worlds) are posed through their handles every pass
    c.static = np.array([i for i in other if bodies[i] is None], dtype=np.int64)
    c.moving = [i for i in other if bodies[i] is not None]
    if mixed:
        c.bkey = np.array([-1 if b is None else id(b) for b in bodies], dtype=np.int64)
    else:
        c.bkey = body


_WORLD = attrgetter("world")
