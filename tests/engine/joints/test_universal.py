"""Universal joint: rows, angle conventions (ODE's tests/joints/universal.cpp
facts), axis offsets, rates, motors, stops, feedback and agreement with ODE
0.16.2 (reference numbers recorded from the real library running ``scene``)."""

from __future__ import annotations

import math

import numpy as np
import pytest

from engine import ode
from engine.ode.joints import universal
from tests.engine.joints.setup_helpers import (
    G,
    body_state,
    box,
    info1_counts,
    seeded_world,
    step_fn,
)


# ----------------------------------------------------------------------------- helpers
def angles(j):
    """(Angle1, Angle2) one by one and together; they must agree."""
    a1, a2 = ode.dJointGetUniversalAngle1(j), ode.dJointGetUniversalAngle2(j)
    b1, b2 = ode.dJointGetUniversalAngles(j)
    assert b1 == pytest.approx(a1, abs=1e-12) and b2 == pytest.approx(a2, abs=1e-12)
    return a1, a2


def pair(one: str | None = None):
    """Bodies at the origin, default axes (x, y), anchor at the origin; ``one``
    attaches only body 1 ('b1') or only body 2 ('b2', as (None, b))."""
    w = seeded_world()
    b1 = box(ode, w, (0, 0, 0))
    b2 = box(ode, w, (0, 0, 0))
    j = ode.dJointCreateUniversal(w, None)
    if one == "b1":
        ode.dJointAttach(j, b1, None)
    elif one == "b2":
        ode.dJointAttach(j, None, b2)
    else:
        ode.dJointAttach(j, b1, b2)
    ode.dJointSetUniversalAnchor(j, 0, 0, 0)
    return w, j, b1, b2


# ----------------------------------------------------------------------------- defaults
def test_defaults():
    w, j, b1, b2 = pair()
    assert ode.dJointGetType(j) == ode.dJointTypeUniversal
    np.testing.assert_array_equal(ode.dJointGetUniversalAxis1(j), [1, 0, 0])
    np.testing.assert_array_equal(ode.dJointGetUniversalAxis2(j), [0, 1, 0])
    assert angles(j) == (0, 0)
    for p in (ode.dParamLoStop, ode.dParamLoStop2):
        assert ode.dJointGetUniversalParam(j, p) == -math.inf
    for p in (ode.dParamStopERP, ode.dParamStopERP2):
        assert ode.dJointGetUniversalParam(j, p) == ode.dWorldGetERP(w)
    assert ode.dJointGetUniversalParam(j, ode.dParamFMax2) == 0


def test_unattached_reads_zero():
    w = seeded_world()
    j = ode.dJointCreateUniversal(w, None)
    assert ode.dJointGetUniversalAngles(j) == (0.0, 0.0)
    assert ode.dJointGetUniversalAngle1(j) == 0 and ode.dJointGetUniversalAngle2(j) == 0
    assert ode.dJointGetUniversalAngle1Rate(j) == 0
    ode.dJointSetUniversalAnchor(j, 1, 2, 3)
    ode.dJointSetUniversalAxis1Offset(j, 0, 0, 1, 0.1, 0.2)
    ode.dJointAddUniversalTorques(j, 1, 2)


def test_set_get_axes_and_anchor_for_turned_bodies():
    """ODE's test_dJointSetGetUniversalAxis: what is set is read back."""
    w = seeded_world()
    b1 = box(ode, w, (-1, -2, -3), R=ode.dRFromAxisAndAngle(0.53, -0.71, 0.43, 0.47123))
    b2 = box(ode, w, (11, 22, 33), R=ode.dRFromAxisAndAngle(1.2, 0.87, -0.33, 0.47123))
    j = ode.dJointCreateUniversal(w, None)
    ode.dJointAttach(j, b1, b2)
    ax1 = np.array([0.2, -0.67, -0.81]) / np.linalg.norm([0.2, -0.67, -0.81])
    ax2 = np.cross(ax1, [0.62, 0.31, 0.43])
    ax2 /= np.linalg.norm(ax2)
    ode.dJointSetUniversalAxis1(j, *ax1)
    ode.dJointSetUniversalAxis2(j, *ax2)
    np.testing.assert_allclose(ode.dJointGetUniversalAxis1(j), ax1, atol=1e-12)
    np.testing.assert_allclose(ode.dJointGetUniversalAxis2(j), ax2, atol=1e-12)
    ode.dJointSetUniversalAnchor(j, 5, 6, 7)
    np.testing.assert_allclose(ode.dJointGetUniversalAnchor(j), [5, 6, 7], atol=1e-12)
    np.testing.assert_allclose(ode.dJointGetUniversalAnchor2(j), [5, 6, 7], atol=1e-12)
    # the anchors ride on their bodies
    ode.dBodySetPosition(b2, 12, 22, 33)
    np.testing.assert_allclose(ode.dJointGetUniversalAnchor2(j), [6, 6, 7], atol=1e-12)
    np.testing.assert_allclose(ode.dJointGetUniversalAnchor(j), [5, 6, 7], atol=1e-12)


