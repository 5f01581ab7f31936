"""Plane-2D joint: rows, what it constrains, its x/y/angle motors, feedback and
agreement with ODE 0.16.2 (reference numbers recorded from the real library
running ``scene``)."""

from __future__ import annotations

import math

import numpy as np
import pytest

from engine import ode
from engine.ode.joints import plane2d
from tests.engine.joints.setup_helpers import (
    BRICK,
    G,
    body_state,
    box,
    info1_counts,
    seeded_world,
    step_fn,
)

DIMS = BRICK            # side lengths (m) of every box here: box()'s default


def planar(gravity=(0.0, 0.0, 0.0), pos=(0, 0, 0), mass=1.0, **kw):
    w = seeded_world(ode, gravity)
    b = box(ode, w, pos, mass, **kw)
    j = ode.dJointCreatePlane2D(w, None)
    ode.dJointAttach(j, b, None)
    return w, j, b


def test_rows_count_only_powered_motors():
    w, j, b = planar()
    assert ode.dJointGetType(j) == ode.dJointTypePlane2D
    assert info1_counts(plane2d, j) == (3, 3)
    ode.dJointSetPlane2DXParam(j, ode.dParamFMax, 1.0)
    assert info1_counts(plane2d, j) == (4, 3)
    ode.dJointSetPlane2DAngleParam(j, ode.dParamFMax, 1.0)
    assert info1_counts(plane2d, j) == (5, 3)
    ode.dJointSetPlane2DYParam(j, ode.dParamFMax, 1.0)
    assert info1_counts(plane2d, j) == (6, 3)
    ode.dJointSetPlane2DXParam(j, ode.dParamFMax, 0.0)
    assert info1_counts(plane2d, j) == (5, 3)
    # stops are not implemented by ODE's plane-2D: they never add a row
    ode.dJointSetPlane2DYParam(j, ode.dParamFMax, 0.0)
    ode.dJointSetPlane2DYParam(j, ode.dParamLoStop, 1.0)
    ode.dJointSetPlane2DYParam(j, ode.dParamHiStop, 1.0)
    assert info1_counts(plane2d, j) == (4, 3)
    ode.dWorldStep(w, 0.01)
    assert w.joints.nrows[j.index] == 4


def test_motion_stays_in_the_plane():
    w, j, b = planar(gravity=(0.3, -0.5, -G), lvel=(0.5, 0.1, 0.7), avel=(1, 2, 3))
    ode.dWorldStep(w, 0.01)
    # no velocity along z, no angular velocity about x or y
    v = ode.dBodyGetLinearVel(b)
    # (CFM 1e-10 lets the rows give a few nm/s under the weight)
    np.testing.assert_allclose(v, [0.5 + 0.003, 0.1 - 0.005, 0], atol=1e-7)
    np.testing.assert_allclose(ode.dBodyGetAngularVel(b)[:2], 0, atol=1e-9)
    assert ode.dBodyGetAngularVel(b)[2] > 2.9      # free to spin about z
    for _ in range(100):
        ode.dWorldStep(w, 0.01)
    assert abs(ode.dBodyGetPosition(b)[2]) < 1e-9


def test_z_drift_is_pulled_back_by_erp_but_tilt_is_not():
    R = ode.dRFromAxisAndAngle(1, 0, 0, 0.2)
    w, j, b = planar(pos=(0, 0, 0.05), R=R)
    ode.dWorldStep(w, 0.01)
    # v_z = -erp·z/h, so z shrinks by the factor 1 - erp per step
    assert ode.dBodyGetPosition(b)[2] == pytest.approx(0.05 * 0.8, abs=1e-9)
    ode.dWorldSetERP(w, 0.5)
    ode.dWorldStep(w, 0.01)
    assert ode.dBodyGetPosition(b)[2] == pytest.approx(0.05 * 0.8 * 0.5, abs=1e-9)
    # the tilt is left to the application, as in ODE
    np.testing.assert_allclose(ode.dBodyGetRotation(b), R, atol=1e-12)


@pytest.mark.parametrize("stepper", ["dWorldStep", "dWorldQuickStep"])
def test_feedback_carries_the_weight(stepper):
    w, j, b = planar(gravity=(0, 0, -G), mass=2.0)
    fb = ode.dJointFeedback()
    ode.dJointSetFeedback(j, fb)
    for _ in range(3):
        getattr(ode, stepper)(w, 0.01)
    np.testing.assert_allclose(fb.f1, [0, 0, 2.0 * G], atol=1e-6)
    np.testing.assert_allclose(fb.t1, 0, atol=1e-6)


@pytest.mark.parametrize("stepper", ["dWorldStep", "dWorldQuickStep"])
def test_motors_reach_their_targets_limited_by_fmax(stepper):
    mass, h = 1.5, 0.01
    izz = mass * (DIMS[0] ** 2 + DIMS[1] ** 2) / 12
    w, j, b = planar(mass=mass, lvel=(0.5, 0, 0))
    ode.dJointSetPlane2DXParam(j, ode.dParamVel, 2.0)
    ode.dJointSetPlane2DXParam(j, ode.dParamFMax, 1.0)
    ode.dJointSetPlane2DYParam(j, ode.dParamVel, -1.0)
    ode.dJointSetPlane2DYParam(j, ode.dParamFMax, 200.0)
    ode.dJointSetPlane2DAngleParam(j, ode.dParamVel, 3.0)
    ode.dJointSetPlane2DAngleParam(j, ode.dParamFMax, 0.1)
    for k in range(1, 301):
        getattr(ode, stepper)(w, h)
        v = ode.dBodyGetLinearVel(b)
        assert v[0] == pytest.approx(min(0.5 + k * 1.0 * h / mass, 2.0), abs=1e-7), k
        # FMax 200 N is enough to reach -1 m/s in one step
        assert v[1] == pytest.approx(-1.0, abs=1e-7), k
        wz = ode.dBodyGetAngularVel(b)[2]
        assert wz == pytest.approx(min(k * 0.1 * h / izz, 3.0), abs=1e-7), k


