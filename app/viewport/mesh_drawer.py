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

Those groups also shade their small instances per vertex: an instance whose
projected bounding radius is at most `VERTEX_LIT_MAX_PX` pixels is drawn
with the per-vertex (Gouraud) program, the others per fragment (Phong; see
shaders.py). Within a level the rows are ordered vertex-lit first, each part
near to far (so the depth test rejects hidden fragments early), and the two
parts are drawn from the one instance buffer with their own programs.

Opaque Planes are lit per vertex at any size, with a colour for each side
(`Shading.PER_VERTEX_TWO_SIDED`): under directional lights a flat face's
diffuse light is the same at every point, so only the highlight is
interpolated, between the corners of the plane's cells
(`meshes.PLANE_CELLS`); the floor of a world covers much of the view, and
lighting each of its pixels cost a third of a frame with 100 bodies.

Spheres in such a group that are scaled alike along their axes and look
at most `IMPOSTOR_MAX_PX` pixels big (radius) are not meshes at all: they
are drawn as impostors, a square each whose fragments trace the exact
sphere (`Shading.SPHERE_IMPOSTOR`, shaders.py), from their own buffer.
"""

from __future__ import annotations

import ctypes
from collections.abc import Callable, Sequence
from functools import lru_cache
from typing import NamedTuple

import numpy as np
from OpenGL import GL

from app.gl_binding import draw_calls
from app.viewport.culling import frustum_planes
from app.viewport.geometry_meshes import CLOSED_MESH_KINDS
from app.viewport.instance_kernels import bucket_instances, fill_instance_rows
from app.viewport.lod import (
    LodLevels,
    curved_levels,
    levels_for,
    shear_stretch,
)
from app.viewport.meshes import MeshData
from app.viewport.scene import Light, MeshKey, SceneItem
from app.viewport.shaders import MAX_LIGHTS, PROGRAM_SOURCES, Shading, compile_program
from app.viewport.transforms import gl_matrix

MODE_LIT, MODE_FLAT, MODE_PICK = 0, 1, 2
_ISTRIDE = 21 * 4
_INSTANCE_ATTRIBUTES = ((4, 0), (4, 16), (4, 32), (4, 48), (4, 64), (1, 80))  # (floats, offset)

#: Largest projected bounding radius (pixels) of an instance shaded per vertex
#: (module docstring). At that size a level's triangles span a few pixels at most
#: (lod.py keeps their silhouette within a pixel), so per-vertex and per-fragment
#: lighting differ by a pixel's worth of highlight.
VERTEX_LIT_MAX_PX = 24.0

#: Largest projected radius (pixels) of a sphere drawn as an impostor (module
#: docstring): far enough from the eye that its square stays clear of the near plane.
IMPOSTOR_MAX_PX = 64.0

#: Mesh kinds drawn as impostors when small (their meshes are unit spheres).
IMPOSTOR_KINDS = frozenset({"sphere"})

#: Opaque mesh kinds lit per vertex at any size, both sides (module docstring).
TWO_SIDED_VERTEX_LIT_KINDS = frozenset({"plane"})

# The impostor's square: corners (x, y) in [-1, 1]^2 (pos | normal rows, as meshes).
_SQUARE = np.array([[-1, -1, 0, 0, 0, 0], [1, -1, 0, 0, 0, 0], [1, 1, 0, 0, 0, 0],
                    [-1, 1, 0, 0, 0, 0]], np.float32)
_SQUARE_INDEX = np.array([0, 1, 2, 0, 2, 3], np.uint32)


class LightUniforms(NamedTuple):
    """The lights as the mesh programs take them: ``directions`` (k, 3) unit vectors
    the light travels along, ``colors`` (k, 3) colour times intensity, ``ambient``
    RGB (at least 0.25 each, so that nothing is black)."""

    directions: np.ndarray
    colors: np.ndarray
    ambient: tuple[float, float, float]


class MeshProgram:
    """The instanced mesh shader programs and their uniforms: one per light count and
    `Shading` (per fragment; per vertex for small instances; sphere impostors)."""

    _UNIFORMS = ("u_viewproj", "u_mode", "u_light_dir", "u_light_color", "u_ambient",
                 "u_eye", "u_override")

    def __init__(self) -> None:
        # (light count, shading) -> (program, uniform locations)
        self.programs: dict[tuple[int, Shading], tuple[int, dict[str, int]]] = {}
        self._lights_key: tuple | None = None
        self._lights = LightUniforms(np.zeros((0, 3), np.float32), np.zeros((0, 3), np.float32),
                                     (0.25, 0.25, 0.25))
        # program -> the uniform values it holds (a program keeps them between uses)
        self._held: dict[int, tuple] = {}

    def initialize(self) -> None:
        """Compile the one-light program (GL current); the others on first use."""
        self._held.clear()
        self._program(1, Shading.PER_FRAGMENT)

    def _program(self, nlights: int, shading: Shading) -> tuple[int, dict[str, int]]:
        """(program, uniform locations) for ``nlights`` lights, compiled on first use."""
        key = (nlights, shading)
        if key not in self.programs:
            program = compile_program(*PROGRAM_SOURCES[shading](nlights))
            self.programs[key] = (program, {name: GL.glGetUniformLocation(program, name)
                                            for name in self._UNIFORMS})
        return self.programs[key]

    def use(self, viewproj: np.ndarray, eye: np.ndarray, lights: Sequence[Light],
            mode: int, override: Sequence[float] = (0, 0, 0, 0),
            shading: Shading = Shading.PER_FRAGMENT) -> None:
        """Bind the program for the lights (at most `MAX_LIGHTS`) and ``shading`` and
        set view, lights and mode (only the uniforms whose values the program does
        not hold already: a frame binds each program once or twice with the same)."""
        lights = list(lights)[:MAX_LIGHTS]
        program, L = self._program(len(lights), shading)
        GL.glUseProgram(program)
        matrix, eye32 = gl_matrix(viewproj), np.asarray(eye, np.float32)
        uniforms = self._light_uniforms(lights)
        values = (matrix.tobytes(), int(mode), self._lights_key, eye32.tobytes(),
                  tuple(float(x) for x in override))
        if self._held.get(program) == values:
            return
        self._held[program] = values
        GL.glUniformMatrix4fv(L["u_viewproj"], 1, False, matrix)
        GL.glUniform1i(L["u_mode"], mode)
        if lights:
            GL.glUniform3fv(L["u_light_dir"], len(lights), uniforms.directions)
            GL.glUniform3fv(L["u_light_color"], len(lights), uniforms.colors)
        GL.glUniform3f(L["u_ambient"], *uniforms.ambient)
        GL.glUniform3f(L["u_eye"], *eye32)
        GL.glUniform4f(L["u_override"], *override)

    def _light_uniforms(self, lights: list[Light]) -> LightUniforms:
        """The uniform values of ``lights``, computed again only when they change (a
        frame binds the programs several times with the same lights)."""
        key = tuple((li.direction.tobytes(), np.asarray(li.color).tobytes(), li.ambient)
                    for li in lights)
        if self._lights_key != key:
            self._lights_key = key
            dirs = np.array([li.direction for li in lights], np.float64).reshape(-1, 3)
            norms = np.linalg.norm(dirs, axis=1, keepdims=True)
            dirs = np.where(norms > 1e-12, dirs / np.maximum(norms, 1e-12), 0.0)
            amb = max(max([li.ambient for li in lights], default=0.0), 0.25)
            self._lights = LightUniforms(
                dirs.astype(np.float32),
                np.array([li.color for li in lights], np.float32).reshape(-1, 3),
                (amb, amb, amb))
        return self._lights


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
        self.vertex_lit = 0           # the first rows are shaded per vertex
        self.vao = self.vbo = self.ivbo = self.ebo = 0
        self._first_bound = 0         # the row the instance attributes start at
        self.dirty = True

    def set_rows(self, rows: np.ndarray, vertex_lit: int = 0) -> None:
        """The (m, 21) instance rows to draw with this level, the first ``vertex_lit``
        of them shaded per vertex (uploaded at the next draw)."""
        self.rows = np.ascontiguousarray(rows, np.float32)
        self.vertex_lit = int(vertex_lit)
        self.dirty = True

    def _point_instances_at(self, first: int) -> None:
        """Make the instance attributes start at row ``first`` (VAO and ivbo bound)."""
        for k, (size, off) in enumerate(_INSTANCE_ATTRIBUTES):
            GL.glVertexAttribPointer(2 + k, size, GL.GL_FLOAT, False, _ISTRIDE,
                                     ctypes.c_void_p(first * _ISTRIDE + off))
        self._first_bound = first

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
        for k in range(len(_INSTANCE_ATTRIBUTES)):
            GL.glEnableVertexAttribArray(2 + k)
            GL.glVertexAttribDivisor(2 + k, 1)
        self._point_instances_at(0)
        GL.glBindVertexArray(0)

    def draw(self, primitive: int, part: slice = slice(None)) -> None:
        """Upload the rows if changed and draw ``part`` of them (all by default) in one
        instanced call (GL current)."""
        first, stop, _ = part.indices(len(self.rows))
        if stop <= first:
            return
        if not self.vao:
            self._create()
        GL.glBindVertexArray(self.vao)
        if self.dirty or first != self._first_bound:
            GL.glBindBuffer(GL.GL_ARRAY_BUFFER, self.ivbo)
            if self.dirty:
                GL.glBufferData(GL.GL_ARRAY_BUFFER, self.rows.nbytes, self.rows,
                                GL.GL_STREAM_DRAW)
                self.dirty = False
            if first != self._first_bound:
                self._point_instances_at(first)
        draw_calls().draw_elements_instanced(primitive, len(self.index), GL.GL_UNSIGNED_INT,
                                             None, stop - first)
        GL.glBindVertexArray(0)

    def release(self) -> None:
        """Delete the GL buffers (GL current)."""
        if self.vao:
            GL.glDeleteVertexArrays(1, [self.vao])
            GL.glDeleteBuffers(3, [self.vbo, self.ivbo, self.ebo])
            self.vao = self.vbo = self.ivbo = self.ebo = 0
            self._first_bound = 0
            self.dirty = True


ShadingPart = Callable[[LevelBuffers], slice]


def all_rows(level: LevelBuffers) -> slice:
    """Every row of a level, whatever its shading (flat colours, picking, wireframes)."""
    return slice(None)


def vertex_lit_rows(level: LevelBuffers) -> slice:
    """The rows of a level shaded per vertex."""
    return slice(0, level.vertex_lit)


def fragment_lit_rows(level: LevelBuffers) -> slice:
    """The rows of a level shaded per fragment."""
    return slice(level.vertex_lit, None)


class InstanceGroup:
    """The instances of one mesh kind: its levels of detail, static per-instance data, rows."""

    def __init__(self, levels: LodLevels, arrays: Sequence[tuple[np.ndarray, np.ndarray]],
                 solid: np.ndarray, local: np.ndarray, colors: np.ndarray,
                 pick: np.ndarray, cull_back: bool = False, impostors: bool = False,
                 two_sided_vertex_lit: bool = False) -> None:
        self.lod = levels
        self.cull_back = cull_back    # draw with back faces culled (module docstring)
        self.levels = [LevelBuffers(v, i) for v, i in arrays]
        # small round spheres, drawn as impostors (None: the kind has none)
        self.impostors = LevelBuffers(_SQUARE, _SQUARE_INDEX) if impostors else None
        self.two_sided_vertex_lit = two_sided_vertex_lit  # lit per vertex at any size
        self.round = uniformly_scaled(local)  # (n,) bool
        self.solid = solid            # (n,) int Solid index, -1 = world
        self.local = np.ascontiguousarray(local, np.float64)  # (n, 4, 4)
        self.colors = colors          # (n, 4)
        self.pick = pick              # (n,)
        self.stretch = shear_stretch(local)  # (n,) >= 1, see lod.shear_stretch
        n = len(solid)
        # rows model (16, column-major) | rgba | pick id; colours and ids written here
        self.instances = np.zeros((n, 21), np.float32)
        self.instances[:, 16:20] = colors
        self.instances[:, 20] = pick
        self._colors_replaced = False
        self.centres = np.zeros((n, 3))   # world bounding spheres (m)
        self.radii = np.zeros(n)
        # the visible rows sorted into buckets (see `bucket`), and where each starts
        self._sorted = np.zeros((n, 21), np.float32)
        self._bounds = np.zeros(2 * len(self.levels) + 2, np.int64)
        self.version = 0
        self._bucketed: tuple | None = None

    def update(self, solid_world: np.ndarray, colors: np.ndarray | None = None) -> None:
        """Recompute the instance rows from the Solids' world transforms (S + 1, 4, 4)
        (`instance_kernels.fill_instance_rows`); ``colors`` (n, 4) replace the
        instances' own until an update without them."""
        fill_instance_rows(np.ascontiguousarray(solid_world, np.float64), self.solid,
                           self.local, self.lod.centre, self.lod.radius, self.stretch,
                           self.instances, self.centres, self.radii)
        if colors is not None or self._colors_replaced:
            self.instances[:, 16:20] = self.colors if colors is None else colors
            self._colors_replaced = colors is not None
        self.version += 1

    def bucket(self, viewproj: np.ndarray, height_px: int,
               planes: np.ndarray | None = None) -> list[int]:
        """Cull and sort the instances into their levels (and, in a back-face culled
        group, per-vertex shaded first, near to far within each part;
        `instance_kernels.bucket_instances`); returns the count per level.

        ``planes``: `culling.frustum_planes` of ``viewproj`` when the caller has them.
        Recomputed only when the rows, the camera or the viewport height changed.
        """
        viewproj = np.ascontiguousarray(viewproj, np.float64)
        key = (self.version, viewproj.tobytes(), int(height_px))
        if key != self._bucketed:
            self._bucketed = key
            if planes is None:
                planes = frustum_planes(viewproj)
            bucket_instances(self.instances, self.centres, self.radii, self.round, planes,
                             viewproj, float(height_px), self.lod.max_radius_px, self.cull_back,
                             self.impostors is not None, VERTEX_LIT_MAX_PX, IMPOSTOR_MAX_PX,
                             self._sorted, self._bounds)
            # the first row of each slot: 0 impostors; 2k + 1, 2k + 2 level k shaded
            # per vertex, per fragment
            first, rows = self._bounds, self._sorted
            if self.impostors is not None:
                self.impostors.set_rows(rows[:first[1]])
            for k, lv in enumerate(self.levels):
                lv.set_rows(rows[first[2 * k + 1]:first[2 * k + 3]],
                            vertex_lit=first[2 * k + 2] - first[2 * k + 1])
        return [len(lv.rows) for lv in self.levels]

    def draw(self, primitive: int, viewproj: np.ndarray, height_px: int,
             shading: ShadingPart = all_rows, planes: np.ndarray | None = None) -> None:
        """Cull, pick levels and draw the ``shading`` part of each level's rows
        (all of them by default) with one instanced call per level (``planes``: see
        `bucket`)."""
        self.bucket(viewproj, height_px, planes)
        for lv in self.levels:
            lv.draw(primitive, shading(lv))

    def draw_impostors(self, viewproj: np.ndarray, height_px: int,
                       planes: np.ndarray | None = None) -> None:
        """Cull, pick levels and draw the impostor spheres (if the kind has them)."""
        self.bucket(viewproj, height_px, planes)
        if self.impostors is not None:
            self.impostors.draw(GL.GL_TRIANGLES)

    def release(self) -> None:
        """Delete the GL buffers (GL current)."""
        for lv in self.levels + ([self.impostors] if self.impostors is not None else []):
            lv.release()


