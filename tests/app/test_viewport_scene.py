"""Headless parts of the viewport: meshes, scene building, camera, overlays (no GL)."""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np
import pytest

from app.viewport import meshes
from app.viewport.camera import OrbitCamera
from app.viewport.overlays import Trails, contact_lines, grid_lines
from app.viewport.scene import build_scene
from engine.sim.poses import axis_angle_to_matrix
from engine.world import parse_world

ALL_GEOMETRY = """#VRML_SIM R2025a utf8
Viewpoint { orientation 0 1 0 0.6435011 position -4 0 3 fieldOfView 1 }
Background { skyColor [ 0.1 0.2 0.3 ] }
DirectionalLight { direction 0 0 -2 intensity 0.5 ambientIntensity 0.3 }
Transform { translation 1 0 0 scale 2 2 2 children [
  Shape { appearance Appearance { material Material { diffuseColor 0 1 0 transparency 0.25 } }
          geometry Sphere { radius 0.5 } } ] }
DEF S Solid { translation 0 0 1 rotation 0 0 1 1.5707963
  children [
    Pose { translation 0 1 0 children [ Shape { geometry Box { size 1 2 3 } } ] }
    Shape { geometry Capsule { radius 0.1 height 0.5 } }
    Shape { geometry Cylinder { radius 0.2 height 0.4 } }
    Shape { geometry Plane { size 3 4 } }
    Shape { geometry IndexedFaceSet { coord Coordinate { point [ 0 0 0, 1 0 0, 1 1 0, 0 1 0 ] }
                                      coordIndex [ 0 1 2 3 -1 ] } }
    Shape { geometry ElevationGrid { xDimension 3 yDimension 2 height [ 0 1 0 0 1 0 ] } }
    Shape { geometry Mesh { url [ "missing.stl" ] } }
    DEF CHILD Solid { translation 0 0 1 children [ Shape { geometry Sphere { radius 0.1 } } ]
                      boundingObject Sphere { radius 0.1 } }
  ]
  boundingObject Group { children [ Pose { translation 0 1 0 children [ Box { size 1 2 3 } ] }
                                    Shape { geometry Capsule { radius 0.1 height 0.5 } } ] }
}
"""


def test_meshes_are_closed_triangle_soups_with_unit_normals():
    for mesh in (meshes.unit_box(), meshes.unit_sphere(), meshes.unit_cylinder(),
                 meshes.capsule(0.1, 0.5), meshes.unit_plane()):
        assert mesh.positions.shape == mesh.normals.shape
        assert len(mesh.positions) % 3 == 0 and len(mesh.edges) % 2 == 0
        assert np.allclose(np.linalg.norm(mesh.normals, axis=1), 1.0, atol=1e-5)
    box = meshes.unit_box()
    assert np.allclose(np.abs(box.positions), 0.5) and len(box.edges) == 24
    tri = box.positions.reshape(-1, 3, 3)
    centre_side = np.einsum("ij,ij->i", tri.mean(axis=1), box.normals[::3])
    assert np.all(centre_side > 0)  # counter-clockwise: normals point outwards
    geo = np.cross(tri[:, 1] - tri[:, 0], tri[:, 2] - tri[:, 0])
    assert np.all(np.einsum("ij,ij->i", geo, box.normals[::3]) > 0)
    cap = meshes.capsule(0.1, 0.5)
    assert cap.positions[:, 2].max() == pytest.approx(0.35, abs=1e-6)


def test_indexed_face_set_and_elevation_grid():
    ifs = meshes.indexed_face_set([[0, 0, 0], [1, 0, 0], [1, 1, 0], [0, 1, 0]], [0, 1, 2, 3, -1])
    assert len(ifs.positions) == 6 and np.allclose(ifs.normals, [0, 0, 1])
    assert len(ifs.edges) == 8
    assert meshes.indexed_face_set([[0, 0, 0]], [0, -1]) is None
    eg = meshes.elevation_grid([0, 1, 0, 0, 1, 0], 3, 2, 0.5, 2.0)
    assert len(eg.positions) == 2 * 6 and eg.positions[:, 2].max() == 1.0
    assert eg.positions[:, 0].max() == 1.0 and eg.positions[:, 1].max() == 2.0
    assert meshes.elevation_grid([0, 1], 3, 2, 1, 1) is None


def test_obj_mesh_loads(tmp_path):
    path = tmp_path / "tri.obj"
    path.write_text("v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n")
    mesh = meshes.load_obj(str(path))
    assert mesh is not None and len(mesh.positions) == 3
    assert meshes.load_obj(str(tmp_path / "none.obj")) is None


