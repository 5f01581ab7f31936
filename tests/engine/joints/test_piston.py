"""Piston joint: rows, position/angle conventions, rates, motors, limits
with one or two bodies, dJointAddPistonForce, and agreement with the real
ODE 0.16.2 (numbers marked "ODE" come from the same builders run on
Debian's libode8, double precision, and are hard-coded).
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from engine import ode
from engine.ode.joints import piston
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
    return info1_limits(piston, j, piston.PRISMATIC_LIMOT, piston.ROTOIDE_LIMOT)


def hanging(m, mode: str, anchor=(0.5, 0.1, 0.9), limits=True, motor=True):
    """Body B (0.7, 0.1, 0.8) on a piston, axis (1, 0, 0.2), anchored at
    ``anchor``; 'two': the other body is pinned to the world by a hinge about
    y at its centre; 'one': (B, NULL); 'rev': (NULL, B). Stops: prismatic
    [-0.1, 0.15] with bounce 0.3, rotation [-0.5, 0.6]; motors: Vel 0.5 /
    FMax 3, Vel2 -1 / FMax2 0.1."""
    w = seeded_world(m, (0, 0, -G))
    b1 = box(m, w, (0, 0, 1), mass=2, dims=(0.4, 0.2, 0.2))
    b2 = box(m, w, (0.7, 0.1, 0.8), mass=1, dims=CUBE)
    j = m.dJointCreatePiston(w, None)
    if mode == "two":
        hinge_to_world(m, w, b1, (0, 1, 0), anchor=(0, 0, 1))
        m.dJointAttach(j, b1, b2)
    elif mode == "one":
        m.dJointAttach(j, b2, None)
    else:
        m.dJointAttach(j, None, b2)
    m.dJointSetPistonAnchor(j, *anchor)
    m.dJointSetPistonAxis(j, 1, 0, 0.2)
    if limits:
        for p, v in ((m.dParamLoStop, -0.1), (m.dParamHiStop, 0.15), (m.dParamLoStop2, -0.5),
                     (m.dParamHiStop2, 0.6), (m.dParamBounce, 0.3)):
            m.dJointSetPistonParam(j, p, v)
    if motor:
        for p, v in ((m.dParamVel, 0.5), (m.dParamFMax, 3), (m.dParamVel2, -1),
                     (m.dParamFMax2, 0.1)):
            m.dJointSetPistonParam(j, p, v)
    m.dBodySetAngularVel(b2, 0.4, 0.2, -0.3)
    m.dBodySetLinearVel(b2, 0.1, 0.3, 0.2)
    return w, j, b2


def run_hanging(m, mode, quick, steps=(50, 100, 200)) -> np.ndarray:
    if mode == "rev":
        # ODE's (NULL, body) piston with its anchor off the body's centre
        # diverges (its linear rows use the body-anchor vector with the wrong
        # sign, kept here); only its first steps are compared
        steps = (5, 10, 20)
    w, j, b = hanging(m, mode)
    return sample_run(m, w, quick, steps, lambda: np.r_[m.dBodyGetPosition(b), m.dBodyGetQuaternion(b),
                             m.dJointGetPistonPosition(j), m.dJointGetPistonPositionRate(j),
                             m.dJointGetPistonAngle(j), m.dJointGetPistonAngleRate(j)])


def limits_one_vs_two(m, side: str, lo: float, hi: float) -> np.ndarray:
    """Port of ODE's piston.cpp limit tests: a piston between two bodies at
    the origin, one held (a hinge with stops [0, 0] locks it like a fixed
    joint), against a piston on one body attached (b, NULL) ('left') or
    (NULL, b) ('right'); the free bodies get 4 N along x for the first of
    50 dWorldStep(1.0)."""
    m.dRandSetSeed(0)
    w = m.dWorldCreate()
    b1, b2, b = m.dBodyCreate(w), m.dBodyCreate(w), m.dBodyCreate(w)
    j12 = m.dJointCreatePiston(w, None)
    j = m.dJointCreatePiston(w, None)
    moving, held = (b1, b2) if side == "left" else (b2, b1)
    m.dBodyAddForce(b, 4, 0, 0)
    m.dBodyAddForce(moving, 4, 0, 0)
    m.dJointAttach(j12, b1, b2)
    lock_to_world(m, w, held)
    m.dJointAttach(j, b, None) if side == "left" else m.dJointAttach(j, None, b)
    for jj in (j12, j):
        m.dJointSetPistonParam(jj, m.dParamLoStop, lo)
        m.dJointSetPistonParam(jj, m.dParamHiStop, hi)
    for _ in range(50):
        m.dWorldStep(w, 1.0)
    return np.r_[m.dBodyGetPosition(moving), m.dBodyGetPosition(b),
                 m.dJointGetPistonPosition(j12), m.dJointGetPistonPosition(j)]


def pair(mode="two", p1=(1, 0, 0), p2=(3, 0, 0), anchor=(2, 0, 0), gravity=0.0):
    """joint.cpp's piston fixture: bodies at (1, 0, 0), (3, 0, 0), anchor (2, 0, 0)."""
    w = seeded_world(ode, (0, 0, gravity))
    b1 = box(ode, w, p1, dims=CUBE)
    b2 = box(ode, w, p2, dims=CUBE)
    j = ode.dJointCreatePiston(w, None)
    if mode == "two":
        ode.dJointAttach(j, b1, b2)
    elif mode == "one":
        ode.dJointAttach(j, b1, None)
    else:
        ode.dJointAttach(j, None, b1)
    ode.dJointSetPistonAnchor(j, *anchor)
    return w, j, b1, b2


