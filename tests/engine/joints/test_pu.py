"""Prismatic-universal (PU) joint: rows, position/angle conventions, rates,
motors, limits with one or two bodies, and agreement with the real ODE
0.16.2 (numbers marked "ODE" come from the same builders run on Debian's
libode8, double precision, and are hard-coded).
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from engine import ode
from engine.ode.joints import pu
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
    """(m, nub, limit state of axis 1, axis 2, prismatic axis) from info1."""
    return info1_limits(pu, j, pu.LIMOT1, pu.LIMOT2, pu.PRISMATIC_LIMOT)


def hanging(m, mode: str):
    """Body B (0.7, 0.1, 0.8) on a PU joint anchored at (0.5, 0.1, 0.9), axes
    y, z, prismatic x; 'two': the other body is pinned to the world by a
    hinge about y at its centre; 'one': (B, NULL); 'rev': (NULL, B).
    Stops: prismatic [-0.1, 0.15] with bounce 0.3, axis 1 [-0.5, 0.6], axis 2
    [-0.4, 0.3]; motors: Vel3 0.5 / FMax3 3, Vel2 -1 / FMax2 0.1, Vel 1 / FMax 0.1."""
    w = seeded_world(m, (0, 0, -G))
    b1 = box(m, w, (0, 0, 1), mass=2, dims=(0.4, 0.2, 0.2))
    b2 = box(m, w, (0.7, 0.1, 0.8), mass=1, dims=CUBE)
    j = m.dJointCreatePU(w, None)
    if mode == "two":
        hinge_to_world(m, w, b1, (0, 1, 0), anchor=(0, 0, 1))
        m.dJointAttach(j, b1, b2)
    elif mode == "one":
        m.dJointAttach(j, b2, None)
    else:
        m.dJointAttach(j, None, b2)
    m.dJointSetPUAnchor(j, 0.5, 0.1, 0.9)
    m.dJointSetPUAxis1(j, 0, 1, 0)
    m.dJointSetPUAxis2(j, 0, 0, 1)
    m.dJointSetPUAxis3(j, 1, 0, 0)
    for p, v in ((m.dParamLoStop3, -0.1), (m.dParamHiStop3, 0.15), (m.dParamLoStop, -0.5),
                 (m.dParamHiStop, 0.6), (m.dParamLoStop2, -0.4), (m.dParamHiStop2, 0.3),
                 (m.dParamBounce3, 0.3), (m.dParamVel3, 0.5), (m.dParamFMax3, 3),
                 (m.dParamVel2, -1), (m.dParamFMax2, 0.1), (m.dParamVel, 1),
                 (m.dParamFMax, 0.1)):
        m.dJointSetPUParam(j, p, v)
    m.dBodySetAngularVel(b2, 0.4, 0.2, -0.3)
    m.dBodySetLinearVel(b2, 0.1, 0.3, 0.2)
    return w, j, b2


def run_hanging(m, mode, quick, steps=(50, 100, 200)) -> np.ndarray:
    w, j, b = hanging(m, mode)
    return sample_run(m, w, quick, steps, lambda: np.r_[m.dBodyGetPosition(b), m.dBodyGetQuaternion(b),
                             m.dJointGetPUPosition(j), m.dJointGetPUPositionRate(j),
                             m.dJointGetPUAngles(j), m.dJointGetPUAngle1Rate(j),
                             m.dJointGetPUAngle2Rate(j)])


def limits_one_vs_two(m, side: str, lo: float, hi: float) -> np.ndarray:
    """As ODE's pu.cpp limit tests: a PU between two bodies at the origin, one
    held (a hinge with stops [0, 0] locks it like a fixed joint), against a
    PU on one body attached (b, NULL) ('left') or (NULL, b) ('right'); the
    free bodies get 4 N along the prismatic axis (x) for the first of 50
    dWorldStep(1.0)."""
    m.dRandSetSeed(0)
    w = m.dWorldCreate()
    b1, b2, b = m.dBodyCreate(w), m.dBodyCreate(w), m.dBodyCreate(w)
    j12 = m.dJointCreatePU(w, None)
    j = m.dJointCreatePU(w, None)
    moving, held = (b1, b2) if side == "left" else (b2, b1)
    m.dBodyAddForce(b, 4, 0, 0)
    m.dBodyAddForce(moving, 4, 0, 0)
    m.dJointAttach(j12, b1, b2)
    lock_to_world(m, w, held)
    m.dJointAttach(j, b, None) if side == "left" else m.dJointAttach(j, None, b)
    for jj in (j12, j):
        m.dJointSetPUParam(jj, m.dParamLoStop3, lo)
        m.dJointSetPUParam(jj, m.dParamHiStop3, hi)
    for _ in range(50):
        m.dWorldStep(w, 1.0)
    return np.r_[m.dBodyGetPosition(moving), m.dBodyGetPosition(b),
                 m.dJointGetPUPosition(j12), m.dJointGetPUPosition(j)]


def pair(mode="two", p1=(3, 0, 0), p2=(1, 0, 0), anchor=(2, 0, 0), gravity=0.0):
    """joint.cpp's PU fixture: bodies at (3, 0, 0) and (1, 0, 0), anchor (2, 0, 0)."""
    w = seeded_world(ode, (0, 0, gravity))
    b1 = box(ode, w, p1, dims=CUBE)
    b2 = box(ode, w, p2, dims=CUBE)
    j = ode.dJointCreatePU(w, None)
    if mode == "two":
        ode.dJointAttach(j, b1, b2)
    elif mode == "one":
        ode.dJointAttach(j, b1, None)
    else:
        ode.dJointAttach(j, None, b1)
    ode.dJointSetPUAnchor(j, *anchor)
    return w, j, b1, b2


