"""Stage tests: build_adjacency and find_islands on hand-built small graphs."""

from __future__ import annotations

import numpy as np

from engine.ode.bodystore import BF_DISABLED
from engine.ode.step.islands import build_adjacency, find_islands
from tests.engine.stages.builders import bodies, body_table, joints


def _islands(table, js, invmass=None):
    adjacency = build_adjacency(table.count, js)
    rows, bstart, jrows, jstart = find_islands(table, adjacency, js,
                                               bodies(table.count, invmass).invmass)
    # only the first body_start[-1] / joint_start[-1] entries are islands'
    return list(rows[:bstart[-1]]), list(bstart), list(jrows[:jstart[-1]]), list(jstart)


def test_adjacency_lists_newest_attachment_first_with_the_other_end():
    # j0: 0-1, j1: 1-2, j2: 1-world
    adj = build_adjacency(3, joints([(0, 1), (1, 2), (1, -1)]))
    assert list(adj.start) == [0, 1, 4, 5]
    assert list(adj.joint) == [0, 2, 1, 0, 1]
    assert list(adj.other) == [1, -1, 2, 0, 1]


def test_adjacency_skips_dead_joints():
    adj = build_adjacency(2, joints([(0, 1), (0, -1)], alive=[False, True]))
    assert list(adj.start) == [0, 1, 1]
    assert list(adj.joint) == [1]
    assert list(adj.other) == [-1]


def test_islands_newest_body_first_depth_first_within():
    # bodies 0..3 (3 newest); j0 joins 0-1, j1 holds 2 to the world, 3 is free
    rows, bstart, jrows, jstart = _islands(body_table(4), joints([(0, 1), (2, -1)]))
    assert rows == [3, 2, 1, 0]
    assert bstart == [0, 1, 2, 4]
    assert jrows == [1, 0]
    assert jstart == [0, 0, 1, 2]


def test_chain_is_one_island_in_walk_order():
    # 0-1, 1-2, 2-3: from body 3 (newest) the walk reaches 2, then 1, then 0
    rows, bstart, jrows, jstart = _islands(body_table(4), joints([(0, 1), (1, 2), (2, 3)]))
    assert rows == [3, 2, 1, 0]
    assert bstart == [0, 4]
    assert jrows == [2, 1, 0]
    assert jstart == [0, 3]


def test_disabled_body_alone_is_left_out():
    table = body_table(3, flags=[0, BF_DISABLED, 0])
    rows, bstart, jrows, jstart = _islands(table, joints([]))
    assert rows == [2, 0]
    assert bstart == [0, 1, 2]
    assert jrows == [] and jstart == [0, 0, 0]
    assert table.flags[1] & BF_DISABLED


def test_disabled_body_reached_through_a_joint_is_enabled():
    table = body_table(2, flags=[BF_DISABLED, 0])
    rows, bstart, jrows, _ = _islands(table, joints([(0, 1)]))
    assert rows == [1, 0] and bstart == [0, 2] and jrows == [0]
    assert not table.flags[0] & BF_DISABLED


def test_disabled_joint_splits_islands():
    rows, bstart, jrows, jstart = _islands(body_table(2), joints([(0, 1)], enabled=[False]))
    assert rows == [1, 0]
    assert bstart == [0, 1, 2]
    assert jrows == [] and jstart == [0, 0, 0]


def test_joint_between_static_bodies_is_not_stepped():
    # ODE's rule: a joint is enabled only if one of its bodies is dynamic;
    # the static bodies still form (joint-less) islands of their own
    rows, bstart, jrows, jstart = _islands(body_table(2), joints([(0, 1)]), invmass=[0.0, 0.0])
    assert rows == [1, 0] and bstart == [0, 1, 2]
    assert jrows == [] and jstart == [0, 0, 0]


def test_world_joints_do_not_join_islands():
    # two bodies each held to the world: two islands, one joint each
    rows, bstart, jrows, jstart = _islands(body_table(2), joints([(0, -1), (1, -1)]))
    assert rows == [1, 0] and bstart == [0, 1, 2]
    assert jrows == [1, 0] and jstart == [0, 1, 2]


def test_islands_arrays_are_int64():
    out = find_islands(body_table(1), build_adjacency(1, joints([])), joints([]), np.ones(1))
    assert all(a.dtype == np.int64 for a in out)
