"""Back-face culling of closed opaque meshes (issue 18): the same picture, less work."""

from __future__ import annotations

import numpy as np
import pytest

import app.viewport.mesh_drawer as mesh_drawer
from app.viewport.mesh_drawer import MeshDrawer
from app.viewport.scene import build_scene
from tests.app.test_viewport_helpers import grab, shown_viewport, world

SHAPES = """
Solid { translation 0 -1.2 0.3 rotation 1 2 3 0.7 children [ Shape { appearance
  PBRAppearance { baseColor 0.9 0.2 0.2 metalness 0 } geometry Box { size 0.6 0.5 0.4 } } ] }
Solid { translation 0 -0.4 0.3 children [ Shape { appearance
  PBRAppearance { baseColor 0.2 0.9 0.2 metalness 0 } geometry Sphere { radius 0.35 } } ] }
Solid { translation 0 0.4 0.3 rotation 1 0 0 0.8 children [ Shape { appearance
  PBRAppearance { baseColor 0.2 0.2 0.9 metalness 0 } geometry Cylinder { radius 0.25
  height 0.6 } } ] }
Solid { translation 0 1.2 0.3 rotation 0 1 0 0.5 children [ Shape { appearance
  PBRAppearance { baseColor 0.9 0.9 0.2 metalness 0 } geometry Capsule { radius 0.2
  height 0.4 } } ] }
Solid { translation 0.8 0 0 children [ Transform { scale -1 1 1 children [ Shape {
  appearance PBRAppearance { baseColor 0.9 0.5 0.1 metalness 0 } geometry Box {
  size 0.3 0.3 0.3 } } ] } ] }
Solid { translation -0.5 0 1 children [ Shape { appearance PBRAppearance {
  baseColor 0.5 0.5 0.5 transparency 0.5 metalness 0 } geometry Box { size 0.3 0.3 0.3 } } ] }
Solid { children [ Shape { appearance PBRAppearance { baseColor 0.6 0.6 0.6 metalness 0 }
  geometry Plane { size 4 4 } } ] }
"""


def culled_kinds(drawer: MeshDrawer) -> dict[tuple, bool]:
    return {(key[0], transparent): g.cull_back
            for (key, transparent), g in drawer.groups.items()}


def test_closed_opaque_unmirrored_groups_are_culled():
    scene = build_scene(world(SHAPES))
    drawer = MeshDrawer()
    drawer.set_items(scene.shapes, scene.meshes, [0] * len(scene.shapes))
    kinds = culled_kinds(drawer)
    assert kinds[("sphere", False)] and kinds[("cylinder", False)]
    assert kinds[("capsule", False)]
    assert not kinds[("plane", False)]  # open: its back face may be seen
    assert not kinds[("box", True)]  # transparent: both faces blend
    # the opaque boxes share a group with the mirrored one: drawn without culling
    assert not kinds[("box", False)]
    edges = MeshDrawer(edges=True)
    edges.set_items(scene.bounds, scene.meshes, [0] * len(scene.bounds))
    assert not any(g.cull_back for g in edges.groups.values())


def test_an_unmirrored_box_group_is_culled():
    scene = build_scene(world(SHAPES.split("Solid { translation 0.8")[0]))
    drawer = MeshDrawer()
    drawer.set_items(scene.shapes, scene.meshes, [0] * len(scene.shapes))
    assert culled_kinds(drawer)[("box", False)]


@pytest.mark.parametrize("text", [SHAPES, SHAPES.split("Solid { translation 0.8")[0]],
                         ids=["with a mirrored box", "unmirrored"])
def test_culling_draws_the_same_picture(qtbot, gl_available, monkeypatch, text):
    # per-fragment shading everywhere: only the culling differs between the pictures
    monkeypatch.setattr(mesh_drawer, "VERTEX_LIT_MAX_PX", -1.0)
    monkeypatch.setattr(mesh_drawer, "IMPOSTOR_MAX_PX", -1.0)
    view = shown_viewport(qtbot, (320, 240))
    view.set_world(world(text))
    culled = grab(view)
    monkeypatch.setattr(mesh_drawer, "_closed_unmirrored", lambda key, local: False)
    view.set_world(world(text))  # the groups are made again, none culled
    assert not any(g.cull_back for g in view.renderer._shapes.groups.values())
    plain = grab(view)
    differ = np.any(np.abs(culled.astype(int) - plain.astype(int)) > 2, axis=2)
    assert (culled[..., :3] != 0).any()  # something was drawn
    assert differ.mean() < 0.002  # a few silhouette pixels at most
