"""Default contact handling: ContactProperties lookup, surface values, filters, hooks."""

from __future__ import annotations

import numpy as np
import pytest

from engine import ode
from engine.ode.joints.contact import MU, SOFT_CFM
from engine.sim.contacts import DEFAULT_SURFACE, Surface, surface_parameters
from tests.engine.sim.helpers import make_sim

FLOOR = 'DEF FLOOR Solid { contactMaterial "floor" boundingObject Plane { } }'


def _ball(mat: str = "default", z: float = 0.09, name: str = "BALL") -> str:
    return (f'DEF {name} Solid {{ translation 0 0 {z} contactMaterial "{mat}" '
            "boundingObject Sphere { radius 0.1 } physics Physics { } }")


def _props(body: str) -> str:
    return f"contactProperties [ ContactProperties {{ {body} }} ]"


def test_lookup_matches_both_orders_and_falls_back_to_defaults() -> None:
    sim = make_sim(FLOOR + _ball("rubber"),
                   _props('material1 "rubber" material2 "floor" coulombFriction 0.7 '
                          "bounce 0.1"))
    h = sim._handler
    s, swapped = h.lookup("rubber", "floor")
    assert s.coulomb == (0.7,) and not swapped
    s2, swapped2 = h.lookup("floor", "rubber")
    assert s2 is s and swapped2
    assert h.lookup("floor", "steel")[0] == DEFAULT_SURFACE


def test_first_matching_contact_properties_wins() -> None:
    sim = make_sim("", 'contactProperties [ ContactProperties { material1 "a" material2 "b" '
                   'bounce 0.1 } ContactProperties { material1 "b" material2 "a" bounce 0.2 } ]')
    assert sim._handler.lookup("b", "a")[0].bounce == 0.1


def test_default_surface_values() -> None:
    sp, fdir = surface_parameters(DEFAULT_SURFACE, False)
    assert sp.mu == 1.0 and sp.bounce == 0.5 and sp.bounce_vel == 0.01
    assert sp.soft_erp == 0.2 and sp.soft_cfm == 0.001
    assert sp.mode == (ode.dContactApprox1 | ode.dContactSoftERP | ode.dContactSoftCFM
                       | ode.dContactBounce)
    assert not fdir


def test_coulomb_minus_one_is_infinity_and_two_values_use_mu2() -> None:
    sp, _ = surface_parameters(Surface(coulomb=(-1.0,)), False)
    assert sp.mu == ode.dInfinity
    sp, fdir = surface_parameters(Surface(coulomb=(0.2, 0.8), bounce=0.0), False)
    assert sp.mu == 0.2 and sp.mu2 == 0.8 and fdir
    assert sp.mode & ode.dContactMu2 and not sp.mode & ode.dContactBounce


def test_four_coulomb_values_pick_the_solid_of_each_material() -> None:
    s = Surface(coulomb=(0.1, 0.2, 0.3, 0.4))
    assert surface_parameters(s, False)[0].mu == 0.1
    sp, _ = surface_parameters(s, True)
    assert (sp.mu, sp.mu2) == (0.3, 0.4)


def test_rolling_friction_and_slip() -> None:
    sp, _ = surface_parameters(Surface(rolling=(0.1, -1.0, 0.0), slip=(0.5,)), False)
    assert sp.mode & ode.dContactRolling and sp.rho == 0.1 and sp.rho2 == ode.dInfinity
    assert sp.mode & ode.dContactSlip1 and sp.mode & ode.dContactSlip2
    assert sp.slip1 == 0.5 and sp.slip2 == 0.5


@pytest.mark.parametrize("batched", [True, False])
def test_contact_surface_comes_from_the_matching_properties(batched: bool) -> None:
    sim = make_sim(FLOOR + _ball("rubber"),
                   _props('material1 "floor" material2 "rubber" coulombFriction -1 '
                          "softCFM 0.01"))
    sim._handler.batched = batched
    sim._handler.run(0.0)
    joints = sim.contact_group.joints
    data = sim.model.ode_world.joints.data
    assert joints
    assert all(data[j.index, MU] == ode.dInfinity and data[j.index, SOFT_CFM] == 0.01
               for j in joints)


