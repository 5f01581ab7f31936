"""The flying_robot sample: its controller's flight plan through the plugin's
forces (hover height, obstacle avoidance), the command and distance messages,
the ray obstacle detector, custom feet contacts, draw."""

from __future__ import annotations

import ast
import math
import struct

import numpy as np

from engine import ode
from tests.plugins.helpers import (
    ROOT,
    controller_lines,
    errors,
    install_fake_gl,
    physics_lines,
    position,
    run_until,
    running,
    step,
    world,
)

OMEGA = 4.0  # the plugin's height PD: kp = 16 = w^2, kd = 8 = 2 w (critically damped)
ROBOT = "flying robot"
CONTROLLER = ROOT / "controllers" / "flying_robot" / "flying_robot.py"


def plan(name: str) -> float:
    """A constant of the flight plan, read from the controller's source (the
    controller runs in its own process and cannot be imported here)."""
    for node in ast.parse(CONTROLLER.read_text()).body:
        if isinstance(node, ast.Assign) and [t.id for t in node.targets] == [name]:
            return ast.literal_eval(node.value)
    raise KeyError(name)


def command(height: float, speed: float = 0.0, yaw_rate: float = 0.0) -> bytes:
    """A command as the controller sends it (struct "<3d")."""
    return struct.pack("<3d", height, speed, yaw_rate)


def test_flight_plan_constants() -> None:
    assert (plan("TAKE_OFF_TIME"), plan("HOVER_HEIGHT"), plan("CRUISE_SPEED")) == (1.0, 0.5, 0.3)
    assert (plan("AVOID_DISTANCE"), plan("TURN_TIME"), plan("TURN_RATE")) == (0.6, 1.0, 1.5)


def test_controller_takes_off_and_the_climb_is_critically_damped_to_the_hover_height() -> None:
    with running("flying_robot") as run:
        sim, host = run.sim, run.host
        mod = host.plugin.module
        assert (mod.HEIGHT_KP, mod.HEIGHT_KD) == (OMEGA**2, 2 * OMEGA)
        run_until(sim, host, 1.0)
        assert mod.command is None  # nothing sent before take-off: no lift
        z0 = position(sim, "ROBOT")[2]  # resting on its feet: the centre of mass height
        assert 0.07 < z0 < 0.08
        worst = 0.0
        while sim.time_ms < 5000.0:
            step(sim, host)
            tau = sim.time_ms / 1000.0 - 1.0
            # z'' = -kp (z - z*) - kd z', z(0) = z0, z'(0) = 0:
            expected = 0.5 - (0.5 - z0) * (1.0 + OMEGA * tau) * math.exp(-OMEGA * tau)
            worst = max(worst, abs(position(sim, "ROBOT")[2] - expected))
        # The first commanded step starts at 1.008 s (the controller's first step past
        # 1 s ends there) and ODE's integrator leads the continuous solution by half
        # a step (8 ms): together, the climb follows the formula timed from 1.0 s.
        assert worst < 0.006
        heights = []
        while sim.time_ms < 6000.0:
            step(sim, host)
            heights.append(position(sim, "ROBOT")[2])
        assert max(abs(h - 0.5) for h in heights) < 0.001
        assert mod.command.height == 0.5
        assert errors(sim) == [] and run.robots.late() == []


