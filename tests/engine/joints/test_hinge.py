"""Hinge joint: rows, sign conventions, limits, motor, suspension, feedback; agreement with ODE."""

from __future__ import annotations

import math

import numpy as np
import pytest

from engine import ode
from engine.ode.joints import hinge as hinge_mod
from engine.ode.joints.anchors import body_arrays
from engine.ode.kernels.bundles import WorldParams
from tests.engine.joints.setup_helpers import box, seeded_world, step_fn

#: ODE 0.16.2 (libode8) on ``_scene``: hinge angle/rate every 100 steps, extrema,
#: the motorized two-body hinge's angle, a body position and the feedback.
ODE = {"step": {"angle": [5.871321620087855e-05, 0.30150129459056707, 0.3970441652896284, 0.4000000000045514, 0.4000000000045185, 0.40000000000451763, 0.40000000000451763, 0.4000000000045185, 0.40000000000451763, 0.40000000000451763, 0.4000000000045185, 0.40000000000451763, 0.40000000000451763, 0.4000000000045185, 0.40000000000451763], "rate": [0.029356608109100072, 2.93837752725502, -0.05019290555654539, -4.243695862886837e-12, 1.9560551673764805e-14, -6.922914998987886e-14, 1.9560551673769043e-14, 1.9560551673771116e-14, -6.922914998987255e-14, 1.9560551673775353e-14, 1.9560551673777427e-14, -6.922914998986624e-14, 1.9560551673781664e-14, 1.9560551673783737e-14, -6.922914998985993e-14], "min": 5.871321620087855e-05, "max": 0.403073106343256, "ang2": [2.7250967500336287e-05, 0.13915374612412812, 0.45269761087671423, 0.2848001240717908, 0.0933107073770616, 0.3261307903202342, -0.09065815343574239, -0.6286623800638508, -1.1033967335847659, -1.00418471112531, 0.3123423362187774, 0.7136325495133509, -0.3827343289288202, -0.850397747312089, -0.6273926622176399], "pos_c": [0.6494888683071869, 3.036780655162995, -0.8546662172107828], "f1": [5.869527086588278e-12, 0.0, 9.810000000020448], "t1": [0.0, -3.736566611678427e-12, 0.0]}, "quick": {"angle": [5.871321619910219e-05, 0.3015012945905964, 0.39704399983495975, 0.4000006819338493, 0.4000000012300493, 0.40000003025618547, 0.400000000307581, 0.40000003718907085, 0.4000000002100821, 0.40000085281574904, 0.4000000000990447, 0.40000000662404567, 0.40001550570641786, 0.40000000094138155, 0.40000014304604026], "rate": [0.029356608108076467, 2.9383775272557573, -0.05019037290387999, -8.517472026189733e-05, -1.737183773191336e-07, -3.761300300797344e-06, 1.8197119782036214e-08, -4.7905630953810725e-06, -2.3841591294596452e-08, -0.00010651525981575591, -1.0247747674803332e-07, -8.194384563274904e-07, -0.001938123752296501, -7.424240974899039e-09, -1.7900711765729785e-05], "min": 5.871321619910219e-05, "max": 0.40307310634325866, "ang2": [2.725096749944811e-05, 0.13915374612403397, 0.4526976094325823, 0.2848001260664068, 0.09329780180199432, 0.32613161695455783, -0.09066180803883188, -0.6287903661585011, -1.1036154759461203, -1.0044025377065389, 0.3126044890092379, 0.7139495623675254, -0.3821603315973936, -0.8488050742803481, -0.6223929493799867], "pos_c": [0.6500526198675882, 3.0365484779296197, -0.8557229697279223], "f1": [-0.02415133007681329, 0.0, 9.752875245472984], "t1": [0.0, 0.010440644980344693, 0.0]}}


ROD = (1.0, 0.1, 0.1)     #: side lengths (m) of every box here


