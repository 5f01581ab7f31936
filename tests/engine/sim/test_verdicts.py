"""What webots_physics_collide's return values mean (engine/sim/verdicts.py):
None and 0 are 0, values equal to 1 or 2 are handled / colliding, anything
else is invalid (verdict 0, its index reported), on the fast paths and the
one-by-one path alike."""

from __future__ import annotations

import numpy as np

from engine.sim.verdicts import INVALID, plugin_verdicts, verdict_of


class _RaisingEq:
    def __eq__(self, other):
        raise RuntimeError("no comparison")

    __hash__ = object.__hash__


def test_single_values() -> None:
    assert [verdict_of(v) for v in (None, 0, 1, 2, True, False, 2.0)] == [0, 0, 1, 2, 1, 0, 2]
    assert [verdict_of(v) for v in ("yes", 3, 0.5, [1], _RaisingEq())] == [INVALID] * 5


def test_a_pass_of_zeros_or_nones_is_all_default() -> None:
    for results in ([0] * 5, [None, 0, None], []):
        v = plugin_verdicts(results)
        assert v.codes.dtype == np.uint8 and v.codes.tolist() == [0] * len(results)
        assert v.first_invalid == -1


def test_mixed_verdicts_keep_their_order() -> None:
    v = plugin_verdicts([0, 2, 1, True, 0, 2.0])
    assert v.codes.tolist() == [0, 2, 1, 1, 0, 2] and v.first_invalid == -1
    v = plugin_verdicts([None, 1, 0, 2])
    assert v.codes.tolist() == [0, 1, 0, 2] and v.first_invalid == -1


def test_the_first_invalid_value_is_named_and_counts_as_zero() -> None:
    v = plugin_verdicts([1, "yes", 2, 7, _RaisingEq()])
    assert v.codes.tolist() == [1, 0, 2, 0, 0]
    assert v.first_invalid == 1
    v = plugin_verdicts([_RaisingEq(), 0])
    assert v.codes.tolist() == [0, 0] and v.first_invalid == 0
