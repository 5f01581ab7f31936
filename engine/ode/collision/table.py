"""The collider table dCollide reads: (class1, class2) -> collider, and user overrides.

A collider is ``fn(g1, g2, max_contacts) -> (k, 9) float64 array`` of
contacts, row = ``pos (3), normal (3), depth, side1, side2``, with ODE's
convention: the normal points into g1 (moving g1 by ``depth`` along
``normal`` separates them). An entry for (A, B) serves (B, A) too: the
contacts are swapped (normal negated, sides exchanged). The built-in entries
are those of :mod:`engine.ode.collision.matrix` (installed when it is
imported, as ``engine.ode`` does); user geom classes add theirs when created.
``dSetColliderOverride`` puts a Python function
``fn(o1, o2, max_contacts) -> list[dContactGeom]`` in ``OVERRIDES``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

#: A built-in collider: ``fn(g1, g2, max_contacts) -> (k, 9)`` contact rows of two geoms.
ColliderFn = Callable[[Any, Any, int], np.ndarray]

#: (class1, class2) -> how dCollide serves the pair, resolved on first use:
#: (mode, fn) with mode BUILTIN / BUILTIN_SWAPPED / USER / USER_SWAPPED / NONE.
#: Emptied whenever COLLIDERS or OVERRIDES change.
RESOLVED: dict[tuple[int, int], tuple[int, Callable | None]] = {}
NONE, BUILTIN, BUILTIN_SWAPPED, USER, USER_SWAPPED = 0, 1, 2, 3, 4


class _Table(dict):
    """A dict that forgets the resolved pairs (and bumps ``version``) whenever it changes."""

    version = 0

    def _changed(self) -> None:
        RESOLVED.clear()
        _Table.version += 1

    def __setitem__(self, key, value) -> None:
        super().__setitem__(key, value)
        self._changed()

    def __delitem__(self, key) -> None:
        super().__delitem__(key)
        self._changed()

    def pop(self, *args):
        out = super().pop(*args)
        self._changed()
        return out

    def popitem(self):
        out = super().popitem()
        self._changed()
        return out

    def clear(self) -> None:
        super().clear()
        self._changed()

    def update(self, *args, **kw) -> None:
        super().update(*args, **kw)
        self._changed()

    def setdefault(self, key, default=None):
        out = super().setdefault(key, default)
        self._changed()
        return out


#: (class1, class2) -> collider returning contact rows for (g1, g2) in that order.
COLLIDERS: dict[tuple[int, int], ColliderFn] = _Table()
#: User overrides: (class1, class2) -> fn(o1, o2, max_contacts) -> list[dContactGeom].
OVERRIDES: dict[tuple[int, int], Callable] = _Table()

NO_CONTACTS = np.zeros((0, 9))


def table_version() -> int:
    """A number that changes whenever COLLIDERS or OVERRIDES change."""
    return _Table.version


def resolve(c1: int, c2: int) -> tuple[int, Callable | None]:
    """How dCollide serves classes (c1, c2): (mode, function), cached."""
    key = (c1, c2)
    got = RESOLVED.get(key)
    if got is not None:
        return got
    if key in OVERRIDES:
        got = (USER, OVERRIDES[key])
    elif (c2, c1) in OVERRIDES:
        got = (USER_SWAPPED, OVERRIDES[(c2, c1)])
    elif key in COLLIDERS:
        got = (BUILTIN, COLLIDERS[key])
    elif (c2, c1) in COLLIDERS:
        got = (BUILTIN_SWAPPED, COLLIDERS[(c2, c1)])
    else:
        got = (NONE, None)
    RESOLVED[key] = got
    return got


def swap_rows(rows: np.ndarray) -> np.ndarray:
    """Contacts of (g2, g1) from those of (g1, g2): normal negated, sides swapped."""
    out = rows.copy()
    out[:, 3:6] = -rows[:, 3:6]
    out[:, 7] = rows[:, 8]
    out[:, 8] = rows[:, 7]
    return out
