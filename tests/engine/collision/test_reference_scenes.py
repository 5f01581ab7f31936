"""Collision-driven scenes against the real ODE 0.16.2's results (tests/reference,
or the real ODE run live: the ``comparison`` fixture of tests/engine/conftest.py),
with the acceptance tolerances for an independent implementation."""

from __future__ import annotations

import numpy as np
import pytest

from tests.engine import live_reference


def test_bounce_first_contact_apexes_and_rest(comparison):
    r = comparison.reference("bounce")
    out = comparison.run("bounce")
    assert abs(out["first_contact_step"] - r["results"]["first_contact_step"]) <= 2
    radius = r["params"]["radius"]
    ref_apexes = [a["z"] for a in r["results"]["apexes"] if a["z"] - radius > 0.002]
    assert len(out["apexes"]) >= len(ref_apexes)
    for got, want in zip(out["apexes"], ref_apexes, strict=False):
        assert got == pytest.approx(want, rel=0.02)
    assert out["final_z"] == pytest.approx(r["results"]["final_z"], abs=1e-3)


@pytest.mark.parametrize("stepper,quick", [("dWorldStep", False), ("dWorldQuickStep", True)])
def test_contact_feedback_carries_the_weight(stepper, quick, comparison):
    r = comparison.reference("contact_feedback")["results"][stepper]
    out = comparison.run("contact_feedback", quick)
    assert out["contacts_final"] >= 1
    assert out["normal_force_final"] == pytest.approx(r["normal_force_final"], rel=0.005)


def test_box_stack_stays_up(engine_name):
    out = live_reference.scene_output(engine_name, "box_stack")
    drift = np.asarray(out["top_drift"])
    assert drift[2] > -0.1 and np.hypot(drift[0], drift[1]) < 0.25
    assert np.linalg.norm(drift) < 0.05
