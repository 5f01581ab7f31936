"""engine.sim — Webots worlds built into ODE objects and the step loop, headless.

    from engine.sim import Simulation
    sim = Simulation("worlds/x.wbt")
    sim.step()                      # one basicTimeStep (docs/simulation.md, "Step order")
    sim.time_ms, sim.paused, sim.console.lines

See docs/simulation.md for the mapping rules and the step order.
"""

from engine.sim.builder import Model, SolidRecord, build
from engine.sim.console import Console
from engine.sim.contacts import ContactPoint, Surface
from engine.sim.frame import ContactInfo, ContactSet, Frame, SolidPoses
from engine.sim.geometry import BuildError
from engine.sim.simulation import EXPLOSION_BOUND, Simulation
from engine.sim.state import WorldState

__all__ = [
    "EXPLOSION_BOUND",
    "BuildError",
    "Console",
    "ContactInfo",
    "ContactPoint",
    "ContactSet",
    "Frame",
    "Model",
    "Simulation",
    "SolidPoses",
    "SolidRecord",
    "Surface",
    "WorldState",
    "build",
]
