"""Geoms: the Geom handle base class and the dGeom* functions every class shares.

A geom has a class (``dSphereClass``...), an optional body, an optional
offset from that body, its own position/rotation when it has no body, an
enabled flag, category/collide bits, a space and user data (``user_data``). Its world pose
is computed on demand from its body, so it is always current (ODE caches
it and refreshes lazily; the results are the same).

AABBs are ``(6,)`` arrays ``[minx, maxx, miny, maxy, minz, maxz]`` in metres.
"""

from __future__ import annotations

import numpy as np

from engine.ode import checks
from engine.ode.body import body_of, dBodySetRotation
from engine.ode.errors import ODEError
from engine.ode.kernels.detlinalg import matmul
from engine.ode.kernels.vec import R_to_q, normalize4_inplace, q_to_R
from engine.ode.lifetime import note_destroyed

#: All 64 bits set: the default category and collide bits (C's ``~0UL``).
ALL_BITS = (1 << 64) - 1

#: Count of attribute assignments on geoms (any geom, any attribute but those of
#: ``_UNTRACKED``): what the broad phase read from the geoms stays valid while
#: it is unchanged (engine.ode.collision.spaces.gather).
_EDITS = [0]
#: Attributes whose assignment changes nothing the broad phase reads.
_UNTRACKED = frozenset(("locked", "user_data", "sublevel", "cleanup"))


def geom_edits() -> int:
    """A number that changes whenever an attribute of any geom is assigned
    (body, offsets, own pose, bits, flags, shape parameters, space...)."""
    return _EDITS[0]


class Geom:
    """Base geom handle (ODE's dGeomID). Subclasses set ``CLASS`` and implement
    :meth:`compute_aabb`; non-placeable ones (planes, spaces, heightfields...)
    set ``PLACEABLE = False``."""

    CLASS = -1
    NAME = "geom"
    CREATOR = "dCreateGeom"     # the function that makes one, for error messages
    PLACEABLE = True
    IS_SPACE = False            # True for spaces (engine.ode.collision.spaces.space.Space)

    __slots__ = ("body", "space", "offset_pos", "offset_R", "own_pos", "own_R", "enabled",
                 "category_bits", "collide_bits", "user_data", "alive", "padding", "__weakref__")

    def __init__(self, space) -> None:
        self.body = None
        self.space = None
        self.offset_pos: np.ndarray | None = None
        self.offset_R: np.ndarray | None = None
        self.own_pos = np.zeros(3)
        self.own_R = np.eye(3)
        self.enabled = True
        self.category_bits = ALL_BITS
        self.collide_bits = ALL_BITS
        self.user_data = None
        self.alive = True
        # Odeon extension (engine.contact.padding): the boundary layer (m) that
        # grows the AABB the broad phase sees; 0 changes nothing
        self.padding = 0.0
        if space is not None:
            space_of(space, self.CREATOR, "space").add(self)

    def __setattr__(self, name: str, value) -> None:
        object.__setattr__(self, name, value)
        if name not in _UNTRACKED:
            _EDITS[0] += 1

    # -- pose ---------------------------------------------------------------
    @property
    def pos(self) -> np.ndarray:
        """World position (3,) (a view for bodyless geoms; do not modify)."""
        b = self.body
        if b is None:
            return self.own_pos
        store = b.world.bodies
        if self.offset_pos is None:
            return store.pos[b.index]
        return store.pos[b.index] + matmul(store.R[b.index], self.offset_pos)

    @property
    def R(self) -> np.ndarray:
        """World rotation (3, 3)."""
        b = self.body
        if b is None:
            return self.own_R
        store = b.world.bodies
        if self.offset_R is None:
            return store.R[b.index]
        return matmul(store.R[b.index], self.offset_R)

    def compute_aabb(self) -> np.ndarray:
        """The geom's axis-aligned bounding box (6,); subclasses override."""
        raise ODEError("dGeomGetAABB", "geom", f"{self.NAME} geoms have no bounds")

    def mark_moved(self) -> None:
        """Called when the body moved; poses and AABBs are computed on demand."""

    def contact_geom(self) -> Geom:
        """The geom that contacts computed for this one name as g1/g2: itself
        (a geom transform with info 0 names the geom it holds)."""
        return self

    def aabb_test(self, other: Geom, aabb: np.ndarray) -> bool:
        """False if this geom can prove ``other`` (bounding box ``aabb`` (6,)) apart
        beyond the box test; always True here (user geom classes override it)."""
        return True

    def set_body(self, body) -> None:
        """Attach to ``body`` (None: detach, keeping the current world pose)."""
        if body is None:
            if self.body is not None:
                self.own_pos = np.array(self.pos, dtype=float)
                self.own_R = np.array(self.R, dtype=float)
                self.body.geoms.remove(self)
            self.body = None
            self.offset_pos = None
            self.offset_R = None
            return
        if self.body is not None:
            self.body.geoms.remove(self)
        self.body = body
        self.offset_pos = None
        self.offset_R = None
        body.geoms.append(self)

    def destroy(self) -> None:
        """Detach from body and space; the handle becomes unusable."""
        if self.space is not None:
            self.space.remove(self)
        if self.body is not None:
            self.body.geoms.remove(self)
            self.body = None
        self.alive = False
        note_destroyed()

    def __repr__(self) -> str:
        return f"<{self.NAME} geom{'' if self.alive else ' destroyed'}>"


