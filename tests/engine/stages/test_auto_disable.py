"""Stage tests: auto_disable's thresholds, sample window and idle steps/time."""

from __future__ import annotations

import numpy as np

from engine.ode.bodystore import BF_AUTO_DISABLE, BF_DISABLED
from engine.ode.step.islands import auto_disable, build_adjacency
from tests.engine.stages.builders import auto_disable_params, bodies, body_table, joints

HELD = joints([(0, -1)])   # body 0 held to the world (auto-disable needs a joint)


def _run(state, ad, calls: int, h: float, js=HELD, velocities=None) -> list[bool]:
    """Call auto_disable ``calls`` times; before call i set body 0's linear
    velocity to ``velocities[i]`` (3,) when given. Returns body 0's disabled
    flag after each call."""
    table = state[0]
    adjacency = build_adjacency(table.count, js)
    out = []
    for i in range(calls):
        if velocities is not None:
            state[1].lvel[0] = velocities[i]
        auto_disable(table, state[1], ad, adjacency, h)
        out.append(bool(table.flags[0] & BF_DISABLED))
    return out


def _state(extra_flags: int = BF_AUTO_DISABLE):
    return body_table(1, flags=[extra_flags]), bodies(1)


def test_idle_steps_count_down_to_disable_and_stop():
    state = _state()
    state[1].lvel[0] = (0.001, 0.0, 0.0)
    state[1].avel[0] = (0.0, 0.002, 0.0)
    ad = auto_disable_params(1, lin_thr=0.01, ang_thr=0.01, steps=3, time=0.0, samples=1)
    assert _run(state, ad, 3, 0.01) == [False, False, True]
    assert ad.idle_steps[0] == 0
    assert np.all(state[1].lvel[0] == 0.0) and np.all(state[1].avel[0] == 0.0)


def test_idle_time_must_also_elapse():
    # no step count required; 1 s of idle time at h = 0.25 s: the 4th call
    state = _state()
    ad = auto_disable_params(1, lin_thr=0.01, ang_thr=0.01, steps=0, time=1.0, samples=1)
    assert _run(state, ad, 4, 0.25) == [False, False, False, True]
    assert ad.idle_time[0] == 0.0


def test_speed_above_threshold_resets_the_counters():
    state = _state()
    ad = auto_disable_params(1, lin_thr=0.01, ang_thr=0.01, steps=2, time=0.0, samples=1)
    slow = (0.0, 0.0, 0.0)
    fast = (0.02, 0.0, 0.0)   # 0.02 m/s > 0.01 m/s
    assert _run(state, ad, 4, 0.01, velocities=[slow, fast, slow, slow]) == [
        False, False, False, True]


def test_angular_threshold_alone_keeps_the_body_awake():
    state = _state()
    state[1].avel[0] = (0.0, 0.0, 0.5)
    ad = auto_disable_params(1, lin_thr=0.01, ang_thr=0.1, steps=1, time=0.0, samples=1)
    assert _run(state, ad, 5, 0.01) == [False] * 5
    assert ad.idle_steps[0] == 1


def test_window_averages_the_samples():
    # +a, -a, +a average a/3 = 0.01 m/s: under a 0.015 m/s threshold although
    # each sample (0.03 m/s) is above it; the window is full from the 3rd call
    a = 0.03
    v = [(a, 0.0, 0.0), (-a, 0.0, 0.0), (a, 0.0, 0.0), (a, 0.0, 0.0)]
    state = _state()
    ad = auto_disable_params(1, lin_thr=0.015, ang_thr=0.01, steps=1, time=0.0, samples=3)
    assert _run(state, ad, 3, 0.01, velocities=v) == [False, False, True]
    np.testing.assert_array_equal(ad.buf[0, :, 0], [a, -a, a])
    assert ad.sample_index[0] == 0


def test_window_not_full_is_never_idle():
    state = _state()
    ad = auto_disable_params(1, lin_thr=0.01, ang_thr=0.01, steps=1, time=0.0, samples=4)
    assert _run(state, ad, 4, 0.01) == [False, False, False, True]


def test_body_without_joints_is_never_disabled():
    state = _state()
    ad = auto_disable_params(1, lin_thr=0.01, ang_thr=0.01, steps=1, time=0.0, samples=1)
    assert _run(state, ad, 3, 0.01, js=joints([])) == [False] * 3
    assert ad.sample_index[0] == 0     # not even sampled


def test_auto_disable_flag_off_or_zero_samples_never_disable():
    state = _state(extra_flags=0)
    ad = auto_disable_params(1, lin_thr=0.01, ang_thr=0.01, steps=1, time=0.0, samples=1)
    assert _run(state, ad, 3, 0.01) == [False] * 3
    state = _state()
    ad = auto_disable_params(1, lin_thr=0.01, ang_thr=0.01, steps=1, time=0.0, samples=0)
    assert _run(state, ad, 3, 0.01) == [False] * 3
