"""Stand-ins for the floor PROTOs: Floor and RectangleArena.

Geometry from the documented interface (webots-controllers.md §4.1):

- ``Floor``: a locked Solid whose boundingObject is a Plane of ``size``
  (infinite in collision, as every ODE plane) and whose visual is the same
  quad at z = 0.
- ``RectangleArena``: a Solid holding a Floor of ``floorSize`` and four
  static SolidBox walls of thickness t and height h, standing on the floor
  (z = h/2) just outside it: two at x = ±(X/2 + t/2) of size (t, Y, h), two
  at y = ±(Y/2 + t/2) of size (X + 2t, t, h), so the corners are closed.
  Non-positive sizes fall back to the defaults, as Webots does.
"""

from __future__ import annotations

from engine.world.node import Node
from engine.world.protos.standin import StandIn, appearance, solid, stand_in
from engine.world.schema import default_value

#: plain colours standing in for Webots' textured appearances (RGB, 0..1)
PARQUETRY = (0.72, 0.56, 0.38)
ALUMINIUM = (0.8, 0.8, 0.82)


def _positive(instance: Node, field: str) -> tuple[float, ...] | float:
    """The field's value, or its default when any component is not positive."""
    value = instance.get(field)
    items = value if isinstance(value, tuple) else (value,)
    return value if all(v > 0.0 for v in items) else default_value(instance.type_name, field)


def expand_floor(instance: Node) -> Node:
    """The Solid a ``Floor`` stands for."""
    size = _positive(instance, "size")
    look = appearance(instance.get("appearance"), PARQUETRY)
    quad = Node("Shape", appearance=look, geometry=Node("Plane", size=size))
    return solid(instance, "floor", children=[quad], boundingObject=Node("Plane", size=size),
                 contactMaterial=instance.get("contactMaterial"), locked=True)


def expand_rectangle_arena(instance: Node) -> Node:
    """The Solid a ``RectangleArena`` stands for (a Floor and four SolidBox walls)."""
    fx, fy = _positive(instance, "floorSize")
    t = _positive(instance, "wallThickness")
    h = _positive(instance, "wallHeight")
    material = instance.get("contactMaterial")
    floor = Node("Floor", size=(fx, fy), tileSize=instance.get("floorTileSize"),
                 contactMaterial=material)
    floor_look = instance.get("floorAppearance")
    floor.set("appearance", appearance(floor_look, PARQUETRY))
    # (centre x, centre y, size x, size y) of the four walls, at z = h/2
    walls = [
        (fx / 2 + t / 2, 0.0, t, fy),
        (-(fx / 2 + t / 2), 0.0, t, fy),
        (0.0, fy / 2 + t / 2, fx + 2 * t, t),
        (0.0, -(fy / 2 + t / 2), fx + 2 * t, t),
    ]
    children = [floor]
    for k, (x, y, sx, sy) in enumerate(walls):
        children.append(Node(
            "SolidBox", translation=(x, y, h / 2), name="wall" if k == 0 else f"wall#{k + 1}",
            size=(sx, sy, h), contactMaterial=material,
            appearance=appearance(instance.get("wallAppearance"), ALUMINIUM)))
    return solid(instance, "rectangle arena", children=children)


FLOORS: dict[str, StandIn] = {
    "Floor": stand_in("Floor", expand_floor),
    "RectangleArena": stand_in("RectangleArena", expand_rectangle_arena),
}
