"""Instanced mesh drawing: one VBO per mesh kind, per-instance transforms and colours.

A `MeshDrawer` holds one `InstanceGroup` per (mesh kind, transparent) pair.
Each group owns a vertex VBO (uploaded once) and an instance VBO of rows
``model (16, column-major) | rgba (4) | pick id (1)`` (float32), re-uploaded
only when the frame (or colours) changed. Shapes are drawn as triangles,
boundingObjects as edges (GL_LINES) with the same program.
"""

from __future__ import annotations

import ctypes
from collections.abc import Sequence

import numpy as np
from OpenGL import GL

from app.viewport.meshes import MeshData
from app.viewport.scene import Light, MeshKey, SceneItem
from app.viewport.shaders import MESH_FRAG, MESH_VERT, compile_program
from app.viewport.transforms import gl_matrix

MODE_LIT, MODE_FLAT, MODE_PICK = 0, 1, 2
_ISTRIDE = 21 * 4


class MeshProgram:
    """The instanced mesh shader program and its uniforms."""

    def __init__(self) -> None:
        self.program = 0
        self.loc: dict[str, int] = {}

    def initialize(self) -> None:
        """Compile and look up uniforms (GL current)."""
        self.program = compile_program(MESH_VERT, MESH_FRAG)
        for name in ("u_viewproj", "u_mode", "u_nlights", "u_light_dir", "u_light_color",
                     "u_ambient", "u_eye", "u_override"):
            self.loc[name] = GL.glGetUniformLocation(self.program, name)

    def use(self, viewproj: np.ndarray, eye: np.ndarray, lights: Sequence[Light],
            mode: int, override: Sequence[float] = (0, 0, 0, 0)) -> None:
        """Bind the program and set view, lights (at most 4) and mode."""
        GL.glUseProgram(self.program)
        L = self.loc
        GL.glUniformMatrix4fv(L["u_viewproj"], 1, False, gl_matrix(viewproj))
        GL.glUniform1i(L["u_mode"], mode)
        lights = list(lights)[:4]
        GL.glUniform1i(L["u_nlights"], len(lights))
        if lights:
            dirs = np.array([li.direction for li in lights], np.float32)
            cols = np.array([li.color for li in lights], np.float32)
            GL.glUniform3fv(L["u_light_dir"], len(lights), dirs)
            GL.glUniform3fv(L["u_light_color"], len(lights), cols)
        amb = max([li.ambient for li in lights], default=0.0)
        GL.glUniform3f(L["u_ambient"], *([max(amb, 0.25)] * 3))
        GL.glUniform3f(L["u_eye"], *np.asarray(eye, np.float32))
        GL.glUniform4f(L["u_override"], *override)


