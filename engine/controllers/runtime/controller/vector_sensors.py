"""The three-component sensors: `Accelerometer` [m/s²], `Gyro` [rad/s],
`Compass` (north in the device frame) and `GPS` [m]: ``getValues()`` gives
the latest sample as a list, NaN before the first one."""

from __future__ import annotations

from .device import Sensor


class _VectorSensor(Sensor):
    _FUNCTION = ""

    def getValues(self) -> list:
        return self._sample(self._FUNCTION)

    def getLookupTable(self) -> list:
        return list(self._info.get("lookup_table", ()))

    @property
    def value(self) -> list:
        return self.getValues()

    @property
    def lookup_table(self) -> list:
        return self.getLookupTable()


class Accelerometer(_VectorSensor):
    """Acceleration of the device in its frame, gravity reaction included [m/s²]."""

    _FUNCTION = "wb_accelerometer_get_values"


class Gyro(_VectorSensor):
    """Angular velocity in the device frame [rad/s]."""

    _FUNCTION = "wb_gyro_get_values"


class Compass(_VectorSensor):
    """The world's north direction in the device frame (unit vector)."""

    _FUNCTION = "wb_compass_get_values"


class GPS(_VectorSensor):
    """World position of the device [m]; speed [m/s]."""

    _FUNCTION = "wb_gps_get_values"
    LOCAL = 0
    WGS84 = 1

    def getSpeed(self) -> float:
        speed = self._robot._values.get((self._tag, "speed")) if self._robot else None
        return float("nan") if speed is None else speed

    def getSpeedVector(self) -> list:
        vector = self._robot._values.get((self._tag, "speed_vector")) if self._robot else None
        return [float("nan")] * 3 if vector is None else list(vector)

    def getCoordinateSystem(self) -> int:
        return GPS.LOCAL

    @staticmethod
    def convertToDegreesMinutesSeconds(decimal_degree: float) -> str:
        degrees = int(decimal_degree)
        minutes_float = abs(decimal_degree - degrees) * 60.0
        minutes = int(minutes_float)
        seconds = (minutes_float - minutes) * 60.0
        return f"{degrees}°{minutes}'{seconds:.2f}\""

    @property
    def speed(self) -> float:
        return self.getSpeed()

    @property
    def speed_vector(self) -> list:
        return self.getSpeedVector()

    @property
    def coordinate_system(self) -> int:
        return self.getCoordinateSystem()