def _scene(quick):
    w = seeded_world(ode, (0, 0, -9.81))
    a = box(ode, w, (0.5, 0, 0), dims=ROD)
    j = ode.dJointCreateHinge(w, None)
    ode.dJointAttach(j, a, None)
    ode.dJointSetHingeAnchor(j, 0, 0, 0)
    ode.dJointSetHingeAxis(j, 0, 1, 0)
    ode.dJointSetHingeParam(j, ode.dParamLoStop, -0.3)
    ode.dJointSetHingeParam(j, ode.dParamHiStop, 0.4)
    ode.dJointSetHingeParam(j, ode.dParamBounce, 0.3)
    fb = ode.dJointFeedback()
    ode.dJointSetFeedback(j, fb)
    b = box(ode, w, (0, 3, 0), dims=ROD)
    c = box(ode, w, (1, 3, 0), dims=ROD)
    jb = ode.dJointCreateBall(w, None)
    ode.dJointAttach(jb, b, None)
    ode.dJointSetBallAnchor(jb, -0.5, 3, 0)
    jh = ode.dJointCreateHinge(w, None)
    ode.dJointAttach(jh, c, b)
    ode.dJointSetHingeAnchor(jh, 0.5, 3, 0)
    ode.dJointSetHingeAxis(jh, 0, 0, 1)
    ode.dJointSetHingeParam(jh, ode.dParamVel, 2.0)
    ode.dJointSetHingeParam(jh, ode.dParamFMax, 0.5)
    angles, rates, ang2 = [], [], []
    for _ in range(1500):
        step_fn(quick)(w, 0.002)
        angles.append(ode.dJointGetHingeAngle(j))
        rates.append(ode.dJointGetHingeAngleRate(j))
        ang2.append(ode.dJointGetHingeAngle(jh))
    out = {"angle": angles[::100], "rate": rates[::100], "min": min(angles), "max": max(angles),
           "ang2": ang2[::100], "pos_c": ode.dBodyGetPosition(c), "f1": fb.f1, "t1": fb.t1}
    ode.dWorldDestroy(w)
    return out


@pytest.mark.parametrize("stepper", ["step", "quick"])
def test_limits_bounce_motor_and_feedback_follow_ode(stepper):
    got = _scene(stepper == "quick")
    want = ODE[stepper]
    for key in ("angle", "rate", "ang2", "pos_c"):
        assert np.allclose(got[key], want[key], atol=1e-8, rtol=0), key
    assert got["min"] == pytest.approx(want["min"], abs=1e-10)
    assert got["max"] == pytest.approx(want["max"], abs=1e-10)
    assert np.allclose(got["f1"], want["f1"], atol=1e-8)
    assert np.allclose(got["t1"], want["t1"], atol=1e-8)


def test_resting_on_stop_feedback_carries_the_weight():
    # the arm rests on its high stop: the joint holds m g (step scene, ODE: 9.81 N)
    got = _scene(False)
    assert got["f1"][2] == pytest.approx(9.81, rel=1e-9)


def test_row_counts_free_powered_at_limit():
    w = ode.dWorldCreate()
    b = box(ode, w, (0.5, 0, 0), dims=ROD)
    j = ode.dJointCreateHinge(w, None)
    ode.dJointAttach(j, b, None)
    ode.dJointSetHingeAxis(j, 0, 1, 0)
    B = body_arrays(w)

    def rows():
        return hinge_mod.info1(j.d, j.di, 0, b.index, -1, B, WorldParams(0.0, 0.0, 0.0, 0.0, 0.0, 0.0))

    assert rows() == (5, 5)
    ode.dJointSetHingeParam(j, ode.dParamFMax, 1.0)
    assert rows() == (6, 5)
    ode.dJointSetHingeParam(j, ode.dParamFMax, 0.0)
    ode.dJointSetHingeParam(j, ode.dParamHiStop, 0.0)   # at the stop (angle 0 >= 0)
    assert rows() == (6, 5)
    ode.dJointSetHingeParam(j, ode.dParamHiStop, 0.5)
    ode.dJointSetHingeParam(j, ode.dParamLoStop, 0.6)   # lo > hi: limits ignored
    assert rows() == (5, 5)
    ode.dWorldDestroy(w)