# ----------------------------------------------------------------------------- basics
def test_defaults_and_params():
    w, j, b1, b2 = pair()
    assert ode.dJointGetType(j) == ode.dJointTypePiston
    assert np.array_equal(ode.dJointGetPistonAxis(j), [1, 0, 0])
    assert np.array_equal(ode.dJointGetPistonAnchor(j), [2, 0, 0])
    assert np.array_equal(ode.dJointGetPistonAnchor2(j), [2, 0, 0])
    assert ode.dJointGetPistonPosition(j) == 0.0 and ode.dJointGetPistonAngle(j) == 0.0
    # port of joint.cpp test_SetPistonParam: X the slide, X2 the rotation
    ode.dJointSetPistonParam(j, ode.dParamHiStop, 5.0)
    ode.dJointSetPistonParam(j, ode.dParamVel, 7.0)
    ode.dJointSetPistonParam(j, ode.dParamCFM2, 9.0)
    ode.dJointSetPistonParam(j, ode.dParamStopERP2, 11.0)
    assert j.d[piston.PRISMATIC_LIMOT + 1] == 5.0 and j.d[piston.PRISMATIC_LIMOT + 2] == 7.0
    assert j.d[piston.ROTOIDE_LIMOT + 5] == 9.0 and j.d[piston.ROTOIDE_LIMOT + 7] == 11.0
    for p, v in ((ode.dParamHiStop, 5.0), (ode.dParamVel, 7.0), (ode.dParamCFM2, 9.0),
                 (ode.dParamStopERP2, 11.0), (ode.dParamLoStop2, -math.inf)):
        assert ode.dJointGetPistonParam(j, p) == v


def test_errors():
    w, j, b1, b2 = pair()
    hinge = ode.dJointCreateHinge(w, None)
    with pytest.raises(ode.ODEError, match="dJointSetPistonAxis"):
        ode.dJointSetPistonAxis(hinge, 1, 0, 0)
    with pytest.raises(ode.ODEError, match="dJointGetPistonPosition"):
        ode.dJointGetPistonPosition("piston")
    with pytest.raises(ode.ODEError, match="dJointSetPistonParam"):
        ode.dJointSetPistonParam(j, ode.dParamFMax3, 1.0)
    with pytest.raises(ode.ODEError, match="dJointSetPistonParam"):
        ode.dJointSetPistonParam(j, ode.dParamFMax, math.nan)
    with pytest.raises(ode.ODEError, match="dJointSetPistonAxisDelta"):
        ode.dJointSetPistonAxisDelta(j, 1, 0, 0, math.nan, 0, 0)
    with pytest.raises(ode.ODEError, match="dJointSetPistonAxis"):
        ode.dJointSetPistonAxis(j, 0, 0, 0)
    with pytest.raises(ode.ODEError, match="dJointAddPistonForce"):
        ode.dJointAddPistonForce(j, math.inf)


