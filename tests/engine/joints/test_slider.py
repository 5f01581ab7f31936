"""Slider joint: rows, position/rate conventions, motor, stops, feedback and
agreement with ODE 0.16.2 (reference numbers recorded from the real
library; see ``scene``)."""

from __future__ import annotations

import math

import numpy as np
import pytest

from engine import ode
from engine.ode.joints import slider
from tests.engine.joints.setup_helpers import (
    G,
    body_state,
    box,
    info1_counts,
    seeded_world,
    step_fn,
)


# ----------------------------------------------------------------------------- helpers
# ----------------------------------------------------------------------------- defaults
def test_defaults_and_axis_after_attach():
    w = seeded_world()
    b = box(ode, w, (1, 2, 3), R=ode.dRFromAxisAndAngle(0, 0, 1, 0.5))
    j = ode.dJointCreateSlider(w, None)
    assert ode.dJointGetType(j) == ode.dJointTypeSlider
    ode.dJointAttach(j, b, None)
    # the default axis is +x in body 1's frame
    np.testing.assert_allclose(ode.dJointGetSliderAxis(j), [math.cos(0.5), math.sin(0.5), 0],
                               atol=1e-15)
    assert ode.dJointGetSliderParam(j, ode.dParamLoStop) == -math.inf
    assert ode.dJointGetSliderParam(j, ode.dParamHiStop) == math.inf
    assert ode.dJointGetSliderParam(j, ode.dParamFMax) == 0
    assert ode.dJointGetSliderParam(j, ode.dParamFudgeFactor) == 1
    assert ode.dJointGetSliderParam(j, ode.dParamStopERP) == ode.dWorldGetERP(w)
    assert ode.dJointGetSliderParam(j, ode.dParamStopCFM) == ode.dWorldGetCFM(w)
    assert ode.dJointGetSliderParam(j, ode.dParamCFM) == ode.dWorldGetCFM(w)
    # parameters a slider does not use are ignored and read 0
    ode.dJointSetSliderParam(j, ode.dParamSuspensionERP, 0.7)
    assert ode.dJointGetSliderParam(j, ode.dParamSuspensionERP) == 0
    assert ode.dJointGetSliderPosition(j) == 0
    assert ode.dJointGetSliderPositionRate(j) == 0


def test_unattached_slider_reads_zero():
    w = seeded_world()
    j = ode.dJointCreateSlider(w, None)
    assert ode.dJointGetSliderPosition(j) == 0
    assert ode.dJointGetSliderPositionRate(j) == 0
    np.testing.assert_array_equal(ode.dJointGetSliderAxis(j), [0, 0, 0])
    ode.dJointSetSliderAxis(j, 0, 0, 1)      # no body: nothing to do, no error
    ode.dJointAddSliderForce(j, 3.0)


# ODE's tests/joints/slider.cpp, test_dJointSetSlider: the relative rotation
# recorded when the axis is set (body 1 at (0,-1,0) unrotated, body 2 turned)
@pytest.mark.parametrize("pos2, axis, angle, qrel", [
    ((0, 1, 0), (1, 0, 0), 0.0, (1, 0, 0, 0)),
    ((0, 0, 1), (1, 0, 0), math.pi / 2, (0.70710678118654757, 0.70710678118654757, 0, 0)),
    ((0, 0, -1), (1, 0, 0), -math.pi / 2, (0.70710678118654757, -0.70710678118654757, 0, 0)),
    ((0, 1, 0), (0, 0, 1), math.pi / 2, (0.70710678118654757, 0, 0, 0.70710678118654757)),
    ((0, 1, 0), (0, 1, 0), math.pi / 4, (0.92387953251128674, 0, 0.38268343236508984, 0)),
])
def test_relative_rotation_recorded_by_set_axis(pos2, axis, angle, qrel):
    w = seeded_world()
    b1 = box(ode, w, (0, -1, 0))
    b2 = box(ode, w, pos2, R=ode.dRFromAxisAndAngle(*axis, angle))
    j = ode.dJointCreateSlider(w, None)
    ode.dJointAttach(j, b1, b2)
    ode.dJointSetSliderAxis(j, 1, 0, 0)
    np.testing.assert_allclose(j.d[slider.REL_ROTATION:slider.REL_ROTATION + 4], qrel, atol=1e-12)


