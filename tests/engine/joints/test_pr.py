"""Prismatic-rotoide (PR) joint: rows, position/angle sign conventions,
rates, motors, limits with one or two bodies, and agreement with the real
ODE 0.16.2 (numbers marked "ODE" come from the same builders run on
Debian's libode8, double precision, and are hard-coded).
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from engine import ode
from engine.ode.joints import pr
from tests.engine.joints.setup_helpers import (
    CUBE,
    G,
    H,
    box,
    hinge_to_world,
    info1_limits,
    lock_to_world,
    sample_run,
    seeded_world,
)


def _rows(j) -> tuple[int, ...]:
    """(m, nub, prismatic limit state, rotoide limit state) from info1."""
    return info1_limits(pr, j, pr.PRISMATIC_LIMOT, pr.ROTOIDE_LIMOT)


def hanging(m, mode: str, limits: bool, motor: bool):
    """Body B (the moving one) on a PR joint, prismatic axis y, rotoide axis
    x, anchor (0.1, 0.5, 1) off B's centre; ``mode`` 'two': the other body
    is pinned to the world by a hinge about x at its centre; 'one': (B, NULL).
    Limits: prismatic [-0.1, 0.15] with bounce 0.3, rotoide [-0.5, 0.6];
    motors: Vel 0.5 / FMax 3, Vel2 -1 / FMax2 0.1."""
    w = seeded_world(m, (0, 0, -G))
    b1 = box(m, w, (0, 0, 1), mass=2, dims=(0.4, 0.2, 0.2))
    b2 = box(m, w, (0.1, 0.7, 0.8), mass=1, dims=CUBE)
    j = m.dJointCreatePR(w, None)
    if mode == "two":
        hinge_to_world(m, w, b1, (1, 0, 0), anchor=(0, 0, 1))
        m.dJointAttach(j, b1, b2)
    else:
        m.dJointAttach(j, b2, None)
    m.dJointSetPRAnchor(j, 0.1, 0.5, 1.0)
    m.dJointSetPRAxis1(j, 0, 1, 0)
    m.dJointSetPRAxis2(j, 1, 0, 0)
    if limits:
        m.dJointSetPRParam(j, m.dParamLoStop, -0.1)
        m.dJointSetPRParam(j, m.dParamHiStop, 0.15)
        m.dJointSetPRParam(j, m.dParamLoStop2, -0.5)
        m.dJointSetPRParam(j, m.dParamHiStop2, 0.6)
        m.dJointSetPRParam(j, m.dParamBounce, 0.3)
    if motor:
        m.dJointSetPRParam(j, m.dParamVel, 0.5)
        m.dJointSetPRParam(j, m.dParamFMax, 3)
        m.dJointSetPRParam(j, m.dParamVel2, -1)
        m.dJointSetPRParam(j, m.dParamFMax2, 0.1)
    m.dBodySetAngularVel(b2, 0.4, 0.2, -0.3)
    m.dBodySetLinearVel(b2, 0.1, 0.3, 0.2)
    return w, j, b2


def run_hanging(m, mode, quick, steps=(50, 100, 200)) -> np.ndarray:
    w, j, b = hanging(m, mode, True, True)
    return sample_run(m, w, quick, steps, lambda: np.r_[m.dBodyGetPosition(b), m.dBodyGetQuaternion(b),
                             m.dJointGetPRPosition(j), m.dJointGetPRPositionRate(j),
                             m.dJointGetPRAngle(j), m.dJointGetPRAngleRate(j)])


def limits_one_vs_two(m, side: str, lo: float, hi: float) -> np.ndarray:
    """Port of ODE's pr.cpp limit tests: a PR joint between two bodies at the
    origin, one of them held (here by a hinge with stops [0, 0], which locks
    it like a fixed joint), against a PR joint on one body attached (b, NULL)
    ('left') or (NULL, b) ('right'); the free bodies get 4 N along the
    prismatic axis (y) for the first of 50 dWorldStep(1.0)."""
    m.dRandSetSeed(0)
    w = m.dWorldCreate()
    b1, b2, b = m.dBodyCreate(w), m.dBodyCreate(w), m.dBodyCreate(w)
    j12 = m.dJointCreatePR(w, None)
    j = m.dJointCreatePR(w, None)
    moving, held = (b1, b2) if side == "left" else (b2, b1)
    m.dBodyAddForce(b, 0, 4, 0)
    m.dBodyAddForce(moving, 0, 4, 0)
    m.dJointAttach(j12, b1, b2)
    lock_to_world(m, w, held)
    m.dJointAttach(j, b, None) if side == "left" else m.dJointAttach(j, None, b)
    for jj in (j12, j):
        m.dJointSetPRParam(jj, m.dParamLoStop, lo)
        m.dJointSetPRParam(jj, m.dParamHiStop, hi)
    for _ in range(50):
        m.dWorldStep(w, 1.0)
    return np.r_[m.dBodyGetPosition(moving), m.dBodyGetPosition(b),
                 m.dJointGetPRPosition(j12), m.dJointGetPRPosition(j)]


def pair(mode="two", gravity=0.0):
    """Bodies at (0, -1, 0) and (0, 1, 0), a PR joint anchored at the origin."""
    w = seeded_world(ode, (0, 0, gravity))
    b1 = box(ode, w, (0, -1, 0), dims=CUBE)
    b2 = box(ode, w, (0, 1, 0), dims=CUBE)
    j = ode.dJointCreatePR(w, None)
    if mode == "two":
        ode.dJointAttach(j, b1, b2)
    elif mode == "one":
        ode.dJointAttach(j, b1, None)
    else:
        ode.dJointAttach(j, None, b1)
    ode.dJointSetPRAnchor(j, 0, 0, 0)
    return w, j, b1, b2


# ----------------------------------------------------------------------------- basics
def test_defaults_and_params():
    w = seeded_world(ode, (0, 0, -G))
    ode.dWorldSetERP(w, 0.3)
    b1 = box(ode, w, (1, 2, 3), dims=CUBE)
    b2 = box(ode, w, (1, 4, 3), dims=CUBE)
    j = ode.dJointCreatePR(w, None)
    assert ode.dJointGetType(j) == ode.dJointTypePR
    ode.dJointAttach(j, b1, b2)
    assert np.array_equal(ode.dJointGetPRAxis1(j), [0, 1, 0])      # prismatic
    assert np.array_equal(ode.dJointGetPRAxis2(j), [1, 0, 0])      # rotoide
    assert np.array_equal(ode.dJointGetPRAnchor(j), [1, 4, 3])     # body 2's centre
    assert ode.dJointGetPRPosition(j) == 0.0 and ode.dJointGetPRAngle(j) == 0.0
    assert ode.dJointGetPRParam(j, ode.dParamStopERP) == 0.3
    # port of joint.cpp test_SetPRParam: dParamX is the prismatic axis,
    # dParamX2 the rotoide axis
    ode.dJointSetPRParam(j, ode.dParamHiStop, 5.0)
    ode.dJointSetPRParam(j, ode.dParamVel, 7.0)
    ode.dJointSetPRParam(j, ode.dParamCFM2, 9.0)
    ode.dJointSetPRParam(j, ode.dParamStopERP2, 11.0)
    assert j.d[pr.PRISMATIC_LIMOT + 1] == 5.0 and j.d[pr.PRISMATIC_LIMOT + 2] == 7.0
    assert j.d[pr.ROTOIDE_LIMOT + 5] == 9.0 and j.d[pr.ROTOIDE_LIMOT + 7] == 11.0
    assert ode.dJointGetPRParam(j, ode.dParamHiStop) == 5.0
    assert ode.dJointGetPRParam(j, ode.dParamCFM2) == 9.0
    assert ode.dJointGetPRParam(j, ode.dParamHiStop2) == math.inf


def test_errors():
    w, j, b1, b2 = pair()
    hinge = ode.dJointCreateHinge(w, None)
    with pytest.raises(ode.ODEError, match="dJointSetPRAnchor"):
        ode.dJointSetPRAnchor(hinge, 0, 0, 0)
    with pytest.raises(ode.ODEError, match="dJointGetPRPosition"):
        ode.dJointGetPRPosition(b1)
    with pytest.raises(ode.ODEError, match="dJointSetPRParam"):
        ode.dJointSetPRParam(j, ode.dParamVel3, 1.0)
    with pytest.raises(ode.ODEError, match="dJointSetPRParam"):
        ode.dJointSetPRParam(j, ode.dParamVel, math.nan)
    with pytest.raises(ode.ODEError, match="dJointSetPRAxis1"):
        ode.dJointSetPRAxis1(j, math.nan, 1, 0)
    with pytest.raises(ode.ODEError, match="dJointSetPRAxis2"):
        ode.dJointSetPRAxis2(j, 0, 0, 0)
    with pytest.raises(ode.ODEError, match="dJointAddPRTorque"):
        ode.dJointAddPRTorque(j, None)


def test_info1_rows():
    """Port of ODE's joint.cpp PR getInfo1 tests (without, then with a
    powered prismatic axis)."""
    for fmax, base in ((0, 4), (1, 5)):
        w, j, b1, b2 = pair()
        ode.dJointSetPRParam(j, ode.dParamFMax, fmax)
        ode.dJointSetPRParam(j, ode.dParamLoStop2, -math.pi)
        ode.dJointSetPRParam(j, ode.dParamHiStop2, math.pi)
        assert _rows(j) == (base, 4, 0, 0)
        ode.dJointSetPRParam(j, ode.dParamLoStop, -10)
        ode.dJointSetPRParam(j, ode.dParamHiStop, 10)
        ode.dBodySetPosition(b2, 0, -100, 0)
        assert _rows(j) == (5, 4, 2, 0)
        ode.dBodySetPosition(b2, 0, 100, 0)
        assert _rows(j) == (5, 4, 1, 0)
        ode.dBodySetPosition(b2, 0, 1, 0)
        assert _rows(j) == (base, 4, 0, 0)
        ode.dJointSetPRParam(j, ode.dParamLoStop2, -math.pi / 4)
        ode.dJointSetPRParam(j, ode.dParamHiStop2, math.pi / 4)
        ode.dBodySetPosition(b2, 0, 0, 1)
        ode.dBodySetRotation(b2, ode.dRFromAxisAndAngle(1, 0, 0, math.pi / 2))
        assert _rows(j) == (base + 1, 4, 0, 1)
        ode.dBodySetPosition(b2, 0, 0, 100)
        assert _rows(j) == (base + 1, 4, 0, 1)
        ode.dBodySetPosition(b2, 0, 1, 0)
        ode.dBodySetRotation(b2, ode.dRFromAxisAndAngle(1, 0, 0, 0))
        assert _rows(j) == (base, 4, 0, 0)


# ----------------------------------------------------------------------------- conventions
@pytest.mark.parametrize("mode,move,axis_sign,expected", [
    ("two", 1, 1, 0.3), ("two", 2, 1, -0.3), ("two", 1, -1, -0.3), ("two", 2, -1, 0.3),
    ("one", 1, 1, 0.3), ("one", 1, -1, -0.3), ("rev", 1, 1, -0.3), ("rev", 1, -1, 0.3),
])
def test_position_signs(mode, move, axis_sign, expected):
    """Position grows when body 1 moves along the prismatic axis; a (NULL,
    body) joint reads the opposite sign (the body is body 2). ODE: same."""
    w, j, b1, b2 = pair(mode)
    ode.dJointSetPRAxis1(j, 0, axis_sign, 0)
    b = b1 if move == 1 else b2
    p = ode.dBodyGetPosition(b)
    ode.dBodySetPosition(b, p[0], p[1] + 0.3, p[2])
    assert ode.dJointGetPRPosition(j) == pytest.approx(expected, abs=1e-15)


def test_position_with_anchor_offset():
    w, j, b1, b2 = pair()
    ode.dJointSetPRAnchor(j, 0, 0.25, 0)
    assert ode.dJointGetPRPosition(j) == 0.0
    assert np.allclose(ode.dJointGetPRAnchor(j), [0, 0.25, 0])
    ode.dBodySetPosition(b2, 0, 0.5, 0)
    assert ode.dJointGetPRPosition(j) == pytest.approx(0.5)
    w, j, b1, b2 = pair("one")
    ode.dJointSetPRAnchor(j, 0, 0.25, 0)
    assert np.array_equal(ode.dJointGetPRAnchor(j), [0, 0.25, 0])
    ode.dBodySetPosition(b1, 0, -1.5, 0)
    assert ode.dJointGetPRPosition(j) == pytest.approx(-0.5)


@pytest.mark.parametrize("mode,which,expected", [
    ("two", 1, 0.3), ("two", 2, -0.3), ("one", 1, 0.3), ("rev", 1, -0.3),
])
def test_angle_signs(mode, which, expected):
    """A turn of body 2 about the rotoide axis reads negative, as ODE's hinge."""
    w, j, b1, b2 = pair(mode)
    ode.dBodySetRotation(b1 if which == 1 else b2, ode.dRFromAxisAndAngle(1, 0, 0, 0.3))
    assert ode.dJointGetPRAngle(j) == pytest.approx(expected, abs=1e-12)
    ode.dBodySetAngularVel(b1 if which == 1 else b2, 2.0, 0, 0)
    assert ode.dJointGetPRAngleRate(j) == pytest.approx(expected / 0.15, abs=1e-12)


