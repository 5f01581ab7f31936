"""Stand-ins for the background PROTOs: TexturedBackground and TexturedBackgroundLight.

Odeon draws no cubemaps: a ``TexturedBackground`` becomes a Background of
one plain sky colour (its ``skyColor`` when ``skybox`` is FALSE, as Webots
then shows it), and a ``TexturedBackgroundLight`` one white sun-like
DirectionalLight, the same for every ``texture``, scaled by ``luminosity``.
Both are visual only: nothing here changes the physics.
"""

from __future__ import annotations

from engine.world.node import Node
from engine.world.protos.standin import StandIn, stand_in

SKY = (0.55, 0.72, 0.9)  # RGB 0..1: the plain colour standing in for the sky textures
SUN_DIRECTION = (-0.5, -0.4, -1.0)  # the direction the light shines along (ENU, from above)
SUN_AMBIENT = 0.4  # ambientIntensity of the stand-in light (0..1)


def expand_textured_background(instance: Node) -> Node:
    """The Background a ``TexturedBackground`` stands for."""
    sky = instance.get("skyColor") if not instance.get("skybox") else (SKY,)
    return Node("Background", skyColor=sky or (SKY,), luminosity=instance.get("luminosity"))


def expand_textured_background_light(instance: Node) -> Node:
    """The DirectionalLight a ``TexturedBackgroundLight`` stands for."""
    return Node("DirectionalLight", direction=SUN_DIRECTION, ambientIntensity=SUN_AMBIENT,
                intensity=max(instance.get("luminosity"), 0.0),
                castShadows=instance.get("castShadows"))


BACKGROUNDS: dict[str, StandIn] = {
    "TexturedBackground": stand_in("TexturedBackground", expand_textured_background),
    "TexturedBackgroundLight": stand_in("TexturedBackgroundLight",
                                        expand_textured_background_light),
}
