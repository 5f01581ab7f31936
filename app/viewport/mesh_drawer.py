"""Instanced mesh drawing: per-instance transforms and colours, LOD and frustum culling.

A `MeshDrawer` holds one `InstanceGroup` per (mesh kind, transparent) pair.
A group has one `LevelBuffers` per level of detail of its mesh kind (see
lod.py; one level for boxes, planes and custom meshes), each with its own
vertex VBO (uploaded once) and instance VBO of rows
``model (16, column-major) | rgba (4) | pick id (1)`` (float32). Before a
draw, the group drops the instances whose bounding sphere is outside the
view frustum (culling.py), buckets the others by level from their
projected size and uploads each bucket to its level's instance VBO (only
when the frame, colours, camera or viewport height changed). Shapes are
drawn as triangles, boundingObjects as edges (GL_LINES) with the same
program.

Opaque groups of a closed mesh kind (`CLOSED_MESH_KINDS`: boxes, spheres,
cylinders, capsules) whose instances are not mirrored are drawn with back
faces culled: about half their triangles are dropped right after the vertex
stage instead of being set up, rasterised and hidden by the depth test (a
software GL driver does that work on the CPU, the setup in the drawing thread).
"""

from __future__ import annotations

import ctypes
from collections.abc import Sequence
from functools import lru_cache

import numpy as np
from OpenGL import GL

from app.viewport.culling import frustum_planes, spheres_visible
from app.viewport.geometry_meshes import CLOSED_MESH_KINDS
from app.viewport.lod import (
    LodLevels,
    choose_levels,
    curved_levels,
    instance_spheres,
    levels_for,
    projected_radius_px,
    shear_stretch,
)
from app.viewport.meshes import MeshData
from app.viewport.scene import Light, MeshKey, SceneItem
from app.viewport.shaders import MAX_LIGHTS, MESH_VERT, compile_program, mesh_fragment_source
from app.viewport.transforms import gl_matrix

MODE_LIT, MODE_FLAT, MODE_PICK = 0, 1, 2
_ISTRIDE = 21 * 4


class MeshProgram:
    """The instanced mesh shader programs (one per light count) and their uniforms."""

    _UNIFORMS = ("u_viewproj", "u_mode", "u_light_dir", "u_light_color", "u_ambient",
                 "u_eye", "u_override")

    def __init__(self) -> None:
        self.programs: dict[int, tuple[int, dict[str, int]]] = {}

    def initialize(self) -> None:
        """Compile the one-light program (GL current); the others on first use."""
        self._program(1)

    def _program(self, nlights: int) -> tuple[int, dict[str, int]]:
        """(program, uniform locations) for ``nlights`` lights, compiled on first use."""
        if nlights not in self.programs:
            program = compile_program(MESH_VERT, mesh_fragment_source(nlights))
            self.programs[nlights] = (program, {name: GL.glGetUniformLocation(program, name)
                                                for name in self._UNIFORMS})
        return self.programs[nlights]

    def use(self, viewproj: np.ndarray, eye: np.ndarray, lights: Sequence[Light],
            mode: int, override: Sequence[float] = (0, 0, 0, 0)) -> None:
        """Bind the program for the lights (at most `MAX_LIGHTS`) and set view, lights
        and mode."""
        lights = list(lights)[:MAX_LIGHTS]
        program, L = self._program(len(lights))
        GL.glUseProgram(program)
        GL.glUniformMatrix4fv(L["u_viewproj"], 1, False, gl_matrix(viewproj))
        GL.glUniform1i(L["u_mode"], mode)
        if lights:
            dirs = np.array([li.direction for li in lights], np.float64).reshape(-1, 3)
            norms = np.linalg.norm(dirs, axis=1, keepdims=True)
            dirs = np.where(norms > 1e-12, dirs / np.maximum(norms, 1e-12), 0.0)
            dirs = dirs.astype(np.float32)
            cols = np.array([li.color for li in lights], np.float32)
            GL.glUniform3fv(L["u_light_dir"], len(lights), dirs)
            GL.glUniform3fv(L["u_light_color"], len(lights), cols)
        amb = max([li.ambient for li in lights], default=0.0)
        GL.glUniform3f(L["u_ambient"], *([max(amb, 0.25)] * 3))
        GL.glUniform3f(L["u_eye"], *np.asarray(eye, np.float32))
        GL.glUniform4f(L["u_override"], *override)


