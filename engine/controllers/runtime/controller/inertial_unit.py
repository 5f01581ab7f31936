"""`InertialUnit`: the device's world orientation as a quaternion and as
roll/pitch/yaw (ENU: zero when the device axes are the world's). Both come
from the simulation, computed there with deterministic maths."""

from __future__ import annotations

from .device import Sensor


class InertialUnit(Sensor):
    """Attitude of the device."""

    def getQuaternion(self) -> list:
        return self._sample("wb_inertial_unit_get_quaternion")[:4]

    def getRollPitchYaw(self) -> list:
        return self._sample("wb_inertial_unit_get_roll_pitch_yaw")[4:]

    def getNoise(self) -> float:
        return self._info.get("noise", 0.0)

    @property
    def roll_pitch_yaw(self) -> list:
        return self.getRollPitchYaw()

    @property
    def quaternion(self) -> list:
        return self.getQuaternion()

    @property
    def noise(self) -> float:
        return self.getNoise()