def test_position_rate_in_line():
    """Port of joint.cpp GetPRPositionRate tests, bodies in line along y:
    only velocity along the prismatic axis counts, + for body 1, - for body 2;
    equal motions of both bodies give 0."""
    w, j, b1, b2 = pair()
    ode.dBodySetPosition(b1, 0, 1, 0)
    ode.dBodySetPosition(b2, 0, -1, 0)
    ode.dJointSetPRAnchor(j, 0, 0, 0)
    for v in ((0, 3.33, 0), (1.11, 3.33, 0), (1.11, 3.33, 2.22)):
        ode.dBodySetLinearVel(b1, *v)
        ode.dBodySetLinearVel(b2, *v)
        assert ode.dJointGetPRPositionRate(j) == 0.0
    ode.dBodySetLinearVel(b1, 0, 0, 0)
    ode.dBodySetLinearVel(b2, 0, 0, 0)
    for wv in ((1.22, 0, 0), (1.22, 2.33, 0), (1.22, 2.33, 3.44)):
        ode.dBodySetAngularVel(b1, *wv)
        ode.dBodySetAngularVel(b2, *wv)
        assert ode.dJointGetPRPositionRate(j) == 0.0
    for b, sign in ((b1, 1), (b2, -1)):
        ode.dBodySetAngularVel(b1, 0, 0, 0)
        ode.dBodySetAngularVel(b2, 0, 0, 0)
        for v, rate in (((3.33, 0, 0), 0.0), ((0, 3.33, 0), 3.33 * sign), ((0, 0, 3.33), 0.0)):
            ode.dBodySetLinearVel(b, *v)
            assert ode.dJointGetPRPositionRate(j) == pytest.approx(rate, abs=1e-15)
        ode.dBodySetLinearVel(b, 0, 0, 0)
        for wv in ((1.22, 0, 0), (0, 2.33, 0), (0, 0, 5.55)):
            ode.dBodySetAngularVel(b, *wv)
            assert ode.dJointGetPRPositionRate(j) == pytest.approx(0.0, abs=1e-15)


