"""User-defined geom classes (the manual's "User defined classes").

A class is described by a :class:`dGeomClass` and registered with
:func:`dCreateGeomClass`, which returns its number (``dFirstUserClass``
upward, at most ``dMaxUserClasses`` classes). Python signatures of the
callbacks (ODE's C typedefs, made Python-friendly):

* ``collider(num) -> dColliderFn | None``: the function that collides a geom
  of this class (first argument) with a geom of class ``num``, or None;
  asked once per class pair, the answer is cached (as ODE does).
* a collider: ``fn(o1, o2, max_contacts) -> contacts``, the same signature as
  a :func:`dSetColliderOverride` function; ``contacts`` is a list of
  dContactGeom (pos (3,) m, normal (3,) pointing into o1, depth m, side1,
  side2; their g1/g2 are filled in by dCollide) or a (k, 9) float array of
  rows ``pos, normal, depth, side1, side2``; at most ``max_contacts`` are used.
* ``aabb(geom) -> 6 numbers`` (minx, maxx, miny, maxy, minz, maxz) m;
  :func:`dInfiniteAABB` may be used.
* ``aabb_test(o1, o2, aabb2) -> int`` (optional): 0 if geom ``o1`` of this
  class cannot touch the box ``aabb2`` (6,) of ``o2``; spaces skip the pair.
* ``dtor(geom)`` (optional): called when a geom of the class is destroyed.

Each geom of a class gets ``bytes`` bytes of zeroed class data,
:func:`dGeomGetClassData` (a writable ``bytearray``; e.g.
``np.frombuffer(dGeomGetClassData(g), dtype=np.float64)`` is a writable view).
If neither class of a pair knows the other, the pair has no contacts.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np

from engine.ode import checks
from engine.ode.collision.geoms.geom import Geom, geom_of
from engine.ode.collision.table import COLLIDERS, NO_CONTACTS, swap_rows
from engine.ode.constants import (
    dFirstSpaceClass,
    dFirstUserClass,
    dGeomNumClasses,
    dLastSpaceClass,
    dLastUserClass,
    dMaxUserClasses,
)
from engine.ode.errors import ODEError
from engine.ode.library import register_on_close
from engine.ode.structs import dContactGeom

#: ODE's callback types, as Python callables (see the module docstring).
dColliderFn = Callable[[Geom, Geom, int], "Sequence[dContactGeom] | np.ndarray"]
dGetColliderFnFn = Callable[[int], "dColliderFn | None"]
dGetAABBFn = Callable[[Geom], Sequence[float]]
dAABBTestFn = Callable[[Geom, Geom, np.ndarray], int]
dGeomDtorFn = Callable[[Geom], None]


class dGeomClass:
    """Description of a user geom class: ``bytes`` of class data per geom,
    ``collider`` (num -> collider or None), ``aabb`` (geom -> 6 values),
    optional ``aabb_test`` (o1, o2, aabb2 -> int) and ``dtor`` (geom)."""

    __slots__ = ("bytes", "collider", "aabb", "aabb_test", "dtor")

    def __init__(self, bytes: int = 0, collider: dGetColliderFnFn | None = None,
                 aabb: dGetAABBFn | None = None, aabb_test: dAABBTestFn | None = None,
                 dtor: dGeomDtorFn | None = None) -> None:
        self.bytes = bytes
        self.collider = collider
        self.aabb = aabb
        self.aabb_test = aabb_test
        self.dtor = dtor

    def __repr__(self) -> str:
        return (f"dGeomClass(bytes={self.bytes!r}, collider={self.collider!r}, "
                f"aabb={self.aabb!r}, aabb_test={self.aabb_test!r}, dtor={self.dtor!r})")


class UserGeom(Geom):
    """A geom of a user class; one subclass per class number sets ``CLASS``."""

    NAME = "user class"
    CREATOR = "dCreateGeom"
    __slots__ = ("geom_class", "class_data")

    def __init__(self, geom_class: dGeomClass) -> None:
        self.geom_class = geom_class
        self.class_data = bytearray(geom_class.bytes)
        super().__init__(None)

    def compute_aabb(self) -> np.ndarray:
        """The class's ``aabb`` callback, checked to give 6 numbers (NaN-free)."""
        try:
            box = np.asarray(self.geom_class.aabb(self), dtype=np.float64).reshape(-1)
        except (TypeError, ValueError):
            raise ODEError("dGeomGetAABB", "aabb", "the user class's aabb function must "
                           "return 6 numbers") from None
        if box.shape != (6,) or np.isnan(box).any():
            raise ODEError("dGeomGetAABB", "aabb", "the user class's aabb function must "
                           f"return 6 numbers, got {box.tolist()}")
        return box

    def aabb_test(self, other: Geom, aabb: np.ndarray) -> bool:
        """False if the class's aabb_test proves ``other`` (box ``aabb`` (6,)) is apart."""
        fn = self.geom_class.aabb_test
        return fn is None or bool(fn(self, other, np.array(aabb, dtype=float)))

    def destroy(self) -> None:
        dtor = self.geom_class.dtor
        if dtor is not None and self.alive:
            dtor(self)
        super().destroy()
        self.class_data = bytearray()


