"""Klamp't's Simulator API and batch simulation over Odeon worlds.

`engine.klampt` mirrors Klamp't's Python names (its simulation seed) over
`.wbt` worlds, as `engine.ode` mirrors ODE's; docs/scripting.md is the guide.
"""

from engine.klampt.controller import SimRobotController
from engine.klampt.simbody import SimBody, SurfaceParameters
from engine.klampt.simulator import Simulator
from engine.klampt.state_codec import StateError

__all__ = ["SimBody", "SimRobotController", "Simulator", "StateError", "SurfaceParameters"]
