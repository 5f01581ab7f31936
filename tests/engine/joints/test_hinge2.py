"""Hinge-2 joint: rows, angle and rate conventions, suspension, motors and
limits, the Webots suspension axis, and agreement with the real ODE 0.16.2.

Reference numbers marked "ODE" were obtained by running the same scene
builders on Debian's libode8 (ODE 0.16.2, double precision) and are
hard-coded here.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from engine import ode
from engine.ode.joints import hinge2
from tests.engine.joints.setup_helpers import (
    CUBE,
    G,
    H,
    box,
    hinge_to_world,
    info1_limits,
    sample_run,
    seeded_world,
)


def _rows(j) -> tuple[int, ...]:
    """(m, nub, axis-1 limit state) from the compiled info1 of joint j."""
    return info1_limits(hinge2, j, hinge2.LIMOT1)


def car_wheel(m, motor=True, spin=True, susp_axis=None):
    """A chassis pinned to the world by a vertical hinge at its centre (so it
    can only yaw; no gravity on it) and a wheel on a hinge-2: steering
    axis 1 = z with suspension ERP 0.4 / CFM 0.01 and stops ±0.3 rad, wheel
    axis 2 = y with a motor (Vel2 2, FMax2 0.5)."""
    w = seeded_world(m, (0, 0, -G))
    ch = box(m, w, (0, 0, 1), mass=10, dims=(1, 0.6, 0.2))
    m.dBodySetGravityMode(ch, 0)
    hinge_to_world(m, w, ch, (0, 0, 1), anchor=(0, 0, 1))
    wh = box(m, w, (0.3, 0.5, 0.9), mass=1, dims=CUBE)
    j = m.dJointCreateHinge2(w, None)
    m.dJointAttach(j, ch, wh)
    m.dJointSetHinge2Anchor(j, 0.3, 0.5, 0.9)
    m.dJointSetHinge2Axis1(j, 0, 0, 1)
    m.dJointSetHinge2Axis2(j, 0, 1, 0)
    m.dJointSetHinge2Param(j, m.dParamSuspensionERP, 0.4)
    m.dJointSetHinge2Param(j, m.dParamSuspensionCFM, 0.01)
    m.dJointSetHinge2Param(j, m.dParamLoStop, -0.3)
    m.dJointSetHinge2Param(j, m.dParamHiStop, 0.3)
    if susp_axis is not None:
        m.dJointSetHinge2SuspensionAxis(j, *susp_axis)
    if motor:
        m.dJointSetHinge2Param(j, m.dParamVel2, 2.0)
        m.dJointSetHinge2Param(j, m.dParamFMax2, 0.5)
    if spin:
        m.dBodySetAngularVel(wh, 0.3, 1.0, 0.5)
    return w, j, ch, wh


def record(m, j, wh) -> np.ndarray:
    return np.r_[m.dBodyGetPosition(wh), m.dBodyGetQuaternion(wh), m.dJointGetHinge2Angle1(j),
                 m.dJointGetHinge2Angle2(j), m.dJointGetHinge2Angle1Rate(j),
                 m.dJointGetHinge2Angle2Rate(j)]


def run_car_wheel(m, quick: bool, steps=(50, 150, 300)) -> np.ndarray:
    w, j, ch, wh = car_wheel(m)
    return sample_run(m, w, quick, steps, lambda: record(m, j, wh))


def two_bodies(gravity=0.0):
    w = seeded_world(ode, (0, 0, gravity))
    b1 = box(ode, w, (0, 0, 0), dims=CUBE)
    b2 = box(ode, w, (0, 1, 0), dims=CUBE)
    j = ode.dJointCreateHinge2(w, None)
    ode.dJointAttach(j, b1, b2)
    ode.dJointSetHinge2Anchor(j, 0, 0.5, 0)
    return w, j, b1, b2


# ----------------------------------------------------------------------------- basics
def test_defaults_after_attach():
    w = seeded_world(ode, (0, 0, -G))
    ode.dWorldSetERP(w, 0.3)
    ode.dWorldSetCFM(w, 1e-6)
    b1 = box(ode, w, (1, 2, 3), dims=CUBE)
    b2 = box(ode, w, (1, 3, 3), dims=CUBE)
    j = ode.dJointCreateHinge2(w, None)
    assert ode.dJointGetType(j) == ode.dJointTypeHinge2
    ode.dJointAttach(j, b1, b2)
    assert np.array_equal(ode.dJointGetHinge2Axis1(j), [1, 0, 0])
    assert np.array_equal(ode.dJointGetHinge2Axis2(j), [0, 1, 0])
    assert np.array_equal(ode.dJointGetHinge2Anchor(j), [1, 2, 3])
    assert np.array_equal(ode.dJointGetHinge2Anchor2(j), [1, 2, 3])
    assert ode.dJointGetHinge2Param(j, ode.dParamSuspensionERP) == 0.3
    assert ode.dJointGetHinge2Param(j, ode.dParamSuspensionCFM) == 1e-6
    assert ode.dJointGetHinge2Param(j, ode.dParamStopERP2) == 0.3
    assert ode.dJointGetHinge2Param(j, ode.dParamLoStop) == -math.inf
    assert ode.dJointGetHinge2Param(j, ode.dParamHiStop2) == math.inf
    assert ode.dJointGetHinge2Param(j, ode.dParamFudgeFactor) == 1.0
    assert ode.dJointGetHinge2Angle1(j) == 0.0 and ode.dJointGetHinge2Angle2(j) == 0.0
    assert np.array_equal(ode.dJointGetHinge2SuspensionAxis(j), [1, 0, 0])


def test_param_groups_and_ignored_values():
    _, j, _, _ = two_bodies()
    ode.dJointSetHinge2Param(j, ode.dParamFMax2, 3.0)
    ode.dJointSetHinge2Param(j, ode.dParamVel, -1.5)
    assert ode.dJointGetHinge2Param(j, ode.dParamFMax2) == 3.0
    assert ode.dJointGetHinge2Param(j, ode.dParamFMax) == 0.0
    assert ode.dJointGetHinge2Param(j, ode.dParamVel) == -1.5
    # as ODE: negative FMax and a fudge factor outside [0, 1] are ignored
    ode.dJointSetHinge2Param(j, ode.dParamFMax2, -1.0)
    ode.dJointSetHinge2Param(j, ode.dParamFudgeFactor, 1.5)
    assert ode.dJointGetHinge2Param(j, ode.dParamFMax2) == 3.0
    assert ode.dJointGetHinge2Param(j, ode.dParamFudgeFactor) == 1.0
    # the suspension belongs to group 1 only; group 2's names are ignored
    ode.dJointSetHinge2Param(j, ode.dParamSuspensionERP, 0.7)
    ode.dJointSetHinge2Param(j, ode.dParamSuspensionERP2, 0.9)
    assert ode.dJointGetHinge2Param(j, ode.dParamSuspensionERP) == 0.7
    assert ode.dJointGetHinge2Param(j, ode.dParamSuspensionERP2) == 0.0


def test_errors():
    w, j, b1, b2 = two_bodies()
    hinge = ode.dJointCreateHinge(w, None)
    with pytest.raises(ode.ODEError, match="dJointSetHinge2Anchor"):
        ode.dJointSetHinge2Anchor(hinge, 0, 0, 0)
    with pytest.raises(ode.ODEError, match="dJointGetHinge2Angle1"):
        ode.dJointGetHinge2Angle1(None)
    with pytest.raises(ode.ODEError, match="dJointSetHinge2Param"):
        ode.dJointSetHinge2Param(j, ode.dParamLoStop3, 0.0)
    with pytest.raises(ode.ODEError, match="dJointSetHinge2Param"):
        ode.dJointSetHinge2Param(j, ode.dParamLoStop, math.nan)
    with pytest.raises(ode.ODEError, match="dJointSetHinge2Anchor"):
        ode.dJointSetHinge2Anchor(j, 0, math.nan, 0)
    with pytest.raises(ode.ODEError, match="dJointSetHinge2Axis1"):
        ode.dJointSetHinge2Axis1(j, 0, math.inf, 0)
    with pytest.raises(ode.ODEError, match="dJointSetHinge2Axis1"):
        ode.dJointSetHinge2Axis1(j, 0, 0, 0)
    with pytest.raises(ode.ODEError, match="dJointSetHinge2Axes"):
        ode.dJointSetHinge2Axes(j, None, None)
    with pytest.raises(ode.ODEError, match="dJointSetHinge2Axes"):
        ode.dJointSetHinge2Axes(j, (1, 0), None)
    # axis 1 along axis 2 is refused and leaves the joint unchanged
    with pytest.raises(ode.ODEError, match="dJointSetHinge2Axis1"):
        ode.dJointSetHinge2Axis1(j, 0, 2, 0)
    assert np.array_equal(ode.dJointGetHinge2Axis1(j), [1, 0, 0])
    with pytest.raises(ode.ODEError, match="dJointAttach"):
        ode.dJointAttach(j, b1, None)
    with pytest.raises(ode.ODEError, match="dJointAddHinge2Torques"):
        ode.dJointAddHinge2Torques(j, 1.0, math.nan)


def test_info1_rows_inside_at_and_beyond_limits():
    """Port of ODE's joint.cpp hinge-2 getInfo1 test: 4 rows free, 5 with
    axis 1 at a stop or powered, 6 with the wheel motor too."""
    w, j, b1, b2 = two_bodies()
    ode.dJointSetHinge2Anchor(j, 0, 0, 0)
    ode.dBodySetPosition(b1, 0, -1, 0)
    ode.dJointSetHinge2Param(j, ode.dParamLoStop, -math.pi / 4)
    ode.dJointSetHinge2Param(j, ode.dParamHiStop, math.pi / 4)
    assert _rows(j) == (4, 4, 0)
    ode.dBodySetPosition(b2, 0, 0, 1)
    ode.dBodySetRotation(b2, ode.dRFromAxisAndAngle(1, 0, 0, math.pi / 2))
    assert _rows(j) == (5, 4, 1)
    ode.dBodySetPosition(b2, 0, 1, 0)
    ode.dBodySetRotation(b2, ode.dRFromAxisAndAngle(1, 0, 0, 0))
    assert _rows(j) == (4, 4, 0)
    ode.dBodySetRotation(b2, ode.dRFromAxisAndAngle(1, 0, 0, -math.pi / 2))
    assert _rows(j) == (5, 4, 2)
    # stops wider than ±π are not tested at all
    ode.dJointSetHinge2Param(j, ode.dParamLoStop, -2 * math.pi)
    ode.dJointSetHinge2Param(j, ode.dParamHiStop, 2 * math.pi)
    assert _rows(j) == (4, 4, 0)
    ode.dJointSetHinge2Param(j, ode.dParamFMax, 2)
    assert _rows(j) == (5, 4, 0)
    ode.dJointSetHinge2Param(j, ode.dParamFMax2, 2)
    assert _rows(j) == (6, 4, 0)
    ode.dJointSetHinge2Param(j, ode.dParamFMax, 0)
    assert _rows(j) == (5, 4, 0)


# ----------------------------------------------------------------------------- conventions
# (body turned, turn axis, axes set (axis1, axis2) or None for the defaults x, y)
# -> (angle1, angle2) after a +0.3 rad turn; values from ODE
ANGLE_CASES = [
    (1, (1, 0, 0), None, (0.3, 0.0)), (1, (0, 1, 0), None, (0.0, -0.3)),
    (2, (1, 0, 0), None, (-0.3, 0.0)), (2, (0, 1, 0), None, (0.0, 0.3)),
    (1, (0, 0, 1), ((0, 0, 1), (0, -1, 0)), (0.3, 0.0)),
    (1, (0, 1, 0), ((0, 0, 1), (0, -1, 0)), (0.0, 0.3)),
    (2, (0, 0, 1), ((0, 0, 1), (0, -1, 0)), (-0.3, 0.0)),
    (2, (0, 1, 0), ((0, 0, 1), (0, -1, 0)), (0.0, -0.3)),
    (2, (0, 0, 1), None, (0.0, 0.0)),
]


@pytest.mark.parametrize("which,axis,axes,expected", ANGLE_CASES)
def test_angle_signs(which, axis, axes, expected):
    _, j, b1, b2 = two_bodies()
    if axes is not None:
        ode.dJointSetHinge2Axes(j, *axes)
    ode.dBodySetRotation(b1 if which == 1 else b2, ode.dRFromAxisAndAngle(*axis, 0.3))
    got = (ode.dJointGetHinge2Angle1(j), ode.dJointGetHinge2Angle2(j))
    assert got == pytest.approx(expected, abs=1e-12)


def test_rates_and_the_angle2_sign_quirk():
    """Rates are (w1 - w2)·axis for both axes, so angle 1 and its rate agree;
    ODE measures angle 2 with the other sign, so it grows while its rate is
    negative (kept as ODE has it)."""
    w, j, b1, b2 = two_bodies()
    ode.dBodySetAngularVel(b1, 0.5, 0.25, 0.0)
    assert ode.dJointGetHinge2Angle1Rate(j) == 0.5
    assert ode.dJointGetHinge2Angle2Rate(j) == 0.25
    ode.dBodySetAngularVel(b1, 0, 0, 0)
    ode.dBodySetAngularVel(b2, 0.0, 2.0, 0.0)
    assert ode.dJointGetHinge2Angle1Rate(j) == 0.0
    assert ode.dJointGetHinge2Angle2Rate(j) == -2.0
    ode.dWorldStep(w, H)
    # one step of ODE's quaternion update turns by 2·atan(ω·h/2)
    assert ode.dJointGetHinge2Angle2(j) == pytest.approx(2 * math.atan(H), rel=1e-12)
    # bodies at 90°: axis 2 follows body 2
    ode.dBodySetRotation(b2, ode.dRFromAxisAndAngle(0, 0, 1, math.pi / 2))
    ode.dBodySetAngularVel(b2, 0.0, 0.0, 0.0)
    ode.dBodySetAngularVel(b1, 1.0, 2.0, 3.0)
    assert np.allclose(ode.dJointGetHinge2Axis2(j), [-1, 0, 0], atol=1e-15)
    assert ode.dJointGetHinge2Angle2Rate(j) == pytest.approx(-1.0, abs=1e-15)
    assert ode.dJointGetHinge2Angle1Rate(j) == pytest.approx(1.0, abs=1e-15)


def test_add_hinge2_torques():
    _, j, b1, b2 = two_bodies()
    ode.dJointSetHinge2Axes(j, (0, 0, 2), (0, 1, 0))
    ode.dJointAddHinge2Torques(j, 1.5, -0.5)
    assert np.allclose(ode.dBodyGetTorque(b1), [0, -0.5, 1.5])
    assert np.allclose(ode.dBodyGetTorque(b2), [0, 0.5, -1.5])
    assert np.array_equal(ode.dBodyGetForce(b1), [0, 0, 0])


# ----------------------------------------------------------------------------- dynamics
def test_wheel_motor_reaches_vel_at_fmax():
    """Free of gravity, the wheel motor accelerates the wheel at FMax / I
    until the rate reaches Vel2 (the chassis is pinned against that torque)."""
    w, j, ch, wh = car_wheel(ode, motor=False, spin=False)
    ode.dWorldSetGravity(w, 0, 0, 0)
    ode.dJointSetHinge2Param(j, ode.dParamVel2, -3.0)
    ode.dJointSetHinge2Param(j, ode.dParamFMax2, 0.5)
    inertia = 1.0 * (0.2 ** 2 + 0.2 ** 2) / 12
    for n in range(1, 4):     # -0.75 rad/s per step: Vel2 is reached at step 4
        ode.dWorldStep(w, H)
        assert ode.dJointGetHinge2Angle2Rate(j) == pytest.approx(-n * H * 0.5 / inertia,
                                                                 rel=1e-9)
    for _ in range(200):
        ode.dWorldStep(w, H)
    assert ode.dJointGetHinge2Angle2Rate(j) == pytest.approx(-3.0, rel=1e-9)
    assert ode.dJointGetHinge2Angle1Rate(j) == pytest.approx(0.0, abs=1e-9)


def test_steering_motor_is_held_by_the_stop():
    w, j, ch, wh = car_wheel(ode, motor=False, spin=False)
    ode.dJointSetHinge2Param(j, ode.dParamVel, -1.0)
    ode.dJointSetHinge2Param(j, ode.dParamFMax, 0.5)
    angles = []
    for _ in range(200):
        ode.dWorldStep(w, H)
        angles.append(ode.dJointGetHinge2Angle1(j))
    assert min(angles) > -0.3 - 0.02
    assert angles[-1] == pytest.approx(-0.3, abs=0.01)
    assert _rows(j)[0] == 5


def test_suspension_sag_is_mg_h_cfm_over_erp():
    """At rest the soft anchor row is a spring k = ERP / (h·CFM): the wheel
    hangs m·g·h·CFM/ERP = 2.4525 mm below the chassis anchor (ODE: same)."""
    w, j, ch, wh = car_wheel(ode, motor=False, spin=False)
    for _ in range(300):
        ode.dWorldStep(w, H)
    gap = ode.dJointGetHinge2Anchor2(j) - ode.dJointGetHinge2Anchor(j)
    expected = 1.0 * G * H * 0.01 / 0.4
    assert gap[2] == pytest.approx(-expected, rel=1e-6)
    assert abs(gap[0]) < 1e-12 and abs(gap[1]) < 1e-12
    assert ode.dBodyGetPosition(wh)[2] == pytest.approx(0.8975474999342731, abs=1e-11)  # ODE


@pytest.mark.parametrize("quick", [False, True])
def test_car_wheel_follows_ode(quick):
    """Suspension, steering stops and wheel motor together; samples at steps
    50, 150 and 300: wheel position, quaternion, angle1, angle2 and rates."""
    got = run_car_wheel(ode, quick)
    assert np.allclose(got, CAR_WHEEL_ODE[quick], rtol=0, atol=1e-9)


CAR_WHEEL_ODE = {False: np.array([
    [0.3000000306162483, 0.4999999816268297, 0.8975474999865868, 0.8812405430929223,
     0.057134515037977666, -0.45595656951544933, 0.11069940883478083, -0.249797135594707,
     -0.9549145303371401, -0.5000290040473495, 2.0],
    [0.2988066957285237, 0.500714049937855, 0.8975474999342756, 0.09266989115304006,
     0.11064782796256509, -0.9894758431159857, 0.010339503409718915, -0.2203348624004159,
     -2.954831524773504, 0.09490541083917162, 2.0000000000000004],
    [0.2967916013844811, 0.5019110942836416, 0.897547499934276, -0.985663554045653,
     0.0068844091160451945, -0.16334789386015827, -0.041682474838543, -0.07811495562877509,
     0.32846032798469665, 0.09490541083927245, 2.0],
]), True: np.array([
    [0.30000003061618596, 0.4999999816268017, 0.897547499986003, 0.8812405430933135,
     0.057134515037677684, -0.4559565695147741, 0.11069940883460128, -0.2497971355940213,
     -0.9549145303356781, -0.5000290040440891, 1.999999999986353],
    [0.29880669572809576, 0.5007140499384287, 0.8975474999334885, 0.09266989115447555,
     0.11064782797578666, -0.9894758431143642, 0.010339503410538388, -0.22033486242650924,
     -2.9548315247706975, 0.09490541079373492, 2.0000000000260627],
    [0.29679160138299454, 0.5019110942842232, 0.8975474999336572, -0.9856635540441785,
     0.006884409122555244, -0.16334789385950832, -0.041682474874878424, -0.07811495569987452,
     0.3284603279839297, 0.09490541080858962, 1.9999999999771607],
])}


# ----------------------------------------------------------------------------- Webots axis
def test_suspension_axis_along_axis1_is_exactly_ode():
    base = run_car_wheel(ode, False, steps=(100, 200))
    w, j, ch, wh = car_wheel(ode, susp_axis=(0, 0, 3))
    got = []
    for i in range(1, 201):
        ode.dWorldStep(w, H)
        if i in (100, 200):
            got.append(record(ode, j, wh))
    assert np.array_equal(np.array(got), base)


def test_suspension_axis_tilted_sags_along_it():
    """With the suspension axis s, the wheel springs along s only: at rest the
    anchors are apart by m·g·s_z·h·CFM/ERP along s."""
    s = np.array([0.0, 0.6, 0.8])
    w, j, ch, wh = car_wheel(ode, motor=False, spin=False, susp_axis=(0, 1.5, 2.0))
    assert np.allclose(ode.dJointGetHinge2SuspensionAxis(j), s)
    for _ in range(400):
        ode.dWorldStep(w, H)
    gap = ode.dJointGetHinge2Anchor2(j) - ode.dJointGetHinge2Anchor(j)
    expected = 1.0 * G * s[2] * H * 0.01 / 0.4
    # (the chassis keeps a slow yaw, 2e-6 rad/s, from the transient)
    assert np.allclose(gap, -expected * s, rtol=0, atol=1e-6)
    assert np.linalg.norm(np.cross(gap, s)) < 1e-6


def test_suspension_axis_follows_body1():
    _, j, b1, b2 = two_bodies()
    ode.dJointSetHinge2SuspensionAxis(j, 0, 0, 1)
    ode.dBodySetRotation(b1, ode.dRFromAxisAndAngle(1, 0, 0, math.pi / 2))
    assert np.allclose(ode.dJointGetHinge2SuspensionAxis(j), [0, -1, 0], atol=1e-15)
    with pytest.raises(ode.ODEError, match="dJointSetHinge2SuspensionAxis"):
        ode.dJointSetHinge2SuspensionAxis(j, 0, 0, 0)


# ----------------------------------------------------------------------------- re-setting
def test_resetting_anchor_and_axes_changes_nothing():
    """Port of ODE's hinge2.cpp test: two identical pairs of rotated bodies;
    on the second joint the anchor and axes are set again to their current
    values (axes both, then one at a time). With gravity, spin and steering
    stops (so the angle references matter), both pairs move identically
    over 4 dWorldStep(0.5)."""
    w = seeded_world(ode, (0, 0, -1.0))
    pairs = []
    for _ in range(2):
        b1 = box(ode, w, (-1, -2, -3), dims=CUBE)
        b2 = box(ode, w, (11, 22, 33), dims=CUBE)
        ax = np.array([0.53, -0.71, 0.43])
        ode.dBodySetRotation(b1, ode.dRFromAxisAndAngle(*ax / np.linalg.norm(ax), 0.47123))
        ax = np.array([1.2, 0.87, -0.33])
        ode.dBodySetRotation(b2, ode.dRFromAxisAndAngle(*ax / np.linalg.norm(ax), 0.47123))
        ode.dBodySetAngularVel(b2, 0.2, -0.1, 0.3)
        j = ode.dJointCreateHinge2(w, None)
        ode.dJointAttach(j, b1, b2)
        ode.dJointSetHinge2Param(j, ode.dParamLoStop, -0.05)
        ode.dJointSetHinge2Param(j, ode.dParamHiStop, 0.05)
        pairs.append((j, b1, b2))
    j = pairs[1][0]
    ode.dJointSetHinge2Anchor(j, *ode.dJointGetHinge2Anchor(j))
    a1, a2 = ode.dJointGetHinge2Axis1(j), ode.dJointGetHinge2Axis2(j)
    ode.dJointSetHinge2Axes(j, a1, a2)
    ode.dJointSetHinge2Axes(j, a1, None)
    ode.dJointSetHinge2Axes(j, None, a2)
    for _ in range(4):
        ode.dWorldStep(w, 0.5)
    moved = np.linalg.norm(ode.dBodyGetPosition(pairs[0][2]) - [11, 22, 33])
    assert moved > 0.5
    for k in (1, 2):
        qa = ode.dBodyGetQuaternion(pairs[0][k])
        qb = ode.dBodyGetQuaternion(pairs[1][k])
        assert np.allclose(qa, qb, rtol=0, atol=1e-10)
        assert np.allclose(ode.dBodyGetPosition(pairs[0][k]), ode.dBodyGetPosition(pairs[1][k]),
                           rtol=0, atol=1e-10)
    assert ode.dJointGetHinge2Angle1(pairs[0][0]) == pytest.approx(
        ode.dJointGetHinge2Angle1(j), abs=1e-10)
