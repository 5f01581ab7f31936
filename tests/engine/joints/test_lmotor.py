"""Linear motor: axes and their modes, rows, motors reaching their targets,
momentum, feedback and agreement with ODE 0.16.2 (reference numbers
recorded from the real library running ``scene``)."""

from __future__ import annotations

import math

import numpy as np
import pytest

from engine import ode
from engine.ode.joints import lmotor
from tests.engine.joints.setup_helpers import (
    G,
    body_state,
    box,
    info1_counts,
    seeded_world,
    step_fn,
)


def test_defaults():
    w = seeded_world()
    j = ode.dJointCreateLMotor(w, None)
    assert ode.dJointGetType(j) == ode.dJointTypeLMotor
    assert ode.dJointGetLMotorNumAxes(j) == 0
    for a in range(3):
        np.testing.assert_array_equal(ode.dJointGetLMotorAxis(j, a), 0)
    for p in (ode.dParamFMax, ode.dParamFMax2, ode.dParamFMax3):
        assert ode.dJointGetLMotorParam(j, p) == 0
    assert ode.dJointGetLMotorParam(j, ode.dParamLoStop3) == -math.inf
    assert info1_counts(lmotor, j) == (0, 0)


def test_axes_are_normalized_and_stored_in_their_frame():
    w = seeded_world()
    R1 = ode.dRFromAxisAndAngle(0, 0, 1, math.pi / 2)
    R2 = ode.dRFromAxisAndAngle(1, 0, 0, math.pi / 2)
    b1 = box(ode, w, (0, 0, 0), R=R1)
    b2 = box(ode, w, (1, 0, 0), R=R2)
    j = ode.dJointCreateLMotor(w, None)
    ode.dJointAttach(j, b1, b2)
    ode.dJointSetLMotorAxis(j, 0, 0, 0, 3, 4)
    ode.dJointSetLMotorAxis(j, 1, 1, 2, 0, 0)
    ode.dJointSetLMotorAxis(j, 2, 2, 0, 0, 5)
    np.testing.assert_allclose(ode.dJointGetLMotorAxis(j, 0), [0, 0.6, 0.8])
    # ODE returns the stored vector: body 1's frame (+x world = -y local)
    np.testing.assert_allclose(ode.dJointGetLMotorAxis(j, 1), [0, -1, 0], atol=1e-15)
    # body 2's frame (+z world = +y local after +90° about x... R2ᵀ z)
    np.testing.assert_allclose(ode.dJointGetLMotorAxis(j, 2), [0, 1, 0], atol=1e-15)
    # a body-2 axis of a joint with no body 2 is a body-1 axis
    j1 = ode.dJointCreateLMotor(w, None)
    ode.dJointAttach(j1, b1, None)
    ode.dJointSetLMotorAxis(j1, 0, 2, 1, 0, 0)
    assert j1.di[lmotor.I_AXIS_FRAME] == 1
    np.testing.assert_allclose(ode.dJointGetLMotorAxis(j1, 0), [0, -1, 0], atol=1e-15)


def test_rows_count_powered_axes_in_use():
    w = seeded_world()
    b = box(ode, w, (0, 0, 0))
    j = ode.dJointCreateLMotor(w, None)
    ode.dJointAttach(j, b, None)
    for a in range(3):
        ode.dJointSetLMotorAxis(j, a, 0, *np.eye(3)[a])
    ode.dJointSetLMotorParam(j, ode.dParamFMax, 1.0)
    ode.dJointSetLMotorParam(j, ode.dParamFMax3, 1.0)
    assert info1_counts(lmotor, j) == (0, 0)              # no axes in use yet
    ode.dJointSetLMotorNumAxes(j, 1)
    assert info1_counts(lmotor, j) == (1, 0)
    ode.dJointSetLMotorNumAxes(j, 2)
    assert info1_counts(lmotor, j) == (1, 0)              # axis 1 has no FMax
    ode.dJointSetLMotorNumAxes(j, 3)
    assert info1_counts(lmotor, j) == (2, 0)
    # ODE's LMotor has no working stops: they never add rows
    ode.dJointSetLMotorParam(j, ode.dParamLoStop2, 0.0)
    ode.dJointSetLMotorParam(j, ode.dParamHiStop2, 0.0)
    assert info1_counts(lmotor, j) == (2, 0)
    ode.dWorldStep(w, 0.01)
    assert w.joints.nrows[j.index] == 2


