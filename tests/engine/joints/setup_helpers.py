"""Set-up helpers shared by the joint tests (worlds, boxes, stepping, the
joint kernels' row counts and rows). Not a test module itself.

``api`` arguments take ``engine.ode`` or any module exposing ODE's flat C API
(the ODE 0.16.2 binding the reference numbers were recorded with), so a scene
written with these helpers runs on either unchanged.

Units: SI throughout (m, kg, s, rad); positions, velocities and gravity are
3-sequences in world coordinates.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from types import ModuleType
from typing import Any

import numpy as np

from engine import ode
from engine.ode.joints.anchors import body_arrays
from engine.ode.joints.limot import LM_LIMIT
from engine.ode.kernels.bundles import Rows, WorldParams, world_params
from engine.ode.step.stepper import _world_params

H = 0.01                                #: default step size (s)
G = 9.81                                #: gravity magnitude (m/s²)
CUBE = (0.2, 0.2, 0.2)                  #: side lengths (m) of the piston/PR/PU/hinge-2 boxes
BRICK = (0.2, 0.3, 0.4)                 #: default box side lengths (m)



# ----------------------------------------------------------------------------- bodies
def seeded_world(api: Any = ode, gravity: Sequence[float] = (0.0, 0.0, 0.0)) -> Any:
    """A new world after ``dRandSetSeed(0)`` (so QuickStep's row shuffling is
    reproducible) with ``gravity`` (3,) in m/s²."""
    api.dRandSetSeed(0)
    w = api.dWorldCreate()
    api.dWorldSetGravity(w, *gravity)
    return w


def box(api: Any, w: Any, pos: Sequence[float], mass: float = 1.0,
        dims: Sequence[float] = BRICK, R: Any = None, lvel: Sequence[float] | None = None,
        avel: Sequence[float] | None = None) -> Any:
    """A body at ``pos`` (3,) with the mass of a uniform box of total ``mass``
    (kg) and side lengths ``dims`` (3,) m; optionally turned by ``R`` (ODE's
    3x4 rotation) and moving with linear / angular velocity ``lvel`` (m/s) /
    ``avel`` (rad/s), both (3,)."""
    b = api.dBodyCreate(w)
    api.dBodySetPosition(b, *pos)
    m = api.dMass()
    api.dMassSetBoxTotal(m, mass, *dims)
    api.dBodySetMass(b, m)
    if R is not None:
        api.dBodySetRotation(b, R)
    if lvel is not None:
        api.dBodySetLinearVel(b, *lvel)
    if avel is not None:
        api.dBodySetAngularVel(b, *avel)
    return b


def body_state(api: Any, b: Any) -> np.ndarray:
    """(13,): position (3, m), quaternion (4, w first), linear velocity (3, m/s)
    and angular velocity (3, rad/s) of body ``b``."""
    return np.concatenate([api.dBodyGetPosition(b), api.dBodyGetQuaternion(b),
                           api.dBodyGetLinearVel(b), api.dBodyGetAngularVel(b)])


def hinge_to_world(api: Any, w: Any, b: Any, axis: Sequence[float],
                   anchor: Sequence[float] | None = None) -> Any:
    """A hinge attached (b, NULL) about ``axis`` (3,), anchored at ``anchor``
    (3,) m when given (else at ODE's default anchor)."""
    j = api.dJointCreateHinge(w, None)
    api.dJointAttach(j, b, None)
    if anchor is not None:
        api.dJointSetHingeAnchor(j, *anchor)
    api.dJointSetHingeAxis(j, *axis)
    return j


def lock_to_world(api: Any, w: Any, b: Any) -> Any:
    """Hold ``b`` still: a hinge to the world about z with stops [0, 0] locks
    it like a fixed joint (how ODE's piston/pr/pu.cpp limit tests hold a body)."""
    j = hinge_to_world(api, w, b, (0, 0, 1))
    api.dJointSetHingeParam(j, api.dParamLoStop, 0)
    api.dJointSetHingeParam(j, api.dParamHiStop, 0)
    return j


# ----------------------------------------------------------------------------- stepping
def step_fn(quick: bool, api: Any = ode) -> Callable[[Any, float], Any]:
    """``dWorldQuickStep`` if ``quick`` else ``dWorldStep``; called as (w, h)."""
    return api.dWorldQuickStep if quick else api.dWorldStep


def sample_run(api: Any, w: Any, quick: bool, steps: Sequence[int],
               sample: Callable[[], np.ndarray], h: float = H) -> np.ndarray:
    """Step ``w`` ``steps[-1]`` times by ``h`` (s) and return ``sample()``
    taken after each step number in ``steps`` (1-based, ascending), stacked
    to shape (len(steps), k)."""
    step = step_fn(quick, api)
    out = []
    for i in range(1, steps[-1] + 1):
        step(w, h)
        if i in steps:
            out.append(sample())
    return np.array(out)


# ----------------------------------------------------------------------------- kernels
def kernel_params(h: float = H, max_vel: float = math.inf) -> WorldParams:
    """World parameters for calling a joint kernel directly: 1/h (1/s),
    ERP 0.2, CFM 1e-10, contact max correcting velocity ``max_vel`` (m/s),
    surface layer 0 (m) and h (s)."""
    return world_params(h, 0.2, 1e-10, max_vel, 0.0)


def info1_counts(kernel: ModuleType, j: Any, wp: WorldParams | None = None,
                 h: float = H) -> tuple[int, int]:
    """(m, nub): the rows (all, unbounded) ``kernel.info1`` asks for joint
    ``j`` now, given world parameters ``wp``; by default the
    world's own for a step of ``h`` (s)."""
    b0, b1 = j.body_rows()
    if wp is None:
        wp = _world_params(j.world, h)
    m, nub = kernel.info1(j.d, j.di, j.flags, b0, b1, body_arrays(j.world), wp)
    return int(m), int(nub)


def info1_limits(kernel: ModuleType, j: Any, *limots: int) -> tuple[int, ...]:
    """(m, nub, limit state of each limot record offset in ``limots``) after
    ``kernel.info1`` with :func:`kernel_params`; a limit state is 0 free,
    1 at the low stop, 2 at the high stop."""
    counts = info1_counts(kernel, j, kernel_params())
    return (*counts, *(int(j.d[off + LM_LIMIT]) for off in limots))


def kernel_rows(kernel: ModuleType, j: Any) -> tuple[tuple[int, int], Rows]:
    """((m, nub), rows) of ``kernel.info1`` / ``info2`` for joint ``j`` with
    :func:`kernel_params` (max correcting velocity 0); ``rows`` is
    (J (m, 12), c (m,), cfm (m,), lo (m,), hi (m,), findex (m,)) as info2
    fills them from a zero/1e-10/-inf/inf/-1 start."""
    wp = kernel_params(max_vel=0.0)
    b0, b1 = j.body_rows()
    B = body_arrays(j.world)
    m, nub = kernel.info1(j.d, j.di, j.flags, b0, b1, B, wp)
    rows = Rows(np.zeros((m, 12)), np.zeros(m), np.full(m, 1e-10), np.full(m, -np.inf),
                np.full(m, np.inf), np.full(m, -1, dtype=np.int64))
    kernel.info2(j.d, j.di, j.flags, b0, b1, B, wp, rows, 0)
    return (int(m), int(nub)), rows
