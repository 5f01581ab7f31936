"""EngineRunner and plugins that hang: load off the GUI thread, Stop, state, save (no Qt)."""

from __future__ import annotations

import threading
import time

from app.runner import EngineRunner
from engine.plugins.watchdog import Budgets
from engine.world import read_world
from tests.app.test_runner import make_project, sync, wait_for

HANG = """from engine.plugins.physics import *
import threading, time
LOADED_IN = threading.current_thread().name
{top}

def webots_physics_step():
    {step}

def webots_physics_cleanup():
    pass
"""


def project(tmp_path, top: str = "", step: str = "pass"):
    return make_project(tmp_path, plugin=HANG.format(top=top, step=step))


def short_budgets(runner: EngineRunner) -> None:
    """Budgets short enough for a test (the watchdog reads them at each check)."""
    runner.host.watchdog.budgets = Budgets(load=0.3, callback=0.3)


def test_the_plugin_is_imported_in_the_engine_thread(tmp_path) -> None:
    with EngineRunner(str(project(tmp_path))) as r:
        sync(r)
        assert r.host.plugin.module.LOADED_IN == "odeon-engine"


def test_an_endless_step_shows_in_the_state_and_stop_gets_control_back(tmp_path) -> None:
    with EngineRunner(str(project(tmp_path, step="while True: pass"))) as r:
        short_budgets(r)
        sync(r)
        r.run_fast()
        assert wait_for(lambda: "busy in webots_physics_step()" in r.state(), 30)
        assert wait_for(lambda: any("webots_physics_step() has run for" in t
                                    for _s, t in list(r.sim.console.lines)), 5)
        time_ms = r.latest_frame().time_ms
        assert r.stop_plugin() is True
        frame = sync(r)
        assert r.state() == "paused" and frame.paused
        assert "stopped by the user" in frame.pause_message
        assert not r.host.running and r.host.plugin is not None  # disabled, not unloaded
        assert frame.time_ms >= time_ms
        r.step_once()  # the world carries on without the plugin
        assert sync(r).time_ms == frame.time_ms + 8


def test_reload_plugin_stops_an_endless_step(tmp_path) -> None:
    world = project(tmp_path, step="while True: pass")
    with EngineRunner(str(world)) as r:
        short_budgets(r)
        sync(r)
        r.run_fast()
        assert wait_for(lambda: "busy" in r.state(), 30)
        source = world.parents[1] / "plugins" / "physics" / "probe" / "probe.py"
        source.write_text(HANG.format(top="FIXED = True", step="pass"))
        r.reload_plugin()
        sync(r)
        assert r.host.running and r.host.plugin.module.FIXED


def test_save_does_not_wait_for_a_plugin_stuck_in_c_code(tmp_path) -> None:
    with EngineRunner(str(project(tmp_path, step="time.sleep(3)"))) as r:
        sync(r)
        r.step_once()
        assert wait_for(lambda: r.host.watchdog.running is not None, 30)
        out = tmp_path / "saved.wbt"
        start = time.monotonic()
        assert r.save_world(str(out), wait=0.2) is False  # written without the engine
        assert time.monotonic() - start < 1.5
        assert read_world(str(out)).find_solid_by_def("BOX") is not None


def test_save_between_steps_when_the_engine_answers(tmp_path) -> None:
    with EngineRunner(str(project(tmp_path))) as r:
        sync(r)
        r.run_fast()
        assert r.save_world(str(tmp_path / "saved.wbt")) is True
        assert (tmp_path / "saved.wbt").is_file()


def test_the_state_says_when_the_engine_thread_is_gone(tmp_path) -> None:
    r = EngineRunner(str(project(tmp_path)))
    sync(r)
    r.run_fast()
    r.stop()
    assert r.state() == "engine stopped"


def test_an_endless_top_level_does_not_block_the_caller_and_can_be_stopped(tmp_path) -> None:
    start = time.monotonic()
    r = EngineRunner(str(project(tmp_path, top="while True: pass")))
    assert time.monotonic() - start < 5  # the constructor does not import the plugin
    try:
        short_budgets(r)
        assert wait_for(lambda: "busy in import()" in r.state(), 30)
        assert r.stop_plugin() is True
        sync(r)
        assert r.host.plugin is None and r.state() == "paused"
        assert any("stopped by the user" in t for _s, t in r.sim.console.lines)
    finally:
        r.stop()


def test_keyboard_interrupt_in_a_step_does_not_kill_the_engine_thread(tmp_path) -> None:
    with EngineRunner(str(project(tmp_path, step="raise KeyboardInterrupt"))) as r:
        sync(r)
        r.run_fast()
        assert wait_for(lambda: "KeyboardInterrupt" in r.latest_frame().pause_message, 30)
        assert r.thread.is_alive() and r.state() == "paused"
        assert "KeyboardInterrupt" in r.latest_frame().pause_message
        assert isinstance(threading.main_thread(), threading.Thread)  # the test process lives
