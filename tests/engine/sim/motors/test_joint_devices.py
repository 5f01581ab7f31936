"""PositionSensor, Brake, the JOINT_DEVICE_TYPES registry and the robust model's
forwarding (engine/sim/joint_devices.py, engine/sim/motors.py)."""

from __future__ import annotations

import math

import numpy as np
import pytest

from engine import ode
from engine.sim.joint_devices import JOINT_DEVICE_TYPES, Brake, PositionSensor
from engine.sim.motor_law import discretize, normalize_near
from tests.engine.sim.motors.worlds import INERTIA, hinge

DT = 0.008


def _device(sim, type_name: str, seed: int = 7):
    node = next(d for d in sim.model.joints[0].node.get("device") if d.type_name == type_name)
    return JOINT_DEVICE_TYPES[type_name](sim, node, seed)


def test_position_sensor_reads_the_unwrapped_joint_position() -> None:
    sim = hinge("RotationalMotor { maxVelocity 20 maxTorque 100 } PositionSensor { }",
                "position 0.4")
    sensor = _device(sim, "PositionSensor")
    assert isinstance(sensor, PositionSensor) and sensor.rotational
    assert sensor.read() == 0.4
    motor = _device(sim, "RotationalMotor")
    assert motor is sim.motors.drives[0]
    motor.set_position(math.inf)
    motor.set_velocity(10.0)
    sim.run(1.0)
    sensor.post_step(DT)
    assert sensor.read() == pytest.approx(0.4 + 10.0, rel=1e-4)


def test_position_sensor_without_a_motor_integrates_the_rate() -> None:
    sim = hinge("PositionSensor { }", "position 3")
    sensor = _device(sim, "PositionSensor")
    assert sensor.read() == 3.0
    sim.run(0.5)
    assert sensor.read() == pytest.approx(3.0, abs=1e-12)


def test_position_sensor_noise_and_resolution() -> None:
    sim = hinge("PositionSensor { noise 0.1 }")
    a, b = _device(sim, "PositionSensor", 3), _device(sim, "PositionSensor", 3)
    values = np.array([a.read() for _ in range(4000)])
    assert values.mean() == pytest.approx(0.0, abs=0.01)
    assert values.std() == pytest.approx(0.1, rel=0.05)
    assert [b.read() for _ in range(5)] == values[:5].tolist()  # same seed, same draws
    sim = hinge("PositionSensor { resolution 0.25 }", "position 0.6")
    assert _device(sim, "PositionSensor").read() == 0.5


def test_brake_damps_the_joint_as_minus_c_v() -> None:
    sim = hinge("Brake { }")
    brake = _device(sim, "Brake")
    assert isinstance(brake, Brake)
    motorless = sim.model.joints[0]
    body = sim.model.bodies[0].body
    ode.dBodySetAngularVel(body, 0.0, 0.0, 2.0)
    ode.dBodySetLinearVel(body, 0.0, 0.2, 0.0)  # the sphere's centre turns with the arm
    c = 0.1
    brake.set_damping_constant(c)
    w = 2.0
    for _ in range(10):
        sim.step()
        # explicit damper: ω ← ω − (c ω / I) dt (1e-3: the arm's joint rows couple in)
        w -= c * w / INERTIA * DT
        assert ode.dJointGetHingeAngleRate(motorless.joint) == pytest.approx(w, rel=1e-3)
    sim.reset()
    assert brake.damping_constant == 0.0


def test_devices_of_joints_not_simulated_have_no_engine_side() -> None:
    sim = hinge("RotationalMotor { } PositionSensor { } Brake { }")
    other = hinge("RotationalMotor { } PositionSensor { } Brake { }")
    for d in other.model.joints[0].node.get("device"):
        assert JOINT_DEVICE_TYPES[d.type_name](sim, d, 0) is None


def test_the_robust_model_gets_the_commands_not_the_ode_motor() -> None:
    sim = hinge("RotationalMotor { controlPID 50 0 5 maxTorque 10 }", contacts="robust")
    (motor,) = sim.motors.drives
    actuator = sim.robust.actuators.motor(motor.node).actuator
    sim.run(0.1)
    assert motor.current_velocity == 0.0  # Webots' law did not run
    motor.set_position(0.5)
    sim.run(3.0)
    assert actuator.target_position == 0.5
    assert motor.position == pytest.approx(0.5, abs=1e-3)
    motor.set_position(math.inf)
    motor.set_velocity(1.0)
    sim.run(0.5)
    assert motor.axis.rate() == pytest.approx(1.0, rel=1e-3)


def test_law_helpers() -> None:
    assert normalize_near(-3.0, 3.0) == pytest.approx(-3.0 + 2.0 * math.pi)
    assert normalize_near(0.1, 6.3) == pytest.approx(0.1 + 2.0 * math.pi)
    assert discretize(0.37, 0.1) == pytest.approx(0.4) and discretize(0.37, -1.0) == 0.37