def uniformly_scaled(local: np.ndarray) -> np.ndarray:
    """(n,) whether each (n, 4, 4) transform's 3x3 block is a rotation times one scale.

    Equal column norms c and a largest singular value of c (`lod.shear_stretch`
    of 1) leave no room for a smaller one (the squares of the singular values
    sum to 3 c^2), so the block is c times a rotation.
    """
    A = np.asarray(local, np.float64)[:, :3, :3]
    if len(A) == 0:
        return np.zeros(0, bool)
    norms = np.sqrt(np.sum(A * A, axis=1))
    return ((norms.max(axis=1) - norms.min(axis=1) <= 1e-9 * norms.max(axis=1))
            & (shear_stretch(local) <= 1.0 + 1e-9))


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
            cull_back = not (self.edges or transparent) and _closed_unmirrored(key, local)
            self.groups[(key, transparent)] = InstanceGroup(
                levels, arrays, np.array([items[i].solid for i in idx], np.int64), local,
                np.array([items[i].color for i in idx], np.float32).reshape(-1, 4),
                np.array([pick_ids[i] for i in idx], np.float32), cull_back=cull_back,
                impostors=cull_back and bool(key) and key[0] in IMPOSTOR_KINDS,
                two_sided_vertex_lit=(not (self.edges or transparent) and bool(key)
                                      and key[0] in TWO_SIDED_VERTEX_LIT_KINDS))

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
        mode = MODE_FLAT if self.edges and mode != MODE_PICK else mode
        prim = GL.GL_LINES if self.edges else GL.GL_TRIANGLES
        planes = frustum_planes(viewproj)  # shared by the groups' culling
        opaque = [g for (_, transparent), g in self.groups.items()
                  if not transparent or mode == MODE_PICK]
        culled = [g for g in opaque if g.cull_back]
        if culled:
            GL.glEnable(GL.GL_CULL_FACE)  # set in full: a plugin's draw pass may change them
            GL.glCullFace(GL.GL_BACK)
            GL.glFrontFace(GL.GL_CCW)
            with_impostors = [g for g in culled if g.impostors is not None]
            if with_impostors:
                program.use(viewproj, eye, lights, mode, shading=Shading.SPHERE_IMPOSTOR)
                for g in with_impostors:
                    g.draw_impostors(viewproj, height_px, planes)
            rest = all_rows
            if mode == MODE_LIT:  # small instances shaded per vertex (module docstring)
                rest = fragment_lit_rows
                program.use(viewproj, eye, lights, mode, shading=Shading.PER_VERTEX)
                for g in culled:
                    g.draw(prim, viewproj, height_px, vertex_lit_rows, planes)
            program.use(viewproj, eye, lights, mode)
            for g in culled:
                g.draw(prim, viewproj, height_px, rest, planes)
            GL.glDisable(GL.GL_CULL_FACE)
        else:
            program.use(viewproj, eye, lights, mode)
        two_sided_vertex_lit = [g for g in opaque if g.two_sided_vertex_lit and mode == MODE_LIT]
        for g in opaque:
            if not g.cull_back and g not in two_sided_vertex_lit:
                g.draw(prim, viewproj, height_px, planes=planes)
        if two_sided_vertex_lit:  # planes (module docstring)
            program.use(viewproj, eye, lights, mode, shading=Shading.PER_VERTEX_TWO_SIDED)
            for g in two_sided_vertex_lit:
                g.draw(prim, viewproj, height_px, planes=planes)
            program.use(viewproj, eye, lights, mode)
        if mode == MODE_PICK:
            return
        GL.glEnable(GL.GL_BLEND)
        GL.glBlendFunc(GL.GL_SRC_ALPHA, GL.GL_ONE_MINUS_SRC_ALPHA)
        GL.glDepthMask(GL.GL_FALSE)
        for (_, transparent), g in self.groups.items():
            if transparent:
                g.draw(prim, viewproj, height_px, planes=planes)
        GL.glDepthMask(GL.GL_TRUE)
        GL.glDisable(GL.GL_BLEND)

    def release(self) -> None:
        """Delete every GL buffer (GL current)."""
        for g in list(self.groups.values()) + self._garbage:
            g.release()
        self.groups, self._garbage = {}, []
