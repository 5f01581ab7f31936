"""The viewport draws PROTO stand-ins: a RectangleArena's floor and walls, a SolidBox
(moved by a simulation frame through its expansion's node), a TexturedBackground."""

from __future__ import annotations

import os

import numpy as np

from engine.world import parse_world
from engine.world.protos import expanded
from tests.app.test_viewport_helpers import (
    around,
    at,
    count_near,
    frame,
    grab,
    pose,
    shown_viewport,
)

SHOT = os.environ.get("ODEON_PROTO_SHOT")  # save the picture here to look at it

WORLD = """#VRML_SIM R2025a utf8
WorldInfo {}
Viewpoint { orientation 0 1 0 0.6435011 position -4 0 3 }
Background { skyColor [ 0 0 0 ] }
DirectionalLight { direction 0 0 -1 ambientIntensity 1 }
RectangleArena {
  floorSize 2 2
  wallHeight 0.3
  wallThickness 0.05
  floorAppearance PBRAppearance { baseColor 0 1 0 metalness 0 roughness 1 }
  wallAppearance PBRAppearance { baseColor 1 0 0 metalness 0 roughness 1 }
}
DEF BOX SolidBox {
  translation 0 0.5 0.1
  size 0.2 0.2 0.2
  appearance PBRAppearance { baseColor 0 0 1 metalness 0 roughness 1 }
  physics Physics { }
}
"""


def _colour(rgb: np.ndarray) -> str:
    return "rgb"[int(np.argmax(rgb))] if rgb.max() > 100 and np.ptp(rgb) > 80 else "-"


def test_arena_walls_floor_and_box_are_drawn(qtbot, gl_available):
    world = parse_world(WORLD)
    w = shown_viewport(qtbot, (640, 480))
    w.set_world(world)
    px = grab(w)
    if SHOT:
        w.grabFramebuffer().save(SHOT)
    assert _colour(at(px, w.world_to_pixel((0.4, -0.4, 0.0)))) == "g"  # the floor
    assert _colour(at(px, w.world_to_pixel((1.025, 0.0, 0.25)))) == "r"  # the far (+x) wall
    assert _colour(at(px, w.world_to_pixel((0.0, 0.5, 0.2)))) == "b"  # the box's top
    # a frame moves the SolidBox: its pose is keyed by the expansion's Solid node
    box = expanded(world.find_solid_by_def("BOX"))
    w.set_frame(frame({box: pose((0.0, -0.5, 0.1))}))
    moved = grab(w)
    assert _colour(at(moved, w.world_to_pixel((0.0, -0.5, 0.2)))) == "b"
    assert _colour(at(moved, w.world_to_pixel((0.0, 0.5, 0.2)))) != "b"
    assert count_near(moved, (0, 0, 255), 120, around(w.world_to_pixel((0.0, -0.5, 0.2)))) > 0
    w.close()


def test_textured_background_colours_the_sky(qtbot, gl_available):
    world = parse_world("#VRML_SIM R2025a utf8\nWorldInfo {}\nViewpoint { position 0 0 10 }\n"
                        "TexturedBackground { skybox FALSE skyColor [ 0.2 0.4 0.8 ] }\n"
                        "TexturedBackgroundLight { }\n")
    w = shown_viewport(qtbot, (200, 150))
    w.set_world(world)
    px = grab(w)
    assert tuple(at(px, (100, 75))) == (51, 102, 204)
    w.close()