def test_relative_rotation_of_two_turned_bodies():
    w = seeded_world()
    b1 = box(ode, w, (0, 0, 0), R=ode.dRFromEulerAngles(0.23, 3.1, -0.73))
    b2 = box(ode, w, (0, 0, 0), R=ode.dRFromEulerAngles(-0.57, 1.49, 0.81))
    j = ode.dJointCreateSlider(w, None)
    ode.dJointAttach(j, b1, b2)
    ode.dJointSetSliderAxis(j, 1, 0, 0)
    np.testing.assert_allclose(j.d[slider.REL_ROTATION:slider.REL_ROTATION + 4],
                               [-0.25526036263124319, 0.28434861188441968,
                                -0.65308047160141625, 0.65381489108282143], atol=1e-12)


# ----------------------------------------------------------------------------- rows
def test_row_counts_free_powered_and_at_stops():
    w = seeded_world()
    b = box(ode, w, (0, 0, 0))
    j = ode.dJointCreateSlider(w, None)
    ode.dJointAttach(j, b, None)
    assert info1_counts(slider, j) == (5, 5)
    ode.dJointSetSliderParam(j, ode.dParamFMax, 1.0)
    assert info1_counts(slider, j) == (6, 5)
    ode.dJointSetSliderParam(j, ode.dParamFMax, 0.0)
    ode.dJointSetSliderParam(j, ode.dParamLoStop, -0.5)
    ode.dJointSetSliderParam(j, ode.dParamHiStop, 0.5)
    assert info1_counts(slider, j) == (5, 5)                       # inside the range
    for x, expected in ((0.5, 6), (0.7, 6), (-0.5, 6), (-0.9, 6), (0.49, 5)):
        ode.dBodySetPosition(b, x, 0, 0)
        assert info1_counts(slider, j) == (expected, 5), x
    # at a stop the recorded error is how far past it the slider is
    ode.dBodySetPosition(b, 0.7, 0, 0)
    info1_counts(slider, j)
    assert j.d[slider.LIMOT + 9] == 2
    assert j.d[slider.LIMOT + 10] == pytest.approx(0.2, abs=1e-15)
    # lo > hi disables the stops
    ode.dJointSetSliderParam(j, ode.dParamLoStop, 1.0)
    ode.dJointSetSliderParam(j, ode.dParamHiStop, -1.0)
    assert info1_counts(slider, j) == (5, 5)
    # lo == hi locks the slider: always at a stop
    ode.dJointSetSliderParam(j, ode.dParamLoStop, 0.7)
    ode.dJointSetSliderParam(j, ode.dParamHiStop, 0.7)
    assert info1_counts(slider, j) == (6, 5)


def test_step_uses_the_rows_info1_asks_for():
    w = seeded_world()
    b = box(ode, w, (0, 0, 0), lvel=(1, 0, 0))
    j = ode.dJointCreateSlider(w, None)
    ode.dJointAttach(j, b, None)
    ode.dWorldStep(w, 0.01)
    assert w.joints.nrows[j.index] == 5
    ode.dJointSetSliderParam(j, ode.dParamFMax, 2.0)
    ode.dWorldStep(w, 0.01)
    assert w.joints.nrows[j.index] == 6


# ----------------------------------------------------------------------------- position
def _pair(axis, move: str, one: str | None = None):
    """ODE's slider.cpp fixtures: bodies at the origin, slider axis ``axis``;
    ``one`` attaches only body 1 ('b1': (b, None)) or only body 2 ('b2': (None, b))."""
    w = seeded_world()
    b1 = box(ode, w, (0, 0, 0))
    b2 = box(ode, w, (0, 0, 0))
    j = ode.dJointCreateSlider(w, None)
    if one == "b1":
        ode.dJointAttach(j, b1, None)
    elif one == "b2":
        ode.dJointAttach(j, None, b2)
    else:
        ode.dJointAttach(j, b1, b2)
    ode.dJointSetSliderAxis(j, *axis)
    return w, j, (b1 if move == "b1" else b2)


