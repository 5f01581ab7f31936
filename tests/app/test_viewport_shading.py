"""Per-vertex shading of small instances, sphere impostors and near-to-far order
(app/viewport/mesh_drawer.py)."""

from __future__ import annotations

import numpy as np
import pytest

from app.viewport import ViewportWidget, mesh_drawer
from app.viewport.camera import OrbitCamera
from app.viewport.mesh_drawer import uniformly_scaled
from app.viewport.shaders import Shading
from app.viewport.transforms import pose_matrix
from tests.app.test_viewport_helpers import (
    at,
    box_solid,
    grab,
    is_red,
    sphere_solid,
    world,
)
from tests.app.viewport_reference import view_depths


@pytest.fixture
def view(gridless_view):
    """tests/app/conftest.py's `gridless_view`."""
    return gridless_view


def group(w: ViewportWidget, kind: str) -> mesh_drawer.InstanceGroup:
    return w.renderer._shapes.groups[((kind,), False)]


def vertex_lit(w: ViewportWidget, kind: str) -> int:
    """Instances of the opaque ``kind`` group shaded per vertex at the last draw."""
    return sum(lv.vertex_lit for lv in group(w, kind).levels)


def impostors(w: ViewportWidget) -> int:
    """Spheres drawn as impostors at the last draw."""
    return len(group(w, "sphere").impostors.rows)


def test_view_depths_are_distances_along_the_camera_axis():
    cam = OrbitCamera()
    cam.eye, cam.target = np.array([-5.0, 0, 0]), np.zeros(3)
    cam.resize(400, 300)
    pts = np.array([[0.0, 0, 0], [3.0, 1.0, -2.0], [-4.0, 0.5, 0.5]])
    assert np.allclose(view_depths(pts, cam.view_projection()), [5.0, 8.0, 1.0])


def test_uniformly_scaled_accepts_rotations_times_one_scale_only():
    R = pose_matrix(np.zeros(3), np.array([[0.0, -1, 0], [1, 0, 0], [0, 0, 1]]))
    stretched, sheared = np.diag([0.2, 0.2, 0.3, 1.0]), np.eye(4)
    sheared[0, 1] = 0.5
    sheared[1, 1] = np.sqrt(0.75)  # columns of equal length, not orthogonal
    got = uniformly_scaled(np.stack([R @ np.diag([0.3, 0.3, 0.3, 1.0]), stretched, sheared]))
    assert got.tolist() == [True, False, False]


def test_small_instances_are_shaded_per_vertex_large_ones_per_fragment(view):
    view.set_world(world(sphere_solid("NEAR", (1, 0, 0), (-1.5, 0.6, 1.2), 0.9),
                         sphere_solid("SMALL", (1, 0, 0), (0, -1, 0), 0.15),
                         box_solid("BOX", (1, 0, 0), (0, 1, 0), 0.15)))
    px = grab(view)
    sphere_rows = sum(len(lv.rows) for lv in group(view, "sphere").levels)
    assert impostors(view) == 1 and sphere_rows == 1 and vertex_lit(view, "sphere") == 0
    assert vertex_lit(view, "box") == 1
    programs = {shading for _, shading in view.renderer._program.programs}
    assert {Shading.PER_FRAGMENT, Shading.PER_VERTEX, Shading.SPHERE_IMPOSTOR} <= programs
    for centre in ((-1.5, 0.6, 1.2), (0, -1, 0), (0, 1, 0)):
        assert is_red(at(px, view.world_to_pixel(centre))), centre
    near, small = view.scene.solids[:2]
    assert view.pick_at(*view.world_to_pixel((0, -1, 0))) is small
    assert view.pick_at(*view.world_to_pixel((-1.5, 0.6, 1.2))) is near