@pytest.mark.parametrize("fmax,base", [(0, 4), (1, 5)])
def test_info1_rows(fmax, base):
    """Port of ODE's joint.cpp piston getInfo1 tests (then with the slide
    powered). The rotation stops are tested whenever one is finite."""
    w, j, b1, b2 = pair()
    ode.dJointSetPistonParam(j, ode.dParamFMax, fmax)
    ode.dJointSetPistonParam(j, ode.dParamLoStop2, -math.pi)
    ode.dJointSetPistonParam(j, ode.dParamHiStop2, math.pi)
    assert _rows(j) == (base, 4, 0, 0)
    ode.dJointSetPistonParam(j, ode.dParamLoStop, -10)
    ode.dJointSetPistonParam(j, ode.dParamHiStop, 10)
    ode.dBodySetPosition(b2, -100, 0, 0)
    assert _rows(j) == (5, 4, 2, 0)
    ode.dBodySetPosition(b2, 100, 0, 0)
    assert _rows(j) == (5, 4, 1, 0)
    ode.dBodySetPosition(b2, 3, 0, 0)
    assert _rows(j) == (base, 4, 0, 0)
    ode.dJointSetPistonParam(j, ode.dParamLoStop2, -math.pi / 4)
    ode.dJointSetPistonParam(j, ode.dParamHiStop2, math.pi / 4)
    ode.dBodySetRotation(b2, ode.dRFromAxisAndAngle(1, 0, 0, math.pi / 2))
    assert _rows(j) == (base + 1, 4, 0, 1)
    ode.dBodySetPosition(b1, 100, 0, 0)
    assert _rows(j) == (6, 4, 2, 1)
    ode.dBodySetPosition(b1, 1, 0, 0)
    ode.dBodySetRotation(b2, ode.dRFromAxisAndAngle(1, 0, 0, 0))
    assert _rows(j) == (base, 4, 0, 0)
    # a rotation range that excludes the current angle limits at once
    ode.dJointSetPistonParam(j, ode.dParamLoStop2, 1.0)
    ode.dJointSetPistonParam(j, ode.dParamHiStop2, 4.0)
    assert _rows(j) == (base + 1, 4, 0, 1)


# ----------------------------------------------------------------------------- conventions
# position after: the start, SetPistonAnchorOffset(0, 0, 0, 0.3, 0.1, 0),
# SetPistonAxisDelta(1, 0, 0, 0.3, 0.1, 0), SetPistonAnchor(0, 0, 0) then body 1
# to x = -0.7, then body 1 back and body 2 to x = 1.2 (ODE)
POSITION_ODE = {"two": (0.0, 0.3, -3.3, 0.3, -0.2), "one": (0.0, 0.3, -2.3, 0.3, 0.0),
                "rev": (0.0, 0.3, 2.3, -0.3, 0.0)}


@pytest.mark.parametrize("mode", ["two", "one", "rev"])
def test_position_signs_and_offsets(mode):
    w, j, b1, b2 = pair(mode, (-1, 0, 0), (1, 0, 0), (0, 0, 0))
    got = [ode.dJointGetPistonPosition(j)]
    ode.dJointSetPistonAnchorOffset(j, 0, 0, 0, 0.3, 0.1, 0)
    got.append(ode.dJointGetPistonPosition(j))
    ode.dJointSetPistonAxisDelta(j, 1, 0, 0, 0.3, 0.1, 0)
    got.append(ode.dJointGetPistonPosition(j))
    ode.dJointSetPistonAnchor(j, 0, 0, 0)
    ode.dBodySetPosition(b1, -0.7, 0, 0)
    got.append(ode.dJointGetPistonPosition(j))
    ode.dBodySetPosition(b1, -1, 0, 0)
    ode.dBodySetPosition(b2, 1.2, 0, 0)
    got.append(ode.dJointGetPistonPosition(j))
    assert got == pytest.approx(POSITION_ODE[mode], abs=1e-12)


