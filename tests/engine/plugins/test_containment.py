"""Plugins are contained: every exception type, a hang, a bad name, a destroyed world."""

from __future__ import annotations

import io
import threading
import time

import pytest

from engine.headless import run_headless
from engine.plugins import PluginHost
from engine.plugins.watchdog import Budgets
from engine.sim import Simulation
from tests.engine.plugins.helpers import (
    BOX_ON_FLOOR,
    TWO_BOXES_ON_FLOOR,
    make_host,
    write_plugin,
    write_world,
)

SKELETON = """
from engine.plugins.physics import *
def webots_physics_init():
    {init}
def webots_physics_step():
    {step}
def webots_physics_cleanup():
    pass
"""


def plugin(step: str = "pass", init: str = "pass", top: str = "") -> str:
    """A plugin whose step and init run one statement each (and ``top`` at import)."""
    return SKELETON.format(step=step, init=init) + "\n" + top + "\n"


def errors(sim: Simulation) -> list[str]:
    return [t for s, t in sim.console.lines if s == "plugin-error"]


RAISES = {
    "KeyboardInterrupt": "raise KeyboardInterrupt",
    "GeneratorExit": "raise GeneratorExit",
    "SystemExit": "raise SystemExit(3)",
    "custom BaseException": "raise type('Mine', (BaseException,), {})('mine')",
}


@pytest.mark.parametrize("kind", sorted(RAISES))
def test_every_base_exception_in_a_step_is_a_fault(tmp_path, kind) -> None:
    sim, host = make_host(tmp_path, plugin(step=RAISES[kind]))
    assert host.step() is True  # the step itself finishes; the plugin is disabled
    assert not host.running and sim.paused
    assert "failed in webots_physics_step()" in sim.pause_message
    assert any("webots_physics_step" in line for line in errors(sim))


@pytest.mark.parametrize("kind", sorted(RAISES))
def test_every_base_exception_at_import_or_init_is_contained(tmp_path, kind) -> None:
    sim, host = make_host(tmp_path, plugin(top=RAISES[kind]))
    assert not host.running and any("could not be loaded" in t for t in errors(sim))
    sim2, host2 = make_host(tmp_path / "b", plugin(init=RAISES[kind]))
    assert not host2.running and "webots_physics_init" in sim2.pause_message


@pytest.mark.parametrize("value", ["ABSOLUTE", "../../x", "a/b", "x.py", ".."])
def test_a_physics_value_that_is_not_a_name_is_refused(tmp_path, value) -> None:
    marker = tmp_path / "imported"
    spy = f"import pathlib\npathlib.Path({str(marker)!r}).write_text('yes')\n"
    project = tmp_path / "project"
    # where a path would lead: <root>/<value> must be a folder, <root>/<value>.py the file;
    # the root is <project>/plugins/physics, so "../../x" is <project>/x and <tmp>/x.py
    (project / "x").mkdir(parents=True)
    (tmp_path / "x.py").write_text(spy, encoding="utf-8")
    (tmp_path / "elsewhere" / "x").mkdir(parents=True)
    (tmp_path / "elsewhere" / "x.py").write_text(spy, encoding="utf-8")
    if value == "ABSOLUTE":
        value = str(tmp_path / "elsewhere" / "x")
    world = write_world(project, BOX_ON_FLOOR, plugin=value)
    sim = Simulation(str(world))
    host = PluginHost(sim, bundled_dir=tmp_path / "none", env={})
    assert host.load_world_plugin() is False
    assert not marker.exists()  # nothing outside the plugin folders was imported
    text = "\n".join(errors(sim))
    assert "never a path" in text and repr(value) in text and str(world) in text
    assert host.plugin is None


def test_console_printf_processes_the_format_without_arguments(tmp_path) -> None:
    sim, host = make_host(tmp_path, plugin(step='dWebotsConsolePrintf("100%% done")'))
    host.step()
    assert "p: 100% done" in [t for s, t in sim.console.lines if s == "physics"]


