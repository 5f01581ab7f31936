"""InertialUnit, Gyro and Accelerometer: readings from the body state
(docs/sensors.md, "InertialUnit", "Gyro", "Accelerometer").

* InertialUnit: the device's world orientation as a unit quaternion
  [x, y, z, w] (the controller computes roll/pitch/yaw from it). ``noise``
  turns it by a random rotation of Euler angles ``noise pi N(0, 1)`` each; a
  FALSE axis zeroes that component of the rotation's axis (Webots swaps y
  and z there, a NUE leftover; Odeon does not); ``resolution`` rounds each
  component; the quaternion is reported with w >= 0. Works on static devices too.
* Gyro: the body's angular velocity in the device frame [rad/s], each axis
  through the lookup table; NaN without a body (Webots needs Physics).
* Accelerometer: the device point's acceleration minus gravity in the device
  frame [m/s²] (+g up at rest, 0 in free fall), the acceleration being the
  change of the point's velocity since the previous read divided by the time
  elapsed (the sampling period, as Webots); NaN without a body.
"""

from __future__ import annotations

import math

import numpy as np

from engine import ode
from engine.ode.kernels.detlinalg import matmul
from engine.sim.poses import axis_angle_to_matrix, matrix_to_axis_angle, matrix_to_quaternion
from engine.sim.sensors.lookup import Reading, discretize, rng_of
from engine.sim.sensors.site import DeviceSite, axes_of, nan3, to_device
from engine.world import Node


class InertialUnitDevice:
    """The engine side of one InertialUnit node (`SampledDevice`)."""

    def __init__(self, sim, node: Node, seed: int) -> None:
        self.node = node
        self.site = DeviceSite(sim, node)
        self.noise = float(node.get("noise"))
        self.resolution = float(node.get("resolution"))
        self.axes = axes_of(node)
        self.rng = rng_of(seed)

    def post_step(self, dt: float) -> None:
        """Nothing to keep between steps."""

    def read(self) -> list[float]:
        """getQuaternion: [x, y, z, w] of the device's world orientation."""
        R = self.site.frame().R
        if self.noise != 0.0:
            a = self.noise * math.pi
            turn = np.asarray(ode.dRFromEulerAngles(*(a * float(self.rng.standard_normal())
                                                      for _ in range(3)))).reshape(3, 4)[:, :3]
            R = matmul(R, turn)
        if not all(self.axes):
            x, y, z, angle = matrix_to_axis_angle(R)
            axis = [c if on else 0.0 for c, on in zip((x, y, z), self.axes, strict=True)]
            R = axis_angle_to_matrix((*axis, angle))  # renormalised; a zero axis: identity
        w, x, y, z = matrix_to_quaternion(R).tolist()
        if w < 0.0:  # q and -q are one rotation: report the one with w >= 0
            w, x, y, z = -w, -x, -y, -z
        return [discretize(v, self.resolution) for v in (x, y, z, w)]


class GyroDevice:
    """The engine side of one Gyro node (`SampledDevice`)."""

    def __init__(self, sim, node: Node, seed: int) -> None:
        self.node = node
        self.site = DeviceSite(sim, node)
        self.reading = Reading.of_node(node, seed)
        self.axes = axes_of(node)

    def post_step(self, dt: float) -> None:
        """Nothing to keep between steps."""

    def read(self) -> list[float]:
        """getValues: angular velocity [rad/s] (3,) about the device's x, y, z axes."""
        w = self.site.angular_velocity()
        if w is None:
            return nan3()
        return self.reading.apply3(to_device(self.site.frame().R, w).tolist(), self.axes)


class AccelerometerDevice:
    """The engine side of one Accelerometer node (`SampledDevice`)."""

    def __init__(self, sim, node: Node, seed: int) -> None:
        self.node = node
        self.site = DeviceSite(sim, node)
        self.reading = Reading.of_node(node, seed)
        self.axes = axes_of(node)
        self._velocity = self._point_velocity()
        self._elapsed = 0.0
        self._last = nan3()

    def _point_velocity(self) -> np.ndarray | None:
        return self.site.point_velocity(self.site.frame().t)

    def _restart(self) -> None:
        """Start again from the velocity now (after a reset or rebuild)."""
        self._velocity, self._elapsed, self._last = self._point_velocity(), 0.0, nan3()

    def post_step(self, dt: float) -> None:
        """Count the time since the last read [s]."""
        if self.site.restarted():
            self._restart()  # the velocity after this step is the new reference
            return
        self._elapsed += dt

    def read(self) -> list[float]:
        """getValues: (a - g) [m/s²] (3,) in the device frame, a the device point's
        mean acceleration since the previous read."""
        if self.site.restarted():
            self._restart()
        v = self._point_velocity()
        if v is None:
            return nan3()
        if self._elapsed <= 0.0:
            return list(self._last)  # no step since the last read
        a = (v - self._velocity) / self._elapsed - self.site.gravity()
        self._velocity, self._elapsed = v, 0.0
        self._last = self.reading.apply3(to_device(self.site.frame().R, a).tolist(), self.axes)
        return list(self._last)
