"""Hot reload of an edited plugin, syntax errors, reset (cleanup, init, same globals)."""

from __future__ import annotations

import textwrap

import pytest

from engine import ode
from tests.engine.plugins.helpers import RECORDER, make_host, plugin_lines

IDLE = """
from engine.plugins.physics import *
def webots_physics_init():
    global BOX
    BOX = dWebotsGetBodyFromDEF("BOX")
def webots_physics_step():
    pass
def webots_physics_cleanup():
    pass
"""

LIFT = IDLE.replace("""def webots_physics_step():
    pass""", """def webots_physics_step():
    dBodyAddForce(BOX, 0.0, 0.0, 2.0 * 9.81)   # twice the weight of the 1 kg box""")


def _source(tmp_path):
    return tmp_path / "plugins" / "physics" / "p" / "p.py"


def test_reload_applies_the_edited_source_and_keeps_the_state(tmp_path) -> None:
    sim, host = make_host(tmp_path, IDLE)
    for _ in range(10):
        host.step()
    box = sim.body_from_def("BOX")
    z0 = float(ode.dBodyGetPosition(box)[2])
    assert z0 == pytest.approx(0.1, abs=2e-3)
    t0 = sim.time_ms
    _source(tmp_path).write_text(LIFT)
    assert host.reload_plugin()
    assert sim.time_ms == t0
    assert float(ode.dBodyGetPosition(box)[2]) == z0
    for _ in range(10):
        host.step()
    # net upward acceleration g for 0.1 s: v = 0.981 m/s, rise = g t^2 / 2 ~ 0.049 m
    vz = float(ode.dBodyGetLinearVel(box)[2])
    assert vz == pytest.approx(0.981, rel=0.05)
    assert float(ode.dBodyGetPosition(box)[2]) - z0 == pytest.approx(0.049, rel=0.15)


def test_a_syntax_error_leaves_the_simulation_running_without_the_plugin(tmp_path) -> None:
    sim, host = make_host(tmp_path, LIFT)
    host.step()
    broken = LIFT + "\ndef webots_physics_step_end(:\n    pass\n"
    line = broken.count("\n", 0, broken.index("def webots_physics_step_end(")) + 1
    _source(tmp_path).write_text(broken)
    assert not host.reload_plugin()
    path = str(_source(tmp_path).resolve())
    errors = plugin_lines(sim, "plugin-error")
    assert errors[0].startswith(f"{path}:{line}: plugin 'p' could not be loaded: SyntaxError")
    assert (host.errors[-1].file, host.errors[-1].line) == (path, line)
    assert not sim.paused and host.plugin is None
    box = sim.body_from_def("BOX")
    for _ in range(20):
        assert host.step()
    assert float(ode.dBodyGetLinearVel(box)[2]) <= 0.05   # no lift any more
    # fixing the file and reloading brings the plugin back
    _source(tmp_path).write_text(LIFT)
    assert host.reload_plugin() and host.running


def test_an_error_in_top_level_code_is_a_load_failure(tmp_path) -> None:
    sim, host = make_host(tmp_path, "import no_such_module_here\n" + IDLE)
    assert host.plugin is None and not sim.paused
    assert host.errors[-1].line == 1
    assert "ModuleNotFoundError" in host.errors[-1].message


def test_reload_runs_cleanup_of_the_old_module_then_init_of_the_new(tmp_path) -> None:
    sim, host = make_host(tmp_path, RECORDER)
    old = host.plugin.module
    _source(tmp_path).write_text(textwrap.dedent(RECORDER).replace('"init"', '"init v2"'))
    host.reload_plugin()
    assert old.EVENTS == ["init", "cleanup"]
    assert host.plugin.module.EVENTS == ["init v2"]


COUNTING = RECORDER + """
INITS = 0
_record_init = webots_physics_init
def webots_physics_init():
    global INITS
    INITS += 1
    _record_init()
"""


def test_reset_is_cleanup_then_init_with_the_same_module_globals(tmp_path) -> None:
    sim, host = make_host(tmp_path, COUNTING)
    module = host.plugin.module
    for _ in range(5):
        host.step()
    box = sim.body_from_def("BOX")
    ode.dBodySetPosition(box, 0, 0, 3)
    del module.EVENTS[:]
    host.reset()
    assert host.plugin.module is module
    assert module.EVENTS == ["cleanup", "init"]
    assert module.INITS == 2
    assert sim.time_ms == 0.0
    assert float(ode.dBodyGetPosition(box)[2]) == pytest.approx(0.1)
    host.step()
    assert module.EVENTS[-1] == "step_end"


def test_reload_world_is_cleanup_fresh_parse_and_fresh_import(tmp_path) -> None:
    sim, host = make_host(tmp_path, RECORDER)
    old = host.plugin.module
    host.step()
    assert host.reload_world()
    assert old.EVENTS[-1] == "cleanup"
    assert host.plugin.module is not old and host.plugin.module.EVENTS == ["init"]
    assert sim.time_ms == 0.0
    host.step()
    assert host.plugin.module.EVENTS[-1] == "step_end"


def test_unload_and_close(tmp_path) -> None:
    sim, host = make_host(tmp_path, RECORDER)
    module = host.plugin.module
    host.close()
    assert module.EVENTS == ["init", "cleanup"]
    assert sim.collide_hook is None and sim.after_collide is None
    assert sim.step()


def test_tracebacks_after_a_reload_quote_the_new_source(tmp_path) -> None:
    def version(statement: str) -> str:
        return IDLE.replace("    pass\ndef webots_physics_cleanup",
                            f"    {statement}\ndef webots_physics_cleanup")
    sim, host = make_host(tmp_path, version("x = undefined_v1"))
    host.step()
    assert "x = undefined_v1" in host.errors[-1].text
    _source(tmp_path).write_text(version("x = undefined_name_in_version_2"))
    assert host.reload_plugin()
    sim.resume()
    host.step()
    assert "x = undefined_name_in_version_2" in host.errors[-1].text