@pytest.mark.parametrize("axis, move, one, sign", [
    ((1, 0, 0), "b1", None, 1), ((1, 0, 0), "b2", None, -1),
    ((-1, 0, 0), "b1", None, -1), ((-1, 0, 0), "b2", None, 1),
    ((1, 0, 0), "b1", "b1", 1), ((-1, 0, 0), "b1", "b1", -1),
    ((1, 0, 0), "b2", "b2", -1), ((-1, 0, 0), "b2", "b2", 1),
])
@pytest.mark.parametrize("offset", [3.0, -3.0])
def test_position_sign_conventions(axis, move, one, sign, offset):
    _, j, b = _pair(axis, move, one)
    assert ode.dJointGetSliderPosition(j) == 0
    ode.dBodySetPosition(b, offset, 0, 0)
    assert ode.dJointGetSliderPosition(j) == pytest.approx(sign * offset, abs=1e-12)


@pytest.mark.parametrize("axis, move, one, sign", [
    ((1, 0, 0), "b1", None, 1), ((1, 0, 0), "b2", None, -1),
    ((-1, 0, 0), "b1", None, -1), ((-1, 0, 0), "b2", None, 1),
    ((1, 0, 0), "b1", "b1", 1), ((-1, 0, 0), "b1", "b1", -1),
    ((1, 0, 0), "b2", "b2", -1), ((-1, 0, 0), "b2", "b2", 1),
])
@pytest.mark.parametrize("force", [1.0, -1.0])
def test_position_rate_after_unit_force(axis, move, one, sign, force):
    """ODE's slider.cpp: a unit force on one body, one 1 s QuickStep: rate ±1."""
    w, j, b = _pair(axis, move, one)
    assert ode.dJointGetSliderPositionRate(j) == 0
    ode.dBodyAddForce(b, force, 0, 0)
    ode.dWorldQuickStep(w, 1.0)
    assert ode.dJointGetSliderPositionRate(j) == pytest.approx(sign * force, abs=1e-4)


def test_axis_delta_shifts_the_zero_of_a_one_body_slider():
    # ODE: with no body 2 the delta moves the reference point: position = -delta·axis
    for reverse, sign in ((False, -1), (True, 1)):
        w = seeded_world()
        b = box(ode, w, (1, 2, 3))
        j = ode.dJointCreateSlider(w, None)
        ode.dJointAttach(j, *((None, b) if reverse else (b, None)))
        ode.dJointSetSliderAxisDelta(j, 0, 3, 4, 0.5, 1.0, -2.0)
        assert ode.dJointGetSliderPosition(j) == pytest.approx(sign * (0.6 - 1.6), abs=1e-14)
    # with two bodies the delta is ignored
    w = seeded_world()
    b1, b2 = box(ode, w, (1, 2, 3)), box(ode, w, (0, 0, 0))
    j = ode.dJointCreateSlider(w, None)
    ode.dJointAttach(j, b1, b2)
    ode.dJointSetSliderAxisDelta(j, 0, 3, 4, 0.5, 1.0, -2.0)
    assert ode.dJointGetSliderPosition(j) == 0


def test_position_follows_rotated_body2_frame():
    """With two bodies the zero point turns with body 2."""
    w = seeded_world()
    b1 = box(ode, w, (1, 0, 0))
    b2 = box(ode, w, (0, 0, 0))
    j = ode.dJointCreateSlider(w, None)
    ode.dJointAttach(j, b1, b2)
    ode.dJointSetSliderAxis(j, 1, 0, 0)
    # turn the whole pair by 90° about z: still position 0
    R = ode.dRFromAxisAndAngle(0, 0, 1, math.pi / 2)
    ode.dBodySetRotation(b1, R)
    ode.dBodySetRotation(b2, R)
    ode.dBodySetPosition(b1, 0, 1, 0)
    assert ode.dJointGetSliderPosition(j) == pytest.approx(0, abs=1e-15)
    ode.dBodySetPosition(b1, 0, 1.25, 0)
    np.testing.assert_allclose(ode.dJointGetSliderAxis(j), [0, 1, 0], atol=1e-15)
    assert ode.dJointGetSliderPosition(j) == pytest.approx(0.25, abs=1e-15)


