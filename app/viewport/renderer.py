"""`ViewportRenderer`: what the 3D view draws, independent of the Qt surface it draws on.

It holds the camera, the render scene, the newest frame, the overlay switches
and the drawers, and paints into whatever framebuffer is bound when `paint`
is called with a current GL context (the viewport's window, or an offscreen
framebuffer for picking and grabs; see app/viewport/gl_window.py).

Paint order: clear to the Background sky colour; plugin pass 0; ground grid;
Shapes (opaque, then transparent); boundingObjects (wireframe, highlighted
while in ``frame.colliding``); contacts and forces; trails; plugin pass 1.
Frames are `engine.sim.frame.Frame`s: the Solids' world poses (``pose_nodes``
with ``pose_t``/``pose_R`` when the simulation built them, else the ``poses``
mapping Solid Node -> (pos (3,), R (3, 3))), ``contacts`` (a `ContactSet`),
``colliding`` (frozenset of Solid Nodes) and ``time_ms``.
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
from OpenGL import GL

from app.gl_binding import gl_error_checks
from app.viewport.camera import OrbitCamera
from app.viewport.line_drawer import LineBatch, LineDrawer
from app.viewport.mesh_drawer import MODE_LIT, MODE_PICK, MeshDrawer, MeshProgram
from app.viewport.overlays import Trails, contact_lines, grid_lines
from app.viewport.plugin_pass import run_plugin_pass
from app.viewport.scene import Light, RenderScene, build_scene
from engine.sim.frame import NO_CONTACTS, Frame

log = logging.getLogger(__name__)

BOUND_COLOR = (0.1, 0.9, 1.0, 1.0)
COLLIDING_COLOR = (1.0, 0.0, 1.0, 1.0)
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


def _flag(name: str, doc: str) -> property:
    def get(self: ViewportRenderer) -> bool:
        return getattr(self, "_" + name)

    def set_(self: ViewportRenderer, value: bool) -> None:
        setattr(self, "_" + name, bool(value))
        self._overlays_dirty = True
        self._changed()

    return property(get, set_, doc=doc)


class ViewportRenderer:
    """The 3D view of a world: state and GL drawing (no Qt surface).

    ``changed`` is called whenever something shown changed (the owner schedules
    a repaint). GL methods (`initialize`, `paint`, `paint_pick_ids`) need a
    current context; `resize` takes the framebuffer size in device pixels.
    """

    show_bounding_objects = _flag("show_bounding_objects", "Draw boundingObjects as wireframes.")
    show_contacts = _flag("show_contacts", "Draw contact points and normals.")
    show_forces = _flag("show_forces", "Draw contact force arrows.")
    show_trails = _flag("show_trails", "Draw the trails of `set_trail_solids` Solids.")
    show_grid = _flag("show_grid", "Draw the ground grid.")

    def __init__(self, changed: Callable[[], None] = lambda: None) -> None:
        self._changed = changed
        self.camera = OrbitCamera()
        self.scene: RenderScene = build_scene(None)
        self.frame: Frame | None = None
        self.gl_errors: list[int] = []
        self.paint_errors: list[BaseException] = []
        self.plugin_errors: list[BaseException] = []
        self._show_bounding_objects = False
        self._show_contacts = False
        self._show_forces = False
        self._show_trails = False
        self._show_grid = True
        self._plugin_draw: Callable[[int], object] | None = None
        self._paint_guard: Callable[[], contextlib.AbstractContextManager] = (
            contextlib.nullcontext)
        self._program = MeshProgram()
        self._lines = LineDrawer()
        self._shapes = MeshDrawer()
        self._bounds = MeshDrawer(edges=True)
        self._grid = LineBatch()
        self._grid.set(*grid_lines())
        self._overlay = LineBatch()
        self._trail_batch = LineBatch()
        self.trails = Trails()
        self._static_world = np.eye(4)[None]
        self._solid_index: dict[Any, int] = {}
        self._pose_nodes: tuple | None = None  # frame.pose_nodes the row map below is for
        self._pose_rows = self._pose_idx = np.zeros(0, np.intp)
        self._parent = np.zeros(0, np.int64)
        self._solid_local = np.zeros((0, 4, 4))
        self._depth_groups: list[np.ndarray] = []
        self._frame_dirty = True
        self._overlays_dirty = True
        self._bounds_stale = True
        self._world = np.eye(4)[None]  # (S + 1, 4, 4) Solid world transforms of the frame
        self.initialized = False

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
            self.trails.set_solids([])
        else:
            present = set(sc.solids)
            self.trails.set_solids([n for n in self.trails.paths if n in present])
        self._static_world = sc.static_solid_world()
        self._solid_index = {node: i for i, node in enumerate(sc.solids)}
        self._pose_nodes = None  # the frame-row map is per scene
        self._parent = np.asarray(sc.solid_parent, np.int64).reshape(-1)
        self._solid_local = np.asarray(sc.solid_local, np.float64).reshape(-1, 4, 4)
        self._depth_groups = _depth_groups(self._parent)
        picks = [it.solid + 1 if it.solid >= 0 else 0 for it in sc.shapes]
        self._shapes.set_items(sc.shapes, sc.meshes, picks)
        self._bounds.set_items(sc.bounds, sc.meshes, [0] * len(sc.bounds))
        self._frame_dirty = self._overlays_dirty = True
        self._changed()

    def set_frame(self, frame: Frame) -> None:
        """Show a simulation frame (see module docstring); records trail points."""
        self.frame = frame
        if self.trails.paths:
            poses = frame.poses
            self.trails.record({n: np.asarray(poses[n][0]) for n in self.trails.paths
                                if n in poses}, frame.time_ms)
        self._frame_dirty = self._overlays_dirty = True
        self._changed()

    def set_plugin_draw(self, fn: Callable[[int], object] | None) -> None:
        """``fn(pass_)`` runs with pass 0 before and 1 after the regular rendering (or None)."""
        self._plugin_draw = fn
        self._changed()

    def set_paint_guard(self, guard: Callable[[], contextlib.AbstractContextManager] | None
                        ) -> None:
        """``guard()`` is entered around every paint (None: no guard); the app uses it
        to hold the engine back while a frame is painted (`EngineRunner.gui_first`)."""
        self._paint_guard = guard or contextlib.nullcontext

    def set_trail_solids(self, nodes: Sequence[Any]) -> None:
        """Record and draw the trajectories of these Solid Nodes."""
        self.trails.set_solids(list(nodes))
        self._overlays_dirty = True
        self._changed()

    def clear_trails(self) -> None:
        """Forget the recorded trail points (the tracked Solids stay tracked)."""
        self.trails.clear()
        self._overlays_dirty = True
        self._changed()

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
        return self.scene.solids[index - 1] if 0 < index <= len(self.scene.solids) else None

    def _paint(self) -> None:
        cam = self.camera
        GL.glViewport(0, 0, cam.width, cam.height)
        GL.glClearColor(*self.scene.background, 1.0)
        GL.glClear(GL.GL_COLOR_BUFFER_BIT | GL.GL_DEPTH_BUFFER_BIT)
        GL.glEnable(GL.GL_DEPTH_TEST)
        GL.glDepthFunc(GL.GL_LEQUAL)
        view, proj = cam.view_matrix(), cam.projection_matrix()
        vp = proj @ view
        self._run_plugin(0, proj, view)
        self._update_instances()
        self._update_overlays()
        if self._show_grid:
            self._lines.draw(self._grid, vp)
        lights = self.scene.lights or [self._headlight()]
        GL.glEnable(GL.GL_POLYGON_OFFSET_FILL)  # lines on surfaces win the depth test
        GL.glPolygonOffset(1.0, 1.0)
        self._shapes.draw(self._program, vp, cam.eye, lights, MODE_LIT, cam.height)
        GL.glDisable(GL.GL_POLYGON_OFFSET_FILL)
        if self._show_bounding_objects:
            GL.glLineWidth(2.0)
            self._bounds.draw(self._program, vp, cam.eye, lights, MODE_LIT, cam.height)
            GL.glLineWidth(1.0)
        if self._show_contacts or self._show_forces:
            self._lines.draw(self._overlay, vp, width=2.0, depth_test=False)
        if self._show_trails:
            self._lines.draw(self._trail_batch, vp, width=2.0)
        GL.glUseProgram(0)
        self._run_plugin(1, proj, view)

    def _headlight(self) -> Light:
        d = self.camera.target - self.camera.eye
        return Light(d / max(np.linalg.norm(d), 1e-9), HEADLIGHT.color, HEADLIGHT.ambient)

    def _run_plugin(self, pass_: int, proj: np.ndarray, view: np.ndarray) -> None:
        if self._plugin_draw is None:
            return
        self._collect_gl_errors()  # the plugin's checked calls must not see ours
        with gl_error_checks(True):
            err = run_plugin_pass(self._plugin_draw, pass_, proj, view)
        if err is not None:
            self.plugin_errors.append(err)

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

    def _update_instances(self) -> None:
        """Instance rows for the current frame: the Shapes', and the boundingObjects'
        only while they are shown (they catch up when shown again)."""
        if self._frame_dirty:
            self._world = self._solid_world()
            self._shapes.update(self._world)
            self._bounds_stale = True
            self._frame_dirty = False
        if self._bounds_stale and self._show_bounding_objects:
            colors = np.tile(np.asarray(BOUND_COLOR, np.float32),
                             (len(self.scene.solids) + 1, 1))
            colliding = self.frame.colliding if self.frame is not None else frozenset()
            hit = [i for i in (self._solid_index.get(n) for n in colliding) if i is not None]
            colors[hit] = COLLIDING_COLOR
            self._bounds.update(self._world, colors)
            self._bounds_stale = False

    def _update_overlays(self) -> None:
        if not self._overlays_dirty:
            return
        contacts = self.frame.contacts if self.frame is not None else NO_CONTACTS
        self._overlay.set(*contact_lines(contacts, self._show_contacts, self._show_forces))
        self._trail_batch.set(*self.trails.lines())
        self._overlays_dirty = False
