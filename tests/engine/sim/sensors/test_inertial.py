"""InertialUnit, Gyro and Accelerometer against closed-form motion."""

from __future__ import annotations

import math

import pytest

from engine import ode
from tests.engine.sim.sensors.worlds import FLOOR, device, make_sim, run

G = 9.81


def rpy(q: list[float]) -> tuple[float, float, float]:
    """roll, pitch, yaw of [x, y, z, w] as libController computes them (ENU)."""
    x, y, z, w = q
    roll = math.atan2(2 * (w * x + y * z), 1 - 2 * (x * x + y * y))
    pitch = math.asin(max(-1.0, min(1.0, 2 * (w * y - z * x))))
    yaw = math.atan2(2 * (w * z + x * y), 1 - 2 * (y * y + z * z))
    return roll, pitch, yaw


def test_inertial_unit_quaternion_of_a_known_rotation() -> None:
    sim = make_sim("Robot { rotation 0 0 1 0.7 children [ "
                   "InertialUnit { name \"iu\" rotation 0 1 0 0.2 } "
                   "InertialUnit { name \"axis\" rotation 1 2 2 0.9 } ] }")
    q = device(sim, "InertialUnit", "iu").read()
    # yaw 0.7 about world z, then pitch 0.2 about the turned y axis
    assert rpy(q) == pytest.approx((0.0, 0.2, 0.7), abs=1e-12)
    s, c = math.sin(0.45), math.cos(0.45)
    assert device(sim, "InertialUnit", "axis").read() == pytest.approx(
        [ode_q for ode_q in _robot_then_axis(s, c)], abs=1e-12)


def _robot_then_axis(s: float, c: float) -> list[float]:
    """[x, y, z, w] of Rz(0.7) * R((1, 2, 2) / 3, 0.9) by quaternion product."""
    a = [0.0, 0.0, math.sin(0.35), math.cos(0.35)]
    b = [s / 3, 2 * s / 3, 2 * s / 3, c]
    x1, y1, z1, w1 = a
    x2, y2, z2, w2 = b
    return [w1 * x2 + x1 * w2 + y1 * z2 - z1 * y2,
            w1 * y2 - x1 * z2 + y1 * w2 + z1 * x2,
            w1 * z2 + x1 * y2 - y1 * x2 + z1 * w2,
            w1 * w2 - x1 * x2 - y1 * y2 - z1 * z2]


def test_inertial_unit_follows_a_falling_body_and_drops_disabled_axes() -> None:
    sim = make_sim("Robot { translation 0 0 5 rotation 1 0 0 0.3 children [ "
                   "InertialUnit { name \"iu\" } InertialUnit { name \"no roll\" xAxis FALSE } "
                   "InertialUnit { name \"res\" resolution 0.1 } ] "
                   "physics Physics { } boundingObject Sphere { radius 0.1 } "
                   "angularVelocity 0 0 1 }", info="gravity 0 basicTimeStep 10")
    devices = [device(sim, "InertialUnit", n) for n in ("iu", "no roll", "res")]
    run(sim, devices, 50)
    # spinning at 1 rad/s about world z for 0.5 s: yaw 0.5, roll still 0.3 (ODE's
    # normalised first-order quaternion update turns by 2 atan(w dt / 2), losing
    # (w dt)³ / 12 per step: 50 * 1e-6 / 12 = 4.2e-6 rad here)
    assert rpy(devices[0].read()) == pytest.approx((0.3, 0.0, 0.5), abs=1e-5)
    q = devices[1].read()  # the axis' x component is zeroed
    x, y, z, w = devices[0].read()
    n = math.sqrt(y * y + z * z)
    angle = 2 * math.atan2(math.sqrt(x * x + y * y + z * z), w)
    assert q == pytest.approx([0.0, y / n * math.sin(angle / 2), z / n * math.sin(angle / 2),
                               math.cos(angle / 2)], abs=1e-12)
    assert all(abs(v * 10 - round(v * 10)) < 1e-9 for v in devices[2].read())