# ----------------------------------------------------------------------------- motor
@pytest.mark.parametrize("stepper", ["dWorldStep", "dWorldQuickStep"])
def test_motor_reaches_target_velocity_limited_by_fmax(stepper):
    """From rest, the motor's force is capped at FMax: v grows by F·h/m per
    step until it reaches Vel, then stays there."""
    mass, fmax, vel, h = 2.0, 0.5, 1.0, 0.01
    w = seeded_world(gravity=(0, 0, -G))       # the slider rows carry gravity
    b = box(ode, w, (0, 0, 1), mass=mass)
    j = ode.dJointCreateSlider(w, None)
    ode.dJointAttach(j, b, None)
    ode.dJointSetSliderAxis(j, 1, 0, 0)
    ode.dJointSetSliderParam(j, ode.dParamVel, vel)
    ode.dJointSetSliderParam(j, ode.dParamFMax, fmax)
    dv = fmax * h / mass
    step = getattr(ode, stepper)
    for k in range(1, 451):
        step(w, h)
        expected = min(k * dv, vel)
        assert ode.dJointGetSliderPositionRate(j) == pytest.approx(expected, abs=1e-7), k
    assert ode.dBodyGetPosition(b)[2] == pytest.approx(1.0, abs=1e-9)


def test_motor_between_two_free_bodies_conserves_momentum():
    m1, m2, fmax, h = 1.0, 3.0, 2.0, 0.01
    w = seeded_world()
    b1 = box(ode, w, (0, 0, 0), mass=m1)
    b2 = box(ode, w, (0, 0.5, 0), mass=m2)
    j = ode.dJointCreateSlider(w, None)
    ode.dJointAttach(j, b1, b2)
    ode.dJointSetSliderAxis(j, 0, 1, 0)
    ode.dJointSetSliderParam(j, ode.dParamVel, -0.4)
    ode.dJointSetSliderParam(j, ode.dParamFMax, fmax)
    for k in range(1, 6):
        ode.dWorldStep(w, h)
        # relative acceleration F (1/m1 + 1/m2), pushing body 1 against the axis
        rate = -k * fmax * h * (1 / m1 + 1 / m2)
        assert ode.dJointGetSliderPositionRate(j) == pytest.approx(rate, abs=1e-9)
        p = m1 * ode.dBodyGetLinearVel(b1) + m2 * ode.dBodyGetLinearVel(b2)
        np.testing.assert_allclose(p, 0, atol=1e-12)
    for _ in range(20):
        ode.dWorldStep(w, h)
    assert ode.dJointGetSliderPositionRate(j) == pytest.approx(-0.4, abs=1e-8)


# ----------------------------------------------------------------------------- stops
def test_stop_holds_a_pushed_body():
    w = seeded_world()
    b = box(ode, w, (0, 0, 0))
    j = ode.dJointCreateSlider(w, None)
    ode.dJointAttach(j, b, None)
    ode.dJointSetSliderAxis(j, 1, 0, 0)
    ode.dJointSetSliderParam(j, ode.dParamHiStop, 0.1)
    for _ in range(300):
        ode.dBodyAddForce(b, 5.0, 0, 0)
        ode.dWorldStep(w, 0.01)
    assert ode.dJointGetSliderPosition(j) == pytest.approx(0.1, abs=1e-6)
    assert abs(ode.dJointGetSliderPositionRate(j)) < 1e-6


@pytest.mark.parametrize("bounce", [0.0, 0.5, 1.0])
def test_stop_bounce(bounce):
    """At a stop the row asks for the larger of the ERP correction and
    -bounce·v (v the incoming velocity)."""
    w = seeded_world()
    b = box(ode, w, (0, 0, 0), lvel=(0, 0, -1.0))
    j = ode.dJointCreateSlider(w, None)
    ode.dJointAttach(j, b, None)
    ode.dJointSetSliderAxis(j, 0, 0, 1)
    ode.dJointSetSliderParam(j, ode.dParamLoStop, -0.105)
    ode.dJointSetSliderParam(j, ode.dParamBounce, bounce)
    for _ in range(11):
        ode.dWorldStep(w, 0.01)
        assert ode.dJointGetSliderPositionRate(j) == pytest.approx(-1.0, abs=1e-12)
    # now at -0.11, 0.005 past the stop: ERP 0.2 at 100 steps/s asks for 0.1 m/s
    ode.dWorldStep(w, 0.01)
    assert ode.dJointGetSliderPositionRate(j) == pytest.approx(max(0.1, bounce), abs=1e-6)


