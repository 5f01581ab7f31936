"""Odeon's `controller` package: Webots' Python controller API, so that Webots
controllers run unchanged (``from controller import Robot, Motor, ...``).

Each controller is its own process started by the simulation
(`engine.controllers`), which puts this package first on its path. The
coverage table against Webots' API is in docs/controllers.md.
"""

from .ansi_codes import AnsiCodes
from .brake import Brake
from .camera import Camera
from .device import Device, Sensor
from .distance_sensor import DistanceSensor
from .emitter import Emitter
from .field import Field
from .inertial_unit import InertialUnit
from .keyboard import Keyboard
from .led import LED
from .motor import Motor
from .node import Node
from .position_sensor import PositionSensor
from .receiver import Receiver
from .robot import Robot
from .supervisor import Supervisor
from .touch_sensor import TouchSensor
from .vector_sensors import GPS, Accelerometer, Compass, Gyro

__all__ = [
    "GPS", "LED", "Accelerometer", "AnsiCodes", "Brake", "Camera", "Compass", "Device",
    "DistanceSensor", "Emitter", "Field", "Gyro", "InertialUnit", "Keyboard", "Motor", "Node",
    "PositionSensor", "Receiver", "Robot", "Sensor", "Supervisor", "TouchSensor",
]