def grown_box(box: np.ndarray, by: float) -> np.ndarray:
    """A copy of the AABB ``box`` (6,) (min x, max x, min y, ...) grown by ``by``
    (m) on every side."""
    out = np.array(box, dtype=float)
    out[0::2] -= by
    out[1::2] += by
    return out


def broad_aabb(g: Geom) -> np.ndarray:
    """The AABB (6,) the broad phase uses: ``compute_aabb`` grown by the geom's
    boundary-layer ``padding`` (m) on every side (the same array when it is 0)."""
    box = g.compute_aabb()
    return grown_box(box, g.padding) if g.padding > 0.0 else box


def geom_of(g, function: str, argument: str = "geom", cls: type | None = None) -> Geom:
    """``g`` checked to be a live geom (of class ``cls`` if given)."""
    if g is None:
        raise ODEError(function, argument, "must not be NULL (None)")
    if not isinstance(g, Geom):
        raise ODEError(function, argument, f"expected a dGeomID, got {g!r}")
    if not g.alive:
        raise ODEError(function, argument, "the geom has been destroyed")
    if cls is not None and not isinstance(g, cls):
        raise ODEError(function, argument, f"expected a {cls.NAME} geom, got {g!r}")
    return g


def space_of(s, function: str, argument: str = "space") -> Geom:
    """``s`` checked to be a live space (a geom whose class has ``IS_SPACE``)."""
    if not (isinstance(s, Geom) and s.IS_SPACE):
        raise ODEError(function, argument, f"expected a dSpaceID, got {s!r}")
    if not s.alive:
        raise ODEError(function, argument, "the space has been destroyed")
    return s


def placeable(g, function: str) -> Geom:
    geom = geom_of(g, function)
    if not geom.PLACEABLE:
        raise ODEError(function, "geom", f"a {geom.NAME} geom is not placeable")
    return geom


# ----------------------------------------------------------------------------- lifetime
def dGeomDestroy(geom) -> None:
    """Destroy the geom, removing it from its space and body."""
    g = geom_of(geom, "dGeomDestroy")
    g.destroy()


def dGeomSetData(geom, data) -> None:
    geom_of(geom, "dGeomSetData").user_data = data


def dGeomGetData(geom):
    return geom_of(geom, "dGeomGetData").user_data


def dGeomGetClass(geom) -> int:
    return geom_of(geom, "dGeomGetClass").CLASS


def dGeomGetSpace(geom):
    return geom_of(geom, "dGeomGetSpace").space


def dGeomIsSpace(geom) -> int:
    return int(geom_of(geom, "dGeomIsSpace").IS_SPACE)


# ----------------------------------------------------------------------------- body
def dGeomSetBody(geom, body) -> None:
    """Attach the geom to ``body`` (None detaches it, keeping its world pose)."""
    g = placeable(geom, "dGeomSetBody")
    b = None if body is None else body_of(body, "dGeomSetBody", "body")
    g.set_body(b)


def dGeomGetBody(geom):
    return geom_of(geom, "dGeomGetBody").body


def dGeomGetBodyNext(geom):
    """The next geom attached to the same body, or None."""
    g = geom_of(geom, "dGeomGetBodyNext")
    if g.body is None:
        return None
    lst = g.body.geoms
    i = lst.index(g)
    return lst[i + 1] if i + 1 < len(lst) else None


# ----------------------------------------------------------------------------- placement
def _set_world_pos(g: Geom, p: np.ndarray) -> None:
    b = g.body
    if b is None:
        g.own_pos = p
        return
    # moving a body-attached geom moves its body (ODE's behaviour)
    store = b.world.bodies
    if g.offset_pos is None:
        store.pos[b.index] = p
    else:
        store.pos[b.index] = p - matmul(store.R[b.index], g.offset_pos)


