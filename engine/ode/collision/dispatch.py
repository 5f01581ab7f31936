"""dCollide over the collider table (:mod:`engine.ode.collision.table`).

Contact rows of a pair come from the table's entry for the two classes (the
swapped entry, with its contacts swapped, when only (B, A) is listed), or
from a user override (``dSetColliderOverride``: a Python function
``fn(o1, o2, max_contacts) -> list[dContactGeom]``); dCollide returns them
as dContactGeom objects.
"""

from __future__ import annotations

import numpy as np

from engine.ode import checks
from engine.ode.collision.geoms.geom import Geom, geom_of
from engine.ode.collision.spaces.space import Space
from engine.ode.collision.table import (
    BUILTIN,
    BUILTIN_SWAPPED,
    NONE,
    OVERRIDES,
    RESOLVED,
    USER,
    resolve,
    swap_rows,
)
from engine.ode.constants import dGeomTransformClass
from engine.ode.errors import ODEError
from engine.ode.structs import dContactGeom


def to_contact_geoms(rows: np.ndarray, g1: Geom, g2: Geom) -> list[dContactGeom]:
    """dContactGeom objects for contact rows of (g1, g2) (each with its own
    pos and normal arrays)."""
    out = []
    new = dContactGeom.__new__
    arr = np.array
    for r in rows.tolist():
        c = new(dContactGeom)
        c.pos = arr(r[0:3])
        c.normal = arr(r[3:6])
        c.depth = r[6]
        c.g1 = g1
        c.g2 = g2
        c.side1 = int(r[7])
        c.side2 = int(r[8])
        out.append(c)
    return out


def _checked(o1, o2, max_contacts) -> tuple[Geom, Geom, int]:
    g1 = geom_of(o1, "dCollide", "o1")
    g2 = geom_of(o2, "dCollide", "o2")
    n = checks.integer(max_contacts, "dCollide", "max_contacts") & 0xFFFF
    if n < 1:
        raise ODEError("dCollide", "max_contacts", f"must be at least 1, got {max_contacts}")
    if isinstance(g1, Space) or isinstance(g2, Space):
        raise ODEError("dCollide", "o1" if isinstance(g1, Space) else "o2",
                       "spaces cannot be collided directly; use dSpaceCollide2")
    return g1, g2, n


def dCollide(o1, o2, max_contacts: int) -> list[dContactGeom]:
    """Contact points between two geoms (at most ``max_contacts``, >= 1).

    Each dContactGeom has pos, normal (pointing into o1), depth, g1 = o1,
    g2 = o2, side1/side2 (triangle or feature indices, -1 when unused). Two
    geoms attached to the same body never touch (none are returned).
    """
    # fast path: two live non-space geoms and a plain int count (the near
    # callback's case); anything else goes through the full checks
    if (type(max_contacts) is int and 0 < max_contacts < 0x10000 and isinstance(o1, Geom)
            and isinstance(o2, Geom) and o1.alive and o2.alive
            and not isinstance(o1, Space) and not isinstance(o2, Space)):
        g1, g2, n = o1, o2, max_contacts
    else:
        g1, g2, n = _checked(o1, o2, max_contacts)
    # as ODE: no contacts of a geom with itself or between geoms of one body
    if g1 is g2 or (g1.body is not None and g1.body is g2.body):
        return []
    got = RESOLVED.get((g1.CLASS, g2.CLASS))
    mode, fn = resolve(g1.CLASS, g2.CLASS) if got is None else got
    if mode == BUILTIN:
        rows = fn(g1, g2, n)
    elif mode == BUILTIN_SWAPPED:
        rows = swap_rows(fn(g2, g1, n))
    elif mode == NONE:
        return []
    elif mode == USER:
        return list(fn(g1, g2, n))[:n]
    else:
        swapped = []
        for c in list(fn(g2, g1, n))[:n]:
            swapped.append(dContactGeom(c.pos, -np.asarray(c.normal), c.depth, g1, g2,
                                        c.side2, c.side1))
        return swapped
    if rows.shape[0] > n:
        rows = rows[:n]
    if g1.CLASS == dGeomTransformClass or g2.CLASS == dGeomTransformClass:
        # a geom transform with info 0 has its contacts name the geom it holds
        return to_contact_geoms(rows, g1.contact_geom(), g2.contact_geom())
    return to_contact_geoms(rows, g1, g2)


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
