"""GPS and Compass against known poses and motion."""

from __future__ import annotations

import math

import pytest

from tests.engine.sim.sensors.worlds import device, make_sim, run


def test_gps_position_and_speed_on_known_motion() -> None:
    # no gravity, launched at (1, 2, 0) m/s from (0.5, 0, 3); the GPS 0.1 m along the body's x
    sim = make_sim("Robot { translation 0.5 0 3 children [ GPS { name \"gps\" translation 0.1 0 0 } "
                   "GPS { name \"res\" resolution 0.25 speedResolution 1 } ] "
                   "physics Physics { } boundingObject Sphere { radius 0.1 } "
                   "linearVelocity 1 2 0 }", info="gravity 0 gpsReference 10 20 30")
    gps, res = device(sim, "GPS", "gps"), device(sim, "GPS", "res")
    run(sim, [gps, res], 25)  # 0.8 s
    t = sim.time_ms / 1000.0
    assert gps.read() == pytest.approx([10.6 + t, 20.0 + 2.0 * t, 33.0], abs=1e-9)
    assert gps.speed == pytest.approx(math.sqrt(5.0), abs=1e-12)
    assert gps.speed_vector == pytest.approx([1.0, 2.0, 0.0], abs=1e-12)
    assert res.read() == [11.25, 21.5, 33.0]  # (11.3, 21.6, 33) at 0.25 m
    assert res.speed == 2.0


def test_gps_without_physics_differentiates_its_position() -> None:
    sim = make_sim("Robot { translation 1 2 3 children [ GPS { name \"gps\" } ] }")
    gps = device(sim, "GPS", "gps")
    assert gps.read() == [1.0, 2.0, 3.0]
    assert all(math.isnan(v) for v in gps.speed_vector)  # no previous sample yet
    run(sim, [gps], 3)
    assert gps.read() == [1.0, 2.0, 3.0]
    assert gps.speed_vector == [0.0, 0.0, 0.0] and gps.speed == 0.0


def test_gps_noise_is_seeded_and_has_the_accuracy_sigma() -> None:
    text = "Robot { children [ GPS { name \"gps\" accuracy 0.5 } ] }"
    a = device(make_sim(text), "GPS", "gps", seed=11)
    b = device(make_sim(text), "GPS", "gps", seed=11)
    xs = [a.read() for _ in range(2000)]
    assert xs == [b.read() for _ in range(2000)]
    col = [p[0] for p in xs]
    mean = math.fsum(col) / len(col)
    sd = math.sqrt(math.fsum((c - mean) ** 2 for c in col) / len(col))
    assert abs(mean) < 4 * 0.5 / math.sqrt(len(col))
    assert sd == pytest.approx(0.5, rel=0.06)


def test_gps_correlated_noise_changes_slowly() -> None:
    text = "Robot { children [ GPS { name \"gps\" accuracy 1 noiseCorrelation 0.9 } ] }"
    sim = make_sim(text, info="basicTimeStep 10")
    gps = device(sim, "GPS", "gps", seed=3)
    samples = []
    for _ in range(300):
        run(sim, [gps], 1)
        samples.append(gps.read()[0])
    # ratio 0.9^0.01 per 10 ms sample: successive errors correlate at about 0.999
    steps = [abs(b - a) for a, b in zip(samples, samples[1:], strict=False)]
    assert max(steps) < 0.25
    assert max(samples) - min(samples) > 0.1


def test_compass_of_a_known_yaw() -> None:
    sim = make_sim("Robot { rotation 0 0 1 0.3 children [ Compass { name \"c\" } "
                   "Compass { name \"t\" lookupTable [-1 -100 0, 1 100 0] yAxis FALSE } ] }\n"
                   "Robot { children [ Compass { name \"id\" } ] }")
    assert device(sim, "Compass", "id").read() == pytest.approx([0.0, 1.0, 0.0], abs=1e-15)
    # north (0, 1, 0) seen from a frame turned by 0.3 about z
    assert device(sim, "Compass", "c").read() == pytest.approx(
        [math.sin(0.3), math.cos(0.3), 0.0], abs=1e-12)
    x, y, z = device(sim, "Compass", "t").read()
    assert x == pytest.approx(100 * math.sin(0.3), abs=1e-10) and math.isnan(y)
    assert z == pytest.approx(0.0, abs=1e-12)


def test_compass_north_follows_the_coordinate_system() -> None:
    sim = make_sim("Robot { children [ Compass { name \"c\" } ] }", info='coordinateSystem "NUE"')
    assert device(sim, "Compass", "c").read() == pytest.approx([1.0, 0.0, 0.0], abs=1e-15)
