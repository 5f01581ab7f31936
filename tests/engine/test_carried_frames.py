"""The carried-frame kernels give the bits of the numpy statements they replaced.

`engine.ode.kernels.carried_frames` composes Solid poses and origin velocities
for `SolidPoseTable.read_poses` and `solid_world_poses`. Before it, those were
`detlinalg.matmul` products and ``np.cross`` over gathered rows; recordings
and frames must not change by a bit, so the kernels are checked here against
those statements on random bodies of very different magnitudes, with rows
gathered in any order (a body carrying several frames, frames written out of
order).
"""

from __future__ import annotations

import numpy as np
import pytest

from engine.ode.kernels.carried_frames import carried_velocities, compose_carried
from engine.ode.kernels.detlinalg import matmul
from engine.sim.poses import axis_angle_to_matrix, solid_world_poses


def _numpy_poses(body_R, body_pos, off_R, off_t):
    """The statements `solid_world_poses` used before the kernel (one row per frame)."""
    R = matmul(body_R, off_R)
    t = matmul(body_R, off_t[:, :, None])[:, :, 0] + body_pos
    return R, t


def _random_bodies(rng: np.random.Generator, n: int):
    scale = 10.0 ** rng.uniform(-6, 6, size=(n, 1))
    R = np.array([axis_angle_to_matrix((*rng.normal(size=3), rng.uniform(-7, 7)))
                  for _ in range(n)])
    return (R, rng.normal(size=(n, 3)) * scale, rng.normal(size=(n, 3)) * scale,
            rng.normal(size=(n, 3)) * 10.0 ** rng.uniform(-3, 3, size=(n, 1)))


def test_compose_and_velocities_are_the_bits_of_matmul_and_cross() -> None:
    rng = np.random.default_rng(7)
    n, m, total = 40, 90, 120
    body_R, body_pos, body_lvel, body_avel = _random_bodies(rng, n)
    body_rows = rng.integers(0, n, size=m)  # bodies carry several frames
    out_rows = rng.permutation(total)[:m]   # written out of order, some rows untouched
    off_R = np.array([axis_angle_to_matrix((*rng.normal(size=3), rng.uniform(-4, 4)))
                      for _ in range(m)])
    off_t = rng.normal(size=(m, 3)) * 10.0 ** rng.uniform(-4, 2, size=(m, 1))

    R_out, t_out, v_out = np.full((total, 3, 3), 5.0), np.full((total, 3), 5.0), np.zeros((total, 3))
    compose_carried(body_R, body_pos, body_rows, off_R, off_t, out_rows, R_out, t_out)
    carried_velocities(body_pos, body_lvel, body_avel, body_rows, t_out, out_rows, v_out)

    R, t = _numpy_poses(body_R[body_rows], body_pos[body_rows], off_R, off_t)
    v = body_lvel[body_rows] + np.cross(body_avel[body_rows], t - body_pos[body_rows])
    assert np.array_equal(R_out[out_rows], R) and np.array_equal(t_out[out_rows], t)
    assert np.array_equal(v_out[out_rows], v)
    untouched = np.setdiff1d(np.arange(total), out_rows)
    assert (R_out[untouched] == 5.0).all() and (t_out[untouched] == 5.0).all()
    assert (v_out[untouched] == 0.0).all()


def test_solid_world_poses_keeps_its_bits_and_checks_its_rows() -> None:
    rng = np.random.default_rng(11)
    body_R, body_pos, _, _ = _random_bodies(rng, 30)
    off_R, off_t = _random_bodies(rng, 30)[0], rng.normal(size=(30, 3))
    R, t = solid_world_poses(body_R, body_pos, off_R, off_t)
    R_ref, t_ref = _numpy_poses(body_R, body_pos, off_R, off_t)
    assert np.array_equal(R, R_ref) and np.array_equal(t, t_ref)
    # one body given as (3, 3) and (3,), as Simulation.solid_world_frame passes it
    R1, t1 = solid_world_poses(body_R[3], body_pos[3], off_R[3], off_t[3])
    assert np.array_equal(R1[0], R_ref[3]) and np.array_equal(t1[0], t_ref[3])
    with pytest.raises(ValueError, match="one of each per Solid"):
        solid_world_poses(body_R[:2], body_pos[:2], off_R, off_t)


def test_a_spinning_body_carries_a_point_at_omega_cross_r() -> None:
    # a body at the origin turning at 2 rad/s about z, moving at 1 m/s along x:
    # a point 0.5 m along its x axis moves at (1, 0, 0) + (0, 0, 2) x (0.5, 0, 0)
    body_R, body_pos = np.eye(3)[None], np.zeros((1, 3))
    lvel, avel = np.array([[1.0, 0.0, 0.0]]), np.array([[0.0, 0.0, 2.0]])
    rows = np.zeros(1, np.intp)
    R, t, v = np.empty((1, 3, 3)), np.empty((1, 3)), np.empty((1, 3))
    compose_carried(body_R, body_pos, rows, np.eye(3)[None], np.array([[0.5, 0.0, 0.0]]),
                    rows, R, t)
    carried_velocities(body_pos, lvel, avel, rows, t, rows, v)
    assert np.array_equal(t[0], [0.5, 0.0, 0.0]) and np.array_equal(v[0], [1.0, 1.0, 0.0])