def test_position_rate_at_90_degrees():
    """Body 2 above the anchor, turned -90° about x: its spin about x moves
    its anchor point along y, which counts in the rate (joint.cpp port)."""
    w, j, b1, b2 = pair()
    ode.dBodySetPosition(b1, 0, 1, 0)
    ode.dBodySetPosition(b2, 0, 0, 1)
    ode.dBodySetRotation(b2, ode.dRFromAxisAndAngle(1, 0, 0, -math.pi / 2))
    ode.dJointSetPRAnchor(j, 0, 0, 0)
    ode.dBodySetLinearVel(b1, 0, 3.33, 0)
    assert ode.dJointGetPRPositionRate(j) == pytest.approx(3.33)
    ode.dBodySetLinearVel(b1, 0, 0, 0)
    ode.dBodySetLinearVel(b2, 0, 3.33, 0)
    assert ode.dJointGetPRPositionRate(j) == pytest.approx(-3.33)
    ode.dBodySetLinearVel(b2, 0, 0, 0)
    ode.dBodySetAngularVel(b2, 1.22, 0, 0)
    assert ode.dJointGetPRPositionRate(j) == pytest.approx(-1.22)
    ode.dBodySetAngularVel(b2, 0, 2.33, 0)
    assert ode.dJointGetPRPositionRate(j) == pytest.approx(0.0, abs=1e-15)


