"""The contact_points sample: plugin-made contacts, their feedback forces, printing, draw."""

from __future__ import annotations

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
)

G = 9.81
MASS = {"OBJECT": 2.0, "SLIDER": 1.0}


def test_contact_forces_add_up_to_the_weight_at_rest() -> None:
    sim, host = start("contact_points")
    mod = host.plugin.module
    run_until(sim, host, 2.0)
    assert sim.contacts == []  # every floor contact is the plugin's
    for name, mass in MASS.items():
        total = mod.totals[name]
        assert abs(total[2] - mass * G) < 1e-3 * mass * G
        assert np.hypot(total[0], total[1]) < 1e-3 * mass * G
    # Resting flat, each box stands on its four bottom corners.
    for name, half in (("OBJECT", 0.15), ("SLIDER", 0.1)):
        points = [pos for n, pos, _ in mod.contacts if n == name]
        assert len(points) == 4
        centre = position(sim, name)
        for p in points:
            assert abs(p[2]) < 1e-3
            assert np.allclose(np.abs(p[:2] - centre[:2]), half, atol=2e-3)
    assert errors(sim) == []


def test_sliding_box_feels_mu_m_g_and_stops_where_predicted() -> None:
    sim, host = start("contact_points")
    mod = host.plugin.module
    body = sim.body_from_def("SLIDER")
    x0 = position(sim, "SLIDER")[0]
    v0 = ode.dBodyGetLinearVel(body)[0]
    assert v0 == 2.0
    a = mod.MU * G  # Coulomb friction decelerates at mu g
    while sim.time_ms < 350.0:  # still sliding (it stops after v0 / a = 0.41 s)
        step(sim, host)
        friction = mod.totals["SLIDER"][0]
        if sim.time_ms >= 50.0:
            assert abs(friction + mod.MU * MASS["SLIDER"] * G) < 1e-3 * MASS["SLIDER"] * G
            t = sim.time_ms / 1000.0
            assert abs(ode.dBodyGetLinearVel(body)[0] - (v0 - a * t)) < 1e-3
    run_until(sim, host, 1.0)
    assert abs(ode.dBodyGetLinearVel(body)[0]) < 1e-4
    # Stopping distance v0^2 / 2a, minus v0 dt / 2 for the stepper's (semi-implicit
    # Euler) position update with the new velocity.
    expected = v0**2 / (2 * a) - v0 * sim.dt / 2
    assert abs((position(sim, "SLIDER")[0] - x0) - expected) < 1e-3 * expected


def test_printout_every_100_steps() -> None:
    sim, host = start("contact_points")
    run_until(sim, host, 3.0)
    lines = physics_lines(sim)
    headers = [line for line in lines if " contact points" in line]
    assert headers == [f"contact_points: t = {t:.2f} s: 8 contact points"
                       for t in (0.99, 1.99, 2.99)]
    totals = [line for line in lines if "OBJECT total" in line]
    assert len(totals) == 3 and totals[-1].endswith(", 19.62) N")


def test_draw_shows_points_and_force_arrows(monkeypatch) -> None:
    sim, host = start("contact_points")
    mod = host.plugin.module
    run_until(sim, host, 2.0)
    gl = install_fake_gl(monkeypatch)
    assert host.draw(0, None) and gl.calls == []
    assert host.draw(1, None)
    points = gl.vertices("GL_POINTS")
    assert len(points) == len(mod.contacts) == 8
    for p, (_, pos, _) in zip(points, mod.contacts, strict=True):
        assert np.allclose(p, pos)
    lines = gl.vertices("GL_LINES")
    assert len(lines) == 8 * 3 * 2  # per contact: a shaft and two barbs
    for k, (_, pos, feedback) in enumerate(mod.contacts):
        shaft_start, shaft_end = lines[6 * k], lines[6 * k + 1]
        assert np.allclose(shaft_start, pos)
        assert np.allclose(shaft_end - shaft_start, mod.ARROW_SCALE * feedback.f1)
