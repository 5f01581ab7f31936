"""Structure-of-arrays storage of a world's joints.

Every joint is a row: its type, its two bodies, flags, and a fixed-size
record of floats (``data``) and integers (``idata``) whose layout each joint
module defines. Joint kernels read and write these rows; the Python handles
in :mod:`engine.ode.joints` are thin views over them.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from engine.ode.joints.layout import JD, JF_ALIVE, JF_ENABLED, JI, MAX_ROWS


class JointStore:
    """Per-joint arrays, each of first dimension ``capacity``.

    ``type (n,)``; ``body (n, 2)`` body rows, -1 for none (ODE moves a lone
    body to slot 0 and sets ``JF_REVERSE``); ``flags (n,)``; ``seq (n,)``
    creation order; ``attach_seq (n,)`` order of the last attach (a body's
    joint list is newest-attached first, as ODE's); ``data (n, JD)``,
    ``idata (n, JI)`` per-type records; ``feedback (n, 12)`` f1, t1, f2, t2
    of the last step; ``lam (n, MAX_ROWS)`` row forces of the last step;
    ``nrows (n,)`` rows used in the last step; ``bulk (n,)`` the key of the
    :class:`~engine.ode.joints.bulk.JointBatch` a row was made in while it
    has no handle and is in no body's joint list (-1 otherwise), the batches
    in ``batches`` {key: batch}.

    Free rows (destroyed joints' rows, kept cleared) form a stack:
    ``free_rows[:free_count]``, the last one is reused first.
    """

    def __init__(self, capacity: int = 16) -> None:
        self.capacity = 0
        self.count = 0
        self.next_seq = 0
        self.next_attach = 0
        self.free_rows = np.zeros(0, dtype=np.int64)
        self.free_count = 0
        self.handles: list = []
        self.batches: dict = {}
        self.next_batch = 0
        self._allocate(capacity)

    def _allocate(self, capacity: int) -> None:
        old = self.capacity
        shapes = {
            "type": ((capacity,), np.int64), "body": ((capacity, 2), np.int64),
            "flags": ((capacity,), np.int64), "seq": ((capacity,), np.int64),
            "attach_seq": ((capacity,), np.int64), "data": ((capacity, JD), np.float64),
            "idata": ((capacity, JI), np.int64), "feedback": ((capacity, 12), np.float64),
            "lam": ((capacity, MAX_ROWS), np.float64), "nrows": ((capacity,), np.int64),
            "bulk": ((capacity,), np.int64),
        }
        for name, (shape, dtype) in shapes.items():
            arr = np.zeros(shape, dtype=dtype)
            if old:
                arr[:old] = getattr(self, name)
            setattr(self, name, arr)
        self.seq[old:] = -1
        self.body[old:] = -1
        self.attach_seq[old:] = -1
        self.bulk[old:] = -1
        self.handles.extend([None] * (capacity - old))
        free_rows = np.zeros(capacity, dtype=np.int64)
        free_rows[:self.free_count] = self.free_rows[:self.free_count]
        self.free_rows = free_rows
        self.capacity = capacity

    @property
    def free(self) -> list[int]:
        """The free rows, the next one to be reused last."""
        return self.free_rows[:self.free_count].tolist()

    def reserve(self, k: int) -> None:
        """Grow the arrays so that ``k`` more rows can be created."""
        while self.count + max(0, k - self.free_count) > self.capacity:
            self._allocate(2 * self.capacity)

    def create(self, jtype: int) -> int:
        """A fresh row of type ``jtype``, attached to nothing, enabled.

        Free rows are kept cleared (records, feedback and forces zero, no
        bodies; see :meth:`destroy`), so only the identity fields are set here."""
        if self.free_count:
            self.free_count -= 1
            i = int(self.free_rows[self.free_count])
        else:
            if self.count == self.capacity:
                self._allocate(2 * self.capacity)
            i = self.count
            self.count += 1
        self.type[i] = jtype
        self.flags[i] = JF_ALIVE | JF_ENABLED
        self.seq[i] = self.next_seq
        self.next_seq += 1
        return i

    def commit_taken(self, k: int) -> None:
        """Account for ``k`` rows handed out by :func:`take_rows` (free rows
        first) and filled by the caller (type, flags, ``seq``; ``next_seq``
        is the caller's to advance): the free stack shrinks, the used rows
        grow by the rest."""
        take = min(k, self.free_count)
        self.free_count -= take
        self.count += k - take

    def _clear(self, idx, floats: int = JD) -> None:
        """Reset rows ``idx`` (an int, or distinct rows (k,) int64) to the free
        state: no flags, no bodies, zero records (only the first ``floats``
        record floats: the rest must be zero already, as in rows whose joint
        type declares no more)."""
        rows = np.array([idx], dtype=np.int64) if isinstance(idx, int | np.integer) else idx
        _clear_rows(rows, floats, self.flags, self.seq, self.body, self.attach_seq, self.data,
                    self.idata, self.feedback, self.lam, self.nrows, self.bulk)

    def destroy(self, i: int) -> None:
        """Free row ``i`` for reuse."""
        self._clear(i)
        self.handles[i] = None
        self.free_rows[self.free_count] = i
        self.free_count += 1

    def destroy_many(self, idx: np.ndarray, floats: int = JD, with_handles: bool = True) -> None:
        """Free distinct rows ``idx`` (k,) int64 at once (joint group emptying),
        pushed in that order; ``floats``: how many record floats the rows'
        joint types use (see `_clear`); ``with_handles`` False: none of the
        rows has a handle."""
        if idx.shape[0] == 0:
            return
        self._clear(idx, floats)
        if with_handles:
            handles = self.handles
            for i in idx.tolist():
                handles[i] = None
        self.free_rows[self.free_count:self.free_count + idx.shape[0]] = idx
        self.free_count += idx.shape[0]

    def release_batch(self, rows: np.ndarray, seq0: int, floats: int) -> None:
        """Free the rows of a batch of handle-less joints in one compiled pass:
        ``rows[k]`` (k,) int64 is freed if it still holds the batch's k-th
        joint (creation number ``seq0 + k``); the freed rows are pushed in
        batch order, as :meth:`destroy_many` of the live rows would."""
        self.free_count = _release_rows(rows, seq0, floats, self.free_rows, self.free_count,
                                        self.flags, self.seq, self.body, self.attach_seq,
                                        self.data, self.idata, self.feedback, self.lam,
                                        self.nrows, self.bulk)


@njit(cache=True, nogil=True)
def take_rows(k, free_rows, free_count, count):
    """The ``k`` rows (k,) int64 that ``k`` :meth:`JointStore.create` calls
    would use: free rows popped from the top of the stack, then fresh rows
    from ``count`` on (the caller made room and then calls
    :meth:`JointStore.commit_taken`)."""
    rows = np.empty(k, dtype=np.int64)
    take = min(k, free_count)
    for t in range(take):
        rows[t] = free_rows[free_count - 1 - t]
    for t in range(take, k):
        rows[t] = count + t - take
    return rows


@njit(cache=True, nogil=True)
def _release_rows(rows, seq0, floats, free_rows, free_count, flags, seq, body, attach_seq, data,
                  idata, feedback, lam, nrows, bulk):
    """:meth:`JointStore.release_batch`; returns the new free count."""
    for k in range(rows.shape[0]):
        i = rows[k]
        if seq[i] != seq0 + k:
            continue        # destroyed some other way (and maybe reused)
        _clear_row(i, floats, flags, seq, body, attach_seq, data, idata, feedback, lam, nrows,
                   bulk)
        free_rows[free_count] = i
        free_count += 1
    return free_count


@njit(cache=True, nogil=True)
def _clear_rows(rows, floats, flags, seq, body, attach_seq, data, idata, feedback, lam, nrows,
                bulk) -> None:
    """`JointStore._clear` of rows ``rows`` (k,) int64, in one pass."""
    for k in range(rows.shape[0]):
        _clear_row(rows[k], floats, flags, seq, body, attach_seq, data, idata, feedback, lam,
                   nrows, bulk)


@njit(cache=True, nogil=True, inline="always")
def _clear_row(i, floats, flags, seq, body, attach_seq, data, idata, feedback, lam, nrows,
               bulk) -> None:
    """Row ``i`` to the free state (see `JointStore._clear`)."""
    flags[i] = 0
    seq[i] = -1
    body[i, 0] = -1
    body[i, 1] = -1
    attach_seq[i] = -1
    for c in range(floats):
        data[i, c] = 0.0
    for c in range(idata.shape[1]):
        idata[i, c] = 0
    for c in range(feedback.shape[1]):
        feedback[i, c] = 0.0
    for c in range(lam.shape[1]):
        lam[i, c] = 0.0
    nrows[i] = 0
    bulk[i] = -1
