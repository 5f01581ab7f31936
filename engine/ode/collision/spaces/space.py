"""Spaces: containers of geoms that find the pairs worth testing.

A space is itself a geom (it can sit in another space). Geoms are listed
newest first (dSpaceGetGeom(s, 0) is the last added, as in ODE). A space's
bounding box is the union of its geoms'. ``dSpaceCollide`` calls
``callback(data, g1, g2)`` for every candidate pair; a pair that involves a
nested space is passed as such (the callback usually calls dSpaceCollide2 on
it). Subclasses change how candidates are found, never which ones.

Each pass gathers the geoms into arrays (:func:`~engine.ode.collision.
broadphase.gather`: poses, bounds of the primitives computed in one compiled
call, bits), reusing the conversions of the last pass kept in the space's
``gather_cache`` while the geoms' attributes are unchanged.
"""

from __future__ import annotations

import math

import numpy as np

from engine.ode import checks
from engine.ode.collision.geoms.geom import Geom, broad_aabb, geom_of, space_of
from engine.ode.collision.spaces.broadphase import (
    GatherCache,
    GeomArrays,
    gather,
    overlapping_with,
)
from engine.ode.collision.spaces.sweep import sweep_pairs
from engine.ode.constants import dFirstUserClass, dSimpleSpaceClass
from engine.ode.errors import ODEError

_EMPTY_BOX = np.array([math.inf, -math.inf, math.inf, -math.inf, math.inf, -math.inf])


class Space(Geom):
    """Base space. ``CLASS`` is the space class id; subclasses may override
    :meth:`candidate_pairs` with a faster structure (same pairs)."""

    CLASS = dSimpleSpaceClass
    NAME = "space"
    PLACEABLE = False
    IS_SPACE = True
    __slots__ = ("geoms", "cleanup", "sublevel", "locked", "gather_cache", "spaces_held")

    def __init__(self, space) -> None:
        self.geoms: list[Geom] = []
        self.spaces_held = 0    # how many of ``geoms`` are spaces
        self.gather_cache = GatherCache()   # conversions kept between passes
        self.cleanup = 1
        self.sublevel = 0
        self.locked = False
        super().__init__(space)

    # -- membership -------------------------------------------------------
    def add(self, g: Geom) -> None:
        if g.space is not None:
            raise ODEError("dSpaceAdd", "geom", "the geom is already in a space")
        parent = self
        while parent is not None:
            if parent is g:
                raise ODEError("dSpaceAdd", "geom", "a space cannot contain itself or a space "
                               "that contains it")
            parent = parent.space
        self._check_unlocked("dSpaceAdd")
        g.space = self
        self.geoms.append(g)
        if g.IS_SPACE:
            self.spaces_held += 1

    def remove(self, g: Geom) -> None:
        self._check_unlocked("dSpaceRemove")
        if g.space is not self:
            raise ODEError("dSpaceRemove", "geom", "the geom is not in this space")
        self.geoms.remove(g)
        g.space = None
        if g.IS_SPACE:
            self.spaces_held -= 1

    def _check_unlocked(self, function: str) -> None:
        if self.locked:
            raise ODEError(function, "space", "the space is being collided; change it after "
                           "dSpaceCollide returns")

    def ordered(self) -> list[Geom]:
        """Geoms newest first (ODE's list order)."""
        return self.geoms[::-1]

    # -- bounds -----------------------------------------------------------
    def compute_aabb(self) -> np.ndarray:
        box = _EMPTY_BOX.copy()
        for g in self.geoms:
            b = broad_aabb(g)
            box[0::2] = np.minimum(box[0::2], b[0::2])
            box[1::2] = np.maximum(box[1::2], b[1::2])
        return box

    def arrays(self, geoms: list[Geom]):
        """Broad-phase arrays of ``geoms``: aabb (n,6), enabled, body keys, bits."""
        return gather(geoms).broad()

    # -- collision --------------------------------------------------------
    def pairs_of(self, ga: GeomArrays) -> np.ndarray:
        """(k, 2) indices into ``ga.geoms`` of every pair to report, in order;
        subclasses find the same pairs with their own structure."""
        return sweep_pairs(*ga.broad())

    def candidate_pairs(self, geoms: list[Geom]) -> np.ndarray:
        """(k, 2) indices into ``geoms`` of every pair to report, in order."""
        return self.reported_pairs(gather(geoms, self.gather_cache))

    def reported_pairs(self, ga: GeomArrays) -> np.ndarray:
        """:meth:`pairs_of` without the pairs a user geom's aabb_test rules out."""
        pairs = self.pairs_of(ga)
        if pairs.shape[0] and ga.user_classes:
            return user_filtered(ga.geoms, ga.aabb, pairs)
        return pairs

    def collide(self, data, callback) -> None:
        geoms = self.ordered()
        if len(geoms) < 2:
            return
        pairs = self.candidate_pairs(geoms).tolist()
        self.locked = True
        try:
            for i, j in pairs:
                callback(data, geoms[i], geoms[j])
        finally:
            self.locked = False

    def collide_with(self, data, other: Geom, callback, other_first: bool) -> None:
        """Report (child, other) pairs (or (other, child) if ``other_first``)."""
        geoms = self.ordered()
        if not geoms:
            return
        ga = gather(geoms, self.gather_cache)
        if other.body is None:
            body = -1
        elif ga.world is not None and other.body.world is ga.world:
            body = other.body.index
        elif ga.world is None and ga.bkey.size and int(ga.bkey.max()) < 0:
            body = -2     # no geom of the space has a body
        else:
            ga.bkey = np.array([-1 if g.body is None else id(g.body) for g in geoms],
                               dtype=np.int64)     # a new array: the cached one stays
            body = id(other.body)
        box = broad_aabb(other)
        idx = overlapping_with(*ga.broad(), box, other.enabled,
                               body, np.uint64(other.category_bits),
                               np.uint64(other.collide_bits)).tolist()
        if idx and (other.CLASS >= dFirstUserClass or bool(np.any(ga.cls >= dFirstUserClass))):
            if other_first:
                idx = [i for i in idx if _user_ok(other, geoms[i], box, ga.aabb[i])]
            else:
                idx = [i for i in idx if _user_ok(geoms[i], other, ga.aabb[i], box)]
        self.locked = True
        try:
            for i in idx:
                if other_first:
                    callback(data, other, geoms[i])
                else:
                    callback(data, geoms[i], other)
        finally:
            self.locked = False

    def destroy(self) -> None:
        if self.cleanup:
            for g in list(self.geoms):
                g.space = None
                g.destroy()
        else:
            for g in self.geoms:
                g.space = None
        self.geoms.clear()
        self.spaces_held = 0
        super().destroy()


