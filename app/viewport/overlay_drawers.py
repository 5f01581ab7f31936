"""The viewport's overlay drawers: each observes the `OverlayState` and draws one overlay.

A drawer is registered for the stages of a paint it draws in (`Stage`):
`FIRST` (after clearing, before anything: the plugin's pass 0),
`UNDER_SHAPES` (the ground grid), `OVER_SHAPES` (boundingObjects, then
contacts and forces, then trails) and `LAST` (the plugin's pass 1). The
renderer makes one of each registered drawer class (`drawer_classes`, in
registration order) and, at each stage, calls ``draw(ctx, stage)`` on the
drawers registered for it; a drawer observes the state's events and
recomputes its GL data lazily, only while its overlay is on. Adding an
overlay = a switch or data in the state and one drawer class here.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from enum import IntEnum
from typing import Any

import numpy as np
from OpenGL import GL

from app.gl_binding import gl_error_checks
from app.viewport import overlay_state as ov
from app.viewport.line_drawer import LineBatch, LineDrawer
from app.viewport.mesh_drawer import MODE_LIT, MeshDrawer, MeshProgram
from app.viewport.overlays import contact_lines, grid_lines
from app.viewport.plugin_pass import run_plugin_pass
from app.viewport.scene import Light, RenderScene

BOUND_COLOR = (0.1, 0.9, 1.0, 1.0)
COLLIDING_COLOR = (1.0, 0.0, 1.0, 1.0)


class Stage(IntEnum):
    """When in a paint a drawer draws (module docstring)."""

    FIRST = 0
    UNDER_SHAPES = 1
    OVER_SHAPES = 2
    LAST = 3


@dataclass
class PaintContext:
    """What one paint gives the drawers.

    ``projection``, ``view``, ``viewproj``: (4, 4) camera matrices; ``eye`` (3,)
    [m]; ``lights``; ``height_px``: framebuffer height [device pixels];
    ``program``/``lines``: the renderer's shared mesh program and line drawer;
    ``solid_world``: (S + 1, 4, 4) world transforms of the scene's Solids for
    the shown frame (last = identity); ``collect_gl_errors``: moves pending GL
    errors into the renderer's list (before a checked plugin pass).
    """

    projection: np.ndarray
    view: np.ndarray
    viewproj: np.ndarray
    eye: np.ndarray
    lights: Sequence[Light]
    height_px: int
    program: MeshProgram
    lines: LineDrawer
    solid_world: np.ndarray
    collect_gl_errors: Callable[[], None]


class OverlayDrawer(ABC):
    """Base of the drawers: keeps the state and observes it.

    A drawer class defines its ``stages``, `draw`, and ``redraw_on``: the state
    events after which its GL data is ``stale`` (recomputed at its next draw
    while shown); a new scene makes it stale too.
    """

    stages: tuple[Stage, ...] = ()
    redraw_on: frozenset[str] = frozenset()

    def __init__(self, state: ov.OverlayState) -> None:
        self.state = state
        self.stale = True
        state.observe(self.changed)

    def changed(self, event: str) -> None:
        """The state announced ``event`` (an `overlay_state` switch or data event)."""
        if event in self.redraw_on:
            self.stale = True

    def set_scene(self, scene: RenderScene, solid_index: dict[Any, int]) -> None:
        """A new scene is shown; ``solid_index`` maps its Solid Nodes to their index."""
        self.stale = True

    @abstractmethod
    def draw(self, ctx: PaintContext, stage: Stage) -> None:
        """Draw at ``stage`` (one of ``stages``; GL current)."""


_DRAWER_CLASSES: list[type[OverlayDrawer]] = []


def register_overlay(cls: type[OverlayDrawer]) -> type[OverlayDrawer]:
    """Class decorator: the renderer makes and runs one drawer of ``cls``."""
    if not cls.stages:
        raise ValueError(f"{cls.__name__} declares no stage")
    _DRAWER_CLASSES.append(cls)
    return cls


def drawer_classes() -> tuple[type[OverlayDrawer], ...]:
    """The registered overlay drawer classes, in registration (drawing) order."""
    return tuple(_DRAWER_CLASSES)


@register_overlay
class PluginDrawer(OverlayDrawer):
    """The physics plugin's draw passes: 0 first, 1 last (app/viewport/plugin_pass.py).

    ``errors`` collects what the plugin raised (GL errors included: its calls are
    checked, the renderer's own errors are collected before)."""

    stages = (Stage.FIRST, Stage.LAST)

    def __init__(self, state: ov.OverlayState) -> None:
        super().__init__(state)
        self.errors: list[BaseException] = []

    def draw(self, ctx: PaintContext, stage: Stage) -> None:
        fn = self.state.plugin_draw
        if fn is None:
            return
        ctx.collect_gl_errors()  # the plugin's checked calls must not see ours
        with gl_error_checks(True):
            err = run_plugin_pass(fn, 0 if stage == Stage.FIRST else 1, ctx.projection,
                                  ctx.view)
        if err is not None:
            self.errors.append(err)


@register_overlay
class GridDrawer(OverlayDrawer):
    """The ground grid (z = 0), under the Shapes."""

    stages = (Stage.UNDER_SHAPES,)

    def __init__(self, state: ov.OverlayState) -> None:
        super().__init__(state)
        self.batch = LineBatch()
        self.batch.set(*grid_lines())

    def draw(self, ctx: PaintContext, stage: Stage) -> None:
        if self.state.is_on(ov.GRID):
            ctx.lines.draw(self.batch, ctx.viewproj)


@register_overlay
class BoundingObjectDrawer(OverlayDrawer):
    """boundingObjects as wireframes, in `COLLIDING_COLOR` while their Solid is in
    the frame's ``colliding`` set. The instance rows are refreshed only while
    shown (they catch up when shown again)."""

    stages = (Stage.OVER_SHAPES,)
    redraw_on = frozenset({ov.FRAME})

    def __init__(self, state: ov.OverlayState) -> None:
        super().__init__(state)
        self.meshes = MeshDrawer(edges=True)
        self._solid_index: dict[Any, int] = {}
        self._solids = 0

    def set_scene(self, scene: RenderScene, solid_index: dict[Any, int]) -> None:
        self.meshes.set_items(scene.bounds, scene.meshes, [0] * len(scene.bounds))
        self._solid_index = solid_index
        self._solids = len(scene.solids)
        super().set_scene(scene, solid_index)

    def draw(self, ctx: PaintContext, stage: Stage) -> None:
        if not self.state.is_on(ov.BOUNDING_OBJECTS):
            return
        if self.stale:
            colors = np.tile(np.asarray(BOUND_COLOR, np.float32), (self._solids + 1, 1))
            hit = [i for i in (self._solid_index.get(n) for n in self.state.colliding)
                   if i is not None]
            colors[hit] = COLLIDING_COLOR
            self.meshes.update(ctx.solid_world, colors)
            self.stale = False
        GL.glLineWidth(2.0)
        self.meshes.draw(ctx.program, ctx.viewproj, ctx.eye, ctx.lights, MODE_LIT,
                         ctx.height_px)
        GL.glLineWidth(1.0)


@register_overlay
class ContactDrawer(OverlayDrawer):
    """Contact crosses and normals (switch `CONTACTS`) and force arrows (`FORCES`),
    drawn over everything (no depth test); coloured by state (`CONTACT_STATES`)
    and sized by cluster (`CLUSTER_SIZES`) when those are on (either shows the
    crosses and normals even with `CONTACTS` off)."""

    stages = (Stage.OVER_SHAPES,)
    redraw_on = frozenset({ov.FRAME, ov.CONTACTS, ov.FORCES, ov.CONTACT_STATES,
                           ov.CLUSTER_SIZES})

    def __init__(self, state: ov.OverlayState) -> None:
        super().__init__(state)
        self.batch = LineBatch()

    def draw(self, ctx: PaintContext, stage: Stage) -> None:
        on = self.state.is_on
        points = on(ov.CONTACTS) or on(ov.CONTACT_STATES) or on(ov.CLUSTER_SIZES)
        forces = on(ov.FORCES)
        if not (points or forces):
            return
        if self.stale:
            self.batch.set(*contact_lines(self.state.contacts, points, forces,
                                          by_state=on(ov.CONTACT_STATES),
                                          by_cluster=on(ov.CLUSTER_SIZES)))
            self.stale = False
        ctx.lines.draw(self.batch, ctx.viewproj, width=2.0, depth_test=False)


@register_overlay
class TrailDrawer(OverlayDrawer):
    """The recorded trails of the tracked Solids."""

    stages = (Stage.OVER_SHAPES,)
    redraw_on = frozenset({ov.FRAME, ov.TRAIL_SOLIDS})

    def __init__(self, state: ov.OverlayState) -> None:
        super().__init__(state)
        self.batch = LineBatch()

    def draw(self, ctx: PaintContext, stage: Stage) -> None:
        if not self.state.is_on(ov.TRAILS):
            return
        if self.stale:
            self.batch.set(*self.state.trails.lines())
            self.stale = False
        ctx.lines.draw(self.batch, ctx.viewproj, width=2.0)
