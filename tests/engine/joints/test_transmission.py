"""Transmission joint: parallel-axes gears, bevel gears and chain drive.

Each scene has two wheels on hinges to the world; wheel 1 is driven by
its hinge motor (Vel 2, then -1 from step 100) and wheel 2 follows through
the transmission. Numbers marked "ODE" come from the same set-ups run on
the real ODE 0.16.2 (Debian libode8, double precision), hard-coded here.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from engine import ode
from engine.ode.joints import transmission
from tests.engine.joints.setup_helpers import (
    H,
    hinge_to_world,
    info1_counts,
    kernel_params,
    seeded_world,
    step_fn,
)

PAR, BEVEL, CHAIN = (ode.dTransmissionParallelAxes, ode.dTransmissionIntersectingAxes,
                     ode.dTransmissionChainDrive)


def _wheel(w, pos, axis, r=0.3):
    b = ode.dBodyCreate(w)
    ode.dBodySetPosition(b, *pos)
    M = ode.dMass()
    ode.dMassSetCylinderTotal(M, 1.0, 3, r, 0.05)
    ode.dBodySetMass(b, M)
    return b, hinge_to_world(ode, w, b, axis, anchor=pos)


def _setup(mode, backlash=0.0):
    w = seeded_world()
    if mode == BEVEL:
        b1, h1 = _wheel(w, (0, 0, 1), (0, 0, 1))
        b2, h2 = _wheel(w, (0.5, 0, 1.5), (1, 0, 0))
    else:
        b1, h1 = _wheel(w, (0, 0, 1), (0, 0, 1))
        b2, h2 = _wheel(w, (0.9, 0.0, 1), (0, 0, 1))
    j = ode.dJointCreateTransmission(w, None)
    ode.dJointAttach(j, b1, b2)
    ode.dJointSetTransmissionMode(j, mode)
    if mode == BEVEL:
        ode.dJointSetTransmissionAxis1(j, 0, 0, 1)
        ode.dJointSetTransmissionAxis2(j, 1, 0, 0)
        ode.dJointSetTransmissionAnchor1(j, 0, 0, 1)
        ode.dJointSetTransmissionAnchor2(j, 0.5, 0, 1.5)
    else:
        ode.dJointSetTransmissionAxis(j, 0, 0, 1)
        ode.dJointSetTransmissionAnchor1(j, 0, 0, 1)
        ode.dJointSetTransmissionAnchor2(j, 0.9, 0, 1)
    if mode == PAR:
        ode.dJointSetTransmissionRatio(j, 2.0)
    if mode == CHAIN:
        ode.dJointSetTransmissionRadius1(j, 0.2)
        ode.dJointSetTransmissionRadius2(j, 0.4)
    ode.dJointSetTransmissionBacklash(j, backlash)
    ode.dJointSetHingeParam(h1, ode.dParamVel, 2.0)
    ode.dJointSetHingeParam(h1, ode.dParamFMax, 1.0)
    return w, j, h1, h2


def _run(quick, mode, backlash=0.0, n=200):
    """Per step: rates of wheels 1, 2 (rad/s), angles 1, 2, contact points."""
    w, j, h1, h2 = _setup(mode, backlash)
    out = []
    for i in range(n):
        if i == n // 2:
            ode.dJointSetHingeParam(h1, ode.dParamVel, -1.0)
        step_fn(quick)(w, H)
        out.append([ode.dJointGetHingeAngleRate(h1), ode.dJointGetHingeAngleRate(h2),
                    ode.dJointGetTransmissionAngle1(j), ode.dJointGetTransmissionAngle2(j),
                    *ode.dJointGetTransmissionContactPoint1(j),
                    *ode.dJointGetTransmissionContactPoint2(j)])
    return np.array(out), j


def test_row_counts():
    w, j, _, _ = _setup(PAR)
    wp = kernel_params(max_vel=0.0)
    assert info1_counts(transmission, j, wp) == (1, 1)
    ode.dJointSetTransmissionBacklash(j, 0.01)
    # with backlash the row is one-sided: bounded
    assert info1_counts(transmission, j, wp) == (1, 0)


def test_defaults():
    w = seeded_world()
    ode.dWorldSetERP(w, 0.3)
    j = ode.dJointCreateTransmission(w, None)
    assert ode.dJointGetType(j) == ode.dJointTypeTransmission
    assert ode.dJointGetTransmissionMode(j) == PAR
    assert ode.dJointGetTransmissionRatio(j) == 1.0
    assert ode.dJointGetTransmissionBacklash(j) == 0.0
    assert ode.dJointGetTransmissionParam(j, ode.dParamERP) == 0.3
    assert ode.dJointGetTransmissionRadius1(j) == 0.0
    assert np.all(ode.dJointGetTransmissionContactPoint2(j) == 0)
    b1, b2 = ode.dBodyCreate(w), ode.dBodyCreate(w)
    ode.dJointAttach(j, b1, b2)
    assert np.allclose(ode.dJointGetTransmissionAxis1(j), [1, 0, 0])
    assert np.allclose(ode.dJointGetTransmissionAxis(j), [1, 0, 0])


@pytest.mark.parametrize("quick", [False, True])
def test_parallel_gears_turn_at_the_ratio(quick):
    traj, j = _run(quick, PAR)
    # ratio 2 splits the 0.9 m between the centres into radii 0.6 and 0.3
    assert ode.dJointGetTransmissionRadius1(j) == pytest.approx(0.6, abs=1e-12)
    assert ode.dJointGetTransmissionRadius2(j) == pytest.approx(0.3, abs=1e-12)
    assert ode.dJointGetTransmissionRatio(j) == pytest.approx(2.0, abs=1e-12)
    # gears: opposite sense, wheel 2 twice as fast, both when driving and reversing
    for k in (99, 199):
        assert traj[k, 1] == pytest.approx(-2 * traj[k, 0], rel=1e-3)
    assert traj[99, 0] == pytest.approx(2.0, abs=1e-9)
    assert np.allclose(traj[:, 4:7], [0.6, 0, 1], atol=1e-6)      # contact on the baseline
    # ODE
    ref = {99: [2, -4.00040003949, -1.53994360971, 3.07986721745, 0.6, 0, 1, 0.6, 0, 1],
           199: [-1, 2.00004998502, -1.56757699107, 3.13515648139, 0.6, 0, 1, 0.6, 0, 1]}
    for k, row in ref.items():
        assert np.allclose(traj[k], row, atol=1e-6 if quick else 1e-9)


@pytest.mark.parametrize("quick", [False, True])
def test_bevel_gears_on_perpendicular_axes(quick):
    traj, j = _run(quick, BEVEL)
    assert ode.dJointGetTransmissionRadius1(j) == pytest.approx(0.5, abs=1e-12)
    assert ode.dJointGetTransmissionRadius2(j) == pytest.approx(0.5, abs=1e-12)
    assert np.allclose(ode.dJointGetTransmissionAxis2(j), [1, 0, 0])
    for k in (99, 199):
        assert traj[k, 1] == pytest.approx(-traj[k, 0], rel=1e-6)
    ref = {99: [2, -1.99999999666, -1.88764143912, 1.68764143928, 0.5, 0, 1, 0.5, 0, 1],
           199: [-1, 0.999999991341, -1.11400259114, 1.21400259071, 0.5, 0, 1, 0.5, 0, 1]}
    for k, row in ref.items():
        assert np.allclose(traj[k], row, atol=1e-9)


@pytest.mark.parametrize("quick", [False, True])
def test_chain_drive_turns_at_the_radii_ratio(quick):
    traj, j = _run(quick, CHAIN)
    assert ode.dJointGetTransmissionRatio(j) == pytest.approx(0.5, abs=1e-12)
    # a chain: same sense, speed scaled by r1 / r2 = 0.5
    for k in (99, 199):
        assert traj[k, 1] == pytest.approx(0.5 * traj[k, 0], rel=1e-4)
    # the loaded strand flips to the other side when the drive reverses
    assert traj[99, 5] > 0 > traj[199, 5]
    ref = {99: [2, 0.99997500125, -1.8772727173, -0.938637608589, -0.0444444444444,
                0.194999208609, 1, 0.811111111111, 0.389998417217, 1],
           199: [-1, -0.499996875039, -1.14549882533, -0.572749256418, -0.0444444444444,
                 -0.194999208609, 1, 0.811111111111, -0.389998417217, 1]}
    for k, row in ref.items():
        if quick and k != 199:
            continue
        assert np.allclose(traj[k], row, atol=1e-9)


@pytest.mark.parametrize("mode, ref", [
    (PAR, {5: [0.195556651252, -0.568888341041, -0.0235554785542, 0.00488887183717, 0.6, 0,
               1, 0.6, 0, 1],
           105: [0.666666666667, -4.00040003963, -1.63994223405, 3.31319343761, 0.6, 0, 1,
                 0.6, 0, 1],
           199: [-1, 2.00004998554, -1.55424212513, 3.14182008286, 0.6, 0, 1, 0.6, 0, 1]}),
    (BEVEL, {5: [1.33333333333, 0, -0.033333127575, 0, 0.5, 0, 1, 0.5, 0, 1],
             105: [0.853819776347, -2.3708722126, -1.99401038456, 1.8146119695, 0.5, 0, 1,
                   0.5, 0, 1],
             199: [-1, 1.00579467017, -1.12156240814, 1.23733241255, 0.5, 0, 1, 0.5, 0, 1]}),
    (CHAIN, {5: [1.33333333333, 0, -0.033333127575, 0, -0.0444444444444, -0.194999208609,
                 1, 0.811111111111, -0.389998417217, 1],
             105: [0.954542737869, 0.474298596478, -1.97937228945, -1.01483478336,
                   -0.0444444444485, 0.194999208608, 1, 0.811111111116, 0.389998417219, 1],
             199: [-1, -0.500254958303, -1.15652463551, -0.603060857915, -0.0444444444444,
                   0.194999208609, 1, 0.811111111111, 0.389998417217, 1]}),
])
def test_backlash_matches_ode(mode, ref):
    """With 1 cm of backlash wheel 2 idles until the gap is crossed."""
    for quick in (False, True):
        traj, _ = _run(quick, mode, backlash=0.01)
        assert traj[0, 1] == 0.0
        for k, row in ref.items():
            if quick and k != 199:
                continue
            assert np.allclose(traj[k], row, atol=1e-6 if quick else 1e-9), (quick, k)


def test_errors():
    w, j, h1, _ = _setup(PAR)
    b = ode.dBodyCreate(w)
    t = ode.dJointCreateTransmission(w, None)
    bad = [
        (ode.dJointAttach, (t, b, None)),                       # needs two bodies
        (ode.dJointAttach, (t, None, b)),
        (ode.dJointSetTransmissionMode, (j, 3)),
        (ode.dJointSetTransmissionAxis1, (j, 0, 0, 1)),          # parallel mode
        (ode.dJointSetTransmissionRadius1, (j, 0.1)),
        (ode.dJointSetTransmissionRatio, (j, 0.0)),
        (ode.dJointSetTransmissionRatio, (j, math.nan)),
        (ode.dJointSetTransmissionAxis, (j, 0, 0, 0)),
        (ode.dJointSetTransmissionAnchor1, (j, math.inf, 0, 0)),
        (ode.dJointSetTransmissionBacklash, (j, math.nan)),
        (ode.dJointSetTransmissionParam, (j, ode.dParamVel, 1.0)),
        (ode.dJointGetTransmissionParam, (j, ode.dParamERP2)),
        (ode.dJointSetTransmissionParam, (j, ode.dParamCFM, math.nan)),
        (ode.dJointGetTransmissionRatio, (h1,)),
        (ode.dJointSetTransmissionMode, (h1, PAR)),
    ]
    for fn, args in bad:
        with pytest.raises(ode.ODEError):
            fn(*args)
    ode.dJointSetTransmissionMode(j, BEVEL)
    for fn, args in ((ode.dJointSetTransmissionAxis, (j, 0, 0, 1)),
                     (ode.dJointGetTransmissionAxis, (j,)),
                     (ode.dJointSetTransmissionRatio, (j, 2.0))):
        with pytest.raises(ode.ODEError):
            fn(*args)
    ode.dJointSetTransmissionMode(j, CHAIN)
    ode.dJointSetTransmissionRadius2(j, 0.25)
    assert ode.dJointGetTransmissionRadius2(j) == 0.25
    with pytest.raises(ode.ODEError):
        ode.dJointSetTransmissionAxis2(j, 0, 1, 0)
