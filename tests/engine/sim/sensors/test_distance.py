"""DistanceSensor: rays through the collision system, lookup table, ray kinds."""

from __future__ import annotations

import math

import numpy as np
import pytest

from engine.sim.sensors.distance import ray_kind
from engine.sim.sensors.rays import ray_fan
from tests.engine.sim.sensors.worlds import device, make_sim

WALL = "Solid {{ name \"wall\" translation {x} 0 0.5 boundingObject Box {{ size 0.2 4 4 }} }}\n"


def sensor_world(sensors: str, wall_face: float = 0.7, extra: str = "") -> object:
    """A Robot at z = 0.5 holding ``sensors`` (facing +x); a wall whose face is at x = wall_face."""
    return make_sim(f"Robot {{ translation 0 0 0.5 children [ {sensors} ] "
                    "boundingObject Box { size 0.1 0.1 0.1 } }\n"
                    + WALL.format(x=wall_face + 0.1) + extra)


def test_single_ray_reads_the_wall_distance_through_the_table() -> None:
    sim = sensor_world('DistanceSensor { name "ds" lookupTable [0 0 0, 1 100 0] }')
    ds = device(sim, "DistanceSensor", "ds")
    assert ds.read() == pytest.approx(70.0, abs=1e-9)
    assert ds.distance == pytest.approx(0.7, abs=1e-12)


def test_default_table_clamps_beyond_its_range() -> None:
    # Webots' default table [0 0 0, 0.1 1000 0]: a wall 0.7 m away is beyond 0.1 m
    sim = sensor_world('DistanceSensor { name "ds" }')
    ds = device(sim, "DistanceSensor", "ds")
    assert ds.read() == 1000.0
    assert ds.distance == pytest.approx(0.1)


def test_below_the_first_input_reads_the_first_row() -> None:
    sim = sensor_world('DistanceSensor { name "ds" lookupTable [0.2 1000 0, 1 0 0] }',
                       wall_face=0.1)
    assert device(sim, "DistanceSensor", "ds").read() == 1000.0
    sim = sensor_world('DistanceSensor { name "ds" lookupTable [0.2 1000 0, 1 0 0] }',
                       wall_face=0.6)
    assert device(sim, "DistanceSensor", "ds").read() == pytest.approx(500.0, abs=1e-9)


def test_sensor_frame_translation_and_rotation_are_applied() -> None:
    # turned by pi about z the sensor faces -x: a second wall 1.3 m behind the robot
    sim = sensor_world('DistanceSensor { name "back" translation -0.05 0 0 rotation 0 0 1 3.14159265358979 '
                       'lookupTable [0 0 0, 2 200 0] }',
                       extra=WALL.format(x=-1.4).replace('"wall"', '"back wall"'))
    assert device(sim, "DistanceSensor", "back").read() == pytest.approx(125.0, abs=1e-6)


def test_five_rays_give_the_gaussian_weighted_mean() -> None:
    sim = sensor_world('DistanceSensor { name "ds" lookupTable [0 0 0, 1 100 0] '
                       'numberOfRays 5 aperture 0.2 }')
    ds = device(sim, "DistanceSensor", "ds")
    # one central ray, four at aperture / 2 = 0.1 rad: weight exp(-(0.1 / 0.2)^2) each
    w = math.exp(-0.25)
    expected = (0.7 + 4 * w * 0.7 / math.cos(0.1)) / (1 + 4 * w)
    assert ds.read() == pytest.approx(100.0 * expected, abs=1e-9)


def test_ray_fan_directions_and_weights() -> None:
    fan = ray_fan(2, 1.0, 1.0)
    # Webots' polar angles start at +y (left) and turn towards +z: the pair at +-pi/2 is
    # tilted by aperture / 2 = 0.5 rad up and down
    assert fan.directions == pytest.approx(
        np.array([[math.cos(0.5), 0.0, math.sin(0.5)], [math.cos(0.5), 0.0, -math.sin(0.5)]]),
        abs=1e-15)
    # three rays: the first at polar angle 0, towards +y
    assert ray_fan(3, 1.0, 1.0).directions[0] == pytest.approx(
        [math.cos(0.5), math.sin(0.5), 0.0], abs=1e-15)
    assert fan.weights.tolist() == [0.5, 0.5]
    for n in (3, 9, 10, 11, 25):
        fan = ray_fan(n, 0.8, 0.5)
        assert len(fan) == n
        assert np.linalg.norm(fan.directions, axis=1) == pytest.approx(np.ones(n))
        assert math.fsum(fan.weights) == pytest.approx(1.0, abs=1e-15)
        # every ray within the half aperture of +x
        assert (np.arccos(np.clip(fan.directions[:, 0], -1, 1)) <= 0.4 + 1e-12).all()
    assert len(ray_fan(5, 0.0, 1.0)) == 1  # a zero aperture casts one ray


