"""DistanceSensor: rays through the collision system, through the lookup table
(docs/sensors.md, "DistanceSensor").

The rays start at the sensor's origin and point along its +x axis (a cone of
``numberOfRays`` around it, `engine.sim.sensors.rays`); their length is the
table's largest input. They hit boundingObjects of every Solid but those of
the sensor's own Robot (the sensor alone when it is in no Robot). The
distance is reduced from the ray hits by the sensor ``type`` (`RULES`):

* generic: the weighted mean of the ray distances, a ray without hit counting
  as the full range;
* infra-red: as generic. Webots renders infra-red rays against the visual
  shapes and divides the distance by a reflection factor from the colour
  hit (``0.8 red + 0.2``, scaled by ``redColorSensitivity``); Odeon has no
  colours in its collision system, so it reads as if every surface were red
  or white (factor 1), and infra-red rays do not see the own robot either;
* sonar: the nearest hit among the rays meeting the surface within pi/8 of
  its normal, else the full range;
* laser: the single ray's hit, else the full range (a laser has one ray).

Unknown ``type`` strings read as sonar (as Webots); an empty table reads 0.
The rays are cast when the value is read (the poses of the last step), where
Webots casts them in the collision pass of the step that samples.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from functools import cache

import numpy as np

from engine.ode.kernels import detmath
from engine.ode.kernels.detlinalg import dot, matmul
from engine.sim.sensors.lookup import LookupTable, Reading, rng_of
from engine.sim.sensors.rays import RayCaster, RayFan, RayHit, ray_fan
from engine.sim.sensors.site import DeviceSite
from engine.world import Node


@cache
def sonar_cos() -> float:
    """cos(pi/8): a sonar ray farther than pi/8 from the surface normal is not echoed.

    Computed on first use: calling a kernel at import time would load it (about
    0.16 s) on every start of the app, sonar or not.
    """
    return detmath.cos(math.pi / 8.0)

Rule = Callable[[list[RayHit | None], np.ndarray, RayFan, float], float]


def ray_kind(type_field: str) -> str:
    """The sensor kind of a ``type`` string: generic, infra-red, laser or sonar
    (case-insensitive; "infrared" is infra-red; anything else is sonar)."""
    t = type_field.lower()
    if t in ("generic", "laser"):
        return t
    if t in ("infra-red", "infrared"):
        return "infra-red"
    return "sonar"


def _generic(hits: list[RayHit | None], dirs: np.ndarray, fan: RayFan, max_range: float) -> float:
    total = 0.0
    for hit, w in zip(hits, fan.weights.tolist(), strict=True):
        total += (hit.distance if hit is not None else max_range) * w
    return total


def _sonar(hits: list[RayHit | None], dirs: np.ndarray, fan: RayFan, max_range: float) -> float:
    best = max_range
    for hit, d in zip(hits, dirs, strict=True):
        # the echo comes back when the ray meets the surface within pi/8 of its normal
        if hit is not None and hit.distance < best and -dot(d, hit.normal) > sonar_cos():
            best = hit.distance
    return best


def _laser(hits: list[RayHit | None], dirs: np.ndarray, fan: RayFan, max_range: float) -> float:
    return hits[0].distance if hits[0] is not None else max_range


#: distance [m] from the ray hits, per sensor kind (world ray directions (n, 3))
RULES: dict[str, Rule] = {"generic": _generic, "infra-red": _generic, "sonar": _sonar,
                          "laser": _laser}


class DistanceSensorDevice:
    """The engine side of one DistanceSensor node (`SampledDevice`)."""

    def __init__(self, sim, node: Node, seed: int) -> None:
        self.node = node
        self.site = DeviceSite(sim, node)
        self.kind = ray_kind(node.get("type"))
        table = LookupTable.of(node.get("lookupTable"))
        self.reading = Reading(table, float(node.get("resolution")), rng_of(seed))
        n = int(node.get("numberOfRays"))
        if self.kind == "laser":
            n = 1
        self.fan = ray_fan(max(n, 1), abs(float(node.get("aperture"))),
                           float(node.get("gaussianWidth")))
        self.caster = RayCaster(self.fan, table.max_input)
        #: the distance [m] reduced from the rays at the last read
        self.distance = math.inf
        self._excluded: set[int] = set()
        self._excluded_model = None

    def post_step(self, dt: float) -> None:
        """Nothing to keep between steps (the rays are cast on read)."""

    def read(self) -> float:
        """The value Webots' getValue returns now: the reduced distance through
        the lookup table (noise, resolution)."""
        table = self.reading.table
        if table.empty:
            self.distance = math.inf
            return 0.0
        frame = self.site.frame()
        model = self.site.sim.model
        hits = self.caster.cast(model, frame.R, frame.t, self._excluded_ids(model))
        dirs = matmul(self.fan.directions, frame.R.T)  # (n, 3) world ray directions
        self.distance = RULES[self.kind](hits, dirs, self.fan, table.max_input)
        return self.reading.apply(self.distance)

    def _excluded_ids(self, model) -> set[int]:
        """ids of the records whose geoms the rays ignore: the sensor's Robot's Solids."""
        if model is not self._excluded_model:
            rec = self.site.current()
            robot = rec.robot
            self._excluded = ({id(r) for r in model.solids if r.robot is robot}
                              if robot is not None else {id(rec)})
            self._excluded_model = model
        return self._excluded