def test_gyro_on_a_body_spinning_at_a_known_rate() -> None:
    # the gyro turned by pi/2 about x: its y axis is world z
    sim = make_sim("Robot { translation 0 0 1 children [ "
                   "Gyro { name \"g\" rotation 1 0 0 1.5707963267948966 } "
                   "Gyro { name \"table\" lookupTable [-10 -1000 0, 10 1000 0] zAxis FALSE } ] "
                   "physics Physics { } boundingObject Sphere { radius 0.1 } "
                   "angularVelocity 0 0 2 }\n"
                   "Robot { name \"static\" children [ Gyro { name \"s\" } ] }",
                   info="gravity 0")
    devices = [device(sim, "Gyro", n) for n in ("g", "table", "s")]
    run(sim, devices, 10)
    assert devices[0].read() == pytest.approx([0.0, 2.0, 0.0], abs=1e-12)
    wx, wy, wz = devices[1].read()
    assert (wx, wy) == pytest.approx((0.0, 0.0), abs=1e-12) and math.isnan(wz)
    sim2 = make_sim("Robot { children [ Gyro { name \"t\" lookupTable [-10 -1000 0, 10 1000 0] "
                    "} ] physics Physics { } boundingObject Sphere { radius 0.1 } "
                    "angularVelocity 0 0 2 }", info="gravity 0")
    assert device(sim2, "Gyro", "t").read() == pytest.approx([0.0, 0.0, 200.0], abs=1e-10)
    assert all(math.isnan(v) for v in devices[2].read())  # no body: Webots needs Physics


def test_accelerometer_at_rest_reads_g_up() -> None:
    sim = make_sim(FLOOR + "Robot { translation 0 0 0.1 children [ "
                   "Accelerometer { name \"a\" } "
                   "Accelerometer { name \"turned\" rotation 0 1 0 1.5707963267948966 } ] "
                   "physics Physics { } boundingObject Box { size 0.2 0.2 0.2 } }",
                   info="basicTimeStep 8")
    devices = [device(sim, "Accelerometer", n) for n in ("a", "turned")]
    run(sim, devices, 100)
    for d in devices:
        d.read()
    run(sim, devices, 10)
    assert devices[0].read() == pytest.approx([0.0, 0.0, G], abs=1e-6)
    # its x axis points down: the reaction to gravity reads along -x
    assert devices[1].read() == pytest.approx([-G, 0.0, 0.0], abs=1e-6)


def test_accelerometer_in_free_fall_reads_zero() -> None:
    sim = make_sim("Robot { translation 0 0 10 rotation 1 1 0 0.4 children [ "
                   "Accelerometer { name \"a\" translation 0.1 0 0 } ] "
                   "physics Physics { } boundingObject Sphere { radius 0.1 } }")
    a = device(sim, "Accelerometer", "a")
    run(sim, [a], 10)
    assert a.read() == pytest.approx([0.0, 0.0, 0.0], abs=1e-9)


def test_accelerometer_on_a_known_constant_acceleration() -> None:
    # 2 kg pushed by 3 N along world x with no gravity: a = 1.5 m/s²; the device is
    # turned by pi/2 about z, so world x is its -y axis
    sim = make_sim("DEF R Robot { children [ Accelerometer { name \"a\" rotation 0 0 1 "
                   "1.5707963267948966 } Accelerometer { name \"x\" xAxis FALSE } ] "
                   "physics Physics { density -1 mass 2 } boundingObject Sphere { radius 0.1 } }",
                   info="gravity 0")
    body = sim.body_from_def("R")
    sim.before_step = lambda: ode.dBodyAddForce(body, 3.0, 0.0, 0.0)
    devices = [device(sim, "Accelerometer", n) for n in ("a", "x")]
    run(sim, devices, 5)
    assert devices[0].read() == pytest.approx([0.0, -1.5, 0.0], abs=1e-9)
    ax, ay, az = devices[1].read()
    assert math.isnan(ax) and (ay, az) == pytest.approx((0.0, 0.0), abs=1e-9)
    # the mean over a sampling period of several steps, as Webots (elapsed time)
    run(sim, devices, 3)
    assert devices[0].read() == pytest.approx([0.0, -1.5, 0.0], abs=1e-9)


def test_accelerometer_without_physics_reads_nan() -> None:
    sim = make_sim("Robot { children [ Accelerometer { name \"a\" } ] }")
    a = device(sim, "Accelerometer", "a")
    run(sim, [a], 2)
    assert all(math.isnan(v) for v in a.read())


def test_accelerometer_starts_again_after_a_reset() -> None:
    sim = make_sim("Robot { translation 0 0 10 children [ Accelerometer { name \"a\" } ] "
                   "physics Physics { } boundingObject Sphere { radius 0.1 } }")
    a = device(sim, "Accelerometer", "a")
    run(sim, [a], 20)
    assert a.read() == pytest.approx([0.0, 0.0, 0.0], abs=1e-9)
    # back at rest at t = 0: the velocity before the reset must not count
    sim.reset()
    run(sim, [a], 5)
    assert a.read() == pytest.approx([0.0, 0.0, 0.0], abs=1e-9)
