"""`Frame`: the immutable snapshot the engine thread publishes for the GUI.

The engine thread builds one `Frame` after a step (or a command) with
`frame_from_simulation` and publishes it by swapping one reference; the GUI
reads the newest one on its 60 Hz timer. Everything in a Frame is a copy:
numpy arrays are read-only, mappings are read-only views, so the GUI never
sees a half-finished step and never races the engine.

Attribute names are a contract with the viewport, plots and scene tree.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType

import numpy as np

from engine import ode
from engine.world import Node

Pose = tuple[np.ndarray, np.ndarray]

MODES = ("realtime", "fast", "paused")


def _frozen(values, shape: tuple[int, ...]) -> np.ndarray:
    """A read-only float64 copy of ``values`` with ``shape``."""
    a = np.array(values, dtype=np.float64).reshape(shape)
    a.setflags(write=False)
    return a


@dataclass(frozen=True)
class ContactInfo:
    """One contact point of the last step.

    ``pos`` (3,) [m] and ``normal`` (3,) in world coordinates, ``depth`` [m],
    ``force`` (3,) [N] on ``solid1`` from the contact joint's feedback (None
    when not recorded), ``solid1``/``solid2`` the Solid `Node`s (None for a
    geom a plugin created itself); ``plugin`` is True for a contact joint the
    physics plugin made itself (in dWebotsGetContactJointGroup()), whose force
    is known only when the plugin set a dJointFeedback on it.
    """

    pos: np.ndarray
    normal: np.ndarray
    depth: float
    force: np.ndarray | None
    solid1: Node | None
    solid2: Node | None
    plugin: bool = False


@dataclass(frozen=True)
class Frame:
    """A snapshot of the simulation (see module docstring).

    ``poses`` maps every Solid `Node` (static ones included) to its world
    ``(position (3,), rotation (3, 3))``; ``colliding`` holds the Solids whose
    boundingObject a plugin's collide callback marked with 2 in the last step;
    ``speed`` is simulated time / wall time over the last second; ``mode`` is
    "realtime", "fast" or "paused"; ``running`` is True when the engine thread
    is stepping; ``paused`` is its opposite, and ``pause_message`` says why
    when an error paused the simulation.
    """

    time_ms: float = 0.0
    steps: int = 0
    poses: Mapping[Node, Pose] = field(default_factory=lambda: MappingProxyType({}))
    contacts: tuple[ContactInfo, ...] = ()
    colliding: frozenset[Node] = frozenset()
    paused: bool = True
    pause_message: str = ""
    speed: float = 0.0
    running: bool = False
    mode: str = "paused"


def _contact_infos(sim) -> tuple[ContactInfo, ...]:
    out = []
    default = list(sim.contacts)
    for cp in default + list(getattr(sim, "plugin_contacts", ())):
        force = None
        fb = cp.feedback
        if fb is not None:
            force = _frozen(np.asarray(fb.f1, dtype=np.float64)[:3], (3,))
        out.append(ContactInfo(_frozen(cp.pos[:3], (3,)), _frozen(cp.normal[:3], (3,)),
                               float(cp.depth), force,
                               cp.solid1.node if cp.solid1 is not None else None,
                               cp.solid2.node if cp.solid2 is not None else None,
                               plugin=len(out) >= len(default)))
    return tuple(out)


def _colliding(sim) -> frozenset[Node]:
    geom_solid = sim.model.geom_solid
    nodes = set()
    for g in sim.colliding_geoms:
        rec = geom_solid.get(g)
        if rec is None:
            body = ode.dGeomGetBody(g) if not ode.dGeomIsSpace(g) else None
            rec = _record_of_body(sim, body)
        if rec is not None:
            nodes.add(rec.node)
    return frozenset(nodes)


def _record_of_body(sim, body):
    if body is None:
        return None
    for rec in sim.model.bodies:
        if rec.body is body:
            return rec
    return None


def frame_from_simulation(sim, *, mode: str, running: bool, speed: float) -> Frame:
    """Snapshot ``sim`` (an `engine.sim.Simulation`); call it in the thread
    that owns the simulation, between steps."""
    poses = {}
    for rec in sim.model.solids:
        f = sim.solid_world_frame(rec)
        poses[rec.node] = (_frozen(f.t, (3,)), _frozen(f.R, (3, 3)))
    paused = bool(sim.paused) or not running
    return Frame(time_ms=float(sim.time_ms), steps=int(sim.steps),
                 poses=MappingProxyType(poses), contacts=_contact_infos(sim),
                 colliding=_colliding(sim), paused=paused,
                 pause_message=str(sim.pause_message), speed=float(speed),
                 running=bool(running) and not sim.paused,
                 mode="paused" if paused else mode)
