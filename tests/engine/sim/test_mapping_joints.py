"""Joint nodes -> ODE joints: types, axes, anchors, stops, springs, friction, suspension."""

from __future__ import annotations

import math

import numpy as np
import pytest

from engine import ode
from engine.sim.joints import spring_erp_cfm
from tests.engine.sim.helpers import make_sim

END = ("endPoint DEF E Solid {{ translation {t} boundingObject Sphere {{ radius 0.05 }} "
       "physics Physics {{ density -1 mass 1 }} }}")


def _joint_sim(joint: str, params: str = "", t: str = "0 0 0", parent_physics: bool = True,
               info: str = "physicsDisableTime -1", extra: str = ""):
    phys = "physics Physics { density -1 mass 10 }" if parent_physics else ""
    end = END.format(t=t)
    text = (f"DEF P Solid {{ translation 0 0 1 boundingObject Box {{ size 0.1 0.1 0.1 }} {phys} "
            f"children [ DEF J {joint} {{ {params} {extra} {end} }} ] }}")
    sim = make_sim(text, info)
    return sim, sim.model.joints[0]


def test_hinge_axis_and_anchor_in_the_parent_frame() -> None:
    sim, rec = _joint_sim("HingeJoint", "jointParameters HingeJointParameters { axis 0 1 0 "
                          "anchor 0.1 0 0 }", t="0.2 0 0")
    j = rec.joint
    assert ode.dJointGetType(j) == ode.dJointTypeHinge
    assert np.allclose(ode.dJointGetHingeAxis(j), [0, 1, 0])
    assert np.allclose(ode.dJointGetHingeAnchor(j), [0.1, 0, 1])
    assert ode.dJointGetBody(j, 0) is sim.body_from_def("E")
    assert ode.dJointGetBody(j, 1) is sim.body_from_def("P")


def test_hinge_default_axis_is_x() -> None:
    _, rec = _joint_sim("HingeJoint")
    assert np.allclose(ode.dJointGetHingeAxis(rec.joint), [1, 0, 0])


def test_hinge_to_a_static_parent_attaches_to_the_world() -> None:
    sim, rec = _joint_sim("HingeJoint", parent_physics=False)
    assert sim.body_from_def("P") is None
    assert ode.dJointGetBody(rec.joint, 0) is sim.body_from_def("E")
    assert ode.dJointGetBody(rec.joint, 1) is None


def test_joined_endpoint_is_its_own_body() -> None:
    sim, _ = _joint_sim("SliderJoint")
    assert sim.body_from_def("E") is not sim.body_from_def("P")
    assert len(sim.model.bodies) == 2


def test_slider_axis_default_z_and_stops_relative_to_position() -> None:
    _, rec = _joint_sim("SliderJoint", "jointParameters JointParameters { position 0.1 "
                        "minStop -0.2 maxStop 0.3 }")
    j = rec.joint
    assert ode.dJointGetType(j) == ode.dJointTypeSlider
    assert np.allclose(ode.dJointGetSliderAxis(j), [0, 0, 1])
    assert ode.dJointGetSliderParam(j, ode.dParamLoStop) == pytest.approx(-0.3)
    assert ode.dJointGetSliderParam(j, ode.dParamHiStop) == pytest.approx(0.2)
    assert rec.position() == pytest.approx(0.1)


def test_no_stops_when_both_zero() -> None:
    _, rec = _joint_sim("HingeJoint")
    assert ode.dJointGetHingeParam(rec.joint, ode.dParamLoStop) == -ode.dInfinity


def test_spring_and_damper_use_the_stop_erp_cfm_trick() -> None:
    sim, rec = _joint_sim("SliderJoint", "jointParameters JointParameters { springConstant 50 "
                          "dampingConstant 2 }", info="basicTimeStep 10 physicsDisableTime -1")
    erp, cfm = spring_erp_cfm(50, 2, 0.01)
    j = rec.joint
    assert ode.dJointGetSliderParam(j, ode.dParamLoStop) == 0.0
    assert ode.dJointGetSliderParam(j, ode.dParamHiStop) == 0.0
    assert ode.dJointGetSliderParam(j, ode.dParamStopERP) == pytest.approx(erp)
    assert ode.dJointGetSliderParam(j, ode.dParamStopCFM) == pytest.approx(cfm)


