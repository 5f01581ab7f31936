"""Sensor devices: the engine side of Webots' sensor nodes (docs/sensors.md).

`SENSOR_TYPES` maps a node type name to a factory ``(sim, node, seed) ->
device`` (sim an `engine.sim.simulation.Simulation`, node the device `Node`,
seed the per-device integer the controller host derives from
WorldInfo.randomSeed and the device's index; it seeds the device's
``Generator(PCG64(seed))`` for noise). Every device has ``node``,
``post_step(dt)`` (called after every world step, dt in s) and ``read()``
(the value Webots' API returns now, a float or a list of floats, in Webots'
units and frames).
"""

from __future__ import annotations

from collections.abc import Callable

from engine.sim.sensors.compass import CompassDevice
from engine.sim.sensors.distance import DistanceSensorDevice
from engine.sim.sensors.gps import GPSDevice
from engine.sim.sensors.inertial import AccelerometerDevice, GyroDevice, InertialUnitDevice
from engine.sim.sensors.touch import TouchSensorDevice

#: node type name -> device factory (sim, node, seed)
SENSOR_TYPES: dict[str, Callable] = {
    "DistanceSensor": DistanceSensorDevice,
    "TouchSensor": TouchSensorDevice,
    "InertialUnit": InertialUnitDevice,
    "Gyro": GyroDevice,
    "Accelerometer": AccelerometerDevice,
    "GPS": GPSDevice,
    "Compass": CompassDevice,
}

__all__ = ["SENSOR_TYPES", "AccelerometerDevice", "CompassDevice", "DistanceSensorDevice",
           "GPSDevice", "GyroDevice", "InertialUnitDevice", "TouchSensorDevice"]
