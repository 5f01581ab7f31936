"""Agreement with the real ODE 0.16.2 on the reference dynamics scenes.

Reference numbers come from tests/reference/*.json (recorded by running the
same set-ups on Debian's libode8, double precision) or from the real ODE run
live (engine.libode); the ``comparison`` fixture (tests/engine/conftest.py)
runs each test both ways and also checks the live ODE against its recording.
Tolerances are those of the project's acceptance check for an independent
implementation.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from tests.engine import live_reference, scenes


def test_free_fall_matches_ode_and_semi_implicit_euler(comparison):
    r = comparison.reference("free_fall")
    out = comparison.run("free_fall")
    assert np.allclose(out["traj"][-1], r["results"]["final_pos"], atol=1e-9, rtol=0)
    assert np.allclose(out["final_linvel"], r["results"]["final_linvel"], atol=1e-9, rtol=0)
    assert np.allclose(out["final_quat"], r["results"]["final_quat"], atol=1e-9, rtol=0)
    sampled = np.array(r["series"]["pos"])
    steps = r["series"]["step"]
    assert np.allclose(out["traj"][steps], sampled, atol=1e-9, rtol=0)
    # closed form of semi-implicit Euler: z_n = z0 + v0 n h - g h² n(n+1)/2
    n = np.arange(len(out["traj"]))
    h = 0.001
    z = 10 + 2 * n * h - scenes.G * h * h * n * (n + 1) / 2
    assert np.max(np.abs(out["traj"][:, 2] - z)) < 1e-12


@pytest.mark.parametrize("stepper,quick", [("dWorldStep", False), ("dWorldQuickStep", True)])
def test_pendulum_period_energy_and_anchor(stepper, quick, comparison):
    r = comparison.reference("pendulum")["results"][stepper]
    out = comparison.run("pendulum", quick)
    scale = 1.0 * scenes.G * 1.0 / 2        # m g L / 2
    assert out["period"] == pytest.approx(r["period_measured"], rel=0.005)
    for key, rkey in (("energy_final", "energy_final"), ("energy_min", "energy_min"),
                      ("energy_max", "energy_max")):
        assert abs(out[key] - r[rkey]) <= 0.005 * scale
    assert out["max_angle"] == pytest.approx(r["max_angle"], rel=0.005)
    assert out["anchor_drift"] < 1e-3


def test_chain_follows_ode_quickstep(comparison):
    r = comparison.reference("chain")["results"]
    out = comparison.run("chain")
    assert np.linalg.norm(out["final_end"] - np.array(r["final_end_pos"])) < 0.02
    assert out["min_end_z"] == pytest.approx(r["min_end_z"], abs=0.02)
    assert out["max_gap"] <= max(3 * r["max_joint_gap"], 0.005)


def test_chain_is_bit_identical_across_runs(engine_name):
    ode = live_reference.backend(engine_name)
    a = scenes.chain(steps=300, ode=ode)["trajectory"]
    b = scenes.chain(steps=300, ode=ode)["trajectory"]
    assert np.array_equal(a, b)


@pytest.mark.parametrize("case", ["vertical_axis", "horizontal_axis_loaded"])
def test_hinge_motor_rates_and_angle(case, comparison):
    r = comparison.reference("hinge_motor")["results"][case]
    out = comparison.run("hinge_motor", case)
    for got, want in zip(out["rates"][1:6], r["rate_first_5_steps"], strict=True):
        assert abs(got - want) <= max(0.01 * abs(want), 1e-4)
    assert out["rates"][-1] == pytest.approx(r["final_rate"], rel=0.01)
    assert out["final_angle"] == pytest.approx(r["final_angle"], rel=0.01)
    assert abs(out["reach"] - r["steps_to_reach_vel"]) <= 1


def test_hinge_motor_first_step_is_fmax_limited(engine_name):
    # rate after one step = FMax·h / I about the axis (vertical case, box 0.5 x 0.1 x 0.1)
    out = scenes.hinge_motor("vertical_axis", steps=1, ode=live_reference.backend(engine_name))
    inertia = 1.0 * (0.5 ** 2 + 0.1 ** 2) / 12
    assert out["rates"][1] == pytest.approx(10.0 * 0.001 / inertia, rel=1e-9)
    assert not math.isnan(out["final_angle"])


@pytest.mark.parametrize("case", ["motor", "unpowered_v0"])
def test_slider_stops_bounce_and_motor(case, comparison):
    r = comparison.reference("slider_motor")["results"][case]
    out = comparison.run("slider_motor", case)
    assert out["max"] == pytest.approx(r["max_pos"], abs=0.005)
    assert out["min"] == pytest.approx(r["min_pos"], abs=0.005)
    assert out["final"] == pytest.approx(r["final_pos"], rel=0.01)
    n = 3 if case == "motor" else 2
    for (step, rate_after), want in zip(out["reversals"][:n], r["reversals"][:n], strict=True):
        assert abs(step - want["step"]) <= max(2, 0.01 * want["step"])
        assert rate_after == pytest.approx(want["rate_after"], rel=0.01)
