"""Every bundled world loads and runs with `odeon run`; the default world runs cleanly."""

from __future__ import annotations

import re

import pytest

from app.main import main
from engine.plugins.loader import CALLBACKS
from engine.world import read_world
from tests.plugins.helpers import (
    SAMPLES,
    WORLDS,
    errors,
    install_fake_gl,
    physics_lines,
    position,
    run_until,
    running,
    start,
)

ALL_WORLDS = (*SAMPLES, "default")


@pytest.mark.parametrize("name", ALL_WORLDS)
def test_world_loads_and_runs_5_s_with_odeon_run(name: str, capsys) -> None:
    path = WORLDS / f"{name}.wbt"
    w = read_world(str(path))
    assert w.warnings == []
    expected_plugin = "flying_robot" if name == "default" else name
    assert w.world_info.get("physics") == expected_plugin
    assert main(["run", str(path), "--duration", "5"]) == 0
    out = capsys.readouterr().out.splitlines()
    simulated = re.fullmatch(r"\[odeon\] simulated ([0-9.]+) s in \d+ steps "
                             r"\(step(, robust contacts)?\)", out[-1])
    assert simulated and 5.0 <= float(simulated.group(1)) < 5.02  # whole steps
    assert not [line for line in out if line.startswith("[plugin-error]")]
    assert not [line for line in out if line.startswith("[controller:") and "ERROR" in line]
    assert any(line.startswith(f"[physics] {expected_plugin}: ") for line in out)


@pytest.mark.parametrize("name", SAMPLES)
def test_sample_plugin_is_documented_and_complete(name: str) -> None:
    sim, host = start(name)
    module = host.plugin.module
    assert host.plugin.name == name and host.running
    assert len(module.__doc__) > 400 and f"resources/worlds/{name}.wbt" in module.__doc__
    for callback in ("webots_physics_step", "webots_physics_cleanup"):
        assert host.plugin.has(callback)
    assert set(n for n in dir(module) if n.startswith("webots_physics_")) <= set(CALLBACKS)


def test_default_world_runs_2_s_without_pause_or_plugin_error(monkeypatch) -> None:
    with running("default") as run:  # the plugin and the robot's controller
        sim, host = run.sim, run.host
        assert host.name == "flying_robot"
        assert [s.program.name for s in run.robots.sessions] == ["flying_robot"]
        run_until(sim, host, 2.0)
        assert sim.steps == 125 and not sim.paused and host.running
        assert errors(sim) == [] and host.errors == []
        assert physics_lines(sim) == [
            "flying_robot: robot ready, 4 feet, waiting for its controller's commands"]
        assert position(sim, "ROBOT")[2] > 0.3  # it took off on its controller's commands
        assert run.robots.late() == []
        gl = install_fake_gl(monkeypatch)
        assert host.draw(1, None) and len(gl.vertices("GL_LINES")) == 2  # the ray
    assert not [t for s, t in sim.console.lines
                if s.startswith("controller:") and ("ERROR" in t or "Traceback" in t)]