@pytest.mark.parametrize("sign", [1, -1])
@pytest.mark.parametrize("two_bodies", [False, True])
def test_angle_sign_convention(sign, two_bodies):
    """ODE's convention (checked on libode8): turning body 1 by +a about the
    axis reads +a; turning body 2 by +a reads -a; a negated axis negates both."""
    w = ode.dWorldCreate()
    b1 = box(ode, w, (0, 0, 0), dims=ROD)
    b2 = box(ode, w, (0, 0, 0), dims=ROD) if two_bodies else None
    j = ode.dJointCreateHinge(w, None)
    ode.dJointAttach(j, b1, b2)
    ode.dJointSetHingeAxis(j, sign, 0, 0)
    a = 0.23
    ode.dBodySetRotation(b1, ode.dRFromAxisAndAngle(1, 0, 0, a))
    assert ode.dJointGetHingeAngle(j) == pytest.approx(sign * a, abs=1e-12)
    if two_bodies:
        ode.dBodySetRotation(b1, ode.dRFromAxisAndAngle(1, 0, 0, 0))
        ode.dBodySetRotation(b2, ode.dRFromAxisAndAngle(1, 0, 0, a))
        assert ode.dJointGetHingeAngle(j) == pytest.approx(-sign * a, abs=1e-12)
    ode.dWorldDestroy(w)


def test_reversed_attachment_flips_angle_and_rate():
    w = ode.dWorldCreate()
    b = box(ode, w, (0, 0, 0), dims=ROD)
    j = ode.dJointCreateHinge(w, None)
    ode.dJointAttach(j, None, b)
    ode.dJointSetHingeAxis(j, 1, 0, 0)
    ode.dBodySetRotation(b, ode.dRFromAxisAndAngle(1, 0, 0, 0.23))
    ode.dBodySetAngularVel(b, 2, 0, 0)
    assert ode.dJointGetHingeAngle(j) == pytest.approx(-0.23, abs=1e-12)
    assert ode.dJointGetHingeAngleRate(j) == pytest.approx(-2.0)
    assert ode.dJointGetBody(j, 0) is None and ode.dJointGetBody(j, 1) is b
    ode.dWorldDestroy(w)


def test_axis_offset_sets_the_current_angle():
    w = ode.dWorldCreate()
    b = box(ode, w, (0, 0, 0), dims=ROD)
    j = ode.dJointCreateHinge(w, None)
    ode.dJointAttach(j, b, None)
    ode.dBodySetRotation(b, ode.dRFromAxisAndAngle(1, 0, 0, 0.37))
    ode.dJointSetHingeAxisOffset(j, 1, 0, 0, 0.37)
    assert ode.dJointGetHingeAngle(j) == pytest.approx(0.37, abs=1e-12)
    ode.dWorldDestroy(w)


def test_velocity_motor_with_infinite_fmax_reaches_vel_in_one_step():
    # ODE's test_Hinge_dParamVel: two free bodies, FMax inf, Vel 100, one 1 ms step
    w = ode.dWorldCreate()
    b1 = box(ode, w, (0, 0, 0), dims=ROD)
    b2 = box(ode, w, (1, 0, 0), dims=ROD)
    j = ode.dJointCreateHinge(w, None)
    ode.dJointAttach(j, b1, b2)
    ode.dJointSetHingeAnchor(j, 0.5, 0, 0)
    ode.dJointSetHingeAxis(j, 1, 0, 0)
    ode.dJointSetHingeParam(j, ode.dParamFMax, math.inf)
    ode.dJointSetHingeParam(j, ode.dParamVel, 100.0)
    ode.dWorldStep(w, 0.001)
    rel = ode.dBodyGetAngularVel(b1) - ode.dBodyGetAngularVel(b2)
    assert np.allclose(rel, [100, 0, 0], atol=1e-6)
    ode.dWorldDestroy(w)