def test_add_pr_torque():
    for mode, sign in (("two", 1), ("rev", -1)):
        w, j, b1, b2 = pair(mode)
        ode.dJointAddPRTorque(j, 2.5)
        assert np.array_equal(ode.dBodyGetTorque(b1), [2.5 * sign, 0, 0])
        if mode == "two":
            assert np.array_equal(ode.dBodyGetTorque(b2), [-2.5, 0, 0])


# ----------------------------------------------------------------------------- dynamics
def test_prismatic_motor_reaches_vel_at_fmax():
    """One body, no gravity: the prismatic motor accelerates it at FMax/m
    along the axis until the position rate is Vel."""
    w, j, b1, b2 = pair("one")
    ode.dJointSetPRParam(j, ode.dParamVel, 0.4)
    ode.dJointSetPRParam(j, ode.dParamFMax, 3.0)
    for n in range(1, 14):
        ode.dWorldStep(w, H)
        assert ode.dJointGetPRPositionRate(j) == pytest.approx(n * H * 3.0, rel=1e-9)
    for _ in range(10):
        ode.dWorldStep(w, H)
    assert ode.dJointGetPRPositionRate(j) == pytest.approx(0.4, rel=1e-9)


def test_rotoide_motor_reaches_vel_at_fmax():
    """With the slide locked by stops [0, 0], the rotoide motor turns the
    body about the articulation 1 m away, at FMax2 / (I + m·1²), then holds
    Vel2."""
    w, j, b1, b2 = pair("one")
    ode.dJointSetPRParam(j, ode.dParamLoStop, 0.0)
    ode.dJointSetPRParam(j, ode.dParamHiStop, 0.0)
    ode.dJointSetPRParam(j, ode.dParamVel2, -1.0)
    ode.dJointSetPRParam(j, ode.dParamFMax2, 5.0)
    inertia = (0.2 ** 2 + 0.2 ** 2) / 12 + 1.0
    ode.dWorldStep(w, H)
    assert ode.dJointGetPRAngleRate(j) == pytest.approx(-H * 5.0 / inertia, rel=1e-7)
    for _ in range(100):
        ode.dWorldStep(w, H)
    assert ode.dJointGetPRAngleRate(j) == pytest.approx(-1.0, rel=1e-9)
    assert abs(ode.dJointGetPRPosition(j)) < 1e-3
    # 20 steps of acceleration (rate n·h·α), then 81 steps at 1 rad/s
    alpha = 5.0 / inertia
    assert ode.dJointGetPRAngle(j) == pytest.approx(-(H * H * alpha * 210 + 81 * H), abs=1e-4)


