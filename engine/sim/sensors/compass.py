"""Compass: the world's north in the device frame (docs/sensors.md, "Compass").

North is the axis marked N in WorldInfo.coordinateSystem: +y in ENU, +x in
NUE, +z in EUN. `read` (getValues) returns that unit vector in the compass
frame, each component through the lookup table (an identity orientation in
ENU reads [0, 1, 0]); a FALSE axis reads NaN. Works on static devices too.
"""

from __future__ import annotations

import numpy as np

from engine.sim.sensors.lookup import Reading
from engine.sim.sensors.site import DeviceSite, axes_of, to_device
from engine.world import Node


def north_of(coordinate_system: str) -> np.ndarray:
    """The world north unit vector (3,) of a WorldInfo.coordinateSystem ("ENU", ...)."""
    north = np.zeros(3)
    north[coordinate_system.index("N")] = 1.0
    return north


class CompassDevice:
    """The engine side of one Compass node (`SampledDevice`)."""

    def __init__(self, sim, node: Node, seed: int) -> None:
        self.node = node
        self.site = DeviceSite(sim, node)
        self.reading = Reading.of_node(node, seed)
        self.axes = axes_of(node)
        info = sim.world.world_info
        self.north = north_of(info.get("coordinateSystem") if info is not None else "ENU")

    def post_step(self, dt: float) -> None:
        """Nothing to keep between steps."""

    def read(self) -> list[float]:
        """getValues: north (3,) in the compass frame, through the lookup table."""
        return self.reading.apply3(to_device(self.site.frame().R, self.north).tolist(), self.axes)
