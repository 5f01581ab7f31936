"""`ViewportRenderer`: what the 3D view draws, independent of the Qt surface it draws on.

It holds the camera, the render scene, the newest frame, the overlay state
(`OverlayState`, app/viewport/overlay_state.py: switches and overlay data)
and the drawers, and paints into whatever framebuffer is bound when `paint`
is called with a current GL context (the viewport's window, or an offscreen
framebuffer for picking and grabs; see app/viewport/gl_window.py).

Paint order: clear to the Background sky colour; the overlay drawers of stage
FIRST (plugin pass 0) and UNDER_SHAPES (ground grid); Shapes (opaque, then
transparent); the boundary layers (translucent shells of the robust contact
model, `BoundaryLayerDrawer`, right after the Shapes so the line overlays
stay crisp over them); the drawers of stage OVER_SHAPES (boundingObjects,
wireframe, highlighted while in ``frame.colliding``; contacts and forces;
trails) and
LAST (plugin pass 1). The drawers are the registered ones of
app/viewport/overlay_drawers.py, in their registration order.
A robot's Camera device (`paint_device_camera`) sees the Shapes and the
plugin's passes only (view = the robot's name), as a Webots camera does not
see the optional renderings.
Frames are `engine.sim.frame.Frame`s: the Solids' world poses (``pose_nodes``
with ``pose_t``/``pose_R`` when the simulation built them, else the ``poses``
mapping Solid Node -> (pos (3,), R (3, 3))), ``contacts`` (a `ContactSet`),
``colliding`` (frozenset of Solid Nodes) and ``time_ms``.
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

import numpy as np
from OpenGL import GL

from app.gl_binding import gl_error_checks
from app.viewport import overlay_state as ov
from app.viewport.boundary_layer_drawer import BoundaryLayerDrawer
from app.viewport.camera import OrbitCamera
from app.viewport.device_camera import DeviceCamera
from app.viewport.line_drawer import LineDrawer
from app.viewport.mesh_drawer import MODE_LIT, MODE_PICK, MeshDrawer, MeshProgram
from app.viewport.overlay_drawers import (
    BOUND_COLOR,
    COLLIDING_COLOR,
    OverlayDrawer,
    PaintContext,
    PluginDrawer,
    Stage,
    drawer_classes,
)
from app.viewport.overlay_state import PluginDraw
from app.viewport.overlays import Trails
from app.viewport.plugin_pass import run_plugin_pass
from app.viewport.scene import Light, RenderScene, build_scene
from engine.sim.frame import Frame
from engine.world.protos import world_node_of

log = logging.getLogger(__name__)

__all__ = ["BOUND_COLOR", "COLLIDING_COLOR", "HEADLIGHT", "ViewportRenderer"]

OverlayDrawerT = TypeVar("OverlayDrawerT", bound=OverlayDrawer)

HEADLIGHT = Light(np.array([0.0, 0.0, -1.0]), np.array([0.8, 0.8, 0.8]), 0.35)


def _depth_groups(parent: np.ndarray) -> list[np.ndarray]:
    """Indices of the non-root Solids per tree depth (1, 2, ...); ``parent`` (S,), -1 = root.

    Parents come before children in the scene's order, so one pass fills the depths.
    """
    depth = np.zeros(len(parent), np.int64)
    for i, p in enumerate(parent):
        if p >= 0:
            depth[i] = depth[p] + 1
    return [np.flatnonzero(depth == d) for d in range(1, int(depth.max(initial=0)) + 1)]


def _flag(switch: str, doc: str) -> property:
    """A bool property reading and setting overlay ``switch`` of ``self.overlays``."""
    def get(self: ViewportRenderer) -> bool:
        return self.overlays.is_on(switch)

    def set_(self: ViewportRenderer, value: bool) -> None:
        self.overlays.set_on(switch, value)

    return property(get, set_, doc=doc)


class ViewportRenderer:
    """The 3D view of a world: state and GL drawing (no Qt surface).

    ``changed`` is called whenever something shown changed (the owner schedules
    a repaint). GL methods (`initialize`, `paint`, `paint_pick_ids`) need a
    current context; `resize` takes the framebuffer size in device pixels.
    """

    show_bounding_objects = _flag(ov.BOUNDING_OBJECTS, "Draw boundingObjects as wireframes.")
    show_contacts = _flag(ov.CONTACTS, "Draw contact points and normals.")
    show_forces = _flag(ov.FORCES, "Draw contact force arrows.")
    show_trails = _flag(ov.TRAILS, "Draw the trails of `set_trail_solids` Solids.")
    show_grid = _flag(ov.GRID, "Draw the ground grid.")

    def __init__(self, changed: Callable[[], None] = lambda: None) -> None:
        self._changed = changed
        self.camera = OrbitCamera()
        self.scene: RenderScene = build_scene(None)
        self.frame: Frame | None = None
        self.gl_errors: list[int] = []
        self.paint_errors: list[BaseException] = []
        self.overlays = ov.OverlayState()
        self._overlay_drawers = [cls(self.overlays) for cls in drawer_classes()]
        self.boundary_layers = BoundaryLayerDrawer(self.overlays)
        self.overlays.observe(lambda event: self._changed())
        self._paint_guard: Callable[[], contextlib.AbstractContextManager] = (
            contextlib.nullcontext)
        self._program = MeshProgram()
        self._lines = LineDrawer()
        self._shapes = MeshDrawer()
        self._static_world = np.eye(4)[None]
        self._solid_index: dict[Any, int] = {}
        self._pose_nodes: tuple | None = None  # frame.pose_nodes the row map below is for
        self._pose_rows = self._pose_idx = np.zeros(0, np.intp)
        self._parent = np.zeros(0, np.int64)
        self._solid_local = np.zeros((0, 4, 4))
        self._depth_groups: list[np.ndarray] = []
        self._shapes_dirty = self._world_dirty = True
        self._world = np.eye(4)[None]  # (S + 1, 4, 4) Solid world transforms of the frame
        self.initialized = False

    @property
    def trails(self) -> Trails:
        """The recorded `Trails` (held by the overlay state)."""
        return self.overlays.trails

    @property
    def plugin_errors(self) -> list[BaseException]:
        """Exceptions raised by the plugin's draw passes."""
        return self.overlay_drawer(PluginDrawer).errors

    def overlay_drawer(self, cls: type[OverlayDrawerT]) -> OverlayDrawerT:
        """This renderer's drawer of registered overlay drawer class ``cls``."""
        return next(d for d in self._overlay_drawers if type(d) is cls)

    # ----- public API ---------------------------------------------------------------------
    def set_world(self, world: Any, keep_camera: bool = False) -> None:
        """Show ``world`` (engine.world World, or None): rebuild the scene.

        ``keep_camera=False`` (a newly loaded world): the camera is reset from
        the world's Viewpoint, the frame is dropped and the trails are cleared.
        ``keep_camera=True`` (the same world shown again after edits that change
        its looks, e.g. a Box size): the camera (eye, target, field of view,
        clipping planes and framebuffer size) is left as the user set it, the
        current frame stays shown and the trails of the Solids still in the
        scene are kept (the others are dropped).
        """
        self.scene = build_scene(world)
        sc = self.scene
        if not keep_camera:
            self.camera.set_from_viewpoint(sc.viewpoint)
            self.frame = None
            self.overlays.set_trail_solids([])
            self.overlays.set_frame(None)
        else:
            present = set(sc.solids)
            self.overlays.set_trail_solids([n for n in self.trails.paths if n in present])
        self._static_world = sc.static_solid_world()
        self._solid_index = {node: i for i, node in enumerate(sc.solids)}
        self._pose_nodes = None  # the frame-row map is per scene
        self._parent = np.asarray(sc.solid_parent, np.int64).reshape(-1)
        self._solid_local = np.asarray(sc.solid_local, np.float64).reshape(-1, 4, 4)
        self._depth_groups = _depth_groups(self._parent)
        picks = [it.solid + 1 if it.solid >= 0 else 0 for it in sc.shapes]
        self._shapes.set_items(sc.shapes, sc.meshes, picks)
        for drawer in (*self._overlay_drawers, self.boundary_layers):
            drawer.set_scene(sc, self._solid_index)
        self._shapes_dirty = self._world_dirty = True
        self._changed()

    def set_frame(self, frame: Frame) -> None:
        """Show a simulation frame (see module docstring); records trail points."""
        self.frame = frame
        self._shapes_dirty = self._world_dirty = True
        self.overlays.set_frame(frame)

    def set_plugin_draw(self, fn: Callable[[int], object] | None) -> None:
        """``fn(pass_)`` runs with pass 0 before and 1 after the regular rendering (or None)."""
        self.overlays.set_plugin_draw(fn)

    def set_paint_guard(self, guard: Callable[[], contextlib.AbstractContextManager] | None
                        ) -> None:
        """``guard()`` is entered around every paint (None: no guard); the app uses it
        to hold the engine back while a frame is painted (`EngineRunner.gui_first`)."""
        self._paint_guard = guard or contextlib.nullcontext

    def set_trail_solids(self, nodes: Sequence[Any]) -> None:
        """Record and draw the trajectories of these Solid Nodes."""
        self.overlays.set_trail_solids(nodes)

    def clear_trails(self) -> None:
        """Forget the recorded trail points (the tracked Solids stay tracked)."""
        self.overlays.clear_trails()

    def world_to_pixel(self, point: Sequence[float], dpr: float = 1.0) -> tuple[float, float]:
        """Logical pixel (x right, y down) of a world point (3,) [m] for the current camera
        (``dpr``: device pixels per logical pixel)."""
        x, y = self.camera.project(point)
        return x / dpr, y / dpr

    # ----- GL (a context is current) --------------------------------------------------------
    def initialize(self) -> None:
        """Compile the programs."""
        self._program.initialize()
        self._lines.initialize()
        self.initialized = True

    def resize(self, width_px: int, height_px: int) -> None:
        """Track the framebuffer size [device pixels]."""
        self.camera.resize(width_px, height_px)

    def paint(self) -> None:
        """Draw everything into the bound framebuffer (exceptions are logged and kept
        in ``paint_errors``, GL errors in ``gl_errors``)."""
        with self._paint_guard(), gl_error_checks(False):  # errors: collected below
            try:
                self._paint()
            except Exception as exc:
                log.exception("viewport paint failed")
                self.paint_errors.append(exc)
            self._collect_gl_errors()

    def _collect_gl_errors(self) -> None:
        """Move the pending GL errors into ``gl_errors``."""
        for _ in range(32):
            err = GL.glGetError()
            if err == GL.GL_NO_ERROR:
                break
            self.gl_errors.append(int(err))

    def paint_pick_ids(self) -> None:
        """Draw the Shapes with their Solid's index + 1 as RGB (0 = no Solid) into the
        bound framebuffer (see `solid_of_pick_color`)."""
        GL.glViewport(0, 0, self.camera.width, self.camera.height)
        GL.glClearColor(0, 0, 0, 0)
        GL.glClear(GL.GL_COLOR_BUFFER_BIT | GL.GL_DEPTH_BUFFER_BIT)
        GL.glEnable(GL.GL_DEPTH_TEST)
        self._update_instances()
        self._shapes.draw(self._program, self.camera.view_projection(), self.camera.eye,
                          [], MODE_PICK, self.camera.height)
        GL.glUseProgram(0)

    def solid_of_pick_color(self, rgba: Sequence[int]) -> Any:
        """The Solid Node whose index `paint_pick_ids` wrote as this RGBA, or None."""
        index = int(rgba[0]) | int(rgba[1]) << 8 | int(rgba[2]) << 16
        if not 0 < index <= len(self.scene.solids):
            return None
        return world_node_of(self.scene.solids[index - 1])  # a stand-in's PROTO instance

    def _paint(self) -> None:
        cam = self.camera
        GL.glViewport(0, 0, cam.width, cam.height)
        GL.glClearColor(*self.scene.background, 1.0)
        GL.glClear(GL.GL_COLOR_BUFFER_BIT | GL.GL_DEPTH_BUFFER_BIT)
        GL.glEnable(GL.GL_DEPTH_TEST)
        GL.glDepthFunc(GL.GL_LEQUAL)
        view, proj = cam.view_matrix(), cam.projection_matrix()
        vp = proj @ view
        self._update_world()
        lights = self.scene.lights or [self._headlight()]
        ctx = PaintContext(proj, view, vp, cam.eye, lights, cam.height, self._program,
                           self._lines, self._world, self._collect_gl_errors)
        self._draw_overlays(ctx, Stage.FIRST)
        self._draw_overlays(ctx, Stage.UNDER_SHAPES)
        # A software GL driver rasterises in its own thread once the commands are
        # flushed: it clears and draws the above while this thread computes the
        # Shapes' instance rows, instead of after (1.3 ms less a frame with 1000
        # bodies on two cores, for about 0.4 ms more rasteriser work; docs/performance.md)
        GL.glFlush()
        self._update_instances()
        GL.glEnable(GL.GL_POLYGON_OFFSET_FILL)  # lines on surfaces win the depth test
        GL.glPolygonOffset(1.0, 1.0)
        self._shapes.draw(self._program, vp, cam.eye, lights, MODE_LIT, cam.height)
        GL.glDisable(GL.GL_POLYGON_OFFSET_FILL)
        self.boundary_layers.draw(ctx, Stage.OVER_SHAPES)
        self._draw_overlays(ctx, Stage.OVER_SHAPES)
        GL.glUseProgram(0)
        self._draw_overlays(ctx, Stage.LAST)

    def _headlight(self, direction: np.ndarray | None = None) -> Light:
        """The light of a world without lights: along ``direction`` (default: the view's)."""
        d = self.camera.target - self.camera.eye if direction is None else direction
        return Light(d / max(np.linalg.norm(d), 1e-9), HEADLIGHT.color, HEADLIGHT.ambient)

    # ----- device cameras (a context is current, the camera's framebuffer bound) -----------
    def solid_world_transform(self, node: Any) -> np.ndarray | None:
        """The (4, 4) world transform of Solid ``node`` in the shown frame (None when
        the scene does not hold it)."""
        index = self._solid_index.get(node)
        if index is None:
            return None
        self._update_instances()
        return self._world[index].copy()

    def paint_device_camera(self, camera: DeviceCamera, plugin_draw: PluginDraw | None) -> None:
        """Draw what ``camera`` sees into the bound framebuffer (its size): the
        Shapes between the plugin's passes 0 and 1 (``plugin_draw(pass_)``, None:
        no plugin); errors are kept as in `paint`."""
        with self._paint_guard(), gl_error_checks(False):
            try:
                self._paint_device_camera(camera, plugin_draw)
            except Exception as exc:
                log.exception("camera paint failed")
                self.paint_errors.append(exc)
            self._collect_gl_errors()

    def _paint_device_camera(self, camera: DeviceCamera, plugin_draw: PluginDraw | None
                             ) -> None:
        GL.glViewport(0, 0, camera.width, camera.height)
        GL.glClearColor(*self.scene.background, 1.0)
        GL.glClear(GL.GL_COLOR_BUFFER_BIT | GL.GL_DEPTH_BUFFER_BIT)
        GL.glEnable(GL.GL_DEPTH_TEST)
        GL.glDepthFunc(GL.GL_LEQUAL)
        view, proj = camera.view_matrix(), camera.projection_matrix()
        self._update_instances()
        lights = self.scene.lights or [self._headlight(camera.forward)]
        self._camera_plugin_pass(plugin_draw, 0, proj, view)
        self._shapes.draw(self._program, proj @ view, camera.eye, lights, MODE_LIT,
                          camera.height)
        GL.glUseProgram(0)
        self._camera_plugin_pass(plugin_draw, 1, proj, view)

    def _camera_plugin_pass(self, plugin_draw: PluginDraw | None, pass_: int,
                            proj: np.ndarray, view: np.ndarray) -> None:
        if plugin_draw is None:
            return
        self._collect_gl_errors()  # the plugin's checked calls must not see ours
        with gl_error_checks(True):
            err = run_plugin_pass(plugin_draw, pass_, proj, view)
        if err is not None:
            self.plugin_errors.append(err)

    def _draw_overlays(self, ctx: PaintContext, stage: Stage) -> None:
        """Run the overlay drawers registered for ``stage``, in registration order."""
        for drawer in self._overlay_drawers:
            if stage in drawer.stages:
                drawer.draw(ctx, stage)

    def _solid_world(self) -> np.ndarray:
        """(S + 1, 4, 4) world transforms of the Solids for the current frame.

        Solids in ``frame.poses`` take their pose; the others follow their parent
        Solid with their static offset (one vectorised step per tree depth).
        """
        out = self._static_world.copy()
        posed = self._posed(self.frame)
        if posed is None:
            return out
        idx, t, R = posed
        out[idx, :3, :3] = R
        out[idx, :3, 3] = t
        is_posed = np.zeros(len(out), bool)
        is_posed[idx] = True
        for group in self._depth_groups:  # parents (one level up) are final already
            follow = group[~is_posed[group]]
            if len(follow):
                out[follow] = out[self._parent[follow]] @ self._solid_local[follow]
        return out

    def _posed(self, frame: Frame | None) -> tuple[np.ndarray, np.ndarray, np.ndarray] | None:
        """Scene Solid indices (k,) with their frame positions (k, 3) and rotations
        (k, 3, 3); None when there is no frame or it poses none of the scene's Solids.

        Uses the frame's pose arrays when it has them (the row map is cached per
        ``pose_nodes`` tuple, which stays the same object for one model), else
        its ``poses`` mapping."""
        if frame is None:
            return None
        index = self._solid_index
        nodes = frame.pose_nodes
        if nodes and frame.pose_t is not None and frame.pose_R is not None:
            if nodes is not self._pose_nodes:
                pairs = [(k, i) for k, i in ((k, index.get(n)) for k, n in enumerate(nodes))
                         if i is not None]
                self._pose_rows = np.array([k for k, _ in pairs], np.intp)
                self._pose_idx = np.array([i for _, i in pairs], np.intp)
                self._pose_nodes = nodes
            if not len(self._pose_idx):
                return None
            rows = self._pose_rows
            return self._pose_idx, frame.pose_t[rows], frame.pose_R[rows]
        poses = frame.poses
        posed = [(i, p) for i, p in ((index.get(n), p) for n, p in poses.items())
                 if i is not None and p is not None]
        if not posed:
            return None
        idx = np.fromiter((i for i, _ in posed), np.intp, len(posed))
        return (idx, np.array([p[0] for _, p in posed], dtype=float).reshape(-1, 3),
                np.array([p[1] for _, p in posed], dtype=float).reshape(-1, 3, 3))

    def _update_world(self) -> None:
        """The Solids' world transforms for the current frame."""
        if self._world_dirty:
            self._world = self._solid_world()
            self._world_dirty = False

    def _update_instances(self) -> None:
        """The Solids' world transforms and the Shapes' instance rows for the current
        frame (the overlay drawers follow the frame themselves)."""
        self._update_world()
        if self._shapes_dirty:
            self._shapes.update(self._world)
            self._shapes_dirty = False