#: Registered classes, index = class number - dFirstUserClass.
_CLASSES: list[dGeomClass] = []
#: The Geom subclass of each registered class number.
_GEOM_TYPES: dict[int, type] = {}
#: Collider answers cached per (user class, other class): (fn or None, reversed).
_RESOLVED: dict[tuple[int, int], tuple[Callable | None, bool]] = {}
#: COLLIDERS keys this module added (removed again by clear_user_classes).
_OWN_KEYS: set[tuple[int, int]] = set()


def aabb_test(g: Geom, other: Geom, other_aabb: np.ndarray) -> bool:
    """For spaces: False if ``g`` is a user geom whose class's aabb_test says it
    cannot touch ``other``'s box (6,); True otherwise (the pair goes on)."""
    return g.aabb_test(other, other_aabb)


def _rows_from_user(result, max_contacts: int) -> np.ndarray:
    """(k, 9) rows from a user collider's list of dContactGeom or array of rows."""
    if result is None:
        return NO_CONTACTS
    if isinstance(result, np.ndarray):
        rows = np.asarray(result, dtype=np.float64)
        if rows.size == 0:
            return NO_CONTACTS
        if rows.ndim != 2 or rows.shape[1] != 9:
            raise ODEError("dCollide", "collider", "a user collider must return dContactGeoms "
                           f"or (k, 9) rows, got shape {rows.shape}")
        return rows[:max_contacts].copy()
    contacts = list(result)[:max_contacts]
    rows = np.empty((len(contacts), 9))
    for i, c in enumerate(contacts):
        if not isinstance(c, dContactGeom):
            raise ODEError("dCollide", "collider", "a user collider must return dContactGeoms "
                           f"or (k, 9) rows, got {c!r}")
        rows[i, 0:3] = c.pos
        rows[i, 3:6] = c.normal
        rows[i, 6] = c.depth
        rows[i, 7] = c.side1
        rows[i, 8] = c.side2
    return rows if len(contacts) else NO_CONTACTS


def _resolve(num: int, other: int) -> tuple[Callable | None, bool]:
    """The collider for (class ``num``, class ``other``): ``num``'s answer, else
    (if ``other`` is a user class) ``other``'s answer for ``num``, reversed."""
    key = (num, other)
    if key not in _RESOLVED:
        fn = _CLASSES[num - dFirstUserClass].collider(other)
        reverse = False
        if fn is None and dFirstUserClass <= other < dFirstUserClass + len(_CLASSES):
            fn = _CLASSES[other - dFirstUserClass].collider(num)
            reverse = True
        if fn is not None and not callable(fn):
            raise ODEError("dCollide", "collider", f"the collider of user class {num} for "
                           f"class {other} is not callable: {fn!r}")
        _RESOLVED[key] = (fn, reverse)
    return _RESOLVED[key]