# ----------------------------------------------------------------------------- vs ODE
def scene(api, quick=False, motors=True, steps=150, h=0.01):
    """A spinning, drifting box on a plane-2D joint under tilted gravity with
    x, y and angle motors (stops set too, which ODE ignores). Runs on
    engine.ode or libode alike. Returns the final state and feedback."""
    w = seeded_world(api, (0.3, -0.5, -9.81))
    b = box(api, w, (0.1, 0.2, 0.05), 1.5, lvel=(0.5, 0.1, 0.2), avel=(0.3, 0.2, 1.0))
    j = api.dJointCreatePlane2D(w, None)
    api.dJointAttach(j, b, None)
    if motors:
        api.dJointSetPlane2DXParam(j, api.dParamVel, 2.0)
        api.dJointSetPlane2DXParam(j, api.dParamFMax, 1.0)
        api.dJointSetPlane2DYParam(j, api.dParamVel, -1.0)
        api.dJointSetPlane2DYParam(j, api.dParamFMax, 0.5)
        api.dJointSetPlane2DAngleParam(j, api.dParamVel, 3.0)
        api.dJointSetPlane2DAngleParam(j, api.dParamFMax, 0.1)
        api.dJointSetPlane2DXParam(j, api.dParamLoStop, 0.0)
        api.dJointSetPlane2DXParam(j, api.dParamHiStop, 0.1)
    fb = api.dJointFeedback()
    api.dJointSetFeedback(j, fb)
    for _ in range(steps):
        step_fn(quick, api)(w, h)
    return {"body": body_state(api, b), "fb": np.concatenate([fb.f1, fb.t1])}


# recorded with ODE 0.16.2 (libode8, double) running ``scene``
REFERENCE = {
    "motors_step": {"kw": {},
        "body": [1.9447500000000053, -0.5823499999905005, -7.357485501032499e-11, -0.4982280792768015, -4.4728253164933935e-13, 2.8613610096689386e-13, 0.8670460085947856, 1.9500000000000068, -1.0299999999500007, -3.6243862646238194e-15, 1.859031871880072e-24, -9.746631207131174e-24, 3.0],
        "fb": [1.0, 0.5, 14.715000000000138, -1.8590299922788373e-14, 9.746626557327172e-14, -5.0498378747078254e-27],
    },
    "motors_quick": {"kw": {'quick': True},
        "body": [1.9447499999999946, -0.5823499999904995, -7.374588115751793e-11, -0.49822807927679746, -5.031991609209576e-13, 3.146512173921472e-13, 0.8670460085947882, 1.949999999999985, -1.0299999999499974, -3.649858193455202e-15, 2.3228798215137914e-25, -1.25447185503142e-23, 3.0],
        "fb": [1.0, 0.5, 14.715000000000142, -2.2263474840660274e-14, 1.0930253137176493e-13, -9.237055563122167e-16],
    },
    "free_step": {"kw": {'motors': False},
        "body": [1.1897500000000003, -0.2162500000000003, -7.357485501032499e-11, 0.7315813433574156, 1.771759835784087e-13, 5.005447997785928e-13, 0.6817541624745381, 0.9500000000000004, -0.6500000000000005, -3.6243862646238194e-15, -6.724933303126521e-25, 8.764656099429378e-25, 1.0002186483413567],
        "fb": [0.0, 0.0, 14.715000000000138, 6.724934570841522e-15, -8.764647304407339e-15, 0.0],
    },
}


@pytest.mark.parametrize("case", sorted(REFERENCE))
def test_matches_ode_trajectory(case):
    exp = REFERENCE[case]
    got = scene(ode, **exp["kw"])
    np.testing.assert_allclose(got["body"], exp["body"], rtol=0, atol=1e-9)
    np.testing.assert_allclose(got["fb"], exp["fb"], rtol=0, atol=1e-7)


# ----------------------------------------------------------------------------- errors
def test_errors():
    w, j, b = planar()
    s = ode.dJointCreateSlider(w, None)
    with pytest.raises(ode.ODEError, match="dJointSetPlane2DXParam"):
        ode.dJointSetPlane2DXParam(s, ode.dParamVel, 1.0)
    with pytest.raises(ode.ODEError, match="dJointSetPlane2DYParam"):
        ode.dJointSetPlane2DYParam(j, ode.dParamVel2, 1.0)   # one group per direction
    with pytest.raises(ode.ODEError, match="dJointSetPlane2DAngleParam"):
        ode.dJointSetPlane2DAngleParam(j, -1, 1.0)
    with pytest.raises(ode.ODEError, match="value"):
        ode.dJointSetPlane2DAngleParam(j, ode.dParamFMax, math.nan)
    # FMax < 0 is ignored, as ODE ignores it
    ode.dJointSetPlane2DXParam(j, ode.dParamFMax, -3.0)
    assert info1_counts(plane2d, j) == (3, 3)