# ----------------------------------------------------------------------------- rows
def test_row_counts():
    w, j, b1, b2 = pair()
    assert info1_counts(universal, j) == (4, 4)
    ode.dJointSetUniversalParam(j, ode.dParamFMax, 1.0)
    assert info1_counts(universal, j) == (5, 4)
    ode.dJointSetUniversalParam(j, ode.dParamFMax2, 1.0)
    assert info1_counts(universal, j) == (6, 4)
    ode.dJointSetUniversalParam(j, ode.dParamFMax, 0.0)
    ode.dJointSetUniversalParam(j, ode.dParamFMax2, 0.0)
    # stops: angle 1 at 0.3 rad
    ode.dBodySetRotation(b1, ode.dRFromAxisAndAngle(1, 0, 0, 0.3))
    for p, v in ((ode.dParamLoStop, -0.5), (ode.dParamHiStop, 0.5),
                 (ode.dParamLoStop2, -0.5), (ode.dParamHiStop2, 0.5)):
        ode.dJointSetUniversalParam(j, p, v)
    assert info1_counts(universal, j) == (4, 4)                  # inside both ranges
    ode.dJointSetUniversalParam(j, ode.dParamHiStop, 0.299)
    assert info1_counts(universal, j) == (5, 4)                  # past stop 1
    assert j.d[universal.LIMOT1 + 9] == 2
    ode.dBodySetRotation(b2, ode.dRFromAxisAndAngle(0, 1, 0, 0.6))   # angle 2 = -0.6
    assert info1_counts(universal, j) == (6, 4)
    assert j.d[universal.LIMOT2 + 9] == 1
    assert j.d[universal.LIMOT2 + 10] == pytest.approx(-0.1, abs=1e-12)
    # powered and at a stop: still one row per axis
    ode.dJointSetUniversalParam(j, ode.dParamFMax2, 1.0)
    assert info1_counts(universal, j) == (6, 4)
    # lo > hi turns stop 1 off; stops outside ±π are never reached
    ode.dJointSetUniversalParam(j, ode.dParamLoStop, 1.0)
    ode.dJointSetUniversalParam(j, ode.dParamHiStop, -1.0)
    ode.dJointSetUniversalParam(j, ode.dParamFMax2, 0.0)
    assert info1_counts(universal, j) == (5, 4)
    ode.dJointSetUniversalParam(j, ode.dParamLoStop2, -4.0)
    ode.dJointSetUniversalParam(j, ode.dParamHiStop2, 4.0)
    assert info1_counts(universal, j) == (4, 4)


@pytest.mark.parametrize("turn, limit", [(math.pi / 2, 1), (-math.pi / 2, 2), (0.0, 0)])
def test_row_counts_when_body2_turns_about_axis1(turn, limit):
    """ODE's tests/joint.cpp (Universal getInfo1, rotation about X): body 2
    turned ±90° about axis 1 takes the cross with it; angle 1 is then past
    the ±45° stops. Stops at ±2π are no stops at all."""
    w = seeded_world()
    b1 = box(ode, w, (0, -1, 0))
    b2 = box(ode, w, (0, 1, 0))
    j = ode.dJointCreateUniversal(w, None)
    ode.dJointAttach(j, b1, b2)
    ode.dJointSetUniversalAnchor(j, 0, 0, 0)
    for p, v in ((ode.dParamLoStop, -math.pi / 4), (ode.dParamHiStop, math.pi / 4),
                 (ode.dParamLoStop2, -math.pi / 4), (ode.dParamHiStop2, math.pi / 4)):
        ode.dJointSetUniversalParam(j, p, v)
    ode.dBodySetPosition(b2, 0, 0, 1)
    ode.dBodySetRotation(b2, ode.dRFromAxisAndAngle(1, 0, 0, turn))
    assert info1_counts(universal, j) == (5 if limit else 4, 4)
    assert j.d[universal.LIMOT1 + 9] == limit
    assert j.d[universal.LIMOT2 + 9] == 0
    ode.dJointSetUniversalParam(j, ode.dParamLoStop, -2 * math.pi)
    ode.dJointSetUniversalParam(j, ode.dParamHiStop, 2 * math.pi)
    assert info1_counts(universal, j) == (4, 4)
    assert j.d[universal.LIMOT1 + 9] == 0


