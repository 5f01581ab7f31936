"""Lock-step scheduling through real controller processes: time, sampling,
NaN before the first sample, step(k·dt), -1 at the end, Webots' error style."""

from __future__ import annotations

import math
import time

import pytest

ARM = """
WorldInfo { basicTimeStep 16 }
Robot {
  name "%(name)s"
  controller "%(controller)s"
  controllerArgs ["alpha", "beta"]
  children [
    HingeJoint {
      jointParameters HingeJointParameters { axis 0 0 1 }
      device [
        RotationalMotor { name "m" maxVelocity 2 maxTorque 50 }
        PositionSensor { name "ps" }
      ]
      endPoint Solid {
        translation 0.5 0 0
        boundingObject Box { size 0.1 0.1 0.1 }
        physics Physics { density -1 mass 1 }
      }
    }
  ]
}
"""


def arm(name="arm", controller="probe"):
    return ARM % {"name": name, "controller": controller}




def test_configuration_args_time_and_first_sample(run_world):
    run = run_world(arm(), {"probe": """
        import json, math, sys
        from controller import Robot
        r = Robot()
        ps = r.getDevice("ps")
        out = {"name": r.getName(), "args": sys.argv[1:], "dt": r.getBasicTimeStep(),
               "t0": r.getTime(), "before_enable": str(ps.getValue())}
        ps.enable(48)
        r.step(16)
        out["after_one_step"] = str(ps.getValue()); out["t1"] = r.getTime()
        r.step(32)
        out["after_48ms"] = ps.getValue(); out["t2"] = r.getTime()
        print("RESULT " + json.dumps(out))
        while r.step(16) != -1:
            pass
    """})
    run.step(10)
    (out,) = run.results("arm")
    assert out["name"] == "arm" and out["args"] == ["alpha", "beta"]
    assert out["dt"] == 16.0 and out["t0"] == 0.0
    assert out["before_enable"] == "nan" and out["after_one_step"] == "nan"
    assert out["t1"] == pytest.approx(0.016) and out["t2"] == pytest.approx(0.048)
    assert math.isfinite(out["after_48ms"])
    assert "called for a disabled device" in run.text("arm")


def test_step_of_several_basic_steps_and_minus_one_at_the_end(run_world):
    run = run_world(arm(), {"probe": """
        import json
        from controller import Robot
        r = Robot()
        times = []
        while True:
            status = r.step(48)
            if status == -1:
                print("RESULT " + json.dumps({"end": True, "times": times}), flush=True)
                break
            times.append(round(r.getTime(), 6))
    """})
    run.step(9)
    run.robots.stop()
    (out,) = run.results("arm")
    assert out["end"] is True
    assert out["times"] == [0.048, 0.096, 0.144]


def test_a_crashing_controller_leaves_the_others_running(run_world):
    world = arm("good", "counter") + arm("bad", "crasher").replace("WorldInfo { basicTimeStep 16 }", "")
    run = run_world(world, {
        "counter": """
            from controller import Robot
            r = Robot()
            n = 0
            while r.step(16) != -1:
                n += 1
                if n == 20:
                    print("RESULT 20", flush=True)
        """,
        "crasher": """
            from controller import Robot
            r = Robot()
            r.step(16)
            raise RuntimeError("boom")
        """})
    run.step(25)
    assert run.results("good") == [20]
    text = run.text("bad")
    assert "RuntimeError: boom" in text and "Traceback" in text
    assert "exited with status 1" in text
    assert run.robots.status()["bad"] == "ended"


def test_webots_error_style_and_one_robot_per_process(run_world):
    run = run_world(arm(), {"probe": """
        import json
        from controller import Robot
        r = Robot()
        again = Robot()
        missing = r.getDevice("nope")
        m = r.getMotor("m")
        m.setPosition(0.5)
        m.setVelocity(-1.0)
        print("RESULT " + json.dumps({"missing": missing is None, "motor": m.getName(),
                                      "velocity": m.getVelocity()}))
        while r.step(16) != -1:
            pass
    """})
    run.step(2)
    (out,) = run.results("arm")
    assert out == {"missing": True, "motor": "m", "velocity": 2.0}
    text = run.text("arm")
    assert "only one Robot instance can be created per controller process" in text
    assert 'Device "nope" was not found on robot "arm"' in text
    assert "DEPRECATION: Robot.getMotor is deprecated" in text
    assert "negative 'velocity' argument in position control mode" in text


