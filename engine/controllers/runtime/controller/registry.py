"""Node type name -> the device class `Robot` builds for it."""

from __future__ import annotations

from .brake import Brake
from .camera import Camera
from .distance_sensor import DistanceSensor
from .emitter import Emitter
from .inertial_unit import InertialUnit
from .led import LED
from .motor import Motor
from .position_sensor import PositionSensor
from .receiver import Receiver
from .touch_sensor import TouchSensor
from .vector_sensors import GPS, Accelerometer, Compass, Gyro

#: Device node type -> its class.
DEVICE_CLASSES = {
    "Accelerometer": Accelerometer, "Brake": Brake, "Camera": Camera, "Compass": Compass,
    "DistanceSensor": DistanceSensor, "Emitter": Emitter, "GPS": GPS, "Gyro": Gyro,
    "InertialUnit": InertialUnit, "LED": LED, "LinearMotor": Motor,
    "PositionSensor": PositionSensor, "Receiver": Receiver, "RotationalMotor": Motor,
    "TouchSensor": TouchSensor,
}


def device_class(type_name: str):
    """The class of a device node type, or None for types without an API."""
    return DEVICE_CLASSES.get(type_name)