@pytest.mark.parametrize("lo, hi, steps, tol", [(-1.0, 0.25, 50, 1e-2), (0.0, 0.0, 500, 1e-4)])
@pytest.mark.parametrize("side", ["left", "right"])
def test_one_body_slider_ends_where_two_body_slider_with_fixed_body_ends(lo, hi, steps, tol,
                                                                          side):
    """ODE's slider.cpp test_Limit_*: a one-body slider kicked by a force of 4
    (once, 1 s steps) ends where a two-body slider whose other body is fixed
    to the world ends."""
    w = seeded_world()
    b1 = box(ode, w, (0, 0, 0), dims=(1, 1, 1))
    b2 = box(ode, w, (0, 0, 0), dims=(1, 1, 1))
    b = box(ode, w, (0, 0, 0), dims=(1, 1, 1))
    ode.dBodyAddForce(b, 4, 0, 0)
    j12 = ode.dJointCreateSlider(w, None)
    fixed = ode.dJointCreateFixed(w, None)
    j = ode.dJointCreateSlider(w, None)
    ode.dJointAttach(j12, b1, b2)
    if side == "left":
        moving = b1
        ode.dJointAttach(fixed, None, b2)
        ode.dJointAttach(j, b, None)
    else:
        moving = b2
        ode.dJointAttach(fixed, b1, None)
        ode.dJointAttach(j, None, b)
    ode.dBodyAddForce(moving, 4, 0, 0)
    ode.dJointSetFixed(fixed)
    for jj in (j12, j):
        ode.dJointSetSliderParam(jj, ode.dParamLoStop, lo)
        ode.dJointSetSliderParam(jj, ode.dParamHiStop, hi)
    for _ in range(steps):
        ode.dWorldStep(w, 1.0)
    np.testing.assert_allclose(ode.dBodyGetPosition(b), ode.dBodyGetPosition(moving), atol=tol)
    if lo == hi == 0:
        np.testing.assert_allclose(ode.dBodyGetPosition(b), 0, atol=1e-4)
    else:
        # with 1 s steps the kicked body overshoots the stop and is pushed back;
        # where it ends, as recorded with ODE 0.16.2
        x = ode.dBodyGetPosition(b)[0]
        assert x == pytest.approx(0.19000002378998265 if side == "left" else 0.734000038445825,
                                  abs=1e-9)


# ----------------------------------------------------------------------------- feedback
@pytest.mark.parametrize("stepper", ["dWorldStep", "dWorldQuickStep"])
def test_feedback_of_horizontal_slider_carries_the_weight(stepper):
    mass = 2.5
    w = seeded_world(gravity=(0, 0, -G))
    b = box(ode, w, (0, 0, 1), mass=mass)
    j = ode.dJointCreateSlider(w, None)
    ode.dJointAttach(j, b, None)
    ode.dJointSetSliderAxis(j, 1, 0, 0)
    fb = ode.dJointFeedback()
    ode.dJointSetFeedback(j, fb)
    for _ in range(5):
        getattr(ode, stepper)(w, 0.01)
    np.testing.assert_allclose(fb.f1, [0, 0, mass * G], atol=1e-6)
    np.testing.assert_allclose(fb.t1, 0, atol=1e-6)
    np.testing.assert_allclose(fb.f2, 0, atol=0)


def test_feedback_of_vertical_slider_resting_on_its_stop():
    m1, m2 = 1.0, 3.0
    w = seeded_world(gravity=(0, 0, -G))
    base = box(ode, w, (0, 0, 0), mass=m1)
    hang = box(ode, w, (0, 0, 1), mass=m2)
    fixed = ode.dJointCreateFixed(w, None)
    ode.dJointAttach(fixed, base, None)
    ode.dJointSetFixed(fixed)
    j = ode.dJointCreateSlider(w, None)
    ode.dJointAttach(j, base, hang)
    # axis +z: the position grows as the hanging body drops away from the base
    ode.dJointSetSliderAxis(j, 0, 0, 1)
    ode.dJointSetSliderParam(j, ode.dParamHiStop, 0.0)
    fb = ode.dJointFeedback()
    ode.dJointSetFeedback(j, fb)
    for _ in range(200):
        ode.dWorldStep(w, 0.01)
    assert ode.dJointGetSliderPosition(j) == pytest.approx(0, abs=1e-6)
    np.testing.assert_allclose(fb.f2, [0, 0, m2 * G], atol=1e-6)
    np.testing.assert_allclose(fb.f1, [0, 0, -m2 * G], atol=1e-6)


