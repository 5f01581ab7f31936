"""Small worlds and helpers shared by the sensor tests."""

from __future__ import annotations

from engine.sim import Simulation
from tests.engine.sim.helpers import make_sim

FLOOR = "Solid { name \"floor\" boundingObject Plane { size 20 20 } }\n"


def device(sim: Simulation, type_name: str, name: str, seed: int = 1):
    """The engine device of the node ``type_name`` named ``name`` (SENSOR_TYPES factory)."""
    from engine.sim.sensors import SENSOR_TYPES

    node = next(n for n in sim.world.nodes_of_type(type_name) if n.get("name") == name)
    return SENSOR_TYPES[type_name](sim, node, seed)


def run(sim: Simulation, devices: list, steps: int) -> None:
    """``steps`` world steps, each followed by every device's post_step (as the host does)."""
    for _ in range(steps):
        assert sim.step()
        for d in devices:
            d.post_step(sim.dt)


__all__ = ["FLOOR", "device", "make_sim", "run"]
