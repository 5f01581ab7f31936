"""`odeon run` runs the world's controllers (and skips them on request); at
the end every controller's step() returns -1."""

from __future__ import annotations

import io

from engine.headless import run_headless
from tests.engine.controllers.project import make_project

WORLD = """
WorldInfo { basicTimeStep 16 }
Robot { name "walker" controller "talker" }
"""

TALKER = """
from controller import Robot
r = Robot()
print("started")
n = 0
while r.step(16) != -1:
    n += 1
print(f"ended after {n} steps")
"""


def test_odeon_run_runs_controllers_until_the_end(tmp_path):
    world = make_project(tmp_path, WORLD, {"talker": TALKER})
    out = io.StringIO()
    assert run_headless(str(world), 0.32, out) == 0
    text = out.getvalue()
    assert "[controller:walker] [walker] started" in text
    assert "[walker] ended after 20 steps" in text


def test_no_controllers(tmp_path):
    world = make_project(tmp_path, WORLD, {"talker": TALKER})
    out = io.StringIO()
    assert run_headless(str(world), 0.1, out, controllers=False) == 0
    assert "walker" not in out.getvalue()
