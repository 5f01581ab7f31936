"""The software renderer leaves one core to the engine (app/render_threads.py)."""

from __future__ import annotations

from app.render_threads import LP_NUM_THREADS, leave_a_core_for_the_engine, render_threads


def test_all_cores_but_one_at_least_one() -> None:
    assert [render_threads(n) for n in (None, 1, 2, 8)] == [1, 1, 1, 7]


def test_a_value_the_user_set_is_kept() -> None:
    env = {LP_NUM_THREADS: "4"}
    assert leave_a_core_for_the_engine(env, cpus=2) == "4" and env[LP_NUM_THREADS] == "4"
    env = {}
    assert leave_a_core_for_the_engine(env, cpus=2) == "1" and env == {LP_NUM_THREADS: "1"}
