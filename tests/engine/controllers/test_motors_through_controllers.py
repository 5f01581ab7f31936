"""Motors driven by real controller processes against closed forms: position
control saturated at the velocity limit, torque control (α = τ/I), velocity
control, and the torque feedback of a motor holding an arm against gravity."""

from __future__ import annotations

import pytest

from tests.engine.controllers.project import make_project, start

WORLD = """
WorldInfo { basicTimeStep 16 %(gravity)s }
Robot {
  name "arm"
  controller "drive"
  children [
    HingeJoint {
      jointParameters HingeJointParameters { axis %(axis)s }
      device [
        RotationalMotor { name "m" maxVelocity 5 maxTorque 50 }
        PositionSensor { name "ps" }
      ]
      endPoint Solid {
        translation 0.5 0 0
        boundingObject Box { size 0.1 0.1 0.1 }
        physics Physics { density -1 mass 1 centerOfMass [0 0 0] }
      }
    }
  ]
}
"""
# inertia of the arm about the hinge: box (m (a² + b²) / 12) + m r²
INERTIA = 1.0 * (0.1 ** 2 + 0.1 ** 2) / 12.0 + 1.0 * 0.5 ** 2


def run_drive(tmp_path, body: str, steps: int, axis="0 0 1", gravity="gravity 0"):
    source = f"""
import json
from controller import Robot
r = Robot()
m, ps = r.getDevice("m"), r.getDevice("ps")
ps.enable(16)
{body}
"""
    world = WORLD % {"axis": axis, "gravity": gravity}
    run = start(make_project(tmp_path, world, {"drive": source}))
    try:
        run.step(steps)
    finally:
        run.stop()
    return run.results("arm")


def test_position_control_moves_at_the_velocity_limit_then_stops_on_target(tmp_path):
    out = run_drive(tmp_path, """
m.setVelocity(1.0)
m.setPosition(0.5)
trace = []
for k in range(60):
    r.step(16)
    trace.append(ps.getValue())
print("RESULT " + json.dumps(trace), flush=True)
while r.step(16) != -1:
    pass
""", 65)[0]
    # saturated (P error·10 > 1 rad/s): 1 rad/s (less the joint's softness, CFM 1e-5)
    speeds = [(b - a) / 0.016 for a, b in zip(out[2:10], out[3:11], strict=True)]
    assert speeds == pytest.approx([1.0] * len(speeds), abs=1e-4)
    assert out[-1] == pytest.approx(0.5, abs=1e-3)


def test_torque_control_accelerates_as_torque_over_inertia(tmp_path):
    torque = 0.5
    out = run_drive(tmp_path, f"""
m.setTorque({torque})
r.step(16)
start = ps.getValue()
for k in range(20):
    r.step(16)
print("RESULT " + json.dumps([start, ps.getValue()]), flush=True)
while r.step(16) != -1:
    pass
""", 25)[0]
    alpha = torque / INERTIA
    # θ(t) - θ(t0) over 20 steps of semi-implicit Euler from the velocity after step 1
    h, n = 0.016, 20
    v1 = alpha * h
    expected = sum((v1 + alpha * h * k) * h for k in range(1, n + 1))
    assert out[1] - out[0] == pytest.approx(expected, rel=1e-3)


def test_velocity_control_and_unwrapped_position(tmp_path):
    out = run_drive(tmp_path, """
m.setPosition(float("inf"))
m.setVelocity(4.0)
for k in range(130):
    r.step(16)
print("RESULT " + json.dumps(ps.getValue()), flush=True)
while r.step(16) != -1:
    pass
""", 135)[0]
    assert out > 2 * 3.141592653589793          # not wrapped to (-pi, pi]
    assert out == pytest.approx(4.0 * 0.016 * 130, rel=0.02)


HEAVY_BASE = """
WorldInfo { basicTimeStep 16 }
Solid { boundingObject Plane { size 10 10 } }
Robot {
  translation 0 0 0.2
  name "arm"
  controller "drive"
  boundingObject Box { size 0.4 0.4 0.4 }
  physics Physics { density -1 mass 50 }
  children [
    HingeJoint {
      jointParameters HingeJointParameters { axis 0 1 0 anchor 0 0 0.3 }
      device [
        RotationalMotor { name "m" maxTorque 50 }
        PositionSensor { name "ps" }
      ]
      endPoint Solid {
        translation 0.5 0 0.3
        boundingObject Box { size 0.1 0.1 0.1 }
        physics Physics { density -1 mass 1 centerOfMass [0 0 0] }
      }
    }
  ]
}
"""


def test_torque_feedback_of_a_motor_holding_the_arm_against_gravity(tmp_path):
    source = """
import json
from controller import Robot
r = Robot()
m, ps = r.getDevice("m"), r.getDevice("ps")
m.enableTorqueFeedback(16)
before = m.getTorqueFeedback()
for k in range(100):
    r.step(16)
print("RESULT " + json.dumps([str(before), m.getTorqueFeedback()]), flush=True)
while r.step(16) != -1:
    pass
"""
    run = start(make_project(tmp_path, HEAVY_BASE, {"drive": source}))
    try:
        run.step(105)
    finally:
        run.stop()
    out = run.results("arm")[0]
    assert out[0] == "nan"
    # the arm hangs still (held by P = 10 at its start): the motor carries m g r
    assert abs(out[1]) == pytest.approx(1.0 * 9.81 * 0.5, rel=0.02)


def test_feedback_needs_a_parent_with_physics(tmp_path):
    out = run_drive(tmp_path, """
m.enableTorqueFeedback(16)
before = m.getTorqueFeedback()
for k in range(10):
    r.step(16)
print("RESULT " + json.dumps([str(before), str(m.getTorqueFeedback())]), flush=True)
while r.step(16) != -1:
    pass
""", 15, axis="0 1 0", gravity="")[0]
    assert out == ["nan", "nan"]        # Webots: feedback needs both sides with Physics


def test_position_control_limited_by_the_available_torque(tmp_path):
    torque = 0.2
    out = run_drive(tmp_path, f"""
m.setAvailableTorque({torque})
m.setPosition(3.0)
r.step(16)
start = ps.getValue()
for k in range(10):
    r.step(16)
print("RESULT " + json.dumps([start, ps.getValue()]), flush=True)
while r.step(16) != -1:
    pass
""", 15)[0]
    # the motor asks for 5 rad/s but can only give 0.2 N·m: it accelerates at τ / I
    alpha, h, n = torque / INERTIA, 0.016, 10
    expected = sum((alpha * h + alpha * h * k) * h for k in range(1, n + 1))
    assert out[1] - out[0] == pytest.approx(expected, rel=1e-3)
