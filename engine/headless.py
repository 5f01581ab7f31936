"""Headless runs (``odeon run``): step a world, stream the console, log trajectories.

The CSV has one row per body per step: ``time_ms, solid, x, y, z, qw, qx, qy,
qz`` — the simulated time in ms written exactly (the shortest text that reads
back to the same double, so 1 ms steps stay distinct however long the run),
the Solid's name (its DEF when it has one) and its world pose (the Solid's
frame, not the body's centre of mass), metres and a unit quaternion.

The world's physics plugin (``WorldInfo.physics``) is loaded unless
``plugin=False``; its cleanup runs at the end of the run.

This module sits above both ``engine.sim`` and ``engine.plugins`` (it runs a
Simulation under a PluginHost), so it is a top-level module of ``engine``.
"""

from __future__ import annotations

import csv
from typing import TextIO

from engine.controllers import ControllerHost
from engine.heap import settle_loaded_world
from engine.plugins import PluginHost
from engine.sim.console import Console
from engine.sim.poses import matrix_to_quaternion
from engine.sim.simulation import Simulation

#: Seconds a controller may stay silent in ``odeon run`` before it is stopped.
CONTROLLER_TIMEOUT = 60.0
CSV_HEADER = ("time_ms", "solid", "x", "y", "z", "qw", "qx", "qy", "qz")


def solid_name(rec) -> str:
    """The DEF name of a Solid if it has one, else its ``name`` field."""
    return rec.node.def_name or rec.node.get("name")


def _time_text(time_ms: float) -> str:
    """Simulated time [ms] written exactly (shortest round-trip text, ``5`` not ``5.0``)."""
    text = repr(float(time_ms))
    return text[:-2] if text.endswith(".0") else text


def trajectory_rows(sim: Simulation) -> list[tuple]:
    """One row per body-owning Solid at the current time."""
    rows = []
    for rec in sim.model.bodies:
        f = sim.solid_world_frame(rec)
        q = matrix_to_quaternion(f.R)
        rows.append((_time_text(sim.time_ms), solid_name(rec), *(repr(float(v)) for v in f.t),
                     *(repr(float(v)) for v in q)))
    return rows


def run_headless(world_path: str, duration_s: float, out: TextIO, stepper: str | None = None,
                 log_path: str | None = None, plugin: bool = True,
                 contacts: str | None = None, controllers: bool = True,
                 controller_timeout: float = CONTROLLER_TIMEOUT) -> int:
    """Run ``world_path`` for ``duration_s`` simulated seconds (with the world's
    physics plugin unless ``plugin`` is False, and its robots' controllers
    unless ``controllers`` is False: a controller silent for
    ``controller_timeout`` s is stopped; ``contacts`` "default" or "robust"
    overrides the world's contact model); 0 on success, 1 when the
    simulation paused on an error (a plugin exception included)."""
    console = Console()
    console.add_listener(lambda source, text: out.write(f"[{source}] {text}\n"))
    sim = Simulation(world_path, console=console, stepper=stepper, contacts=contacts)
    host = None
    if plugin:
        host = PluginHost(sim)
        host.load_world_plugin()
    robots = None
    if controllers:
        robots = ControllerHost(
            sim, to_plugin=host.deliver_from_robot if host is not None else None,
            from_plugin=host.take_for_robots if host is not None else None,
            give_up_after=controller_timeout)
        robots.start()
    settle_loaded_world()  # full collections skip the world's objects (engine/heap.py)
    writer = None
    handle = None
    try:
        if log_path:
            handle = open(log_path, "w", newline="", encoding="utf-8")
            writer = csv.writer(handle)
            writer.writerow(CSV_HEADER)
            writer.writerows(trajectory_rows(sim))
        end = duration_s * 1000.0
        while sim.time_ms < end - 1e-9:
            if not (host.step() if host is not None else sim.step()):
                break
            if writer is not None:
                writer.writerows(trajectory_rows(sim))
            if robots is not None and robots.quit_status is not None:
                out.write(f"[odeon] a supervisor ended the simulation (status "
                          f"{robots.quit_status})\n")
                break
    finally:
        if robots is not None:
            robots.stop()
        if handle is not None:
            handle.close()
        if host is not None:
            host.close()
    model = f", {sim.contact_model} contacts" if sim.contact_model != "default" else ""
    out.write(f"[odeon] simulated {sim.time_ms / 1000.0:g} s in {sim.steps} steps "
              f"({sim.stepper}{model})\n")
    return 1 if sim.paused else 0
