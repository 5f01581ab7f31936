"""Supervisor calls from a real controller process: nodes by DEF, fields read
and written, positions, velocities, forces, imported nodes, simulationReset
(the controller keeps running, its time goes back to 0)."""

from __future__ import annotations

import pytest

from tests.engine.controllers.project import make_project, start

WORLD = """
WorldInfo { basicTimeStep 16 gravity 0 }
DEF BALL Solid {
  translation 1 0 0
  name "ball"
  boundingObject Sphere { radius 0.1 }
  physics Physics { density -1 mass 2 }
}
DEF BOSS Robot {
  name "boss"
  controller "boss"
  supervisor TRUE
  customData "hello"
}
"""


def run_boss(tmp_path, body: str, steps: int):
    source = "import json\nfrom controller import Supervisor\nsv = Supervisor()\n" + body
    run = start(make_project(tmp_path, WORLD, {"boss": source}))
    try:
        run.step(steps)
    finally:
        run.stop()
    return run


def test_nodes_fields_positions_and_forces(tmp_path):
    run = run_boss(tmp_path, """
ball = sv.getFromDef("BALL")
me = sv.getSelf()
out = {"type": ball.getTypeName(), "self": me.getTypeName(), "def": me.getDef(),
       "missing": sv.getFromDef("NOPE") is None,
       "translation": ball.getField("translation").getSFVec3f(),
       "position": ball.getPosition(),
       "name": ball.getField("name").getSFString(),
       "custom": sv.getCustomData(),
       "no_field": ball.getField("nothing") is None}
ball.getField("translation").setSFVec3f([0, 2, 0])
sv.step(16)
out["moved"] = ball.getPosition()
ball.setVelocity([1, 0, 0, 0, 0, 0])
sv.step(16)
out["velocity"] = ball.getVelocity()
ball.setVelocity([0, 0, 0, 0, 0, 0])
ball.addForce([4, 0, 0], False)     # one step of 4 N on 2 kg: Δv = 2 m/s² · 16 ms
sv.step(16)
out["pushed"] = ball.getVelocity()[0]
sv.setCustomData("bye")
sv.step(16)
out["custom_after"] = sv.getSelf().getField("customData").getSFString()
print("RESULT " + json.dumps(out), flush=True)
while sv.step(16) != -1:
    pass
""", 6)
    out = run.results("boss")[0]
    assert out["type"] == "Solid" and out["self"] == "Robot" and out["def"] == "BOSS"
    assert out["missing"] and out["no_field"]
    assert out["translation"] == [1.0, 0.0, 0.0] and out["position"] == [1.0, 0.0, 0.0]
    assert out["name"] == "ball" and out["custom"] == "hello"
    assert out["moved"] == pytest.approx([0.0, 2.0, 0.0])
    assert out["velocity"] == pytest.approx([1, 0, 0, 0, 0, 0])
    assert out["pushed"] == pytest.approx(4.0 / 2.0 * 0.016)
    assert out["custom_after"] == "bye"


def test_imported_node_and_simulation_reset(tmp_path):
    run = run_boss(tmp_path, """
root = sv.getRoot()
children = root.getField("children")
before = children.getCount()
children.importMFNodeFromString(-1, 'DEF NEW Solid { translation 0 0 3 name "new" }')
sv.step(16)
new = sv.getFromDef("NEW")
out = {"count": [before, children.getCount()], "new": new.getPosition()}
ball = sv.getFromDef("BALL")
ball.setVelocity([1, 0, 0, 0, 0, 0])
for k in range(5):
    sv.step(16)
out["time_before_reset"] = sv.getTime()
sv.simulationReset()
sv.step(16)
out["time_after_reset"] = sv.getTime()
out["ball_after_reset"] = sv.getFromDef("BALL").getPosition()
print("RESULT " + json.dumps(out), flush=True)
while sv.step(16) != -1:
    pass
""", 10)
    out = run.results("boss")[0]
    assert out["count"][1] == out["count"][0] + 1
    assert out["new"] == [0.0, 0.0, 3.0]
    assert out["time_before_reset"] == pytest.approx(0.096)
    # reset at the end of that step: the controller keeps running, time starts again
    assert out["time_after_reset"] == pytest.approx(0.0)
    assert out["ball_after_reset"] == pytest.approx([1.0, 0.0, 0.0])
    assert "exited" not in run.text("boss")


def test_a_robot_without_supervisor_true_cannot_use_the_supervisor_api(tmp_path):
    world = WORLD.replace("supervisor TRUE", "")
    source = """
import json
from controller import Supervisor
sv = Supervisor()
print("RESULT " + json.dumps(sv.getFromDef("BALL") is None), flush=True)
while sv.step(16) != -1:
    pass
"""
    run = start(make_project(tmp_path, world, {"boss": source}))
    try:
        run.step(2)
    finally:
        run.stop()
    assert run.results("boss") == [True]
    assert "can only be used by a Supervisor" in run.text("boss")
