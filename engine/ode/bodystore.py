"""Structure-of-arrays storage of a world's bodies.

A body is a row index into these arrays; :class:`engine.ode.body.Body` is a
thin handle over it. Rows of destroyed bodies are reused. Arrays grow by
doubling, so code must fetch them from the store again after a create.

Units: positions m, velocities m/s and rad/s, forces N, torques N·m,
masses kg, inertia kg·m² (body frame).
"""

from __future__ import annotations

import numpy as np

# Body flag bits (``flags`` array).
BF_ALIVE = 1 << 0
BF_DISABLED = 1 << 1
BF_AUTO_DISABLE = 1 << 2
BF_NO_GRAVITY = 1 << 3
BF_FINITE_ROT = 1 << 4
BF_FINITE_ROT_AXIS = 1 << 5
BF_GYROSCOPIC = 1 << 6
BF_LIN_DAMPING = 1 << 7
BF_ANG_DAMPING = 1 << 8
BF_MAX_ANG_SPEED = 1 << 9
BF_KINEMATIC = 1 << 10

#: Auto-disable sample buffer depth allocated up front (grown on demand).
_INITIAL_SAMPLES = 1

_FIELDS_3 = ("pos", "lvel", "avel", "facc", "tacc", "frot_axis")
_FIELDS_33 = ("R", "I", "invI")
_FIELDS_1 = ("mass", "invmass", "lin_damp", "ang_damp", "lin_damp_thr2", "ang_damp_thr2",
             "max_ang_speed", "ad_lin_thr2", "ad_ang_thr2", "ad_time", "ad_idle_time")
_FIELDS_INT = ("flags", "ad_steps", "ad_samples", "ad_idle_steps", "ad_sample_index")


class BodyStore:
    """Per-body arrays, each of first dimension ``capacity``.

    ``pos (n,3)``, ``R (n,3,3)``, ``q (n,4)`` (w, x, y, z), ``lvel``, ``avel``,
    ``facc``, ``tacc (n,3)``; ``mass``, ``invmass (n,)``; ``I``, ``invI (n,3,3)``
    body-frame inertia and its inverse; ``flags (n,)``; damping and
    auto-disable parameters; ``seq (n,)`` creation order (-1 when free);
    ``ad_buf (n, samples, 6)`` recent velocities for auto-disable averaging.
    """

    def __init__(self, capacity: int = 16) -> None:
        self.capacity = 0
        self.count = 0
        self.next_seq = 0
        self.free: list[int] = []
        self.handles: list = []
        self.joint_lists: list[list] = []   # per row: joint handles in attach order
        self._allocate(capacity)

    def _allocate(self, capacity: int) -> None:
        old = self.capacity
        samples = self.ad_buf.shape[1] if old else _INITIAL_SAMPLES
        new = {}
        for name in _FIELDS_3:
            new[name] = np.zeros((capacity, 3))
        for name in _FIELDS_33:
            new[name] = np.zeros((capacity, 3, 3))
        for name in _FIELDS_1:
            new[name] = np.zeros(capacity)
        for name in _FIELDS_INT:
            new[name] = np.zeros(capacity, dtype=np.int64)
        new["q"] = np.zeros((capacity, 4))
        new["seq"] = np.full(capacity, -1, dtype=np.int64)
        new["ad_buf"] = np.zeros((capacity, samples, 6))
        for name, arr in new.items():
            if old:
                arr[:old] = getattr(self, name)
            setattr(self, name, arr)
        self.handles.extend([None] * (capacity - old))
        self.joint_lists.extend([] for _ in range(capacity - old))
        self.capacity = capacity

    def ensure_samples(self, samples: int) -> None:
        """Make the auto-disable buffer hold at least ``samples`` entries per body."""
        if samples > self.ad_buf.shape[1]:
            buf = np.zeros((self.capacity, samples, 6))
            buf[:, : self.ad_buf.shape[1]] = self.ad_buf
            self.ad_buf = buf

    def create(self) -> int:
        """A fresh row: mass 1, identity inertia and rotation, at rest, enabled."""
        if self.free:
            i = self.free.pop()
        else:
            if self.count == self.capacity:
                self._allocate(2 * self.capacity)
            i = self.count
            self.count += 1
        self.reset_row(i)
        self.seq[i] = self.next_seq
        self.next_seq += 1
        return i

    def reset_row(self, i: int) -> None:
        """Put row ``i`` in ODE's fresh-body state."""
        for name in _FIELDS_3:
            getattr(self, name)[i] = 0.0
        eye = np.eye(3)
        self.R[i] = eye
        self.I[i] = eye
        self.invI[i] = eye
        self.q[i] = (1.0, 0.0, 0.0, 0.0)
        for name in _FIELDS_1:
            getattr(self, name)[i] = 0.0
        for name in _FIELDS_INT:
            getattr(self, name)[i] = 0
        self.mass[i] = 1.0
        self.invmass[i] = 1.0
        self.ad_buf[i] = 0.0
        self.flags[i] = BF_ALIVE | BF_GYROSCOPIC

    def destroy(self, i: int) -> None:
        """Free row ``i`` for reuse."""
        self.flags[i] = 0
        self.seq[i] = -1
        self.handles[i] = None
        self.joint_lists[i] = []
        self.free.append(i)