def _indexed(mesh: MeshData, edges: bool) -> tuple[np.ndarray, np.ndarray]:
    """Shared vertices (k, 6) pos | normal (float32) and element indices (uint32) of a mesh."""
    if edges:
        soup = np.hstack([mesh.edges, np.zeros_like(mesh.edges)])
    else:
        soup = np.hstack([mesh.positions, mesh.normals])
    verts, index = np.unique(np.asarray(soup, np.float32), axis=0, return_inverse=True)
    return (np.ascontiguousarray(verts, np.float32),
            np.ascontiguousarray(index.ravel(), np.uint32))


@lru_cache(maxsize=64)
def _cached_indexed(key: MeshKey, edges: bool) -> tuple[tuple[np.ndarray, np.ndarray], ...]:
    """`_indexed` of every level of a curved mesh kind (see lod.curved_levels)."""
    levels = curved_levels(key)
    assert levels is not None, key
    return tuple(_indexed(m, edges) for m in levels.meshes)


class LevelBuffers:
    """One level of detail of a group: vertex/index buffers and the instance rows drawn with it."""

    def __init__(self, vertices: np.ndarray, index: np.ndarray) -> None:
        self.vertices = vertices      # (k, 6) float32 pos | normal
        self.index = index            # (e,) uint32
        self.rows = np.zeros((0, 21), np.float32)  # (m, 21) instances drawn at this level
        self.vao = self.vbo = self.ivbo = self.ebo = 0
        self.dirty = True

    def set_rows(self, rows: np.ndarray) -> None:
        """The (m, 21) instance rows to draw with this level (uploaded at the next draw)."""
        self.rows = np.ascontiguousarray(rows, np.float32)
        self.dirty = True

    def _create(self) -> None:
        self.vao = int(GL.glGenVertexArrays(1))
        self.vbo, self.ivbo, self.ebo = (int(b) for b in GL.glGenBuffers(3))
        GL.glBindVertexArray(self.vao)
        GL.glBindBuffer(GL.GL_ELEMENT_ARRAY_BUFFER, self.ebo)
        GL.glBufferData(GL.GL_ELEMENT_ARRAY_BUFFER, self.index.nbytes, self.index,
                        GL.GL_STATIC_DRAW)
        GL.glBindBuffer(GL.GL_ARRAY_BUFFER, self.vbo)
        GL.glBufferData(GL.GL_ARRAY_BUFFER, self.vertices.nbytes, self.vertices,
                        GL.GL_STATIC_DRAW)
        for loc, off in ((0, 0), (1, 12)):
            GL.glEnableVertexAttribArray(loc)
            GL.glVertexAttribPointer(loc, 3, GL.GL_FLOAT, False, 24, ctypes.c_void_p(off))
        GL.glBindBuffer(GL.GL_ARRAY_BUFFER, self.ivbo)
        for k, (size, off) in enumerate([(4, 0), (4, 16), (4, 32), (4, 48), (4, 64), (1, 80)]):
            GL.glEnableVertexAttribArray(2 + k)
            GL.glVertexAttribPointer(2 + k, size, GL.GL_FLOAT, False, _ISTRIDE,
                                     ctypes.c_void_p(off))
            GL.glVertexAttribDivisor(2 + k, 1)
        GL.glBindVertexArray(0)

    def draw(self, primitive: int) -> None:
        """Upload the rows if changed and draw them in one instanced call (GL current)."""
        if not len(self.rows):
            return
        if not self.vao:
            self._create()
        if self.dirty:
            GL.glBindBuffer(GL.GL_ARRAY_BUFFER, self.ivbo)
            GL.glBufferData(GL.GL_ARRAY_BUFFER, self.rows.nbytes, self.rows, GL.GL_STREAM_DRAW)
            self.dirty = False
        GL.glBindVertexArray(self.vao)
        GL.glDrawElementsInstanced(primitive, len(self.index), GL.GL_UNSIGNED_INT, None,
                                   len(self.rows))
        GL.glBindVertexArray(0)

    def release(self) -> None:
        """Delete the GL buffers (GL current)."""
        if self.vao:
            GL.glDeleteVertexArrays(1, [self.vao])
            GL.glDeleteBuffers(3, [self.vbo, self.ivbo, self.ebo])
            self.vao = self.vbo = self.ivbo = self.ebo = 0
            self.dirty = True