# ----------------------------------------------------------------------------- angles
def test_angles_of_two_bodies():
    """universal.cpp: turning body 1 about axis 1 reads +angle 1, turning body
    2 about axis 2 reads -angle 2."""
    w, j, b1, b2 = pair()
    a1, a2 = math.radians(23), math.radians(17)
    ode.dBodySetRotation(b1, ode.dRFromAxisAndAngle(1, 0, 0, a1))
    ode.dBodySetRotation(b2, ode.dRFromAxisAndAngle(0, 1, 0, a2))
    got = angles(j)
    assert got[0] == pytest.approx(a1, abs=1e-12)
    assert got[1] == pytest.approx(-a2, abs=1e-12)


def test_rotation_of_the_whole_pair_leaves_angles():
    w, j, b1, b2 = pair()
    R = ode.dRFromAxisAndAngle(0.2, -0.67, -0.81, 0.4)
    ode.dBodySetRotation(b1, R)
    ode.dBodySetRotation(b2, R)
    np.testing.assert_allclose(angles(j), 0, atol=1e-12)


@pytest.mark.parametrize("flip1, flip2, s1", [(1, 1, 1), (-1, 1, -1), (1, -1, 1)])
def test_angles_of_one_body_b1(flip1, flip2, s1):
    """universal.cpp test_dJointGetUniversalAngle1_1Body_B1: body 1 turned by
    0.23 about axis 1; inverting an axis inverts its angle."""
    w, j, b1, _ = pair("b1")
    ode.dJointSetUniversalAxis1(j, flip1, 0, 0)
    ode.dJointSetUniversalAxis2(j, 0, flip2, 0)
    ode.dBodySetRotation(b1, ode.dRFromAxisAndAngle(1, 0, 0, 0.23))
    a1, a2 = angles(j)
    assert a1 == pytest.approx(s1 * 0.23, abs=1e-12)
    assert a2 == pytest.approx(0, abs=1e-12)
    ode.dBodySetRotation(b1, ode.dRFromAxisAndAngle(0, flip2, 0, 0.23))
    a1, a2 = angles(j)
    assert a1 == pytest.approx(0, abs=1e-12)
    # turning body 1 about axis 2 turns the cross with it, against the world
    assert a2 == pytest.approx(0.23, abs=1e-12)


def test_angles_of_reversed_one_body():
    """Attached as (None, b): body b sits in slot 0, the user's axis 1 is the
    record's axis 2 (world +y by default) and angle 2 is minus the record's
    angle 1."""
    w, j, _, b2 = pair("b2")
    np.testing.assert_array_equal(ode.dJointGetUniversalAxis1(j), [0, 1, 0])
    np.testing.assert_array_equal(ode.dJointGetUniversalAxis2(j), [1, 0, 0])
    ode.dBodySetRotation(b2, ode.dRFromAxisAndAngle(1, 0, 0, 0.23))
    a1, a2 = angles(j)
    assert a1 == pytest.approx(0, abs=1e-12)
    assert a2 == pytest.approx(-0.23, abs=1e-12)
    ode.dBodySetRotation(b2, ode.dRFromAxisAndAngle(0, 1, 0, 0.23))
    a1, a2 = angles(j)
    assert a1 == pytest.approx(0.23, abs=1e-12)
    assert a2 == pytest.approx(0, abs=1e-12)


def test_rates():
    w, j, b1, b2 = pair()
    ode.dBodySetAngularVel(b1, 0.7, 0.2, 0.1)
    ode.dBodySetAngularVel(b2, -0.3, 0.5, 0.9)
    assert ode.dJointGetUniversalAngle1Rate(j) == pytest.approx(0.7 + 0.3)
    assert ode.dJointGetUniversalAngle2Rate(j) == pytest.approx(0.2 - 0.5)
    # reversed: the axes swap, the body is "body 1"
    w, j, _, b2 = pair("b2")
    ode.dBodySetAngularVel(b2, 0.7, 0.2, 0.1)
    assert ode.dJointGetUniversalAngle1Rate(j) == pytest.approx(0.2)
    assert ode.dJointGetUniversalAngle2Rate(j) == pytest.approx(0.7)


def test_rate_is_the_derivative_of_the_angle():
    w, j, b1, b2 = pair()
    ode.dJointSetUniversalAxis1(j, 0, 0.6, 0.8)
    ode.dJointSetUniversalAxis2(j, 1, 0, 0)
    ode.dBodySetAngularVel(b1, 0, 0.6, 0.8)
    h = 1e-4
    ode.dWorldStep(w, h)
    a1, _ = angles(j)
    assert a1 / h == pytest.approx(ode.dJointGetUniversalAngle1Rate(j), rel=1e-3)


