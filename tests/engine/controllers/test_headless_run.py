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


PUSHER_WORLD = """
WorldInfo { basicTimeStep 16 gravity 0 }
Robot {
  name "pusher"
  controller "pusher"
  supervisor TRUE
  children [ Emitter { name "tx" } ]
}
DEF BALL Solid {
  boundingObject Sphere { radius 0.1 }
  physics Physics { density -1 mass 1 }
}
"""

PUSHER = """
import math
from controller import Supervisor
sv = Supervisor()
ball = sv.getFromDef("BALL")
k = 0
while sv.step(16) != -1:
    k += 1
    # a force that depends on what the controller reads back: any divergence grows
    x = ball.getPosition()[0]
    ball.addForce([math.sin(0.1 * k) - 0.3 * x, 0.0, 0.0], False)
"""


def test_a_world_with_a_controller_gives_the_same_bits_every_run(tmp_path):
    world = make_project(tmp_path, PUSHER_WORLD, {"pusher": PUSHER})
    logs = []
    for k in range(2):
        log = tmp_path / f"run{k}.csv"
        assert run_headless(str(world), 1.0, io.StringIO(), log_path=str(log)) == 0
        logs.append(log.read_bytes())
    assert logs[0] == logs[1]
    assert logs[0].count(b"\n") > 60          # the ball moved for the whole second
