"""Structure-of-arrays storage of a world's joints.

Every joint is a row: its type, its two bodies, flags, and a fixed-size
record of floats (``data``) and integers (``idata``) whose layout each joint
module defines. Joint kernels read and write these rows; the Python handles
in :mod:`engine.ode.joints` are thin views over them.
"""

from __future__ import annotations

import numpy as np

from engine.ode.joints.layout import JD, JF_ALIVE, JF_ENABLED, JI, MAX_ROWS


class JointStore:
    """Per-joint arrays, each of first dimension ``capacity``.

    ``type (n,)``; ``body (n, 2)`` body rows, -1 for none (ODE moves a lone
    body to slot 0 and sets ``JF_REVERSE``); ``flags (n,)``; ``seq (n,)``
    creation order; ``attach_seq (n,)`` order of the last attach (a body's
    joint list is newest-attached first, as ODE's); ``data (n, JD)``,
    ``idata (n, JI)`` per-type records; ``feedback (n, 12)`` f1, t1, f2, t2
    of the last step; ``lam (n, MAX_ROWS)`` row forces of the last step;
    ``nrows (n,)`` rows used in the last step.
    """

    def __init__(self, capacity: int = 16) -> None:
        self.capacity = 0
        self.count = 0
        self.next_seq = 0
        self.next_attach = 0
        self.free: list[int] = []
        self.handles: list = []
        self._allocate(capacity)

    def _allocate(self, capacity: int) -> None:
        old = self.capacity
        shapes = {
            "type": ((capacity,), np.int64), "body": ((capacity, 2), np.int64),
            "flags": ((capacity,), np.int64), "seq": ((capacity,), np.int64),
            "attach_seq": ((capacity,), np.int64), "data": ((capacity, JD), np.float64),
            "idata": ((capacity, JI), np.int64), "feedback": ((capacity, 12), np.float64),
            "lam": ((capacity, MAX_ROWS), np.float64), "nrows": ((capacity,), np.int64),
        }
        for name, (shape, dtype) in shapes.items():
            arr = np.zeros(shape, dtype=dtype)
            if old:
                arr[:old] = getattr(self, name)
            setattr(self, name, arr)
        if not old:
            self.seq[:] = -1
        else:
            self.seq[old:] = -1
        self.handles.extend([None] * (capacity - old))
        self.capacity = capacity

    def create(self, jtype: int) -> int:
        """A fresh row of type ``jtype``, attached to nothing, enabled."""
        if self.free:
            i = self.free.pop()
        else:
            if self.count == self.capacity:
                self._allocate(2 * self.capacity)
            i = self.count
            self.count += 1
        self.type[i] = jtype
        body = self.body
        body[i, 0] = -1
        body[i, 1] = -1
        self.flags[i] = JF_ALIVE | JF_ENABLED
        self.data[i] = 0.0
        self.idata[i] = 0
        self.feedback[i] = 0.0
        self.lam[i] = 0.0
        self.nrows[i] = 0
        self.seq[i] = self.next_seq
        self.next_seq += 1
        self.attach_seq[i] = -1
        return i

    def destroy(self, i: int) -> None:
        """Free row ``i`` for reuse."""
        self.flags[i] = 0
        self.seq[i] = -1
        self.body[i] = (-1, -1)
        self.handles[i] = None
        self.free.append(i)

    def destroy_many(self, rows: list[int]) -> None:
        """Free several rows at once (joint group emptying)."""
        if not rows:
            return
        idx = np.asarray(rows, dtype=np.int64)
        self.flags[idx] = 0
        self.seq[idx] = -1
        self.body[idx] = -1
        for i in rows:
            self.handles[i] = None
        self.free.extend(rows)
