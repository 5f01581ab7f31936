"""Level of detail, frustum culling and `set_world(keep_camera=True)` of the viewport."""

from __future__ import annotations

import numpy as np
import pytest

from app.viewport import ViewportWidget, meshes
from app.viewport.camera import OrbitCamera
from app.viewport.culling import frustum_planes
from app.viewport.lod import curved_levels, levels_for, shear_stretch
from app.viewport.transforms import pose_matrix
from tests.app.test_viewport_helpers import (
    at,
    box_solid,
    count_near,
    frame,
    grab,
    is_red,
    pose,
    sphere_solid,
    world,
)
from tests.app.viewport_reference import (
    choose_levels,
    instance_spheres,
    projected_radius_px,
    spheres_visible,
)

SPHERE = curved_levels(("sphere",))


def camera(width: int = 800, height: int = 600) -> OrbitCamera:
    """Camera at (-5, 0, 0) looking along +X."""
    cam = OrbitCamera()
    cam.eye, cam.target = np.array([-5.0, 0, 0]), np.zeros(3)
    cam.resize(width, height)
    return cam


def sphere_level(cam: OrbitCamera, centre: tuple, radius: float) -> int:
    px = projected_radius_px(np.array([centre], float), np.array([radius]),
                             cam.view_projection(), cam.height)
    return int(choose_levels(px, SPHERE.max_radius_px)[0])


# ----- levels (pure) ------------------------------------------------------------------------
def test_sphere_levels_go_from_coarse_to_finer_than_before():
    tris = [len(m.positions) // 3 for m in SPHERE.meshes]
    assert tris[0] <= 40 and tris == sorted(tris)
    assert tris[-1] > len(meshes.unit_sphere().positions) // 3
    for m in SPHERE.meshes:
        assert np.allclose(np.linalg.norm(m.positions, axis=1), 1.0, atol=1e-6)
        t = m.positions.reshape(-1, 3, 3)
        n = np.cross(t[:, 1] - t[:, 0], t[:, 2] - t[:, 0])
        assert np.all(np.sum(n * t.mean(axis=1), axis=1) > 0)  # counter-clockwise outside
    assert np.all(np.diff(SPHERE.max_radius_px) > 0)
    assert SPHERE.radius == pytest.approx(1.0, abs=1e-6)


def test_curved_kinds_have_levels_and_others_one():
    assert len(curved_levels(("cylinder",)).meshes) > 2
    cap = curved_levels(("capsule", 0.1, 0.5))
    assert len(cap.meshes) > 2
    assert cap.radius == pytest.approx(0.1 + 0.25, abs=1e-6)
    box = meshes.unit_box()
    single = levels_for(("box",), box)
    assert single.meshes == (box,) and len(single.max_radius_px) == 0
    assert choose_levels(np.array([1e-3, 1e6]), single.max_radius_px).tolist() == [0, 0]


def test_far_small_sphere_is_coarse_near_large_one_finest():
    cam = camera()
    assert sphere_level(cam, (200.0, 0, 0), 0.05) == 0
    assert sphere_level(cam, (-3.0, 0, 0), 1.0) == len(SPHERE.meshes) - 1
    levels = [sphere_level(cam, (x, 0, 0), 0.3) for x in np.geomspace(0.1, 300, 60) - 4.6]
    assert levels[0] == len(SPHERE.meshes) - 1 and levels[-1] == 0
    assert all(a >= b for a, b in zip(levels[:-1], levels[1:], strict=True))  # monotonic


def test_projected_radius_matches_the_camera_projection():
    cam = camera(800, 600)
    for centre, r in (((10.0, 0, 0), 0.2), ((30.0, 2.0, 1.0), 0.5)):
        px = projected_radius_px(np.array([centre]), np.array([r]), cam.view_projection(), 600)[0]
        up = cam.view_matrix()[1, :3]
        a, b = cam.project(centre), cam.project(np.asarray(centre) + r * up)
        assert px == pytest.approx(np.hypot(a[0] - b[0], a[1] - b[1]), rel=0.02)
    inside = projected_radius_px(np.array([[-5.0, 0, 0.1]]), np.array([1.0]),
                                 cam.view_projection(), 600)
    assert np.isinf(inside[0])  # the sphere holds the eye: finest level


def test_orthographic_size_does_not_depend_on_distance():
    ortho = np.diag([0.1, 0.2, -0.01, 1.0])  # 10 x 10 m view volume, camera at the origin
    px = projected_radius_px(np.array([[0, 0, -5.0], [0, 0, -50.0]]), np.array([0.5, 0.5]),
                             ortho, 400)
    assert px == pytest.approx([0.5 * 0.2 * 200] * 2)


def test_instance_bounds_hold_every_transformed_vertex():
    rng = np.random.default_rng(0)
    shear = pose_matrix((0, 0, 0), np.array([[1, 1.0, 0], [0, 1, 0], [0, 0, 1.0]]))
    locals_ = np.stack([pose_matrix((0.3, 0, 0), None, (0.5, 0.2, 0.1)) @ shear,
                        pose_matrix((0, 0, 0), None, (0.2, 0.2, 0.2))])
    stretch = shear_stretch(locals_)
    assert stretch[0] > 1.2 and stretch[1] == pytest.approx(1.0)
    cap = curved_levels(("capsule", 0.1, 0.5))
    for _ in range(5):
        q = rng.normal(size=4)
        q /= np.linalg.norm(q)
        w, x, y, z = q
        R = np.array([[1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w)],
                      [2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w)],
                      [2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y)]])
        models = pose_matrix(rng.normal(size=3), R) @ locals_
        centres, radii = instance_spheres(models[:, :3, :3], models[:, :3, 3], cap.centre,
                                          cap.radius, stretch)
        for M, c, r in zip(models, centres, radii, strict=True):
            pts = cap.meshes[-1].positions @ M[:3, :3].T + M[:3, 3]
            assert np.max(np.linalg.norm(pts - c, axis=1)) <= r * (1 + 1e-9)


