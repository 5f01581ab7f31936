"""Webots' lookup table: interpolation, clamping, noise, resolution."""

from __future__ import annotations

import math

import numpy as np
import pytest

from engine.sim.sensors.lookup import LookupTable, Reading, discretize, rng_of

TABLE = LookupTable.of([[0.0, 1000.0, 0.0], [0.1, 500.0, 0.1], [0.3, 0.0, 0.3]])


def test_linear_interpolation_between_rows() -> None:
    assert TABLE.lookup(0.05, None) == pytest.approx(750.0, abs=1e-12)
    assert TABLE.lookup(0.2, None) == pytest.approx(250.0, abs=1e-12)
    assert TABLE.lookup(0.1, None) == 500.0
    assert TABLE.interpolate(0.2)[1] == pytest.approx(0.2, abs=1e-15)


def test_inputs_outside_the_table_are_clamped_to_the_end_rows() -> None:
    assert TABLE.lookup(-1.0, None) == 1000.0
    assert TABLE.lookup(5.0, None) == 0.0
    assert TABLE.max_input == 0.3


def test_empty_table_returns_the_raw_value() -> None:
    empty = LookupTable.of([])
    assert empty.empty
    assert empty.lookup(-3.25, rng_of(1)) == -3.25


def test_noise_is_multiplicative_seeded_and_has_the_interpolated_sigma() -> None:
    table = LookupTable.of([[0.0, 0.0, 0.05], [1.0, 100.0, 0.05]])
    rng = rng_of(7)
    b = [table.lookup(0.5, rng) for _ in range(4000)]
    rng = rng_of(7)
    c = [table.lookup(0.5, rng) for _ in range(4000)]
    assert b == c  # same seed, same sequence
    assert len(set(b)) == len(b)  # a new draw every read
    rng = rng_of(8)
    assert [table.lookup(0.5, rng) for _ in range(3)] != b[:3]
    # v (1 + sigma N): mean 50, standard deviation 50 * 0.05 = 2.5
    assert np.mean(b) == pytest.approx(50.0, abs=4 * 2.5 / math.sqrt(4000))
    assert np.std(b) == pytest.approx(2.5, rel=0.05)
    # the exact first draw
    assert b[0] == 50.0 * (1.0 + 0.05 * float(rng_of(7).standard_normal()))


def test_zero_noise_draws_nothing() -> None:
    rng = rng_of(3)
    LookupTable.of([[0.0, 0.0, 0.0], [1.0, 1.0, 0.0]]).lookup(0.5, rng)
    assert rng.standard_normal() == rng_of(3).standard_normal()


def test_resolution_rounds_like_webots() -> None:
    assert discretize(0.123, -1.0) == 0.123
    assert discretize(72.4, 8.0) == 72.0
    assert discretize(75.9, 8.0) == 72.0
    assert discretize(76.0, 8.0) == 80.0
    # Webots truncates v / r + 0.5 towards zero: negative values move one step up
    assert discretize(-1.2, 1.0) == 0.0
    assert discretize(-1.7, 1.0) == -1.0
    assert math.isnan(discretize(math.nan, 0.5))


def test_reading_applies_lookup_then_resolution_and_nan_for_disabled_axes() -> None:
    r = Reading(LookupTable.of([[0.0, 0.0, 0.0], [1.0, 100.0, 0.0]]), 10.0)
    assert r.apply(0.44) == 40.0
    out = r.apply3([0.1, 0.26, 2.0], [True, False, True])
    assert out[0] == 10.0 and math.isnan(out[1]) and out[2] == 100.0
