"""NativeCollider: the pile with the batched collider equals the pile with a
Python near callback, bit for bit (as real ODE's C and Python callbacks do)."""

from __future__ import annotations

import math

import numpy as np
import pytest

from engine import ode
from engine.ode.errors import ODEError

EDGE, RADIUS, MASS = 0.1, 0.05, 1.0


def pile(n: int, steps: int, native: bool, seed: int = 3, quick: bool = True):
    """A small pile of boxes and spheres on a plane in a hash space (the shape of
    ode_ref's pile scene); returns the final positions (n, 3) and contacts per step."""
    ode.dRandSetSeed(0)
    rng = np.random.default_rng(seed)
    world = ode.dWorldCreate()
    ode.dWorldSetGravity(world, 0, 0, -9.81)
    ode.dWorldSetContactSurfaceLayer(world, 0.001)
    ode.dWorldSetQuickStepNumIterations(world, 20)
    space = ode.dHashSpaceCreate(None)
    group = ode.dJointGroupCreate(0)
    surface = ode.dSurfaceParameters(mode=ode.dContactApprox1, mu=0.5)
    ode.dCreatePlane(space, 0, 0, 1, 0)
    side = max(1, round(n ** (1 / 3)))
    bodies = []
    for i in range(n):
        k, rem = divmod(i, side * side)
        jy, ix = divmod(rem, side)
        b = ode.dBodyCreate(world)
        m = ode.dMass()
        if i % 2 == 0:
            g = ode.dCreateBox(space, EDGE, EDGE, EDGE)
            ode.dMassSetBoxTotal(m, MASS, EDGE, EDGE, EDGE)
            ode.dBodySetRotation(b, ode.dRFromAxisAndAngle(*rng.uniform(-1, 1, 3),
                                                           rng.uniform(0, 0.2)))
        else:
            g = ode.dCreateSphere(space, RADIUS)
            ode.dMassSetSphereTotal(m, MASS, RADIUS)
        ode.dBodySetMass(b, m)
        ode.dBodySetPosition(b, 0.15 * ix + rng.uniform(-0.02, 0.02),
                             0.15 * jy + rng.uniform(-0.02, 0.02), 0.3 + 0.15 * k)
        ode.dGeomSetBody(g, b)
        bodies.append(b)
    # one non-contact joint: its two bodies never get contacts
    ball = ode.dJointCreateBall(world, None)
    ode.dJointAttach(ball, bodies[0], bodies[1])
    ode.dJointSetBallAnchor(ball, *ode.dBodyGetPosition(bodies[0]))

    if native:
        nat = ode.NativeCollider(world, group, 4, surface)

        def collide():
            return nat.collide(space)
    else:
        count = [0]

        def near(data, o1, o2):
            b1, b2 = ode.dGeomGetBody(o1), ode.dGeomGetBody(o2)
            if b1 is not None and b2 is not None and ode.dAreConnectedExcluding(
                    b1, b2, ode.dJointTypeContact):
                return
            cgs = ode.dCollide(o1, o2, 4)
            for cg in cgs:
                j = ode.dJointCreateContact(world, group, ode.dContact(surface, cg))
                ode.dJointAttach(j, b1, b2)
            count[0] += len(cgs)

        def collide():
            count[0] = 0
            ode.dSpaceCollide(space, None, near)
            return count[0]

    ncs = []
    for _ in range(steps):
        ode.dJointGroupEmpty(group)
        ncs.append(collide())
        (ode.dWorldQuickStep if quick else ode.dWorldStep)(world, 0.01)
    pos = np.array([ode.dBodyGetPosition(b) for b in bodies])
    ode.dSpaceDestroy(space)
    ode.dJointGroupDestroy(group)
    ode.dWorldDestroy(world)
    return pos, ncs


@pytest.mark.parametrize("quick", [True, False])
def test_pile_trajectories_bit_identical(quick):
    a, ncs_a = pile(27, 60, native=False, quick=quick)
    b, ncs_b = pile(27, 60, native=True, quick=quick)
    assert ncs_a == ncs_b
    assert sum(ncs_a) > 100
    assert a.tobytes() == b.tobytes()
    assert np.all(a[:, 2] > -0.05)


def test_native_is_exported_and_truthy():
    assert ode.native()
    assert ode.NativeCollider is not None


def test_surface_is_copied_and_checked():
    world = ode.dWorldCreate()
    space = ode.dSimpleSpaceCreate(None)
    s = ode.dSurfaceParameters(mode=ode.dContactApprox1, mu=math.inf)
    nat = ode.NativeCollider(world, None, 2, s)
    s.mu = 0.1
    assert nat.surface[0] == math.inf
    ode.dCreatePlane(space, 0, 0, 1, 0)
    b = ode.dBodyCreate(world)
    g = ode.dCreateSphere(space, 0.5)     # newest: o1 of the pair, as in dSpaceCollide
    ode.dGeomSetBody(g, b)
    assert nat.collide(space) == 1
    assert ode.dBodyGetNumJoints(b) == 1
    j = ode.dBodyGetJoint(b, 0)
    assert ode.dJointGetType(j) == ode.dJointTypeContact
    assert ode.dJointGetBody(j, 0) is b and ode.dJointGetBody(j, 1) is None
    with pytest.raises(ODEError):
        ode.NativeCollider(world, None, 0, s)
    with pytest.raises(ODEError):
        ode.NativeCollider(world, None, 2, ode.dSurfaceParameters(soft_erp=math.nan))
    with pytest.raises(ODEError):
        ode.NativeCollider(None, None, 2, s)
    with pytest.raises(ODEError):
        nat.collide(g)
