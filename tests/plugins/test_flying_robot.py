"""The flying_robot sample: hover height, ray obstacle detector, custom feet contacts, draw."""

from __future__ import annotations

import math
import re
import struct

import numpy as np

from engine import ode
from tests.plugins.helpers import (
    errors,
    install_fake_gl,
    physics_lines,
    position,
    run_until,
    start,
    step,
    world,
)

OMEGA = 4.0  # the plugin's height PD: kp = 16 = w^2, kd = 8 = 2 w (critically damped)


def test_hover_height_follows_a_critically_damped_climb_and_holds() -> None:
    sim, host = start("flying_robot")
    mod = host.plugin.module
    assert (mod.HEIGHT_KP, mod.HEIGHT_KD) == (OMEGA**2, 2 * OMEGA)
    run_until(sim, host, mod.TAKE_OFF_TIME)
    z0 = position(sim, "ROBOT")[2]  # resting on its feet: the centre of mass height
    assert 0.07 < z0 < 0.08
    worst = 0.0
    while sim.time_ms < 5000.0:
        step(sim, host)
        tau = sim.time_ms / 1000.0 - mod.TAKE_OFF_TIME
        # z'' = -kp (z - z*) - kd z', z(0) = z0, z'(0) = 0:
        expected = 0.5 - (0.5 - z0) * (1.0 + OMEGA * tau) * math.exp(-OMEGA * tau)
        worst = max(worst, abs(position(sim, "ROBOT")[2] - expected))
    assert worst < 0.006
    heights = []
    while sim.time_ms < 6000.0:
        step(sim, host)
        heights.append(position(sim, "ROBOT")[2])
    assert max(abs(h - 0.5) for h in heights) < 0.001
    # A controller sends a new target height (one float64 on channel 0).
    assert host.deliver_from_robot(0, struct.pack("<d", 0.8))
    run_until(sim, host, 9.0)
    assert abs(position(sim, "ROBOT")[2] - 0.8) < 0.002
    assert "flying_robot: new hover height: 0.800 m" in physics_lines(sim)
    assert errors(sim) == []


def _one_box_ahead(box: bool = True):
    """The robot at the origin facing +x, the green box's face at x = 1.0 (or no obstacle)."""
    w = world("flying_robot")
    for name in ("BLUE_PILLAR", "RED_BOX") + (() if box else ("GREEN_BOX",)):
        w.remove_node(w.find_solid_by_def(name))
    robot = w.find_solid_by_def("ROBOT")
    robot.set("translation", (0, 0, 0.001))
    robot.set("rotation", (0, 0, 1, 0))
    if box:
        w.find_solid_by_def("GREEN_BOX").set("translation", (1.15, 0, 0.5))  # 0.3 m thick
    return start(w)


def test_ray_measures_the_distance_to_the_obstacle_ahead() -> None:
    sim, host = _one_box_ahead()
    mod = host.plugin.module
    checked = 0
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
        else:  # turned away: nothing else within reach
            assert mod.obstacle_distance is None
    assert checked > 100
    reports = [line for line in physics_lines(sim) if "Obstacle detected" in line]
    assert len(reports) == 1
    distance = float(re.search(r"distance of ([0-9.]+) m", reports[0]).group(1))
    assert mod.AVOID_DISTANCE - 0.006 < distance <= mod.AVOID_DISTANCE  # 4.8 mm per step
    # It stopped short of the box and turned away: the ray runs no longer toward +x.
    assert position(sim, "ROBOT")[0] < 1.0 - mod.AVOID_DISTANCE + 0.05
    assert ode.dGeomRayGet(mod.ray)[1][0] < 0.5
    # The ray never made a contact: the robot was never pushed (only its own forces).
    assert sim.contacts == []


def test_ray_sees_nothing_without_obstacle() -> None:
    sim, host = _one_box_ahead(box=False)
    mod = host.plugin.module
    while sim.time_ms < 2500.0:
        step(sim, host)
        assert mod.obstacle_distance is None
    assert not [line for line in physics_lines(sim) if "Obstacle" in line]


def _impact(plugin: bool) -> tuple[float, float, int, int]:
    """Drop the robot from 0.2 m; (normal speed before, after the bouncing step,
    default contacts, plugin feet contacts) at the first impact."""
    w = world("flying_robot")
    w.find_solid_by_def("ROBOT").set("translation", (0, -1, 0.2))
    sim, host = start(w, plugin)
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
    sim, host = start("flying_robot")
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
    sim, host = _one_box_ahead()
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