@pytest.mark.parametrize("mode,which,expected", [
    ("two", 1, 0.3), ("two", 2, -0.3), ("one", 1, 0.3), ("rev", 1, -0.3),
])
def test_angle_signs_and_rates(mode, which, expected):
    """A +0.3 rad turn about the axis: body 1 reads +, body 2 (or the body of
    a (NULL, body) joint) reads - (ODE: same); the rates follow."""
    w, j, b1, b2 = pair(mode)
    b = b1 if which == 1 else b2
    ode.dBodySetRotation(b, ode.dRFromAxisAndAngle(1, 0, 0, 0.3))
    assert ode.dJointGetPistonAngle(j) == pytest.approx(expected, abs=1e-12)
    ode.dBodySetAngularVel(b, 2.0, 5.0, 7.0)
    assert ode.dJointGetPistonAngleRate(j) == pytest.approx(expected / 0.15, abs=1e-12)


def test_position_rate():
    """Port of joint.cpp GetPistonPositionRate tests: only the relative
    linear velocity along the axis counts."""
    w, j, b1, b2 = pair(p1=(3, 0, 0), p2=(1, 0, 0))
    for v in ((0, 3.33, 0), (1.11, 3.33, 0), (1.11, 3.33, 2.22)):
        ode.dBodySetLinearVel(b1, *v)
        ode.dBodySetLinearVel(b2, *v)
        assert ode.dJointGetPistonPositionRate(j) == 0.0
    ode.dBodySetLinearVel(b1, 0, 0, 0)
    ode.dBodySetLinearVel(b2, 0, 0, 0)
    for b, sign in ((b1, 1), (b2, -1)):
        for v, rate in (((3.33, 0, 0), 3.33 * sign), ((0, 3.33, 0), 0.0), ((0, 0, 3.33), 0.0)):
            ode.dBodySetLinearVel(b, *v)
            assert ode.dJointGetPistonPositionRate(j) == pytest.approx(rate, abs=1e-15)
        ode.dBodySetLinearVel(b, 0, 0, 0)
        for wv in ((1.22, 0, 0), (0, 2.33, 0), (0, 0, 5.55)):
            ode.dBodySetAngularVel(b, *wv)
            assert ode.dJointGetPistonPositionRate(j) == 0.0
        ode.dBodySetAngularVel(b, 0, 0, 0)
    w, j, b1, b2 = pair("rev")
    ode.dBodySetLinearVel(b1, 2.0, 0, 0)
    assert ode.dJointGetPistonPositionRate(j) == -2.0


# ----------------------------------------------------------------------------- forces
def test_add_piston_force_two_bodies():
    """Equal and opposite forces along the axis, each acting at the anchor:
    no net force and no net torque about any point."""
    w, j, b1, b2 = pair(p1=(1, 0.5, 0), p2=(3, 0, 0.25))
    ode.dJointSetPistonAxis(j, 1, 0, 0)
    ode.dJointAddPistonForce(j, 2.0)
    f1, f2 = ode.dBodyGetForce(b1), ode.dBodyGetForce(b2)
    t1, t2 = ode.dBodyGetTorque(b1), ode.dBodyGetTorque(b2)
    assert np.array_equal(f1, [2, 0, 0]) and np.array_equal(f2, [-2, 0, 0])
    # torque of each force about its body's centre, applied at the anchor
    assert np.allclose(t1, np.cross([1, -0.5, 0], [2, 0, 0]))
    assert np.allclose(t2, np.cross([-1, 0, -0.25], [-2, 0, 0]))
    net = (np.cross([1, 0.5, 0], f1) + t1) + (np.cross([3, 0, 0.25], f2) + t2)
    assert np.allclose(net, 0, atol=1e-15)


