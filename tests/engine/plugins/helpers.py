"""Plugin test fixtures: a project folder with a world and a plugin written on the fly."""

from __future__ import annotations

import textwrap
from pathlib import Path

from engine.plugins import PluginHost
from engine.sim import Simulation

HEADER = "#VRML_SIM R2025a utf8\n"

#: A 1 kg box (DEF BOX) resting on a floor (DEF FLOOR), 10 ms steps.
BOX_ON_FLOOR = """
DEF FLOOR Solid {
  name "floor"
  boundingObject Plane { }
}
DEF BOX Solid {
  translation 0 0 0.1
  name "box"
  boundingObject Box { size 0.2 0.2 0.2 }
  physics Physics { density -1 mass 1 }
}
"""

#: BOX_ON_FLOOR and a second box (DEF BOX2) 1 m away: two candidate pairs.
TWO_BOXES_ON_FLOOR = BOX_ON_FLOOR + """
DEF BOX2 Solid {
  translation 1 0 0.1
  name "box2"
  boundingObject Box { size 0.2 0.2 0.2 }
  physics Physics { density -1 mass 1 }
}
"""

#: A plugin with every callback recording its calls in EVENTS.
RECORDER = """
from engine.plugins.physics import *
EVENTS = []
def webots_physics_init():
    EVENTS.append("init")
def webots_physics_step():
    EVENTS.append("step")
def webots_physics_step_end():
    EVENTS.append("step_end")
def webots_physics_collide(g1, g2):
    EVENTS.append("collide")
    return 0
def webots_physics_cleanup():
    EVENTS.append("cleanup")
"""


def write_plugin(project: Path, name: str, source: str) -> Path:
    """``<project>/plugins/physics/<name>/<name>.py`` holding ``source`` (dedented)."""
    folder = project / "plugins" / "physics" / name
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{name}.py"
    path.write_text(textwrap.dedent(source).lstrip("\n"), encoding="utf-8")
    return path


def write_world(project: Path, nodes: str, plugin: str = "<none>", info: str = "basicTimeStep 10",
                name: str = "w.wbt") -> Path:
    """``<project>/worlds/<name>`` with a WorldInfo naming ``plugin``."""
    worlds = project / "worlds"
    worlds.mkdir(parents=True, exist_ok=True)
    path = worlds / name
    path.write_text(f'{HEADER}WorldInfo {{\n  physics "{plugin}"\n  {info}\n}}\nViewpoint {{\n}}\n'
                    f"{nodes}\n", encoding="utf-8")
    return path


def make_host(tmp_path: Path, source: str, nodes: str = BOX_ON_FLOOR, name: str = "p",
              env: dict | None = None, **kw) -> tuple[Simulation, PluginHost]:
    """A Simulation of ``nodes`` with plugin ``name`` (``source``) loaded."""
    write_plugin(tmp_path, name, source)
    world = write_world(tmp_path, nodes, plugin=name)
    sim = Simulation(str(world))
    host = PluginHost(sim, bundled_dir=tmp_path / "no_bundled", env=env or {}, **kw)
    host.load_world_plugin()
    return sim, host


def plugin_lines(sim: Simulation, source: str = "physics") -> list[str]:
    """The console texts of ``source``."""
    return [t for s, t in sim.console.lines if s == source]
