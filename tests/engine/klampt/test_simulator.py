"""Simulator: time and sub-steps, gravity, status, IDs and names, updateWorld,
fakeSimulate (the seed's API summary)."""

from __future__ import annotations

import math

import numpy as np
import pytest

from engine.klampt import Simulator, SurfaceParameters
from engine.world.model import World
from tests.engine.klampt.sim_worlds import FLOOR, ONE_LINK, ball, box, simulator
from tests.engine.klampt.test_controller import one_link

G = 9.81


def test_a_simulator_of_a_path_or_a_world() -> None:
    sim = Simulator(ONE_LINK)
    assert isinstance(sim.getWorld(), World)
    assert sim.getTime() == 0.0 and sim.getSimStep() == 0.001
    assert sim.getGravity() == [0.0, 0.0, -G]
    assert Simulator(str(ONE_LINK)).numIDs() == 2
    with pytest.raises(ValueError, match="World or a .wbt path"):
        Simulator(42)


def test_simulate_takes_sub_steps_of_at_most_sim_step() -> None:
    sim = simulator(ball("B", 1.0))
    steps = sim.simulation
    cases = [(0.1, 0.001, 100), (0.1, 0.004, 25), (0.01, 0.004, 3), (0.0035, 0.004, 1),
             (0.0, 0.004, 0)]
    for dt, step, count in cases:
        sim.setSimStep(step)
        assert sim.getSimStep() == step
        before, t0 = steps.steps, sim.getTime()
        sim.simulate(dt)
        assert steps.steps - before == count, (dt, step)
        assert sim.getTime() == pytest.approx(t0 + dt, abs=1e-15)
    assert sim.getTime() == pytest.approx(0.2135, abs=1e-12)
    for bad in (0.0, -0.001, math.inf, "x"):
        with pytest.raises(ValueError, match="setSimStep"):
            sim.setSimStep(bad)
    with pytest.raises(ValueError, match="simulate"):
        sim.simulate(-0.1)


def test_the_sub_step_length_follows_sim_step_in_free_fall() -> None:
    # semi-implicit Euler: z drops g h² n (n + 1) / 2 over n sub-steps of h
    for step, n in ((0.001, 200), (0.01, 20)):
        sim = simulator(ball("B", 1.0))
        sim.setSimStep(step)
        sim.simulate(0.2)
        drop = 1.0 - sim.body("B").getTransform()[1][2]
        assert drop == pytest.approx(G * step * step * n * (n + 1) / 2, rel=1e-9)


def test_set_gravity_changes_the_fall() -> None:
    sim = simulator(ball("B", 1.0))
    sim.setGravity((0.5, 0.0, -1.0))
    assert sim.getGravity() == [0.5, 0.0, -1.0]
    sim.simulate(0.3)
    assert sim.body("B").getVelocity()[1] == pytest.approx([0.15, 0.0, -0.3], rel=1e-9)
    for bad in ([0, 0], [0, 0, math.nan], "abc"):
        with pytest.raises(ValueError, match="setGravity"):
            sim.setGravity(bad)


def test_status_is_the_worst_of_the_last_call() -> None:
    sim = simulator(FLOOR + ball("B", 0.2))
    rigid = SurfaceParameters(0.5, 0.5, math.inf, math.inf)
    sim.body("B").setSurface(rigid)
    sim.body("B").setCollisionPadding(0.0)   # an unpadded landing penetrates: rolled back
    statuses = []
    for _ in range(30):
        sim.simulate(0.01)
        statuses.append(sim.getStatus())
        assert sim.getStatusString() == sim.getStatusString(statuses[-1])
    assert statuses[0] == Simulator.STATUS_NORMAL and sim.getStatusString(0) == "normal"
    assert max(statuses) in (Simulator.STATUS_ADAPTIVE_TIME_STEPPING,
                             Simulator.STATUS_CONTACT_UNRELIABLE)
    assert statuses[-1] <= max(statuses)
    assert [sim.getStatusString(s) for s in range(5)] == [
        "normal", "adaptive time stepping", "contact unreliable", "unstable", "error"]
    with pytest.raises(ValueError, match="unknown status"):
        sim.getStatusString(5)


def test_ids_and_names() -> None:
    sim = simulator(FLOOR + box("BOX", 0.5) + ball("BALL", 1.0)
                    + 'Solid { name "plain" translation 2 0 1 boundingObject Sphere { } }\n'
                    + "DEF DECOR Solid { }\n")
    assert sim.numIDs() == 4
    assert [sim.getName(i) for i in range(4)] == ["FLOOR", "BOX", "BALL", "plain"]
    assert [sim.getID(n) for n in ("FLOOR", "BOX", "BALL", "plain")] == [0, 1, 2, 3]
    assert sim.getID("DECOR") == -1 and sim.getID("nothing") == -1
    node = sim.getWorld().find_solid_by_def("BALL")
    assert sim.getID(node) == 2 and sim.body(node).getID() == 2
    assert sim.body("BALL") is sim.body(2)
    with pytest.raises(ValueError, match="getName"):
        sim.getName(4)
    with pytest.raises(ValueError, match="not a body"):
        sim.body("DECOR")


def test_update_world_writes_poses_and_joint_positions_into_the_nodes() -> None:
    sim = one_link(0.3)
    sim.controller(0).setPIDCommand([1.2])
    ball_sim = simulator(FLOOR + ball("BALL", 0.5, x=0.25))
    for s in (sim, ball_sim):
        s.simulate(0.3)
    world = sim.getWorld()
    link = world.find_solid_by_def("LINK")
    before = link.get("translation")
    sim.updateWorld()
    q = sim.controller(0).getSensedConfig()[0]
    params = sim.index.robots[0].axes[0].joint.get("jointParameters")
    assert params.get("position") == q != 0.3
    # the robot sits at (0, 0, 1) unrotated: the link's local translation is its world one
    R, t = sim.body("LINK").getTransform()
    assert link.get("translation") != before
    assert link.get("translation") == pytest.approx(np.array(t) - [0, 0, 1], abs=1e-12)
    assert link.get("rotation")[3] == pytest.approx(q, abs=1e-9)
    ball_sim.updateWorld()
    node = ball_sim.getWorld().find_solid_by_def("BALL")
    assert node.get("translation") == pytest.approx(ball_sim.body("BALL").getTransform()[1],
                                                    abs=1e-12)


def test_fake_simulate_puts_the_robot_at_its_commanded_config() -> None:
    sim = one_link(0.0)
    c = sim.controller(0)
    c.setPIDCommand([0.7], [0.2])
    steps = sim.simulation.steps
    sim.fakeSimulate(0.1)
    assert sim.simulation.steps == steps   # no physics
    assert sim.getTime() == pytest.approx(0.1, abs=1e-15)
    assert c.getSensedConfig() == pytest.approx([0.7], abs=1e-12)
    assert c.getSensedVelocity() == pytest.approx([0.2], abs=1e-12)
    R, t = sim.body("LINK").getTransform()
    assert t == pytest.approx([0.25 * math.sin(0.7), 0.0, 1.0 + 0.25 * math.cos(0.7)], abs=1e-12)
    c.setMilestone([1.5])
    sim.fakeSimulate(0.05)
    assert c.getSensedConfig() == pytest.approx(c.getCommandedConfig(), abs=1e-12)
    sim.fakeSimulate(1.0)
    assert c.getSensedConfig() == pytest.approx([1.5], abs=1e-12)
    assert c.getSensedVelocity() == pytest.approx([0.0], abs=1e-12)
