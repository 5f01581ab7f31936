"""Every sensor class read by a real controller process, against closed forms:
a robot resting on the floor, turned by a known yaw, in front of a wall."""

from __future__ import annotations

import math

import pytest

from tests.engine.controllers.project import make_project, start

YAW = 0.3
WORLD = """
WorldInfo { basicTimeStep 16 }
Solid { boundingObject Plane { size 10 10 } }
Solid {
  translation 1.5 0 0.5
  boundingObject Box { size 0.2 4 1 }
}
Robot {
  translation 0.2 0.1 0.1
  rotation 0 0 1 YAW_VALUE
  name "probe"
  controller "probe"
  boundingObject Box { size 0.2 0.2 0.2 }
  physics Physics { }
  children [
    DistanceSensor {
      translation 0.1 0 0
      name "ds"
      lookupTable [0 0 0, 2 1000 0]
    }
    InertialUnit { name "imu" }
    Compass { name "compass" }
    GPS { name "gps" }
    Gyro { name "gyro" }
    Accelerometer { name "acc" }
  ]
}
""".replace("YAW_VALUE", repr(YAW))

PROBE = """
import json
from controller import Robot
r = Robot()
names = ["ds", "imu", "compass", "gps", "gyro", "acc"]
for name in names:
    r.getDevice(name).enable(16)
for k in range(30):
    r.step(16)
out = {
    "ds": r.getDevice("ds").getValue(),
    "rpy": r.getDevice("imu").getRollPitchYaw(),
    "quaternion": r.getDevice("imu").getQuaternion(),
    "compass": r.getDevice("compass").getValues(),
    "gps": r.getDevice("gps").getValues(),
    "speed": r.getDevice("gps").getSpeed(),
    "gyro": r.getDevice("gyro").getValues(),
    "acc": r.getDevice("acc").getValues(),
}
print("RESULT " + json.dumps(out), flush=True)
while r.step(16) != -1:
    pass
"""


def test_sensor_values_reach_the_controller(tmp_path):
    run = start(make_project(tmp_path, WORLD, {"probe": PROBE}))
    try:
        run.step(32)
    finally:
        run.stop()
    out = run.results("probe")[0]
    # the ray leaves the robot's front face along the yawed x axis; the wall's face is x = 1.4
    distance = (1.4 - 0.2 - 0.1 * math.cos(YAW)) / math.cos(YAW)
    assert out["ds"] == pytest.approx(distance / 2.0 * 1000.0, rel=1e-3)
    assert out["rpy"] == pytest.approx([0.0, 0.0, YAW], abs=1e-4)
    half = YAW / 2.0
    assert out["quaternion"] == pytest.approx([0.0, 0.0, math.sin(half), math.cos(half)],
                                              abs=1e-4)
    # north (+y in ENU) seen from a frame turned by YAW about z
    assert out["compass"] == pytest.approx([math.sin(YAW), math.cos(YAW), 0.0], abs=1e-4)
    # resting on the floor (ODE's contacts sink it by a hair)
    assert out["gps"] == pytest.approx([0.2, 0.1, 0.1], abs=3e-3)
    assert out["speed"] == pytest.approx(0.0, abs=1e-3)
    assert out["gyro"] == pytest.approx([0.0, 0.0, 0.0], abs=1e-3)
    assert out["acc"] == pytest.approx([0.0, 0.0, 9.81], abs=1e-2)


TOUCH_WORLD = """
WorldInfo { basicTimeStep 8 }
Solid { boundingObject Plane { size 10 10 } }
Robot {
  translation 0 0 0.3
  name "scale"
  controller "scale"
  boundingObject Box { size 0.2 0.2 0.1 }
  physics Physics { density -1 mass 2 }
  children [
    TouchSensor {
      translation 0 0 -0.15
      name "pad"
      type "force-3d"
      lookupTable []
      boundingObject Box { size 0.4 0.4 0.1 }
      physics Physics { density -1 mass 3 }
    }
  ]
}
"""

SCALE = """
import json
from controller import Robot
r = Robot()
pad = r.getDevice("pad")
pad.enable(8)
for k in range(250):
    r.step(8)
print("RESULT " + json.dumps(pad.getValues()), flush=True)
while r.step(8) != -1:
    pass
"""


def test_touch_sensor_force_3d_under_a_resting_robot_weighs_it(tmp_path):
    run = start(make_project(tmp_path, TOUCH_WORLD, {"scale": SCALE}))
    try:
        run.step(252)
    finally:
        run.stop()
    fx, fy, fz = run.results("scale")[0]
    # the 2 kg robot stands on its pad (as Webots' force3d_sensor sample): the pad
    # measures the robot's weight along its z axis, its own 3 kg not counted
    assert (fx, fy) == pytest.approx((0.0, 0.0), abs=1e-3)
    assert abs(fz) == pytest.approx(2.0 * 9.81, rel=1e-2)
