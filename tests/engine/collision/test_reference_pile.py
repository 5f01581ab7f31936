"""A pile of 100 boxes and spheres settles as in the real ODE 0.16.2 (tests/reference)."""

from __future__ import annotations

import json
import pathlib

from tests.engine import collision_scenes as scenes

REF = pathlib.Path(__file__).resolve().parents[2] / "reference"


def test_pile_of_100_settles_like_ode():
    r = json.loads((REF / "pile_100.json").read_text())["results"]["python_callback"]
    out = scenes.pile(100)
    assert out["box_speed_p95"] < 0.05
    assert out["max_abs_vz"] < 0.1
    assert out["min_z"] > 0
    assert abs(out["contacts_final"] - r["contacts_final"]) <= 0.35 * r["contacts_final"]