def test_plugin_follows_the_latest_command_and_reports_the_ray() -> None:
    with running("flying_robot", controllers=False) as run:
        sim, host = run.sim, run.host
        mod = host.plugin.module
        run_until(sim, host, 2.0)  # no command: no lift, past the controller's take-off time
        assert mod.command is None and mod.foot_contacts == 4
        z0 = position(sim, "ROBOT")[2]
        assert 0.07 < z0 < 0.08
        # every step the ray's distance went to channel 1: inf, nothing within 1 m ahead
        sent = host.take_for_robots()
        assert sent[-1] == (1, struct.pack("<d", math.inf))
        # two commands in one step arrive concatenated: the last one counts
        assert host.deliver_from_robot(0, command(0.3)) and host.deliver_from_robot(0, command(0.8))
        t0 = sim.time_ms / 1000.0  # the next step reads them
        worst = 0.0
        while sim.time_ms < 7000.0:
            step(sim, host)
            # ODE's integrator (velocity first, then position with the new velocity)
            # leads the continuous solution by about half a step (8 ms)
            tau = sim.time_ms / 1000.0 - t0 + sim.dt / 2.0
            expected = 0.8 - (0.8 - z0) * (1.0 + OMEGA * tau) * math.exp(-OMEGA * tau)
            worst = max(worst, abs(position(sim, "ROBOT")[2] - expected))
        assert worst < 0.01 * (0.8 - z0)  # measured: 6.2 mm on a 725 mm climb
        assert mod.command == mod.Command(0.8, 0.0, 0.0)
        assert abs(position(sim, "ROBOT")[2] - 0.8) < 0.001
        # no new command: it keeps the last one; bytes of another size are ignored
        assert host.deliver_from_robot(0, b"\x00" * 5)
        step(sim, host)
        assert mod.command == mod.Command(0.8, 0.0, 0.0)
        assert "flying_robot: ignored 5 bytes on channel 0: commands are 24 bytes (<3d)" \
            in physics_lines(sim)
        # a yaw-rate command turns it on the spot at that rate (yaw-rate controller,
        # 5/s: after 2 s the rate is within 1.5 e^-10 of it)
        host.deliver_from_robot(0, command(0.8, 0.0, 1.5))
        run_until(sim, host, 9.0)
        omega = ode.dBodyGetAngularVel(sim.body_from_def("ROBOT"))
        assert abs(omega[2] - 1.5) < 1e-3
        assert float(np.hypot(*ode.dBodyGetLinearVel(sim.body_from_def("ROBOT"))[:2])) < 1e-3
        assert errors(sim) == []


def _one_box_ahead(box: bool = True):
    """The world with the robot at the origin facing +x and the green box's face
    at x = 1.0 (or no obstacle)."""
    w = world("flying_robot")
    for name in ("BLUE_PILLAR", "RED_BOX") + (() if box else ("GREEN_BOX",)):
        w.remove_node(w.find_solid_by_def(name))
    robot = w.find_solid_by_def("ROBOT")
    robot.set("translation", (0, 0, 0.001))
    robot.set("rotation", (0, 0, 1, 0))
    if box:
        w.find_solid_by_def("GREEN_BOX").set("translation", (1.15, 0, 0.5))  # 0.3 m thick
    return w


def test_ray_measures_the_distance_and_the_controller_turns_away() -> None:
    avoid = plan("AVOID_DISTANCE")
    with running(_one_box_ahead()) as run:
        sim, host = run.sim, run.host
        mod = host.plugin.module
        checked, first_close = 0, None
        while sim.time_ms < 4000.0:
            origin, direction = ode.dGeomRayGet(mod.ray)  # where the next collision pass sees from
            step(sim, host)
            # Where the ray meets the plane x = 1.0 of the box's face (0.6 m wide in y).
            expected = (1.0 - origin[0]) / direction[0] if direction[0] > 0 else math.inf
            y = origin[1] + expected * direction[1]
            if expected < mod.RAY_LENGTH and abs(y) < 0.3:
                assert mod.obstacle_distance is not None
                assert abs(mod.obstacle_distance - expected) < 1e-9
                checked += 1
                if first_close is None and mod.obstacle_distance < avoid:
                    first_close = (mod.obstacle_distance, sim.time_ms / 1000.0)
            else:  # turned away: nothing else within reach
                assert mod.obstacle_distance is None
        assert checked > 100 and first_close is not None
        heading = ode.dGeomRayGet(mod.ray)[1]
    reports = [line for line in controller_lines(sim, ROBOT) if "Obstacle detected" in line]
    # the controller read the distance right after the step that measured it, and
    # printed it with its time then
    distance, t = first_close
    assert reports == [f"Obstacle detected at a distance of {distance:.3f} m after {t:.2f} s"]
    assert avoid - 0.006 < distance <= avoid  # 4.8 mm per step
    # It stopped short of the box and turned away: the ray runs no longer toward +x.
    assert position(sim, "ROBOT")[0] < 1.0 - avoid + 0.05
    assert heading[0] < 0.5
    # The ray never made a contact: the robot was never pushed (only its own forces).
    assert sim.contacts == []
    assert errors(sim) == []


