"""GPS: world position, speed and speed vector (docs/sensors.md, "GPS").

`read` (getValues) returns the device's world position [m] plus
WorldInfo.gpsReference, with ``accuracy`` noise (sigma [m] per axis,
correlated between samples by ``noiseCorrelation``: ``n_k = r n_(k-1) +
sqrt(1 - r²) N(0, 1)``, ``r = noiseCorrelation^(elapsed s)``) and
``resolution``. The same read fills `speed` (getSpeed, m/s: |speed vector|
with ``speedNoise`` and ``speedResolution``) and `speed_vector`
(getSpeedVector, m/s, world): the device point's velocity from its body, or
without Physics the position change since the previous read over the time
elapsed (NaN at the first read). Only the "local" gpsCoordinateSystem is
implemented: under "WGS84" the values stay local (a warning says so).
"""

from __future__ import annotations

import math

import numpy as np

from engine.ode.kernels import detmath
from engine.sim.sensors.lookup import discretize, rng_of
from engine.sim.sensors.site import DeviceSite, nan3
from engine.world import Node


class GPSDevice:
    """The engine side of one GPS node (`SampledDevice`)."""

    def __init__(self, sim, node: Node, seed: int) -> None:
        self.node = node
        self.site = DeviceSite(sim, node)
        self.rng = rng_of(seed)
        self.accuracy = float(node.get("accuracy"))
        self.correlation = float(node.get("noiseCorrelation"))
        self.resolution = float(node.get("resolution"))
        self.speed_noise = float(node.get("speedNoise"))
        self.speed_resolution = float(node.get("speedResolution"))
        info = sim.world.world_info
        self.reference = np.array(info.get("gpsReference") if info is not None else (0, 0, 0),
                                  float)
        if info is not None and info.get("gpsCoordinateSystem") == "WGS84":
            sim.console.warn(f"GPS '{node.get('name')}': WorldInfo.gpsCoordinateSystem WGS84 is "
                             "not simulated; the GPS reads local coordinates")
        #: getSpeed [m/s] and getSpeedVector [m/s] (3,) of the last read
        self.speed = math.nan
        self.speed_vector = nan3()
        self._noise = np.zeros(3)
        self._previous: np.ndarray | None = None
        self._elapsed = 0.0

    def post_step(self, dt: float) -> None:
        """Count the time since the last read [s]."""
        if self.site.restarted():
            self._previous, self._elapsed = None, 0.0
            return
        self._elapsed += dt

    def read(self) -> list[float]:
        """getValues: the position [m] (3,); `speed` and `speed_vector` updated too."""
        if self.site.restarted():
            self._previous, self._elapsed = None, 0.0
        t = self.site.frame().t
        position = t + self.reference
        if self.accuracy != 0.0:
            r = detmath.pow(self.correlation, self._elapsed) if self.correlation != 0.0 else 0.0
            for i in range(3):
                # correlated Gaussian sequence with unit variance
                self._noise[i] = (r * self._noise[i]
                                  + math.sqrt(1.0 - r * r) * float(self.rng.standard_normal()))
            position = position + self.accuracy * self._noise
        self._read_speed(t)
        return [discretize(float(v), self.resolution) for v in position]

    def _read_speed(self, t: np.ndarray) -> None:
        v = self.site.point_velocity(t)
        if v is not None:
            vector = v
        elif self._previous is not None and self._elapsed > 0.0:
            vector = (t - self._previous) / self._elapsed
        else:
            vector = np.full(3, math.nan)
        self._previous, self._elapsed = t.copy(), 0.0
        speed = math.sqrt(float(vector[0] * vector[0] + vector[1] * vector[1]
                                + vector[2] * vector[2]))
        if self.speed_noise > 0.0:
            speed *= 1.0 + self.speed_noise * float(self.rng.standard_normal())
        self.speed = discretize(speed, self.speed_resolution)
        self.speed_vector = [float(c) for c in vector]
