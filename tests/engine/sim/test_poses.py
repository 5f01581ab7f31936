"""Webots axis-angle conversions of engine.sim.poses, one by one and batched."""

from __future__ import annotations

import math

import numpy as np
import pytest

from engine.sim.poses import axis_angle_to_matrix, matrices_to_axis_angles, matrix_to_axis_angle


def _random_rotations(n: int) -> np.ndarray:
    rng = np.random.default_rng(7)
    axes = rng.normal(size=(n, 3))
    angles = rng.uniform(-2 * math.pi, 2 * math.pi, n)
    return np.array([axis_angle_to_matrix((*a, t)) for a, t in zip(axes, angles, strict=True)])


def test_batched_conversion_agrees_with_the_single_one() -> None:
    R = _random_rotations(2000)
    batched = matrices_to_axis_angles(R)
    single = np.array([matrix_to_axis_angle(r) for r in R])
    assert batched.shape == (2000, 4)
    np.testing.assert_allclose(batched, single, rtol=0, atol=1e-14)
    assert np.all((batched[:, 3] >= 0) & (batched[:, 3] <= math.pi))


def test_batched_conversion_round_trips() -> None:
    R = _random_rotations(500)
    back = np.array([axis_angle_to_matrix(tuple(r)) for r in matrices_to_axis_angles(R)])
    np.testing.assert_allclose(back, R, atol=1e-13)


@pytest.mark.parametrize(("R", "expected"), [
    (np.eye(3), (0.0, 0.0, 1.0, 0.0)),
    (np.diag([1.0, -1.0, -1.0]), (1.0, 0.0, 0.0, math.pi)),
    (np.diag([-1.0, 1.0, -1.0]), (0.0, 1.0, 0.0, math.pi)),
    (np.diag([-1.0, -1.0, 1.0]), (0.0, 0.0, 1.0, math.pi)),
])
def test_identity_and_half_turns(R: np.ndarray, expected: tuple) -> None:
    np.testing.assert_allclose(matrices_to_axis_angles(R[None])[0], expected, atol=1e-15)
    np.testing.assert_allclose(matrix_to_axis_angle(R), expected, atol=1e-15)