def test_ray_sees_nothing_without_obstacle_and_the_robot_cruises() -> None:
    with running(_one_box_ahead(box=False)) as run:
        sim, host = run.sim, run.host
        mod = host.plugin.module
        while sim.time_ms < 4000.0:
            step(sim, host)
            assert mod.obstacle_distance is None
        # cruising along +x at the controller's speed (speed controller, 2/s: settled)
        assert mod.command == mod.Command(0.5, 0.3, 0.0)
        assert abs(ode.dBodyGetLinearVel(sim.body_from_def("ROBOT"))[0] - 0.3) < 0.002
    assert not [line for line in controller_lines(sim, ROBOT) if "Obstacle" in line]


def _impact(plugin: bool) -> tuple[float, float, int, int]:
    """Drop the robot from 0.2 m (no controller: no flight forces); (normal speed
    before, after the bouncing step, default contacts, plugin feet contacts) at
    the first impact."""
    w = world("flying_robot")
    w.find_solid_by_def("ROBOT").set("translation", (0, -1, 0.2))
    with running(w, plugin, controllers=False) as run:
        sim, host = run.sim, run.host
        body = sim.body_from_def("ROBOT")
        while sim.time_ms < 500.0:
            before = ode.dBodyGetLinearVel(body)[2]
            step(sim, host)
            after = ode.dBodyGetLinearVel(body)[2]
            if after > 0.0 > before:
                feet = host.plugin.module.foot_contacts if host else 0
                return before, after, len(sim.contacts), feet
    raise AssertionError("no bounce")


def test_feet_contacts_are_the_plugins_with_its_bounce() -> None:
    with running("flying_robot") as run:
        sim, host = run.sim, run.host
        run_until(sim, host, 0.1)
        while sim.time_ms < 1000.0:  # resting on its four feet before take-off
            step(sim, host)
            assert host.plugin.module.foot_contacts == 4
            assert sim.contacts == []  # no default contact between the robot and the floor
    before, after, default, feet = _impact(plugin=True)
    assert (default, feet) == (0, 4)
    assert before < -1.9  # dropped 0.2 m: about sqrt(2 g h) = 1.98 m/s
    # Restitution: the bounce step reverses the normal speed times FOOT_BOUNCE (0.7).
    assert abs(-after / before - 0.7) < 0.02
    # Without the plugin, Odeon's default contacts bounce with 0.5.
    before, after, default, feet = _impact(plugin=False)
    assert (default, feet) == (4, 0)
    assert abs(-after / before - 0.5) < 0.04


def test_draw_shows_the_ray_as_a_yellow_line_up_to_the_hit(monkeypatch) -> None:
    with running(_one_box_ahead(), controllers=False) as run:
        sim, host = run.sim, run.host
        mod = host.plugin.module
        run_until(sim, host, 0.5)
        gl = install_fake_gl(monkeypatch)
        assert host.draw(0, None) and gl.calls == []  # nothing in pass 0
        assert host.draw(1, "camera") and gl.calls == []  # nor in a robot camera's view
        assert host.draw(1, None)
        assert ("glColor3f", (1.0, 1.0, 0.0)) in gl.calls
        start_point, end_point = gl.vertices("GL_LINES")
        origin, direction = ode.dGeomRayGet(mod.ray)
        assert np.allclose(start_point, origin)
        assert np.allclose(end_point, origin + mod.obstacle_distance * direction)
        assert abs(end_point[0] - 1.0) < 1e-3  # on the box face (the robot is still resting)
        names = [name for name, _ in gl.calls]
        assert names.count("glPushAttrib") == names.count("glPopAttrib") == 1