def test_max_contact_joints_keeps_the_deepest() -> None:
    # a tilted box on the floor: 4 corner contacts, 1 kept -> the deepest corner
    box = ("DEF B Solid { translation 0 0 0.03 rotation 1 1 0 0.05 boundingObject Box { "
           "size 0.3 0.3 0.1 } physics Physics { } }")
    sim = make_sim(FLOOR + box, _props('material1 "floor" maxContactJoints 1'))
    all_points = ode.dCollide(sim.geom_from_def("FLOOR"), sim.geom_from_def("B"), 100)
    sim.step()
    assert len(all_points) > 1
    assert len(sim.contacts) == 1
    assert sim.contacts[0].depth == pytest.approx(max(p.depth for p in all_points))
    assert any("keeping the deepest 1" in t for _, t in sim.console.lines)


def test_bodies_joined_by_a_joint_get_no_contacts() -> None:
    joined = ("DEF A Solid { boundingObject Sphere { radius 0.2 } physics Physics { } "
              "children [ HingeJoint { endPoint DEF C Solid { translation 0.1 0 0 "
              "boundingObject Sphere { radius 0.2 } physics Physics { } } } ] }")
    sim = make_sim(joined, "gravity 0")
    sim.step()
    assert sim.contacts == []


def test_unjoined_overlapping_bodies_do_get_contacts() -> None:
    sim = make_sim(_ball(name="A", z=0) + _ball(name="C", z=0.1), "gravity 0")
    sim.step()
    assert sim.contacts


def test_static_static_pairs_are_skipped() -> None:
    sim = make_sim(FLOOR + "Solid { translation 0 0 0 boundingObject Box { size 1 1 1 } }")
    calls = []
    sim.collide_hook = lambda g1, g2: calls.append((g1, g2)) or 0
    sim.step()
    assert calls  # the pair was a candidate
    assert sim.contacts == []


def test_same_robot_without_self_collision_is_skipped() -> None:
    robot = ("Robot { children [ Solid { boundingObject Sphere { radius 0.2 } physics Physics "
             "{ } } HingeJoint { endPoint Solid { children [ Solid { translation 0.1 0 0 "
             "boundingObject Sphere { radius 0.2 } } ] physics Physics { } } } ] "
             "physics Physics { } boundingObject Box { size 0.01 0.01 0.01 } }")
    sim = make_sim(robot, "gravity 0")
    sim.step()
    assert sim.contacts == []


def test_collide_hook_runs_first_and_2_marks_colliding() -> None:
    sim = make_sim(FLOOR + _ball())
    sim.collide_hook = lambda g1, g2: 2
    sim.step()
    assert sim.contacts == []
    assert sim.colliding_geoms == {sim.geom_from_def("FLOOR"), sim.geom_from_def("BALL")}


def test_hook_sees_group_spaces_and_their_members() -> None:
    group = ("DEF G Solid { translation 0 0 0.09 boundingObject Group { children [ "
             "Sphere { radius 0.1 } ] } physics Physics { } }")
    sim = make_sim(FLOOR + group)
    pairs = []
    sim.collide_hook = lambda g1, g2: pairs.append({g1, g2}) or 0
    sim.step()
    space = sim.geom_from_def("G")
    floor = sim.geom_from_def("FLOOR")
    assert {floor, space} in pairs
    assert {floor, ode.dSpaceGetGeom(space, 0)} in pairs
    assert sim.contacts


def test_plugin_geoms_never_get_default_contacts() -> None:
    sim = make_sim(FLOOR)
    ode.dCreateSphere(sim.model.space, 0.5)
    sim.step()
    assert sim.contacts == []


def test_friction_direction_is_perpendicular_to_the_normal() -> None:
    from engine.sim.contacts import friction_direction

    sim = make_sim(_ball())
    rec = sim.model.record_of(sim.world.find_solid_by_def("BALL"))
    d = friction_direction([0, 0, 1], rec, 0.0)
    assert np.allclose(d, [1, 0, 0])
    d = friction_direction([0, 0, 1], rec, np.pi / 2)
    assert np.allclose(d, [0, 1, 0])


def test_endpoint_and_its_static_parent_get_no_contacts() -> None:
    arm = ("Solid { boundingObject Box { size 0.2 0.2 0.2 } children [ HingeJoint { endPoint "
           "Solid { translation 0.1 0 0 boundingObject Sphere { radius 0.1 } physics "
           "Physics { } } } ] }")
    sim = make_sim(arm, "gravity 0")
    sim.step()
    assert sim.contacts == []
    # the same overlap without the joint does collide
    loose = ("Solid { boundingObject Box { size 0.2 0.2 0.2 } } Solid { translation 0.1 0 0 "
             "boundingObject Sphere { radius 0.1 } physics Physics { } }")
    sim = make_sim(loose, "gravity 0")
    sim.step()
    assert sim.contacts