# ----------------------------------------------------------------------------- forces
def test_add_slider_force_with_torque_decoupling():
    w = seeded_world()
    b1 = box(ode, w, (0, 0, 0))
    b2 = box(ode, w, (0, 2, 0))
    j = ode.dJointCreateSlider(w, None)
    ode.dJointAttach(j, b1, b2)
    ode.dJointSetSliderAxis(j, 1, 0, 0)
    ode.dJointAddSliderForce(j, 3.0)
    np.testing.assert_allclose(ode.dBodyGetForce(b1), [3, 0, 0])
    np.testing.assert_allclose(ode.dBodyGetForce(b2), [-3, 0, 0])
    # (x2 - x1)/2 x F = (0, 1, 0) x (3, 0, 0) on both bodies
    np.testing.assert_allclose(ode.dBodyGetTorque(b1), [0, 0, -3])
    np.testing.assert_allclose(ode.dBodyGetTorque(b2), [0, 0, -3])


def test_add_slider_force_reversed_pushes_the_other_way():
    w = seeded_world()
    b = box(ode, w, (0, 0, 0))
    j = ode.dJointCreateSlider(w, None)
    ode.dJointAttach(j, None, b)
    ode.dJointSetSliderAxis(j, 0, 1, 0)
    ode.dJointAddSliderForce(j, 2.0)
    np.testing.assert_allclose(ode.dBodyGetForce(b), [0, -2, 0])
    np.testing.assert_allclose(ode.dBodyGetTorque(b), 0)
    ode.dWorldStep(w, 0.1)
    # the position of a reversed slider grows when the body moves against the
    # axis, so the force on "body 1" increases the position
    assert ode.dJointGetSliderPositionRate(j) == pytest.approx(0.2, abs=1e-12)


# ----------------------------------------------------------------------------- vs ODE
def scene(api, quick=False, attach="two", motor=False, bounce=0.0, steps=150, h=0.01):
    """A slider on an oblique axis between two turned boxes (body 2 fixed to the
    world) or on one box, under tilted gravity, with stops, kicked by
    dJointAddSliderForce every 50 steps. Written against the flat API so that
    the real ODE runs the very same code (``api`` = engine.ode or libode).

    Returns the slider position after steps 50, 100 and 150, the final state
    of body 1 (pos, quat, lvel, avel) and the final feedback (f1, t1, f2, t2).
    """
    w = seeded_world(api, (0.3, -0.5, -9.81))
    b1 = box(api, w, (0.1, 0.2, 1.0), 1.5, R=api.dRFromAxisAndAngle(0.53, -0.71, 0.43, 0.47),
              avel=(0.5, -0.2, 0.3))
    b2 = box(api, w, (0.6, -0.1, 1.4), 0.8, R=api.dRFromAxisAndAngle(1.2, 0.87, -0.33, 0.47),
              lvel=(0.2, 0.1, 0.5))
    j = api.dJointCreateSlider(w, None)
    if attach == "two":
        api.dJointAttach(j, b1, b2)
        f = api.dJointCreateFixed(w, None)
        api.dJointAttach(f, b2, None)
        api.dJointSetFixed(f)
    elif attach == "one":
        api.dJointAttach(j, b1, None)
    else:
        api.dJointAttach(j, None, b1)
    api.dJointSetSliderAxis(j, 0.3, 0.4, 1.0)
    api.dJointSetSliderParam(j, api.dParamLoStop, -0.3)
    api.dJointSetSliderParam(j, api.dParamHiStop, 0.2)
    api.dJointSetSliderParam(j, api.dParamBounce, bounce)
    if motor:
        api.dJointSetSliderParam(j, api.dParamVel, 0.7)
        api.dJointSetSliderParam(j, api.dParamFMax, 12.0)
    fb = api.dJointFeedback()
    api.dJointSetFeedback(j, fb)
    positions = []
    for i in range(steps):
        if i % 50 == 0:
            api.dJointAddSliderForce(j, 30.0)
        step_fn(quick, api)(w, h)
        if (i + 1) % 50 == 0:
            positions.append(api.dJointGetSliderPosition(j))
    return {"pos": np.array(positions), "body1": body_state(api, b1),
            "fb": np.concatenate([fb.f1, fb.t1, fb.f2, fb.t2])}


