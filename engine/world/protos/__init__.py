"""Built-in stand-ins for the PROTOs Webots sample worlds use most.

A world keeps a stand-in PROTO instance as written (``RectangleArena {
floorSize 2 2 }``: a `Node` whose fields are the PROTO's interface, see
`engine.world.schema_protos`); `expanded` gives the regular nodes it stands
for (a Solid sub-tree with Shapes, boundingObject and Physics; a
Background; a DirectionalLight), which the simulation builds and the
viewport draws. Other PROTOs stay opaque nodes with a warning.

    from engine.world.protos import STAND_INS, expanded, is_stand_in
"""

from engine.world.protos.expansion import (
    STAND_INS,
    expanded,
    instance_of,
    is_stand_in,
    world_node_of,
)
from engine.world.protos.standin import StandIn

__all__ = ["STAND_INS", "StandIn", "expanded", "instance_of", "is_stand_in", "world_node_of"]
