"""Position, velocity and torque control against closed forms (engine/sim/motors.py).

World CFM 1e-10 (WorldInfo.CFM must be > 0): the motor rows are then met to
about 1e-5 relative, the tolerance of the velocity checks.

The free hinge of worlds.py (I = 0.022 kg·m², no gravity torque), dt = 8 ms.
An ODE velocity motor whose FMax is not reached makes the joint rate equal the
motor velocity after the step; when FMax is reached the joint accelerates at
exactly FMax / I.
"""

from __future__ import annotations

import math

import pytest

from tests.engine.sim.motors.worlds import INERTIA, MASS, hinge, slider

DT = 0.008
G = 9.81


def test_saturated_position_control_moves_at_exactly_max_velocity() -> None:
    sim = hinge("RotationalMotor { maxVelocity 1 maxTorque 100 }")
    (motor,) = sim.motors.drives
    motor.set_position(1.0)
    for n in range(1, 51):
        sim.step()
        # P e = 10 (1 - x) > 1 = maxVelocity while x < 0.9: saturated
        assert motor.position == pytest.approx(n * DT * 1.0, rel=1e-5)
        assert motor.axis.rate() == pytest.approx(1.0, rel=1e-5)
    sim.run(3.0)
    assert motor.position == pytest.approx(1.0, abs=1e-6)


def test_position_control_limited_by_max_torque_accelerates_at_torque_over_inertia() -> None:
    torque = 0.1
    sim = hinge(f"RotationalMotor {{ maxVelocity 100 maxTorque {torque} }}")
    (motor,) = sim.motors.drives
    motor.set_position(3.0)
    alpha = torque / INERTIA
    for n in range(1, 21):
        sim.step()
        # FMax reached every step: rate n α dt, position α dt² n (n + 1) / 2
        assert motor.axis.rate() == pytest.approx(n * alpha * DT, rel=1e-4)
        assert motor.position == pytest.approx(alpha * DT * DT * n * (n + 1) / 2, rel=1e-4)


def test_velocity_control_with_acceleration_limit() -> None:
    sim = hinge("RotationalMotor { maxVelocity 5 acceleration 10 }")
    (motor,) = sim.motors.drives
    motor.set_position(math.inf)
    motor.set_velocity(-2.0)
    for n in range(1, 41):
        sim.step()
        # the motor velocity moves by 10 dt = 0.08 rad/s per step towards -2
        assert motor.axis.rate() == pytest.approx(-min(n * 10.0 * DT, 2.0), rel=1e-5)


def test_velocity_control_keeps_counting_turns() -> None:
    sim = hinge("RotationalMotor { maxVelocity 20 maxTorque 100 }")
    (motor,) = sim.motors.drives
    motor.set_position(-math.inf)  # the sign of inf is ignored: velocity decides
    motor.set_velocity(10.0)
    sim.run(2.0)
    assert motor.position == pytest.approx(10.0 * 2.0, rel=1e-5)
    assert sim.motors.drives[0].torque_mode is False


def test_torque_control_is_alpha_equals_torque_over_inertia() -> None:
    sim = hinge("RotationalMotor { maxTorque 1 }", "staticFriction 0")
    (motor,) = sim.motors.drives
    motor.set_torque(0.05)
    alpha = 0.05 / INERTIA
    for n in range(1, 31):
        sim.step()
        assert motor.axis.rate() == pytest.approx(n * alpha * DT, rel=1e-4)
        assert motor.position == pytest.approx(alpha * DT * DT * n * (n + 1) / 2, rel=1e-4)
    # setPosition returns to PID control: the hinge is brought back
    motor.set_position(0.0)
    sim.run(5.0)
    assert motor.position == pytest.approx(0.0, abs=1e-4)


def test_torque_is_clamped_to_the_available_torque_with_webots_warning() -> None:
    warnings: list[str] = []
    sim = hinge("RotationalMotor { name \"m\" maxTorque 1 }")
    (motor,) = sim.motors.drives
    motor._warn = warnings.append
    motor.set_available_torque(5.0)
    assert motor.available == 1.0
    assert warnings[-1] == "The requested available motor torque 5 exceeds 'maxTorque' = 1"
    motor.set_available_torque(0.5)
    motor.set_torque(-2.0)
    assert motor.raw_input == -0.5
    assert warnings[-1] == "The requested motor torque -2 exceeds 'maxTorque' = 0.5"
    motor.set_velocity(-30.0)
    assert motor.target_velocity == -10.0
    assert warnings[-1] == "The requested velocity -30 exceeds 'maxVelocity' = 10."


