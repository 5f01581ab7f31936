"""Field edits on a running Simulation (engine.sim.edits), measured in the simulation."""

from __future__ import annotations

import math

import numpy as np

from engine import ode
from engine.sim.edits import apply_edit
from engine.world import parse_world
from tests.engine.sim.helpers import make_sim, world_text

FLOOR = "DEF FLOOR Solid { boundingObject Plane { } } "
BOX = ("DEF BOX Solid { translation 0 0 0.1 boundingObject DEF BOXG Box { size 0.2 0.2 0.2 } "
       "physics DEF PHYS Physics { mass 1 } } ")
NO_SLEEP = "physicsDisableTime -1 basicTimeStep 8"


def _z(sim, def_: str = "BOX") -> float:
    return float(ode.dBodyGetPosition(sim.body_from_def(def_))[2])


def _def(sim, name: str):
    """The node with DEF ``name`` anywhere in the world."""
    return next(n for n in sim.world.iter_nodes() if n.def_name == name and not n.is_use)


def _settle(sim, seconds: float = 0.5) -> None:
    sim.run(seconds)


def _normal_force(sim) -> float:
    """Sum of the vertical contact forces on the box (contact feedback)."""
    total = 0.0
    for cp in sim.contacts:
        f = np.asarray(cp.feedback.f1)[:3]
        sign = 1.0 if cp.solid1.node.def_name == "BOX" else -1.0
        total += sign * f[2]
    return total


def test_moved_box_falls_from_its_new_height_at_rest() -> None:
    sim = make_sim(FLOOR + BOX, NO_SLEEP)
    _settle(sim)
    box = sim.world.find_solid_by_def("BOX")
    result = apply_edit(sim, box, "translation", (0.3, 0.0, 2.0))
    assert result.kind == "live"
    body = sim.body_from_def("BOX")
    assert np.allclose(ode.dBodyGetPosition(body), [0.3, 0.0, 2.0])
    assert np.allclose(ode.dBodyGetLinearVel(body), 0.0)
    n = 25
    for _ in range(n):
        sim.step()
    t = n * sim.dt
    # free fall from rest: z = 2 - g t^2 / 2 (semi-implicit Euler: within one step's worth)
    assert abs(_z(sim) - (2.0 - 0.5 * 9.81 * t * t)) < 9.81 * t * sim.dt
    assert sim.world.find_solid_by_def("BOX").get("translation")[0] == 0.3


def test_rotating_a_box_turns_its_body() -> None:
    sim = make_sim(FLOOR + BOX, NO_SLEEP)
    box = sim.world.find_solid_by_def("BOX")
    apply_edit(sim, box, "rotation", (0.0, 0.0, 1.0, 0.5))
    R = np.asarray(ode.dBodyGetRotation(sim.body_from_def("BOX"))).reshape(3, 4)[:, :3]
    assert np.isclose(math.atan2(R[1, 0], R[0, 0]), 0.5)


def test_moving_a_static_solid_moves_its_geoms() -> None:
    sim = make_sim(FLOOR + "DEF SHELF Solid { translation 0 0 0.5 boundingObject Box { size 1 1 "
                   "0.1 } } DEF BALL Solid { translation 0 0 1 boundingObject Sphere { radius "
                   "0.1 } physics Physics { } }", NO_SLEEP)
    _settle(sim, 1.0)
    assert abs(_z(sim, "BALL") - 0.65) < 0.01  # on the shelf
    apply_edit(sim, sim.world.find_solid_by_def("SHELF"), "translation", (5.0, 0.0, 0.5))
    _settle(sim, 1.0)
    assert abs(_z(sim, "BALL") - 0.1) < 0.01   # the shelf went away: on the floor


def test_gravity_change_changes_the_acceleration() -> None:
    sim = make_sim("DEF BOX Solid { translation 0 0 10 boundingObject Box { size 0.2 0.2 0.2 } "
                   "physics Physics { } }", NO_SLEEP)
    info = sim.world.world_info
    assert apply_edit(sim, info, "gravity", 2.0).kind == "live"
    body = sim.body_from_def("BOX")
    sim.run(0.4)
    v0 = ode.dBodyGetLinearVel(body)[2]
    sim.run(0.4)
    v1 = ode.dBodyGetLinearVel(body)[2]
    assert np.isclose((v1 - v0) / 0.4, -2.0, rtol=1e-6)


def test_heavier_box_presses_harder_on_the_floor() -> None:
    sim = make_sim(FLOOR + BOX, NO_SLEEP)
    sim.record_contact_feedback = True
    _settle(sim, 1.0)
    light = _normal_force(sim)
    assert np.isclose(light, 9.81, rtol=0.05)
    assert apply_edit(sim, _def(sim, "PHYS"), "mass", 4.0).kind == "live"
    assert np.isclose(ode.dBodyGetMass(sim.body_from_def("BOX")).mass, 4.0)
    _settle(sim, 1.0)
    assert np.isclose(_normal_force(sim), 4 * 9.81, rtol=0.05)