# ----------------------------------------------------------------------------- basics
def test_defaults_and_params():
    w, j, b1, b2 = pair()
    assert ode.dJointGetType(j) == ode.dJointTypePU
    assert np.array_equal(ode.dJointGetPUAxis1(j), [0, 1, 0])
    assert np.array_equal(ode.dJointGetPUAxis2(j), [0, 0, 1])
    assert np.array_equal(ode.dJointGetPUAxis3(j), [1, 0, 0])
    assert np.array_equal(ode.dJointGetPUAxisP(j), [1, 0, 0])
    assert np.array_equal(ode.dJointGetPUAnchor(j), [2, 0, 0])
    assert ode.dJointGetPUPosition(j) == 0.0
    assert ode.dJointGetPUAngles(j) == (0.0, 0.0)
    # port of joint.cpp test_SetPUParam: X axis 1, X2 axis 2, X3 prismatic
    ode.dJointSetPUParam(j, ode.dParamHiStop, 5.0)
    ode.dJointSetPUParam(j, ode.dParamVel, 7.0)
    ode.dJointSetPUParam(j, ode.dParamCFM2, 9.0)
    ode.dJointSetPUParam(j, ode.dParamStopERP2, 11.0)
    ode.dJointSetPUParam(j, ode.dParamBounce3, 13.0)
    assert j.d[pu.LIMOT1 + 1] == 5.0 and j.d[pu.LIMOT1 + 2] == 7.0
    assert j.d[pu.LIMOT2 + 5] == 9.0 and j.d[pu.LIMOT2 + 7] == 11.0
    assert j.d[pu.PRISMATIC_LIMOT + 6] == 13.0
    for p, v in ((ode.dParamHiStop, 5.0), (ode.dParamCFM2, 9.0), (ode.dParamBounce3, 13.0),
                 (ode.dParamHiStop3, math.inf), (ode.dParamStopERP3, 0.2)):
        assert ode.dJointGetPUParam(j, p) == v