class SimpleSpace(Space):
    """Tests every pair (here with a sort-and-sweep that finds the same pairs)."""

    CLASS = dSimpleSpaceClass
    NAME = "simple space"
    CREATOR = "dSimpleSpaceCreate"
    __slots__ = ()


# ----------------------------------------------------------------------------- API
def dSimpleSpaceCreate(space) -> SimpleSpace:
    """A simple space inside ``space`` (None: top level)."""
    return SimpleSpace(space)


def dSpaceDestroy(space) -> None:
    """Destroy the space (and its geoms if its cleanup mode is 1, the default)."""
    space_of(space, "dSpaceDestroy").destroy()


def dSpaceSetCleanup(space, mode: int) -> None:
    space_of(space, "dSpaceSetCleanup").cleanup = int(bool(
        checks.integer(mode, "dSpaceSetCleanup", "mode")))


def dSpaceGetCleanup(space) -> int:
    return space_of(space, "dSpaceGetCleanup").cleanup


def dSpaceSetSublevel(space, sublevel: int) -> None:
    space_of(space, "dSpaceSetSublevel").sublevel = checks.integer(
        sublevel, "dSpaceSetSublevel", "sublevel")


def dSpaceGetSublevel(space) -> int:
    return space_of(space, "dSpaceGetSublevel").sublevel


def dSpaceAdd(space, geom) -> None:
    space_of(space, "dSpaceAdd").add(geom_of(geom, "dSpaceAdd"))


def dSpaceRemove(space, geom) -> None:
    space_of(space, "dSpaceRemove").remove(geom_of(geom, "dSpaceRemove"))


def dSpaceQuery(space, geom) -> int:
    """1 if the geom is in the space."""
    s = space_of(space, "dSpaceQuery")
    return int(geom_of(geom, "dSpaceQuery").space is s)


def dSpaceGetNumGeoms(space) -> int:
    return len(space_of(space, "dSpaceGetNumGeoms").geoms)


