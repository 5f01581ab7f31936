"""What a collide callback's return values mean (its verdicts on the pairs).

A physics plugin's ``webots_physics_collide(g1, g2)`` returns 0 (make the
default contacts), 1 (handled) or 2 (handled, and both geoms are colliding).
In Python: ``None`` (no return statement) is 0, any value equal to 0, 1 or 2
is that verdict (``True`` is 1, ``2.0`` is 2), anything else is invalid:
its pair gets verdict 0 and the host reports a fault (docs/decisions/0025).

`plugin_verdicts` reads the return values of a whole collision pass at once:
a pass where every pair returned 0 (the usual case, thousands of pairs a
step) costs one ``list.count``.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

#: `verdict_of` for a value that is no verdict.
INVALID = -1


class Verdicts(NamedTuple):
    """The verdicts of a pass: ``codes`` (k,) uint8 (0, 1 or 2, an invalid value
    given 0) and ``first_invalid``, the index of the first invalid return value
    (-1 when there is none)."""

    codes: np.ndarray
    first_invalid: int


def verdict_of(result: object) -> int:
    """0, 1 or 2 for one return value of webots_physics_collide, `INVALID` for
    a value that is none of them (a comparison that raises counts as not equal)."""
    if result is None:
        return 0
    for verdict in (0, 1, 2):
        try:
            if result == verdict:
                return verdict
        except Exception:  # an __eq__ or a truth value that raises: not a verdict
            return INVALID
    return INVALID


def plugin_verdicts(results: list) -> Verdicts:
    """The verdicts of ``results`` (k values webots_physics_collide returned, in
    pair order)."""
    try:
        codes = _common_codes(results)
    except Exception:  # an __eq__ that raises: one by one
        codes = None
    if codes is not None:
        return Verdicts(codes, -1)
    codes = np.zeros(len(results), dtype=np.uint8)
    first_invalid = -1
    for k, result in enumerate(results):
        verdict = verdict_of(result)
        if verdict == INVALID:
            if first_invalid < 0:
                first_invalid = k
        else:
            codes[k] = verdict
    return Verdicts(codes, first_invalid)


def _common_codes(results: list) -> np.ndarray | None:
    """(k,) uint8 verdicts when every value is None or equal to 0, 1 or 2 and
    numpy converts them; None otherwise."""
    n = len(results)
    zeros = results.count(0)
    if zeros == n:
        return np.zeros(n, dtype=np.uint8)
    nones = results.count(None)
    if zeros + nones == n:
        return np.zeros(n, dtype=np.uint8)
    if nones or zeros + results.count(1) + results.count(2) != n:
        return None
    try:
        return np.array(results, dtype=np.uint8).reshape(n)
    except (TypeError, ValueError, OverflowError):
        return None  # values equal to 0, 1 or 2 numpy cannot convert