def test_errors():
    w, j, b1, b2 = pair()
    hinge = ode.dJointCreateHinge(w, None)
    with pytest.raises(ode.ODEError, match="dJointSetPUAnchor"):
        ode.dJointSetPUAnchor(hinge, 0, 0, 0)
    with pytest.raises(ode.ODEError, match="dJointGetPUAngles"):
        ode.dJointGetPUAngles(w)
    with pytest.raises(ode.ODEError, match="dJointSetPUParam"):
        ode.dJointSetPUParam(j, 0x300, 1.0)
    with pytest.raises(ode.ODEError, match="dJointSetPUParam"):
        ode.dJointSetPUParam(j, ode.dParamVel3, math.nan)
    with pytest.raises(ode.ODEError, match="dJointSetPUAxisP"):
        ode.dJointSetPUAxisP(j, 0, 0, 0)
    with pytest.raises(ode.ODEError, match="dJointSetPUAnchorOffset"):
        ode.dJointSetPUAnchorOffset(j, 0, 0, 0, 0, math.inf, 0)
    with pytest.raises(ode.ODEError, match="dJointAddPUTorque"):
        ode.dJointAddPUTorque(j, None)


@pytest.mark.parametrize("fmax1,base", [(0, 3), (1, 4)])
def test_info1_rows(fmax1, base):
    """Port of ODE's joint.cpp PU getInfo1 tests (then with axis 1 powered)."""
    w, j, b1, b2 = pair()
    ode.dJointSetPUParam(j, ode.dParamFMax, fmax1)
    for p, v in ((ode.dParamLoStop1, -math.pi), (ode.dParamHiStop1, math.pi),
                 (ode.dParamLoStop2, -math.pi), (ode.dParamHiStop2, math.pi),
                 (ode.dParamLoStop3, -math.inf), (ode.dParamHiStop3, math.inf)):
        ode.dJointSetPUParam(j, p, v)
    assert _rows(j) == (base, 3, 0, 0, 0)
    ode.dJointSetPUParam(j, ode.dParamLoStop3, -10)
    ode.dJointSetPUParam(j, ode.dParamHiStop3, 10)
    ode.dBodySetPosition(b2, -100, 0, 0)
    assert _rows(j) == (base + 1, 3, 0, 0, 2)
    ode.dBodySetPosition(b2, 100, 0, 0)
    assert _rows(j) == (base + 1, 3, 0, 0, 1)
    ode.dBodySetPosition(b2, 1, 0, 0)
    assert _rows(j) == (base, 3, 0, 0, 0)
    for p in (ode.dParamLoStop1, ode.dParamLoStop2):
        ode.dJointSetPUParam(j, p, -math.pi / 4)
    for p in (ode.dParamHiStop1, ode.dParamHiStop2):
        ode.dJointSetPUParam(j, p, math.pi / 4)
    ode.dBodySetPosition(b2, 0, 0, 1)
    ode.dBodySetRotation(b2, ode.dRFromAxisAndAngle(0, 1, 0, math.pi / 2))
    # axis 1 at its stop: one row whether or not it is also powered
    assert _rows(j) == (4, 3, 1, 0, 0)
    ode.dBodySetPosition(b1, 100, 0, 0)
    assert _rows(j) == (5, 3, 1, 0, 2)
    ode.dBodySetPosition(b1, 3, 0, 0)
    ode.dBodySetPosition(b2, 1, 0, 0)
    ode.dBodySetRotation(b2, ode.dRFromAxisAndAngle(0, 1, 0, 0))
    assert _rows(j) == (base, 3, 0, 0, 0)
    # stops wider than ±π on the universal axes are not tested
    ode.dJointSetPUParam(j, ode.dParamLoStop1, -4)
    ode.dJointSetPUParam(j, ode.dParamHiStop1, 4)
    ode.dBodySetRotation(b2, ode.dRFromAxisAndAngle(0, 1, 0, math.pi / 2))
    assert _rows(j)[2] == 0


# ----------------------------------------------------------------------------- conventions
# position after: the start, SetPUAnchorOffset(0, 0, 0, 0.3, 0.1, 0),
# SetPUAnchorDelta(0, 0, 0, 0.3, 0.1, 0), SetPUAnchor(0, 0, 0) then body 1 to
# x = -0.7, then body 1 back and body 2 to x = 1.2 (ODE)
POSITION_ODE = {"two": (0.0, 0.3, -0.3, 0.3, -0.2), "one": (0.0, 0.3, -0.3, 0.3, 0.0),
                "rev": (0.0, 0.3, 0.3, -0.3, 0.0)}