# ----------------------------------------------------------------------------- offsets
def test_axis1_offset_90deg_on_body1():
    """universal.cpp test_dJointSetUniversalAxis1Offset_B1_90deg."""
    w, j, b1, b2 = pair()
    ang1 = math.radians(90)
    ode.dBodySetRotation(b1, ode.dRFromAxisAndAngle(1, 0, 0, ang1))
    assert angles(j) == pytest.approx((ang1, 0), abs=1e-12)
    ode.dJointSetUniversalAxis1Offset(j, 1, 0, 0, ang1, 0)
    assert angles(j) == pytest.approx((ang1, 0), abs=1e-12)
    ode.dBodySetRotation(b1, ode.dRFromAxisAndAngle(1, 0, 0, 0))
    assert angles(j) == pytest.approx((0, 0), abs=1e-12)


def test_axis2_offset_on_body2():
    """Turn body 2 about axis 2 (angle 2 = -0.37), keep that as an offset:
    the pose reads the offsets, the original pose reads (0, 0) again."""
    w, j, b1, b2 = pair()
    ode.dBodySetRotation(b2, ode.dRFromAxisAndAngle(0, 1, 0, 0.37))
    assert angles(j) == pytest.approx((0, -0.37), abs=1e-12)
    ode.dJointSetUniversalAxis2Offset(j, 0, 1, 0, 0, -0.37)
    assert angles(j) == pytest.approx((0, -0.37), abs=1e-12)
    ode.dBodySetRotation(b2, ode.dRFromAxisAndAngle(0, 1, 0, 0))
    assert angles(j) == pytest.approx((0, 0), abs=1e-12)


@pytest.mark.parametrize("which", [1, 2])
def test_offsets_read_back_with_two_bodies(which):
    w = seeded_world()
    b1 = box(ode, w, (0, 0, 1), R=ode.dRFromAxisAndAngle(0.53, -0.71, 0.43, 0.47))
    b2 = box(ode, w, (0.5, 0.1, 0.6), R=ode.dRFromAxisAndAngle(1.2, 0.87, -0.33, 0.47))
    j = ode.dJointCreateUniversal(w, None)
    ode.dJointAttach(j, b1, b2)
    ode.dJointSetUniversalAnchor(j, 0.2, 0.05, 0.8)
    ode.dJointSetUniversalAxis1(j, 0, 0.6, 0.8)
    ode.dJointSetUniversalAxis2(j, 1, 0, 0)
    if which == 1:
        ode.dJointSetUniversalAxis1Offset(j, 0, 0.6, 0.8, 0.25, 0.17)
    else:
        ode.dJointSetUniversalAxis2Offset(j, 1, 0, 0, 0.25, 0.17)
    assert angles(j) == pytest.approx((0.25, 0.17), abs=1e-12)


def test_offset_quirks_of_one_body_joints():
    """ODE 0.16.2 quirks, reproduced: with no body 2 the second offset is
    dropped; reversed (None, b), SetUniversalAxis2Offset uses -offset2 for
    offset 1 (and that offset is then dropped too)."""
    w, j, b1, _ = pair("b1")
    ode.dJointSetUniversalAxis2Offset(j, 0, 1, 0, 0.2, -0.3)
    assert angles(j) == pytest.approx((0.2, 0), abs=1e-12)
    ode.dJointSetUniversalAxis1Offset(j, 1, 0, 0, -0.1, 0.4)
    assert angles(j) == pytest.approx((-0.1, 0), abs=1e-12)
    w, j, _, b2 = pair("b2")
    ode.dJointSetUniversalAxis2Offset(j, 1, 0, 0, 0.2, -0.3)
    assert angles(j) == pytest.approx((0, -0.3), abs=1e-12)


# ----------------------------------------------------------------------------- motors
@pytest.mark.parametrize("stepper", ["dWorldStep", "dWorldQuickStep"])
def test_motor1_reaches_target_limited_by_fmax(stepper):
    """Body about its centre on a one-body universal: the rate about axis 1
    grows by T·h/I_xx per step until it reaches Vel."""
    w = seeded_world()
    b = box(ode, w, (0, 0, 0))
    ixx = (0.3 ** 2 + 0.4 ** 2) / 12
    j = ode.dJointCreateUniversal(w, None)
    ode.dJointAttach(j, b, None)
    ode.dJointSetUniversalAnchor(j, 0, 0, 0)
    ode.dJointSetUniversalParam(j, ode.dParamVel, 1.0)
    ode.dJointSetUniversalParam(j, ode.dParamFMax, 0.05)
    h = 0.01
    for k in range(1, 61):
        getattr(ode, stepper)(w, h)
        expected = min(k * 0.05 * h / ixx, 1.0)
        assert ode.dJointGetUniversalAngle1Rate(j) == pytest.approx(expected, abs=1e-7), k
    assert ode.dJointGetUniversalAngle2Rate(j) == pytest.approx(0, abs=1e-9)


