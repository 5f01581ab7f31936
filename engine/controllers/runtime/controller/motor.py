"""`Motor`: RotationalMotor and LinearMotor (Webots' `Motor` class).

Setters queue a command for the next step (the simulation applies Webots'
clamping and prints its warnings there); getters return the last value set
here, as libController does. Client-side checks are libController's: NaN
positions, a negative velocity in position control, negative torques.
"""

from __future__ import annotations

import math

from . import _errors
from .device import Device


class Motor(Device):
    """A rotational or linear motor."""

    ROTATIONAL = 0
    LINEAR = 1

    def __init__(self, name, sampling_period=None, _built: bool = False) -> None:
        super().__init__(name, sampling_period, _built)
        info = self._info
        self._target_position = info.get("position", 0.0)
        self._velocity = info.get("maxVelocity", 10.0)
        self._acceleration = info.get("acceleration", -1.0)
        self._available = info.get("maxTorque", 10.0)
        self._feedback_period = 0

    # -- commands
    def setPosition(self, position: float) -> None:
        position = float(position)
        if math.isnan(position):
            _errors.error("wb_motor_set_position() called with a NaN value.")
            return
        self._target_position = position
        self._command("position", position)

    def setVelocity(self, velocity: float) -> None:
        velocity = float(velocity)
        if math.isnan(velocity):
            _errors.error("wb_motor_set_velocity() called with a NaN value.")
            return
        if velocity < 0.0 and not math.isinf(self._target_position):
            _errors.error("wb_motor_set_velocity() called with negative 'velocity' argument "
                          "in position control mode.")
            return
        self._velocity = velocity
        self._command("velocity", velocity)

    def setAcceleration(self, acceleration: float) -> None:
        acceleration = float(acceleration)
        if acceleration < 0.0 and acceleration != -1.0:
            _errors.error("wb_motor_set_acceleration() called with negative 'acceleration' "
                          "argument.")
            return
        self._acceleration = acceleration
        self._command("acceleration", acceleration)

    def setAvailableForce(self, force: float) -> None:
        self._set_available(float(force), "wb_motor_set_available_force")

    def setAvailableTorque(self, torque: float) -> None:
        self._set_available(float(torque), "wb_motor_set_available_torque")

    def _set_available(self, value: float, function: str) -> None:
        if value < 0.0:
            _errors.error(f"{function}() called with negative argument.")
            return
        self._available = value
        self._command("available", value)

    def setControlPID(self, p: float, i: float, d: float) -> None:
        p, i, d = float(p), float(i), float(d)
        if p <= 0.0:
            _errors.error("wb_motor_set_control_pid() called with negative or zero 'p' "
                          "argument.")
            return
        if i < 0.0 or d < 0.0:
            _errors.error("wb_motor_set_control_pid() called with negative 'i' or 'd' "
                          "argument.")
            return
        self._command("pid", p, i, d)

    def setForce(self, force: float) -> None:
        self._command("torque", float(force))

    def setTorque(self, torque: float) -> None:
        self._command("torque", float(torque))

    # -- getters (libController's cached values and the node's fields)
    def getTargetPosition(self) -> float:
        return self._target_position

    def getVelocity(self) -> float:
        return self._velocity

    def getMaxVelocity(self) -> float:
        return self._info.get("maxVelocity", 10.0)

    def getAcceleration(self) -> float:
        return self._acceleration

    def getAvailableForce(self) -> float:
        return self._available

    def getAvailableTorque(self) -> float:
        return self._available

    def getMaxForce(self) -> float:
        return self._info.get("maxTorque", 10.0)

    def getMaxTorque(self) -> float:
        return self._info.get("maxTorque", 10.0)

    def getMinPosition(self) -> float:
        return self._info.get("minPosition", 0.0)

    def getMaxPosition(self) -> float:
        return self._info.get("maxPosition", 0.0)

    def getMultiplier(self) -> float:
        return self._info.get("multiplier", 1.0)

    def getType(self) -> int:
        return Motor.LINEAR if self._info["type"] == "LinearMotor" else Motor.ROTATIONAL

    def getBrake(self):
        return self._sibling("brake")

    def getPositionSensor(self):
        return self._sibling("position_sensor")

    def _sibling(self, key: str):
        name = self._info.get(key)
        if name is None or self._robot is None:
            return None
        return self._robot.getDevice(name)

    # -- force / torque feedback
    def enableForceFeedback(self, samplingPeriod: int) -> None:
        self._enable_feedback(samplingPeriod)

    def enableTorqueFeedback(self, samplingPeriod: int) -> None:
        self._enable_feedback(samplingPeriod)

    def _enable_feedback(self, period) -> None:
        if self._robot is None or self._tag < 0:
            return
        self._feedback_period = int(period)
        self._robot._periods[self._tag] = self._feedback_period
        self._command("enable", self._feedback_period)

    def disableForceFeedback(self) -> None:
        self._enable_feedback(0)

    def disableTorqueFeedback(self) -> None:
        self._enable_feedback(0)

    def getForceFeedbackSamplingPeriod(self) -> int:
        return self._feedback_period

    def getTorqueFeedbackSamplingPeriod(self) -> int:
        return self._feedback_period

    def getForceFeedback(self) -> float:
        return self._feedback("wb_motor_get_force_feedback")

    def getTorqueFeedback(self) -> float:
        return self._feedback("wb_motor_get_torque_feedback")

    def _feedback(self, function: str) -> float:
        if self._feedback_period <= 0:
            _errors.error(f"{function}() called for a disabled device! Please use: "
                          f"{function.replace('get', 'enable')}().")
            return math.nan
        return self._value()

    # -- Webots' properties
    @property
    def target_position(self) -> float:
        return self.getTargetPosition()

    @target_position.setter
    def target_position(self, position: float) -> None:
        self.setPosition(position)

    @property
    def max_velocity(self) -> float:
        return self.getMaxVelocity()

    @property
    def min_position(self) -> float:
        return self.getMinPosition()

    @property
    def max_position(self) -> float:
        return self.getMaxPosition()

    @property
    def multiplier(self) -> float:
        return self.getMultiplier()

    @property
    def type(self) -> int:
        return self.getType()