# ----- culling (pure) -----------------------------------------------------------------------
def test_culling_keeps_straddling_spheres_and_drops_hidden_ones():
    cam = camera(800, 600)
    planes = frustum_planes(cam.view_projection())
    origin, left = cam.ray(0.0, 300.0)                 # the left edge of the view
    edge_point = origin + 6.0 * left
    out_dir = -cam.view_matrix()[0, :3]                # screen left, in the world
    r = 0.3
    centres = np.array([
        [3.0, 0, 0],                                   # in the middle
        edge_point + 0.5 * r * out_dir,                # centre outside, sphere straddles
        edge_point + 2.0 * r * out_dir,                # entirely outside on the left
        [-8.0, 0, 0],                                  # behind the camera
        [-5.0 + 0.1, 0, 0],                            # reaches past the near plane: kept
        [2000.0, 0, 0],                                # beyond the far plane
    ])
    keep = spheres_visible(centres, np.full(len(centres), r), planes)
    assert keep.tolist() == [True, True, False, False, True, False]
    straddler = cam.project(centres[1])
    assert straddler[0] < 0  # its centre really is off-screen


# ----- GL -----------------------------------------------------------------------------------
@pytest.fixture
def view(gridless_view):
    """tests/app/conftest.py's `gridless_view`."""
    return gridless_view


def level_rows(w: ViewportWidget, kind: str) -> list[int]:
    """Instances drawn at each level of the opaque group of ``kind`` at the last draw."""
    g = w.renderer._shapes.groups[((kind,), False)]
    return [len(lv.rows) for lv in g.levels]


FAR = (10.4, -5.0, -7.8)  # about 18 m in front of the test camera, on the right


def test_far_and_near_spheres_drawn_at_their_levels_and_picked(view):
    view.set_world(world(sphere_solid("NEAR", (1, 0, 0), (-1.5, 0.6, 1.2), 0.9),
                         sphere_solid("FAR", (0, 1, 0), FAR, 0.08),
                         box_solid("BEHIND", (0, 0, 1), (-7, 0, 5))))
    px = grab(view)
    rows = level_rows(view, "sphere")
    # the far one is small: an impostor (tests/app/test_viewport_shading.py)
    assert sum(rows[3:]) == 1 and sum(rows) == 1
    assert len(view.renderer._shapes.groups[(("sphere",), False)].impostors.rows) == 1
    assert level_rows(view, "box") == [0]  # behind the camera: culled
    assert is_red(at(px, view.world_to_pixel((-1.5, 0.6, 1.2))))
    far = at(px, view.world_to_pixel(FAR))
    assert far[1] > 100 and far[1] > far[0] + 60 and far[1] > far[2] + 60, far
    near_node, far_node = view.scene.solids[:2]
    assert view.pick_at(*view.world_to_pixel((-1.5, 0.6, 1.2))) is near_node
    assert view.pick_at(*view.world_to_pixel(FAR)) is far_node
    assert view.pick_at(5, 5) is None