@pytest.mark.parametrize("stepper", ["dWorldStep", "dWorldQuickStep"])
def test_motor_reaches_target_limited_by_fmax(stepper):
    """v grows by F·h/m per step until it reaches Vel, on each axis."""
    mass, h = 2.0, 0.01
    w = seeded_world()
    b = box(ode, w, (0, 0, 0), mass=mass)
    j = ode.dJointCreateLMotor(w, None)
    ode.dJointAttach(j, b, None)
    ode.dJointSetLMotorNumAxes(j, 2)
    ode.dJointSetLMotorAxis(j, 0, 0, 1, 0, 0)
    ode.dJointSetLMotorAxis(j, 1, 0, 0, 1, 0)
    ode.dJointSetLMotorParam(j, ode.dParamVel, 1.0)
    ode.dJointSetLMotorParam(j, ode.dParamFMax, 0.5)
    ode.dJointSetLMotorParam(j, ode.dParamVel2, -0.2)
    ode.dJointSetLMotorParam(j, ode.dParamFMax2, 0.3)
    for k in range(1, 451):
        getattr(ode, stepper)(w, h)
        v = ode.dBodyGetLinearVel(b)
        assert v[0] == pytest.approx(min(k * 0.5 * h / mass, 1.0), abs=1e-7), k
        assert v[1] == pytest.approx(max(-k * 0.3 * h / mass, -0.2), abs=1e-7), k
        assert v[2] == 0


def test_body_relative_axis_turns_with_the_body():
    w = seeded_world()
    b = box(ode, w, (0, 0, 0), avel=(0, 0, 1.0), dims=(1, 1, 1))
    j = ode.dJointCreateLMotor(w, None)
    ode.dJointAttach(j, b, None)
    ode.dJointSetLMotorNumAxes(j, 1)
    ode.dJointSetLMotorAxis(j, 0, 1, 1, 0, 0)
    ode.dJointSetLMotorParam(j, ode.dParamVel, 0.5)
    ode.dJointSetLMotorParam(j, ode.dParamFMax, 1e3)
    for _ in range(100):
        # the velocity along the body's x axis (as it is when the step starts)
        # is driven to 0.5
        x_axis = ode.dBodyGetRotation(b).reshape(3, 4)[:, 0]
        ode.dWorldStep(w, 0.01)
        assert x_axis @ ode.dBodyGetLinearVel(b) == pytest.approx(0.5, abs=1e-7)
    # meanwhile the body turned by 1 rad, taking the axis and the velocity
    # along (value recorded with ODE 0.16.2)
    assert ode.dBodyGetLinearVel(b)[1] == pytest.approx(0.14707694518883238, abs=1e-9)


def test_two_bodies_relative_velocity_and_momentum():
    m1, m2, fmax, h = 1.0, 3.0, 2.0, 0.01
    w = seeded_world()
    b1 = box(ode, w, (0, 0, 0), mass=m1)
    b2 = box(ode, w, (0, 0, 1), mass=m2)
    j = ode.dJointCreateLMotor(w, None)
    ode.dJointAttach(j, b1, b2)
    ode.dJointSetLMotorNumAxes(j, 1)
    ode.dJointSetLMotorAxis(j, 0, 0, 0, 0, 1)
    ode.dJointSetLMotorParam(j, ode.dParamVel, 0.6)
    ode.dJointSetLMotorParam(j, ode.dParamFMax, fmax)
    fb = ode.dJointFeedback()
    ode.dJointSetFeedback(j, fb)
    for k in range(1, 6):
        ode.dWorldStep(w, h)
        rel = ode.dBodyGetLinearVel(b1)[2] - ode.dBodyGetLinearVel(b2)[2]
        assert rel == pytest.approx(k * fmax * h * (1 / m1 + 1 / m2), abs=1e-9)
        p = m1 * ode.dBodyGetLinearVel(b1) + m2 * ode.dBodyGetLinearVel(b2)
        np.testing.assert_allclose(p, 0, atol=1e-12)
        # the motor pushes body 1 up and body 2 down with FMax; the centres lie
        # on the axis, so no torque
        np.testing.assert_allclose(fb.f1, [0, 0, fmax], atol=1e-9)
        np.testing.assert_allclose(fb.f2, [0, 0, -fmax], atol=1e-9)
        np.testing.assert_allclose(fb.t1, 0, atol=1e-9)
        np.testing.assert_allclose(fb.t2, 0, atol=1e-9)
    for _ in range(30):
        ode.dWorldStep(w, h)
    rel = ode.dBodyGetLinearVel(b1)[2] - ode.dBodyGetLinearVel(b2)[2]
    assert rel == pytest.approx(0.6, abs=1e-8)


