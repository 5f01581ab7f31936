"""Stand-ins for the box PROTOs: SolidBox and WoodenBox.

- ``SolidBox``: a Solid drawing a box of ``size`` with ``appearance``, a Box
  boundingObject of the same size (unless ``enableBoundingObject`` is FALSE)
  and the instance's ``physics`` (NULL: static).
- ``WoodenBox``: the same with a wood colour; ``size`` components are
  clamped to [0.01, 3] m and a ``mass`` > 0 kg gives it a Physics of that
  mass (density -1), a mass <= 0 none (static), as its documentation says.
"""

from __future__ import annotations

from engine.world.node import Node
from engine.world.protos.standin import StandIn, appearance, box_shape, owned, solid, stand_in

PLAIN_BOX = (0.9, 0.9, 0.9)
WOOD = (0.62, 0.46, 0.28)
WOODEN_BOX_SIZE = (0.01, 3.0)  # [m] smallest and largest edge of a WoodenBox


def expand_solid_box(instance: Node) -> Node:
    """The Solid a ``SolidBox`` stands for."""
    size = instance.get("size")
    if not all(v > 0.0 for v in size):
        size = (2.0, 2.0, 2.0)
    shape = box_shape(size, appearance(instance.get("appearance"), PLAIN_BOX))
    shape.set("castShadows", instance.get("castShadows"))
    bounds = Node("Box", size=size) if instance.get("enableBoundingObject") else None
    return solid(instance, "box", children=[shape], boundingObject=bounds,
                 physics=owned(instance.get("physics")),
                 contactMaterial=instance.get("contactMaterial"))


def expand_wooden_box(instance: Node) -> Node:
    """The Solid a ``WoodenBox`` stands for."""
    lo, hi = WOODEN_BOX_SIZE
    size = tuple(min(max(v, lo), hi) for v in instance.get("size"))
    mass = instance.get("mass")
    physics = Node("Physics", density=-1.0, mass=mass) if mass > 0.0 else None
    immersion = [owned(n) for n in instance.get("immersionProperties")]
    return solid(instance, "wooden box", children=[box_shape(size, appearance(None, WOOD))],
                 boundingObject=Node("Box", size=size), physics=physics,
                 immersionProperties=immersion, locked=instance.get("locked"))


SOLIDS: dict[str, StandIn] = {
    "SolidBox": stand_in("SolidBox", expand_solid_box),
    "WoodenBox": stand_in("WoodenBox", expand_wooden_box),
}
