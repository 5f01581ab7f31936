"""The blimp sample: gravity off, thrust against drag, yaw damping, restoring moment."""

from __future__ import annotations

import math
import struct

import numpy as np

from engine import ode
from tests.plugins.helpers import errors, position, run_until, start, step, world


def _command(host, front: float, yaw: float, vertical: float) -> None:
    """What a controller would send: three float64 on channel 0."""
    assert host.deliver_from_robot(0, struct.pack("<3d", front, yaw, vertical))


def test_flies_level_with_gravity_off_and_speed_tends_to_thrust_over_drag() -> None:
    w = world("blimp")
    w.find_solid_by_def("BLIMP").set("translation", (-3.3, -2, 1.5))  # room to fly along +x
    sim, host = start(w)
    mod = host.plugin.module
    body = sim.body_from_def("BLIMP")
    assert ode.dBodyGetGravityMode(body) == 0
    z0 = position(sim, "BLIMP")[2]
    _command(host, 1.0, 0.0, 0.0)
    while sim.time_ms < 10000.0:
        step(sim, host)
        assert abs(position(sim, "BLIMP")[2] - z0) < 1e-6  # keeps its altitude
    # Steady state: thrust T = a u + b u^2, so u = (-a + sqrt(a^2 + 4 b T)) / 2b.
    thrust, a, b = mod.MAX_THRUST, mod.DRAG_LINEAR[0], mod.DRAG_QUADRATIC[0]
    expected = (-a + math.sqrt(a * a + 4 * b * thrust)) / (2 * b)
    velocity = ode.dBodyGetLinearVel(body)
    assert abs(velocity[0] - expected) < 0.005 * expected
    assert np.hypot(velocity[1], velocity[2]) < 1e-6
    assert errors(sim) == []


def test_without_its_plugin_the_blimp_falls() -> None:
    sim, _ = start("blimp", plugin=False)
    z0 = position(sim, "BLIMP")[2]
    run_until(sim, None, 0.4)
    n, h = sim.steps, sim.dt  # free fall, n semi-implicit Euler steps: g h^2 n (n + 1) / 2
    assert abs((z0 - position(sim, "BLIMP")[2]) - 9.81 * h * h * n * (n + 1) / 2) < 1e-9


def test_yaw_rate_tends_to_torque_over_damping() -> None:
    sim, host = start("blimp")
    mod = host.plugin.module
    body = sim.body_from_def("BLIMP")
    izz = ode.dBodyGetMass(body).I[10]
    c = mod.ANGULAR_DAMPING[2]
    _command(host, 0.0, 1.0, 0.0)  # spin on the spot
    while sim.time_ms < 12000.0:
        step(sim, host)
        t = sim.time_ms / 1000.0
        # I r' = M - c r, r(0) = 0: r = M / c (1 - exp(-c t / I))
        expected = mod.MAX_YAW_TORQUE / c * (1.0 - math.exp(-c * t / izz))
        assert abs(ode.dBodyGetAngularVel(body)[2] - expected) < 0.01 * mod.MAX_YAW_TORQUE / c
    assert np.linalg.norm(position(sim, "BLIMP")[:2] - (0.0, -2.0)) < 1e-6


def test_restoring_moment_rights_a_rolled_blimp_like_a_pendulum() -> None:
    w = world("blimp")
    w.find_solid_by_def("BLIMP").set("rotation", (1, 0, 0, 0.1))  # rolled 0.1 rad
    sim, host = start(w)
    mod = host.plugin.module
    body = sim.body_from_def("BLIMP")
    _command(host, 0.0, 0.0, 0.0)
    times, rolls = [], []
    while sim.time_ms < 3000.0:
        step(sim, host)
        R = ode.dBodyGetRotation(body)
        times.append(sim.time_ms / 1000.0)
        rolls.append(math.atan2(R[9], R[10]))
    assert abs(rolls[-1]) < 1e-3  # back upright
    crossings = [times[i] - rolls[i] * (times[i + 1] - times[i]) / (rolls[i + 1] - rolls[i])
                 for i in range(len(rolls) - 1) if rolls[i] * rolls[i + 1] < 0]
    period = 2 * float(np.mean(np.diff(crossings)))
    # I phi'' = -k phi - c phi', k = m g d: a damped pendulum.
    ixx = ode.dBodyGetMass(body).I[0]
    k = 0.2 * 9.81 * mod.CG_BELOW_CB
    c = mod.ANGULAR_DAMPING[0]
    continuous = 2 * math.pi / math.sqrt(k / ixx - (c / (2 * ixx)) ** 2)
    assert abs(period - continuous) < 0.03 * continuous
    # Exactly, for the step's update (v += h (-k phi - c v) / I, then phi += h v):
    h = sim.dt
    A = np.array([[1 - h * h * k / ixx, h * (1 - h * c / ixx)], [-h * k / ixx, 1 - h * c / ixx]])
    discrete = 2 * math.pi * h / abs(np.angle(np.linalg.eigvals(A)[0]))
    assert abs(period - discrete) < 0.002 * discrete