def test_pair_force_acts_between_the_centres():
    """Body centres off the axis: the pair of forces acts at the midpoint of
    the centres, so each body also gets the torque (x2 - x1)/2 x F."""
    w = seeded_world()
    b1 = box(ode, w, (0, 0, 0))
    b2 = box(ode, w, (0, 1, 0))
    j = ode.dJointCreateLMotor(w, None)
    ode.dJointAttach(j, b1, b2)
    ode.dJointSetLMotorNumAxes(j, 1)
    ode.dJointSetLMotorAxis(j, 0, 0, 0, 0, 1)
    ode.dJointSetLMotorParam(j, ode.dParamVel, 0.6)
    ode.dJointSetLMotorParam(j, ode.dParamFMax, 2.0)
    fb = ode.dJointFeedback()
    ode.dJointSetFeedback(j, fb)
    ode.dWorldStep(w, 0.01)
    np.testing.assert_allclose(fb.f1, [0, 0, 2.0], atol=1e-9)
    np.testing.assert_allclose(fb.t1, [1.0, 0, 0], atol=1e-9)
    np.testing.assert_allclose(fb.t2, [1.0, 0, 0], atol=1e-9)
    # total angular momentum about the origin is conserved (zero)
    L = np.zeros(3)
    for b in (b1, b2):
        I = ode.dBodyGetMass(b).I.reshape(3, 4)[:, :3]
        L += np.cross(ode.dBodyGetPosition(b), ode.dBodyGetLinearVel(b))
        L += I @ ode.dBodyGetAngularVel(b)
    np.testing.assert_allclose(L, 0, atol=1e-12)


@pytest.mark.parametrize("stepper", ["dWorldStep", "dWorldQuickStep"])
def test_feedback_of_a_motor_holding_a_weight(stepper):
    """A vertical motor with Vel 0 and enough FMax holds a body against gravity."""
    mass = 1.5
    w = seeded_world(gravity=(0, 0, -G))
    b = box(ode, w, (0, 0, 1), mass=mass)
    j = ode.dJointCreateLMotor(w, None)
    ode.dJointAttach(j, b, None)
    ode.dJointSetLMotorNumAxes(j, 1)
    ode.dJointSetLMotorAxis(j, 0, 0, 0, 0, 1)
    ode.dJointSetLMotorParam(j, ode.dParamFMax, 100.0)
    fb = ode.dJointFeedback()
    ode.dJointSetFeedback(j, fb)
    for _ in range(10):
        getattr(ode, stepper)(w, 0.01)
    np.testing.assert_allclose(fb.f1, [0, 0, mass * G], atol=1e-6)
    assert ode.dBodyGetPosition(b)[2] == pytest.approx(1.0, abs=1e-9)


# ----------------------------------------------------------------------------- vs ODE
def scene(api, quick=False, attach="two", num=3, steps=150, h=0.01):
    """Two turned, spinning boxes under tilted gravity driven by an LMotor
    with a world axis, a body-1 axis and a body-2 axis (stops set too, which
    ODE ignores), or one box attached as (b, None) / (None, b). Runs on
    engine.ode or libode alike. Returns the final states, feedback and the
    axes as read back right after setting them."""
    w = seeded_world(api, (0.3, -0.5, -9.81))
    b1 = box(api, w, (0.1, 0.2, 1.0), 1.5, R=api.dRFromAxisAndAngle(0.53, -0.71, 0.43, 0.47),
              avel=(0.5, -0.2, 0.3))
    b2 = box(api, w, (0.6, -0.1, 1.4), 0.8, R=api.dRFromAxisAndAngle(1.2, 0.87, -0.33, 0.47),
              lvel=(0.2, 0.1, 0.5))
    j = api.dJointCreateLMotor(w, None)
    if attach == "two":
        api.dJointAttach(j, b1, b2)
    elif attach == "one":
        api.dJointAttach(j, b1, None)
    else:
        api.dJointAttach(j, None, b1)
    api.dJointSetLMotorNumAxes(j, num)
    api.dJointSetLMotorAxis(j, 0, 0, 1, 0, 0)
    api.dJointSetLMotorAxis(j, 1, 1, 0, 1, 1)
    api.dJointSetLMotorAxis(j, 2, 2, 0.3, -0.2, 1)
    for g, (v, f) in enumerate([(1.0, 5.0), (-0.5, 2.0), (0.3, 20.0)]):
        api.dJointSetLMotorParam(j, api.dParamVel + api.dParamGroup * g, v)
        api.dJointSetLMotorParam(j, api.dParamFMax + api.dParamGroup * g, f)
    api.dJointSetLMotorParam(j, api.dParamLoStop, -0.01)
    api.dJointSetLMotorParam(j, api.dParamHiStop, 0.01)
    axes = np.concatenate([api.dJointGetLMotorAxis(j, a) for a in range(3)])
    fb = api.dJointFeedback()
    api.dJointSetFeedback(j, fb)
    for _ in range(steps):
        step_fn(quick, api)(w, h)
    return {"axes": axes, "body1": body_state(api, b1), "body2": body_state(api, b2),
            "fb": np.concatenate([fb.f1, fb.t1, fb.f2, fb.t2])}


