"""Solid/Physics -> bodies: mass rules, centre of mass, merging, static solids, poses."""

from __future__ import annotations

import math

import numpy as np
import pytest

from engine import ode
from engine.sim import BuildError
from tests.engine.sim.helpers import body_mass, inertia3, make_sim, rotation3

BOX = "boundingObject Box { size 0.2 0.4 0.6 }"


def test_density_gives_mass_from_volume() -> None:
    sim = make_sim(f"DEF B Solid {{ {BOX} physics Physics {{ density 500 }} }}")
    m = body_mass(sim.body_from_def("B"))
    assert m.mass == pytest.approx(500 * 0.2 * 0.4 * 0.6)
    expected = m.mass / 12 * np.array([0.4**2 + 0.6**2, 0.2**2 + 0.6**2, 0.2**2 + 0.4**2])
    assert np.allclose(np.diag(inertia3(m)), expected)


def test_mass_wins_over_density_with_a_warning() -> None:
    sim = make_sim(f"DEF B Solid {{ {BOX} physics Physics {{ density 500 mass 3 }} }}")
    assert body_mass(sim.body_from_def("B")).mass == pytest.approx(3.0)
    assert any("'density' will be ignored" in t for _, t in sim.console.lines)


def test_mass_only_scales_the_box_inertia() -> None:
    sim = make_sim(f"DEF B Solid {{ {BOX} physics Physics {{ density -1 mass 3 }} }}")
    m = body_mass(sim.body_from_def("B"))
    assert m.mass == pytest.approx(3.0)
    assert inertia3(m)[2, 2] == pytest.approx(3.0 / 12 * (0.2**2 + 0.4**2))
    assert not sim.console.lines


def test_both_minus_one_warns_and_uses_density_1000() -> None:
    sim = make_sim(f"DEF B Solid {{ {BOX} physics Physics {{ density -1 mass -1 }} }}")
    assert body_mass(sim.body_from_def("B")).mass == pytest.approx(1000 * 0.048)
    assert any("both -1" in t for _, t in sim.console.lines)


def test_inertia_matrix_is_passed_unchanged() -> None:
    sim = make_sim("DEF B Solid { physics Physics { density -1 mass 2 "
                   "inertiaMatrix [0.1 0.2 0.3, 0.01 0.02 0.03] } }")
    I = inertia3(body_mass(sim.body_from_def("B")))
    assert np.allclose(I, [[0.1, 0.01, 0.02], [0.01, 0.2, 0.03], [0.02, 0.03, 0.3]])


def test_inertia_matrix_is_about_an_offset_center_of_mass() -> None:
    # Webots defines inertiaMatrix about the centre of mass; I + m [c]x^2 about
    # the Solid origin would not be positive definite here (it was refused)
    sim = make_sim("DEF B Solid { translation 1 0 0 physics Physics { density -1 mass 2 "
                   "centerOfMass [0 0 0.5] inertiaMatrix [0.1 0.2 0.3, 0.01 0 0] } }")
    b = sim.body_from_def("B")
    assert np.allclose(ode.dBodyGetPosition(b), [1, 0, 0.5])
    m = body_mass(b)
    assert m.mass == pytest.approx(2.0)
    assert np.allclose(m.c[:3], 0.0)
    assert np.allclose(inertia3(m), [[0.1, 0.01, 0], [0.01, 0.2, 0], [0, 0, 0.3]])


def test_inertia_matrix_without_mass_is_an_error_naming_the_solid() -> None:
    with pytest.raises(BuildError, match=r"DEF B.*inertiaMatrix"):
        make_sim("DEF B Solid { physics Physics { inertiaMatrix [1 1 1, 0 0 0] } }")


def test_center_of_mass_moves_the_body_but_not_the_solid() -> None:
    sim = make_sim(f"DEF B Solid {{ translation 1 2 3 {BOX} "
                   "physics Physics { centerOfMass [0 0 0.1] } }")
    b = sim.body_from_def("B")
    assert np.allclose(ode.dBodyGetPosition(b), [1, 2, 3.1])
    # the geom stays where the Solid is
    g = sim.geom_from_def("B")
    assert np.allclose(ode.dGeomGetPosition(g), [1, 2, 3])
    rec = sim.model.record_of(sim.world.find_solid_by_def("B"))
    assert np.allclose(sim.solid_world_frame(rec).t, [1, 2, 3])


def test_center_of_mass_from_an_offset_bounding_object() -> None:
    sim = make_sim("DEF B Solid { boundingObject Pose { translation 0.5 0 0 children "
                   "[ Sphere { radius 0.1 } ] } physics Physics { } }")
    assert np.allclose(ode.dBodyGetPosition(sim.body_from_def("B")), [0.5, 0, 0])


def test_rotation_axis_angle_sets_the_body_rotation() -> None:
    sim = make_sim(f"DEF B Solid {{ rotation 0 0 1 1.5707963267948966 {BOX} "
                   "physics Physics { } }")
    R = rotation3(sim.body_from_def("B"))
    assert np.allclose(R @ [1, 0, 0], [0, 1, 0], atol=1e-12)


def test_poses_compose_through_pose_and_transform_parents() -> None:
    sim = make_sim("Pose { translation 1 0 0 rotation 0 0 1 1.5707963267948966 children [ "
                   "Transform { translation 0 2 0 children [ DEF B Solid { translation 1 0 0 "
                   f"{BOX} physics Physics {{ }} }} ] }} ] }}")
    # Pose maps (x, y) -> (1 - y, x); B is at (1, 2, 0) in the Pose frame
    assert np.allclose(ode.dBodyGetPosition(sim.body_from_def("B")), [-1, 1, 0], atol=1e-12)