class InstanceGroup:
    """The instances of one mesh kind: its levels of detail, static per-instance data, rows."""

    def __init__(self, levels: LodLevels, arrays: Sequence[tuple[np.ndarray, np.ndarray]],
                 solid: np.ndarray, local: np.ndarray, colors: np.ndarray,
                 pick: np.ndarray, cull_back: bool = False) -> None:
        self.lod = levels
        self.cull_back = cull_back    # draw with back faces culled (module docstring)
        self.levels = [LevelBuffers(v, i) for v, i in arrays]
        self.solid = solid            # (n,) int Solid index, -1 = world
        self.local = local            # (n, 4, 4)
        self.colors = colors          # (n, 4)
        self.pick = pick              # (n,)
        self.stretch = shear_stretch(local)  # (n,) >= 1, see lod.shear_stretch
        self.instances = np.zeros((len(solid), 21), np.float32)
        self.centres = np.zeros((len(solid), 3))   # world bounding spheres (m)
        self.radii = np.zeros(len(solid))
        self.version = 0
        self._bucketed: tuple | None = None

    def update(self, solid_world: np.ndarray, colors: np.ndarray | None = None) -> None:
        """Recompute the instance rows from the Solids' world transforms (S + 1, 4, 4)."""
        model = solid_world[self.solid] @ self.local
        self.instances[:, :16] = model.transpose(0, 2, 1).reshape(-1, 16)
        self.instances[:, 16:20] = self.colors if colors is None else colors
        self.instances[:, 20] = self.pick
        self.centres, self.radii = instance_spheres(model, self.lod.centre, self.lod.radius,
                                                    self.stretch)
        self.version += 1

    def bucket(self, viewproj: np.ndarray, height_px: int) -> list[int]:
        """Cull and sort the instances into their levels; returns the count per level.

        Recomputed only when the rows, the camera or the viewport height changed.
        """
        key = (self.version, np.asarray(viewproj, np.float64).tobytes(), int(height_px))
        if key != self._bucketed:
            self._bucketed = key
            visible = spheres_visible(self.centres, self.radii, frustum_planes(viewproj))
            rows = self.instances[visible]
            if len(self.levels) == 1:
                self.levels[0].set_rows(rows)
            else:
                px = projected_radius_px(self.centres[visible], self.radii[visible], viewproj,
                                         height_px)
                level = choose_levels(px, self.lod.max_radius_px)
                order = np.argsort(level, kind="stable")
                bounds = np.searchsorted(level[order], np.arange(len(self.levels) + 1))
                rows = rows[order]
                for k, lv in enumerate(self.levels):
                    lv.set_rows(rows[bounds[k]:bounds[k + 1]])
        return [len(lv.rows) for lv in self.levels]

    def draw(self, primitive: int, viewproj: np.ndarray, height_px: int) -> None:
        """Cull, pick levels and draw each non-empty level with one instanced call."""
        self.bucket(viewproj, height_px)
        for lv in self.levels:
            lv.draw(primitive)

    def release(self) -> None:
        """Delete the GL buffers (GL current)."""
        for lv in self.levels:
            lv.release()


def _closed_unmirrored(key: MeshKey, local: np.ndarray) -> bool:
    """Whether instances of mesh ``key`` with static transforms ``local`` (n, 4, 4) may
    be drawn with back faces culled: a closed kind (`CLOSED_MESH_KINDS`) and no
    instance mirrored (a negative determinant of the 3x3 block would turn its
    triangles' winding; the Solids' own frames are rotations and never do)."""
    if not key or key[0] not in CLOSED_MESH_KINDS:
        return False
    return bool(len(local) == 0 or np.all(np.linalg.det(local[:, :3, :3]) > 0.0))