def test_density_and_size_edits_change_the_mass() -> None:
    sim = make_sim(FLOOR + "DEF BOX Solid { translation 0 0 0.1 boundingObject DEF BOXG Box { "
                   "size 0.2 0.2 0.2 } physics DEF PHYS Physics { density 1000 } }", NO_SLEEP)
    body = sim.body_from_def("BOX")
    assert np.isclose(ode.dBodyGetMass(body).mass, 8.0)
    apply_edit(sim, _def(sim, "PHYS"), "density", 500.0)
    assert np.isclose(ode.dBodyGetMass(body).mass, 4.0)
    assert apply_edit(sim, _def(sim, "BOXG"), "size", (0.4, 0.4, 0.4)).kind == "live"
    assert np.isclose(ode.dBodyGetMass(body).mass, 32.0)
    assert np.allclose(ode.dGeomBoxGetLengths(sim.geom_from_def("BOX")), 0.4)
    _settle(sim, 1.0)
    assert abs(_z(sim) - 0.2) < 0.01  # rests on its new half-height


def test_sphere_radius_edit_changes_the_resting_height() -> None:
    sim = make_sim(FLOOR + "DEF BALL Solid { translation 0 0 0.1 boundingObject DEF S Sphere { "
                   "radius 0.1 } physics Physics { mass 1 } }", NO_SLEEP)
    apply_edit(sim, _def(sim, "S"), "radius", 0.3)
    _settle(sim, 1.5)
    assert abs(_z(sim, "BALL") - 0.3) < 0.01
    assert np.isclose(ode.dBodyGetMass(sim.body_from_def("BALL")).mass, 1.0)  # mass given


HINGE = ("DEF BASE Solid { translation 0 0 1 children [ HingeJoint { jointParameters DEF HP "
         "HingeJointParameters { axis 0 1 0 } endPoint DEF ARM Solid { translation 0.5 0 0 "
         "boundingObject Sphere { radius 0.05 } physics Physics { mass 1 } } } ] }")


def _hinge_angle(sim) -> float:
    return float(ode.dJointGetHingeAngle(sim.model.joints[0].joint))


def test_new_stops_limit_a_hinge() -> None:
    sim = make_sim(HINGE, NO_SLEEP)
    sim.run(1.0)
    free = max(abs(_hinge_angle(sim)), 0.0)
    assert free > 1.0  # the arm swings down, past 1 rad
    sim.reset()
    hp = _def(sim, "HP")
    assert apply_edit(sim, hp, "minStop", -0.3).kind == "live"
    assert apply_edit(sim, hp, "maxStop", 0.3).kind == "live"
    worst = 0.0
    for _ in range(125):
        sim.step()
        worst = max(worst, abs(_hinge_angle(sim)))
    assert worst < 0.35


def test_spring_edit_holds_a_slider_near_rest() -> None:
    sim = make_sim("DEF BASE Solid { translation 0 0 1 children [ SliderJoint { jointParameters "
                   "DEF JP JointParameters { axis 0 0 1 } endPoint Solid { boundingObject Sphere "
                   "{ radius 0.05 } physics Physics { mass 1 } } } ] }", NO_SLEEP)
    jp = _def(sim, "JP")
    apply_edit(sim, jp, "springConstant", 1000.0)
    apply_edit(sim, jp, "dampingConstant", 50.0)
    sim.run(2.0)
    x = float(ode.dJointGetSliderPosition(sim.model.joints[0].joint))
    assert np.isclose(x, -9.81 / 1000.0, atol=2e-3)  # k x = m g


def test_basic_time_step_and_stepper_edits() -> None:
    sim = make_sim(FLOOR + BOX, NO_SLEEP)
    info = sim.world.world_info
    apply_edit(sim, info, "basicTimeStep", 16.0)
    sim.step()
    assert sim.time_ms == 16.0 and sim.dt == 0.016
    apply_edit(sim, info, "stepper", "quickstep")
    assert sim.stepper == "quickstep"


def test_visual_edits_do_nothing_physical() -> None:
    sim = make_sim("DEF BOX Solid { children [ Shape { appearance DEF LOOK PBRAppearance { } "
                   "geometry DEF VIS Box { } } ] boundingObject Sphere { radius 0.1 } }")
    assert apply_edit(sim, _def(sim, "LOOK"), "roughness", 0.5).kind == "none"
    assert apply_edit(sim, _def(sim, "VIS"), "size", (1.0, 1.0, 1.0)).kind == "none"
    assert apply_edit(sim, sim.world.find_solid_by_def("BOX"), "name", "x").kind == "none"


def test_other_edits_need_a_rebuild_that_keeps_time() -> None:
    sim = make_sim(FLOOR + HINGE, NO_SLEEP)
    sim.run(0.4)
    hp = _def(sim, "HP")
    result = apply_edit(sim, hp, "anchor", (0.0, 0.0, 0.2))
    assert result.needs_rebuild
    time_ms, steps = sim.time_ms, sim.steps
    sim.rebuild()
    assert (sim.time_ms, sim.steps) == (time_ms, steps)
    assert np.allclose(ode.dJointGetHingeAnchor(sim.model.joints[0].joint), [0, 0, 1.2])
    sim.step()
    assert sim.time_ms == time_ms + 8.0