# recorded with ODE 0.16.2 (libode8, double) running ``scene``
REFERENCE = {
    "two_step": {"kw": {},
        "axes": [1.0, 0.0, 0.0, 0.3589626312558947, 0.8184897617740903, 0.44857590130638736, 0.018393554191184124, 0.19117315080535108, 0.9813839735676196],
        "body1": [0.7894334760131358, -0.5096427003507963, -9.9856542855486, 0.5894793610593895, 0.46942963691164186, 0.1737069770710967, 0.6340156031130777, 0.6707230008378768, -0.819877279148537, -14.703234769218927, -0.09901619176322858, 0.47623124797065425, 0.8463527714928866],
        "body2": [0.5840934824753713, -0.24738868684225707, -9.192645089596372, 0.04762349903331966, -0.023130045145881212, 0.9238270790063111, 0.3791312852377653, 0.23614437342898112, -0.5189801015964941, -14.237059807714507, -1.195144130459618, 1.599177620677608, 1.1027704716844833],
        "fb": [-0.000500567378997111, 0.03933237379496034, -0.11014669116603004, -0.02978127999386397, -0.011266733944292586, -0.0038879048398291626, 0.000500567378997111, -0.03933237379496034, 0.11014669116603004, -0.02978127999386397, -0.011266733944292586, -0.0038879048398291626],
    },
    "two_quick": {"kw": {'quick': True},
        "axes": [1.0, 0.0, 0.0, 0.3589626312558947, 0.8184897617740903, 0.44857590130638736, 0.018393554191184124, 0.19117315080535108, 0.9813839735676196],
        "body1": [0.78943539983312, -0.509647690647169, -9.985658142147647, 0.5894874217793626, 0.46944014516540916, 0.17370305361124175, 0.6340014028668463, 0.6707248032529243, -0.8198844346714528, -14.703245744459375, -0.098975962868854, 0.4762312389148661, 0.8463333677615631],
        "body2": [0.5840898753129014, -0.24737933003655935, -9.192637858473173, 0.04763550196547424, -0.023100646186975597, 0.9238250141026064, 0.3791366012620786, 0.23614099390076815, -0.5189666849910276, -14.23703922913874, -1.1950467919535956, 1.599155388103846, 1.1027421359667082],
        "fb": [-0.0004956504845460212, 0.039319912857499514, -0.11015834962029307, -0.02977887009423598, -0.011266271931983644, -0.003887394107474549, 0.0004956504845460212, -0.039319912857499514, 0.11015834962029307, -0.02977887009423598, -0.011266271931983644, -0.003887394107474549],
    },
    "one_step": {"kw": {'attach': 'one'},
        "axes": [1.0, 0.0, 0.0, 0.3589626312558947, 0.8184897617740903, 0.44857590130638736, 0.5623032886852182, -0.04885486061275068, 0.825486652907421],
        "body1": [1.533156546890498, -3.1011221724268525, -1.3544246178855024, 0.7796818359664692, 0.4908519754099109, -0.31835271023271183, 0.22318630062714734, 1.0000000000209244, -4.3399036745767035, -4.93032496303235, 0.5429355158715266, -0.1954082338387191, 0.20721761026779054],
        "body2": [1.2397500000000004, -0.5162500000000001, -8.959825000000002, 0.972514341332643, 0.18400667927722802, 0.13340484247599033, -0.050601836801237705, 0.6500000000000004, -0.6500000000000006, -14.215000000000021, 0.0, 0.0, 0.0],
        "fb": [-0.45000000037388166, -2.3284131079454853, 3.724170235395141, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0],
    },
    "reversed_step": {"kw": {'attach': 'reversed'},
        "axes": [1.0, 0.0, 0.0, 0.3589626312558947, 0.8184897617740903, 0.44857590130638736, 0.5623032886852182, -0.04885486061275068, 0.825486652907421],
        "body1": [1.533156546890498, -3.1011221724268525, -1.3544246178855024, 0.7796818359664692, 0.4908519754099109, -0.31835271023271183, 0.22318630062714734, 1.0000000000209244, -4.3399036745767035, -4.93032496303235, 0.5429355158715266, -0.1954082338387191, 0.20721761026779054],
        "body2": [1.2397500000000004, -0.5162500000000001, -8.959825000000002, 0.972514341332643, 0.18400667927722802, 0.13340484247599033, -0.050601836801237705, 0.6500000000000004, -0.6500000000000006, -14.215000000000021, 0.0, 0.0, 0.0],
        "fb": [-0.45000000037388166, -2.3284131079454853, 3.724170235395141, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0],
    },
    "two_num2_quick": {"kw": {'num': 2, 'quick': True},
        "axes": [1.0, 0.0, 0.0, 0.3589626312558947, 0.8184897617740903, 0.44857590130638736, 0.018393554191184124, 0.19117315080535108, 0.9813839735676196],
        "body1": [0.5868580828895054, -0.33890758723319203, -10.02949311905515, 0.184571446713572, 0.1722284186469241, 0.3418130362293197, 0.9052262706816084, 0.5780804860239319, -0.7263675696353729, -14.564148101483026, -0.511961917476999, 0.08391341579577552, 1.9641231220916264],
        "body2": [0.9639223445821784, -0.5675170239377659, -9.110447276771607, -0.218213211895623, -0.9192283084808882, 0.3263737265516919, 0.029706929466413505, 0.40984908870512793, -0.6943108069336774, -14.497847309719386, -2.331344879017813, 0.34086562349589533, 3.5983964112087445],
        "fb": [-0.08835991137421223, 0.00790644031255612, -0.04675064817671915, 0.0017207435128054267, -0.031720788972538716, -0.008616848849775122, 0.08835991137421223, -0.00790644031255612, 0.04675064817671915, 0.0017207435128054267, -0.031720788972538716, -0.008616848849775122],
    },
}