@pytest.mark.parametrize("statement, what", [
    ("dWorldDestroy(dBodyGetWorld(dWebotsGetBodyFromDEF('BOX')))", "the world"),
    ("dJointGroupDestroy(dWebotsGetContactJointGroup())", "contact joint group"),
])
def test_destroying_the_simulation_objects_is_a_fault_and_the_world_is_rebuilt(
        tmp_path, statement, what) -> None:
    source = plugin(step=f"if dWebotsGetTime() >= 20: {statement}")
    sim, host = make_host(tmp_path, source)
    for _ in range(5):
        host.step()
    assert sim.paused and not host.running
    assert "webots_physics_step()" in sim.pause_message and what in sim.pause_message
    assert any("physics plugin 'p' failed in webots_physics_step()" in t for t in errors(sim))
    time_ms = sim.time_ms
    sim.resume()  # carry on without the plugin: the rebuilt world steps
    assert host.step() is True and sim.time_ms == time_ms + 10


COLLIDE_DESTROYS = """
calls = []
def webots_physics_collide(g1, g2):
    calls.append(dWebotsGetTime())
    if len(calls) == 1:
        dJointGroupDestroy(dWebotsGetContactJointGroup())
    return 0
"""


def test_destroying_an_object_in_collide_ends_the_pass_at_once(tmp_path) -> None:
    # two candidate pairs (floor-box, floor-box2); the judged pass looks at the
    # simulation's objects only after a destruction: the first call destroys the
    # contact group, and the second pair is never asked
    sim, host = make_host(tmp_path, plugin(top=COLLIDE_DESTROYS), nodes=TWO_BOXES_ON_FLOOR)
    calls = host.plugin.module.calls
    host.step()
    assert calls == [0.0]
    assert sim.paused and not host.running
    assert "webots_physics_collide()" in sim.pause_message
    assert "contact joint group" in sim.pause_message
    time_ms = sim.time_ms
    sim.resume()  # carry on without the plugin: the rebuilt world steps
    assert host.step() is True and sim.time_ms == time_ms + 10 and calls == [0.0]


def test_headless_run_reports_a_destroyed_world_without_a_traceback(tmp_path) -> None:
    write_plugin(tmp_path, "p", plugin(step="dWorldDestroy(dBodyGetWorld("
                                       "dWebotsGetBodyFromDEF('BOX')))"))
    world = write_world(tmp_path, BOX_ON_FLOOR, plugin="p")
    out = io.StringIO()
    assert run_headless(str(world), 0.1, out) == 1
    text = out.getvalue()
    assert "physics plugin 'p' failed in webots_physics_step()" in text
    assert "destroyed the world" in text


def _step_in_thread(host: PluginHost) -> threading.Thread:
    thread = threading.Thread(target=host.step, daemon=True)
    thread.start()
    return thread


def test_an_endless_step_is_reported_and_can_be_stopped(tmp_path) -> None:
    sim, host = make_host(tmp_path, plugin(step="while True: pass"),
                          budgets=Budgets(load=5.0, callback=0.2))
    thread = _step_in_thread(host)
    deadline = time.monotonic() + 5
    while not any("has run for" in t for t in errors(sim)) and time.monotonic() < deadline:
        time.sleep(0.02)
    assert any("plugin 'p': webots_physics_step() has run for" in t for t in errors(sim))
    assert thread.is_alive()
    assert host.stop_callback() is True
    thread.join(5)
    assert not thread.is_alive()
    assert not host.running and sim.paused
    assert "stopped by the user" in sim.pause_message
    assert host.stop_callback() is False  # nothing runs any more


def test_an_endless_top_level_can_be_stopped(tmp_path) -> None:
    write_plugin(tmp_path, "p", plugin(top="while True: pass"))
    sim = Simulation(str(write_world(tmp_path, BOX_ON_FLOOR, plugin="p")))
    host = PluginHost(sim, bundled_dir=tmp_path / "none", env={},
                      budgets=Budgets(load=0.2, callback=0.2))
    loader = threading.Thread(target=host.load_world_plugin, daemon=True)
    loader.start()
    time.sleep(0.5)
    assert any("the module's top level has run for" in t for t in errors(sim))
    assert host.stop_callback() is True
    loader.join(5)
    assert not loader.is_alive() and host.plugin is None
    assert any("could not be loaded: stopped by the user" in t for t in errors(sim))


def test_a_huge_line_every_step_keeps_the_console_bounded(tmp_path) -> None:
    sim, host = make_host(tmp_path, plugin(step="dWebotsConsolePrintf('x' * 10_000_000)"))
    for _ in range(100):
        host.step()
    assert sim.console.kept_chars <= sim.console.max_chars
    assert all(len(t) < 70 * 1024 for _s, t in sim.console.lines)
    assert sim.console.dropped.lines > 0
    assert "older lines" in sim.console.dropped_text()
    assert "more characters cut" in sim.console.lines[-1][1]