def test_levels_follow_the_camera_and_wireframes_use_them(view, monkeypatch):
    from app.viewport import mesh_drawer
    from app.viewport.overlay_drawers import BoundingObjectDrawer
    from app.viewport.renderer import BOUND_COLOR

    monkeypatch.setattr(mesh_drawer, "IMPOSTOR_MAX_PX", -1.0)  # meshes at every size
    view.set_world(world(sphere_solid("S", (1, 0, 0), (0, 0, 0), 0.1)))
    grab(view)
    before = level_rows(view, "sphere")
    view.camera.eye = np.array([-0.6, 0.0, 0.45])      # much closer, same direction
    assert is_red(at(grab(view), view.world_to_pixel((0, 0, 0))))
    after = level_rows(view, "sphere")
    view.show_bounding_objects = True
    px = grab(view)
    assert sum(before) == 1 and np.argmax(after) > np.argmax(before)
    bounds = view.renderer.overlay_drawer(BoundingObjectDrawer).meshes.groups[
        (("sphere",), False)]
    assert sum(len(lv.rows) for lv in bounds.levels) == 1
    assert np.argmax([len(lv.rows) for lv in bounds.levels]) == np.argmax(after)
    rgb = tuple(int(c * 255) for c in BOUND_COLOR[:3])
    assert count_near(px, rgb, 40) > 50


def test_culled_solid_comes_back_when_it_moves_into_view(view):
    view.set_world(world(box_solid("BOX", (1, 0, 0))))
    box = view.scene.solids[0]
    view.set_frame(frame({box: pose((-9.0, 0, 6.0))}))  # behind the camera
    grab(view)
    assert level_rows(view, "box") == [0]
    view.set_frame(frame({box: pose((0, 0.5, 0))}))
    px = grab(view)
    assert level_rows(view, "box") == [1]
    assert is_red(at(px, view.world_to_pixel((0, 0.5, 0))))


def test_child_solids_follow_their_posed_parent(view):
    child = box_solid("CHILD", (1, 0, 0), (0, 0, 0.5), size=0.3)
    grandchild = box_solid("GRAND", (0, 0, 1), (0, 0, 0.5), size=0.2)
    child = child.replace("] name", f"{grandchild} ] name", 1)
    view.set_world(world(f"DEF P Solid {{ children [ {child} ] name \"P\" }}\n"))
    parent, kid, grand = view.scene.solids
    view.set_frame(frame({parent: pose((0, 1.0, 0))}))
    px = grab(view)
    assert is_red(at(px, view.world_to_pixel((0, 1.0, 0.5))))
    blue = at(px, view.world_to_pixel((0, 1.0, 1.0)))
    assert blue[2] > 120 and blue[0] < 60, blue
    R = np.array([[1.0, 0, 0], [0, 0, -1], [0, 1, 0]])   # parent turned: +Z goes to -Y
    view.set_frame(frame({parent: pose((0, 0.5, 0), R), grand: pose((0, 0, 1.2))}))
    px = grab(view)
    assert is_red(at(px, view.world_to_pixel((0, 0.0, 0))))
    blue = at(px, view.world_to_pixel((0, 0, 1.2)))
    assert blue[2] > 120 and blue[0] < 60, blue


def test_set_world_keep_camera_keeps_camera_and_trails(view):
    wld = world(box_solid("A", (1, 0, 0)), box_solid("B", (0, 1, 0), (0, 1.2, 0)))
    view.set_world(wld)
    a, b = view.scene.solids
    view.camera.orbit(40, 10)
    view.camera.zoom(2)
    eye, target = view.camera.eye.copy(), view.camera.target.copy()
    view.set_trail_solids([a, b])
    for k in range(3):
        view.set_frame(frame({a: pose((0, 0.1 * k, 0)), b: pose((0, 1.2, 0.1 * k))}))
    wld.remove_node(b)
    view.set_world(wld, keep_camera=True)
    assert np.allclose(view.camera.eye, eye) and np.allclose(view.camera.target, target)
    assert list(view.trails.paths) == [a] and len(view.trails.paths[a]) == 3
    assert view.scene.solids == [a]
    assert is_red(at(grab(view), view.world_to_pixel((0, 0.2, 0))))  # the frame stays shown
    view.set_world(wld)
    assert np.allclose(view.camera.eye, [-4, 0, 3]) and view.trails.paths == {}