def test_soft_limits_clamp_the_target_with_webots_warnings() -> None:
    warnings: list[str] = []
    sim = hinge('RotationalMotor { name "m" minPosition -0.5 maxPosition 0.8 }')
    sim.console.warn = warnings.append
    (motor,) = sim.motors.drives
    motor._warn = warnings.append
    motor.set_position(2.0)
    assert motor.target_position == 0.8
    assert warnings[-1] == "too big requested position: 2 > 0.8"
    motor.set_position(-1.0)
    assert motor.target_position == -0.5
    assert warnings[-1] == "too low requested position: -1 < -0.5"
    sim.run(3.0)
    assert motor.position == pytest.approx(-0.5, abs=1e-5)


def test_multiplier_scales_commands() -> None:
    sim = hinge("RotationalMotor { multiplier -2 maxVelocity 100 }")
    (motor,) = sim.motors.drives
    motor.set_position(0.25)
    assert motor.target_position == -0.5
    sim.run(3.0)
    assert motor.position == pytest.approx(-0.5, abs=1e-5)


def test_a_motor_without_controller_holds_its_position_under_gravity() -> None:
    # a horizontal arm (axis y): gravity pulls with m g d = 1.962 N·m < maxTorque 10
    held = hinge("RotationalMotor { }", axis="0 1 0")
    free = hinge("", axis="0 1 0")
    held.run(2.0)
    free.run(2.0)
    assert abs(held.model.joints[0].position()) < 0.01
    assert abs(free.model.joints[0].position()) > 1.0


def test_an_arm_heavier_than_max_torque_falls_at_the_net_torque() -> None:
    sim = hinge("RotationalMotor { maxTorque 1 }", axis="0 1 0")
    (motor,) = sim.motors.drives
    sim.step()
    # gravity m g d = 1.962 N·m beats the 1 N·m motor: net 0.962 N·m (axis y: a
    # sphere at +x falls towards -z, i.e. positive rotation about y)
    assert motor.axis.rate() == pytest.approx((MASS * G * 0.1 - 1.0) / INERTIA * DT, rel=1e-4)


def test_linear_motor_on_a_slider() -> None:
    sim = slider("LinearMotor { maxVelocity 0.05 maxForce 100 }")
    (motor,) = sim.motors.drives
    assert not motor.rotational
    motor.set_position(0.1)
    for n in range(1, 101):
        sim.step()
        assert motor.position == pytest.approx(0.05 * n * DT, rel=1e-5)
    # force control: F - m g = m a
    motor.set_torque(MASS * G + MASS * 1.0)  # setForce
    v0 = motor.axis.rate()
    for n in range(1, 11):
        sim.step()
        assert motor.axis.rate() == pytest.approx(v0 + n * 1.0 * DT, rel=1e-6)


def test_force_feedback_of_a_slider_holding_its_load() -> None:
    sim = slider("LinearMotor { maxForce 100 }")
    (motor,) = sim.motors.drives
    assert motor.enable_torque_feedback() is False  # static parent: Webots refuses
    assert math.isnan(motor.torque_feedback())


def test_reset_puts_the_motor_back_as_loaded() -> None:
    sim = hinge("RotationalMotor { maxVelocity 4 acceleration 2 }", "position 0.3")
    (motor,) = sim.motors.drives
    assert motor.target_position == 0.3 and motor.position == 0.3
    motor.set_position(1.0)
    motor.set_velocity(2.0)
    motor.set_acceleration(-1)
    motor.set_available_torque(3.0)
    motor.set_control_pid(20, 1, 0)
    sim.run(1.0)
    assert motor.position > 0.5
    sim.reset()
    assert (motor.target_position, motor.position) == (0.3, 0.3)
    assert (motor.target_velocity, motor.acceleration, motor.available) == (4.0, 2.0, 10.0)
    assert motor.pid.integral == 0.0 and motor.current_velocity == 0.0
    assert motor.gains.p == 20.0  # Webots' reset leaves controlPID as the controller set it
    sim.run(0.5)
    assert motor.position == pytest.approx(0.3, abs=1e-6)


def test_coupled_motors_relay_commands() -> None:
    sim = hinge('RotationalMotor { name "pair::a" } ')
    assert sim.motors.drives[0].coupled == []