class MeshDrawer:
    """All instances of a list of `SceneItem`s, grouped per mesh kind and transparency."""

    def __init__(self, edges: bool = False) -> None:
        self.edges = edges
        self.groups: dict[tuple[MeshKey, bool], InstanceGroup] = {}
        self._garbage: list[InstanceGroup] = []

    def set_items(self, items: Sequence[SceneItem], meshes: dict[MeshKey, MeshData],
                  pick_ids: Sequence[int]) -> None:
        """Rebuild the groups (old GL buffers are freed at the next draw)."""
        self._garbage += self.groups.values()
        buckets: dict[tuple[MeshKey, bool], list[int]] = {}
        for i, it in enumerate(items):
            buckets.setdefault((it.mesh_key, it.color[3] < 0.999), []).append(i)
        self.groups = {}
        for (key, transparent), idx in buckets.items():
            levels = levels_for(key, meshes[key])
            if len(levels.meshes) > 1:  # shared curved kinds: index their levels once
                arrays = _cached_indexed(tuple(key), self.edges)
            else:
                arrays = (_indexed(levels.meshes[0], self.edges),)
            local = np.array([items[i].local for i in idx], np.float64).reshape(-1, 4, 4)
            self.groups[(key, transparent)] = InstanceGroup(
                levels, arrays, np.array([items[i].solid for i in idx], np.int64), local,
                np.array([items[i].color for i in idx], np.float32).reshape(-1, 4),
                np.array([pick_ids[i] for i in idx], np.float32),
                cull_back=not (self.edges or transparent) and _closed_unmirrored(key, local))

    def update(self, solid_world: np.ndarray, solid_colors: np.ndarray | None = None) -> None:
        """New transforms; ``solid_colors`` (S + 1, 4) replaces item colours per Solid."""
        for g in self.groups.values():
            g.update(solid_world, None if solid_colors is None else solid_colors[g.solid])

    def draw(self, program: MeshProgram, viewproj: np.ndarray, eye: np.ndarray,
             lights: Sequence[Light], mode: int = MODE_LIT, height_px: int | None = None) -> None:
        """Opaque groups first, then transparent ones blended without depth writes.

        ``viewproj`` (4, 4) world -> clip; ``height_px``: viewport height in
        pixels for the level of detail (None: read from GL_VIEWPORT).
        """
        for g in self._garbage:
            g.release()
        self._garbage = []
        if not self.groups:
            return
        if height_px is None:
            height_px = int(GL.glGetIntegerv(GL.GL_VIEWPORT)[3])
        program.use(viewproj, eye, lights, MODE_FLAT if self.edges and mode != MODE_PICK else mode)
        prim = GL.GL_LINES if self.edges else GL.GL_TRIANGLES
        opaque = [g for (_, transparent), g in self.groups.items()
                  if not transparent or mode == MODE_PICK]
        culled = [g for g in opaque if g.cull_back]
        if culled:
            GL.glEnable(GL.GL_CULL_FACE)  # set in full: a plugin's draw pass may change them
            GL.glCullFace(GL.GL_BACK)
            GL.glFrontFace(GL.GL_CCW)
            for g in culled:
                g.draw(prim, viewproj, height_px)
            GL.glDisable(GL.GL_CULL_FACE)
        for g in opaque:
            if not g.cull_back:
                g.draw(prim, viewproj, height_px)
        if mode == MODE_PICK:
            return
        GL.glEnable(GL.GL_BLEND)
        GL.glBlendFunc(GL.GL_SRC_ALPHA, GL.GL_ONE_MINUS_SRC_ALPHA)
        GL.glDepthMask(GL.GL_FALSE)
        for (_, transparent), g in self.groups.items():
            if transparent:
                g.draw(prim, viewproj, height_px)
        GL.glDepthMask(GL.GL_TRUE)
        GL.glDisable(GL.GL_BLEND)

    def release(self) -> None:
        """Delete every GL buffer (GL current)."""
        for g in list(self.groups.values()) + self._garbage:
            g.release()
        self.groups, self._garbage = {}, []
