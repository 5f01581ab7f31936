"""Every fact of the step order in docs/simulation.md, "Step order", recorded from inside one step."""

from __future__ import annotations

import numpy as np
import pytest

from engine import ode
from tests.engine.plugins.helpers import make_host

ORDER_PLUGIN = """
from engine.plugins.physics import *
EVENTS = []
BOX = None
def webots_physics_init():
    global BOX
    BOX = dWebotsGetBodyFromDEF("BOX")
def webots_physics_step():
    EVENTS.append(("step", dWebotsGetTime(), float(dBodyGetPosition(BOX)[2])))
def webots_physics_step_end():
    EVENTS.append(("step_end", dWebotsGetTime(), float(dBodyGetPosition(BOX)[2])))
def webots_physics_collide(g1, g2):
    EVENTS.append(("collide",))
    return 0
def webots_physics_cleanup():
    pass
"""

FALLING = """
DEF FLOOR Solid {
  name "floor"
  boundingObject Plane { }
}
DEF BOX Solid {
  translation 0 0 0.0999
  name "box"
  boundingObject Box { size 0.2 0.2 0.2 }
  physics Physics { density -1 mass 1 }
}
"""


@pytest.fixture
def recorded(tmp_path, monkeypatch):
    sim, host = make_host(tmp_path, ORDER_PLUGIN, nodes=FALLING)
    events = host.plugin.module.EVENTS

    def wrap(name):
        original = getattr(ode, name)

        def recorder(*args):
            events.append((name, "begin"))
            out = original(*args)
            events.append((name, "end"))
            return out
        monkeypatch.setattr(ode, name, recorder)

    for name in ("dWorldStep", "dJointGroupEmpty"):
        wrap(name)
    collision_pass = sim._handler.run

    def recorded_pass(*args):
        events.append(("collision", "begin"))
        collision_pass(*args)
        events.append(("collision", "end"))
    monkeypatch.setattr(sim._handler, "run", recorded_pass)
    original_before = sim.before_step

    def before_step():
        events.append(("before_step",))
        original_before()
    sim.before_step = before_step
    return sim, host, events


def test_one_step_runs_in_the_documented_order(recorded) -> None:
    sim, host, events = recorded
    assert host.step()
    names = [e[0] if len(e) < 2 or e[0] in ("step", "step_end") else f"{e[0]}:{e[1]}"
             for e in events]
    assert names == ["before_step", "collision:begin", "collide", "collision:end",
                     "step", "dWorldStep:begin", "dWorldStep:end", "step_end",
                     "dJointGroupEmpty:begin", "dJointGroupEmpty:end",
                     "dJointGroupEmpty:begin", "dJointGroupEmpty:end"]


def test_time_is_in_ms_and_advances_after_step_end(recorded) -> None:
    sim, host, events = recorded
    for _ in range(3):
        host.step()
    steps = [e for e in events if e[0] == "step"]
    ends = [e for e in events if e[0] == "step_end"]
    assert [e[1] for e in steps] == [0.0, 10.0, 20.0]
    assert [e[1] for e in ends] == [0.0, 10.0, 20.0]
    assert sim.time_ms == 30.0


def test_step_sees_the_old_pose_and_step_end_the_new_one(recorded) -> None:
    sim, host, events = recorded
    box = sim.model.record_of(sim.world.find_solid_by_def("BOX"))
    ode.dBodySetPosition(box.body, 0, 0, 1.0)  # free fall, away from the floor
    host.step()
    step = next(e for e in events if e[0] == "step")
    end = next(e for e in events if e[0] == "step_end")
    assert step[2] == 1.0
    assert end[2] < 1.0


def test_fields_are_written_after_step_end(tmp_path) -> None:
    sim, host = make_host(tmp_path, """
        from engine.plugins.physics import *
        SEEN = []
        def webots_physics_step_end():
            SEEN.append(BOX_NODE.get("translation")[2])
        def webots_physics_step():
            pass
        def webots_physics_cleanup():
            pass
    """, nodes=FALLING.replace("0.0999", "1"))
    node = sim.world.find_solid_by_def("BOX")
    host.plugin.module.BOX_NODE = node
    host.step()
    assert host.plugin.module.SEEN == [1.0]
    assert node.get("translation")[2] < 1.0


CONTACT_PLUGIN = """
from engine.plugins.physics import *
FEEDBACK = []
SEEN_IN_STEP_END = []
def webots_physics_init():
    global BOX, FLOOR
    BOX = dWebotsGetGeomFromDEF("BOX")
    FLOOR = dWebotsGetGeomFromDEF("FLOOR")
def webots_physics_collide(g1, g2):
    if not ({id(g1), id(g2)} == {id(BOX), id(FLOOR)}):
        return 0
    body = dGeomGetBody(BOX)
    for cg in dCollide(g1, g2, 10):
        c = dContact()
        c.surface.mode = dContactApprox1
        c.surface.mu = 1.0
        c.geom = cg
        j = dJointCreateContact(dBodyGetWorld(body), dWebotsGetContactJointGroup(), c)
        dJointAttach(j, dGeomGetBody(g1), dGeomGetBody(g2))
        fb = dJointFeedback()
        dJointSetFeedback(j, fb)
        FEEDBACK.append((fb, dGeomGetBody(g1) is not None))
    return 1
def webots_physics_step():
    FEEDBACK_AT_STEP.append(len(FEEDBACK))
def webots_physics_step_end():
    # the force on the box (body 1 of the joint when g1 is the box)
    SEEN_IN_STEP_END.append(sum((fb.f1 if first else fb.f2)[2] for fb, first in FEEDBACK))
    FEEDBACK.clear()
def webots_physics_cleanup():
    pass
FEEDBACK_AT_STEP = []
"""


def test_contacts_of_this_collide_act_in_this_step_and_feedback_is_read_in_step_end(
        tmp_path) -> None:
    sim, host = make_host(tmp_path, CONTACT_PLUGIN, nodes=FALLING)
    mod = host.plugin.module
    host.step()
    assert mod.FEEDBACK_AT_STEP[0] > 0          # collide ran before step
    assert mod.SEEN_IN_STEP_END[0] > 0.0        # feedback filled by this world step
    box = sim.world.find_solid_by_def("BOX")
    for _ in range(30):
        host.step()
    # the plugin's contacts (the only ones: it returned 1) hold the box up
    assert box.get("translation")[2] == pytest.approx(0.1, abs=2e-3)
    assert sim.contacts == []
    # support ~ m g = 9.81 N
    assert np.isclose(mod.SEEN_IN_STEP_END[-1], 9.81, rtol=0.05)


def test_plugin_contact_group_is_emptied_after_each_step(tmp_path, monkeypatch) -> None:
    sim, host = make_host(tmp_path, CONTACT_PLUGIN, nodes=FALLING)
    emptied = []
    original = ode.dJointGroupEmpty
    monkeypatch.setattr(ode, "dJointGroupEmpty", lambda g: (emptied.append(g), original(g)))
    host.step()
    assert sim.plugin_contact_group in emptied
    assert sim.contact_group in emptied


def test_receive_buffer_is_cleared_at_the_start_of_the_next_step(tmp_path) -> None:
    sim, host = make_host(tmp_path, """
        from engine.plugins.physics import *
        GOT = []
        READ = True
        def webots_physics_step():
            if READ:
                GOT.append(dWebotsReceive())
        def webots_physics_cleanup():
            pass
    """)
    mod = host.plugin.module
    host.deliver_from_robot(0, b"abc")
    host.step()
    host.step()
    assert mod.GOT == [b"abc", None]
    assert host.inbox.pending == 0