def test_anchor_axis_getters_and_params():
    w = ode.dWorldCreate()
    b = box(ode, w, (1, 2, 3), dims=ROD)
    j = ode.dJointCreateHinge(w, None)
    ode.dJointAttach(j, b, None)
    ode.dJointSetHingeAnchor(j, 1, 2, 4)
    ode.dJointSetHingeAxis(j, 0, 0, 2)
    assert np.allclose(ode.dJointGetHingeAnchor(j), [1, 2, 4])
    assert np.allclose(ode.dJointGetHingeAnchor2(j), [1, 2, 4])
    assert np.allclose(ode.dJointGetHingeAxis(j), [0, 0, 1])
    for p, v in ((ode.dParamLoStop, -1.0), (ode.dParamHiStop, 1.0), (ode.dParamVel, 3.0),
                 (ode.dParamFMax, 4.0), (ode.dParamFudgeFactor, 0.5), (ode.dParamBounce, 0.2),
                 (ode.dParamCFM, 1e-5), (ode.dParamStopERP, 0.3), (ode.dParamStopCFM, 1e-4),
                 (ode.dParamSuspensionERP, 0.4), (ode.dParamSuspensionCFM, 1e-3)):
        ode.dJointSetHingeParam(j, p, v)
        assert ode.dJointGetHingeParam(j, p) == v
    ode.dJointSetHingeParam(j, ode.dParamFMax, -1.0)          # ignored, as ODE
    assert ode.dJointGetHingeParam(j, ode.dParamFMax) == 4.0
    with pytest.raises(ode.ODEError, match="dJointSetHingeParam.*parameter"):
        ode.dJointSetHingeParam(j, ode.dParamVel2, 1.0)       # a hinge has one axis
    with pytest.raises(ode.ODEError, match="dJointSetHingeAxis.*zero"):
        ode.dJointSetHingeAxis(j, 0, 0, 0)
    with pytest.raises(ode.ODEError, match="dJointGetHingeAngle.*Hinge"):
        ode.dJointGetHingeAngle(ode.dJointCreateBall(w, None))
    ode.dWorldDestroy(w)


def test_add_torque_acts_about_the_axis_on_both_bodies():
    w = ode.dWorldCreate()
    b1 = box(ode, w, (0, 0, 0), dims=ROD)
    b2 = box(ode, w, (1, 0, 0), dims=ROD)
    j = ode.dJointCreateHinge(w, None)
    ode.dJointAttach(j, b1, b2)
    ode.dJointSetHingeAxis(j, 0, 0, 1)
    ode.dJointAddHingeTorque(j, 2.0)
    assert np.allclose(ode.dBodyGetTorque(b1), [0, 0, 2])
    assert np.allclose(ode.dBodyGetTorque(b2), [0, 0, -2])
    ode.dWorldDestroy(w)


def test_suspension_axis_lets_the_anchor_spring():
    """Webots' hinge suspension: along the suspension axis the anchor row uses
    suspension ERP/CFM, i.e. a spring k = ERP/(h·CFM) with damping; a hanging
    mass settles at m·g/k below the anchor."""
    h, k, c = 0.001, 2000.0, 20.0
    erp = h * k / (h * k + c)
    cfm = 1.0 / (h * k + c)
    w = ode.dWorldCreate()
    ode.dWorldSetGravity(w, 0, 0, -9.81)
    b = box(ode, w, (0, 0, 0), mass=2.0, dims=ROD)
    j = ode.dJointCreateHinge(w, None)
    ode.dJointAttach(j, b, None)
    ode.dJointSetHingeAnchor(j, 0, 0, 0)
    ode.dJointSetHingeAxis(j, 1, 0, 0)
    ode.dJointSetHingeSuspensionAxis(j, 0, 0, 1)
    ode.dJointSetHingeParam(j, ode.dParamSuspensionERP, erp)
    ode.dJointSetHingeParam(j, ode.dParamSuspensionCFM, cfm)
    assert np.allclose(ode.dJointGetHingeSuspensionAxis(j), [0, 0, 1])
    for _ in range(4000):
        ode.dWorldStep(w, h)
    z = ode.dBodyGetPosition(b)[2]
    assert z == pytest.approx(-2.0 * 9.81 / k, rel=1e-3)
    x, y = ode.dBodyGetPosition(b)[:2]
    assert abs(x) < 1e-9 and abs(y) < 1e-9          # stiff in the other directions
    ode.dWorldDestroy(w)
