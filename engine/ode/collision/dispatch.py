"""dCollide and the table of colliders, one entry per unordered class pair.

A collider is ``fn(g1, g2, max_contacts) -> (k, 9) float64 array`` of
contacts, row = ``pos (3), normal (3), depth, side1, side2``, with ODE's
convention: the normal points into g1 (moving g1 by ``depth`` along
``normal`` separates them). Registering (A, B) serves (B, A) too: the
contacts are swapped (normal negated, sides exchanged).
``dSetColliderOverride`` replaces an entry with a Python function
``fn(o1, o2, max_contacts) -> list[dContactGeom]``.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from engine.ode import checks
from engine.ode.collision.geom import Geom, geom_of
from engine.ode.errors import ODEError
from engine.ode.structs import dContactGeom

ColliderFn = Callable[[Geom, Geom, int], np.ndarray]

#: (class1, class2) -> collider returning contact rows for (g1, g2) in that order.
COLLIDERS: dict[tuple[int, int], ColliderFn] = {}
#: User overrides: (class1, class2) -> fn(o1, o2, max_contacts) -> list[dContactGeom].
OVERRIDES: dict[tuple[int, int], Callable] = {}

NO_CONTACTS = np.zeros((0, 9))


def register(cls1: int, cls2: int):
    """Decorator: ``fn`` collides geoms of classes (cls1, cls2) in that order."""
    def deco(fn: ColliderFn) -> ColliderFn:
        COLLIDERS[(cls1, cls2)] = fn
        return fn
    return deco


def swap_rows(rows: np.ndarray) -> np.ndarray:
    """Contacts of (g2, g1) from those of (g1, g2): normal negated, sides swapped."""
    out = rows.copy()
    out[:, 3:6] = -rows[:, 3:6]
    out[:, 7] = rows[:, 8]
    out[:, 8] = rows[:, 7]
    return out


def to_contact_geoms(rows: np.ndarray, g1: Geom, g2: Geom) -> list[dContactGeom]:
    """dContactGeom objects for contact rows of (g1, g2)."""
    out = []
    for r in rows:
        c = dContactGeom.__new__(dContactGeom)
        c.pos = r[0:3].copy()
        c.normal = r[3:6].copy()
        c.depth = float(r[6])
        c.g1 = g1
        c.g2 = g2
        c.side1 = int(r[7])
        c.side2 = int(r[8])
        out.append(c)
    return out


def collide_rows(g1: Geom, g2: Geom, max_contacts: int) -> np.ndarray:
    """Contact rows of (g1, g2) from the table, or none if the pair has no collider."""
    key = (g1.CLASS, g2.CLASS)
    fn = COLLIDERS.get(key)
    if fn is not None:
        return fn(g1, g2, max_contacts)
    fn = COLLIDERS.get((key[1], key[0]))
    if fn is not None:
        return swap_rows(fn(g2, g1, max_contacts))
    return NO_CONTACTS


def dCollide(o1, o2, max_contacts: int) -> list[dContactGeom]:
    """Contact points between two geoms (at most ``max_contacts``, >= 1).

    Each dContactGeom has pos, normal (pointing into o1), depth, g1 = o1,
    g2 = o2, side1/side2 (triangle or feature indices, -1 when unused).
    """
    from engine.ode.collision.space import Space

    g1 = geom_of(o1, "dCollide", "o1")
    g2 = geom_of(o2, "dCollide", "o2")
    n = checks.integer(max_contacts, "dCollide", "max_contacts") & 0xFFFF
    if n < 1:
        raise ODEError("dCollide", "max_contacts", f"must be at least 1, got {max_contacts}")
    if isinstance(g1, Space) or isinstance(g2, Space):
        raise ODEError("dCollide", "o1" if isinstance(g1, Space) else "o2",
                       "spaces cannot be collided directly; use dSpaceCollide2")
    if g1 is g2:
        return []
    key = (g1.CLASS, g2.CLASS)
    user = OVERRIDES.get(key)
    if user is not None:
        return list(user(g1, g2, n))[:n]
    user = OVERRIDES.get((key[1], key[0]))
    if user is not None:
        swapped = []
        for c in list(user(g2, g1, n))[:n]:
            swapped.append(dContactGeom(c.pos, -np.asarray(c.normal), c.depth, g1, g2,
                                        c.side2, c.side1))
        return swapped
    rows = collide_rows(g1, g2, n)
    return to_contact_geoms(rows[:n], g1, g2)


def dSetColliderOverride(i: int, j: int, fn) -> None:
    """Use ``fn(o1, o2, max_contacts) -> list[dContactGeom]`` for classes (i, j)
    (and, swapped, for (j, i)); None restores the built-in collider."""
    a = checks.integer(i, "dSetColliderOverride", "i")
    b = checks.integer(j, "dSetColliderOverride", "j")
    if fn is not None and not callable(fn):
        raise ODEError("dSetColliderOverride", "fn", "must be callable or None")
    if fn is None:
        OVERRIDES.pop((a, b), None)
    else:
        OVERRIDES[(a, b)] = fn