def _set_world_R(g: Geom, R: np.ndarray) -> None:
    b = g.body
    if b is None:
        # a bodyless geom keeps the matrix exactly as given (as ODE copies it);
        # going through a quaternion would change its last bits and with them
        # the tie-breaks of face-on contacts
        g.own_R = np.array(R, dtype=float).reshape(3, 3)
        return
    q = R_to_q(R)
    normalize4_inplace(q)
    Rn = np.empty((3, 3))
    q_to_R(q, Rn)
    body_R = Rn if g.offset_R is None else matmul(Rn, g.offset_R.T)
    pos_before = g.pos.copy()
    dBodySetRotation(b, body_R)
    if g.offset_pos is not None:
        _set_world_pos(g, pos_before)


def dGeomSetPosition(geom, x: float, y: float, z: float) -> None:
    """Set the world position (moves the body too, if the geom has one)."""
    g = placeable(geom, "dGeomSetPosition")
    _set_world_pos(g, checks.xyz(x, y, z, "dGeomSetPosition"))


def dGeomSetRotation(geom, R) -> None:
    """Set the world rotation (12-, 9-sequence or (3, 3))."""
    g = placeable(geom, "dGeomSetRotation")
    _set_world_R(g, checks.rotation(R, "dGeomSetRotation"))


def dGeomSetQuaternion(geom, q) -> None:
    g = placeable(geom, "dGeomSetQuaternion")
    qq = checks.vector(q, 4, "dGeomSetQuaternion", "q")
    if not np.any(qq):
        raise ODEError("dGeomSetQuaternion", "q", "must not be the zero quaternion")
    normalize4_inplace(qq)
    R = np.empty((3, 3))
    q_to_R(qq, R)
    _set_world_R(g, R)


def dGeomGetPosition(geom) -> np.ndarray:
    """World position (3,)."""
    return np.array(placeable(geom, "dGeomGetPosition").pos, dtype=float)


def dGeomCopyPosition(geom) -> np.ndarray:
    return dGeomGetPosition(geom)


def dGeomGetRotation(geom) -> np.ndarray:
    """World rotation as dMatrix3 (12,)."""
    return checks.matrix12(placeable(geom, "dGeomGetRotation").R)


def dGeomCopyRotation(geom) -> np.ndarray:
    return dGeomGetRotation(geom)


def dGeomGetQuaternion(geom) -> np.ndarray:
    """World orientation (4,) (w, x, y, z)."""
    g = placeable(geom, "dGeomGetQuaternion")
    if g.body is not None and g.offset_R is None:
        return g.body.world.bodies.q[g.body.index].copy()
    q = R_to_q(np.ascontiguousarray(g.R))
    normalize4_inplace(q)
    return q


# ----------------------------------------------------------------------------- offsets
def _need_body(g: Geom, function: str) -> None:
    if g.body is None:
        raise ODEError(function, "geom", "the geom must be attached to a body to have an offset")


def dGeomSetOffsetPosition(geom, x: float, y: float, z: float) -> None:
    """Offset position in the body frame."""
    g = placeable(geom, "dGeomSetOffsetPosition")
    _need_body(g, "dGeomSetOffsetPosition")
    g.offset_pos = checks.xyz(x, y, z, "dGeomSetOffsetPosition")
    if g.offset_R is None:
        g.offset_R = np.eye(3)


def dGeomSetOffsetRotation(geom, R) -> None:
    """Offset rotation relative to the body."""
    g = placeable(geom, "dGeomSetOffsetRotation")
    _need_body(g, "dGeomSetOffsetRotation")
    q = R_to_q(checks.rotation(R, "dGeomSetOffsetRotation"))
    normalize4_inplace(q)
    Rn = np.empty((3, 3))
    q_to_R(q, Rn)
    g.offset_R = Rn
    if g.offset_pos is None:
        g.offset_pos = np.zeros(3)


def dGeomSetOffsetQuaternion(geom, q) -> None:
    g = placeable(geom, "dGeomSetOffsetQuaternion")
    _need_body(g, "dGeomSetOffsetQuaternion")
    qq = checks.vector(q, 4, "dGeomSetOffsetQuaternion", "q")
    if not np.any(qq):
        raise ODEError("dGeomSetOffsetQuaternion", "q", "must not be the zero quaternion")
    normalize4_inplace(qq)
    R = np.empty((3, 3))
    q_to_R(qq, R)
    dGeomSetOffsetRotation(g, R)


