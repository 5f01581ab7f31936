"""Helpers for the tests of the bundled sample worlds and plugins."""

from __future__ import annotations

import sys
import types
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from engine import ode
from engine.controllers import ControllerHost
from engine.plugins import PluginHost
from engine.sim import Simulation
from engine.world import World, read_world

ROOT = Path(__file__).resolve().parents[2]
WORLDS = ROOT / "resources" / "worlds"
SAMPLES = ("flying_robot", "contact_points", "blimp", "floating_body", "robust_rover")


def world(name: str) -> World:
    """The parsed bundled world ``resources/worlds/<name>.wbt`` (to edit before running)."""
    return read_world(str(WORLDS / f"{name}.wbt"))


def start(source: str | World, plugin: bool = True) -> tuple[Simulation, PluginHost | None]:
    """A Simulation of ``source`` (a bundled world name or a World) with its
    WorldInfo.physics plugin loaded (the bundled one), or without a plugin."""
    w = world(source) if isinstance(source, str) else source
    sim = Simulation(w)
    if not plugin:
        return sim, None
    host = PluginHost(sim, env={})
    assert host.load_world_plugin(), [t for _, t in sim.console.lines]
    return sim, host


@dataclass
class Run:
    """A running bundled world: its Simulation, its plugin's host (None without
    the plugin) and its controllers' host (None without controllers)."""

    sim: Simulation
    host: PluginHost | None
    robots: ControllerHost | None


@contextmanager
def running(source: str | World, plugin: bool = True,
            controllers: bool = True) -> Iterator[Run]:
    """`start` plus the robots' controllers (the bundled ``controllers/``), wired
    to the plugin as the app does; everything is stopped on exit."""
    sim, host = start(source, plugin)
    robots = None
    if controllers:
        robots = ControllerHost(
            sim, env={}, give_up_after=30.0,
            to_plugin=host.deliver_from_robot if host is not None else None,
            from_plugin=host.take_for_robots if host is not None else None)
        robots.start()
    try:
        yield Run(sim, host, robots)
    finally:
        if robots is not None:
            robots.stop()
        if host is not None:
            host.close()


def step(sim: Simulation, host: PluginHost | None) -> None:
    """One step (through the host when there is one); fails on a pause."""
    assert (host.step() if host is not None else sim.step()), sim.pause_message


def run_until(sim: Simulation, host: PluginHost | None, t_s: float) -> None:
    """Step until the simulated time reaches ``t_s`` seconds."""
    while sim.time_ms < t_s * 1000.0 - 1e-9:
        step(sim, host)


def position(sim: Simulation, def_name: str) -> np.ndarray:
    """World position (3,) of the body (centre of mass) of Solid ``def_name``."""
    return ode.dBodyGetPosition(sim.body_from_def(def_name))


def physics_lines(sim: Simulation) -> list[str]:
    """The plugin's console output."""
    return [t for s, t in sim.console.lines if s == "physics"]


def controller_lines(sim: Simulation, robot: str) -> list[str]:
    """What the controller of robot ``robot`` printed (without its ``[robot]`` prefix)."""
    prefix = f"[{robot}] "
    return [t[len(prefix):] for s, t in sim.console.lines
            if s == f"controller:{robot}" and t.startswith(prefix)]


def errors(sim: Simulation) -> list[str]:
    """Console lines of plugin failures."""
    return [t for s, t in sim.console.lines if s == "plugin-error"]


class FakeGL(types.ModuleType):
    """A stand-in for ``OpenGL.GL`` recording the calls a draw callback makes:
    ``calls`` is a list of ``(function name, args)``; each ``GL_*`` constant is
    a distinct bit (so they can be or-ed), ``constants`` maps them to names."""

    def __init__(self) -> None:
        super().__init__("OpenGL.GL")
        self.calls: list[tuple[str, tuple]] = []
        self.constants: dict[str, int] = {}

    def __getattr__(self, name: str):
        if name.startswith("GL_"):
            return self.constants.setdefault(name, 1 << len(self.constants))
        if name.startswith("gl"):
            return lambda *args: self.calls.append((name, args))
        raise AttributeError(name)

    def vertices(self, mode: str) -> list[np.ndarray]:
        """The glVertex3f points given between glBegin(mode) and glEnd."""
        out, inside = [], False
        for name, args in self.calls:
            if name == "glBegin":
                inside = args[0] == getattr(self, mode)
            elif name == "glEnd":
                inside = False
            elif name == "glVertex3f" and inside:
                out.append(np.array(args, dtype=float))
        return out


def install_fake_gl(monkeypatch) -> FakeGL:
    """Make ``import OpenGL.GL`` give a `FakeGL` for the rest of the test."""
    gl = FakeGL()
    package = types.ModuleType("OpenGL")
    package.GL = gl
    monkeypatch.setitem(sys.modules, "OpenGL", package)
    monkeypatch.setitem(sys.modules, "OpenGL.GL", gl)
    return gl