# recorded with ODE 0.16.2 (libode8, double) running ``scene``
REFERENCE = {
    "two_step": {"kw": {},
        "pos": [-0.30003122922491526, -0.3000000304763212, -0.3000000304763216],
        "body1": [0.019501544691147468, 0.09266872617630957, 0.7316718152845413, 0.9725143413285116, 0.12530706245979015, -0.1678641780635064, 0.1016642205062002, 2.0399497947242042e-07, 2.719932888558675e-07, 6.799832393649828e-07, -1.2571359630747727e-14, -9.445449048951816e-15, 8.76569636645088e-15],
        "fb": [-0.4500076498116248, 0.7499898002515915, 14.714974500628113, 3.9968028886505635e-15, 7.549516567451064e-15, -3.774758283725532e-15, 0.4500076498116248, -0.7499898002515915, -14.714974500628113, -3.3363546795862127, -8.842772796308244, 0.3486655226385793],
    },
    "two_quick": {"kw": {'quick': True},
        "pos": [-0.30191496999952017, -0.30211167085688795, -0.30117294092404706],
        "body1": [0.023688878979209436, 0.09123489016798379, 0.727413044942445, 0.971839011523411, 0.1239504282244177, -0.17207739178323697, 0.10273557446795771, 0.027677754426555592, -0.004757030664212366, 0.02017038625287497, -0.008041686903664892, -0.008175713059498617, 0.06773960289586536],
        "fb": [1.61182189158168, -0.49082579230433865, 16.249681348181397, 0.05240750070765543, -0.1332211674177528, 0.21560371682652746, -1.61182189158168, 0.49082579230433865, -16.249681348181397, -2.8310650167083704, -8.152592877313847, -0.19026108017524201],
    },
    "two_motor_bounce": {"kw": {'motor': True, 'bounce': 0.5},
        "pos": [-0.01127151106654399, -0.14072245594363383, -0.2710717628971442],
        "body1": [0.027263813422119913, 0.10301841781913902, 0.7575460443930887, 0.9725143413285463, 0.1253070624586752, -0.1678641780636867, 0.10166422050694277, 0.05181027287756212, 0.06908036403202353, 0.17270090987196007, 1.374676717202551e-10, 1.2423521510836734e-10, -9.093525331979598e-11],
        "fb": [-0.8012621094851013, 0.28165051350660697, 13.544126292255317, -9.710054982292604e-11, -6.679545805354792e-11, 1.82514003910228e-11, 0.8012621094851013, -0.28165051350660697, -13.544126292255317, -2.9217846583214904, -8.280386290484028, -0.0006600860146501741],
    },
    "one_quick": {"kw": {'attach': 'one', 'quick': True},
        "pos": [-0.30003122922622083, -0.30000003047647467, -0.30000003047647467],
        "body1": [0.019501544652464044, 0.09266872619651972, 0.7316718154269499, 0.972514341332643, 0.12530706247510914, -0.16786417803269335, 0.10166422049867344, 2.039949702978272e-07, 2.719932938365435e-07, 6.799832351356283e-07, -1.7937535983040592e-15, 2.1812713894207412e-15, -9.924173620646523e-16],
        "fb": [-0.45000764981147245, 0.7499898002514662, 14.714974500628557, 1.035220541738321e-31, -1.1710859688099745e-30, 3.3755789666540023e-31, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0],
    },
    "reversed_motor": {"kw": {'attach': 'reversed', 'motor': True, 'bounce': 0.3},
        "pos": [0.20000994021868407, 0.20000000026841552, 0.20000000012654795],
        "body1": [0.046334368526154704, 0.12844582469478957, 0.8211145616727739, 0.9725143413326431, 0.12530706247510917, -0.16786417803269335, 0.10166422049867345, 1.7208645071746585e-14, 2.3229652730823568e-14, 5.69729612154701e-14, -2.0982798624047512e-15, 1.0696636320688434e-15, -1.2793592246981997e-15],
        "fb": [2.7699378875990304, 5.043250516798763, 25.44812629199692, 1.598668505282317e-30, -5.448391661476456e-31, 6.260096416508397e-31, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0],
    },
    "reversed_quick": {"kw": {'attach': 'reversed', 'quick': True},
        "pos": [0.20000651820435897, 0.2000000001597306, 0.20000000006670188],
        "body1": [0.04633436854225979, 0.12844582471624738, 0.8211145617262692, 0.972514341332643, 0.12530706247510914, -0.16786417803269335, 0.10166422049867344, 1.237942040543949e-14, 1.648854663915955e-14, 4.106437412332298e-14, -1.7937535983040592e-15, 2.1812713894207412e-15, -9.92417362064652e-16],
        "fb": [-0.4500000000004931, 0.7499999999993827, 14.714999999998355, 4.7567132003516245e-32, -1.2034019969220134e-30, 1.041468921036174e-31, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0],
    },
}


