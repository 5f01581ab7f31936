"""`BoundaryLayerDrawer`: the robust contact model's boundary layers, drawn translucent.

View > Boundary Layers (switch `BOUNDARY_LAYERS` of the `OverlayState`):
every Solid of the shown frame's ``paddings`` (Solid Node -> padding [m];
empty under the default contact model) gets its boundingObject grown by its
padding (app/viewport/padded_shells.py), drawn over the Shapes with alpha
blending and no depth writes (`MeshDrawer`'s transparent pass), so the
Shapes inside stay visible. The shells are rebuilt when the paddings
change, moved with their Solids at every frame.

The renderer owns one (``ViewportRenderer.boundary_layers``) and draws it
right after the Shapes, before the registered OVER_SHAPES drawers: the
wireframes, contacts and trails are drawn over the shells, not tinted by them.
"""

from __future__ import annotations

from typing import Any

from app.viewport import overlay_state as ov
from app.viewport.geometry_meshes import MeshTable
from app.viewport.mesh_drawer import MODE_LIT, MeshDrawer
from app.viewport.overlay_drawers import OverlayDrawer, PaintContext, Stage
from app.viewport.padded_shells import shell_items
from app.viewport.scene import RenderScene


class BoundaryLayerDrawer(OverlayDrawer):
    """Translucent padded shells around the padded Solids' boundingObjects."""

    stages = (Stage.OVER_SHAPES,)
    redraw_on = frozenset({ov.FRAME, ov.BOUNDARY_LAYERS})

    def __init__(self, state: ov.OverlayState) -> None:
        super().__init__(state)
        self.meshes = MeshDrawer()
        self._solids: list[Any] = []
        self._scene_meshes: MeshTable = {}
        self._shell_meshes: MeshTable = {}
        self._built_for: dict[Any, float] | None = None  # the paddings the items show

    def set_scene(self, scene: RenderScene, solid_index: dict[Any, int]) -> None:
        self._solids = list(scene.solids)
        self._scene_meshes = scene.meshes
        self._shell_meshes = {}
        self._built_for = None
        super().set_scene(scene, solid_index)

    def draw(self, ctx: PaintContext, stage: Stage) -> None:
        if not self.state.is_on(ov.BOUNDARY_LAYERS):
            return
        if self.stale:
            paddings = dict(self.state.paddings)
            if paddings != self._built_for:
                items = shell_items(self._solids, paddings, self._shell_meshes,
                                    self._scene_meshes)
                self.meshes.set_items(items, self._shell_meshes, [0] * len(items))
                self._built_for = paddings
            self.meshes.update(ctx.solid_world)
            self.stale = False
        self.meshes.draw(ctx.program, ctx.viewproj, ctx.eye, ctx.lights, MODE_LIT,
                         ctx.height_px)