def test_motor2_reaches_target_limited_by_fmax():
    w = seeded_world()
    b = box(ode, w, (0, 0, 0))
    iyy = (0.2 ** 2 + 0.4 ** 2) / 12
    j = ode.dJointCreateUniversal(w, None)
    ode.dJointAttach(j, b, None)
    ode.dJointSetUniversalAnchor(j, 0, 0, 0)
    ode.dJointSetUniversalParam(j, ode.dParamVel2, -0.5)
    ode.dJointSetUniversalParam(j, ode.dParamFMax2, 0.02)
    for k in range(1, 61):
        ode.dWorldStep(w, 0.01)
        expected = max(-k * 0.02 * 0.01 / iyy, -0.5)
        assert ode.dJointGetUniversalAngle2Rate(j) == pytest.approx(expected, abs=1e-7), k


def test_stop_holds_against_motor():
    w = seeded_world()
    b = box(ode, w, (0, 0, 0))
    j = ode.dJointCreateUniversal(w, None)
    ode.dJointAttach(j, b, None)
    ode.dJointSetUniversalAnchor(j, 0, 0, 0)
    ode.dJointSetUniversalParam(j, ode.dParamHiStop, 0.3)
    ode.dJointSetUniversalParam(j, ode.dParamVel, 2.0)
    ode.dJointSetUniversalParam(j, ode.dParamFMax, 0.1)
    for _ in range(300):
        ode.dWorldStep(w, 0.01)
    a1, a2 = angles(j)
    assert a1 == pytest.approx(0.3, abs=1e-6)
    assert a2 == pytest.approx(0, abs=1e-9)
    assert abs(ode.dJointGetUniversalAngle1Rate(j)) < 1e-6


# ----------------------------------------------------------------------------- feedback
@pytest.mark.parametrize("stepper", ["dWorldStep", "dWorldQuickStep"])
def test_feedback_of_hanging_body_is_its_weight(stepper):
    mass = 1.7
    w = seeded_world(gravity=(0, 0, -G))
    b = box(ode, w, (0, 0, 0.5), mass=mass)
    j = ode.dJointCreateUniversal(w, None)
    ode.dJointAttach(j, b, None)
    ode.dJointSetUniversalAnchor(j, 0, 0, 1)
    fb = ode.dJointFeedback()
    ode.dJointSetFeedback(j, fb)
    for _ in range(10):
        getattr(ode, stepper)(w, 0.01)
    np.testing.assert_allclose(fb.f1, [0, 0, mass * G], atol=1e-6)
    np.testing.assert_allclose(fb.t1, 0, atol=1e-6)
    np.testing.assert_allclose(ode.dBodyGetPosition(b), [0, 0, 0.5], atol=1e-8)


# ----------------------------------------------------------------------------- torques
def test_add_universal_torques():
    w, j, b1, b2 = pair()
    ode.dJointAddUniversalTorques(j, 1.0, 2.0)
    np.testing.assert_allclose(ode.dBodyGetTorque(b1), [1, 2, 0])
    np.testing.assert_allclose(ode.dBodyGetTorque(b2), [-1, -2, 0])
    w, j, _, b2 = pair("b2")
    ode.dJointAddUniversalTorques(j, 1.0, 2.0)
    # the lone body is "body 2": it gets minus torque1 about axis 1 (+y) and
    # minus torque2 about axis 2 (+x)
    np.testing.assert_allclose(ode.dBodyGetTorque(b2), [-2, -1, 0])


