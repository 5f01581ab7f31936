"""A pile of 100 boxes and spheres settles as in the real ODE 0.16.2
(tests/reference, or the real ODE run live: the ``comparison`` fixture)."""

from __future__ import annotations


def test_pile_of_100_settles_like_ode(comparison):
    r = comparison.reference("pile_100")["results"]["python_callback"]
    out = comparison.run("pile", 100)
    assert out["box_speed_p95"] < 0.05
    assert out["max_abs_vz"] < 0.1
    assert out["min_z"] > 0
    assert abs(out["contacts_final"] - r["contacts_final"]) <= 0.35 * r["contacts_final"]
