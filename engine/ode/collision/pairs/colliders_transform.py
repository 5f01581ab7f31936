"""Collider of the geom transform with any geom (every non-space class, user classes included).

The transform's object is collided at its world pose through dCollide (so
overrides and user classes apply), with the transform as g1; the contacts
name the geoms as :meth:`GeomTransform.contact_geom` says (dispatch does that
renaming). Rows are ``pos (3), normal (3), depth, side1, side2`` (k, 9), the
normal pointing into the transform.
"""

from __future__ import annotations

import numpy as np

from engine.ode.collision.dispatch import dCollide
from engine.ode.collision.geoms.geom import Geom
from engine.ode.collision.geoms.transform import GeomTransform, check_object, placed
from engine.ode.collision.table import NO_CONTACTS


def _rows_of(contacts: list) -> np.ndarray:
    """(k, 9) contact rows from dContactGeom objects."""
    if not contacts:
        return NO_CONTACTS
    rows = np.empty((len(contacts), 9))
    for i, c in enumerate(contacts):
        rows[i, 0:3] = c.pos
        rows[i, 3:6] = c.normal
        rows[i, 6] = c.depth
        rows[i, 7] = c.side1
        rows[i, 8] = c.side2
    return rows


def collide_transform(tr: GeomTransform, other: Geom, max_contacts: int) -> np.ndarray:
    """Contacts (k, 9) of a geom transform with any geom: its object collided
    at its world pose through dCollide (so overrides and user classes apply);
    normals point into the transform."""
    if tr.obj is None:
        return NO_CONTACTS
    check_object(tr, "dCollide")
    with placed(tr) as obj:
        contacts = dCollide(obj, other, max_contacts)
    return _rows_of(contacts)