@pytest.mark.parametrize("mode", ["two", "one", "rev"])
def test_position_signs_and_offsets(mode):
    w, j, b1, b2 = pair(mode, (-1, 0, 0), (1, 0, 0), (0, 0, 0))
    got = [ode.dJointGetPUPosition(j)]
    ode.dJointSetPUAnchorOffset(j, 0, 0, 0, 0.3, 0.1, 0)
    got.append(ode.dJointGetPUPosition(j))
    ode.dJointSetPUAnchorDelta(j, 0, 0, 0, 0.3, 0.1, 0)
    got.append(ode.dJointGetPUPosition(j))
    ode.dJointSetPUAnchor(j, 0, 0, 0)
    ode.dBodySetPosition(b1, -0.7, 0, 0)
    got.append(ode.dJointGetPUPosition(j))
    ode.dBodySetPosition(b1, -1, 0, 0)
    ode.dBodySetPosition(b2, 1.2, 0, 0)
    got.append(ode.dJointGetPUPosition(j))
    assert got == pytest.approx(POSITION_ODE[mode], abs=1e-12)


# (mode, body turned, turn axis) -> (angle1, angle2) after +0.3 rad (ODE; a
# (NULL, body) joint swaps the roles of the axes)
ANGLES_ODE = [
    ("two", 1, (0, 1, 0), (0.3, 0.0)), ("two", 1, (0, 0, 1), (0.0, 0.3)),
    ("two", 2, (0, 1, 0), (-0.3, 0.0)), ("two", 2, (0, 0, 1), (0.0, -0.3)),
    ("one", 1, (0, 1, 0), (0.3, 0.0)), ("one", 1, (0, 0, 1), (0.0, 0.3)),
    ("rev", 1, (0, 1, 0), (0.0, 0.3)), ("rev", 1, (0, 0, 1), (0.3, 0.0)),
]


@pytest.mark.parametrize("mode,which,axis,expected", ANGLES_ODE)
def test_angle_signs(mode, which, axis, expected):
    w, j, b1, b2 = pair(mode, (-1, 0, 0), (1, 0, 0), (0, 0, 0))
    ode.dBodySetRotation(b1 if which == 1 else b2, ode.dRFromAxisAndAngle(*axis, 0.3))
    assert ode.dJointGetPUAngles(j) == pytest.approx(expected, abs=1e-12)
    assert (ode.dJointGetPUAngle1(j), ode.dJointGetPUAngle2(j)) == pytest.approx(expected,
                                                                                  abs=1e-12)


def test_angle_rates():
    w, j, b1, b2 = pair()
    ode.dBodySetAngularVel(b1, 1.0, 2.0, 3.0)
    ode.dBodySetAngularVel(b2, 0.5, 0.25, 0.125)
    assert ode.dJointGetPUAngle1Rate(j) == 2.0 - 0.25
    assert ode.dJointGetPUAngle2Rate(j) == 3.0 - 0.125
    w, j, b1, b2 = pair("rev")
    ode.dBodySetAngularVel(b1, 1.0, 2.0, 3.0)
    # (NULL, body): the user's axis 1 lives in the axis-2 slot (world
    # coordinates), so the defaults read axis 1 = z, axis 2 = y (as ODE)
    assert np.array_equal(ode.dJointGetPUAxis1(j), [0, 0, 1])
    assert np.array_equal(ode.dJointGetPUAxis2(j), [0, 1, 0])
    assert ode.dJointGetPUAngle1Rate(j) == 3.0
    assert ode.dJointGetPUAngle2Rate(j) == 2.0


