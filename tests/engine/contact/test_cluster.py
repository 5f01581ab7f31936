"""Contact clustering (engine.contact.cluster): k-means reduction and the
per-robot budget."""

from __future__ import annotations

import numpy as np
import pytest

from engine.contact.cluster import ClusteredContacts, cluster_contacts, contact_budget


def _random_set(rng: np.random.Generator, n: int):
    pos = rng.uniform(-0.5, 0.5, (n, 3))
    normal = rng.normal(size=(n, 3))
    normal /= np.sqrt((normal * normal).sum(axis=1))[:, None]
    depth = rng.uniform(0.0, 0.005, n)
    return pos, normal, depth


def _check_consistent(out: ClusteredContacts, pos, normal, depth) -> None:
    """sizes sum to n, member and size agree, outputs are the member means."""
    n = pos.shape[0]
    m = out.pos.shape[0]
    assert out.size.sum() == n
    assert out.member.shape == (n,)
    assert np.array_equal(np.bincount(out.member, minlength=m), out.size)
    assert (out.size > 0).all()
    for o in range(m):
        members = out.member == o
        assert out.pos[o] == pytest.approx(pos[members].mean(axis=0), abs=1e-12)
        assert out.depth[o] == pytest.approx(depth[members].mean(), abs=1e-12)
        mean_n = normal[members].mean(axis=0)
        length = np.sqrt((mean_n * mean_n).sum())
        if length > 1e-9:
            assert out.normal[o] == pytest.approx(mean_n / length, abs=1e-9)
    lengths = np.sqrt((out.normal * out.normal).sum(axis=1))
    assert lengths == pytest.approx(np.ones(m), abs=1e-12)


@pytest.mark.parametrize("n,k", [(21, 20), (60, 20), (300, 20), (1000, 20), (400, 7),
                                 (150, 1), (90, 50), (2000, 60)])
def test_never_more_than_k_and_sizes_sum_to_n(n, k):
    rng = np.random.default_rng(1000 + n + k)
    for _ in range(3):
        pos, normal, depth = _random_set(rng, n)
        out = cluster_contacts(pos, normal, depth, k)
        assert 1 <= out.pos.shape[0] <= k
        _check_consistent(out, pos, normal, depth)


def test_at_most_k_contacts_come_back_unchanged():
    rng = np.random.default_rng(7)
    pos, normal, depth = _random_set(rng, 12)
    out = cluster_contacts(pos, normal, depth, 12)
    assert np.array_equal(out.pos, pos) and np.array_equal(out.normal, normal)
    assert np.array_equal(out.depth, depth)
    assert np.array_equal(out.size, np.ones(12, dtype=np.int64))
    assert np.array_equal(out.member, np.arange(12))
    empty = cluster_contacts(np.zeros((0, 3)), np.zeros((0, 3)), np.zeros(0), 20)
    assert empty.pos.shape == (0, 3) and empty.size.shape == (0,)


def _two_blobs(rng, n_each):
    a = rng.normal(scale=0.01, size=(n_each, 3)) + [0.0, 0.0, 0.0]
    b = rng.normal(scale=0.01, size=(n_each, 3)) + [1.0, 0.0, 0.0]
    pos = np.vstack([a, b])
    normal = np.tile([0.0, 0.0, 1.0], (2 * n_each, 1))
    depth = rng.uniform(0.0, 0.002, 2 * n_each)
    return pos, normal, depth


def test_two_separated_blobs_give_their_means():
    rng = np.random.default_rng(3)
    pos, normal, depth = _two_blobs(rng, 30)
    out = cluster_contacts(pos, normal, depth, 2)
    assert out.pos.shape == (2, 3)
    assert np.array_equal(out.size, [30, 30])
    assert out.pos[0] == pytest.approx(pos[:30].mean(axis=0), abs=1e-14)
    assert out.pos[1] == pytest.approx(pos[30:].mean(axis=0), abs=1e-14)
    assert out.depth[0] == pytest.approx(depth[:30].mean(), abs=1e-15)
    assert out.normal == pytest.approx(normal[:2], abs=1e-15)


def test_subsampling_strides_over_the_whole_set():
    """1000 contacts, k 20: the k-means runs on a subsample. The second half of
    the set (a separate blob) must be in it (a stride over the start of the
    set only would miss it and merge that blob into the first one's clusters)."""
    rng = np.random.default_rng(5)
    pos, normal, depth = _two_blobs(rng, 500)
    out = cluster_contacts(pos, normal, depth, 20)
    _check_consistent(out, pos, normal, depth)
    near_b = np.abs(out.pos[:, 0] - 1.0) < 0.05
    near_a = np.abs(out.pos[:, 0]) < 0.05
    assert near_a.any() and near_b.any()
    assert (near_a | near_b).all()          # no cluster mixes the two blobs
    assert out.size[near_b].sum() == 500


def test_bit_identical_between_calls():
    rng = np.random.default_rng(11)
    for n in (100, 1500):
        pos, normal, depth = _random_set(rng, n)
        a = cluster_contacts(pos, normal, depth, 20)
        b = cluster_contacts(pos.copy(), normal.copy(), depth.copy(), 20)
        for x, y in zip(a, b, strict=True):
            assert x.dtype == y.dtype and x.tobytes() == y.tobytes()


