"""`InertialUnit`: the device's world orientation; roll/pitch/yaw are computed
here from the quaternion, as libController does (ENU, ZYX extrinsic)."""

from __future__ import annotations

import math

from .device import Sensor


class InertialUnit(Sensor):
    """Attitude of the device: zero when its axes are the world's."""

    def getQuaternion(self) -> list:
        return self._sample("wb_inertial_unit_get_quaternion")

    def getRollPitchYaw(self) -> list:
        x, y, z, w = self._sample("wb_inertial_unit_get_roll_pitch_yaw")
        if math.isnan(w):
            return [math.nan] * 3
        # roll about x, pitch about y, yaw about z of R = Rz(yaw) Ry(pitch) Rx(roll)
        roll = math.atan2(2.0 * (w * x + y * z), 1.0 - 2.0 * (x * x + y * y))
        sin_pitch = max(-1.0, min(1.0, 2.0 * (w * y - z * x)))
        pitch = math.asin(sin_pitch)
        yaw = math.atan2(2.0 * (w * z + x * y), 1.0 - 2.0 * (y * y + z * z))
        return [roll, pitch, yaw]

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
