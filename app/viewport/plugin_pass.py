"""Running a physics plugin's draw pass with legacy GL set up and all state restored.

Webots loads the world-coordinates matrices before calling
``webots_physics_draw`` and expects the plugin to leave GL as it found it;
Odeon makes that safe: every attribute, client attribute and both matrix
stacks are pushed, the fixed-function pipeline is selected
(``glUseProgram(0)``, no VAO/VBO bound) and everything is popped afterwards,
even when the callable raises.
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Callable

import numpy as np
from OpenGL import GL
from OpenGL import error as _gl_error
from OpenGL.raw.GL import _errors as _gl_errors

from app.viewport.transforms import gl_matrix

log = logging.getLogger(__name__)


def run_plugin_pass(fn: Callable[[int], object], pass_: int, projection: np.ndarray,
                    view: np.ndarray) -> BaseException | None:
    """Call ``fn(pass_)`` with ``projection``/``view`` (4, 4) in GL_PROJECTION/GL_MODELVIEW.

    Returns the exception the callable raised (also logged), or None.
    """
    GL.glUseProgram(0)
    GL.glBindVertexArray(0)
    GL.glBindBuffer(GL.GL_ARRAY_BUFFER, 0)
    GL.glPushAttrib(GL.GL_ALL_ATTRIB_BITS)
    GL.glPushClientAttrib(GL.GL_CLIENT_ALL_ATTRIB_BITS)
    GL.glMatrixMode(GL.GL_PROJECTION)
    GL.glPushMatrix()
    GL.glLoadMatrixf(gl_matrix(projection))
    GL.glMatrixMode(GL.GL_MODELVIEW)
    GL.glPushMatrix()
    GL.glLoadMatrixf(gl_matrix(view))
    GL.glEnable(GL.GL_DEPTH_TEST)
    GL.glDisable(GL.GL_LIGHTING)
    GL.glDisable(GL.GL_TEXTURE_2D)
    GL.glColor4f(1.0, 1.0, 1.0, 1.0)
    error: BaseException | None = None
    try:
        fn(pass_)
    except Exception as exc:  # a plugin bug must not break the viewport
        log.exception("plugin draw pass %d failed", pass_)
        error = exc
    finally:
        _end_open_begin()
        _drain_errors()  # errors made by the plugin are its own
        GL.glMatrixMode(GL.GL_PROJECTION)
        GL.glPopMatrix()
        GL.glMatrixMode(GL.GL_MODELVIEW)
        GL.glPopMatrix()
        GL.glPopClientAttrib()
        GL.glPopAttrib()
    return error


def _end_open_begin() -> None:
    """A draw that raised between glBegin and glEnd leaves GL, and PyOpenGL's
    error checker (which skips checks inside glBegin), inside glBegin: the
    next draw's GL calls then fail. End it here, unchecked."""
    checker = _gl_errors._error_checker
    if checker is None or checker._currentChecker is checker._registeredChecker:
        return
    with contextlib.suppress(_gl_error.GLError):
        GL.glEnd()  # unchecked (still inside glBegin); switches the checker back on


def _drain_errors() -> None:
    for _ in range(32):
        if GL.glGetError() == GL.GL_NO_ERROR:
            break
