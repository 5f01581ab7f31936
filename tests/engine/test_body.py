"""dBody* functions: state, conversions, forces, modes; stepping agrees with ODE 0.16.2."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import ode

#: Recorded from ODE 0.16.2 (libode8, double) running the scene in
#: ``_mode_scene`` below: per body [position, quaternion, linear vel, angular vel].
ODE_REFERENCE = {"gyro": [[0.0, 0.0, 0.0], [-0.05370990152641291, -0.7808831710970903, -0.6220456309406619, 0.01989855781229607], [0.0, 0.0, 0.0], [-0.010634611832312013, 4.594727700229667, 1.9780383712953509]], "finite": [[0.0, 0.0, -19.71810000000001], [0.17463896646962754, -0.02119561598372832, -0.0300919277878528, -0.9839443343683124], [0.0, 0.0, -19.619999999999983], [1.000000000000004, 1.9999999999999831, 29.99999999999986]], "damp": [[2.5980609754261113, 0.0, -11.20929720425302], [0.7406292739285444, 0.0, 0.6719138922511404, 0.0], [0.40193902457388536, 0.0, -8.410702795746948], [0.0, 0.052763839817164294, 0.0]], "kin": [[0.0, 2.0000000000000013, 0.0], [-0.4160862194310026, 0.0, 0.0, 0.9093251662632107], [0.0, 1.0, 0.0], [0.0, 0.0, 2.0]], "force": [[1.0, 2.010000000000001, -19.71810000000001], [-0.8935897705295982, 0.20312180473100408, 0.4000843392428269, -0.013091063375855657], [0.0, 2.0000000000000013, -19.619999999999983], [5.203186465871436, 2.421072617725283, 1.429009260634861]]}
ODE_AUTODISABLE_STEP = 50
ODE_AUTODISABLE_POS = [0.09548857643141101, 0.0, -0.9954313942638046]


@pytest.fixture
def w():
    world = ode.dWorldCreate()
    yield world
    ode.dWorldDestroy(world)


def sphere_mass(mass=1.0, r=0.1):
    m = ode.dMass()
    ode.dMassSetSphereTotal(m, mass, r)
    return m


def test_fresh_body_state(w):
    b = ode.dBodyCreate(w)
    assert np.array_equal(ode.dBodyGetPosition(b), [0, 0, 0])
    assert np.array_equal(ode.dBodyGetQuaternion(b), [1, 0, 0, 0])
    R = ode.dBodyGetRotation(b)
    assert R.shape == (12,) and (R[0], R[5], R[10]) == (1, 1, 1) and R[3] == 0
    m = ode.dBodyGetMass(b)
    assert m.mass == 1.0 and np.allclose(m.I.reshape(3, 4)[:, :3], np.eye(3))
    assert ode.dBodyIsEnabled(b) == 1 and ode.dBodyGetGravityMode(b) == 1
    assert ode.dBodyGetGyroscopicMode(b) == 1 and ode.dBodyIsKinematic(b) == 0
    assert ode.dBodyGetFiniteRotationMode(b) == 0
    assert ode.dBodyGetWorld(b) is w


def test_rotation_is_rebuilt_from_its_quaternion(w):
    b = ode.dBodyCreate(w)
    R = ode.dRFromAxisAndAngle(0, 1, 0, math.pi / 2)
    ode.dBodySetRotation(b, R)
    assert np.allclose(ode.dBodyGetRotation(b), R, atol=1e-15)
    assert np.allclose(ode.dBodyGetQuaternion(b), [math.cos(math.pi / 4), 0, math.sin(math.pi / 4), 0])
    ode.dBodySetRotation(b, np.eye(3))                  # (3, 3) accepted
    ode.dBodySetRotation(b, np.eye(3).ravel())          # 9-sequence accepted
    ode.dBodySetQuaternion(b, (2, 0, 0, 0))             # normalized
    assert np.array_equal(ode.dBodyGetQuaternion(b), [1, 0, 0, 0])


@settings(max_examples=50, deadline=None)
@given(st.lists(st.floats(-1, 1), min_size=4, max_size=4).filter(lambda q: sum(x * x for x in q) > 1e-3),
       st.lists(st.floats(-5, 5), min_size=3, max_size=3))
def test_point_and_vector_conversions_invert(q, p):
    w = ode.dWorldCreate()
    b = ode.dBodyCreate(w)
    ode.dBodySetQuaternion(b, q)
    ode.dBodySetPosition(b, 1, -2, 0.5)
    world_p = ode.dBodyGetRelPointPos(b, *p)
    assert np.allclose(ode.dBodyGetPosRelPoint(b, *world_p), p, atol=1e-12)
    v = ode.dBodyVectorToWorld(b, *p)
    assert np.allclose(ode.dBodyVectorFromWorld(b, *v), p, atol=1e-12)
    assert np.linalg.norm(ode.dBodyGetQuaternion(b)) == pytest.approx(1.0, abs=1e-15)
    ode.dWorldDestroy(w)


def test_point_velocities(w):
    b = ode.dBodyCreate(w)
    ode.dBodySetPosition(b, 1, 0, 0)
    ode.dBodySetLinearVel(b, 0, 0, 1)
    ode.dBodySetAngularVel(b, 0, 0, 2)
    assert np.allclose(ode.dBodyGetRelPointVel(b, 1, 0, 0), [0, 2, 1])
    assert np.allclose(ode.dBodyGetPointVel(b, 2, 0, 0), [0, 2, 1])


def test_force_adders_accumulate_force_and_torque(w):
    b = ode.dBodyCreate(w)
    ode.dBodySetPosition(b, 1, 0, 0)
    ode.dBodySetRotation(b, ode.dRFromAxisAndAngle(0, 0, 1, math.pi / 2))  # body x -> world y
    ode.dBodyAddForce(b, 1, 0, 0)
    ode.dBodyAddRelForce(b, 1, 0, 0)                       # world (0, 1, 0)
    assert np.allclose(ode.dBodyGetForce(b), [1, 1, 0])
    assert np.allclose(ode.dBodyGetTorque(b), 0)
    ode.dBodyAddForceAtPos(b, 0, 0, 1, 1, 1, 0)            # arm (0,1,0) x (0,0,1) = (1,0,0)
    assert np.allclose(ode.dBodyGetTorque(b), [1, 0, 0])
    ode.dBodySetTorque(b, 0, 0, 0)
    ode.dBodyAddForceAtRelPos(b, 0, 0, 1, 1, 0, 0)         # body point x -> world arm (0,1,0)
    assert np.allclose(ode.dBodyGetTorque(b), [1, 0, 0])
    ode.dBodySetTorque(b, 0, 0, 0)
    ode.dBodyAddRelForceAtPos(b, 1, 0, 0, 2, 0, 0)         # world force (0,1,0) at arm (1,0,0)
    assert np.allclose(ode.dBodyGetTorque(b), [0, 0, 1])
    ode.dBodySetTorque(b, 0, 0, 0)
    ode.dBodyAddRelForceAtRelPos(b, 1, 0, 0, 0, 1, 0)      # (0,1,0) at world arm (-1,0,0)
    assert np.allclose(ode.dBodyGetTorque(b), [0, 0, -1])
    ode.dBodySetTorque(b, 0, 0, 0)
    ode.dBodyAddTorque(b, 0, 0, 1)
    ode.dBodyAddRelTorque(b, 1, 0, 0)
    assert np.allclose(ode.dBodyGetTorque(b), [0, 1, 1])
    ode.dWorldStep(w, 0.01)
    assert np.array_equal(ode.dBodyGetForce(b), [0, 0, 0])    # cleared by the step
    assert np.array_equal(ode.dBodyGetTorque(b), [0, 0, 0])


def _mode_scene():
    ode.dRandSetSeed(0)
    w = ode.dWorldCreate()
    ode.dWorldSetGravity(w, 0, 0, -9.81)
    m = ode.dMass()
    bodies = {}
    b = ode.dBodyCreate(w)
    ode.dMassSetBoxTotal(m, 2.0, 0.1, 0.4, 0.9)
    ode.dBodySetMass(b, m)
    ode.dBodySetGravityMode(b, 0)
    ode.dBodySetAngularVel(b, 0.1, 5.0, 0.2)
    bodies["gyro"] = b
    ode.dMassSetSphereTotal(m, 1.0, 0.1)
    c = ode.dBodyCreate(w)
    ode.dBodySetMass(c, m)
    ode.dBodySetFiniteRotationMode(c, 1)
    ode.dBodySetFiniteRotationAxis(c, 0, 0, 1)
    ode.dBodySetAngularVel(c, 1.0, 2.0, 30.0)
    bodies["finite"] = c
    d = ode.dBodyCreate(w)
    ode.dBodySetMass(d, m)
    ode.dBodySetLinearVel(d, 3, 0, 0)
    ode.dBodySetAngularVel(d, 0, 4, 0)
    ode.dBodySetDamping(d, 0.01, 0.02)
    ode.dBodySetMaxAngularSpeed(d, 3.0)
    bodies["damp"] = d
    k = ode.dBodyCreate(w)
    ode.dBodySetMass(k, m)
    ode.dBodySetKinematic(k)
    ode.dBodySetLinearVel(k, 0, 1, 0)
    ode.dBodySetAngularVel(k, 0, 0, 2)
    bodies["kin"] = k
    f = ode.dBodyCreate(w)
    ode.dBodySetMass(f, m)
    ode.dBodySetPosition(f, 1, 0, 0)
    bodies["force"] = f
    for _ in range(200):
        ode.dBodyAddForceAtRelPos(f, 0, 1, 0, 0.1, 0, 0)
        ode.dBodyAddRelTorque(f, 0.01, 0, 0)
        ode.dWorldStep(w, 0.01)
    out = {name: [ode.dBodyGetPosition(x), ode.dBodyGetQuaternion(x),
                  ode.dBodyGetLinearVel(x), ode.dBodyGetAngularVel(x)]
           for name, x in bodies.items()}
    ode.dWorldDestroy(w)
    return out


@pytest.mark.parametrize("name", ["gyro", "finite", "damp", "kin", "force"])
def test_modes_follow_ode(name):
    """Implicit gyroscopic term, finite rotation about an axis, damping with an
    angular speed cap, a kinematic body, forces at points: all as ODE steps them."""
    got = _mode_scene()[name]
    for g, want in zip(got, ODE_REFERENCE[name], strict=True):
        assert np.allclose(g, want, atol=1e-10, rtol=0), (name, g, want)


def test_gyroscopic_mode_off_changes_the_spin():
    w = ode.dWorldCreate()
    m = ode.dMass()
    ode.dMassSetBoxTotal(m, 2.0, 0.1, 0.4, 0.9)
    spins = []
    for mode in (1, 0):
        b = ode.dBodyCreate(w)
        ode.dBodySetMass(b, m)
        ode.dBodySetGyroscopicMode(b, mode)
        ode.dBodySetAngularVel(b, 0.1, 5.0, 0.2)
        spins.append(b)
    for _ in range(100):
        ode.dWorldStep(w, 0.01)
    # without the gyroscopic term the angular velocity never changes
    assert np.array_equal(ode.dBodyGetAngularVel(spins[1]), [0.1, 5.0, 0.2])
    assert not np.allclose(ode.dBodyGetAngularVel(spins[0]), [0.1, 5.0, 0.2])
    ode.dWorldDestroy(w)


def test_auto_disable_follows_ode():
    w = ode.dWorldCreate()
    ode.dWorldSetGravity(w, 0, 0, -9.81)
    ode.dWorldSetAutoDisableFlag(w, 1)
    ode.dWorldSetAutoDisableSteps(w, 5)
    ode.dWorldSetAutoDisableLinearThreshold(w, 0.05)
    ode.dWorldSetAutoDisableAngularThreshold(w, 0.05)
    p = ode.dBodyCreate(w)
    ode.dBodySetMass(p, sphere_mass())
    ode.dBodySetPosition(p, 0, 0, -1)
    j = ode.dJointCreateBall(w, None)
    ode.dJointAttach(j, p, None)
    ode.dJointSetBallAnchor(j, 0, 0, 0)
    ode.dBodySetLinearVel(p, 0.3, 0, 0)
    step = None
    for i in range(3000):
        ode.dWorldStep(w, 0.01)
        if not ode.dBodyIsEnabled(p):
            step = i
            break
    assert step == ODE_AUTODISABLE_STEP
    assert np.allclose(ode.dBodyGetPosition(p), ODE_AUTODISABLE_POS, atol=1e-12)
    assert np.array_equal(ode.dBodyGetLinearVel(p), [0, 0, 0])
    before = ode.dBodyGetPosition(p)
    ode.dWorldStep(w, 0.01)
    assert np.array_equal(ode.dBodyGetPosition(p), before)      # disabled bodies do not move
    ode.dBodyEnable(p)
    assert ode.dBodyIsEnabled(p) == 1
    ode.dWorldDestroy(w)


def test_free_body_is_never_auto_disabled(w):
    ode.dWorldSetAutoDisableFlag(w, 1)
    b = ode.dBodyCreate(w)
    for _ in range(50):
        ode.dWorldStep(w, 0.01)
    assert ode.dBodyIsEnabled(b) == 1     # no joint: never frozen mid-air (ODE's rule)


def test_disabled_body_is_woken_through_a_joint(w):
    ode.dWorldSetGravity(w, 0, 0, -9.81)
    a = ode.dBodyCreate(w)
    b = ode.dBodyCreate(w)
    j = ode.dJointCreateBall(w, None)
    ode.dJointAttach(j, a, b)
    ode.dBodyDisable(b)
    ode.dWorldStep(w, 0.01)
    assert ode.dBodyIsEnabled(b) == 1


def test_auto_disable_settings_round_trip(w):
    b = ode.dBodyCreate(w)
    ode.dBodySetAutoDisableFlag(b, 1)
    ode.dBodySetAutoDisableLinearThreshold(b, 0.3)
    ode.dBodySetAutoDisableAngularThreshold(b, 0.4)
    ode.dBodySetAutoDisableSteps(b, 11)
    ode.dBodySetAutoDisableTime(b, 2.5)
    ode.dBodySetAutoDisableAverageSamplesCount(b, 6)
    assert ode.dBodyGetAutoDisableFlag(b) == 1
    assert ode.dBodyGetAutoDisableLinearThreshold(b) == pytest.approx(0.3)
    assert ode.dBodyGetAutoDisableAngularThreshold(b) == pytest.approx(0.4)
    assert ode.dBodyGetAutoDisableSteps(b) == 11
    assert ode.dBodyGetAutoDisableTime(b) == 2.5
    assert ode.dBodyGetAutoDisableAverageSamplesCount(b) == 6
    ode.dBodySetAutoDisableDefaults(b)
    assert ode.dBodyGetAutoDisableSteps(b) == 10 and ode.dBodyGetAutoDisableFlag(b) == 0


def test_damping_settings_round_trip(w):
    b = ode.dBodyCreate(w)
    ode.dBodySetLinearDampingThreshold(b, 0.5)
    ode.dBodySetAngularDampingThreshold(b, 0.6)
    ode.dBodySetLinearDamping(b, 0.1)
    ode.dBodySetAngularDamping(b, 0.2)
    assert ode.dBodyGetLinearDampingThreshold(b) == pytest.approx(0.5)
    assert ode.dBodyGetAngularDampingThreshold(b) == pytest.approx(0.6)
    assert (ode.dBodyGetLinearDamping(b), ode.dBodyGetAngularDamping(b)) == (0.1, 0.2)
    ode.dBodySetDampingDefaults(b)
    assert ode.dBodyGetLinearDamping(b) == 0.0


def test_kinematic_toggle_and_gravity_mode(w):
    ode.dWorldSetGravity(w, 0, 0, -10)
    b = ode.dBodyCreate(w)
    ode.dBodySetKinematic(b)
    assert ode.dBodyIsKinematic(b) == 1
    ode.dWorldStep(w, 0.1)
    assert np.array_equal(ode.dBodyGetLinearVel(b), [0, 0, 0])   # no force moves it
    ode.dBodySetDynamic(b)
    ode.dBodySetGravityMode(b, 0)
    ode.dWorldStep(w, 0.1)
    assert np.array_equal(ode.dBodyGetLinearVel(b), [0, 0, 0])
    ode.dBodySetGravityMode(b, 1)
    ode.dWorldStep(w, 0.1)
    assert ode.dBodyGetLinearVel(b)[2] == pytest.approx(-1.0)


def test_moved_callback_and_data(w):
    b = ode.dBodyCreate(w)
    moved = []
    ode.dBodySetMovedCallback(b, moved.append)
    ode.dBodySetData(b, {"name": "x"})
    ode.dWorldStep(w, 0.01)
    ode.dWorldStep(w, 0.01)
    assert moved == [b, b]
    assert ode.dBodyGetData(b) == {"name": "x"}
    ode.dBodySetMovedCallback(b, None)
    ode.dWorldStep(w, 0.01)
    assert len(moved) == 2


def test_body_joints_listing_and_connections(w):
    a, b, c = (ode.dBodyCreate(w) for _ in range(3))
    j1 = ode.dJointCreateBall(w, None)
    ode.dJointAttach(j1, a, b)
    j2 = ode.dJointCreateHinge(w, None)
    ode.dJointAttach(j2, a, None)
    assert ode.dBodyGetNumJoints(a) == 2
    assert ode.dBodyGetJoint(a, 0) is j2 and ode.dBodyGetJoint(a, 1) is j1   # newest first
    assert ode.dAreConnected(a, b) == 1 and ode.dAreConnected(a, c) == 0
    assert ode.dAreConnectedExcluding(a, b, ode.dJointTypeBall) == 0
    assert ode.dAreConnectedExcluding(a, b, ode.dJointTypeHinge) == 1
    assert ode.dConnectingJoint(a, b) is j1
    assert ode.dConnectingJointList(a, None) == [j2]
    ode.dBodyDestroy(b)
    assert ode.dBodyGetNumJoints(a) == 1
    assert ode.dJointGetBody(j1, 0) is None and ode.dJointGetBody(j1, 1) is None
    ode.dWorldStep(w, 0.01)     # a detached joint is simply not stepped


def test_set_mass_checks(w):
    b = ode.dBodyCreate(w)
    m = ode.dMass()
    ode.dMassSetBoxTotal(m, 1, 1, 1, 1)
    ode.dMassTranslate(m, 0.1, 0, 0)
    with pytest.raises(ode.ODEError, match="dBodySetMass.*centre of mass"):
        ode.dBodySetMass(b, m)
    with pytest.raises(ode.ODEError, match="dBodySetMass.*'mass'"):
        ode.dBodySetMass(b, "heavy")
    bad = ode.dMass()
    bad.mass = -1.0
    with pytest.raises(ode.ODEError, match="dBodySetMass"):
        ode.dBodySetMass(b, bad)
    assert ode.dBodyGetMass(b).mass == 1.0       # unchanged


@pytest.mark.parametrize("call,fn,arg", [
    (lambda b: ode.dBodySetPosition(b, math.nan, 0, 0), "dBodySetPosition", "x, y, z"),
    (lambda b: ode.dBodyAddForce(b, 0, math.inf, 0), "dBodyAddForce", "fx, fy, fz"),
    (lambda b: ode.dBodySetQuaternion(b, (0, 0, 0, 0)), "dBodySetQuaternion", "q"),
    (lambda b: ode.dBodySetRotation(b, [1, 2]), "dBodySetRotation", "R"),
    (lambda b: ode.dBodyGetPosition(None), "dBodyGetPosition", "b"),
    (lambda b: ode.dBodySetLinearVel(b, "a", 0, 0), "dBodySetLinearVel", "x, y, z"),
])
def test_misuse_raises_naming_function_and_argument(w, call, fn, arg):
    b = ode.dBodyCreate(w)
    ode.dBodySetPosition(b, 1, 2, 3)
    with pytest.raises(ode.ODEError) as info:
        call(b)
    assert str(info.value).startswith(f"{fn}: argument '{arg}'")
    assert np.array_equal(ode.dBodyGetPosition(b), [1, 2, 3])
    ode.dWorldStep(w, 0.01)


def test_destroyed_body_is_rejected(w):
    b = ode.dBodyCreate(w)
    ode.dBodyDestroy(b)
    with pytest.raises(ode.ODEError, match="destroyed"):
        ode.dBodyGetPosition(b)
    c = ode.dBodyCreate(w)          # its row is reused by a new body
    assert c.alive and not b.alive


def test_kinematic_body_holds_its_joints_like_the_world(w):
    """A body hanging from a kinematic body by a ball joint stays put (ODE
    zeroes a kinematic body's inverse inertia as well as its inverse mass)."""
    ode.dWorldSetGravity(w, 0, 0, -9.81)
    k = ode.dBodyCreate(w)
    ode.dBodySetPosition(k, 0, 0, 1)
    ode.dBodySetKinematic(k)
    b = ode.dBodyCreate(w)
    ode.dBodySetPosition(b, 0, 0, 0.5)
    j = ode.dJointCreateBall(w, None)
    ode.dJointAttach(j, k, b)
    ode.dJointSetBallAnchor(j, 0, 0, 1)
    for _ in range(100):
        ode.dWorldStep(w, 0.01)
    assert np.allclose(ode.dBodyGetPosition(k), [0, 0, 1])
    assert np.allclose(ode.dBodyGetAngularVel(k), 0)
    assert ode.dBodyGetPosition(b)[2] == pytest.approx(0.5, abs=1e-6)
    ode.dBodySetMass(k, ode.dBodyGetMass(k))     # setting the mass makes it dynamic
    assert ode.dBodyIsKinematic(k) == 0
