"""The step loop: hook order, time, reset, save/load state, NaN detection, reload."""

from __future__ import annotations

import os
import shutil

import numpy as np
import pytest

from engine import ode
from engine.sim import Console, Simulation
from tests.engine.sim.helpers import make_sim

WORLDS = os.path.join(os.path.dirname(__file__), "..", "..", "resources", "worlds")
BOX_WORLD = os.path.join(WORLDS, "sim_box_on_floor.wbt")

STACK = ("DEF FLOOR Solid { boundingObject Plane { } } "
         "DEF A Solid { translation 0 0 0.1 rotation 0 0 1 0.3 boundingObject Box { size 0.2 0.2 "
         "0.2 } physics Physics { } } DEF B Solid { translation 0.02 0 0.31 rotation 1 0 0 0.2 "
         "boundingObject Box { size 0.2 0.2 0.2 } physics Physics { } } "
         "DEF C Solid { translation 1 0 1 children [ HingeJoint { jointParameters "
         "HingeJointParameters { axis 0 1 0 } endPoint Solid { translation 0.5 0 0 "
         "boundingObject Sphere { radius 0.05 } physics Physics { } } } ] }")


def _poses(sim: Simulation) -> list[np.ndarray]:
    out = []
    for rec in sim.model.bodies:
        b = rec.body
        out.append(np.concatenate([ode.dBodyGetPosition(b), ode.dBodyGetQuaternion(b),
                                   ode.dBodyGetLinearVel(b), ode.dBodyGetAngularVel(b)]))
    return out


def test_hooks_run_in_the_documented_order() -> None:
    sim = make_sim("DEF FLOOR Solid { boundingObject Plane { } } DEF P Solid { translation 0 0 "
                   "0.09 boundingObject Sphere { radius 0.1 } physics Physics { } }")
    log = []
    seen_field = []
    p = sim.world.find_solid_by_def("P")
    sim.before_step = lambda: log.append("before_step")
    sim.before_collide = lambda: log.append("before_collide")
    sim.collide_hook = lambda g1, g2: log.append("collide") or 0
    sim.after_collide = lambda: log.append("after_collide")

    def step_end():
        log.append("after_step")
        seen_field.append(p.get("translation"))
        # this step's contacts exist and the clock has not advanced yet
        assert sim.contacts and sim.time_ms == 0.0

    sim.after_step = step_end
    sim.world.add_field_observer(lambda node, name, old, new: log.append(f"field {name}"))
    sim.step()
    # the poses the step computed are read by whoever asks: no field notification
    assert log == ["before_step", "before_collide", "collide", "after_collide", "after_step"]
    assert seen_field == [(0.0, 0.0, 0.09)]   # poses are published after step_end
    moved = p.get("translation")
    assert moved != (0.0, 0.0, 0.09) and moved == tuple(ode.dBodyGetPosition(
        sim.model.record_of(p).body).tolist())
    assert sim.time_ms == sim.basic_time_step


def test_contact_groups_are_empty_after_a_step() -> None:
    sim = make_sim("DEF FLOOR Solid { boundingObject Plane { } } DEF P Solid { translation 0 0 "
                   "0.09 boundingObject Sphere { radius 0.1 } physics Physics { } }")
    b = sim.body_from_def("P")
    extra = ode.dJointCreateContact(sim.model.ode_world, sim.plugin_contact_group, ode.dContact())
    ode.dJointAttach(extra, b, None)
    sim.step()
    assert ode.dBodyGetNumJoints(b) == 0


def test_merged_child_pose_stays_and_parent_moves() -> None:
    sim = make_sim("DEF A Solid { translation 0 0 1 physics Physics { } boundingObject Sphere "
                   "{ radius 0.1 } children [ DEF C Solid { translation 0.5 0 0 physics "
                   "Physics { } boundingObject Sphere { radius 0.1 } } ] }")
    for _ in range(5):
        sim.step()
    a = sim.world.find_solid_by_def("A")
    c = sim.world.find_solid_by_def("C")
    assert a.get("translation")[2] < 1.0
    assert c.get("translation") == (0.5, 0.0, 0.0)
    rec = sim.model.record_of(c)
    assert np.allclose(sim.solid_world_frame(rec).t, np.array(a.get("translation")) + [0.5, 0, 0])


def test_endpoint_pose_is_written_relative_to_its_parent() -> None:
    sim = make_sim(STACK, "physicsDisableTime -1")
    for _ in range(20):
        sim.step()
    end = sim.model.joints[0].node.get("endPoint")
    t = np.array(end.get("translation"))
    # the arm swung down about the hinge at C's origin (1, 0, 1); C is static and not rotated
    body = sim.model.record_of(end).body
    assert np.allclose(t, ode.dBodyGetPosition(body) - [1, 0, 1], atol=1e-12)
    assert t[2] < -0.2


def test_reset_restores_everything_exactly() -> None:
    sim = make_sim(STACK)
    before_fields = [(n, n.get("translation"), n.get("rotation")) for n in sim.world.solids()]
    first = []
    for _ in range(30):
        sim.step()
        first.append(_poses(sim))
    calls = []
    sim.before_reset = lambda: calls.append("cleanup")
    sim.after_reset = lambda: calls.append("init")
    handles = [r.body for r in sim.model.bodies]
    sim.reset()
    assert calls == ["cleanup", "init"]
    assert sim.time_ms == 0.0
    assert [r.body for r in sim.model.bodies] == handles
    for n, t, r in before_fields:
        assert n.get("translation") == t and n.get("rotation") == r
    for k in range(30):
        sim.step()
        for a, b in zip(first[k], _poses(sim), strict=True):
            assert np.array_equal(a, b)


