"""The AABB tree (engine.contact.bvh) against brute force, and mesh edge flags."""

from __future__ import annotations

import numpy as np

from engine import ode
from engine.contact.bvh import LEAF_SIZE, build_tree, tree_box, tree_halfspace, tree_tree
from engine.contact.pieces import edge_convexity, mesh_info
from tests.engine.contact.boundary_shapes import CUBE_I, CUBE_V, grid


def _random_boxes(n: int, seed: int) -> tuple:
    rng = np.random.default_rng(seed)
    c = rng.uniform(-1.0, 1.0, (n, 3))
    h = rng.uniform(0.0, 0.08, (n, 3))
    return c - h, c + h


def _overlap(alo, ahi, blo, bhi) -> np.ndarray:
    return np.all((alo <= bhi) & (ahi >= blo), axis=-1)


def test_tree_structure() -> None:
    lo, hi = _random_boxes(300, 1)
    t = build_tree(lo, hi)
    assert sorted(t.order.tolist()) == list(range(300))
    leaves = t.left < 0
    assert np.all(t.count[leaves] <= LEAF_SIZE) and t.count[0] == 300
    for node in range(t.lo.shape[0]):
        tris = t.order[t.start[node]:t.start[node] + t.count[node]]
        np.testing.assert_array_equal(t.lo[node], lo[tris].min(axis=0))
        np.testing.assert_array_equal(t.hi[node], hi[tris].max(axis=0))
    again = build_tree(lo, hi)
    assert all(np.array_equal(x, y) for x, y in zip(t, again, strict=True))


def test_box_and_halfspace_queries_match_brute_force() -> None:
    lo, hi = _random_boxes(500, 2)
    t = build_tree(lo, hi)
    rng = np.random.default_rng(3)
    for _ in range(20):
        c = rng.uniform(-1.0, 1.0, 3)
        h = rng.uniform(0.0, 0.3, 3)
        got, visited = tree_box(t, c - h, c + h)
        want = np.flatnonzero(_overlap(lo, hi, c - h, c + h))
        assert sorted(got.tolist()) == want.tolist()
        assert visited <= t.lo.shape[0]
        n = rng.normal(size=3)
        n /= np.linalg.norm(n)
        d, reach = rng.uniform(-0.5, 0.5), 0.01
        got, _ = tree_halfspace(t, n, d, reach)
        low = np.where(n >= 0.0, lo, hi) @ n - d
        assert sorted(got.tolist()) == np.flatnonzero(low < reach).tolist()


def test_tree_tree_matches_brute_force_with_a_relative_pose() -> None:
    alo, ahi = _random_boxes(200, 4)
    blo, bhi = _random_boxes(150, 5)
    ta, tb = build_tree(alo, ahi), build_tree(blo, bhi)
    R = np.asarray(ode.dRFromAxisAndAngle(1.0, 2.0, 3.0, 0.7)).reshape(3, 4)[:, :3].copy()
    t = np.array([0.3, -0.2, 0.1])
    reach = 0.02
    got, visited = tree_tree(ta, tb, R, t, reach)
    c = (0.5 * (blo + bhi)) @ R.T + t
    e = (0.5 * (bhi - blo)) @ np.abs(R).T + reach
    want = np.argwhere(_overlap(alo[:, None], ahi[:, None], (c - e)[None], (c + e)[None]))
    assert sorted(map(tuple, got.tolist())) == sorted(map(tuple, want.tolist()))
    assert visited < 200 * 150


def test_cube_over_floor_visits_far_fewer_than_all_pairs() -> None:
    v, i = grid(40, 25, 0.05)
    floor = ode.dGeomTriMeshDataCreate()
    ode.dGeomTriMeshDataBuildSimple(floor, v, len(v), i, len(i))
    cube = ode.dGeomTriMeshDataCreate()
    ode.dGeomTriMeshDataBuildSimple(cube, CUBE_V * 0.1, 8, CUBE_I, 36)
    ta, tb = mesh_info(cube).tree, mesh_info(floor).tree
    pairs, visited = tree_tree(ta, tb, np.eye(3), np.array([-0.013, -0.021, -0.052]), 0.0025)
    assert 0 < pairs.shape[0] < 12 * 2000 // 50
    assert visited < 12 * 2000 // 20


def test_edge_convexity_of_a_cube_and_a_floor() -> None:
    tris = CUBE_I.reshape(-1, 3)
    p = CUBE_V[tris]
    n = np.cross(p[:, 1] - p[:, 0], p[:, 2] - p[:, 0])
    n /= np.linalg.norm(n, axis=1)[:, None]
    conv = edge_convexity(CUBE_V, tris, n)
    assert conv.sum() == 36 - 12          # the 6 face diagonals, seen from both sides, are flat
    v, i = grid(3, 2, 1.0)
    t = i.reshape(-1, 3)
    conv = edge_convexity(v, t, np.tile([0.0, 0.0, 1.0], (len(t), 1)))
    assert conv.sum() == 2 * (3 + 2)      # only the border edges
