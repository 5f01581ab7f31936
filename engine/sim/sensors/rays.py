"""A DistanceSensor's rays: their directions and weights in the sensor frame,
and casting them through the collision system (docs/sensors.md, "DistanceSensor").

Directions (sensor frame, unit): one ray along +x; 2 to 10 rays from a fixed
polar table (`POLAR`: angle around the x axis, fraction of the half
aperture); more rays on rings of 1, 4, 7, ... rays (ring k holds 3k + 1)
spread over the aperture. Weights: ``w_i = exp(-(theta_i / (aperture
gaussianWidth))^2)`` normalised to a sum of 1, theta_i the ray's angle to +x.

Casting: one ODE ray geom per ray, outside every space (the simulation's
collision pass never sees it), is collided with the model's top space by
`dSpaceCollide2` (Group spaces are opened) and `dCollide`; geoms of the
excluded Solids (the sensor's own robot) and geoms of no Solid (a plugin's)
are skipped. A hit is the nearest contact: distance from the sensor origin
[m] and the surface normal (world, pointing out of the surface).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from engine import ode
from engine.ode.kernels import detmath
from engine.ode.kernels.detlinalg import matmul

_THIRD = 2.0 * math.pi / 3.0
_QUARTER = math.pi / 2.0
_FIFTH = 2.0 * math.pi / 5.0
_SIXTH = math.pi / 3.0
_SEVENTH = 2.0 * math.pi / 7.0

#: rays of a 2..10-ray sensor: (angle about the x axis [rad], fraction of aperture / 2)
POLAR: dict[int, tuple[tuple[float, float], ...]] = {
    2: ((_QUARTER, 1.0), (-_QUARTER, 1.0)),
    3: ((0.0, 1.0), (_THIRD, 1.0), (-_THIRD, 1.0)),
    4: ((0.0, 0.0), (0.0, 1.0), (_THIRD, 1.0), (-_THIRD, 1.0)),
    5: ((0.0, 0.0), (0.0, 1.0), (_QUARTER, 1.0), (math.pi, 1.0), (-_QUARTER, 1.0)),
    6: ((0.0, 0.0),) + tuple((k * _FIFTH, 1.0) for k in range(5)),
    7: ((0.0, 0.0),) + tuple((k * _SIXTH, 1.0) for k in range(6)),
    8: ((0.0, 0.0),) + tuple((k * _SEVENTH, 1.0) for k in range(7)),
    9: ((0.0, 0.3), (_THIRD, 0.3), (-_THIRD, 0.3)) + tuple((k * _SIXTH, 1.0) for k in range(6)),
    10: ((0.0, 0.0), (0.0, 0.5), (_THIRD, 0.5), (-_THIRD, 0.5))
    + tuple((k * _SIXTH, 1.0) for k in range(6)),
}

#: contact points asked from dCollide per ray and geom (the nearest is kept)
MAX_RAY_CONTACTS = 16


@dataclass(frozen=True)
class RayFan:
    """Ray directions (n, 3) in the sensor frame (unit) and weights (n,) summing to 1."""

    directions: np.ndarray
    weights: np.ndarray

    def __len__(self) -> int:
        return len(self.weights)


@dataclass(frozen=True)
class RayHit:
    """The nearest hit of one ray: distance [m] from the origin, world normal (3,)
    pointing out of the surface hit."""

    distance: float
    normal: np.ndarray


def _polar_to_direction(alpha: float, theta: float, aperture: float) -> np.ndarray:
    """The unit direction at angle ``alpha`` about +x (0 towards +y, pi/2 towards +z)
    and fraction ``theta`` of the half aperture away from +x."""
    a = alpha + _QUARTER
    t = theta * aperture / 2.0
    st, ct = detmath.sincos(t)
    sa, ca = detmath.sincos(a)
    # tilt +x by t towards -z, then turn that about +x by a (Webots' quarter turn included)
    return np.array([ct, st * sa, -st * ca])


def _ring_polars(n: int) -> list[tuple[float, float]]:
    """(alpha, theta) of n > 10 rays on rings of 3k + 1 rays, outer ring at theta 1."""
    alphas: list[float] = []
    rings: list[int] = []
    left, ring = n, 0
    while left > 0:
        m = min(3 * ring + 1, left)
        step = 2.0 * math.pi / m
        for _ in range(m):
            # Webots numbers the angles with the ray's overall index, not its index on the ring
            alphas.append(len(alphas) * step)
            rings.append(ring)
        left -= 3 * ring + 1
        ring += 1
    return [(a, r / (ring - 1)) for a, r in zip(alphas, rings, strict=True)]


def ray_fan(n: int, aperture: float, gaussian_width: float) -> RayFan:
    """The rays of a sensor with ``numberOfRays`` n (>= 1), ``aperture`` [rad] and
    ``gaussianWidth``; an aperture of 0 casts one ray."""
    if n <= 1 or aperture == 0.0:
        return RayFan(np.array([[1.0, 0.0, 0.0]]), np.array([1.0]))
    polars = list(POLAR[n]) if n in POLAR else _ring_polars(n)
    dirs = np.array([_polar_to_direction(a, t, aperture) for a, t in polars])
    w = []
    for d in dirs:
        theta = detmath.acos(min(1.0, max(-1.0, float(d[0]))))
        u = theta / (aperture * gaussian_width)
        w.append(detmath.exp(-(u * u)))
    total = math.fsum(w)
    return RayFan(dirs, np.array([x / total for x in w]))


class RayCaster:
    """Casts a fan's rays from a world frame through a model's collision space."""

    def __init__(self, fan: RayFan, length: float) -> None:
        self.fan = fan
        self.length = float(length)
        self._rays = [ode.dCreateRay(None, self.length) for _ in range(len(fan))] \
            if self.length > 0.0 else []

    def cast(self, model, R: np.ndarray, t: np.ndarray, excluded: set[int]) -> list[RayHit | None]:
        """Each ray's nearest hit (or None) from origin ``t`` (3,) with the sensor axes
        ``R`` (3, 3), against ``model``'s geoms except those of Solid records whose
        id is in ``excluded``."""
        hits: list[RayHit | None] = []
        for ray, d in zip(self._rays, self.fan.directions, strict=True):
            w = matmul(R, d)
            ode.dGeomRaySet(ray, float(t[0]), float(t[1]), float(t[2]),
                            float(w[0]), float(w[1]), float(w[2]))
            best: list[RayHit | None] = [None]
            ode.dSpaceCollide2(ray, model.space, None,
                               _near(model.geom_solid, excluded, best))
            hits.append(best[0])
        return hits or [None] * len(self.fan)

    def destroy(self) -> None:
        """Free the ray geoms."""
        for ray in self._rays:
            ode.dGeomDestroy(ray)
        self._rays = []


def _near(geom_solid: dict, excluded: set[int], best: list):
    """The dSpaceCollide2 callback keeping the nearest hit in ``best[0]``."""

    def near(data, ray, geom) -> None:
        if ode.dGeomIsSpace(geom):
            ode.dSpaceCollide2(ray, geom, data, near)
            return
        rec = geom_solid.get(geom)
        if rec is None or id(rec) in excluded:
            return
        for c in ode.dCollide(ray, geom, MAX_RAY_CONTACTS):
            if best[0] is None or c.depth < best[0].distance:
                best[0] = RayHit(float(c.depth), np.array(c.normal, float))

    return near
