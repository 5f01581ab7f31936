"""Where a device node is in the running simulation: its Solid record, world
frame, body and velocities (shared by the sensor devices).

A device that is a Solid has its own `SolidRecord`; it is usually carried by
its parent's (merged) body with a constant offset (engine/sim/builder.py), so
its world frame is the body frame times that offset. The record is looked up
again after the simulation rebuilt its model (`current`); `restarted` tells a
device keeping state between reads that the simulation was reset or rebuilt.
"""

from __future__ import annotations

import math

import numpy as np

from engine import ode
from engine.ode.kernels.detlinalg import matmul
from engine.sim.builder import SolidRecord
from engine.sim.poses import Frame
from engine.world import Node


class DeviceSite:
    """The Solid side of a device node in ``sim`` (an `engine.sim.simulation.Simulation`)."""

    def __init__(self, sim, node: Node) -> None:
        self.sim = sim
        self.node = node
        self._model = None
        self._rec: SolidRecord | None = None
        self.current()
        self._seen_model = self._model
        self._seen_ms = sim.time_ms

    def current(self) -> SolidRecord:
        """The node's record in the simulation's current model (ValueError when
        the node is not a Solid of it)."""
        model = self.sim.model
        if model is not self._model:
            rec = model.record_of(self.node)
            if rec is None:
                raise ValueError(f"{self.node.type_name} '{self.node.get('name')}' is not a "
                                 "Solid of this simulation")
            self._model, self._rec = model, rec
        return self._rec

    def restarted(self) -> bool:
        """True when the simulation was rebuilt or went back in time (reset, loaded
        state) since the previous call: per-read state must start again."""
        sim = self.sim
        back = sim.model is not self._seen_model or sim.time_ms < self._seen_ms
        self._seen_model, self._seen_ms = sim.model, sim.time_ms
        return back

    def frame(self) -> Frame:
        """The device's world frame now (R (3, 3), t (3,) m)."""
        return self.sim.solid_world_frame(self.current())

    @property
    def body(self):
        """The ODE body moving the device (its own or its parent's), or None (static)."""
        return self.current().ode_body

    def point_velocity(self, p: np.ndarray) -> np.ndarray | None:
        """World velocity (3,) m/s of world point ``p`` moving with the body; None when static."""
        body = self.body
        return None if body is None else np.asarray(ode.dBodyGetPointVel(body, *p), float)

    def angular_velocity(self) -> np.ndarray | None:
        """World angular velocity (3,) rad/s of the body; None when static."""
        body = self.body
        return None if body is None else np.asarray(ode.dBodyGetAngularVel(body), float)

    def gravity(self) -> np.ndarray:
        """The world's gravity vector (3,) m/s² now (a plugin may have changed it)."""
        return np.asarray(ode.dWorldGetGravity(self.sim.model.ode_world), float)


def to_device(R: np.ndarray, v: np.ndarray) -> np.ndarray:
    """World vector ``v`` (3,) in the frame whose axes are the columns of ``R`` (3, 3)."""
    return matmul(R.T, np.asarray(v, float))


def axes_of(node: Node) -> tuple[bool, bool, bool]:
    """The device's xAxis, yAxis, zAxis flags (a FALSE axis reads NaN)."""
    return bool(node.get("xAxis")), bool(node.get("yAxis")), bool(node.get("zAxis"))


def nan3() -> list[float]:
    """[NaN, NaN, NaN]: a 3-vector reading that has no value."""
    return [math.nan, math.nan, math.nan]
