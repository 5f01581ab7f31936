"""Hand-built bundles for the stage tests (not a test module itself).

Each builder returns the :mod:`engine.ode.kernels.bundles` bundle of a small
world written out by hand: ``n`` bodies at rest at the origin with identity
orientation and unit mass unless told otherwise, joints given as body pairs.
Units SI (m, kg, s, rad).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from engine.ode.bodystore import BF_ALIVE
from engine.ode.joints.layout import JD, JF_ALIVE, JF_ENABLED, JI, MAX_ROWS
from engine.ode.kernels.bundles import (
    AutoDisable,
    Bodies,
    BodyTable,
    Damping,
    Joints,
    MassModel,
)


def body_table(n: int, flags: Sequence[int] | None = None) -> BodyTable:
    """``n`` live bodies created in row order (seq = row); ``flags`` (n,)
    extra ``BF_*`` bits per body."""
    f = np.full(n, BF_ALIVE, dtype=np.int64)
    if flags is not None:
        f |= np.asarray(flags, dtype=np.int64)
    return BodyTable(n, f, np.arange(n, dtype=np.int64))


def bodies(n: int, invmass: Sequence[float] | None = None) -> Bodies:
    """``n`` bodies at rest at the origin, identity orientation, inverse mass
    ``invmass`` (n,) 1/kg (default 1)."""
    q = np.zeros((n, 4))
    q[:, 0] = 1.0
    im = np.ones(n) if invmass is None else np.asarray(invmass, dtype=np.float64)
    return Bodies(np.zeros((n, 3)), np.tile(np.eye(3), (n, 1, 1)), q, np.zeros((n, 3)),
                  np.zeros((n, 3)), np.zeros((n, 3)), np.zeros((n, 3)), im)


def masses(n: int, mass: float = 1.0, inertia: Sequence[float] = (1.0, 1.0, 1.0)) -> MassModel:
    """Every body of mass ``mass`` (kg) with the diagonal body-frame inertia
    ``inertia`` (3,) kg·m²."""
    I_body = np.tile(np.diag(np.asarray(inertia, dtype=np.float64)), (n, 1, 1))
    invI = np.tile(np.diag(1.0 / np.asarray(inertia, dtype=np.float64)), (n, 1, 1))
    return MassModel(np.full(n, mass), I_body, invI, np.zeros((n, 3, 3)))


def damping(n: int) -> Damping:
    """No damping and no angular speed cap (the flags decide what applies)."""
    return Damping(np.full(n, np.inf), np.zeros((n, 3)), np.zeros(n), np.zeros(n),
                   np.zeros(n), np.zeros(n))


def auto_disable_params(n: int, lin_thr: float, ang_thr: float, steps: int, time: float,
                        samples: int) -> AutoDisable:
    """The same auto-disable thresholds for all ``n`` bodies: average speeds
    ``lin_thr`` (m/s), ``ang_thr`` (rad/s), ``steps`` idle steps and ``time``
    idle seconds over a window of ``samples`` velocity samples; counters full."""
    return AutoDisable(np.full(n, lin_thr * lin_thr), np.full(n, ang_thr * ang_thr),
                       np.full(n, steps, dtype=np.int64), np.full(n, time),
                       np.full(n, samples, dtype=np.int64), np.full(n, steps, dtype=np.int64),
                       np.full(n, time), np.zeros(n, dtype=np.int64),
                       np.zeros((n, max(samples, 1), 6)))


def joints(pairs: Sequence[tuple[int, int]], enabled: Sequence[bool] | None = None,
           alive: Sequence[bool] | None = None) -> Joints:
    """Joints between the body pairs ``pairs`` (-1 for the world), attached
    in list order; ``enabled``/``alive`` per joint (default all)."""
    k = len(pairs)
    flags = np.zeros(k, dtype=np.int64)
    for j in range(k):
        if alive is None or alive[j]:
            flags[j] |= JF_ALIVE
        if enabled is None or enabled[j]:
            flags[j] |= JF_ENABLED
    body = np.array(pairs, dtype=np.int64).reshape(k, 2)
    return Joints(k, np.zeros(k, dtype=np.int64), body, flags, np.arange(k, dtype=np.int64),
                  np.zeros((k, JD)), np.zeros((k, JI), dtype=np.int64), np.zeros((k, 12)),
                  np.zeros((k, MAX_ROWS)), np.zeros(k, dtype=np.int64))