def test_cheap_shading_looks_like_per_fragment_shading(view, monkeypatch):
    # a sphere half sunk into a box: the impostor's depth decides the visible outline
    view.set_world(world(sphere_solid("S", (0.9, 0.3, 0.2), (0, 0, 0), 0.2),
                         box_solid("B", (0.2, 0.4, 0.9), (0, 0.15, 0.05), 0.25),
                         "DirectionalLight { direction 1 0.5 -1 ambientIntensity 0.3 }\n"))
    cheap = grab(view).astype(int)
    assert impostors(view) == 1 and vertex_lit(view, "box") == 1
    monkeypatch.setattr(mesh_drawer, "VERTEX_LIT_MAX_PX", -1.0)
    monkeypatch.setattr(mesh_drawer, "IMPOSTOR_MAX_PX", -1.0)
    for kind in ("sphere", "box"):
        group(view, kind)._bucketed = None
    per_fragment = grab(view).astype(int)
    assert impostors(view) == 0 and vertex_lit(view, "box") == 0
    shown = np.any(per_fragment[..., :3] != per_fragment[0, 0, :3], axis=-1)
    assert shown.sum() > 500  # both bodies are on screen
    diff = np.abs(cheap[..., :3] - per_fragment[..., :3]).max(axis=-1)[shown]
    # the same but along the outlines (the mesh sphere's lies up to a pixel inside the
    # exact one, a one-pixel ring) and for the highlight interpolated inside the box's
    # triangles instead of computed per pixel
    outline = diff > 40
    assert outline.mean() < 0.08 and diff[~outline].mean() < 3.0, (outline.mean(), diff.mean())


def test_rows_of_a_level_go_near_to_far(view):
    solids = [box_solid(f"B{k}", (1, 0, 0), (x, 0, 0), 0.2)
              for k, x in enumerate((1.5, -1.0, 0.5, -2.0, 0.0))]
    view.set_world(world(*solids))
    grab(view)
    level = group(view, "box").levels[0]
    dist = np.linalg.norm(level.rows[:, 12:15] - view.camera.eye, axis=1)  # model column 3
    assert len(level.rows) == 5 and 0 < level.vertex_lit < 5  # the nearest look bigger
    # vertex-lit rows first, then the per-fragment ones, each near to far
    for part in (dist[:level.vertex_lit], dist[level.vertex_lit:]):
        assert np.all(np.diff(part) > 0), dist


PLANE = ('Solid { children [ Shape { appearance PBRAppearance { baseColor 0.4 0.4 0.4 '
         'metalness 0 } geometry Plane { size 4 4 } } ] name "floor" }\n'
         # towards the test camera's mirror image: the highlight is near the origin
         "DirectionalLight { direction -0.8 0 -0.6 ambientIntensity 0.2 }\n")


@pytest.mark.parametrize("eye", [(-4.0, 0.0, 3.0), (-4.0, 0.0, -3.0)], ids=["above", "below"])
def test_a_plane_lit_per_vertex_looks_like_per_fragment(view, monkeypatch, eye):
    view.camera.eye = np.array(eye)
    view.set_world(world(PLANE), keep_camera=True)
    per_vertex = grab(view).astype(int)
    assert group(view, "plane").two_sided_vertex_lit
    monkeypatch.setattr(mesh_drawer, "TWO_SIDED_VERTEX_LIT_KINDS", frozenset())
    view.set_world(world(PLANE), keep_camera=True)  # groups made again
    per_fragment = grab(view).astype(int)
    assert not group(view, "plane").two_sided_vertex_lit
    shown = np.any(per_fragment[..., :3] != per_fragment[0, 0, :3], axis=-1)
    assert shown.mean() > 0.2  # the plane fills much of the view
    centre = at(per_fragment, view.world_to_pixel((0, 0, 0)))
    if eye[2] > 0:  # the highlight is there, above the diffuse grey
        assert centre[0] > at(per_fragment, view.world_to_pixel((1.8, 1.8, 0)))[0] + 20
    diff = np.abs(per_vertex[..., :3] - per_fragment[..., :3]).max(axis=-1)[shown]
    # the same diffuse light everywhere; the highlight interpolated between the corners
    # of the plane's cells
    assert diff.mean() < 3.0 and np.percentile(diff, 99) < 20, (diff.mean(), diff.max())
