"""Contact feedback per pair of body IDs, as Klamp't's Simulator keeps it.

After every sub-step the `Simulator` gives `ContactFeedback.record` the
robust contacts of that sub-step, already sorted by ID pair (`PairContacts`).
For each pair the feedback keeps

* the contacts of the last sub-step (points, normals, friction coefficients
  and the force on each contact), read by ``getContacts``,
  ``getContactForces``, ``contactForce``, ``contactTorque`` and
  ``inContact`` whether or not feedback is enabled (they describe the
  current state);
* over the current `Simulator.simulate` call, only for enabled pairs: how
  many sub-steps had contact, separation (the others) or penetration (the
  unpadded shapes overlapped), and the sum of the force for the mean
  (zero force while separated): ``hadContact``, ``hadSeparation``,
  ``hadPenetration``, ``meanContactForce``.

Orientation: for the pair (a, b) the normal points from b into a (the way b
pushes a) and forces and torques are those on a; a torque is taken about
a's frame origin. ID -1 stands for "any body".
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np


@dataclass
class PairContacts:
    """The contacts of one ID pair (a < b) in one sub-step: ``pos (k, 3)`` m,
    ``normal (k, 3)`` from b into a, ``mu (k,)``, ``force (k, 3)`` N on a,
    ``penetrating`` (the unpadded shapes overlap)."""

    pos: np.ndarray
    normal: np.ndarray
    mu: np.ndarray
    force: np.ndarray
    penetrating: bool


@dataclass
class _Counts:
    contact: int = 0
    penetration: int = 0
    force_sum: np.ndarray = field(default_factory=lambda: np.zeros(3))


def _key(a: int, b: int) -> tuple[int, int]:
    return (a, b) if a <= b else (b, a)


class ContactFeedback:
    """Feedback of all ID pairs of one simulator (module docstring)."""

    def __init__(self, count: int) -> None:
        self.count = count
        self.all_enabled = False
        self.enabled: set[tuple[int, int]] = set()
        self.last: dict[tuple[int, int], PairContacts] = {}
        self.counts: dict[tuple[int, int], _Counts] = {}
        self.substeps = 0

    # ------------------------------------------------------------ set-up
    def check_id(self, what: str, name: str, value: int, allow_any: bool) -> int:
        """``value`` as a body ID, or a ValueError naming the call and argument."""
        try:
            i = int(value)
        except (TypeError, ValueError):
            raise ValueError(f"{what}: {name} must be a body ID (int), got {value!r}") from None
        if i == -1 and allow_any:
            return i
        if not 0 <= i < self.count:
            raise ValueError(f"{what}: {name} = {value!r} is not a body ID (0 ... "
                             f"{self.count - 1}{', or -1 for any' if allow_any else ''})")
        return i

    def enable_all(self) -> None:
        self.all_enabled = True

    def enable(self, a: int, b: int) -> None:
        self.enabled.add(_key(a, b))

    def is_enabled(self, key: tuple[int, int]) -> bool:
        return self.all_enabled or key in self.enabled

    # ------------------------------------------------------------ stepping
    def begin(self) -> None:
        """Start of a simulate call: the counts start again."""
        self.counts = {}
        self.substeps = 0

    def record(self, touching: dict[tuple[int, int], PairContacts]) -> None:
        """After a sub-step: ``touching`` the contacts of each touching pair."""
        self.last = touching
        self.substeps += 1
        for key, c in touching.items():
            if not self.is_enabled(key):
                continue
            counts = self.counts.setdefault(key, _Counts())
            counts.contact += 1
            counts.penetration += int(c.penetrating)
            counts.force_sum = counts.force_sum + c.force.sum(axis=0)

    # ------------------------------------------------------------ queries
    def _keys(self, a: int, b: int, pool) -> list[tuple[int, int]]:
        if a == -1 and b == -1:
            return list(pool)
        if a == -1 or b == -1:
            x = b if a == -1 else a
            return [k for k in pool if x in k]
        return [_key(a, b)] if _key(a, b) in pool else []

    def oriented(self, a: int, b: int) -> PairContacts | None:
        """The last contacts of (a, b) oriented for a (None when not touching)."""
        c = self.last.get(_key(a, b))
        if c is None or a <= b:
            return c
        return PairContacts(c.pos, -c.normal, c.mu, -c.force, c.penetrating)

    def in_contact(self, a: int, b: int) -> bool:
        return bool(self._keys(a, b, self.last))

    def had_contact(self, a: int, b: int) -> bool:
        return any(self.counts[k].contact > 0 for k in self._keys(a, b, self.counts))

    def had_penetration(self, a: int, b: int) -> bool:
        return any(self.counts[k].penetration > 0 for k in self._keys(a, b, self.counts))

    def had_separation(self, a: int, b: int) -> bool:
        if a != -1 and b != -1:
            key = _key(a, b)
            if not self.is_enabled(key) or self.substeps == 0:
                return False
            got = self.counts.get(key)
            return got is None or got.contact < self.substeps
        pairs = [(i, j) for i in range(self.count) for j in range(i + 1, self.count)
                 if (a == -1 or a in (i, j)) and (b == -1 or b in (i, j))]
        return any(self.had_separation(i, j) for i, j in pairs)

    def mean_force(self, a: int, b: int) -> np.ndarray:
        got = self.counts.get(_key(a, b))
        if got is None or self.substeps == 0:
            return np.zeros(3)
        mean = got.force_sum / self.substeps
        return mean if a <= b else -mean

    # ------------------------------------------------------------ state
    def state_record(self) -> dict:
        def pair_list(keys) -> list:
            return [list(k) for k in keys]
        return {
            "all": self.all_enabled,
            "enabled": pair_list(sorted(self.enabled)),
            "substeps": self.substeps,
            "counts": [[k[0], k[1], c.contact, c.penetration, c.force_sum]
                       for k, c in sorted(self.counts.items())],
            "last": [[k[0], k[1], c.pos, c.normal, c.mu, c.force, c.penetrating]
                     for k, c in sorted(self.last.items())],
        }

    def restore_record(self, r: dict) -> None:
        self.all_enabled = bool(r["all"])
        self.enabled = {(int(a), int(b)) for a, b in r["enabled"]}
        self.substeps = int(r["substeps"])
        self.counts = {(int(a), int(b)): _Counts(int(n), int(p), np.asarray(f, dtype=float))
                       for a, b, n, p, f in r["counts"]}
        self.last = {(int(a), int(b)): PairContacts(np.asarray(pos, dtype=float).reshape(-1, 3),
                                                    np.asarray(nrm, dtype=float).reshape(-1, 3),
                                                    np.asarray(mu, dtype=float),
                                                    np.asarray(f, dtype=float).reshape(-1, 3),
                                                    bool(pen))
                     for a, b, pos, nrm, mu, f, pen in r["last"]}