# ----------------------------------------------------------------------------- vs ODE
def scene(api, quick=False, attach="two", limits=True, motor=False, offset=0, steps=150,
          h=0.01):
    """Two turned boxes (body 1 fixed to the world) on a universal joint with
    oblique axes under tilted gravity, stops (bounce on axis 2) and/or
    motors, kicked by dJointAddUniversalTorques every 60 steps; or one box
    attached as (b, None) / (None, b). Runs on engine.ode or libode alike.

    Returns the angles (Angle1, Angle2) after steps 50, 100, 150, the angles
    right after the set-up, the final state of the moving box and the final
    feedback (f1, t1, f2, t2).
    """
    w = seeded_world(api, (0.3, -0.5, -9.81))
    b1 = box(api, w, (0.0, 0.0, 1.0), 1.5, R=api.dRFromAxisAndAngle(0.53, -0.71, 0.43, 0.47),
              avel=(0.5, -0.2, 0.3))
    b2 = box(api, w, (0.5, 0.1, 0.6), 0.8, R=api.dRFromAxisAndAngle(1.2, 0.87, -0.33, 0.47),
              lvel=(0.2, 0.1, 0.5), avel=(1, 2, -0.5))
    j = api.dJointCreateUniversal(w, None)
    if attach == "two":
        api.dJointAttach(j, b1, b2)
        f = api.dJointCreateFixed(w, None)
        api.dJointAttach(f, b1, None)
        api.dJointSetFixed(f)
    elif attach == "one":
        api.dJointAttach(j, b2, None)
    else:
        api.dJointAttach(j, None, b2)
    api.dJointSetUniversalAnchor(j, 0.2, 0.05, 0.8)
    api.dJointSetUniversalAxis1(j, 0.0, 0.6, 0.8)
    if offset == 1:
        api.dJointSetUniversalAxis2Offset(j, 1.0, 0.0, 0.0, 0.2, -0.3)
    elif offset == 2:
        api.dJointSetUniversalAxis1Offset(j, 0.0, 0.6, 0.8, 0.25, 0.17)
    else:
        api.dJointSetUniversalAxis2(j, 1.0, 0.0, 0.0)
    if limits:
        api.dJointSetUniversalParam(j, api.dParamLoStop, -0.4)
        api.dJointSetUniversalParam(j, api.dParamHiStop, 0.3)
        api.dJointSetUniversalParam(j, api.dParamLoStop2, -0.2)
        api.dJointSetUniversalParam(j, api.dParamHiStop2, 0.5)
        api.dJointSetUniversalParam(j, api.dParamBounce2, 0.4)
    if motor:
        api.dJointSetUniversalParam(j, api.dParamVel, 0.7)
        api.dJointSetUniversalParam(j, api.dParamFMax, 2.0)
        api.dJointSetUniversalParam(j, api.dParamVel2, -1.0)
        api.dJointSetUniversalParam(j, api.dParamFMax2, 3.0)
    fb = api.dJointFeedback()
    api.dJointSetFeedback(j, fb)
    initial = [api.dJointGetUniversalAngle1(j), api.dJointGetUniversalAngle2(j)]
    samples = []
    for i in range(steps):
        if i % 60 == 0:
            api.dJointAddUniversalTorques(j, 0.8, -0.5)
        step_fn(quick, api)(w, h)
        if (i + 1) % 50 == 0:
            samples.extend([api.dJointGetUniversalAngle1(j), api.dJointGetUniversalAngle2(j)])
    return {"angles": np.array(samples), "initial": np.array(initial), "body": body_state(api, b2),
            "fb": np.concatenate([fb.f1, fb.t1, fb.f2, fb.t2])}