def test_position_rate_in_line():
    """Port of joint.cpp GetPUPositionRate tests, bodies in line along x."""
    w, j, b1, b2 = pair()
    for v in ((0, 3.33, 0), (1.11, 3.33, 0), (1.11, 3.33, 2.22)):
        ode.dBodySetLinearVel(b1, *v)
        ode.dBodySetLinearVel(b2, *v)
        assert ode.dJointGetPUPositionRate(j) == 0.0
    ode.dBodySetLinearVel(b1, 0, 0, 0)
    ode.dBodySetLinearVel(b2, 0, 0, 0)
    for b, sign in ((b1, 1), (b2, -1)):
        for v, rate in (((3.33, 0, 0), 3.33 * sign), ((0, 3.33, 0), 0.0), ((0, 0, 3.33), 0.0)):
            ode.dBodySetLinearVel(b, *v)
            assert ode.dJointGetPUPositionRate(j) == pytest.approx(rate, abs=1e-15)
        ode.dBodySetLinearVel(b, 0, 0, 0)
        for wv in ((1.22, 0, 0), (0, 2.33, 0), (0, 0, 5.55)):
            ode.dBodySetAngularVel(b, *wv)
            assert ode.dJointGetPUPositionRate(j) == pytest.approx(0.0, abs=1e-15)
        ode.dBodySetAngularVel(b, 0, 0, 0)


def test_position_rate_at_90_degrees():
    """Body 2 beside the anchor: its spin about z moves its anchor point by
    +1.5 m/s along x. ODE 0.16.2 adds that velocity where it should subtract
    it (its rate reads +1.5, the true rate is -1.5); kept as ODE has it.
    Body 1's spin does not count (its anchor is on its sliding line)."""
    w, j, b1, b2 = pair(p1=(3, 0, 0), p2=(2, 1, 0))
    ode.dBodySetAngularVel(b2, 0, 0, 1.5)
    assert ode.dJointGetPUPositionRate(j) == pytest.approx(1.5, abs=1e-15)
    ode.dBodySetAngularVel(b2, 0, 0, 0)
    ode.dBodySetAngularVel(b1, 0, 0, 1.5)
    assert ode.dJointGetPUPositionRate(j) == pytest.approx(0.0, abs=1e-15)
    ode.dBodySetAngularVel(b1, 0, 0, 0)
    ode.dBodySetLinearVel(b2, 3.33, 0, 0)
    assert ode.dJointGetPUPositionRate(j) == pytest.approx(-3.33, abs=1e-15)


def test_add_pu_torque_acts_about_axis1():
    w, j, b1, b2 = pair()
    ode.dJointAddPUTorque(j, 2.0)
    assert np.array_equal(ode.dBodyGetTorque(b1), [0, 2.0, 0])
    assert np.array_equal(ode.dBodyGetTorque(b2), [0, -2.0, 0])
    w, j, b1, b2 = pair("rev")
    ode.dJointAddPUTorque(j, 2.0)
    assert np.array_equal(ode.dBodyGetTorque(b1), [0, 0, -2.0])


# ----------------------------------------------------------------------------- dynamics
def test_prismatic_motor_reaches_vel_at_fmax():
    """One body, no gravity, anchor on the prismatic line through its centre:
    the motor accelerates it at FMax3/m until the position rate is Vel3."""
    w, j, b1, b2 = pair("one")
    ode.dJointSetPUParam(j, ode.dParamVel3, -0.5)
    ode.dJointSetPUParam(j, ode.dParamFMax3, 4.0)
    for n in range(1, 13):
        ode.dWorldStep(w, H)
        assert ode.dJointGetPUPositionRate(j) == pytest.approx(-n * H * 4.0, rel=1e-9)
    for _ in range(10):
        ode.dWorldStep(w, H)
    assert ode.dJointGetPUPositionRate(j) == pytest.approx(-0.5, rel=1e-9)


def test_prismatic_stop_pushes_at_the_anchor():
    """The prismatic stop row acts at the anchor points (two-point limot): a
    body reaching the stop with its anchor off its centre line is turned
    about z so that the anchor point stops (v_x - 0.5·w_z = 0 for the arm
    (-1, 0.5, 0)); with the anchor on the axis through its centre it just
    stops."""
    for anchor, arm_y in (((2, 0, 0), 0.0), ((2, 0.5, 0), 0.5)):
        w, j, b1, b2 = pair("one", p2=(10, 0, 0), anchor=anchor)
        ode.dJointSetPUParam(j, ode.dParamHiStop3, 0.0)
        ode.dBodySetLinearVel(b1, 1.0, 0, 0)
        ode.dWorldStep(w, H)
        v = ode.dBodyGetLinearVel(b1)
        spin = ode.dBodyGetAngularVel(b1)[2]
        assert v[0] - arm_y * spin == pytest.approx(0.0, abs=1e-7)   # CFM 1e-10
        if arm_y:
            assert spin > 0.1
        else:
            assert spin == 0.0