def test_slider_spring_settles_at_m_g_over_k() -> None:
    # static parent; 1 kg endPoint hangs on a vertical spring k = 100 N/m, damped
    sim, rec = _joint_sim("SliderJoint", "jointParameters JointParameters { springConstant 100 "
                          "dampingConstant 20 }", parent_physics=False, t="0 0 -0.5",
                          info="basicTimeStep 5 physicsDisableTime -1")
    for _ in range(2000):
        sim.step()
    assert rec.position() == pytest.approx(-9.81 / 100, rel=1e-3)


def test_spring_with_stops_uses_explicit_forces() -> None:
    sim, rec = _joint_sim("SliderJoint", "jointParameters JointParameters { springConstant 100 "
                          "dampingConstant 20 minStop -1 maxStop 1 }", parent_physics=False,
                          t="0 0 -0.5",
                          info="basicTimeStep 5 physicsDisableTime -1")
    assert rec.explicit_springs == [0]
    for _ in range(2000):
        sim.step()
    assert rec.position() == pytest.approx(-9.81 / 100, rel=1e-3)


def test_static_friction_is_a_zero_velocity_motor() -> None:
    _, rec = _joint_sim("HingeJoint", "jointParameters HingeJointParameters { staticFriction 0.5 }")
    assert ode.dJointGetHingeParam(rec.joint, ode.dParamVel) == 0.0
    assert ode.dJointGetHingeParam(rec.joint, ode.dParamFMax) == 0.5


def test_hinge_stop_erp_cfm_and_suspension() -> None:
    _, rec = _joint_sim("HingeJoint", "jointParameters HingeJointParameters { stopERP 0.5 "
                        "stopCFM 0.01 suspensionSpringConstant 1000 suspensionDampingConstant 10 "
                        "suspensionAxis 0 0 1 }", info="basicTimeStep 10")
    j = rec.joint
    assert ode.dJointGetHingeParam(j, ode.dParamStopERP) == 0.5
    assert ode.dJointGetHingeParam(j, ode.dParamStopCFM) == 0.01
    assert np.allclose(ode.dJointGetHingeSuspensionAxis(j), [0, 0, 1])
    erp, cfm = spring_erp_cfm(1000, 10, 0.01)
    assert ode.dJointGetHingeParam(j, ode.dParamSuspensionERP) == pytest.approx(erp)
    assert ode.dJointGetHingeParam(j, ode.dParamSuspensionCFM) == pytest.approx(cfm)


def test_hinge2_axes_and_second_axis_parameters() -> None:
    sim, rec = _joint_sim("Hinge2Joint", "jointParameters HingeJointParameters { axis 0 0 1 "
                          "anchor 0 0 -0.1 } jointParameters2 JointParameters { axis 0 1 0 "
                          "minStop -0.5 maxStop 0.5 }")
    j = rec.joint
    assert ode.dJointGetType(j) == ode.dJointTypeHinge2
    assert np.allclose(ode.dJointGetHinge2Axis1(j), [0, 0, 1])
    assert np.allclose(ode.dJointGetHinge2Axis2(j), [0, 1, 0])
    assert np.allclose(ode.dJointGetHinge2Anchor(j), [0, 0, 0.9])
    assert ode.dJointGetBody(j, 0) is sim.body_from_def("P")
    assert ode.dJointGetHinge2Param(j, ode.dParamLoStop2) == -0.5


def test_ball_joint_anchor() -> None:
    _, rec = _joint_sim("BallJoint", "jointParameters BallJointParameters { anchor 0 0 0.5 }")
    assert ode.dJointGetType(rec.joint) == ode.dJointTypeBall
    assert np.allclose(ode.dJointGetBallAnchor(rec.joint), [0, 0, 1.5])


