"""Window updates are delivered without Qt's idle delay (app/update_timing.py)."""

from __future__ import annotations

import os

from app.update_timing import UPDATE_IDLE_TIME, paint_without_idle_delay


def test_zero_unless_the_user_set_a_value() -> None:
    env: dict[str, str] = {}
    assert paint_without_idle_delay(env) == "0" and env == {UPDATE_IDLE_TIME: "0"}
    env = {UPDATE_IDLE_TIME: "5"}
    assert paint_without_idle_delay(env) == "5" and env == {UPDATE_IDLE_TIME: "5"}


def test_the_app_format_setup_sets_it_before_any_window() -> None:
    # tests/app/conftest.py calls app.gl_format.set_default_format at import
    # time, as app.main does before the QApplication exists
    assert os.environ.get(UPDATE_IDLE_TIME) == "0"
