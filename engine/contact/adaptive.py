"""Adaptive time stepping and instability correction: the decisions, not the loop.

The stepping loop (`engine.sim.robust_step`) saves the state, takes a
tentative step, detects the robust contacts again and asks `MarginTracker`
whether to keep the step. A step is rolled back and retried at half the
step when a pair

* newly penetrates (its unpadded shapes overlap now and did not before), or
* lost more than half of its remaining boundary layer: its margin
  (pad1 + pad2 minus the deepest contact) fell below
  ``rollback_fraction`` times the previous one (a pair that was not in
  contact counts with its whole padding). Pairs of two primitives (spheres,
  boxes, capsules, cylinders, planes, convex hulls) are exempt from this
  test, as in Klamp't: their contacts are exact and do not jump.

Halving stops at the minimum step; a step that is still bad there is kept
with the status ContactUnreliable.

`InstabilityMonitor` watches each body's kinetic energy between accepted
steps: when it exceeds 1.5 times the previous value plus 1 J per kg (or
1e5 J), the body's velocities are scaled so its energy is 0.8 of that
threshold, and the status is Unstable.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from enum import IntEnum

import numpy as np

from engine.ode.constants import dHeightfieldClass, dSphereClass, dTriMeshClass
from engine.ode.kernels.detlinalg import dot, matmul


class SimStatus(IntEnum):
    """The state of a robust simulation step, worst last (Klamp't's order)."""

    NORMAL = 0
    ADAPTIVE_TIME_STEPPING = 1
    CONTACT_UNRELIABLE = 2
    UNSTABLE = 3
    ERROR = 4

    @property
    def label(self) -> str:
        """The name shown to users: Normal, AdaptiveTimeStepping, ..."""
        return _LABELS[self]


_LABELS = {SimStatus.NORMAL: "Normal",
           SimStatus.ADAPTIVE_TIME_STEPPING: "AdaptiveTimeStepping",
           SimStatus.CONTACT_UNRELIABLE: "ContactUnreliable",
           SimStatus.UNSTABLE: "Unstable",
           SimStatus.ERROR: "Error"}

#: Geom classes whose pairs are tested for lost margin (meshes and terrains).
MESH_CLASSES = frozenset({dTriMeshClass, dHeightfieldClass})


def margin_tested(class1: int, class2: int) -> bool:
    """True when a pair of these geom classes takes the lost-margin test: a
    mesh or heightfield on one side and no sphere."""
    if dSphereClass in (class1, class2):
        return False
    return class1 in MESH_CLASSES or class2 in MESH_CLASSES


class PairMargins:
    """The robust contact pairs of one detection, keyed by their geoms.

    ``keys`` list of (id(g1), id(g2)); ``margin (p,)`` m; ``pad (p,)`` m
    (pad1 + pad2); ``penetrating (p,)`` bool; ``tested (p,)`` bool (takes the
    lost-margin test)."""

    __slots__ = ("keys", "margin", "pad", "penetrating", "tested")

    def __init__(self, keys: list[tuple[int, int]], margin: np.ndarray, pad: np.ndarray,
                 penetrating: np.ndarray, tested: np.ndarray) -> None:
        self.keys = keys
        self.margin = margin
        self.pad = pad
        self.penetrating = penetrating
        self.tested = tested


@dataclass
class MarginTracker:
    """The margins of the last accepted step and the rollback decision."""

    rollback_fraction: float = 0.5
    _margin: dict[tuple[int, int], float] = field(default_factory=dict)
    _penetrating: set[tuple[int, int]] = field(default_factory=set)

    def should_roll_back(self, now: PairMargins) -> bool:
        """True when the step that led to ``now`` must be retried smaller."""
        for k, key in enumerate(now.keys):
            if now.penetrating[k] and key not in self._penetrating:
                return True
            if now.tested[k]:
                before = self._margin.get(key, float(now.pad[k]))
                if now.margin[k] < self.rollback_fraction * before:
                    return True
        return False

    def accept(self, now: PairMargins) -> None:
        """``now`` is the state of an accepted step: compare the next one with it."""
        self._margin = {key: float(m) for key, m in zip(now.keys, now.margin.tolist(),
                                                         strict=True)}
        self._penetrating = {key for key, p in zip(now.keys, now.penetrating.tolist(),
                                                   strict=True) if p}

    def clear(self) -> None:
        """Forget the history (after a reset or a state load)."""
        self._margin = {}
        self._penetrating = set()


# ---------------------------------------------------------------- energy
def kinetic_energies(world, rows: np.ndarray) -> np.ndarray:
    """(n,) kinetic energy [J] of the bodies at ``rows`` of ``world``'s store:
    m v²/2 + ω·(R I Rᵀ ω)/2 with I the body-frame inertia."""
    store = world.bodies
    v = store.lvel[rows]
    w = store.avel[rows]
    R = store.R[rows]
    # body-frame angular velocity, then ω_b·I ω_b (= ω·R I Rᵀ ω)
    wb = matmul(R.transpose(0, 2, 1), w[:, :, None])[:, :, 0]
    iw = matmul(store.I[rows], wb[:, :, None])[:, :, 0]
    return 0.5 * store.mass[rows] * dot(v, v) + 0.5 * dot(wb, iw)


@dataclass
class InstabilityMonitor:
    """Klamp't's instability correction over accepted steps.

    ``growth`` and ``per_kg`` [J/kg] make the threshold growth·KE_prev +
    per_kg·mass; ``ceiling`` [J] an absolute threshold; a body over it is
    slowed to ``post_fraction`` of the threshold."""

    growth: float = 1.5
    per_kg: float = 1.0
    ceiling: float = 1e5
    post_fraction: float = 0.8
    _previous: np.ndarray | None = None

    def correct(self, world, rows: np.ndarray) -> list[int]:
        """Check the bodies at ``rows``; scale the velocities of those whose
        energy jumped; returns their positions in ``rows``."""
        energy = kinetic_energies(world, rows)
        previous = self._previous
        if previous is None or previous.shape != energy.shape:
            self._previous = energy
            return []
        store = world.bodies
        threshold = self.growth * previous + self.per_kg * store.mass[rows]
        bad = (energy > threshold) | (energy > self.ceiling)
        fixed = np.flatnonzero(bad).tolist()
        for k in fixed:
            limit = min(float(threshold[k]), self.ceiling)
            scale = math.sqrt(self.post_fraction * limit / float(energy[k]))
            r = int(rows[k])
            store.lvel[r] *= scale
            store.avel[r] *= scale
            energy[k] *= scale * scale
        self._previous = energy
        return fixed

    def clear(self) -> None:
        """Forget the previous energies (after a reset or a state load)."""
        self._previous = None
