"""Coloured line batches (GL_LINES) with one VBO each, re-uploaded only when dirty."""

from __future__ import annotations

import ctypes

import numpy as np
from OpenGL import GL

from app.gl_binding import draw_calls
from app.viewport.shaders import LINE_FRAG, LINE_VERT, compile_program
from app.viewport.transforms import gl_matrix


class LineBatch:
    """Vertices (n, 3) and colours (n, 4) drawn as segments; `set` marks it dirty."""

    def __init__(self) -> None:
        self.data = np.zeros((0, 7), np.float32)
        self.dirty = True
        self.vao = 0
        self.vbo = 0

    def set(self, points: np.ndarray, colors: np.ndarray) -> None:
        """Replace the segments: ``points`` (2k, 3), ``colors`` (2k, 4) or (4,)."""
        points = np.asarray(points, np.float32).reshape(-1, 3)
        colors = np.broadcast_to(np.asarray(colors, np.float32), (len(points), 4))
        self.data = np.ascontiguousarray(np.hstack([points, colors]), np.float32)
        self.dirty = True

    def upload(self) -> None:
        """Create the buffers if needed and upload the data if dirty (GL current)."""
        if not self.vao:
            self.vao = int(GL.glGenVertexArrays(1))
            self.vbo = int(GL.glGenBuffers(1))
            GL.glBindVertexArray(self.vao)
            GL.glBindBuffer(GL.GL_ARRAY_BUFFER, self.vbo)
            GL.glEnableVertexAttribArray(0)
            GL.glVertexAttribPointer(0, 3, GL.GL_FLOAT, False, 28, ctypes.c_void_p(0))
            GL.glEnableVertexAttribArray(1)
            GL.glVertexAttribPointer(1, 4, GL.GL_FLOAT, False, 28, ctypes.c_void_p(12))
            GL.glBindVertexArray(0)
        if self.dirty and len(self.data):
            GL.glBindBuffer(GL.GL_ARRAY_BUFFER, self.vbo)
            GL.glBufferData(GL.GL_ARRAY_BUFFER, self.data.nbytes, self.data, GL.GL_DYNAMIC_DRAW)
        self.dirty = False


class LineDrawer:
    """Draws `LineBatch`es with one shader program."""

    def __init__(self) -> None:
        self.program = 0

    def initialize(self) -> None:
        """Compile the program (GL current)."""
        self.program = compile_program(LINE_VERT, LINE_FRAG)
        self._u_viewproj = GL.glGetUniformLocation(self.program, "u_viewproj")

    def draw(self, batch: LineBatch, viewproj: np.ndarray, width: float = 1.0,
             depth_test: bool = True) -> None:
        """Draw ``batch`` with the given line width, with or without depth test."""
        batch.upload()
        if not len(batch.data):
            return
        GL.glUseProgram(self.program)
        GL.glUniformMatrix4fv(self._u_viewproj, 1, False, gl_matrix(viewproj))
        GL.glLineWidth(width)
        if depth_test:
            GL.glEnable(GL.GL_DEPTH_TEST)
        else:
            GL.glDisable(GL.GL_DEPTH_TEST)
        GL.glBindVertexArray(batch.vao)
        draw_calls().draw_arrays(GL.GL_LINES, 0, len(batch.data))
        GL.glBindVertexArray(0)
        GL.glEnable(GL.GL_DEPTH_TEST)
        GL.glLineWidth(1.0)