def _user_collider(num: int):
    """The table entry for (user class ``num``, any class)."""
    def collide_user(g1: Geom, g2: Geom, max_contacts: int) -> np.ndarray:
        fn, reverse = _resolve(num, g2.CLASS)
        if fn is None:
            return NO_CONTACTS
        if reverse:
            return swap_rows(_rows_from_user(fn(g2, g1, max_contacts), max_contacts))
        return _rows_from_user(fn(g1, g2, max_contacts), max_contacts)
    return collide_user


def _callable_or_none(value, name: str):
    if value is not None and not callable(value):
        raise ODEError("dCreateGeomClass", "classptr", f"{name} must be callable or None")
    return value


def dCreateGeomClass(classptr: dGeomClass) -> int:
    """Register a user geom class (its fields are copied) and return its number.
    Colliders for every class pair not yet covered are set up, asked lazily."""
    fn = "dCreateGeomClass"
    if not isinstance(classptr, dGeomClass):
        raise ODEError(fn, "classptr", f"expected a dGeomClass, got {classptr!r}")
    size = checks.integer(classptr.bytes, fn, "classptr.bytes")
    if size < 0:
        raise ODEError(fn, "classptr", f"bytes must be >= 0, got {size}")
    if not callable(classptr.collider) or not callable(classptr.aabb):
        raise ODEError(fn, "classptr", "collider and aabb must be callable")
    if len(_CLASSES) >= dMaxUserClasses:
        raise ODEError(fn, "classptr", f"too many user classes (at most {dMaxUserClasses})")
    copy = dGeomClass(size, classptr.collider, classptr.aabb,
                      _callable_or_none(classptr.aabb_test, "aabb_test"),
                      _callable_or_none(classptr.dtor, "dtor"))
    num = dFirstUserClass + len(_CLASSES)
    _CLASSES.append(copy)
    _GEOM_TYPES[num] = type(f"UserGeom{num}", (UserGeom,), {"CLASS": num, "__slots__": ()})
    entry = _user_collider(num)
    # as ODE: every pair (num, c) gets this class's collider unless the table
    # already has one for it in either order (spaces and transforms keep theirs)
    for c in range(dGeomNumClasses):
        if dFirstSpaceClass <= c <= dLastSpaceClass:
            continue
        if (num, c) not in COLLIDERS and (c, num) not in COLLIDERS:
            COLLIDERS[(num, c)] = entry
            _OWN_KEYS.add((num, c))
    return num


def dCreateGeom(classnum: int) -> UserGeom:
    """A geom of user class ``classnum`` (not in a space; add it with dSpaceAdd),
    its class data zeroed."""
    num = checks.integer(classnum, "dCreateGeom", "classnum")
    if not dFirstUserClass <= num <= dLastUserClass:
        raise ODEError("dCreateGeom", "classnum", f"{num} is not a user class number "
                       f"({dFirstUserClass}..{dLastUserClass})")
    if num >= dFirstUserClass + len(_CLASSES):
        raise ODEError("dCreateGeom", "classnum", f"user class {num} has not been created "
                       "(dCreateGeomClass)")
    return _GEOM_TYPES[num](_CLASSES[num - dFirstUserClass])


def dGeomGetClassData(g) -> bytearray:
    """The geom's class data: a writable bytearray of the class's ``bytes`` bytes."""
    return geom_of(g, "dGeomGetClassData", "geom", UserGeom).class_data


def clear_user_classes() -> None:
    """Forget every user class and its colliders (what dCloseODE does in ODE);
    class numbers start again at dFirstUserClass."""
    for key in _OWN_KEYS:
        COLLIDERS.pop(key, None)
    _OWN_KEYS.clear()
    _RESOLVED.clear()
    _GEOM_TYPES.clear()
    _CLASSES.clear()


register_on_close(clear_user_classes)
