"""Small worlds for the engine.klampt tests, written as .wbt text.

Values are Klamp't's defaults unless a test says otherwise: bodies padded by
2.5 mm with surface 0.5 / 0 / inf / inf, static Solids unpadded with surface
0.3 / 0.1 / 8e5 / 2e5 (docs/robust-contacts.md).
"""

from __future__ import annotations

from pathlib import Path

from engine.klampt import Simulator
from engine.world import parse_world
from tests.engine.sim.helpers import world_text

#: The seed's one-link robot (resources/worlds/one_link.wbt).
ONE_LINK = Path(__file__).resolve().parents[3] / "resources" / "worlds" / "one_link.wbt"
FLOOR = "DEF FLOOR Solid { boundingObject Plane { size 10 10 } }\n"
INFO = 'info [ "odeon: contacts robust" ] basicTimeStep 10 physicsDisableTime 0'


def box(name: str, z: float, size: float = 0.1, mass: float = 1.0, x: float = 0.0,
        com: tuple[float, float, float] | None = None, rotation: str = "0 0 1 0") -> str:
    """A free box Solid ``name`` of edge ``size`` [m] and ``mass`` [kg] at (x, 0, z);
    ``com`` moves its centre of mass away from its frame (Physics.centerOfMass)."""
    centre = "" if com is None else f"centerOfMass [ {com[0]} {com[1]} {com[2]} ]"
    return (f"DEF {name} Solid {{ translation {x} 0 {z} rotation {rotation} boundingObject Box "
            f"{{ size {size} {size} {size} }} physics Physics {{ density -1 mass {mass} "
            f"{centre} }} }}\n")


def ball(name: str, z: float, radius: float = 0.05, mass: float = 1.0, x: float = 0.0,
         com: tuple[float, float, float] | None = None) -> str:
    """A free sphere Solid ``name`` at (x, 0, z)."""
    centre = "" if com is None else f"centerOfMass [ {com[0]} {com[1]} {com[2]} ]"
    return (f"DEF {name} Solid {{ translation {x} 0 {z} boundingObject Sphere {{ radius "
            f"{radius} }} physics Physics {{ density -1 mass {mass} {centre} }} }}\n")


def simulator(nodes: str, info: str = INFO) -> Simulator:
    """A Simulator of a world made of ``nodes`` (a WorldInfo with ``info`` first)."""
    return Simulator(parse_world(world_text(nodes, info)))


def mesh_floor(name: str = "FLOOR", size: float = 2.0) -> str:
    """A static flat mesh floor of two triangles at z = 0."""
    h = size / 2
    return (f"DEF {name} Solid {{ boundingObject IndexedFaceSet {{ coord Coordinate {{ point "
            f"[ {-h} {-h} 0 {h} {-h} 0 {h} {h} 0 {-h} {h} 0 ] }} coordIndex [ 0 1 2 -1 0 2 3 -1 ] "
            f"}} }}\n")