def test_resolution_rounds_the_value() -> None:
    sim = sensor_world('DistanceSensor { name "ds" lookupTable [0 0 0, 1 100 0] resolution 8 }')
    assert device(sim, "DistanceSensor", "ds").read() == 72.0


def test_seeded_noise_is_deterministic() -> None:
    text = 'DistanceSensor { name "ds" lookupTable [0 0 0, 1 100 0.1] }'
    a = [device(sensor_world(text), "DistanceSensor", "ds", seed=5) for _ in range(2)]
    b = device(sensor_world(text), "DistanceSensor", "ds", seed=6)
    va = [[d.read() for _ in range(50)] for d in a]
    vb = [b.read() for _ in range(50)]
    assert va[0] == va[1]
    assert va[0] != vb
    # relative sigma at 0.7 m: 0.07
    assert np.std(va[0] + vb) == pytest.approx(70.0 * 0.07, rel=0.3)


def test_rays_ignore_the_own_robot_but_see_other_solids() -> None:
    # a child Solid of the robot right in front of the sensor is not seen
    sim = sensor_world('DistanceSensor { name "ds" lookupTable [0 0 0, 1 100 0] } '
                       'Solid { translation 0.3 0 0 boundingObject Box { size 0.05 0.5 0.5 } }')
    assert device(sim, "DistanceSensor", "ds").read() == pytest.approx(70.0, abs=1e-9)
    sim = sensor_world('DistanceSensor { name "ds" lookupTable [0 0 0, 1 100 0] }',
                       extra="Solid { translation 0.3 0 0.5 boundingObject Box { size 0.05 0.5 0.5 } }")
    assert device(sim, "DistanceSensor", "ds").read() == pytest.approx(27.5, abs=1e-9)


def test_group_bounding_objects_and_moving_targets() -> None:
    sim = sensor_world('DistanceSensor { name "ds" lookupTable [0 0 0, 1 100 0] }', wall_face=5.0,
                       extra='DEF BALL Solid { translation 0.6 0 0.5 boundingObject Group { '
                             'children [ Sphere { radius 0.1 } Pose { translation 0 0 1 children '
                             '[ Box { size 0.1 0.1 0.1 } ] } ] } physics Physics { } }')
    ds = device(sim, "DistanceSensor", "ds")
    assert ds.read() == pytest.approx(50.0, abs=1e-9)
    # the ball falls away below the ray: the sensor reads its range
    for _ in range(20):
        sim.step()
    assert ds.read() == 100.0


def test_sonar_ignores_oblique_echoes_laser_does_not() -> None:
    # sensors turned by 0.5 rad about z meet the wall 0.5 rad off its normal (> pi/8)
    turned = 'rotation 0 0 1 0.5 lookupTable [0 0 0, 2 200 0]'
    sim = sensor_world(f'DistanceSensor {{ name "sonar" type "sonar" {turned} }} '
                       f'DistanceSensor {{ name "laser" type "laser" numberOfRays 3 {turned} }}')
    assert device(sim, "DistanceSensor", "sonar").read() == 200.0
    laser = device(sim, "DistanceSensor", "laser")
    assert len(laser.fan) == 1
    assert laser.read() == pytest.approx(100.0 * 0.7 / math.cos(0.5), abs=1e-9)
    # head on, the sonar hears the wall
    sim = sensor_world('DistanceSensor { name "sonar" type "sonar" lookupTable [0 0 0, 2 200 0] }')
    assert device(sim, "DistanceSensor", "sonar").read() == pytest.approx(70.0, abs=1e-9)


def test_infra_red_reads_as_generic_and_empty_table_reads_zero() -> None:
    sim = sensor_world('DistanceSensor { name "ir" type "infra-red" lookupTable [0 0 0, 1 100 0] } '
                       'DistanceSensor { name "empty" lookupTable [] }')
    assert device(sim, "DistanceSensor", "ir").read() == pytest.approx(70.0, abs=1e-9)
    assert device(sim, "DistanceSensor", "empty").read() == 0.0
    assert [ray_kind(t) for t in ("GENERIC", "infrared", "Infra-Red", "laser", "sonar", "x")] == [
        "generic", "infra-red", "infra-red", "laser", "sonar", "sonar"]