# recorded with ODE 0.16.2 (libode8, double) running ``scene``
REFERENCE = {
    "two_step": {"kw": {},
        "angles": [-0.4000413375841134, 0.35730184722925873, -0.40000014205991324, 0.33749543397535037, -0.40000209715941676, 0.31475939498698846],
        "initial": [-0.0, 0.0],
        "body": [0.4327440202522205, 0.12202032836169885, 0.5295474937909753, 0.9661198366223769, 0.0005953889863311346, 0.2439462573086627, 0.08427532463184509, 0.019257485621827844, -0.05566978254024613, 0.0016618461432746333, -0.26322621633993143, -0.08906419689692564, 0.06673261218136521],
        "fb": [0.18359539402619474, -0.24557750053112298, -7.864973811995426, -1.0650193412947415, 3.320128171309107, -0.13433721738964377, -0.18359539402619474, 0.24557750053112298, 7.864973811995426, -0.014583798581288217, -0.004493176295980117, 0.0056075429103548124],
    },
    "two_quick": {"kw": {'quick': True},
        "angles": [-0.40017052081475657, 0.3561825236502205, -0.40051650447913806, 0.3381683923808157, -0.40023522071431916, 0.31442371826183324],
        "initial": [-0.0, 0.0],
        "body": [0.4324190895882478, 0.12199505168368545, 0.5292158443375788, 0.9660207839753573, 0.0006512707597160877, 0.2443561114652962, 0.08422298714480145, 0.01977166846180129, -0.05520093681945583, 0.0007194230950271913, -0.2614891958610352, -0.08026316953812115, 0.05313474262911027],
        "fb": [0.019827592488265072, -0.18809193173987598, -7.922653829218705, -1.052881376261183, 3.3911408976991346, -0.061850768422824, -0.019827592488265072, 0.18809193173987598, 7.922653829218705, -0.006834148540574497, 0.02463450743786688, -0.021895336887757688],
    },
    "two_motor": {"kw": {'motor': True},
        "angles": [0.30109211570145344, -0.20001153783546588, 0.30000001558982525, -0.20000000017576003, 0.30000000000285354, -0.20000000001108909],
        "initial": [-0.0, 0.0],
        "body": [0.540574067375475, 0.061286553956799904, 0.672008131620354, 0.9465539601290012, 0.29682392349055475, 0.017631911669271118, -0.12498109736542491, -5.372591983271282e-13, 1.4929086394732502e-12, -1.1397208235535683e-12, -7.573397903272467e-14, 3.3714576211384694e-12, 4.451889383746806e-12],
        "fb": [0.23999999998922172, -0.399999999969852, -7.848000000022751, 2.2538358445534747, 2.2544587363497524, -1.2990020279646273, -0.23999999998922172, 0.399999999969852, 7.848000000022751, -2.866009467349677, 1.9092484960177172, 1.0680636280817657],
    },
    "two_motor_free_quick": {"kw": {'motor': True, 'quick': True, 'limits': False},
        "angles": [0.34708880675772935, -0.4967932054630957, 0.6913759189048028, -0.9923624115831995, 1.0372441191728194, -1.4881642753667395],
        "initial": [-0.0, 0.0],
        "body": [0.47564968988834233, -0.009496720728997968, 1.030040043972191, 0.5735172374845857, 0.7264796157429593, -0.37554283999734067, 0.04767516696083296, -0.25710993311210445, -0.12907452755887733, 0.27385310841690214, 0.5062218954995047, -1.1056893216882007, -0.038851511392245575],
        "fb": [1.04275889216608, -0.4610201632872979, -7.322444603710724, 0.09780740773788765, 3.55391071319789, -0.22462624654356678, -1.04275889216608, 0.4610201632872979, 7.322444603710724, -0.024963629211171234, -0.024692300667889522, 0.012800492308788103],
    },
    "one_step": {"kw": {'attach': 'one'},
        "angles": [0.3004305818835604, -0.19775579227008588, 0.30000000615168965, -0.20000003975076108, 0.30000000000649596, -0.20000000000359197],
        "initial": [-0.0, 0.0],
        "body": [0.4393177136706613, 0.11346145553267932, 0.5331673265764024, 0.9670262171205195, 0.06523915258341029, 0.24486381849845007, 0.025413751437646574, 5.264536959368307e-13, 3.4055533274068788e-12, 1.3568360332152394e-12, 1.420346371691035e-11, -1.6479759456490157e-12, -1.503017306520544e-12],
        "fb": [-0.2400000000105616, 0.3999999999317865, 7.847999999973123, -5.377698286679333e-12, 3.7836400679225335e-13, 1.5828449662080857e-12, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0],
    },
    "reversed_step": {"kw": {'attach': 'reversed'},
        "angles": [0.44858301962919117, 0.2629846989314974, 0.5000016654175732, 0.4020639214555256, 0.5000000550907491, 0.3097869316655505],
        "initial": [0.0, 0.0],
        "body": [0.4092182227547039, 0.1406685751918505, 0.5162622803958354, 0.9540671103676074, -0.004237702040402322, 0.2732820698119037, 0.12269841529352613, 0.002064175359848069, -0.004704469056554983, 2.4241331760292903e-05, -0.02186861814637213, -0.009558363131538825, 0.007167050896385758],
        "fb": [-0.12059503237815417, 0.1273337476936156, 7.848738061611707, -0.02479875369862905, -0.01041580986477808, 0.011663963135151723, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0],
    },
    "reversed_motor_quick": {"kw": {'attach': 'reversed', 'motor': True, 'quick': True},
        "angles": [-0.20008517027774353, -0.300567418573535, -0.20007791479962567, -0.300533215741031, -0.20004938208275114, -0.300041324788495],
        "initial": [0.0, 0.0],
        "body": [0.5320376253763909, 0.10608643160098852, 0.6618096644425284, 0.9353744308180727, 0.3385980145435261, 0.05665518368333202, -0.08494850723089103, 0.0007803439695079416, 0.0003916183253278955, -0.0005327828888310321, -0.004122640369149222, -0.002169443230625401, -0.0031796896730840185],
        "fb": [-0.20328548428101811, 0.451197048233714, 7.65710153357367, -1.9623711046578949, 2.112889954224472, 2.1565717674716787, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0],
    },
    "offset2": {"kw": {'offset': 1},
        "angles": [-0.4001661568799765, -0.08560454121815386, -0.400000048608473, 0.40066892534403437, -0.4000016705074046, 0.03665735288407697],
        "initial": [0.1999999999999993, -0.2999999999999998],
        "body": [0.3865337395134044, 0.15152430193164237, 0.5042761553748513, 0.9406585038168797, -0.02424691344633192, 0.29738216723092836, 0.1616710023422622, 0.1711123666556874, -0.31460749668942245, -0.0026343851079874154, -1.433157895865884, -0.7844086859232831, 0.5882543306237233],
        "fb": [-0.09612610631183438, -0.12967991148659191, -8.306767051948679, -1.3159954562602667, 3.2559462277075255, -0.05159053395149238, 0.09612610631183438, 0.12967991148659191, 8.306767051948679, -0.03318801772703755, -0.011328131362933647, 0.01655042368154014],
    },
    "offset1_quick": {"kw": {'offset': 2, 'quick': True},
        "angles": [-0.40003215526264374, -0.11262172300556283, -0.4000992658123318, -0.20009357041172482, -0.400388247873165, -0.20032782053857368],
        "initial": [0.25, 0.1700000000000002],
        "body": [0.3156823890660252, -0.0969835287604213, 0.4876741767937576, 0.8257082848204071, -0.3568258200774132, 0.43530872912321017, 0.03724879668067796, -0.0009687506217521636, -0.001291763880196222, -0.0004250938724763287, 0.003078499410961092, 0.0034603293216932773, -0.010215769757095396],
        "fb": [0.4535894970371528, -0.3716295098056429, -7.814970004828327, 0.5588031155371987, 2.228359578130224, -0.06331191389498086, -0.4535894970371528, 0.3716295098056429, 7.814970004828327, 0.008406820492771805, 0.006688002112186661, -0.010051025013965043],
    },
    "one_offset2": {"kw": {'attach': 'one', 'offset': 1},
        "angles": [0.3001804241692998, -0.2001573652355937, 0.30000000258278003, -0.20000000224757297, 0.3000000000077163, -0.20000000000161222],
        "initial": [0.1999999999999993, 0.0],
        "body": [0.48252790291866293, 0.07865034843423152, 0.5722783681214823, 0.9821421926569646, 0.07927073839987181, 0.16719615885361522, -0.034033922799261256, 1.773502740739933e-13, 5.281796414552457e-15, 2.379724882438618e-13, 8.282383384123638e-13, -7.073900434206037e-13, -6.338241335649609e-13],
        "fb": [-0.24000000000329696, 0.4000000000000471, 7.847999999995319, -3.4455771569241733e-13, 2.360334150353083e-13, 2.1049828546892968e-13, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0],
    },
    "reversed_offset2": {"kw": {'attach': 'reversed', 'offset': 1},
        "angles": [0.5092472638778045, 0.07367318818883158, 0.5000003792361972, -0.02898985733202064, 0.5000022835315588, 0.22284111417921562],
        "initial": [0.0, -0.2999999999999998],
        "body": [0.42793095584747043, 0.10128538422827703, 0.5208409967119341, 0.9556548969643293, -0.10659948347966827, 0.24414574743215295, 0.12551144187188823, -0.08746094316695903, 0.16914922908483698, -0.04130771181586612, 0.8294861220143402, 0.3624879413192225, -0.271937308020189],
        "fb": [-0.5916501087999322, 1.1668252506638122, 7.797842039442236, 0.06964802902796019, 0.02856884627683126, -0.032639835734504796, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0],
    },
}


