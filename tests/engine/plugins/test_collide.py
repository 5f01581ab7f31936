"""webots_physics_collide: 0/1/2, spaces and rays reach it, plugin geoms get no default contacts."""

from __future__ import annotations

from engine import ode
from tests.engine.plugins.helpers import BOX_ON_FLOOR, TWO_BOXES_ON_FLOOR, make_host

VERDICT = """
from engine.plugins.physics import *
PAIRS = []
VERDICT = {verdict}
def webots_physics_collide(g1, g2):
    PAIRS.append((g1, g2))
    return VERDICT
def webots_physics_step():
    pass
def webots_physics_cleanup():
    pass
"""


def _box_z(sim) -> float:
    return sim.world.find_solid_by_def("BOX").get("translation")[2]


def test_zero_keeps_default_contacts(tmp_path) -> None:
    sim, host = make_host(tmp_path, VERDICT.format(verdict=0))
    for _ in range(20):
        host.step()
    assert sim.contacts and sim.colliding_geoms == set()
    assert abs(_box_z(sim) - 0.1) < 2e-3
    assert sim.collide_hook == host.collide  # pairs go through the plugin one by one
    box, floor = sim.geom_from_def("BOX"), sim.geom_from_def("FLOOR")
    assert any({id(a), id(b)} == {id(box), id(floor)} for a, b in host.plugin.module.PAIRS)


def test_one_suppresses_default_contacts(tmp_path) -> None:
    sim, host = make_host(tmp_path, VERDICT.format(verdict=1))
    for _ in range(20):
        host.step()
    assert sim.contacts == [] and sim.colliding_geoms == set()
    assert _box_z(sim) < 0.0   # nothing holds the box: it falls through the floor


def test_two_suppresses_and_marks_both_geoms_colliding(tmp_path) -> None:
    sim, host = make_host(tmp_path, VERDICT.format(verdict=2))
    host.step()
    assert sim.contacts == []
    assert sim.colliding_geoms == {sim.geom_from_def("BOX"), sim.geom_from_def("FLOOR")}


def test_true_means_handled_and_none_means_default(tmp_path) -> None:
    sim, host = make_host(tmp_path, VERDICT.format(verdict=True))
    host.step()
    assert host.running and sim.contacts == []
    sim, host = make_host(tmp_path / "none", VERDICT.format(verdict=None))
    host.step()
    assert host.running and sim.contacts


def test_a_bad_value_is_a_fault_once_the_pass_is_over(tmp_path) -> None:
    sim, host = make_host(tmp_path, """
        from engine.plugins.physics import *
        ASKED = []
        def webots_physics_collide(g1, g2):
            ASKED.append(1)
            return "bad" if len(ASKED) == 1 else 1
        def webots_physics_step():
            pass
        def webots_physics_cleanup():
            pass
    """, nodes=TWO_BOXES_ON_FLOOR)
    host.step()
    assert not host.running and sim.paused
    assert "must return 0, 1 or 2, not 'bad'" in host.errors[-1].message
    assert len(host.plugin.module.ASKED) > 1  # the pairs after the bad one were asked


def test_a_missing_collide_means_zero(tmp_path) -> None:
    sim, host = make_host(tmp_path, """
        def webots_physics_step():
            pass
        def webots_physics_cleanup():
            pass
    """)
    host.step()
    assert sim.contacts
    assert sim.collide_hook is None and sim._handler._batch is not None  # the batched pass


def test_a_faulted_collide_leaves_the_batched_pass(tmp_path) -> None:
    sim, host = make_host(tmp_path, VERDICT.format(verdict="'bad'"))
    host.step()  # the verdict is not 0, 1 or 2: the plugin is disabled
    assert not host.running and sim.paused
    sim.resume()  # carry on without the plugin, as Run does after a fault
    assert host.step()
    assert sim.collide_hook is None and sim.contacts


GROUP_ROBOT = """
DEF FLOOR Solid {
  name "floor"
  boundingObject Plane { }
}
DEF ROBOT Solid {
  translation 0 0 0.05
  name "robot"
  boundingObject Group { children [
    Box { size 0.1 0.1 0.1 }
    Pose { translation 0 0 0.1 children [ Sphere { radius 0.05 } ] }
  ] }
  physics Physics { }
}
"""


def test_group_spaces_and_their_members_reach_the_hook(tmp_path) -> None:
    sim, host = make_host(tmp_path, VERDICT.format(verdict=0), nodes=GROUP_ROBOT)
    host.step()
    pairs = host.plugin.module.PAIRS
    space = sim.geom_from_def("ROBOT")
    assert ode.dGeomIsSpace(space)
    assert any(space is a or space is b for a, b in pairs)
    members = {id(ode.dSpaceGetGeom(space, i)) for i in range(ode.dSpaceGetNumGeoms(space))}
    assert any(id(a) in members or id(b) in members for a, b in pairs)


def test_returning_one_for_the_space_stops_the_recursion(tmp_path) -> None:
    sim, host = make_host(tmp_path, VERDICT.format(verdict=1), nodes=GROUP_ROBOT)
    host.step()
    space = sim.geom_from_def("ROBOT")
    pairs = host.plugin.module.PAIRS
    assert len(pairs) == 1 and space in pairs[0]


PLUGIN_GEOMS = """
from engine.plugins.physics import *
PAIRS = []
def webots_physics_init():
    global BALL, BALL_GEOM, RAY
    floor = dWebotsGetGeomFromDEF("FLOOR")
    space = dGeomGetSpace(floor)
    world = dBodyGetWorld(dWebotsGetBodyFromDEF("BOX"))
    BALL = dBodyCreate(world)
    dBodySetPosition(BALL, 1.0, 0.0, 0.049)
    m = dMass()
    dMassSetSphere(m, 1000.0, 0.05)
    dBodySetMass(BALL, m)
    BALL_GEOM = dCreateSphere(space, 0.05)
    dGeomSetBody(BALL_GEOM, BALL)
    RAY = dCreateRay(space, 1.0)
    dGeomRaySet(RAY, -1.0, 0.0, 0.5, 0.0, 0.0, -1.0)
    dGeomSetDynamicFlag(RAY)
def webots_physics_collide(g1, g2):
    PAIRS.append((g1, g2))
    return 0
def webots_physics_step():
    pass
def webots_physics_cleanup():
    dGeomDestroy(BALL_GEOM)
    dGeomDestroy(RAY)
    dBodyDestroy(BALL)
"""


def test_plugin_geoms_and_rays_reach_the_hook_but_never_get_default_contacts(tmp_path) -> None:
    sim, host = make_host(tmp_path, PLUGIN_GEOMS, nodes=BOX_ON_FLOOR)
    mod = host.plugin.module
    floor = sim.geom_from_def("FLOOR")
    for _ in range(10):
        host.step()
    pairs = mod.PAIRS

    def seen(g):
        return any({id(a), id(b)} == {id(g), id(floor)} for a, b in pairs)
    assert seen(mod.BALL_GEOM) and seen(mod.RAY)
    solids = {c.solid1.node.get("name") for c in sim.contacts} | {
        c.solid2.node.get("name") for c in sim.contacts}
    assert solids == {"floor", "box"}       # the box rests; nothing for the plugin's ball
    assert ode.dBodyGetPosition(mod.BALL)[2] < 0.0   # the ball fell through the floor
    host.close()