@pytest.mark.parametrize("case", sorted(REFERENCE))
def test_matches_ode_trajectory(case):
    exp = REFERENCE[case]
    got = scene(ode, **exp["kw"])
    np.testing.assert_allclose(got["axes"], exp["axes"], rtol=0, atol=1e-15)
    for key in ("body1", "body2"):
        np.testing.assert_allclose(got[key], exp[key], rtol=0, atol=1e-9)
    np.testing.assert_allclose(got["fb"], exp["fb"], rtol=0, atol=1e-7)


# ----------------------------------------------------------------------------- errors
def test_errors():
    w = seeded_world()
    b = box(ode, w, (0, 0, 0))
    j = ode.dJointCreateLMotor(w, None)
    s = ode.dJointCreateSlider(w, None)
    with pytest.raises(ode.ODEError, match="dJointSetLMotorNumAxes"):
        ode.dJointSetLMotorNumAxes(s, 1)
    with pytest.raises(ode.ODEError, match="num"):
        ode.dJointSetLMotorNumAxes(j, 4)
    with pytest.raises(ode.ODEError, match="num"):
        ode.dJointSetLMotorNumAxes(j, -1)
    with pytest.raises(ode.ODEError, match="anum"):
        ode.dJointSetLMotorAxis(j, 3, 0, 1, 0, 0)
    with pytest.raises(ode.ODEError, match="anum"):
        ode.dJointGetLMotorAxis(j, -1)
    with pytest.raises(ode.ODEError, match="rel"):
        ode.dJointSetLMotorAxis(j, 0, 3, 1, 0, 0)
    # a body-relative axis needs a body
    with pytest.raises(ode.ODEError, match="rel"):
        ode.dJointSetLMotorAxis(j, 0, 1, 1, 0, 0)
    ode.dJointAttach(j, b, None)
    with pytest.raises(ode.ODEError, match="x, y, z"):
        ode.dJointSetLMotorAxis(j, 0, 1, 0, 0, 0)
    with pytest.raises(ode.ODEError, match="x, y, z"):
        ode.dJointSetLMotorAxis(j, 0, 0, math.nan, 0, 1)
    with pytest.raises(ode.ODEError, match="dJointSetLMotorParam"):
        ode.dJointSetLMotorParam(j, ode.dParamGroup * 3, 1.0)    # three groups only
    with pytest.raises(ode.ODEError, match="value"):
        ode.dJointSetLMotorParam(j, ode.dParamVel2, math.nan)
    # a failed call changes nothing
    np.testing.assert_array_equal(ode.dJointGetLMotorAxis(j, 0), 0)
    assert ode.dJointGetLMotorNumAxes(j) == 0