@pytest.mark.parametrize("case", sorted(REFERENCE))
def test_matches_ode_trajectory(case):
    exp = REFERENCE[case]
    got = scene(ode, **exp["kw"])
    np.testing.assert_allclose(got["initial"], exp["initial"], rtol=0, atol=1e-12)
    np.testing.assert_allclose(got["angles"], exp["angles"], rtol=0, atol=1e-9)
    np.testing.assert_allclose(got["body"], exp["body"], rtol=0, atol=1e-9)
    np.testing.assert_allclose(got["fb"], exp["fb"], rtol=0, atol=1e-7)


# ----------------------------------------------------------------------------- errors
def test_errors():
    w, j, b1, b2 = pair()
    s = ode.dJointCreateSlider(w, None)
    with pytest.raises(ode.ODEError, match="dJointGetUniversalAngle1"):
        ode.dJointGetUniversalAngle1(s)
    with pytest.raises(ode.ODEError, match="dJointSetUniversalAxis2Offset"):
        ode.dJointSetUniversalAxis2Offset(s, 0, 1, 0, 0, 0)
    with pytest.raises(ode.ODEError, match="dJointSetUniversalParam"):
        ode.dJointSetUniversalParam(j, ode.dParamVel3, 1.0)      # two groups only
    with pytest.raises(ode.ODEError, match="dJointGetUniversalParam"):
        ode.dJointGetUniversalParam(j, -1)
    with pytest.raises(ode.ODEError, match="value"):
        ode.dJointSetUniversalParam(j, ode.dParamHiStop2, math.nan)
    with pytest.raises(ode.ODEError, match="dJointSetUniversalAxis1"):
        ode.dJointSetUniversalAxis1(j, 0, 0, 0)
    with pytest.raises(ode.ODEError, match="offset1"):
        ode.dJointSetUniversalAxis1Offset(j, 1, 0, 0, math.nan, 0)
    with pytest.raises(ode.ODEError, match="dJointSetUniversalAnchor"):
        ode.dJointSetUniversalAnchor(j, 0, math.inf, 0)
    with pytest.raises(ode.ODEError, match="torque2"):
        ode.dJointAddUniversalTorques(j, 0, math.nan)
    # group 2 parameters reach the second limot only
    ode.dJointSetUniversalParam(j, ode.dParamVel2, 3.0)
    assert ode.dJointGetUniversalParam(j, ode.dParamVel2) == 3.0
    assert ode.dJointGetUniversalParam(j, ode.dParamVel) == 0.0
