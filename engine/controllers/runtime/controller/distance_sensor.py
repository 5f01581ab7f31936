"""`DistanceSensor`: the value of its lookup table at the measured distance."""

from __future__ import annotations

from .device import Sensor


class DistanceSensor(Sensor):
    """A distance sensor (rays along its +x axis)."""

    GENERIC = 0
    INFRA_RED = 1
    SONAR = 2
    LASER = 3

    def getValue(self) -> float:
        return self._sample("wb_distance_sensor_get_value")

    def getMaxValue(self) -> float:
        return self._info.get("max_value", 0.0)

    def getMinValue(self) -> float:
        return self._info.get("min_value", 0.0)

    def getAperture(self) -> float:
        return self._info.get("aperture", 0.0)

    def getLookupTable(self) -> list:
        return list(self._info.get("lookup_table", ()))

    def getType(self) -> int:
        return self._info.get("kind", DistanceSensor.GENERIC)

    @property
    def value(self) -> float:
        return self.getValue()

    @property
    def max_value(self) -> float:
        return self.getMaxValue()

    @property
    def min_value(self) -> float:
        return self.getMinValue()

    @property
    def aperture(self) -> float:
        return self.getAperture()

    @property
    def lookup_table(self) -> list:
        return self.getLookupTable()

    @property
    def type(self) -> int:
        return self.getType()
