"""Double ball (distance) joint.

Numbers marked "ODE" come from the same set-ups run on the real ODE 0.16.2
(Debian libode8, double precision), hard-coded here; ODE's unit test
tests/joints/dball.cpp is ported as facts.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from engine import ode
from engine.ode.joints import dball
from tests.engine.joints.setup_helpers import (
    G,
    H,
    box,
    kernel_rows,
    seeded_world,
    step_fn,
)


def test_one_unbounded_row_along_the_anchor_line():
    w = seeded_world()
    b1 = box(ode, w, (0, 0, 0))
    b2 = box(ode, w, (3, 4, 0))
    j = ode.dJointCreateDBall(w, None)
    ode.dJointAttach(j, b1, b2)
    ode.dJointSetDBallDistance(j, 4.0)
    ode.dJointSetDBallParam(j, ode.dParamCFM, 1e-5)
    (m, nub), (J, c, cfm, lo, hi, _) = kernel_rows(dball, j)
    assert (m, nub) == (1, 1)
    u = np.array([-0.6, -0.8, 0])      # from anchor 2 to anchor 1
    assert np.allclose(J[0], [*u, 0, 0, 0, *(-u), 0, 0, 0])
    assert c[0] == pytest.approx(1 / H * 0.2 * (4.0 - 5.0))
    assert cfm[0] == 1e-5 and lo[0] == -math.inf and hi[0] == math.inf


def test_coincident_anchors_use_relative_velocity_then_x():
    w = seeded_world()
    b1 = box(ode, w, (0, 0, 0))
    b2 = box(ode, w, (0, 0, 0))
    j = ode.dJointCreateDBall(w, None)
    ode.dJointAttach(j, b1, b2)
    assert ode.dJointGetDBallDistance(j) == 0.0
    assert np.allclose(kernel_rows(dball, j)[1][0][0, :3], [1, 0, 0])
    ode.dBodySetLinearVel(b2, 0, 0, 2.0)
    assert np.allclose(kernel_rows(dball, j)[1][0][0, :3], [0, 0, -1])


def test_ode_unit_target_distance():
    """dball.cpp: deduced at attach, unchanged when a body moves, overridden."""
    w = seeded_world()
    b1 = ode.dBodyCreate(w)
    b2 = ode.dBodyCreate(w)
    j = ode.dJointCreateDBall(w, None)
    ode.dJointAttach(j, b1, b2)
    assert ode.dJointGetDBallDistance(j) == 0.0
    ode.dBodySetPosition(b1, -1, -2, -3)
    ode.dBodySetPosition(b2, 3, 5, 7)
    ode.dJointAttach(j, b1, b2)
    assert ode.dJointGetDBallDistance(j) == pytest.approx(math.sqrt(165.0), abs=1e-12)
    ode.dBodySetPosition(b1, 2, 3, 4)
    assert ode.dJointGetDBallDistance(j) == pytest.approx(math.sqrt(165.0), abs=1e-12)
    ode.dJointSetDBallDistance(j, 6.0)
    assert ode.dJointGetDBallDistance(j) == 6.0


def _pair(quick):
    """Body 1 on a ball joint to the world, body 2 hanging from it by a dball."""
    w = seeded_world(gravity=(0, 0, -G))
    b1 = box(ode, w, (0, 0, 2))
    b2 = box(ode, w, (1, 0.5, 2.2), mass=0.5)
    j0 = ode.dJointCreateBall(w, None)
    ode.dJointAttach(j0, b1, None)
    ode.dJointSetBallAnchor(j0, 0, 0, 2)
    j = ode.dJointCreateDBall(w, None)
    ode.dJointAttach(j, b1, b2)
    ode.dJointSetDBallAnchor1(j, 0.1, 0, 2)
    ode.dJointSetDBallAnchor2(j, 0.9, 0.5, 2.2)
    ode.dBodySetAngularVel(b1, 0.3, -0.2, 1.0)
    traj = []
    for _ in range(200):
        step_fn(quick)(w, H)
        traj.append(np.concatenate([ode.dBodyGetPosition(b1), ode.dBodyGetPosition(b2),
                                    ode.dJointGetDBallAnchor1(j),
                                    ode.dJointGetDBallAnchor2(j)]))
    return np.array(traj), j


@pytest.mark.parametrize("quick", [False, True])
def test_distance_kept_under_gravity_and_matches_ode(quick):
    traj, j = _pair(quick)
    target = ode.dJointGetDBallDistance(j)
    assert target == pytest.approx(0.964365076099, abs=1e-11)         # ODE
    gap = np.linalg.norm(traj[:, 6:9] - traj[:, 9:12], axis=1)
    assert np.abs(gap - target).max() < 0.015        # ODE: 0.0116 at the fastest swing
    # body 2 really swings (it falls 1.25 m) while keeping the distance
    assert traj[:, 5].min() < 1.0
    ref = {99: [-3.1971279011e-11, -1.78802190696e-11, 1.99999999993, -0.982738644704,
                -0.490962378269, 1.61215140977, -0.0930903893441, -0.0285845683339,
                1.97726012588, -0.89853364577, -0.458307008057, 1.65508327382],
           199: [-5.61116607727e-12, -6.85681607751e-12, 1.99999999989, 0.00987731861159,
                 -0.0340411125335, 0.9457986734, 0.0393072363713, 0.0268663392716,
                 1.9120617205, 0.108820184819, -0.0485414443111, 0.94602139521]}
    for k, row in ref.items():
        if quick and k != 199:
            continue
        assert np.allclose(traj[k], row, atol=1e-9)


def _one_body(quick, reverse):
    w = seeded_world(gravity=(0, 0, -G))
    b = box(ode, w, (0.5, 0.2, 1.0))
    j = ode.dJointCreateDBall(w, None)
    ode.dJointAttach(j, *((None, b) if reverse else (b, None)))
    d0 = ode.dJointGetDBallDistance(j)
    ode.dJointSetDBallAnchor1(j, 0.6, 0.2, 1.1)
    ode.dJointSetDBallAnchor2(j, 0.0, 0.0, 2.0)
    ode.dJointSetDBallParam(j, ode.dParamERP, 0.5)
    ode.dJointSetDBallParam(j, ode.dParamCFM, 1e-6)
    traj = []
    for _ in range(200):
        step_fn(quick)(w, H)
        traj.append(np.concatenate([ode.dBodyGetPosition(b), ode.dJointGetDBallAnchor1(j),
                                    ode.dJointGetDBallAnchor2(j)]))
    return np.array(traj), d0, ode.dJointGetDBallDistance(j)


@pytest.mark.parametrize("quick", [False, True])
@pytest.mark.parametrize("reverse", [False, True])
def test_one_body_both_attachments_match_ode(quick, reverse):
    """With no second body the anchor on the missing side is a world point;
    attached (NULL, body) that is anchor 1."""
    traj, d0, dist = _one_body(quick, reverse)
    # attach measured body origin to world origin
    assert d0 == pytest.approx(1.13578166916, abs=1e-10)
    assert dist == pytest.approx(1.1, abs=1e-12)
    fixed = slice(3, 6) if reverse else slice(6, 9)
    assert np.all(traj[:, fixed] == (np.array([0.6, 0.2, 1.1]) if reverse else [0, 0, 2]))
    ref = {(False, 99): [-0.462864820576, -0.205372630995, 0.960177475387, -0.322965847219,
                         -0.185217639875, 0.96487360001, 0, 0, 2],
           (False, 199): [0.433196912078, 0.19542290175, 0.8568380271, 0.355029306012,
                          0.189491855252, 0.974543796073, 0, 0, 2],
           (True, 99): [0.62642532666, 0.197639260308, -0.706942974571, 0.6, 0.2, 1.1,
                        0.0194794712282, 0.484439698221, 0.209224170325],
           (True, 199): [0.78118000668, 0.223347814597, -1.02637383965, 0.6, 0.2, 1.1,
                         1.01836007244, 0.133101689372, 0.0806949266374]}
    for (rev, k), row in ref.items():
        if rev == reverse and not (quick and k != 199):
            assert np.allclose(traj[k], row, atol=1e-8)


def test_anchors_are_swapped_for_a_reversed_attachment():
    w = seeded_world()
    b = box(ode, w, (1, 0, 0))
    j = ode.dJointCreateDBall(w, None)
    ode.dJointAttach(j, None, b)
    ode.dJointSetDBallAnchor1(j, 5, 5, 5)        # on the world
    ode.dJointSetDBallAnchor2(j, 1, 0, 1)        # on the body
    ode.dBodySetPosition(b, 2, 0, 0)
    assert np.allclose(ode.dJointGetDBallAnchor1(j), [5, 5, 5])
    assert np.allclose(ode.dJointGetDBallAnchor2(j), [2, 0, 1])
    assert ode.dJointGetDBallDistance(j) == pytest.approx(math.sqrt(16 + 25 + 16))


def test_params_and_errors():
    w = seeded_world(gravity=(0, 0, -G))
    ode.dWorldSetERP(w, 0.4)
    ode.dWorldSetCFM(w, 1e-7)
    j = ode.dJointCreateDBall(w, None)
    assert ode.dJointGetType(j) == ode.dJointTypeDBall
    assert ode.dJointGetDBallParam(j, ode.dParamERP) == 0.4
    assert ode.dJointGetDBallParam(j, ode.dParamCFM) == 1e-7
    ode.dJointSetDBallParam(j, ode.dParamERP, 0.9)
    assert ode.dJointGetDBallParam(j, ode.dParamERP) == 0.9
    hinge = ode.dJointCreateHinge(w, None)
    dh = ode.dJointCreateDHinge(w, None)
    bad = [
        (ode.dJointSetDBallParam, (j, ode.dParamVel, 1.0)),
        (ode.dJointGetDBallParam, (j, ode.dParamERP2)),
        (ode.dJointSetDBallParam, (j, ode.dParamCFM, math.nan)),
        (ode.dJointSetDBallDistance, (j, -1.0)),
        (ode.dJointSetDBallDistance, (j, math.nan)),
        (ode.dJointSetDBallAnchor1, (j, 0, math.inf, 0)),
        (ode.dJointSetDBallAnchor2, (j, math.nan, 0, 0)),
        (ode.dJointGetDBallDistance, (hinge,)),
        (ode.dJointGetDBallAnchor1, (dh,)),
        (ode.dJointSetDBallDistance, (None, 1.0)),
    ]
    for fn, args in bad:
        with pytest.raises(ode.ODEError):
            fn(*args)