@pytest.mark.parametrize("stepper", ["step", "quickstep"])
def test_save_and_load_state_resume_bit_identically(stepper) -> None:
    sim = make_sim(STACK, stepper=stepper)
    for _ in range(10):
        sim.step()
    state = sim.save_state()
    seed = ode.dRandGetSeed()
    reference = []
    for _ in range(25):
        sim.step()
        reference.append(_poses(sim))
    end_time = sim.time_ms
    sim.load_state(state)
    assert sim.time_ms == 10 * sim.basic_time_step
    assert ode.dRandGetSeed() == seed
    for k in range(25):
        sim.step()
        for a, b in zip(reference[k], _poses(sim), strict=True):
            assert np.array_equal(a, b)
    assert sim.time_ms == end_time


def test_two_simulations_of_one_world_are_bit_identical() -> None:
    a = make_sim(STACK, stepper="quickstep")
    for _ in range(20):
        a.step()
    pa = _poses(a)
    b = make_sim(STACK, stepper="quickstep")
    for _ in range(20):
        b.step()
    for x, y in zip(pa, _poses(b), strict=True):
        assert np.array_equal(x, y)


def test_nan_pauses_and_names_the_solid() -> None:
    sim = make_sim('DEF P Solid { name "probe" boundingObject Sphere { radius 0.1 } '
                   "physics Physics { } }")

    def blow_up():
        # two finite forces overflow to an infinite accumulator, then NaN/inf states
        ode.dBodyAddForce(sim.body_from_def("P"), 1e308, 0, 0)
        ode.dBodyAddForce(sim.body_from_def("P"), 1e308, 0, 0)

    sim.after_collide = blow_up
    translation = sim.world.find_solid_by_def("P").get("translation")
    with np.errstate(over="ignore", invalid="ignore"):   # the overflow is the point
        assert sim.step() is False
    assert sim.paused
    assert "DEF P" in sim.pause_message and "unstable" in sim.pause_message
    assert any("DEF P" in t for _, t in sim.console.lines)
    assert sim.world.find_solid_by_def("P").get("translation") == translation
    assert sim.time_ms == 0.0
    assert sim.step() is False


def test_exploding_body_pauses() -> None:
    sim = make_sim('Solid { name "rocket" boundingObject Sphere { radius 0.1 } '
                   "physics Physics { } }", "gravity 0")
    b = sim.model.bodies[0].body
    ode.dBodySetLinearVel(b, 1e7, 0, 0)
    assert not sim.step()
    assert "Solid 'rocket'" in sim.pause_message and "exploded" in sim.pause_message


def test_reset_clears_a_pause() -> None:
    sim = make_sim("DEF P Solid { boundingObject Sphere { radius 0.1 } physics Physics { } }")
    ode.dBodySetLinearVel(sim.body_from_def("P"), 1e7, 0, 0)
    sim.step()
    assert sim.paused
    sim.reset()
    assert not sim.paused and sim.step()


def test_reload_parses_the_file_again(tmp_path) -> None:
    path = tmp_path / "w.wbt"
    shutil.copy(BOX_WORLD, path)
    sim = Simulation(str(path))
    sim.step()
    path.write_text(path.read_text().replace("mass 2", "mass 5"))
    sim.reload()
    assert sim.time_ms == 0.0
    assert ode.dBodyGetMass(sim.body_from_def("BOX")).mass == pytest.approx(5.0)


def test_console_lines_listeners_and_clear() -> None:
    console = Console()
    heard = []
    console.add_listener(lambda s, t: heard.append((s, t)))
    make_sim("DEF B Solid { physics Physics { density 1 mass 1 } boundingObject Sphere "
             "{ radius 1 } }", console=console)
    assert console.lines and console.lines[0][0] == "odeon"
    assert "DEF B" in console.lines[0][1]
    console.clear()
    assert console.lines == [] and heard[-1] == ("odeon", "\f")


def test_run_for_a_duration() -> None:
    sim = Simulation(BOX_WORLD)
    assert sim.run(0.5) == 50
    assert sim.time_ms == pytest.approx(500.0)


def test_reload_of_an_in_memory_world_starts_from_the_initial_fields() -> None:
    sim = make_sim("DEF P Solid { translation 0 0 1 boundingObject Sphere { radius 0.1 } "
                   "physics Physics { } }")
    old_body = sim.body_from_def("P")
    for _ in range(5):
        sim.step()
    sim.reload()
    assert sim.body_from_def("P") is not old_body
    assert sim.world.find_solid_by_def("P").get("translation") == (0.0, 0.0, 1.0)
    assert np.allclose(ode.dBodyGetPosition(sim.body_from_def("P")), [0, 0, 1])


def test_a_collision_pass_alone_makes_contacts_but_moves_nothing() -> None:
    sim = make_sim("""
        Solid { boundingObject Plane { } }
        DEF BOX Solid { translation 0 0 0.049 boundingObject Box { size 0.1 0.1 0.1 }
                        physics Physics { } }
    """)
    box = sim.body_from_def("BOX")
    before = ode.dBodyGetPosition(box).copy()
    assert sim.collision_pass() == 4  # the box's four bottom corners
    assert len(sim.contacts) == 4
    assert sim.time_ms == 0.0
    assert np.array_equal(ode.dBodyGetPosition(box), before)
    assert ode.dBodyGetNumJoints(box) == 0  # the contact joints were dropped again