@pytest.mark.parametrize("side,lo,hi,expected", [
    # final y of the two-body and of the one-body set-up's moving body (ODE)
    ("left", -1, 0.25, (0.19000004758000216, 0.19000002378998265)),
    ("right", -1, 0.25, (0.734000076891625, 0.734000038445825)),
    ("left", 0, 0, (1.427247810261744e-14, 7.136239052914379e-15)),
    ("right", 0, 0, (1.427247810261744e-14, 7.136239052914379e-15)),
])
def test_limits_one_body_equals_two_bodies(side, lo, hi, expected):
    """ODE's pr.cpp limit tests: one body ends where the two-body joint's
    free body ends (ODE's own tolerance is 1e-2), on both sides."""
    out = limits_one_vs_two(ode, side, lo, hi)
    assert np.allclose(out[0:3], out[3:6], rtol=0, atol=1e-6)
    assert (out[1], out[4]) == pytest.approx(expected, abs=1e-9)
    sign = 1 if side == "left" else -1
    assert out[6] == pytest.approx(sign * expected[0], abs=1e-9)
    assert out[7] == pytest.approx(sign * expected[1], abs=1e-9)


@pytest.mark.parametrize("mode", ["two", "one"])
@pytest.mark.parametrize("quick", [False, True])
def test_hanging_body_follows_ode(mode, quick):
    """Gravity, stops with bounce and both motors; samples at steps 50, 100,
    200: body position, quaternion, PR position, its rate, angle, its rate."""
    got = run_hanging(ode, mode, quick)
    assert np.allclose(got, HANGING_ODE[mode, quick], rtol=0, atol=1e-9)