def test_a_silent_controller_is_reported_late_and_can_be_restarted(run_world):
    run = run_world(arm(), {"probe": """
        import time
        from controller import Robot
        r = Robot()
        r.step(16)
        time.sleep(30)
    """}, late_after=0.3, give_up_after=None)
    calls = []
    run.robots.interrupted = lambda: calls.append(1) or len(calls) > 40
    run.step(1)
    assert run.sim.step() is False            # interrupted while waiting
    assert run.robots.late() == ["arm"]
    assert "is late" in run.text("arm")
    run.robots.restart("arm")
    assert run.robots.status()["arm"] in ("starting", "computing", "waiting")


def test_a_controller_started_while_paused_is_not_late_at_the_first_step(run_world):
    # the simulation reads nothing while paused: the controller's first message
    # waits in its pipe, and the time it waited there is not the controller's
    run = run_world(arm(), {"probe": """
        from controller import Robot
        r = Robot()
        while r.step(16) != -1:
            pass
    """}, late_after=0.5, give_up_after=None)
    time.sleep(1.5)  # paused: no step asks the controllers for anything
    run.step(3)
    assert run.robots.late() == []
    assert "is late" not in run.text("arm")


def test_keyboard_keys_reach_an_enabled_keyboard(run_world):
    run = run_world(arm(), {"probe": """
        import json
        from controller import Robot, Keyboard
        r = Robot()
        kb = r.getKeyboard()
        disabled = kb.getKey()
        kb.enable(16)
        r.step(16)
        keys = []
        key = kb.getKey()
        while key != -1:
            keys.append(key)
            key = kb.getKey()
        print("RESULT " + json.dumps([disabled, keys, Keyboard.UP]), flush=True)
        while r.step(16) != -1:
            pass
    """})
    run.robots.keys = [ord("A"), 315, 0x20000 + ord("B")]
    run.step(3)
    assert run.results("arm") == [[-1, [65, 315, 0x20000 + 66], 315]]


def test_custom_data_and_the_battery(run_world):
    world = arm().replace('controllerArgs ["alpha", "beta"]',
                          'customData "start" battery [100, 100, 0] cpuConsumption 10')
    run = run_world(world, {"probe": """
        import json
        from controller import Robot
        r = Robot()
        r.batterySensorEnable(16)
        before = r.getCustomData()
        r.setCustomData("changed")
        for k in range(10):
            r.step(16)
        print("RESULT " + json.dumps([before, r.getCustomData(), r.batterySensorGetValue()]),
              flush=True)
        while r.step(16) != -1:
            pass
    """})
    run.step(12)
    before, after, energy = run.results("arm")[0]
    assert (before, after) == ("start", "changed")
    assert run.sim.world.nodes[-1].get("customData") == "changed"
    assert energy == pytest.approx(100.0 - 10.0 * 0.16)     # 10 W for 160 ms


def test_an_asynchronous_controller_does_not_hold_the_simulation_back(run_world):
    world = arm().replace('controllerArgs ["alpha", "beta"]', "synchronization FALSE")
    run = run_world(world, {"probe": """
        import time
        from controller import Robot
        r = Robot()
        while r.step(16) != -1:
            time.sleep(0.5)
    """})
    t0 = time.monotonic()
    run.step(50)                       # 50 steps while the controller sleeps 0.5 s per step
    assert time.monotonic() - t0 < 5.0
    assert run.sim.steps == 50


def test_restarting_one_controller_leaves_the_others_alone(run_world):
    world = arm("good", "counter") + arm("bad", "crasher").replace(
        "WorldInfo { basicTimeStep 16 }", "")
    run = run_world(world, {
        "counter": """
            from controller import Robot
            r = Robot()
            print("hello", flush=True)
            while r.step(16) != -1:
                pass
        """,
        "crasher": """
            raise SystemExit(3)
        """})
    run.step(3)
    assert run.robots.status()["bad"] == "ended"
    run.robots.restart("good")
    run.step(2)
    status = run.robots.status()
    assert status["bad"] == "ended" and status["good"] in ("computing", "waiting")
    assert run.text("good").count("hello") == 2
    # a robot whose controller field now says "<none>" stays stopped when restarted
    good = next(n for n in run.sim.world.nodes if n.type_name == "Robot")
    good.set("controller", "<none>")
    run.robots.restart("good")
    assert "good" not in run.robots.status()
    run.step(1)