def dGeomSetOffsetWorldPosition(geom, x: float, y: float, z: float) -> None:
    """Offset such that the geom is at world point (x, y, z) for the body's current pose."""
    g = placeable(geom, "dGeomSetOffsetWorldPosition")
    _need_body(g, "dGeomSetOffsetWorldPosition")
    p = checks.xyz(x, y, z, "dGeomSetOffsetWorldPosition")
    store = g.body.world.bodies
    g.offset_pos = matmul(store.R[g.body.index].T, p - store.pos[g.body.index])
    if g.offset_R is None:
        g.offset_R = np.eye(3)


def dGeomSetOffsetWorldRotation(geom, R) -> None:
    """Offset such that the geom has world rotation R for the body's current pose."""
    g = placeable(geom, "dGeomSetOffsetWorldRotation")
    _need_body(g, "dGeomSetOffsetWorldRotation")
    Rw = checks.rotation(R, "dGeomSetOffsetWorldRotation")
    store = g.body.world.bodies
    dGeomSetOffsetRotation(g, matmul(store.R[g.body.index].T, Rw))


def dGeomSetOffsetWorldQuaternion(geom, q) -> None:
    g = placeable(geom, "dGeomSetOffsetWorldQuaternion")
    _need_body(g, "dGeomSetOffsetWorldQuaternion")
    qq = checks.vector(q, 4, "dGeomSetOffsetWorldQuaternion", "q")
    if not np.any(qq):
        raise ODEError("dGeomSetOffsetWorldQuaternion", "q", "must not be the zero quaternion")
    normalize4_inplace(qq)
    R = np.empty((3, 3))
    q_to_R(qq, R)
    dGeomSetOffsetWorldRotation(g, R)


def dGeomClearOffset(geom) -> None:
    """Remove the offset: the geom sits at its body's origin again."""
    g = placeable(geom, "dGeomClearOffset")
    g.offset_pos = None
    g.offset_R = None


def dGeomIsOffset(geom) -> int:
    return int(placeable(geom, "dGeomIsOffset").offset_pos is not None)


def dGeomGetOffsetPosition(geom) -> np.ndarray:
    g = placeable(geom, "dGeomGetOffsetPosition")
    return np.zeros(3) if g.offset_pos is None else g.offset_pos.copy()


def dGeomCopyOffsetPosition(geom) -> np.ndarray:
    return dGeomGetOffsetPosition(geom)


def dGeomGetOffsetRotation(geom) -> np.ndarray:
    g = placeable(geom, "dGeomGetOffsetRotation")
    return checks.matrix12(np.eye(3) if g.offset_R is None else g.offset_R)


def dGeomCopyOffsetRotation(geom) -> np.ndarray:
    return dGeomGetOffsetRotation(geom)


def dGeomGetOffsetQuaternion(geom) -> np.ndarray:
    g = placeable(geom, "dGeomGetOffsetQuaternion")
    if g.offset_R is None:
        return np.array([1.0, 0.0, 0.0, 0.0])
    q = R_to_q(np.ascontiguousarray(g.offset_R))
    normalize4_inplace(q)
    return q


# ----------------------------------------------------------------------------- bounds, bits
def dGeomGetAABB(geom) -> np.ndarray:
    """Axis-aligned bounding box (6,): minx, maxx, miny, maxy, minz, maxz."""
    return np.array(geom_of(geom, "dGeomGetAABB").compute_aabb(), dtype=float)


def dGeomSetCategoryBits(geom, bits: int) -> None:
    g = geom_of(geom, "dGeomSetCategoryBits")
    g.category_bits = checks.integer(bits, "dGeomSetCategoryBits", "bits") & ALL_BITS


def dGeomSetCollideBits(geom, bits: int) -> None:
    g = geom_of(geom, "dGeomSetCollideBits")
    g.collide_bits = checks.integer(bits, "dGeomSetCollideBits", "bits") & ALL_BITS


def dGeomGetCategoryBits(geom) -> int:
    return geom_of(geom, "dGeomGetCategoryBits").category_bits


def dGeomGetCollideBits(geom) -> int:
    return geom_of(geom, "dGeomGetCollideBits").collide_bits


def dGeomEnable(geom) -> None:
    geom_of(geom, "dGeomEnable").enabled = True


def dGeomDisable(geom) -> None:
    geom_of(geom, "dGeomDisable").enabled = False


def dGeomIsEnabled(geom) -> int:
    return int(geom_of(geom, "dGeomIsEnabled").enabled)


def dGeomMoved(geom) -> None:
    """Tell the geom (and its space) it moved; poses are computed on demand here."""
    geom_of(geom, "dGeomMoved").mark_moved()