@pytest.mark.parametrize("side,lo,hi,expected", [
    # final x of the two-body and of the one-body set-up's moving body (ODE)
    ("left", -1, 0.25, (0.19000004758000216, 0.19000002378998265)),
    ("right", -1, 0.25, (0.734000076891625, 0.734000038445825)),
    ("left", 0, 0, (1.427247810261744e-14, 7.136239052914379e-15)),
    ("right", 0, 0, (1.427247810261744e-14, 7.136239052914379e-15)),
])
def test_limits_one_body_equals_two_bodies(side, lo, hi, expected):
    out = limits_one_vs_two(ode, side, lo, hi)
    assert np.allclose(out[0:3], out[3:6], rtol=0, atol=1e-6)
    assert (out[0], out[3]) == pytest.approx(expected, abs=1e-9)
    sign = 1 if side == "left" else -1
    assert out[6] == pytest.approx(sign * expected[0], abs=1e-9)
    assert out[7] == pytest.approx(sign * expected[1], abs=1e-9)


@pytest.mark.parametrize("mode", ["two", "one", "rev"])
@pytest.mark.parametrize("quick", [False, True])
def test_hanging_body_follows_ode(mode, quick):
    """Gravity, three stops and three motors; samples at steps 50, 100, 200:
    position, quaternion, PU position and rate, angles, angle rates."""
    got = run_hanging(ode, mode, quick)
    assert np.allclose(got, HANGING_ODE[mode, quick], rtol=0, atol=1e-9)


