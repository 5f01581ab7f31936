"""The floating_body sample: floaters settle at the waterline their density predicts."""

from __future__ import annotations

import math

import numpy as np

from engine import ode
from tests.plugins.helpers import errors, position, run_until, start, step

WATER = 1000.0  # kg/m^3, surface at z = 0


def _density_and_geometry(sim, name: str):
    node = sim.world.find_solid_by_def(name)
    return node.get("physics").get("density"), node.get("boundingObject")


def _sphere_draft(radius: float, density: float) -> float:
    """Depth h of the submerged cap: pi h^2 (3 r - h) / 3 = density / WATER * 4/3 pi r^3."""
    target = density / WATER * 4.0 / 3.0 * math.pi * radius**3
    lo, hi = 0.0, 2.0 * radius
    for _ in range(60):  # the cap volume grows with h: bisection
        h = (lo + hi) / 2
        lo, hi = (h, hi) if math.pi * h * h * (3 * radius - h) / 3 < target else (lo, h)
    return (lo + hi) / 2


def test_floaters_settle_at_the_waterline_of_their_density() -> None:
    sim, host = start("floating_body")
    ball = []
    run_until(sim, host, 9.0)
    while sim.time_ms < 10000.0:  # the ball's last small heave: average it out
        step(sim, host)
        ball.append(position(sim, "BALL_FLOATER")[2])
    for name in ("BOX_FLOATER", "CUBE_FLOATER"):
        density, box = _density_and_geometry(sim, name)
        height = box.get("size")[2]
        expected = density / WATER * height  # a level box sinks to rho / rho_water * H
        bottom = position(sim, name)[2] - height / 2
        assert abs(-bottom - expected) < 0.01 * expected, name
        R = ode.dBodyGetRotation(sim.body_from_def(name))
        assert R[10] > 1 - 1e-4, name  # level (the cube started tilted 0.35 rad)
    density, sphere = _density_and_geometry(sim, "BALL_FLOATER")
    r = sphere.get("radius")
    expected = _sphere_draft(r, density)
    draft = -(float(np.mean(ball)) - r)
    assert abs(draft - expected) < 0.01 * expected
    assert np.ptp(ball) < 0.001
    assert errors(sim) == []


def test_the_box_oscillates_then_stays_at_its_draft() -> None:
    sim, host = start("floating_body")
    zs = []
    while sim.time_ms < 6000.0:
        step(sim, host)
        zs.append(position(sim, "BOX_FLOATER")[2])
    zs = np.array(zs)
    assert zs.min() < -0.03  # dropped from 0.3 m: it plunges below its waterline ...
    assert abs(zs[-100:]).max() < 0.001  # ... and is at rest (centre at z = 0) 5 s later


def test_without_the_plugin_everything_sinks() -> None:
    sim, _ = start("floating_body", plugin=False)
    run_until(sim, None, 1.5)
    for name in ("BOX_FLOATER", "BALL_FLOATER", "CUBE_FLOATER"):
        assert position(sim, name)[2] < -1.3, name  # on the pool floor (z = -1.5)