def test_joint_axis_follows_the_pose_it_sits_in() -> None:
    sim = make_sim("DEF P Solid { physics Physics { } boundingObject Sphere { radius 0.1 } "
                   "children [ Pose { rotation 0 0 1 1.5707963267948966 children [ HingeJoint { "
                   "jointParameters HingeJointParameters { axis 1 0 0 anchor 1 0 0 } endPoint "
                   "Solid { physics Physics { } boundingObject Sphere { radius 0.1 } } } ] } ] }")
    j = sim.model.joints[0].joint
    assert np.allclose(ode.dJointGetHingeAxis(j), [0, 1, 0], atol=1e-12)
    assert np.allclose(ode.dJointGetHingeAnchor(j), [0, 1, 0], atol=1e-12)


def test_hinge_stops_hold_the_endpoint() -> None:
    # a horizontal arm on a static support falls until its stop at -0.3 rad
    sim, rec = _joint_sim("HingeJoint", "jointParameters HingeJointParameters { axis 0 1 0 "
                          "minStop -0.3 maxStop 0.3 }", t="0.5 0 0", parent_physics=False,
                          info="basicTimeStep 5 physicsDisableTime -1")
    for _ in range(400):
        sim.step()
    # gravity turns +x towards -z: a positive rotation about +y
    assert rec.position() == pytest.approx(0.3, abs=0.02)
    assert math.isfinite(rec.position())


def test_spring_rest_is_at_position_zero() -> None:
    # the endPoint starts at position 0.05 (as the file says): the spring pulls it back to 0
    sim, rec = _joint_sim("SliderJoint", "jointParameters JointParameters { position 0.05 "
                          "springConstant 100 dampingConstant 20 }", parent_physics=False,
                          t="0 0 -0.45", info="gravity 0 basicTimeStep 5 physicsDisableTime -1")
    j = rec.joint
    assert ode.dJointGetSliderParam(j, ode.dParamLoStop) == pytest.approx(-0.05)
    for _ in range(2000):
        sim.step()
    assert rec.position() == pytest.approx(0.0, abs=1e-6)
    assert ode.dBodyGetPosition(sim.body_from_def("E"))[2] == pytest.approx(1 - 0.5, abs=1e-6)


def test_explicit_spring_rest_is_at_position_zero() -> None:
    sim, rec = _joint_sim("HingeJoint", "jointParameters HingeJointParameters { position 0.2 "
                          "springConstant 2 dampingConstant 0.5 minStop -1 maxStop 1 }",
                          parent_physics=False, t="0 0 -0.5",
                          info="gravity 0 basicTimeStep 5 physicsDisableTime -1")
    assert rec.explicit_springs == [0]
    for _ in range(3000):
        sim.step()
    assert rec.position() == pytest.approx(0.0, abs=1e-4)


def _chain_text(links: int) -> str:
    """A base Solid and ``links`` hinge links nested one in the other (0.1 m apart)."""
    link = ("HingeJoint { jointParameters HingeJointParameters { axis 0 1 0 anchor 0 0 -0.1 } "
            "endPoint Solid { translation 0 0 -0.1 children [\n")
    tail = ("] boundingObject Sphere { radius 0.02 } "
            "physics Physics { density -1 mass 0.1 } } }\n")
    return "DEF BASE Solid { children [\n" + link * links + tail * links + "] }"


def test_a_thousand_link_hinge_chain_builds_and_steps() -> None:
    """Chains longer than 123 links were refused as "nodes are nested too deeply"."""
    sim = make_sim(_chain_text(1000), 'stepper "quickstep" basicTimeStep 4')
    assert len(sim.model.joints) == 1000 and len(sim.model.bodies) == 1000
    # the walk keeps pre-order: link k sits k * 0.1 m below the base
    z = [rec.frame.t[2] for rec in sim.model.solids]
    assert np.allclose(z, -0.1 * np.arange(1001))
    for _ in range(3):
        assert sim.step(), sim.pause_message