HANGING_ODE = {}
HANGING_ODE["two", False] = np.array([
    [0.18553278226658823, 0.10504821013545754, 0.1910591750071555, 0.8971316830351305,
     0.00652221392537583, 0.44158311656812105, 0.010796072528984516, -0.10068637323997623,
     0.27908962781748414, 0.27890284511493313, -0.025133901751243748, -1.0468064224062203,
     2.4248179903961398],
    [-0.708874032343211, 0.12643823072036825, 0.5701982199285911, 0.5122099344764677,
     0.05680125357056642, 0.8563030744200879, 0.034053565967905916, -0.10023836344722648,
     0.023115914812756183, 0.4012138945347692, -0.1325511355913287, 0.9999999999993118,
     -1.1745317742344727],
    [0.7116856426046055, 0.12136110023981093, 0.5698062226444265, 0.998363118960897,
     0.0012403057980863268, 0.02029513330190591, 0.053457009871997224, -0.10003953498032252,
     0.018146875744872684, 0.34266911445365444, -0.10699338272309955, -0.32081989769407177,
     -1.0924757351366],
])
HANGING_ODE["two", True] = np.array([
    [0.18552503490712863, 0.10503389868829965, 0.1910659317780457, 0.8971306725343553,
     0.006505743337508386, 0.44158618442149117, 0.010764452134246405, -0.10067761109213322,
     0.2788726416999741, 0.2789021090119643, -0.025062621721143152, -1.0447461302724488,
     2.423191308505935],
    [-0.7088538532719498, 0.12637196227373412, 0.5701730837591439, 0.5124204211726058,
     0.05665043026876923, 0.8561900095638576, 0.033980998200377255, -0.10023653243733907,
     0.02294912745698982, 0.40183232905722477, -0.13221706943572809, 1.000000000777614,
     -1.173242485567023],
    [0.711721293781094, 0.1209385430828631, 0.5697917444672326, 0.9984143972852257,
     0.001228680438282539, 0.020534369609112004, 0.0523977223046639, -0.10003101954439327,
     0.017017835684026095, 0.3420251119346549, -0.10487227805535504, -0.32655491074505194,
     -1.081538959368655],
])
HANGING_ODE["one", False] = np.array([
    [0.7284853967712849, 0.1450559964466675, 0.6194988987047964, 0.9512112383118682,
     -0.027420270348021324, 0.2942588923952351, 0.08863979427758645, 0.15058674858042656,
     -0.026206263210277483, 0.6000282453763415, 0.1858354402244611, -0.0007059871273247065,
     -0.45621379527477046],
    [0.7253388216663643, 0.04410297051445172, 0.6194974806544072, 0.9465220423730654,
     0.039807135242625614, 0.2932656242993548, -0.12847835961751003, 0.1500234263972557,
     -0.004816914614497376, 0.6009102076845041, -0.26982557555534736, -0.02275534463590453,
     -0.9999999999999184],
    [0.7140575388389427, 0.00949792404717923, 0.6198415727606396, 0.9362933635789782,
     0.058710801701050655, 0.2896294776269307, -0.18979606100005006, 0.15000000004359101,
     -2.238254948467619e-11, 0.6000000000059078, -0.40000000004600356, -2.0258100455537336e-12,
     1.1375865388574269e-09],
])
HANGING_ODE["one", True] = np.array([
    [0.7286288229148234, 0.14507649298213088, 0.6192743408812642, 0.9511864701669507,
     -0.0274225633918962, 0.29434464175751557, 0.08862016619818469, 0.150850880640574,
     0.08529267432393337, 0.6002074363625738, 0.18579913690226194, -0.006504087330263845,
     -0.45846910122653595],
    [0.7257140691268058, 0.043948383291424926, 0.6194073610987337, 0.9466125858514486,
     0.039796301815831804, 0.2929209067524043, -0.12860096833525891, 0.1503336166763352,
     -0.012471759536186023, 0.6001919908630509, -0.27005550251429433, -0.004499439685169417,
     -0.9999991727366963],
    [0.7139906002887327, 0.00952128526969225, 0.6197646903453532, 0.9362675826791972,
     0.05872699653746568, 0.2897107805600733, -0.18979414408514939, 0.15000238517037373,
     0.00011989878432944152, 0.6001735531288261, -0.4000060307534623, -0.003913117222130399,
     1.4588854903185844e-05],
])
HANGING_ODE["rev", False] = np.array([
    [0.5035461995509738, 0.1681737471150743, 0.748896576132619, 0.9738536021296996,
     0.025860723851652438, 0.14719465250965746, 0.17109681134795715, 0.13159442812590386,
     0.4369040822802751, 0.30002224694009816, 0.347831116542058, -0.0005561702785130422,
     0.25308228722573445],
    [0.4727178923382847, 0.17968361673091357, 0.7502528368159955, 0.9680902987506647,
     0.030403890286219988, 0.14631253856253598, 0.20117012198559353, 0.15157032049943442,
     0.008062425115419717, 0.3000000003245335, 0.4097702704625057, -7.94226691749709e-09,
     -0.5252979164314444],
    [0.5043967920051309, 0.10084376010904605, 0.7453559228461732, 0.9887688758154177,
     0.00031539064568348636, 0.14943779965934406, 0.0020868110670395766, 0.15009601754384624,
     -0.0040563794876009845, 0.3000000000073676, 0.004221022768178706, -1.0094759002543933e-12,
     0.7730561879605027],
])
HANGING_ODE["rev", True] = np.array([
    [0.5036081525226063, 0.16816693998121787, 0.7489016394047544, 0.9738596733440211,
     0.025860050080750704, 0.14717147602807676, 0.17108229332053826, 0.13155071255467612,
     0.43756196941273734, 0.2999758388068273, 0.34780176225267123, -0.002961578888130395,
     0.2529792625136534],
    [0.4728353948971783, 0.17947669963651647, 0.7502054843256728, 0.9681882682796454,
     0.030333468514784964, 0.14641245671413422, 0.2006358651200119, 0.15158490127177005,
     0.008545371330135342, 0.30016895285075457, 0.40866975136781836, -0.005196185883226567,
     -0.5276945411730487],
    [0.5040134692834997, 0.10112667162699687, 0.7451978596030867, 0.9886913671904567,
     0.00042389172366595764, 0.14993811777175126, 0.002785964453626489, 0.15026454620793628,
     -0.006928514171959548, 0.30101257747238214, 0.00563606290199381, -0.02290105333105752,
     0.777666885268678],
])
