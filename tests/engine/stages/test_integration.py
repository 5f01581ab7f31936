"""Stage tests: prepare_island and advance_island against closed forms.

Step sizes and gravity are powers of two (or sums of few) so that the
semi-implicit Euler sums come out exactly and can be compared with ``==``.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from engine.ode.bodystore import (
    BF_ANG_DAMPING,
    BF_FINITE_ROT,
    BF_FINITE_ROT_AXIS,
    BF_LIN_DAMPING,
    BF_MAX_ANG_SPEED,
    BF_NO_GRAVITY,
)
from engine.ode.step.integrate import advance_island, prepare_island
from tests.engine.stages.builders import bodies, body_table, damping, masses

ONE = np.array([0], dtype=np.int64)   # the island: body row 0


def _step(state, flags, h, gravity=(0.0, 0.0, 0.0), mass=None, damp=None):
    """prepare_island then advance_island (no constraint forces) of body 0."""
    n = state.pos.shape[0]
    mm = masses(n) if mass is None else mass
    prepare_island(ONE, h, np.asarray(gravity, dtype=np.float64), flags, state, mm,
                   np.empty((9, 3)))
    advance_island(ONE, False, np.zeros((n, 6)), h, flags, state, mm.invI_world,
                   damping(n) if damp is None else damp)


def _z_angle(q) -> float:
    """Rotation angle (rad) about +z of a quaternion (w, 0, 0, z)."""
    return 2.0 * math.atan2(q[3], q[0])


def test_free_fall_is_semi_implicit_euler_in_closed_form():
    h = 0.25
    g = -8.0
    mass = masses(1, mass=2.0)
    state = bodies(1, invmass=[0.5])
    flags = body_table(1).flags
    for _ in range(5):
        _step(state, flags, h, (0.0, 0.0, g), mass)
    # v_n = n h g, x_n = h² g n (n + 1) / 2
    assert state.lvel[0, 2] == 5 * h * g
    assert state.pos[0, 2] == h * h * g * 15
    assert state.pos[0, 0] == 0.0 and state.lvel[0, 0] == 0.0
    assert np.all(state.facc[0] == 0.0) and np.all(state.tacc[0] == 0.0)   # cleared


def test_no_gravity_flag_and_constant_velocity():
    state = bodies(1)
    state.lvel[0] = (1.0, 2.0, 0.0)
    _step(state, body_table(1, flags=[BF_NO_GRAVITY]).flags, 0.5, (0.0, 0.0, -8.0))
    assert list(state.pos[0]) == [0.5, 1.0, 0.0]
    assert list(state.lvel[0]) == [1.0, 2.0, 0.0]


def test_world_inverse_inertia_is_rotated_body_inverse_inertia():
    state = bodies(1)
    c, s = math.cos(0.3), math.sin(0.3)
    state.R[0] = [[c, -s, 0.0], [s, c, 0.0], [0.0, 0.0, 1.0]]
    mass = masses(1, inertia=(1.0, 2.0, 4.0))
    prepare_island(ONE, 0.01, np.zeros(3), body_table(1, flags=[BF_NO_GRAVITY]).flags, state,
                   mass, np.empty((9, 3)))
    R = state.R[0]
    expect = R @ np.diag([1.0, 0.5, 0.25]) @ R.T
    np.testing.assert_allclose(mass.invI_world[0], expect, rtol=0, atol=1e-15)


def test_infinitesimal_rotation_angle_is_twice_atan_of_half_step():
    # q' = normalize(q + h/2 [0, w] ⊗ q) from the identity: angle 2 atan(w h / 2)
    w, h = 2.0, 0.1
    state = bodies(1)
    state.avel[0] = (0.0, 0.0, w)
    _step(state, body_table(1).flags, h)
    assert _z_angle(state.q[0]) == pytest.approx(2.0 * math.atan(w * h / 2.0), abs=1e-15)
    assert state.R[0, 1, 0] == pytest.approx(math.sin(_z_angle(state.q[0])), abs=1e-15)


def test_finite_rotation_turns_by_exactly_w_h():
    w, h = 2.0, 0.1
    state = bodies(1)
    state.avel[0] = (0.0, 0.0, w)
    _step(state, body_table(1, flags=[BF_FINITE_ROT]).flags, h)
    assert _z_angle(state.q[0]) == pytest.approx(w * h, abs=1e-15)


def test_finite_rotation_axis_part_is_exact_and_the_rest_uses_half_the_step():
    # axis z: the z part turns finitely; the x part goes the infinitesimal way
    # with h/2 (as ODE 0.16): from the identity, angle 2 atan(w h / 4) about x
    w, h = 2.0, 0.1
    flags = body_table(1, flags=[BF_FINITE_ROT | BF_FINITE_ROT_AXIS]).flags
    damp = damping(1)
    damp.frot_axis[0] = (0.0, 0.0, 1.0)
    state = bodies(1)
    state.avel[0] = (0.0, 0.0, w)
    _step(state, flags, h, damp=damp)
    assert _z_angle(state.q[0]) == pytest.approx(w * h, abs=1e-15)
    state = bodies(1)
    state.avel[0] = (w, 0.0, 0.0)
    _step(state, flags, h, damp=damp)
    q = state.q[0]
    assert 2.0 * math.atan2(q[1], q[0]) == pytest.approx(2.0 * math.atan(w * h / 4.0),
                                                         abs=1e-15)


def test_max_angular_speed_caps_before_rotating():
    damp = damping(1)
    damp.max_ang_speed[0] = 2.0
    state = bodies(1)
    state.avel[0] = (3.0, 4.0, 0.0)        # 5 rad/s, capped to 2 rad/s
    _step(state, body_table(1, flags=[BF_MAX_ANG_SPEED]).flags, 0.01, damp=damp)
    np.testing.assert_allclose(state.avel[0], [1.2, 1.6, 0.0], rtol=1e-15)


@pytest.mark.parametrize(("speed", "damped"), [(2.0, True), (0.5, False), (1.0, False)])
def test_linear_damping_applies_only_above_the_threshold(speed, damped):
    damp = damping(1)
    damp.lin[0] = 0.25
    damp.lin_thr2[0] = 1.0                 # threshold 1 m/s (strictly above damps)
    state = bodies(1)
    state.lvel[0] = (speed, 0.0, 0.0)
    _step(state, body_table(1, flags=[BF_LIN_DAMPING | BF_NO_GRAVITY]).flags, 0.5,
          damp=damp)
    assert state.pos[0, 0] == 0.5 * speed   # damping follows the position update
    assert state.lvel[0, 0] == (0.75 * speed if damped else speed)


@pytest.mark.parametrize(("spin", "damped"), [(4.0, True), (0.5, False)])
def test_angular_damping_applies_only_above_the_threshold(spin, damped):
    damp = damping(1)
    damp.ang[0] = 0.5
    damp.ang_thr2[0] = 1.0
    state = bodies(1)
    state.avel[0] = (0.0, spin, 0.0)
    _step(state, body_table(1, flags=[BF_ANG_DAMPING]).flags, 0.01, damp=damp)
    assert state.avel[0, 1] == (0.5 * spin if damped else spin)
