"""`TouchSensor`: bumper (0/1), force [lookup of N] or force-3d (3 components)."""

from __future__ import annotations

import math

from . import _errors
from .device import Sensor


class TouchSensor(Sensor):
    """A touch sensor."""

    BUMPER = 0
    FORCE = 1
    FORCE3D = 2

    def getValue(self) -> float:
        if self.getType() == TouchSensor.FORCE3D:
            _errors.error("wb_touch_sensor_get_value() cannot be used on a \"force-3d\" "
                          "touch sensor, use wb_touch_sensor_get_values() instead.")
            return math.nan
        return self._sample("wb_touch_sensor_get_value")

    def getValues(self) -> list:
        if self.getType() != TouchSensor.FORCE3D:
            _errors.error("wb_touch_sensor_get_values() can only be used on a \"force-3d\" "
                          "touch sensor, use wb_touch_sensor_get_value() instead.")
            return [math.nan] * 3
        return self._sample("wb_touch_sensor_get_values")

    def getLookupTable(self) -> list:
        return list(self._info.get("lookup_table", ()))

    def getType(self) -> int:
        return self._info.get("kind", TouchSensor.BUMPER)

    @property
    def value(self) -> float:
        return self.getValue()

    @property
    def values(self) -> list:
        return self.getValues()

    @property
    def lookup_table(self) -> list:
        return self.getLookupTable()

    @property
    def type(self) -> int:
        return self.getType()