def test_scene_has_every_geometry_composed_transforms_and_bounds():
    scene = build_scene(parse_world(ALL_GEOMETRY))
    assert [s.def_name for s in scene.solids] == ["S", "CHILD"]
    assert scene.solid_parent == [-1, 0]
    kinds = sorted(it.mesh_key[0] for it in scene.shapes)
    assert kinds == sorted(["sphere", "box", "capsule", "cylinder", "plane", "IndexedFaceSet",
                            "ElevationGrid", "sphere"])
    assert any("Mesh" in w for w in scene.warnings)  # the missing mesh file is reported
    world = scene.static_solid_world()
    assert np.allclose(world[-1], np.eye(4))
    assert np.allclose(world[1][:3, 3], [0, 0, 2])
    box = next(it for it in scene.shapes if it.mesh_key == ("box",))
    M = world[box.solid] @ box.local
    # the Pose's (0, 1, 0) turned by 90 degrees about Z is (-1, 0, 0); then up 1
    assert np.allclose(M[:3, 3], [-1, 0, 1], atol=1e-6)
    assert np.allclose(np.linalg.norm(M[:3, :3], axis=0), [1, 2, 3])
    sphere = next(it for it in scene.shapes if it.solid == -1)
    assert np.allclose(sphere.local[:3, 3], [1, 0, 0])
    assert np.allclose(np.linalg.norm(sphere.local[:3, :3], axis=0), [1, 1, 1])  # 2 * 0.5
    assert sphere.color == pytest.approx((0, 1, 0, 0.75))
    assert sorted((it.mesh_key[0], it.solid) for it in scene.bounds) == [
        ("box", 0), ("capsule", 0), ("sphere", 1)]
    assert scene.background == (0.1, 0.2, 0.3)
    assert len(scene.lights) == 1 and np.allclose(scene.lights[0].direction, [0, 0, -1])
    assert scene.lights[0].ambient == pytest.approx(0.3)


def test_camera_from_viewpoint_projects_target_to_centre():
    scene = build_scene(parse_world(ALL_GEOMETRY))
    cam = OrbitCamera()
    cam.resize(400, 300)
    cam.set_from_viewpoint(scene.viewpoint)
    assert np.allclose(cam.target, [0, 0, 0], atol=1e-6)
    assert cam.project((0, 0, 0)) == pytest.approx((200, 150))
    x, y = cam.project((0, -1, 0))  # Viewpoint looks along +X: -Y is on the right
    assert x > 200
    assert cam.project((0, 0, 1))[1] < 150
    # horizontal field of view: the Viewpoint's 1 rad spans the width (level camera)
    cam.eye = np.array([-4.0, 0, 0])
    edge = cam.project(cam.eye + axis_angle_to_matrix((0, 0, 1, -0.5)) @ (cam.target - cam.eye))
    assert edge[0] == pytest.approx(400, abs=1)


def test_camera_orbit_pan_zoom_and_ray():
    cam = OrbitCamera()
    cam.resize(400, 300)
    cam.eye, cam.target = np.array([-4.0, 0, 3]), np.zeros(3)
    r = np.linalg.norm(cam.eye)
    cam.orbit(100, 0)
    assert np.linalg.norm(cam.eye) == pytest.approx(r) and cam.eye[2] == pytest.approx(3)
    cam.orbit(0, 10000)  # pitch is clamped below the pole
    assert cam.eye[2] < r
    cam.pan(50, 0)
    assert np.linalg.norm(cam.eye - cam.target) == pytest.approx(r)
    assert not np.allclose(cam.target, 0)
    cam.zoom(2)
    assert np.linalg.norm(cam.eye - cam.target) == pytest.approx(r * 0.85 ** 2)
    origin, d = cam.ray(200, 150)
    assert np.allclose(np.cross(d, cam.target - origin), 0, atol=1e-6)


def test_overlays_lines():
    pts, cols = grid_lines(2.0, 1.0)
    assert len(pts) == 2 * 2 * 5 and np.allclose(pts[:, 2], 0)
    c = SimpleNamespace(pos=(0, 0, 0), normal=(0, 0, 1), depth=0.0, force=(0, 0, 10))
    assert len(contact_lines([c], True, False)[0]) == 8
    assert len(contact_lines([c], False, True)[0]) == 6
    assert len(contact_lines([SimpleNamespace(pos=(0, 0, 0), normal=(0, 0, 1), depth=0.0,
                                              force=(0, 0, 0))], False, True)[0]) == 0
    tip = contact_lines([c], False, True)[0]
    assert np.allclose(tip[1], [0, 0, 0.5])  # 10 N * 0.05 m/N, straight up
    assert np.all(np.isfinite(tip))
    no_force = SimpleNamespace(pos=(0, 0, 0), normal=(0, 0, 1), depth=0.0, force=None)
    assert len(contact_lines([no_force], False, True)[0]) == 0
    trails = Trails(length=3)
    trails.set_solids(["a"])
    for k in range(5):
        trails.record({"a": np.array([k, 0, 0.0])})
    trails.record({"a": np.array([4, 0, 0.0])})  # not moved: not recorded
    assert [p[0] for p in trails.paths["a"]] == [2, 3, 4]
    assert len(trails.lines()[0]) == 4