def dSpaceGetGeom(space, i: int):
    """Geom number ``i`` (0 is the most recently added), or ODEError if out of range."""
    s = space_of(space, "dSpaceGetGeom")
    k = checks.integer(i, "dSpaceGetGeom", "i")
    if not 0 <= k < len(s.geoms):
        raise ODEError("dSpaceGetGeom", "i", f"index {k} out of range 0..{len(s.geoms) - 1}")
    return s.geoms[len(s.geoms) - 1 - k]


def dSpaceGetClass(space) -> int:
    return space_of(space, "dSpaceGetClass").CLASS


def dSpaceClean(space) -> None:
    """Bring the geoms' bounds up to date (they are always computed fresh here)."""
    space_of(space, "dSpaceClean")


def _callback_of(callback, function: str):
    if not callable(callback):
        raise ODEError(function, "callback", "must be callable(data, o1, o2)")
    return callback


def dSpaceCollide(space, data, callback) -> None:
    """Call ``callback(data, o1, o2)`` for every pair of geoms in the space that
    may touch (bounding boxes overlap, bits allow, not on the same body)."""
    s = space_of(space, "dSpaceCollide")
    s.collide(data, _callback_of(callback, "dSpaceCollide"))


def user_filtered(geoms: list[Geom], aabb: np.ndarray, pairs: np.ndarray) -> np.ndarray:
    """The pairs (k, 2) that user geoms' aabb_test callbacks do not rule out:
    as ODE, g1's test against g2's box first, then g2's against g1's."""
    keep = [p for p, (i, j) in enumerate(pairs.tolist())
            if geoms[i].aabb_test(geoms[j], aabb[j]) and geoms[j].aabb_test(geoms[i], aabb[i])]
    return pairs[np.array(keep, dtype=np.int64)]


def _user_ok(g1: Geom, g2: Geom, a: np.ndarray, b: np.ndarray) -> bool:
    """False if a user geom's aabb_test proves the two apart."""
    if g1.CLASS < dFirstUserClass and g2.CLASS < dFirstUserClass:
        return True
    return g1.aabb_test(g2, b) and g2.aabb_test(g1, a)


def _pair_ok(g1: Geom, g2: Geom) -> bool:
    # as ODE's dSpaceCollide2, the two geoms' enabled flags are not consulted
    if g1.body is not None and g1.body is g2.body:
        return False
    if not (g1.category_bits & g2.collide_bits or g2.category_bits & g1.collide_bits):
        return False
    a, b = broad_aabb(g1), broad_aabb(g2)
    return not (a[0] > b[1] or a[1] < b[0] or a[2] > b[3] or a[3] < b[2]
                or a[4] > b[5] or a[5] < b[4]) and _user_ok(g1, g2, a, b)


def dSpaceCollide2(o1, o2, data, callback) -> None:
    """Pairs between two geoms or spaces: a geom against a space's geoms, a
    space's geoms against the other space (the deeper sublevel is opened),
    or two geoms. ``callback(data, a, b)`` always gets ``a`` from ``o1``'s side."""
    g1 = geom_of(o1, "dSpaceCollide2", "o1")
    g2 = geom_of(o2, "dSpaceCollide2", "o2")
    cb = _callback_of(callback, "dSpaceCollide2")
    s1 = g1 if isinstance(g1, Space) else None
    s2 = g2 if isinstance(g2, Space) else None
    if s1 is not None and s1 is s2:
        s1.collide(data, cb)
        return
    if s1 is not None and s2 is not None and s1.sublevel != s2.sublevel:
        if s1.sublevel > s2.sublevel:
            s2 = None
        else:
            s1 = None
    a, b = broad_aabb(g1), broad_aabb(g2)
    if (a[0] > b[1] or a[1] < b[0] or a[2] > b[3] or a[3] < b[2]
            or a[4] > b[5] or a[5] < b[4]):
        return
    if s1 is not None and s2 is not None:
        # two different spaces at the same sublevel: their geoms pair up, o1's first
        for g in s1.ordered():
            if g.enabled:
                s2.collide_with(data, g, cb, other_first=True)
    elif s1 is not None:
        s1.collide_with(data, g2, cb, other_first=False)
    elif s2 is not None:
        s2.collide_with(data, g1, cb, other_first=True)
    elif _pair_ok(g1, g2):
        cb(data, g1, g2)
