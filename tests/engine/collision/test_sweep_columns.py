"""The column sweep of the simple and hash spaces finds exactly the pairs of
the plain reference sweep, in the same (i, j) order, whichever of its paths
(columns, large boxes beside them, one sweep of all) a scene takes."""

from __future__ import annotations

import numpy as np
import pytest

from engine.ode.collision.spaces.pair_rules import sorted_by_first
from engine.ode.collision.spaces.sweep import overlapping_pairs, sweep_pairs


def _boxes(rng, n: int, spread: float, half_max: float, wide: float = 0.0) -> np.ndarray:
    """(n, 6) boxes: centres uniform in [-spread, spread], half sizes up to
    half_max; a fraction ``wide`` of them 20 times larger."""
    c = rng.uniform(-spread, spread, (n, 3))
    h = rng.uniform(0.0, half_max, (n, 3))
    h[rng.uniform(size=n) < wide] *= 20.0
    aabb = np.empty((n, 6))
    aabb[:, 0::2] = c - h
    aabb[:, 1::2] = c + h
    return aabb


def _rules(rng, n: int):
    enabled = rng.uniform(size=n) > 0.1
    body = rng.integers(-1, 6, n)
    cat = rng.integers(0, 4, n).astype(np.uint64)
    col = rng.integers(0, 4, n).astype(np.uint64)
    return enabled, body, cat, col


def _same_pairs(aabb, enabled, body, cat, col) -> list:
    want = overlapping_pairs(aabb, enabled, body, cat, col).tolist()
    got = sweep_pairs(aabb, enabled, body, cat, col).tolist()
    assert got == want
    return got


@pytest.mark.parametrize("wide", [0.0, 0.02, 0.5])
@pytest.mark.parametrize("spread", [0.3, 3.0, 300.0])
def test_column_sweep_matches_reference(spread, wide):
    rng = np.random.default_rng(int(spread * 10) + int(wide * 100))
    found = 0
    for _trial in range(20):
        n = int(rng.integers(2, 200))
        aabb = _boxes(rng, n, spread, 0.15 * spread, wide)
        found += len(_same_pairs(aabb, *_rules(rng, n)))
    assert found > 0


def test_planes_nan_and_touching_boxes():
    rng = np.random.default_rng(5)
    for _trial in range(20):
        n = 60
        aabb = _boxes(rng, n, 1.0, 0.2)
        aabb[0] = [-np.inf, np.inf, -np.inf, np.inf, -np.inf, 0.1]     # a plane
        aabb[1] = [-np.inf, np.inf, -np.inf, np.inf, -np.inf, 0.0]     # another
        aabb[2, 3] = np.nan
        aabb[4] = aabb[5]                                               # copies
        aabb[6] = aabb[7]
        aabb[6, 0] = aabb[7, 1]                                         # touching on x
        enabled, body, cat, col = _rules(rng, n)
        enabled[[0, 1, 4, 5, 6, 7]] = True
        body[[0, 1, 4, 5, 6, 7]] = -1
        cat[:] = 1
        col[:] = 1
        pairs = _same_pairs(aabb, enabled, body, cat, col)
        assert [0, 1] in pairs and [4, 5] in pairs and [6, 7] in pairs


def test_points_and_far_apart_boxes():
    rng = np.random.default_rng(9)
    n = 50
    ones = np.ones(n, dtype=np.bool_), np.full(n, -1), np.ones(n, np.uint64), np.ones(n, np.uint64)
    # zero-size boxes, some coincident: the column side is 0
    pts = np.repeat(rng.integers(0, 5, (n, 3)).astype(float), 2, axis=1)
    assert len(_same_pairs(pts, *ones)) > 0
    # tiny boxes spread over 1e12 m: too many columns, one sweep of all
    far = _boxes(rng, n, 1e12, 1e-3)
    far[1] = far[0]
    assert [0, 1] in _same_pairs(far, *ones)


def test_sorted_by_first_orders_any_input():
    rng = np.random.default_rng(3)
    n = 40
    pairs = np.array([(i, j) for i in range(n) for j in range(i + 1, n)], dtype=np.int64)
    pick = pairs[rng.permutation(len(pairs))[:300]]
    out = np.vstack([pick, np.zeros((10, 2), dtype=np.int64)])
    got = sorted_by_first(out, 300, n)
    assert got.tolist() == sorted(pick.tolist())


def test_more_pairs_than_the_first_list_holds():
    # 60 boxes all overlapping: 1770 pairs, more than the 4 n + 64 rows the
    # sweep starts with, so it counts them and sweeps again with room
    rng = np.random.default_rng(11)
    n = 60
    aabb = _boxes(rng, n, 0.01, 0.01)
    aabb[:, 1::2] += 1.0
    got = _same_pairs(aabb, np.ones(n, dtype=bool), np.arange(n, dtype=np.int64),
                      np.full(n, 1, dtype=np.uint64), np.full(n, 1, dtype=np.uint64))
    assert len(got) == n * (n - 1) // 2
