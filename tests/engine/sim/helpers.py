"""Small builders for simulation tests: worlds from text snippets."""

from __future__ import annotations

import numpy as np

from engine import ode
from engine.sim import Simulation
from engine.world import parse_world

HEADER = "#VRML_SIM R2025a utf8\n"


def world_text(nodes: str, info: str = "") -> str:
    """A world with a WorldInfo holding ``info`` and the given root nodes."""
    return f"{HEADER}WorldInfo {{\n{info}\n}}\nViewpoint {{\n}}\n{nodes}\n"


def make_sim(nodes: str, info: str = "", **kw) -> Simulation:
    """A Simulation of a world made from ``nodes`` (and WorldInfo fields ``info``)."""
    return Simulation(parse_world(world_text(nodes, info)), **kw)


def body_mass(body) -> ode.dMass:
    """The dMass of a body."""
    return ode.dBodyGetMass(body)


def inertia3(m: ode.dMass) -> np.ndarray:
    """The (3, 3) inertia of a dMass."""
    return np.asarray(m.I, dtype=float).reshape(3, 4)[:, :3]


def rotation3(body) -> np.ndarray:
    """The (3, 3) rotation of a body."""
    return np.asarray(ode.dBodyGetRotation(body)).reshape(3, 4)[:, :3]
