"""Angular motor (AMotor) joint: user and Euler modes.

Reference numbers marked "ODE" were produced by running the same set-ups
on the real ODE 0.16.2 (Debian libode8, double precision) and are
hard-coded here; ODE's own unit tests (tests/joints/amotor.cpp) are ported
as facts.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from engine import ode
from engine.ode.joints import amotor
from tests.engine.joints.setup_helpers import (
    H,
    box,
    info1_counts,
    kernel_params,
    seeded_world,
    step_fn,
)

TOL = 1e-9


def _info1(j) -> tuple[int, int]:
    """(m, nub) the joint asks for, straight from its compiled kernel."""
    return info1_counts(amotor, j, kernel_params(max_vel=0.0))


# ----------------------------------------------------------------------------- rows
def test_row_counts_follow_powered_and_limited_axes():
    w = seeded_world()
    b = box(ode, w, (0, 0, 0))
    j = ode.dJointCreateAMotor(w, None)
    ode.dJointAttach(j, b, None)
    assert _info1(j) == (0, 0)
    ode.dJointSetAMotorNumAxes(j, 3)
    for k in range(3):
        ode.dJointSetAMotorAxis(j, k, 0, *np.eye(3)[k])
    assert _info1(j) == (0, 0)
    ode.dJointSetAMotorParam(j, ode.dParamFMax2, 1.0)
    assert _info1(j) == (1, 0)
    # a user angle past a stop adds a row; inside the stops it does not
    ode.dJointSetAMotorParam(j, ode.dParamHiStop3, 0.5)
    ode.dJointSetAMotorAngle(j, 2, 0.4)
    assert _info1(j) == (1, 0)
    ode.dJointSetAMotorAngle(j, 2, 0.6)
    assert _info1(j) == (2, 0)
    ode.dJointSetAMotorNumAxes(j, 1)
    assert _info1(j) == (0, 0)
    # Euler mode: always 3 axes, rows only where powered or limited
    ode.dJointSetAMotorMode(j, ode.dAMotorEuler)
    ode.dJointSetAMotorNumAxes(j, 1)
    assert ode.dJointGetAMotorNumAxes(j) == 3
    assert _info1(j) == (1, 0)
    ode.dJointSetAMotorParam(j, ode.dParamFMax, 1.0)
    ode.dJointSetAMotorParam(j, ode.dParamFMax3, 1.0)
    assert _info1(j) == (3, 0)


# ----------------------------------------------------------------------------- ODE unit tests
def _ode_fixture_x_user(av, quick):
    """tests/joints/amotor.cpp FixtureXUser: rotation about body y, z locked."""
    w = seeded_world()
    b = ode.dBodyCreate(w)
    j = ode.dJointCreateAMotor(w, None)
    ode.dBodySetFiniteRotationMode(b, 1)
    ode.dBodySetFiniteRotationAxis(b, 1, 0, 0)
    ode.dJointAttach(j, b, None)
    ode.dJointSetAMotorNumAxes(j, 2)
    ode.dJointSetAMotorAxis(j, 0, 2, 0, 1, 0)
    ode.dJointSetAMotorAxis(j, 1, 2, 0, 0, 1)
    for p in (ode.dParamFMax, ode.dParamFMax2):
        ode.dJointSetAMotorParam(j, p, math.inf)
    ode.dBodySetAngularVel(b, *av)
    step_fn(quick)(w, 1.0)
    return ode.dBodyGetRotation(b), j


def test_ode_unit_rotation_about_x_is_free():
    R, _ = _ode_fixture_x_user((1, 0, 0), True)
    c, s = math.cos(1.0), math.sin(1.0)
    assert np.allclose(R.reshape(3, 4)[:, :3], [[1, 0, 0], [0, c, -s], [0, s, c]], atol=1e-5)
    # ODE
    assert np.allclose(R, [1, 0, 0, 0, 0, 0.540302305868, -0.841470984808, 0,
                           0, 0.841470984808, 0.540302305868, 0], atol=TOL)


def test_ode_unit_rotation_about_y_and_z_is_locked():
    R, j = _ode_fixture_x_user((0, 1, 1), False)
    assert np.allclose(R.reshape(3, 4)[:, :3], np.eye(3), atol=1e-5)
    # ODE: only CFM lets 5e-11 rad through
    assert abs(R[1] + 5.0000004137e-11) < 1e-15 and abs(R[2] - 5.0000004137e-11) < 1e-15


def test_ode_unit_axis_set_get_sanity_both_attachments():
    w = seeded_world()
    b = ode.dBodyCreate(w)
    ode.dBodySetRotation(b, ode.dRFromAxisAndAngle(1, 1, 1, 10 * math.pi / 180))
    j = ode.dJointCreateAMotor(w, None)
    for bodies in ((b, None), (None, b)):
        ode.dJointAttach(j, *bodies)
        ode.dJointSetAMotorNumAxes(j, 3)
        assert ode.dJointGetAMotorNumAxes(j) == 3
        for rel in (0, 1, 2):
            for k in range(3):
                ode.dJointSetAMotorAxis(j, k, rel, *np.eye(3)[k])
                assert ode.dJointGetAMotorAxisRel(j, k) == rel
                assert np.allclose(ode.dJointGetAMotorAxis(j, k), np.eye(3)[k], atol=1e-12)


def test_ode_unit_euler_axes_reversed_attachment():
    w = seeded_world()
    b = ode.dBodyCreate(w)
    j = ode.dJointCreateAMotor(w, None)
    ode.dJointAttach(j, None, b)
    ode.dJointSetAMotorMode(j, ode.dAMotorEuler)
    ode.dJointSetAMotorAxis(j, 0, 0, 1, 0, 0)
    ode.dJointSetAMotorAxis(j, 2, 0, 0, 0, 1)
    for k in range(3):
        assert np.allclose(ode.dJointGetAMotorAxis(j, k), np.eye(3)[k], atol=1e-12)


# ----------------------------------------------------------------------------- Euler angles
def _euler_pair(R1, R2):
    w = seeded_world()
    b1 = box(ode, w, (0, 0, 1), mass=2.0)
    b2 = box(ode, w, (0.5, 0, 1))
    ode.dBodySetRotation(b1, R1)
    ode.dBodySetRotation(b2, R2)
    j = ode.dJointCreateAMotor(w, None)
    ode.dJointAttach(j, b1, b2)
    ode.dJointSetAMotorMode(j, ode.dAMotorEuler)
    ode.dJointSetAMotorAxis(j, 0, 1, 1, 0, 0)
    ode.dJointSetAMotorAxis(j, 2, 2, 0, 0, 1)
    return w, b1, b2, j


@pytest.mark.parametrize("a, b, c", [(0.3, 0, 0), (0, 0.4, 0), (0, 0, -0.5), (0.3, -0.2, 0.6),
                                     (-1.0, 0.7, 2.5), (2.9, -1.2, -3.0)])
def test_euler_angles_match_closed_form(a, b, c):
    """Body 2 turned by a about x, then b about the new y, then c about the
    new z reads Euler angles (-a, -b, -c) (ODE's sign convention)."""
    eye = ode.dRFromAxisAndAngle(1, 0, 0, 0)
    w, b1, b2, j = _euler_pair(eye, eye)
    q = ode.dQMultiply0(ode.dQMultiply0(ode.dQFromAxisAndAngle(1, 0, 0, a),
                                        ode.dQFromAxisAndAngle(0, 1, 0, b)),
                        ode.dQFromAxisAndAngle(0, 0, 1, c))
    ode.dBodySetQuaternion(b2, q)
    # as in ODE the angles are computed by the step (nothing moves here)
    assert [ode.dJointGetAMotorAngle(j, k) for k in range(3)] == [0.0, 0.0, 0.0]
    ode.dWorldStep(w, H)
    got = [ode.dJointGetAMotorAngle(j, k) for k in range(3)]
    assert np.allclose(got, [-a, -b, -c], atol=1e-12)
    # axis 1 is normal to body 1's x and body 2's z; the rows of angles 0
    # and 2 act along axis 1 × z2 and x1 × axis 1, cos(b) away from x1, z2
    z2 = ode.dBodyGetRotation(b2).reshape(3, 4)[:, 2]
    a0, a1, a2 = (ode.dJointGetAMotorAxis(j, k) for k in range(3))
    assert abs(a1[0]) < 1e-12 and abs(float(a1 @ z2)) < 1e-12
    assert abs(a0[0] - math.cos(b)) < 1e-12 and abs(float(a2 @ z2) - math.cos(b)) < 1e-12


def test_euler_motors_and_stops_match_ode():
    ref = {0: [5.55111512313e-17, -0, 1.30104260698e-17, -0.273068570029, -1.49574937293,
               -0.1374711579, 0.0704604931824, 0.000687692362822, -0.0311293003159,
               0.346081993352, 1.49586844686, 0.111496468941],
           99: [0.957631348448, -0.0282141243598, -0.490524035558, 1.00191506303,
                0.226175294866, -0.49343903683, 0.358696171909, 0.538118461849,
                -0.242535105884, -0.251793082664, 0.686068643721, 0.695040014929],
           199: [1.95973890127, 0.054535373478, -0.98930415787, 1.00029149144,
                 -0.124768635614, -0.500323594845, 0.32473719314, 0.4660050967,
                 -0.209127856329, -0.116684133374, 1.01585038978, 0.699896237191]}
    for quick in (False, True):
        w, b1, b2, j = _euler_pair(ode.dRFromAxisAndAngle(1, 1, 0, 0.3),
                                   ode.dRFromAxisAndAngle(0, 1, 1, -0.2))
        for p, v in ((ode.dParamVel, 1.0), (ode.dParamFMax, 0.3), (ode.dParamLoStop2, -0.2),
                     (ode.dParamHiStop2, 0.25), (ode.dParamVel3, -0.5), (ode.dParamFMax3, 0.1)):
            ode.dJointSetAMotorParam(j, p, v)
        ode.dBodySetAngularVel(b2, 0.5, 1.5, 0.0)
        traj = []
        for _ in range(200):
            step_fn(quick)(w, H)
            traj.append([ode.dJointGetAMotorAngle(j, k) for k in range(3)]
                        + [ode.dJointGetAMotorAngleRate(j, k) for k in range(3)]
                        + [*ode.dBodyGetAngularVel(b1), *ode.dBodyGetAngularVel(b2)])
        traj = np.array(traj)
        for k, row in ref.items():
            assert np.allclose(traj[k], row, atol=1e-8), (quick, k)
        # the motors reach their speeds; angle 1 stays within its stops
        assert np.allclose(traj[-1, [3, 5]], [1.0, -0.5], atol=0.01)
        assert traj[:, 1].min() > -0.2 - 0.02 and traj[:, 1].max() < 0.25 + 0.02


def _euler_one_body(quick, reverse):
    w = seeded_world()
    b = box(ode, w, (0, 0, 1))
    ode.dBodySetRotation(b, ode.dRFromAxisAndAngle(0, 0, 1, 0.2))
    j = ode.dJointCreateAMotor(w, None)
    ode.dJointAttach(j, *((None, b) if reverse else (b, None)))
    ode.dJointSetAMotorMode(j, ode.dAMotorEuler)
    ode.dJointSetAMotorAxis(j, 0, 0 if reverse else 1, 1, 0, 0)
    ode.dJointSetAMotorAxis(j, 2, 2, 0, 0, 1)
    for p, v in ((ode.dParamLoStop2, -0.2), (ode.dParamHiStop2, 0.2), (ode.dParamVel, 0.5),
                 (ode.dParamFMax, 0.2)):
        ode.dJointSetAMotorParam(j, p, v)
    ode.dBodySetAngularVel(b, 0.2, 0.8, 0.1)
    traj = []
    for _ in range(100):
        step_fn(quick)(w, H)
        traj.append([ode.dJointGetAMotorAngle(j, k) for k in range(3)]
                    + list(ode.dBodyGetAngularVel(b)))
    return np.array(traj), j


@pytest.mark.parametrize("quick", [False, True])
def test_euler_one_body_matches_ode(quick):
    traj, _ = _euler_one_body(quick, False)
    ref = {33: [0.163631724241, 0.199232364762, 0.0641423715576, 0.500803282767,
                0.00353483838579, 0.175738803675],
           99: [0.498749804921, 0.137491420067, 0.231260713293, 0.522103852947,
                -0.0357955428758, 0.150223100849]}
    for k, row in ref.items():
        if quick and k != 99:
            continue
        assert np.allclose(traj[k], row, atol=1e-8)
    assert np.abs(traj[:, 1]).max() < 0.201


@pytest.mark.parametrize("quick", [False, True])
def test_euler_reversed_attachment_reproduces_ode_spin_up(quick):
    """ODE quirk: attached (NULL, body), the stop on angle 1 pushes the wrong
    way and the body spins up; ODE's trajectory is followed."""
    traj, j = _euler_one_body(quick, True)
    assert [ode.dJointGetAMotorAxisRel(j, k) for k in range(3)] == [0, 0, 2]
    ref = {15: [-0.0719342453098, -0.118010173765, -0.0123903153559, 0.511268859696,
                0.778449691059, 0.121773892062],
           39: [-0.195170826168, -0.386649521152, -0.0206100706381, 0.538204016457,
                3.66290349926, 0.719980458554]}
    for k, row in ref.items():
        assert np.allclose(traj[k], row, atol=1e-7)
    assert np.abs(traj[:, 3:]).max() > 20    # ODE: 33.9 rad/s


# ----------------------------------------------------------------------------- user mode
def test_user_motor_reaches_vel_at_fmax_rate():
    """A body spinning about x only: ω grows by FMax·h/I per step up to Vel."""
    w = seeded_world()
    b = box(ode, w, (0, 0, 1))
    j = ode.dJointCreateAMotor(w, None)
    ode.dJointAttach(j, b, None)
    ode.dJointSetAMotorNumAxes(j, 1)
    ode.dJointSetAMotorAxis(j, 0, 1, 1, 0, 0)
    ode.dJointSetAMotorParam(j, ode.dParamVel, 2.0)
    ode.dJointSetAMotorParam(j, ode.dParamFMax, 0.05)
    ixx = (0.3 ** 2 + 0.4 ** 2) / 12
    rates = []
    for _ in range(100):
        ode.dWorldStep(w, H)
        rates.append(ode.dJointGetAMotorAngleRate(j, 0))
    expect = np.minimum(0.05 * H / ixx * np.arange(1, 101), 2.0)
    assert np.allclose(rates, expect, atol=1e-7)
    assert np.allclose(ode.dBodyGetAngularVel(b), [2.0, 0, 0], atol=1e-9)


@pytest.mark.parametrize("quick", [False, True])
def test_user_motor_two_axes_matches_ode(quick):
    w = seeded_world()
    b = box(ode, w, (0, 0, 1))
    ode.dBodySetAngularVel(b, 0.1, 0.2, -0.3)
    j = ode.dJointCreateAMotor(w, None)
    ode.dJointAttach(j, b, None)
    ode.dJointSetAMotorNumAxes(j, 2)
    ode.dJointSetAMotorAxis(j, 0, 1, 1, 0, 0)
    ode.dJointSetAMotorAxis(j, 1, 0, 0, 0, 1)
    for p, v in ((ode.dParamVel, 2.0), (ode.dParamFMax, 0.05), (ode.dParamVel2, -1.0),
                 (ode.dParamFMax2, 0.02)):
        ode.dJointSetAMotorParam(j, p, v)
    av, rates = [], []
    for _ in range(150):
        step_fn(quick)(w, H)
        av.append(ode.dBodyGetAngularVel(b))
        rates.append([ode.dJointGetAMotorAngleRate(j, k) for k in range(2)])
    ref = {0: [0.123832405615, 0.200180229577, -0.318383753114],
           49: [1.28308693551, 0.207043227294, -1],
           99: [2.06953716537, 0.117871965609, -0.993169889634],
           149: [1.97972926736, -0.240132998336, -1]}
    for k, row in ref.items():
        assert np.allclose(av[k], row, atol=1e-9)
    assert np.allclose(rates[49], [1.29185324798, -1], atol=1e-9)
    assert np.allclose(rates[149], [2, -1], atol=1e-9)
    assert np.allclose(ode.dBodyGetQuaternion(b),
                       [0.243073389396, 0.867832929328, 0.149530525715, -0.406720980551],
                       atol=1e-9)


@pytest.mark.parametrize("quick", [False, True])
def test_user_stop_with_bounce(quick):
    """The user feeds the angle; the stop at 0.3 reflects ω = 1 to -0.5."""
    w = seeded_world()
    b = box(ode, w, (0, 0, 1))
    ode.dBodySetAngularVel(b, 0, 0, 1.0)
    j = ode.dJointCreateAMotor(w, None)
    ode.dJointAttach(j, b, None)
    ode.dJointSetAMotorNumAxes(j, 1)
    ode.dJointSetAMotorAxis(j, 0, 0, 0, 0, 1)
    for p, v in ((ode.dParamHiStop, 0.3), (ode.dParamLoStop, -0.3), (ode.dParamBounce, 0.5)):
        ode.dJointSetAMotorParam(j, p, v)
    ang, traj = 0.0, []
    for _ in range(100):
        ode.dJointSetAMotorAngle(j, 0, ang)
        step_fn(quick)(w, H)
        wz = ode.dBodyGetAngularVel(b)[2]
        ang += wz * H
        traj.append([ang, wz])
    assert np.allclose(traj[25], [0.26, 1], atol=1e-9)
    assert np.allclose(traj[50], [0.195000000034, -0.499999999838], atol=1e-9)    # ODE
    assert np.allclose(traj[99], [-0.05, -0.5], atol=1e-9)


def test_add_torques_match_ode():
    ref = [[0.513313075001, -0.0410830275085, 0.0919307404043, -0.16, 0, 0],
           [0.441403549808, -0.853413747535, -1.16120040557, -0.16, 0.282842712475,
            0.435142634576],
           [-0.632960946189, 0.102398543848, -1.23607815424, 0, 0, 0],
           [0.860587379072, -0.356852705057, 3.32101779164, -0.16, 0.0894427191,
            -1.10083346585]]
    cases = ((1, ode.dAMotorUser, False), (2, ode.dAMotorUser, False),
             (3, ode.dAMotorUser, True), (3, ode.dAMotorEuler, False))
    for (num, mode, rev), row in zip(cases, ref, strict=True):
        w = seeded_world()
        b1 = box(ode, w, (0, 0, 1))
        b2 = box(ode, w, (1, 0, 1), mass=3)
        ode.dBodySetRotation(b1, ode.dRFromAxisAndAngle(1, 2, 3, 0.4))
        j = ode.dJointCreateAMotor(w, None)
        ode.dJointAttach(j, *((None, b1) if rev else (b1, b2)))
        ode.dJointSetAMotorMode(j, mode)
        ode.dJointSetAMotorNumAxes(j, num)
        ode.dJointSetAMotorAxis(j, 0, 1, 1, 0, 0)
        if mode == ode.dAMotorUser:
            ode.dJointSetAMotorAxis(j, 1, 0, 0, 1, 1)
        ode.dJointSetAMotorAxis(j, 2, 0 if rev else 2, 0, 0.5, 1)
        ode.dJointAddAMotorTorques(j, 1.0, -2.0, 3.0)
        ode.dWorldStep(w, H)
        got = np.concatenate([ode.dBodyGetAngularVel(b1), ode.dBodyGetAngularVel(b2)])
        assert np.allclose(got, row, atol=1e-12), (num, mode, rev)


def test_defaults_and_params():
    w = seeded_world()
    ode.dWorldSetERP(w, 0.3)
    j = ode.dJointCreateAMotor(w, None)
    assert ode.dJointGetType(j) == ode.dJointTypeAMotor
    assert ode.dJointGetAMotorMode(j) == ode.dAMotorUser
    assert ode.dJointGetAMotorNumAxes(j) == 0
    for g in (0, ode.dParamGroup, 2 * ode.dParamGroup):
        assert ode.dJointGetAMotorParam(j, g + ode.dParamLoStop) == -math.inf
        assert ode.dJointGetAMotorParam(j, g + ode.dParamHiStop) == math.inf
        assert ode.dJointGetAMotorParam(j, g + ode.dParamFMax) == 0
        assert ode.dJointGetAMotorParam(j, g + ode.dParamFudgeFactor) == 1
        assert ode.dJointGetAMotorParam(j, g + ode.dParamStopERP) == 0.3
    ode.dJointSetAMotorParam(j, ode.dParamVel3, 4.5)
    assert ode.dJointGetAMotorParam(j, ode.dParamVel3) == 4.5
    assert ode.dJointGetAMotorParam(j, ode.dParamVel) == 0
    ode.dJointSetAMotorAngle(j, 1, 0.25)
    assert ode.dJointGetAMotorAngle(j, 1) == 0.25
    assert ode.dJointGetAMotorAngleRate(j, 0) == 0.0


# ----------------------------------------------------------------------------- errors
def test_errors():
    w = seeded_world()
    b = box(ode, w, (0, 0, 0))
    j = ode.dJointCreateAMotor(w, None)
    ode.dJointAttach(j, b, None)
    other = ode.dJointCreateBall(w, None)
    bad = [
        (ode.dJointSetAMotorMode, (other, 0)),
        (ode.dJointGetAMotorAngle, (other, 0)),
        (ode.dJointSetAMotorMode, (j, 2)),
        (ode.dJointSetAMotorNumAxes, (j, 4)),
        (ode.dJointSetAMotorNumAxes, (j, -1)),
        (ode.dJointSetAMotorAxis, (j, 3, 0, 1, 0, 0)),
        (ode.dJointSetAMotorAxis, (j, -1, 0, 1, 0, 0)),
        (ode.dJointSetAMotorAxis, (j, 0, 3, 1, 0, 0)),
        (ode.dJointSetAMotorAxis, (j, 0, 0, 0, 0, 0)),
        (ode.dJointSetAMotorAxis, (j, 0, 0, math.nan, 0, 1)),
        (ode.dJointGetAMotorAxis, (j, 3)),
        (ode.dJointGetAMotorAxisRel, (j, 5)),
        (ode.dJointGetAMotorAngle, (j, 3)),
        (ode.dJointGetAMotorAngleRate, (j, -1)),
        (ode.dJointSetAMotorAngle, (j, 0, math.nan)),
        (ode.dJointSetAMotorParam, (j, 3 * ode.dParamGroup, 1.0)),
        (ode.dJointSetAMotorParam, (j, 14, 1.0)),
        (ode.dJointGetAMotorParam, (j, 0x300)),
        (ode.dJointSetAMotorParam, (j, ode.dParamVel, math.nan)),
        (ode.dJointAddAMotorTorques, (j, 1.0, math.nan, 0.0)),
    ]
    for fn, args in bad:
        with pytest.raises(ode.ODEError):
            fn(*args)
    # Euler mode: axis 0 belongs to body 1, axis 2 to body 2, angles are computed
    ode.dJointSetAMotorMode(j, ode.dAMotorEuler)
    for anum, rel in ((0, 2), (2, 1), (1, 1), (1, 2)):
        with pytest.raises(ode.ODEError):
            ode.dJointSetAMotorAxis(j, anum, rel, 1, 0, 0)
    with pytest.raises(ode.ODEError):
        ode.dJointSetAMotorAngle(j, 0, 0.1)
    # a body-relative axis needs the body
    loose = ode.dJointCreateAMotor(w, None)
    with pytest.raises(ode.ODEError):
        ode.dJointSetAMotorAxis(loose, 0, 1, 1, 0, 0)