def test_add_piston_force_one_body():
    """One body: the force at its centre; attached (NULL, body) the body is
    body 2 and gets the opposite force (ODE 0.16.2 applies nothing there)."""
    w, j, b1, b2 = pair("one")
    ode.dJointAddPistonForce(j, 2.0)
    assert np.array_equal(ode.dBodyGetForce(b1), [2, 0, 0])
    assert np.array_equal(ode.dBodyGetTorque(b1), [0, 0, 0])
    w, j, b1, b2 = pair("rev")
    ode.dJointAddPistonForce(j, 2.0)
    assert np.array_equal(ode.dBodyGetForce(b1), [-2, 0, 0])


# ----------------------------------------------------------------------------- dynamics
def test_motors_reach_vel_at_fmax():
    """One body, no gravity: the slide motor accelerates it at FMax/m and the
    rotation motor at FMax2/I about the same axis, until each reaches Vel."""
    w, j, b1, b2 = pair("one")
    ode.dJointSetPistonParam(j, ode.dParamVel, 0.3)
    ode.dJointSetPistonParam(j, ode.dParamFMax, 2.0)
    ode.dJointSetPistonParam(j, ode.dParamVel2, -2.0)
    ode.dJointSetPistonParam(j, ode.dParamFMax2, 0.1)
    inertia = (0.2 ** 2 + 0.2 ** 2) / 12
    for n in range(1, 14):
        ode.dWorldStep(w, H)
        assert ode.dJointGetPistonPositionRate(j) == pytest.approx(min(n * H * 2.0, 0.3),
                                                                   rel=1e-9)
        assert ode.dJointGetPistonAngleRate(j) == pytest.approx(-n * H * 0.1 / inertia,
                                                                rel=1e-9)
    for _ in range(20):
        ode.dWorldStep(w, H)
    assert ode.dJointGetPistonPositionRate(j) == pytest.approx(0.3, rel=1e-9)
    assert ode.dJointGetPistonAngleRate(j) == pytest.approx(-2.0, rel=1e-9)


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
    """Gravity, stops with bounce and both motors; samples at steps 50, 100,
    200 (5, 10, 20 for 'rev'): position, quaternion, piston position and
    rate, angle and rate."""
    got = run_hanging(ode, mode, quick)
    assert np.allclose(got, HANGING_ODE[mode, quick], rtol=0, atol=1e-9)


