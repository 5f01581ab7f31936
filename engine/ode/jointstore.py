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
    """

    def __init__(self, capacity: int = 16) -> None:
        self.capacity = 0
        self.count = 0
        self.next_seq = 0
        self.next_attach = 0
        self.free: list[int] = []
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
        self.capacity = capacity

    def create(self, jtype: int) -> int:
        """A fresh row of type ``jtype``, attached to nothing, enabled.

        Free rows are kept cleared (records, feedback and forces zero, no
        bodies; see :meth:`destroy`), so only the identity fields are set here."""
        if self.free:
            i = self.free.pop()
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

    def create_many(self, jtype: int, k: int) -> np.ndarray:
        """``k`` fresh rows of type ``jtype`` (k,) int64, exactly the rows and
        sequence numbers ``k`` calls of :meth:`create` would give, in order."""
        take = min(k, len(self.free))
        reused = self.free[len(self.free) - take:][::-1]
        del self.free[len(self.free) - take:]
        fresh = k - take
        while self.count + fresh > self.capacity:
            self._allocate(2 * self.capacity)
        rows = np.empty(k, dtype=np.int64)
        rows[:take] = reused
        rows[take:] = np.arange(self.count, self.count + fresh, dtype=np.int64)
        self.count += fresh
        self.type[rows] = jtype
        self.flags[rows] = JF_ALIVE | JF_ENABLED
        self.seq[rows] = self.next_seq + np.arange(k, dtype=np.int64)
        self.next_seq += k
        return rows

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
        self.free.append(i)

    def destroy_many(self, rows: list[int], idx: np.ndarray | None = None,
                     floats: int = JD, with_handles: bool = True) -> None:
        """Free several rows at once (joint group emptying); ``idx`` the same
        rows as an int64 array, if the caller has one; ``floats``: how many
        record floats the rows' joint types use (see `_clear`);
        ``with_handles`` False: none of the rows has a handle."""
        if not rows:
            return
        self._clear(np.asarray(rows, dtype=np.int64) if idx is None else idx, floats)
        if with_handles:
            handles = self.handles
            for i in rows:
                handles[i] = None
        self.free.extend(rows)


@njit(cache=True, nogil=True)
def _clear_rows(rows, floats, flags, seq, body, attach_seq, data, idata, feedback, lam, nrows,
                bulk) -> None:
    """`JointStore._clear` of rows ``rows`` (k,) int64, in one pass."""
    for k in range(rows.shape[0]):
        i = rows[k]
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