def test_zero_mean_normal_takes_the_first_members():
    """Two opposite normals at the same point: the mean normal is zero."""
    pos = np.zeros((4, 3))
    normal = np.array([[0.0, 0.0, 1.0], [0.0, 0.0, -1.0]] * 2)
    out = cluster_contacts(pos, normal, np.zeros(4), 1)
    assert np.array_equal(out.normal, [[0.0, 0.0, 1.0]])
    assert np.array_equal(out.size, [4])


def _box_bottom():
    """200 contacts on the bottom face of a 0.2 m box, a 20 x 10 grid listed
    row by row (as a mesh floor lists them)."""
    xs = np.linspace(-0.1, 0.1, 20)
    ys = np.linspace(-0.1, 0.1, 10)
    pos = np.array([[x, y, 0.0] for x in xs for y in ys])
    return pos, np.tile([0.0, 0.0, 1.0], (200, 1)), np.full(200, 0.001)


def test_flat_box_support_is_kept():
    """The box bottom to 20 contacts: the size-weighted centroid is the
    points' centroid, and every quadrant keeps a contact out near its corner."""
    pos, normal, depth = _box_bottom()
    out = cluster_contacts(pos, normal, depth, 20)
    assert out.pos.shape[0] <= 20
    centroid = (out.pos * out.size[:, None]).sum(axis=0) / out.size.sum()
    assert centroid == pytest.approx(pos.mean(axis=0), abs=1e-12)
    for sx in (-1, 1):
        for sy in (-1, 1):
            corner = (sx * out.pos[:, 0] > 0.05) & (sy * out.pos[:, 1] > 0.05)
            assert corner.any(), (sx, sy)
    assert out.depth == pytest.approx(np.full(out.pos.shape[0], 0.001), abs=1e-15)


def test_stride_start_loses_the_support_of_a_grid():
    """Klamp't's start (centre i = contact i·n/k) puts every centre on the
    grid's first row: the k-means ends with one cluster per column, all on
    the line y = 0 (why the farthest-point start is the default)."""
    pos, normal, depth = _box_bottom()
    out = cluster_contacts(pos, normal, depth, 20, start="stride")
    _check_consistent(out, pos, normal, depth)
    assert np.array_equal(out.size, np.full(20, 10))
    assert out.pos[:, 1] == pytest.approx(np.zeros(20), abs=1e-15)
    assert out.pos[:, 0] == pytest.approx(np.linspace(-0.1, 0.1, 20), abs=1e-15)
    rng = np.random.default_rng(2)
    pos, normal, depth = _random_set(rng, 700)
    a = cluster_contacts(pos, normal, depth, 20, start="stride")
    b = cluster_contacts(pos, normal, depth, 20, start="stride")
    assert a.pos.shape[0] <= 20 and a.pos.tobytes() == b.pos.tobytes()
    _check_consistent(a, pos, normal, depth)


def test_bad_input_is_refused():
    with pytest.raises(ValueError, match="k must be"):
        cluster_contacts(np.zeros((3, 3)), np.zeros((3, 3)), np.zeros(3), 0)
    with pytest.raises(ValueError, match="expected pos"):
        cluster_contacts(np.zeros((3, 2)), np.zeros((3, 3)), np.zeros(3), 2)
    with pytest.raises(ValueError, match="start must be"):
        cluster_contacts(np.zeros((3, 3)), np.zeros((3, 3)), np.zeros(3), 2, start="random")
    with pytest.raises(ValueError, match="iterations"):
        cluster_contacts(np.zeros((3, 3)), np.zeros((3, 3)), np.zeros(3), 2, iterations=-1)


def test_budget_closed_forms():
    assert np.array_equal(contact_budget(np.array([30, 10, 0]), 20), [15, 5, 0])
    # ceil(1 * 10 / 100) = 1, ceil(99 * 10 / 100) = 10
    assert np.array_equal(contact_budget(np.array([1, 99]), 10), [1, 10])
    # ceil(7 * 20 / 41) = 4, ceil(17 * 20 / 41) = 9, ceil(17 * 20 / 41) = 9
    assert np.array_equal(contact_budget(np.array([7, 17, 17]), 20), [4, 9, 9])
    # at or under the budget: unchanged
    assert np.array_equal(contact_budget(np.array([12, 8]), 20), [12, 8])
    assert np.array_equal(contact_budget(np.array([3, 4]), 20), [3, 4])
    with pytest.raises(ValueError):
        contact_budget(np.array([-1, 3]), 20)
    with pytest.raises(ValueError):
        contact_budget(np.array([1, 3]), 0)


def test_a_robots_pairs_cluster_within_its_budget():
    """A robot touching three things with 120, 45 and 15 contacts and a budget
    of 20: the pairs get ceil(n_i·20/180) = 14, 5, 2 contacts, each pair is
    clustered to its share, and every input contact is represented once."""
    rng = np.random.default_rng(9)
    counts = np.array([120, 45, 15])
    budget = contact_budget(counts, 20)
    assert np.array_equal(budget, [14, 5, 2])
    for n, k in zip(counts, budget, strict=True):
        pos, normal, depth = _random_set(rng, int(n))
        out = cluster_contacts(pos, normal, depth, int(k))
        assert out.pos.shape[0] <= k
        assert out.size.sum() == n