HANGING_ODE = {}
HANGING_ODE["two", False] = np.array([
    [0.15495591278640258, 0.13485871708286948, 0.19586083865003726, 0.8287767535281214,
     0.11843867607333912, 0.5447528994474636, -0.04843192505944682, -0.10230179067937524,
     1.1388322641446051, -0.2566205788465954, 1.5642692574270884],
    [-0.7498627262267735, 0.07694960795103628, 0.6739041465685846, 0.30888454211729843,
     -0.04126022133650235, 0.9473612815557589, 0.07344750496293034, -0.10026553986402165,
     0.23209830173844173, 0.16868662779054588, -0.8123552093788259],
    [0.7374728476056196, 0.08519175080412666, 0.6679920072052086, 0.9937286278706019,
     -0.05375410356381895, 0.09790892416054156, -0.005268118277556272, -0.08996415517321152,
     -0.26696523504848524, 0.1080758610902075, 0.2005478002790459],
])
HANGING_ODE["two", True] = np.array([
    [0.15496362726343815, 0.1348393072492743, 0.19585490079668824, 0.8287987139426068,
     0.11834229726254288, 0.5447449931369928, -0.04838062523244791, -0.10230247964769933,
     1.1389117833220486, -0.25639576055393526, 1.5622865128699892],
    [-0.7498588492455208, 0.07694184515886386, 0.6738700312688615, 0.3088985663739191,
     -0.04121951031871135, 0.9473699205733652, 0.0732998039154193, -0.10027402538044108,
     0.23213638370792963, 0.16839641818566697, -0.8116667200440173],
    [0.7376924322232769, 0.08514060437550969, 0.6674967878935788, 0.9936874989041748,
     -0.05390583343591539, 0.09824218854554154, -0.005271435566080694, -0.09040679115532067,
     -0.26755265966030134, 0.10837241513701379, 0.2045822781924192],
])
HANGING_ODE["one", False] = np.array([
    [0.8387575769798993, 0.08403013543903586, 0.8286675097471458, 0.9983020971828628,
     -0.057117648157677524, 7.598128958000359e-12, -0.011423529631154455, 0.14168515980990812,
     -0.07467294332391577, -0.11656357969110542, -0.966412940526629],
    [0.8470897028089978, 0.10244341643535607, 0.8294134457187006, 0.999960416778034,
     0.008724681893015493, 7.786812391419226e-12, 0.0017449363788263298, 0.15000177146521082,
     -4.428649591708489e-05, 0.017795164086300552, 0.763864311124082],
    [0.8470344995983339, 0.10864376251561855, 0.8296804290638553, 0.9995038623761644,
     0.030884852758696082, 7.691295802406559e-12, 0.006176970552230197, 0.1500000000053718,
     1.803278324732059e-13, 0.06300340655475178, -0.02635806600223574],
])
HANGING_ODE["one", True] = np.array([
    [0.8388928796219121, 0.08402636765017725, 0.8280879718994981, 0.998311962094006,
     -0.056943334485419966, 0.0005984982147270931, -0.011415988681873185, 0.14186917375675115,
     -0.07444346937565834, -0.11622437031480162, -0.9599852295859228],
    [0.8472848090738742, 0.10234179391574248, 0.828804122539131, 0.9999637642713151,
     0.008350153751621488, -7.945143504515006e-05, 0.001654921187213311, 0.15005163343388603,
     0.010718861167548117, 0.01702608528704186, 0.7654509486847041],
    [0.847143176607785, 0.10861697067513972, 0.8290702999696616, 0.9995116455652231,
     0.03064133519141721, 0.0006599148094906292, 0.006094544251327789, 0.15016825837487127,
     -0.0027651468091556912, 0.06250722763306271, -0.01047134997603143],
])
HANGING_ODE["rev", False] = np.array([
    [0.7795736551836375, 0.11296621357358215, 0.3994711362082545, 0.9996996427720398,
     -0.024031714651870897, 5.7487803203085815e-11, -0.004806342928593578, 0.0005217841481860996,
     0.10891366892874244, 0.049020180734775806, 0.5963745057878094],
    [0.9661650095297593, 0.14068739934396163, -0.598913870147489, 0.9994627211393954,
     -0.032139555258777514, 1.1927257656702516e-10, -0.006427911045048851, 0.013353316341440269,
     0.3551086304327127, 0.06556383020708276, 0.21039646207547194],
    [2.6472298834563297, 0.3721996646981774, -9.251945283931448, 0.9993166583500681,
     -0.036244579761519194, 5.568875852333033e-10, -0.007248915916460232, 0.06193265327656605,
     0.49999997365805626, 0.07394157099143164, 0.030846440399387033],
])
HANGING_ODE["rev", True] = np.array([
    [0.7795490343066329, 0.11296627371535449, 0.3995391549855276, 0.9996995828609558,
     -0.02403447355563519, 6.740481925890944e-05, -0.004804535890668871, 0.0004589845065062076,
     0.10774375068916697, 0.049025069667851036, 0.5963335785047743],
    [0.9660254658061934, 0.14068689738668338, -0.5986696604071257, 0.999462909856338,
     -0.03213473514490885, 4.594132540474825e-05, -0.0064225001411139715, 0.013298231314991193,
     0.3552637617314929, 0.06555231365473266, 0.20972522009465286],
    [2.642421209500237, 0.3718268087617775, -9.237819805630036, 0.9990119932703415,
     -0.04338567236726024, -0.003591513138789011, -0.00893430291817143, 0.13851320470404227,
     1.7787181785817054, 0.08891206736633475, -1.092313313828768],
])
