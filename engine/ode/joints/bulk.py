"""Joints made in bulk (contact joints of a whole space) without a Python handle each.

ODE's dJointCreateContact + dJointAttach give every contact joint a handle
and put it in both bodies' joint lists; a pile of 1000 bodies makes ~1500
such joints per step only to destroy them at the next dJointGroupEmpty. A
:class:`JointBatch` records what those handles would hold (rows, geoms,
group) once for the whole batch; the joint store marks each of its rows
with the batch (``JointStore.bulk``). A row's handle is made the first time
anyone asks for it (:func:`joint_handle`), and a batch row joins its
bodies' joint lists (:func:`adopt_rows`) the first time a body-list query
needs it (dBodyGetJoint, dAreConnected, dBodyDestroy...): what the flat API
shows is the same as with handles made one by one.

Body joint lists are kept in attach order (``JointStore.attach_seq``
increasing); adopted rows are merged into them by their attach sequence, so
the order stays ODE's (newest attachment last in the list, first in
dBodyGetJoint).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from engine.ode.joints.layout import JD, JF_ALIVE
from engine.ode.world import register_body_joint_settler

#: ``JointStore.bulk`` of a row that is not (or no longer) a pending batch row
NOT_BULK = -1


@dataclass(eq=False)
class JointBatch:
    """Joints made together; row ``rows[k]`` is the k-th joint.

    ``world``: their world; ``group``: their joint group (or None);
    ``handle_class``: the handle type made on demand (a Joint subclass whose
    extra slots are ``g1``, ``g2``); ``rows (m,) int64`` joint store rows;
    ``seq0``: the creation sequence number of ``rows[0]`` (``rows[k]`` has
    ``seq0 + k`` while it lives); ``geoms``: the geoms ``g1 (m,)``, ``g2
    (m,)`` index into; ``extra``: {k: (g1, g2)} geoms given directly;
    ``key``: the batch's number in ``JointStore.batches``; ``record_floats``:
    the record floats joints of ``handle_class`` use (the rest of their rows
    stays zero).
    """

    world: object
    group: object
    handle_class: type
    rows: np.ndarray
    seq0: int
    geoms: list
    g1: np.ndarray
    g2: np.ndarray
    extra: dict = field(default_factory=dict)
    key: int = -1
    record_floats: int = JD
    #: True once a handle was made for one of its joints
    has_handles: bool = False

    def live_rows(self) -> np.ndarray:
        """The rows (k,) int64 still holding this batch's joints, in batch order."""
        store = self.world.joints
        expected = self.seq0 + np.arange(self.rows.shape[0], dtype=np.int64)
        return self.rows[store.seq[self.rows] == expected]

    def geoms_of(self, k: int) -> tuple:
        """(g1, g2) of the batch's k-th joint."""
        if k in self.extra:
            return self.extra[k]
        return self.geoms[int(self.g1[k])], self.geoms[int(self.g2[k])]


def register_batch(batch: JointBatch) -> None:
    """Keep ``batch`` in its world's joint store under the key
    ``store.next_batch``, which its rows' ``JointStore.bulk`` already hold
    (the joints were written with it)."""
    store = batch.world.joints
    batch.key = store.next_batch
    store.next_batch += 1
    store.batches[batch.key] = batch


def retire_batch(batch: JointBatch) -> None:
    """Forget ``batch`` (its rows were destroyed or adopted)."""
    batch.world.joints.batches.pop(batch.key, None)


def joint_handle(world, row: int):
    """The handle of live joint row ``row``, made now if it was made in bulk."""
    store = world.joints
    handle = store.handles[row]
    if handle is not None:
        return handle
    key = int(store.bulk[row])
    if key == NOT_BULK or not store.flags[row] & JF_ALIVE:
        return None
    batch = store.batches[key]
    handle = batch.handle_class.__new__(batch.handle_class)
    handle.world = world
    handle.index = row
    handle.group = batch.group
    handle.data = None
    handle.feedback = None
    handle.g1, handle.g2 = batch.geoms_of(int(store.seq[row]) - batch.seq0)
    store.handles[row] = handle
    batch.has_handles = True
    return handle


def pending_rows(world, body_row: int | None = None) -> np.ndarray:
    """Live batch rows (k,) int64 not yet in body joint lists, in row order;
    only those attached to body ``body_row`` when given."""
    store = world.joints
    if not store.batches:
        return np.zeros(0, dtype=np.int64)
    n = store.count
    pending = store.bulk[:n] != NOT_BULK
    if body_row is not None:
        bodies = store.body[:n]
        pending &= (bodies[:, 0] == body_row) | (bodies[:, 1] == body_row)
    return np.flatnonzero(pending)


def adopt_rows(world, rows: np.ndarray) -> None:
    """Give batch rows ``rows`` their handles and put them in their bodies'
    joint lists, merged by attach sequence (the lists' order)."""
    if rows.size == 0:
        return
    store = world.joints
    lists = world.bodies.joint_lists
    attach_seq = store.attach_seq
    touched: set[int] = set()
    for row in rows.tolist():
        handle = joint_handle(world, row)
        store.bulk[row] = NOT_BULK
        for b in store.body[row].tolist():
            if b >= 0:
                lists[b].append(handle)
                touched.add(b)
    for b in touched:
        lists[b].sort(key=lambda j: int(attach_seq[j.index]))


def adopt_body(world, body_row: int) -> None:
    """Every pending batch row attached to body ``body_row`` adopted."""
    adopt_rows(world, pending_rows(world, body_row))


register_body_joint_settler(adopt_body)
