"""`PositionSensor`: a joint's position [rad or m]."""

from __future__ import annotations

from .device import Sensor


class PositionSensor(Sensor):
    """The position of the joint axis this sensor sits on (not wrapped)."""

    ROTATIONAL = 0
    LINEAR = 1

    def getValue(self) -> float:
        return self._sample("wb_position_sensor_get_value")

    def getType(self) -> int:
        return PositionSensor.LINEAR if self._info.get("linear") else PositionSensor.ROTATIONAL

    def getMotor(self):
        return self._sibling("motor")

    def getBrake(self):
        return self._sibling("brake")

    def _sibling(self, key: str):
        name = self._info.get(key)
        return None if name is None or self._robot is None else self._robot.getDevice(name)

    @property
    def value(self) -> float:
        return self.getValue()

    @property
    def type(self) -> int:
        return self.getType()
