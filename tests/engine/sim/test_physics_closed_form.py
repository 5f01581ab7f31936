"""Closed-form checks of the built simulation: resting box, free fall, pendulum period."""

from __future__ import annotations

import math
import os

import numpy as np
import pytest

from engine.sim import Simulation
from engine.world import read_world

WORLDS = os.path.join(os.path.dirname(__file__), "..", "..", "resources", "worlds")


def test_box_resting_on_the_floor_is_held_by_m_g() -> None:
    sim = Simulation(os.path.join(WORLDS, "sim_box_on_floor.wbt"))
    sim.record_contact_feedback = True
    for _ in range(50):
        sim.step()
    box = [c for c in sim.contacts if "BOX" in (c.solid1.label + c.solid2.label)]
    assert len(box) == 4
    # f1 is the force on the body (ODE moves a lone body to slot 1)
    fz = sum(c.feedback.f1[2] for c in box)
    assert fz == pytest.approx(2.0 * 9.81, rel=1e-6)
    z = sim.world.find_solid_by_def("BOX").get("translation")[2]
    assert z == pytest.approx(0.1, abs=1e-3)


def test_free_fall_matches_z0_minus_g_t2_over_2() -> None:
    sim = Simulation(os.path.join(WORLDS, "sim_box_on_floor.wbt"))
    for _ in range(100):
        sim.step()
    t = sim.time_ms / 1000.0
    z = sim.world.find_solid_by_def("BALL").get("translation")[2]
    # semi-implicit Euler: z = z0 - g h^2 n (n + 1) / 2, first order in h
    assert z == pytest.approx(10.0 - 9.81 * t * t / 2, abs=9.81 * t * 0.01)
    n, h = 100, 0.01
    assert z == pytest.approx(10.0 - 9.81 * h * h * n * (n + 1) / 2, rel=1e-12)


def test_pendulum_period_small_angle() -> None:
    world = read_world(os.path.join(WORLDS, "sim_pendulum.wbt"))
    th = 0.05
    world.find_by_def("HINGE").get("jointParameters").set("position", th)
    bob = world.find_solid_by_def("BOB")
    bob.set("translation", (-math.sin(th), 0.0, -math.cos(th)))
    bob.set("rotation", (0.0, 1.0, 0.0, th))
    sim = Simulation(world)
    joint = sim.model.joints[0]
    assert joint.position() == pytest.approx(th)
    crossings = []
    prev = joint.position()
    while sim.time_ms < 4500:
        sim.step()
        p = joint.position()
        if prev > 0 >= p or prev < 0 <= p:
            # linear interpolation of the zero crossing
            crossings.append(sim.time_ms - sim.basic_time_step * p / (p - prev))
        prev = p
    assert len(crossings) >= 4
    period = (crossings[3] - crossings[1]) / 1000.0
    # bob: 1 kg sphere r = 1 cm on a 1 m arm: I = m (L^2 + 2 r^2 / 5)
    expected = 2 * math.pi * math.sqrt((1 + 0.4e-4) / 9.81)
    assert period == pytest.approx(expected, rel=2e-3)
    assert np.isfinite(joint.position())
