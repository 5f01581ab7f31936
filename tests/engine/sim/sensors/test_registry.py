"""SENSOR_TYPES: every sensor node type has a factory building a SampledDevice."""

from __future__ import annotations

import math

from engine.sim.sensors import SENSOR_TYPES
from engine.world import is_solid_type
from tests.engine.sim.sensors.worlds import make_sim, run

EXPECTED = {"DistanceSensor", "TouchSensor", "InertialUnit", "Gyro", "Accelerometer", "GPS",
            "Compass"}


def test_registry_covers_the_sensor_nodes() -> None:
    assert set(SENSOR_TYPES) == EXPECTED
    assert all(is_solid_type(t) for t in SENSOR_TYPES)


def test_every_factory_builds_a_device_that_steps_and_reads() -> None:
    children = " ".join(f"{t} {{ }}" for t in sorted(EXPECTED))
    sim = make_sim(f"Robot {{ translation 0 0 1 children [ {children} ] "
                   "physics Physics { } boundingObject Sphere { radius 0.1 } }")
    devices = [SENSOR_TYPES[n.type_name](sim, n, 0) for n in sim.world.nodes_of_type("Solid")
               if n.type_name in SENSOR_TYPES]
    assert {d.node.type_name for d in devices} == EXPECTED
    run(sim, devices, 3)
    for d in devices:
        value = d.read()
        values = value if isinstance(value, list) else [value]
        assert all(isinstance(v, float) for v in values), d.node.type_name
        assert len(values) in (1, 3, 4)
        assert not any(math.isnan(v) for v in values), d.node.type_name
