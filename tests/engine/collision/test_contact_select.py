"""`select_by_table` (the rule lookup and the choice of contacts in one
compiled call) against `pair_rule_numbers` then `select_contacts`, and the
owner pairs it hands back when the table does not know them yet."""

from __future__ import annotations

import numpy as np
import pytest

from engine.ode.collision.contact_select import (
    pair_rule_numbers,
    select_by_table,
    select_contacts,
)

UNDECIDED, NO_RULE = -2, -1


def _pass(seed: int, undecided: bool):
    """A random collision pass: (counts, pairs, owner, table, limit, rows)."""
    rng = np.random.default_rng(seed)
    geoms, owners, pair_count = 30, 6, 80
    pairs = rng.integers(0, geoms, size=(pair_count, 2)).astype(np.int64)
    counts = rng.integers(-2, 7, size=pair_count).astype(np.int64)
    owner = rng.integers(-1, owners, size=geoms).astype(np.int64)
    table = rng.integers(NO_RULE, 3, size=(owners + 1, owners + 1)).astype(np.int32)
    table[owners, :] = NO_RULE
    table[:, owners] = NO_RULE
    if undecided:
        live = np.flatnonzero(counts > 0)
        a, b = owner[pairs[live[0], 0]], owner[pairs[live[0], 1]]
        table[owners if a < 0 else a, owners if b < 0 else b] = UNDECIDED
    limit = np.array([1, 3, 8], dtype=np.int64)
    rows = rng.normal(size=(int(np.maximum(counts, 0).sum()), 9))
    rows[:, 6] = rng.integers(0, 3, size=rows.shape[0])  # depths with ties
    return counts, pairs, owner, table, limit, rows


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("use_only", [False, True])
def test_one_call_keeps_what_the_two_kernels_keep(seed: int, use_only: bool) -> None:
    counts, pairs, owner, table, limit, rows = _pass(seed, undecided=False)
    only = np.flatnonzero(counts > 0)[::2].astype(np.int64)
    live, first, second, number = pair_rule_numbers(counts, only, use_only, pairs, owner, table)
    expected = select_contacts(live, first, second, number, counts, pairs, limit, rows)
    waiting, kept = select_by_table(counts, only, use_only, pairs, owner, table, UNDECIDED,
                                    limit, rows)
    assert waiting.shape == (0, 2)
    assert expected.rows.shape[0] > 0
    for name in expected._fields:
        np.testing.assert_array_equal(getattr(kept, name), getattr(expected, name), err_msg=name)


def test_the_pairs_not_decided_yet_are_handed_back_in_pair_order() -> None:
    counts, pairs, owner, table, limit, rows = _pass(7, undecided=True)
    table[table == 2] = UNDECIDED  # more owner pairs to decide, some met more than once
    live, first, second, number = pair_rule_numbers(counts, np.zeros(0, dtype=np.int64), False,
                                                    pairs, owner, table)
    to_decide = number == UNDECIDED
    waiting, kept = select_by_table(counts, np.zeros(0, dtype=np.int64), False, pairs, owner,
                                    table, UNDECIDED, limit, rows)
    assert waiting.shape[0] > 1
    np.testing.assert_array_equal(waiting, np.stack([first[to_decide], second[to_decide]], 1))
    assert kept.pairs.shape == (0, 2) and kept.rows.shape == (0, 9)