def test_nested_physics_solids_merge_into_one_body() -> None:
    sim = make_sim("DEF A Solid { boundingObject Box { size 1 1 1 } physics Physics { "
                   "density -1 mass 1 } children [ DEF C Solid { translation 2 0 0 "
                   "boundingObject Box { size 1 1 1 } physics Physics { density -1 mass 3 } } ] }")
    a, c = sim.body_from_def("A"), sim.body_from_def("C")
    assert a is c
    assert len(sim.model.bodies) == 1
    m = body_mass(a)
    assert m.mass == pytest.approx(4.0)
    # centre of mass at 3/4 * 2 along x; inertia about it includes the parallel-axis terms
    assert np.allclose(ode.dBodyGetPosition(a), [1.5, 0, 0])
    Iyy = 4 * (1 / 6) + 1 * 1.5**2 + 3 * 0.5**2
    assert inertia3(m)[1, 1] == pytest.approx(Iyy)
    # the child's geom is attached to the merged body at its own place
    g = sim.geom_from_def("A.C")
    assert ode.dGeomGetBody(g) is a
    assert np.allclose(ode.dGeomGetPosition(g), [2, 0, 0])


def test_solid_without_physics_is_static_geoms_only() -> None:
    sim = make_sim("DEF S Solid { translation 0 0 1 boundingObject Sphere { radius 0.5 } }")
    assert sim.body_from_def("S") is None
    g = sim.geom_from_def("S")
    assert ode.dGeomGetBody(g) is None
    assert np.allclose(ode.dGeomGetPosition(g), [0, 0, 1])
    assert not sim.model.bodies


def test_physics_solid_inside_a_static_solid_is_fixed_to_the_world() -> None:
    sim = make_sim("Solid { children [ DEF P Solid { translation 0 0 1 "
                   "boundingObject Sphere { radius 0.1 } physics Physics { } } ] }")
    b = sim.body_from_def("P")
    for _ in range(20):
        sim.step()
    # soft (CFM 1e-5) but held: a free body would have fallen 2 m
    assert np.allclose(ode.dBodyGetPosition(b), [0, 0, 1], atol=1e-3)
    assert len(sim.model.fixed_joints) == 1


def test_top_level_physics_solid_is_free_and_falls() -> None:
    sim = make_sim("DEF P Solid { translation 0 0 1 boundingObject Sphere { radius 0.1 } "
                   "physics Physics { } }")
    for _ in range(10):
        sim.step()
    assert sim.world.find_solid_by_def("P").get("translation")[2] < 1.0


def test_initial_velocities_are_given_to_the_body() -> None:
    sim = make_sim("DEF P Solid { linearVelocity 1 2 3 angularVelocity 0 0 4 "
                   "boundingObject Sphere { radius 0.1 } physics Physics { } }")
    b = sim.body_from_def("P")
    assert np.allclose(ode.dBodyGetLinearVel(b), [1, 2, 3])
    assert np.allclose(ode.dBodyGetAngularVel(b), [0, 0, 4])


def test_damping_is_converted_per_step() -> None:
    sim = make_sim("DEF P Solid { boundingObject Sphere { radius 0.1 } physics Physics { "
                   "damping Damping { linear 0.5 angular 0.25 } } }", "basicTimeStep 20")
    b = sim.body_from_def("P")
    assert ode.dBodyGetLinearDamping(b) == pytest.approx(1 - 0.5**0.02)
    assert ode.dBodyGetAngularDamping(b) == pytest.approx(1 - 0.75**0.02)


def test_default_damping_applies_to_bodies_without_their_own() -> None:
    sim = make_sim("DEF P Solid { boundingObject Sphere { radius 0.1 } physics Physics { } }",
                   "basicTimeStep 10 defaultDamping Damping { linear 0.1 angular 0.2 }")
    b = sim.body_from_def("P")
    assert ode.dBodyGetLinearDamping(b) == pytest.approx(1 - 0.9**0.01)


def test_body_from_def_of_a_merged_child_and_of_a_pose() -> None:
    sim = make_sim("DEF A Solid { physics Physics { } boundingObject Sphere { radius 1 } "
                   "children [ DEF POSE Pose { children [ DEF C Solid { physics Physics { } "
                   "boundingObject Sphere { radius 1 } } ] } ] }")
    assert sim.body_from_def("C") is sim.body_from_def("A")
    assert sim.body_from_def("POSE") is None
    assert sim.body_from_def("") is None
    assert sim.body_from_def("MISSING") is None


def test_pose_write_back_of_a_rotating_body() -> None:
    sim = make_sim("DEF P Solid { translation 0 0 5 angularVelocity 0 0 1 "
                   "boundingObject Sphere { radius 0.1 } physics Physics { } }",
                   "gravity 0 basicTimeStep 100 physicsDisableTime -1")
    for _ in range(10):
        sim.step()
    rot = sim.world.find_solid_by_def("P").get("rotation")
    assert rot[3] == pytest.approx(1.0, abs=1e-3)
    assert abs(rot[2]) == pytest.approx(1.0)
    assert math.copysign(1, rot[2]) * rot[3] > 0