def test_structural_edit_needs_a_rebuild() -> None:
    sim = make_sim(FLOOR + BOX)
    box = sim.world.find_solid_by_def("BOX")
    assert apply_edit(sim, box, "boundingObject", None).needs_rebuild


def test_reset_goes_back_to_the_edited_world_not_the_loaded_one() -> None:
    """Edits made mid-run are part of the world reset returns to (decision 0016)."""
    sim = make_sim(FLOOR + BOX, NO_SLEEP)
    sim.run(0.2)
    apply_edit(sim, sim.world.world_info, "gravity", 1.0)
    apply_edit(sim, sim.world.find_solid_by_def("BOX"), "translation", (0.0, 0.0, 3.0))
    sim.run(0.2)  # the box falls from z = 3: the simulation's motion
    sim.reset()
    assert np.allclose(ode.dBodyGetPosition(sim.body_from_def("BOX")), [0.0, 0.0, 3.0])
    assert sim.world.find_solid_by_def("BOX").get("translation") == (0.0, 0.0, 3.0)
    assert sim.time_ms == 0.0
    assert np.allclose(ode.dWorldGetGravity(sim.model.ode_world), [0, 0, -1.0])
    assert sim.world.world_info.get("gravity") == 1.0


def test_an_edit_at_time_zero_survives_run_and_reset() -> None:
    sim = make_sim(FLOOR + BOX, NO_SLEEP)
    box = sim.world.find_solid_by_def("BOX")
    apply_edit(sim, box, "translation", (0.5, 0.0, 1.0))
    sim.run(0.3)
    assert box.get("translation")[2] < 0.9  # it fell
    assert sim.baseline.value(box, "translation") == (0.5, 0.0, 1.0)
    sim.reset()
    assert box.get("translation") == (0.5, 0.0, 1.0)
    assert np.allclose(ode.dBodyGetPosition(sim.body_from_def("BOX")), [0.5, 0.0, 1.0])


def test_an_undo_can_give_the_baseline_its_old_value_back() -> None:
    sim = make_sim(FLOOR + BOX, NO_SLEEP)
    box = sim.world.find_solid_by_def("BOX")
    sim.run(0.2)
    moved = box.get("translation")
    apply_edit(sim, box, "translation", (0.0, 0.0, 2.0))
    apply_edit(sim, box, "translation", moved, baseline=(0.0, 0.0, 0.1))  # the undo
    assert box.get("translation") == moved
    sim.reset()
    assert box.get("translation") == (0.0, 0.0, 0.1)


def test_baseline_applied_shows_the_edits_without_the_motion() -> None:
    sim = make_sim(FLOOR + BOX, NO_SLEEP)
    box = sim.world.find_solid_by_def("BOX")
    apply_edit(sim, box, "translation", (0.0, 0.0, 1.0))
    sim.run(0.3)
    fallen = box.get("translation")
    with sim.baseline.applied():
        assert box.get("translation") == (0.0, 0.0, 1.0)
    assert box.get("translation") == fallen


def test_reset_keeps_a_node_inserted_mid_run_at_its_inserted_pose() -> None:
    sim = make_sim(FLOOR, NO_SLEEP)
    sim.run(0.1)
    ball = parse_world(world_text("DEF BALL Solid { translation 0 0 2 boundingObject Sphere "
                                  "{ radius 0.1 } physics Physics { } }")).nodes[-1]
    ball_copy = ball.copy()  # detached
    sim.world.add_node(ball_copy, len(sim.world.nodes))
    sim.rebuild()
    sim.run(0.3)
    assert ball_copy.get("translation")[2] < 1.9
    sim.reset()
    assert ball_copy.get("translation") == (0.0, 0.0, 2.0)
    assert np.allclose(ode.dBodyGetPosition(sim.body_from_def("BALL")), [0.0, 0.0, 2.0])


def test_contact_material_edit_takes_effect_at_the_next_step() -> None:
    sim = make_sim("""
Solid { boundingObject Plane { } contactMaterial "floor" }
DEF BOX Solid {
  translation 0 0 0.05
  boundingObject Box { size 0.1 0.1 0.1 }
  physics Physics { density -1 mass 1 }
  linearVelocity 1 0 0
}
""", 'basicTimeStep 10 contactProperties [ ContactProperties { material1 "floor" '
     'material2 "ice" coulombFriction [ 0 ] bounce 0 } ]')
    box = sim.world.find_solid_by_def("BOX")
    body = sim.model.record_of(box).ode_body
    for _ in range(10):
        sim.step()
    slowed = ode.dBodyGetLinearVel(body)[0]
    assert slowed < 0.95                              # default friction (mu 1) brakes it
    apply_edit(sim, box, "contactMaterial", "ice")
    for _ in range(10):
        sim.step()
    assert abs(ode.dBodyGetLinearVel(body)[0] - slowed) < 1e-9   # no friction any more
