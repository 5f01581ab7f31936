"""Fault isolation: an exception in any callback, and console flooding."""

from __future__ import annotations

import numpy as np
import pytest

from engine import ode
from tests.engine.plugins.helpers import make_host, plugin_lines

FAULTY = """
from engine.plugins.physics import *
EVENTS = []
FAIL = {fail!r}
def webots_physics_init():
    EVENTS.append("init")
    if FAIL == "init": 1 / 0
def webots_physics_step():
    EVENTS.append("step")
    if FAIL == "step": helper()
def helper():
    raise RuntimeError("boom in helper")
def webots_physics_step_end():
    EVENTS.append("step_end")
    if FAIL == "step_end": [][3]
def webots_physics_collide(g1, g2):
    EVENTS.append("collide")
    if FAIL == "collide": return {{}}["x"]
    return 0
def webots_physics_draw(pass_, view):
    EVENTS.append("draw")
    if FAIL == "draw": None.x
def webots_physics_cleanup():
    EVENTS.append("cleanup")
    if FAIL == "cleanup": raise ValueError("bad cleanup")
"""

# (callback, line of the failing statement in FAULTY (1-based), exception name)
CASES = [("init", 6, "ZeroDivisionError"), ("step", 11, "RuntimeError"),
         ("step_end", 14, "IndexError"), ("collide", 17, "KeyError"),
         ("draw", 21, "AttributeError"), ("cleanup", 24, "ValueError")]


def _trigger(sim, host, callback) -> None:
    if callback == "draw":
        host.draw(1, None)
    elif callback == "cleanup":
        host.reset()
    elif callback != "init":
        host.step()


@pytest.mark.parametrize(("callback", "line", "exc"), CASES)
def test_an_exception_is_reported_disables_the_plugin_and_pauses(tmp_path, callback, line,
                                                                  exc) -> None:
    sim, host = make_host(tmp_path, FAULTY.format(fail=callback))
    path = str((tmp_path / "plugins" / "physics" / "p" / "p.py").resolve())
    _trigger(sim, host, callback)
    err = host.errors[-1]
    assert (err.callback, err.file, err.line) == (f"webots_physics_{callback}", path, line)
    assert exc in err.message
    errors = plugin_lines(sim, "plugin-error")
    assert errors[0].startswith(f"{path}:{line}: physics plugin 'p' failed in "
                                f"webots_physics_{callback}(): {exc}")
    assert "Traceback (most recent call last):" in errors
    assert any(f'File "{path}", line {line}' in t for t in errors)
    assert not any("host.py" in t for t in errors)
    assert not host.running
    assert sim.paused and f"{path}:{line}" in sim.pause_message
    # nothing else is lost: the world is intact and carries on without the plugin
    box = sim.body_from_def("BOX")
    assert np.isfinite(ode.dBodyGetPosition(box)).all()
    events = list(host.plugin.module.EVENTS)
    sim.resume()
    t = sim.time_ms
    for _ in range(5):
        assert host.step()
    assert host.draw(1, None) is False
    assert host.plugin.module.EVENTS == events
    assert sim.time_ms == t + 50.0
    assert abs(sim.world.find_solid_by_def("BOX").get("translation")[2] - 0.1) < 2e-3


def test_step_callback_traceback_names_every_plugin_frame(tmp_path) -> None:
    sim, host = make_host(tmp_path, FAULTY.format(fail="step"))
    host.step()
    text = host.errors[-1].text
    assert "in webots_physics_step" in text and "in helper" in text
    assert text.rstrip().endswith("RuntimeError: boom in helper")


def test_a_bad_collide_return_value_is_a_fault(tmp_path) -> None:
    sim, host = make_host(tmp_path, """
        def webots_physics_collide(g1, g2):
            return "yes"
        def webots_physics_step():
            pass
        def webots_physics_cleanup():
            pass
    """)
    host.step()
    assert not host.running and sim.paused
    assert "must return 0, 1 or 2" in host.errors[-1].message


def test_error_listeners_hear_faults(tmp_path) -> None:
    sim, host = make_host(tmp_path, FAULTY.format(fail="none"))
    heard = []
    host.error_listeners.append(heard.append)
    host.plugin.module.FAIL = "step"
    host.step()
    assert [e.line for e in heard] == [11]


def test_reset_re_enables_a_plugin_disabled_by_a_step_fault(tmp_path) -> None:
    sim, host = make_host(tmp_path, FAULTY.format(fail="step"))
    host.step()
    assert not host.running
    host.plugin.module.FAIL = "none"
    host.reset()
    assert host.running and not sim.paused
    assert host.plugin.module.EVENTS[-1] == "init"


def test_flooding_is_rate_limited_per_step(tmp_path) -> None:
    sim, host = make_host(tmp_path, """
        from engine.plugins.physics import *
        def webots_physics_step():
            for i in range(1000):
                dWebotsConsolePrintf("line %d", i)
        def webots_physics_cleanup():
            pass
    """, console_limit=50)
    host.step()
    lines = plugin_lines(sim)
    assert len(lines) == 51
    assert lines[49] == "p: line 49"
    assert lines[50].startswith("... 950 lines suppressed")
    host.step()
    assert len(plugin_lines(sim)) == 102


def test_sys_exit_in_a_callback_does_not_end_the_process(tmp_path) -> None:
    sim, host = make_host(tmp_path, """
        import sys
        def webots_physics_step():
            sys.exit(3)
        def webots_physics_cleanup():
            pass
    """)
    host.step()
    assert not host.running and sim.paused
    assert "SystemExit: 3" in host.errors[-1].message
