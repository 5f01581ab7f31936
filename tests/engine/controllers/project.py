"""Worlds with controllers for the tests: a project folder in ``tmp_path``
(``worlds/<world>.wbt`` and ``controllers/<name>/<name>.py``), run through a
real Simulation + ControllerHost (+ PluginHost when the world names a plugin).

Controllers report to the test by printing ``RESULT <json>`` lines; `Run.results`
collects them per robot.
"""

from __future__ import annotations

import json
import textwrap
from dataclasses import dataclass, field
from pathlib import Path

from engine.controllers import ControllerHost
from engine.plugins import PluginHost
from engine.sim.simulation import Simulation

HEADER = "#VRML_SIM R2023b utf8\n"


def make_project(root: Path, world: str, controllers: dict[str, str],
                 plugins: dict[str, str] | None = None, name: str = "test") -> Path:
    """Write the world text and controller sources; the world's path."""
    (root / "worlds").mkdir(parents=True, exist_ok=True)
    path = root / "worlds" / f"{name}.wbt"
    path.write_text(HEADER + textwrap.dedent(world))
    for ctrl, source in controllers.items():
        folder = root / "controllers" / ctrl
        folder.mkdir(parents=True, exist_ok=True)
        (folder / f"{ctrl}.py").write_text(textwrap.dedent(source))
    for plugin, source in (plugins or {}).items():
        folder = root / "plugins" / "physics" / plugin
        folder.mkdir(parents=True, exist_ok=True)
        (folder / f"{plugin}.py").write_text(textwrap.dedent(source))
    return path


@dataclass
class Run:
    """A running world: simulation, controller host, plugin host, console lines."""

    sim: Simulation
    robots: ControllerHost
    plugin: PluginHost | None
    lines: list[tuple[str, str]] = field(default_factory=list)

    def step(self, n: int = 1) -> None:
        for _ in range(n):
            ok = self.plugin.step() if self.plugin is not None else self.sim.step()
            assert ok, f"step failed: {self.sim.pause_message}"

    def results(self, robot: str) -> list:
        """The ``RESULT`` values a robot's controller printed, in order."""
        prefix = f"[{robot}] RESULT "
        return [json.loads(text[len(prefix):]) for source, text in self.lines
                if source == f"controller:{robot}" and text.startswith(prefix)]

    def text(self, robot: str | None = None) -> str:
        return "\n".join(t for s, t in self.lines
                         if robot is None or s == f"controller:{robot}")

    def stop(self) -> None:
        self.robots.stop()
        if self.plugin is not None:
            self.plugin.close()


def start(world_path: Path, plugin: bool = False, **host_options) -> Run:
    """Load the world and start its controllers (and its plugin when asked)."""
    sim = Simulation(str(world_path))
    lines: list[tuple[str, str]] = []
    sim.console.add_listener(lambda s, t: lines.append((s, t)))
    host = PluginHost(sim) if plugin else None
    if host is not None:
        host.load_world_plugin()
    robots = ControllerHost(
        sim, to_plugin=host.deliver_from_robot if host else None,
        from_plugin=host.take_for_robots if host else None,
        **({"give_up_after": 30.0} | host_options))
    robots.start()
    return Run(sim, robots, host, lines)
