"""Loading: missing callbacks, not found, working directory during init, optional init."""

from __future__ import annotations

import os

from engine.plugins import PluginHost
from engine.sim import Simulation
from tests.engine.plugins.helpers import RECORDER, make_host, write_plugin, write_world


def _errors(sim) -> list[str]:
    return [t for s, t in sim.console.lines if s == "plugin-error"]


def test_missing_step_and_cleanup_are_named_and_the_plugin_does_not_run(tmp_path) -> None:
    sim, host = make_host(tmp_path, """
        EVENTS = []
        def webots_physics_init():
            EVENTS.append("init")
    """)
    path = tmp_path / "plugins" / "physics" / "p" / "p.py"
    errors = _errors(sim)
    assert f"Function webots_physics_step() missing in '{path}'." in errors
    assert f"Function webots_physics_cleanup() missing in '{path}'." in errors
    assert "You need to implement this function to activate the 'p' plugin." in errors
    assert host.plugin is None and not host.running
    assert sim.step() and not sim.paused


def test_missing_cleanup_only(tmp_path) -> None:
    sim, host = make_host(tmp_path, "def webots_physics_step():\n    pass\n")
    errors = _errors(sim)
    assert any("webots_physics_cleanup() missing" in e for e in errors)
    assert not any("webots_physics_step() missing" in e for e in errors)
    assert not host.running


def test_step_and_cleanup_suffice(tmp_path) -> None:
    sim, host = make_host(tmp_path, """
        def webots_physics_step():
            pass
        def webots_physics_cleanup():
            pass
    """)
    assert host.running and _errors(sim) == []
    assert host.step()


def test_init_runs_in_the_plugin_folder_and_the_directory_is_restored(tmp_path) -> None:
    before = os.getcwd()
    sim, host = make_host(tmp_path, RECORDER + """
import os
INIT_DIR = None
STEP_DIR = None
_old_init = webots_physics_init
def webots_physics_init():
    global INIT_DIR
    INIT_DIR = os.getcwd()
    with open("written_by_init.txt", "w") as f:
        f.write("ok")
def webots_physics_step():
    global STEP_DIR
    STEP_DIR = os.getcwd()
""")
    folder = tmp_path / "plugins" / "physics" / "p"
    assert host.plugin.module.INIT_DIR == str(folder.resolve())
    assert (folder / "written_by_init.txt").read_text() == "ok"
    assert os.getcwd() == before
    host.step()
    assert host.plugin.module.STEP_DIR == before


def test_plugin_not_found_lists_the_searched_folders(tmp_path) -> None:
    world = write_world(tmp_path, "", plugin="ghost")
    sim = Simulation(str(world))
    host = PluginHost(sim, bundled_dir=tmp_path / "bundled", env={})
    assert not host.load_world_plugin()
    text = _errors(sim)[0]
    assert text.startswith("Plugin 'ghost' not found. Search in: ")
    assert str(tmp_path / "plugins" / "physics" / "ghost") in text
    assert str(tmp_path / "bundled" / "ghost") in text


def test_folder_without_source_is_an_error(tmp_path) -> None:
    (tmp_path / "plugins" / "physics" / "p").mkdir(parents=True)
    world = write_world(tmp_path, "", plugin="p")
    sim = Simulation(str(world))
    host = PluginHost(sim, bundled_dir=tmp_path / "bundled", env={})
    assert not host.load_world_plugin()
    assert "p.py not found" in _errors(sim)[0]
    write_plugin(tmp_path, "p", RECORDER)
    assert host.reload_plugin() and host.plugin.module.EVENTS == ["init"]


def test_none_loads_nothing(tmp_path) -> None:
    write_plugin(tmp_path, "p", RECORDER)
    world = write_world(tmp_path, "", plugin="<none>")
    sim = Simulation(str(world))
    host = PluginHost(sim, bundled_dir=tmp_path / "bundled", env={})
    assert not host.load_world_plugin()
    assert host.plugin is None and sim.console.lines == []


def test_each_load_is_a_fresh_module(tmp_path) -> None:
    sim, host = make_host(tmp_path, RECORDER)
    first = host.plugin.module
    assert host.reload_plugin()
    assert host.plugin.module is not first
    assert first.EVENTS == ["init", "cleanup"]
    assert host.plugin.module.EVENTS == ["init"]
