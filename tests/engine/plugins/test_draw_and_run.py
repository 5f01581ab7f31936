"""The draw pass and its step lock; ``odeon run`` with a plugin world; the template."""

from __future__ import annotations

import threading
import time
from pathlib import Path

from app.main import main
from engine.plugins.loader import CALLBACKS
from tests.engine.plugins.helpers import BOX_ON_FLOOR, make_host, write_plugin, write_world

DRAWER = """
from engine.plugins.physics import *
DRAWS = []
STARTED = None
GO = None
def webots_physics_step():
    if STARTED is not None:
        STARTED.set()
        GO.wait(10)
def webots_physics_draw(pass_, view):
    DRAWS.append((pass_, view, dWebotsGetTime()))
def webots_physics_cleanup():
    pass
"""


def test_draw_passes_arguments_and_runs_with_the_host_current(tmp_path) -> None:
    sim, host = make_host(tmp_path, DRAWER)
    host.step()
    assert host.draw(0, None) and host.draw(1, "camera_robot")
    assert host.plugin.module.DRAWS == [(0, None, 10.0), (1, "camera_robot", 10.0)]


def test_draw_never_runs_while_a_step_is_in_progress(tmp_path) -> None:
    sim, host = make_host(tmp_path, DRAWER)
    mod = host.plugin.module
    mod.STARTED, mod.GO = threading.Event(), threading.Event()
    engine = threading.Thread(target=host.step)
    engine.start()
    try:
        assert mod.STARTED.wait(10)
        assert host.draw(1, None, timeout=0.05) is False
        assert mod.DRAWS == []
    finally:
        mod.GO.set()
        engine.join(10)
    assert not engine.is_alive()
    assert host.draw(1, None) and len(mod.DRAWS) == 1


BUSY_STEPPER = """
import time
from engine.plugins.physics import *
DRAWS = []
def webots_physics_step():
    time.sleep(0.002)  # the step lock is held nearly all the time
def webots_physics_draw(pass_, view):
    DRAWS.append(pass_)
def webots_physics_cleanup():
    pass
"""


def test_a_waiting_draw_goes_before_the_next_step_of_a_thread_stepping_flat_out(tmp_path) -> None:
    sim, host = make_host(tmp_path, BUSY_STEPPER)
    stop = threading.Event()

    def step_flat_out() -> None:
        while not stop.is_set():
            host.step()

    engine = threading.Thread(target=step_flat_out)
    engine.start()
    try:
        results = []
        for _ in range(20):
            results.append(host.draw(1, None, timeout=0.1))
            time.sleep(0.003)
    finally:
        stop.set()
        engine.join(10)
    assert not engine.is_alive()
    assert results == [True] * 20
    assert host.plugin.module.DRAWS == [1] * 20
    assert sim.time_ms > 0.0  # the engine did step meanwhile


def test_no_draw_callback_draws_nothing(tmp_path) -> None:
    sim, host = make_host(tmp_path, "def webots_physics_step(): pass\n"
                                    "def webots_physics_cleanup(): pass\n")
    assert host.draw(1, None) is False


RUN_PLUGIN = """
from engine.plugins.physics import *
def webots_physics_init():
    dWebotsConsolePrintf("init at %g ms", dWebotsGetTime())
def webots_physics_step():
    if dWebotsGetTime() == 20.0:
        dWebotsConsolePrintf("step at %g ms", dWebotsGetTime())
def webots_physics_cleanup():
    dWebotsConsolePrintf("Clean up")
"""


def test_odeon_run_loads_the_world_plugin(tmp_path, capsys) -> None:
    write_plugin(tmp_path, "hello", RUN_PLUGIN)
    world = write_world(tmp_path, BOX_ON_FLOOR, plugin="hello")
    assert main(["run", str(world), "--duration", "0.05"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[:2] == ["[physics] hello: init at 0 ms", "[physics] hello: step at 20 ms"]
    assert "[physics] hello: Clean up" in out
    assert main(["run", str(world), "--duration", "0.05", "--no-plugin"]) == 0
    assert "[physics]" not in capsys.readouterr().out


def test_odeon_run_exits_1_when_the_plugin_fails(tmp_path, capsys) -> None:
    write_plugin(tmp_path, "bad", RUN_PLUGIN.replace('dWebotsConsolePrintf("step', 'print(1/0, "'))
    world = write_world(tmp_path, BOX_ON_FLOOR, plugin="bad")
    assert main(["run", str(world), "--duration", "0.1"]) == 1
    out = capsys.readouterr().out
    assert "[plugin-error]" in out and "ZeroDivisionError" in out
    assert "simulated 0.03 s in 3 steps" in out


def test_the_template_is_a_valid_plugin_with_every_callback(tmp_path) -> None:
    template = Path(__file__).resolve().parents[3] / "resources" / "plugin_template.py"
    sim, host = make_host(tmp_path, template.read_text(), name="mine")
    assert host.running and host.errors == []
    assert set(host.plugin.callbacks) == set(CALLBACKS)
    for callback in CALLBACKS:
        assert host.plugin.callbacks[callback].__doc__.strip()
    for _ in range(3):
        assert host.step()
    assert host.draw(1, None)
    assert sim.contacts   # collide returns 0: default contacts
    host.reset()
    host.close()
    assert sim.console.lines == []