HANGING_ODE = {}
HANGING_ODE["two", False] = np.array([
    [0.09999999999031559, 0.2301994519250342, 0.15303389780890514, 0.9370264281733015,
     -0.3492584614648362, 5.23967893298107e-12, 4.9627128808281494e-12, -0.10259095483859981,
     -0.06093026611520867, -0.5010484565739882, 0.02620932286603761],
    [0.099999999996709, -0.7964296544346402, 0.6364376147204778, 0.48790583142257377,
     -0.8728962708500059, 2.452129909998742e-12, 8.230620661050876e-14, -0.10045196200352152,
     0.0015423886566666174, -0.5000000150055797, 3.7511560790903786e-07],
    [0.09999999999551047, 0.7771467614566294, 0.5985901608199585, 0.9983630027944773,
     0.057195407605807325, 1.865477208886308e-12, 2.7919894202627683e-12, -0.0996536090449277,
     0.030054443701923218, -0.5000000000011978, -7.784883848671598e-12],
])
HANGING_ODE["two", True] = np.array([
    [0.09990650097493661, 0.230203461028919, 0.15302692959239855, 0.9370269056542042,
     -0.3492571776565425, 4.3192577643972296e-05, 8.360311263722031e-06, -0.1025933746965949,
     -0.06107209446295168, -0.5010493592608384, 0.026245079709962926],
    [0.09993039916052954, -0.7964260743734168, 0.6364318807336125, 0.4879084321115224,
     -0.8728948160645489, 4.4231289105638596e-05, -2.3887460288255177e-06,
     -0.10044930367815934, 0.0015552788541816044, -0.4999999679814157, 4.141608382246531e-06],
    [0.0999590672084739, 0.7771241104715774, 0.5985123580114797, 0.9983656242996538,
     0.0571496269703235, 1.3063018137600568e-05, 1.3537828036586625e-05, -0.09966789236190747,
     0.030124420937538733, -0.5000009390845069, 1.90718148822544e-05],
])
HANGING_ODE["one", False] = np.array([
    [0.1000000000000002, 0.7113006735146992, 0.6566540060773814, 0.9689079089627526,
     -0.2474216319350966, -9.751770041339179e-18, -2.384888234829719e-17, 0.15004992054395958,
     -0.0012936087243645075, -0.5000364795028588, 0.000911987182595296],
    [0.10000000000000003, 0.7112742440018122, 0.6566815687544896, 0.9689124216443133,
     -0.24740395951429806, -1.3918909209628207e-22, -3.403795948949523e-22,
     0.15000621623243496, -0.00015540549928037123, -0.50000000053622, 1.3016344439786831e-08],
    [0.10000000000000003, 0.7112687889486106, 0.6566845490509239, 0.9689124217087193,
     -0.247403959262064, 5.787755707707617e-28, -1.478626573296749e-28, 0.1500000000385171,
     -2.9571208084472504e-14, -0.500000000015566, 1.6028844918025698e-15],
])
HANGING_ODE["one", True] = np.array([
    [0.1000000003456556, 0.7111522158764658, 0.6558752511494584, 0.9686245575118867,
     -0.24852860315243763, 4.040899349223261e-10, 1.0385901776580054e-09, 0.1507508899933455,
     0.07414200124471013, -0.5023218008918933, -0.019393164240326357],
    [0.10000000000000143, 0.7108368990273325, 0.6552367894691075, 0.9686389211045661,
     -0.2484726152343195, 7.345698952224403e-15, 1.66281685112309e-14, 0.15075872059840073,
     -0.017290360058867152, -0.5022061988197528, -0.03353191363021009],
    [0.10000000000000003, 0.7111284328659211, 0.6557515348538601, 0.9687141593231994,
     -0.24817912387375965, 8.551202609783636e-20, -1.5136267111035253e-20, 0.15064515312841123,
     -0.022984245221421565, -0.5016002352268906, -0.04021040253444251],
])