class InstanceGroup:
    """The instances of one mesh kind: vertex data, static per-instance data, GL buffers."""

    def __init__(self, vertices: np.ndarray, solid: np.ndarray, local: np.ndarray,
                 colors: np.ndarray, pick: np.ndarray) -> None:
        # shared vertices (k, 6) pos | normal and the element indices of the soup
        verts, index = np.unique(np.asarray(vertices, np.float32), axis=0, return_inverse=True)
        self.vertices = np.ascontiguousarray(verts, np.float32)
        self.index = np.ascontiguousarray(index.ravel(), np.uint32)
        self.solid = solid            # (n,) int Solid index, -1 = world
        self.local = local            # (n, 4, 4)
        self.colors = colors          # (n, 4)
        self.pick = pick              # (n,)
        self.instances = np.zeros((len(solid), 21), np.float32)
        self.vao = self.vbo = self.ivbo = self.ebo = 0
        self.dirty = True

    def update(self, solid_world: np.ndarray, colors: np.ndarray | None = None) -> None:
        """Recompute the instance rows from the Solids' world transforms (S + 1, 4, 4)."""
        model = solid_world[self.solid] @ self.local
        self.instances[:, :16] = model.transpose(0, 2, 1).reshape(-1, 16)
        self.instances[:, 16:20] = self.colors if colors is None else colors
        self.instances[:, 20] = self.pick
        self.dirty = True

    def upload(self) -> None:
        """Create buffers once; re-upload instance rows when dirty (GL current)."""
        if not self.vao:
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
            for k, (size, off) in enumerate([(4, 0), (4, 16), (4, 32), (4, 48), (4, 64),
                                             (1, 80)]):
                GL.glEnableVertexAttribArray(2 + k)
                GL.glVertexAttribPointer(2 + k, size, GL.GL_FLOAT, False, _ISTRIDE,
                                         ctypes.c_void_p(off))
                GL.glVertexAttribDivisor(2 + k, 1)
            GL.glBindVertexArray(0)
        if self.dirty:
            GL.glBindBuffer(GL.GL_ARRAY_BUFFER, self.ivbo)
            GL.glBufferData(GL.GL_ARRAY_BUFFER, self.instances.nbytes, self.instances,
                            GL.GL_STREAM_DRAW)
            self.dirty = False

    def draw(self, primitive: int) -> None:
        """One instanced draw call."""
        self.upload()
        GL.glBindVertexArray(self.vao)
        GL.glDrawElementsInstanced(primitive, len(self.index), GL.GL_UNSIGNED_INT, None,
                                   len(self.solid))
        GL.glBindVertexArray(0)

    def release(self) -> None:
        """Delete the GL buffers (GL current)."""
        if self.vao:
            GL.glDeleteVertexArrays(1, [self.vao])
            GL.glDeleteBuffers(3, [self.vbo, self.ivbo, self.ebo])
            self.vao = self.vbo = self.ivbo = self.ebo = 0


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
            m = meshes[key]
            if self.edges:
                verts = np.hstack([m.edges, np.zeros_like(m.edges)])
            else:
                verts = np.hstack([m.positions, m.normals])
            self.groups[(key, transparent)] = InstanceGroup(
                verts, np.array([items[i].solid for i in idx], np.int64),
                np.array([items[i].local for i in idx]).reshape(-1, 4, 4),
                np.array([items[i].color for i in idx], np.float32).reshape(-1, 4),
                np.array([pick_ids[i] for i in idx], np.float32))

    def update(self, solid_world: np.ndarray, solid_colors: np.ndarray | None = None) -> None:
        """New transforms; ``solid_colors`` (S + 1, 4) replaces item colours per Solid."""
        for g in self.groups.values():
            g.update(solid_world, None if solid_colors is None else solid_colors[g.solid])

    def draw(self, program: MeshProgram, viewproj: np.ndarray, eye: np.ndarray,
             lights: Sequence[Light], mode: int = MODE_LIT) -> None:
        """Opaque groups first, then transparent ones blended without depth writes."""
        for g in self._garbage:
            g.release()
        self._garbage = []
        if not self.groups:
            return
        program.use(viewproj, eye, lights, MODE_FLAT if self.edges and mode != MODE_PICK else mode)
        prim = GL.GL_LINES if self.edges else GL.GL_TRIANGLES
        for (_, transparent), g in self.groups.items():
            if not transparent or mode == MODE_PICK:
                g.draw(prim)
        if mode == MODE_PICK:
            return
        GL.glEnable(GL.GL_BLEND)
        GL.glBlendFunc(GL.GL_SRC_ALPHA, GL.GL_ONE_MINUS_SRC_ALPHA)
        GL.glDepthMask(GL.GL_FALSE)
        for (_, transparent), g in self.groups.items():
            if transparent:
                g.draw(prim)
        GL.glDepthMask(GL.GL_TRUE)
        GL.glDisable(GL.GL_BLEND)

    def release(self) -> None:
        """Delete every GL buffer (GL current)."""
        for g in list(self.groups.values()) + self._garbage:
            g.release()
        self.groups, self._garbage = {}, []
