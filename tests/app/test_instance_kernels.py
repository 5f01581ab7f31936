"""The viewport's compiled per-frame instance work (app/viewport/instance_kernels.py)
agrees with the numpy statement of its maths (tests/app/viewport_reference.py)."""

from __future__ import annotations

import numpy as np
import pytest

from app.viewport.camera import OrbitCamera
from app.viewport.culling import frustum_planes
from app.viewport.instance_kernels import (
    _stable_order,
    bucket_instances,
    fill_instance_rows,
)
from app.viewport.lod import shear_stretch
from app.viewport.transforms import pose_matrix
from tests.app.viewport_reference import (
    choose_levels,
    instance_spheres,
    projected_radius_px,
    spheres_visible,
    view_depths,
)


def random_rotation(rng: np.random.Generator) -> np.ndarray:
    q = rng.normal(size=4)
    w, x, y, z = q / np.linalg.norm(q)
    return np.array([[1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w)],
                     [2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w)],
                     [2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y)]])


def test_rows_and_spheres_are_the_model_matrices_and_their_bounds():
    rng = np.random.default_rng(3)
    solids = np.stack([pose_matrix(rng.normal(size=3), random_rotation(rng)) for _ in range(6)]
                      + [np.eye(4)])  # the last one: the world
    shear = np.eye(4)
    shear[0, 1] = 0.4
    local = np.stack([pose_matrix(rng.normal(size=3) * 0.1, random_rotation(rng),
                                  rng.uniform(0.1, 2.0, size=3)) @ (shear if k % 3 == 0
                                                                    else np.eye(4))
                      for k in range(20)])
    solid = rng.integers(-1, 6, size=20).astype(np.int64)
    centre, radius, stretch = np.array([0.1, -0.2, 0.05]), 1.3, shear_stretch(local)
    rows = np.zeros((20, 21), np.float32)
    rows[:, 16:] = 7.0  # colours and pick ids are left alone
    centres, radii = np.zeros((20, 3)), np.zeros(20)
    fill_instance_rows(solids, solid, local, centre, radius, stretch, rows, centres, radii)
    models = solids[solid] @ local
    expected = models.transpose(0, 2, 1).reshape(20, 16).astype(np.float32)
    np.testing.assert_allclose(rows[:, :16], expected, rtol=1e-6, atol=1e-6)
    assert np.all(rows[:, 16:] == 7.0)
    want_c, want_r = instance_spheres(models[:, :3, :3], models[:, :3, 3], centre, radius,
                                      stretch)
    np.testing.assert_allclose(centres, want_c, rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(radii, want_r, rtol=1e-12)


def reference_buckets(rows, centres, radii, round_, viewproj, height_px, max_radius_px,
                      cull_back, impostors, vertex_lit_max, impostor_max):
    """The visible rows sorted by slot then near to far, and each slot's first row."""
    visible = np.flatnonzero(spheres_visible(centres, radii, frustum_planes(viewproj)))
    depths = view_depths(centres[visible], viewproj)
    px = projected_radius_px(centres[visible], radii[visible], viewproj, height_px)
    level = choose_levels(px, max_radius_px)
    slot = 2 * level + np.where((px > vertex_lit_max) | (not cull_back), 2, 1)
    if impostors and np.any(viewproj[3, :3]):
        slot[(px <= impostor_max) & round_[visible]] = 0
    order = np.lexsort((depths, slot))
    first = np.searchsorted(slot[order], np.arange(2 * (len(max_radius_px) + 1) + 2))
    return rows[visible[order]], first


@pytest.mark.parametrize("view", ["perspective", "orthographic"])
@pytest.mark.parametrize("cull_back,impostors", [(True, True), (True, False), (False, False)])
def test_buckets_are_the_reference_culling_levels_shading_and_order(view, cull_back,
                                                                   impostors):
    rng = np.random.default_rng(11)
    n = 400
    centres = rng.uniform(-12.0, 12.0, size=(n, 3))
    centres[::7] = centres[3]  # equal depths: ties keep their order
    radii = rng.uniform(0.01, 1.5, size=n)
    rows = rng.normal(size=(n, 21)).astype(np.float32)
    round_ = rng.random(n) < 0.7
    cam = OrbitCamera()
    cam.eye, cam.target = np.array([-9.0, -4.0, 5.0]), np.zeros(3)
    cam.resize(640, 480)
    viewproj = cam.view_projection()
    if view == "orthographic":
        viewproj = viewproj.copy()
        viewproj[3] = (0.0, 0.0, 0.0, 1.0)
        viewproj[:3] /= 10.0
    max_radius_px = np.array([5.0, 15.0, 56.0, 220.0])
    out, bounds = np.zeros_like(rows), np.zeros(2 * len(max_radius_px) + 4, np.int64)
    count = bucket_instances(rows, centres, radii, round_, frustum_planes(viewproj), viewproj,
                             480.0, max_radius_px, cull_back, impostors, 24.0, 64.0, out,
                             bounds)
    want_rows, want_first = reference_buckets(rows, centres, radii, round_, viewproj, 480,
                                              max_radius_px, cull_back, impostors, 24.0, 64.0)
    assert 0 < count < n and count == len(want_rows)
    assert np.array_equal(out[:count], want_rows)
    assert bounds.tolist() == want_first.tolist()
    if view == "orthographic" or not impostors:
        assert bounds[1] == 0  # no impostor without an eye point
    else:
        assert bounds[1] > 0


def test_stable_order_sorts_and_keeps_ties_in_order():
    rng = np.random.default_rng(5)
    for m in (0, 1, 2, 7, 64, 333):
        keys = np.round(rng.normal(size=m + 4), 1)  # many ties
        got = _stable_order(keys, m)
        assert got.tolist() == np.argsort(keys[:m], kind="stable").tolist()
