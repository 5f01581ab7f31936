"""Snapshots of the dynamic state of an ODE world, for bit-identical resumes.

A `WorldState` copies the engine's structure-of-arrays body and joint stores
(poses, velocities, force accumulators, auto-disable counters and sample
buffers, enabled flags, joint records and last-step row forces used by
QuickStep warm starting, free-row lists and creation counters), ODE's random
seed and the simulated time. Restoring it into the same world (same bodies
and joints, between two steps, when no contact joint exists) makes the next
steps bit-identical to the ones that followed the snapshot.

This reads the engine's stores directly: the flat ODE API has no call that
exposes auto-disable counters or warm-start forces.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass

import numpy as np

from engine import ode


def _arrays(store) -> dict[str, np.ndarray]:
    return {k: v.copy() for k, v in vars(store).items() if isinstance(v, np.ndarray)}


def _scalars(store, names: tuple[str, ...]) -> dict:
    return {n: copy.copy(getattr(store, n)) for n in names}


@dataclass(frozen=True)
class WorldState:
    """One snapshot; treat as opaque."""

    bodies: dict
    body_meta: dict
    joints: dict
    joint_meta: dict
    seed: int
    time_ms: float
    #: the motors' control state (`engine.sim.motors.MotorSet.state`), or None
    motors: tuple | None = None


_BODY_META = ("capacity", "count", "next_seq", "free", "handles")
_JOINT_META = ("capacity", "count", "next_seq", "next_attach", "free_count", "handles")


def capture(world, time_ms: float) -> WorldState:
    """A snapshot of ``world`` (an engine.ode World) at ``time_ms``."""
    return WorldState(_arrays(world.bodies), _scalars(world.bodies, _BODY_META),
                      _arrays(world.joints), _scalars(world.joints, _JOINT_META),
                      int(ode.dRandGetSeed()), float(time_ms))


def restore(world, state: WorldState) -> None:
    """Put ``state`` back into ``world`` (same bodies and joints as when captured)."""
    for store, arrays, meta in ((world.bodies, state.bodies, state.body_meta),
                                (world.joints, state.joints, state.joint_meta)):
        for name, value in arrays.items():
            setattr(store, name, value.copy())
        for name, value in meta.items():
            setattr(store, name, copy.copy(value))
    if len(world.bodies.joint_lists) < world.bodies.capacity:
        world.bodies.joint_lists.extend(
            [] for _ in range(world.bodies.capacity - len(world.bodies.joint_lists)))
    del world.bodies.joint_lists[world.bodies.capacity:]
    ode.dRandSetSeed(state.seed)