@pytest.mark.parametrize("case", sorted(REFERENCE))
def test_matches_ode_trajectory(case):
    kw = dict(REFERENCE[case]["kw"])
    got = scene(ode, **kw)
    exp = REFERENCE[case]
    np.testing.assert_allclose(got["pos"], exp["pos"], rtol=0, atol=1e-9)
    np.testing.assert_allclose(got["body1"], exp["body1"], rtol=0, atol=1e-9)
    np.testing.assert_allclose(got["fb"], exp["fb"], rtol=0, atol=1e-7)


# ----------------------------------------------------------------------------- errors
def test_errors():
    w = seeded_world()
    b = box(ode, w, (0, 0, 0))
    j = ode.dJointCreateSlider(w, None)
    ode.dJointAttach(j, b, None)
    h = ode.dJointCreateHinge(w, None)
    with pytest.raises(ode.ODEError, match="dJointGetSliderPosition"):
        ode.dJointGetSliderPosition(h)
    with pytest.raises(ode.ODEError, match="dJointSetSliderAxis"):
        ode.dJointSetSliderAxis(h, 1, 0, 0)
    with pytest.raises(ode.ODEError, match="dJointSetSliderParam"):
        ode.dJointSetSliderParam(j, ode.dParamLoStop2, 0.0)     # a slider has one group
    with pytest.raises(ode.ODEError, match="dJointGetSliderParam"):
        ode.dJointGetSliderParam(j, 14)
    with pytest.raises(ode.ODEError, match="value"):
        ode.dJointSetSliderParam(j, ode.dParamVel, math.nan)
    with pytest.raises(ode.ODEError, match="dJointSetSliderAxis"):
        ode.dJointSetSliderAxis(j, 0, 0, 0)
    with pytest.raises(ode.ODEError, match="dJointSetSliderAxis"):
        ode.dJointSetSliderAxis(j, math.nan, 0, 1)
    with pytest.raises(ode.ODEError, match="dJointSetSliderAxisDelta"):
        ode.dJointSetSliderAxisDelta(j, 1, 0, 0, 0, math.inf, 0)
    with pytest.raises(ode.ODEError, match="dJointAddSliderForce"):
        ode.dJointAddSliderForce(j, math.nan)
    with pytest.raises(ode.ODEError):
        ode.dJointCreateSlider(None, None)
    # infinite stops are allowed; FMax < 0 and fudge outside [0, 1] are ignored
    ode.dJointSetSliderParam(j, ode.dParamHiStop, math.inf)
    ode.dJointSetSliderParam(j, ode.dParamFMax, -1.0)
    ode.dJointSetSliderParam(j, ode.dParamFudgeFactor, 2.0)
    assert ode.dJointGetSliderParam(j, ode.dParamFMax) == 0
    assert ode.dJointGetSliderParam(j, ode.dParamFudgeFactor) == 1
    ode.dJointDestroy(j)
    with pytest.raises(ode.ODEError, match="destroyed"):
        ode.dJointGetSliderPosition(j)
