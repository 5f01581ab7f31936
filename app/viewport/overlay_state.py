"""`OverlayState`: what the viewport's overlays show, without Qt or GL.

The state holds the overlay switches (ground grid, boundingObjects, contact
points, contact forces, trails; for the robust contact model: boundary
layers, contact states, cluster sizes), the data the overlays draw (the shown
frame's contacts and colliding Solids, the recorded `Trails`) and the
physics plugin's draw callable. Every change is announced to the observers
as an event name: a switch's name (`SWITCHES`) when it is flipped, or
`FRAME`, `TRAIL_SOLIDS`, `PLUGIN` when that data changed. The renderer's
registered overlay drawers (app/viewport/overlay_drawers.py) observe it and
redraw what the event concerns; nothing here draws.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from types import MappingProxyType
from typing import Any

import numpy as np

from app.viewport.overlays import Trails
from engine.sim.frame import NO_CONTACTS, ContactSet, Frame

GRID, BOUNDING_OBJECTS, CONTACTS, FORCES, TRAILS = (
    "grid", "bounding_objects", "contacts", "forces", "trails")
#: The overlay switches and their initial state (the grid only is on).
SWITCHES = {GRID: True, BOUNDING_OBJECTS: False, CONTACTS: False, FORCES: False,
            TRAILS: False}
BOUNDARY_LAYERS, CONTACT_STATES, CLUSTER_SIZES = (
    "boundary_layers", "contact_states", "cluster_sizes")
#: The robust contact model's overlay switches (all off at first): padded shells
#: around the boundingObjects, contacts coloured by state, contacts sized by cluster.
ROBUST_SWITCHES = {BOUNDARY_LAYERS: False, CONTACT_STATES: False, CLUSTER_SIZES: False}
#: Data events: a new frame (its contacts, colliding Solids, trail points), the
#: tracked Solids or their recorded points changed, the plugin's draw callable changed.
FRAME, TRAIL_SOLIDS, PLUGIN = "frame", "trail_solids", "plugin"

Observer = Callable[[str], None]
PluginDraw = Callable[[int], object]


class OverlayState:
    """Overlay switches and data, observed by the drawers (module docstring)."""

    def __init__(self) -> None:
        self._on = {**SWITCHES, **ROBUST_SWITCHES}
        self._observers: list[Observer] = []
        self.frame: Frame | None = None
        self.trails = Trails()
        self.plugin_draw: PluginDraw | None = None

    # ----- observing --------------------------------------------------------------------
    def observe(self, observer: Observer) -> None:
        """Call ``observer(event)`` after every change (in the order they registered)."""
        self._observers.append(observer)

    def _announce(self, event: str) -> None:
        for observer in self._observers:
            observer(event)

    # ----- switches ----------------------------------------------------------------------
    def is_on(self, switch: str) -> bool:
        """Whether overlay ``switch`` (one of `SWITCHES`, `ROBUST_SWITCHES`) is shown
        (KeyError if unknown)."""
        return self._on[switch]

    def set_on(self, switch: str, on: bool) -> None:
        """Show or hide overlay ``switch`` (KeyError if unknown); announces ``switch``."""
        if switch not in self._on:
            raise KeyError(switch)
        self._on[switch] = bool(on)
        self._announce(switch)

    # ----- data ---------------------------------------------------------------------------
    @property
    def contacts(self) -> ContactSet:
        """The shown frame's contacts; empty without a frame."""
        return self.frame.contacts if self.frame is not None else NO_CONTACTS

    @property
    def paddings(self) -> Mapping[Any, float]:
        """The shown frame's boundary-layer paddings: Solid Node -> padding [m]."""
        return self.frame.paddings if self.frame is not None else MappingProxyType({})

    @property
    def colliding(self) -> frozenset:
        """The Solid Nodes of the shown frame that touch something."""
        return self.frame.colliding if self.frame is not None else frozenset()

    def set_frame(self, frame: Frame | None) -> None:
        """Show ``frame`` (or None): its contacts and colliding Solids, and the positions
        of the tracked Solids appended to their trails; announces `FRAME`."""
        self.frame = frame
        if frame is not None and self.trails.paths:
            poses = frame.poses
            self.trails.record({n: np.asarray(poses[n][0]) for n in self.trails.paths
                                if n in poses}, frame.time_ms)
        self._announce(FRAME)

    def set_trail_solids(self, nodes: Sequence[Any]) -> None:
        """Record the trails of exactly ``nodes`` (kept paths stay); announces `TRAIL_SOLIDS`."""
        self.trails.set_solids(list(nodes))
        self._announce(TRAIL_SOLIDS)

    def clear_trails(self) -> None:
        """Forget the recorded trail points (the Solids stay tracked); announces
        `TRAIL_SOLIDS`."""
        self.trails.clear()
        self._announce(TRAIL_SOLIDS)

    def set_plugin_draw(self, fn: PluginDraw | None) -> None:
        """``fn(pass_)`` draws with the world's plugin (None: no plugin drawing);
        announces `PLUGIN`."""
        self.plugin_draw = fn
        self._announce(PLUGIN)
