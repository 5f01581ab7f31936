"""`app.gl_binding`: PyOpenGL's GL entry points are called with the GIL held."""

from __future__ import annotations

import ctypes

import pytest
from PySide6.QtGui import QOffscreenSurface, QOpenGLContext

from app.gl_binding import configure_pyopengl


def _ctypes_function(gl_function) -> object:
    """The ctypes function object a (resolved) PyOpenGL raw function calls."""
    call = type(gl_function).__call__
    return getattr(call, "__self__", None) or getattr(call, "__func__", call).__self__


@pytest.fixture
def current_context(qapp, gl_available):
    """An offscreen GL context, current for the test."""
    surface, context = QOffscreenSurface(), QOpenGLContext()
    surface.create()
    assert context.create()
    assert context.makeCurrent(surface)
    yield context
    context.doneCurrent()


def test_gl_calls_hold_the_gil_and_errors_are_still_checked(current_context) -> None:
    assert configure_pyopengl()  # conftest ran it before OpenGL.GL was imported
    from OpenGL import GL
    from OpenGL.raw.GL.VERSION import GL_1_0, GL_1_5

    GL.glGetError()
    GL.glBindBuffer(GL.GL_ARRAY_BUFFER, 0)  # a GL 1.5 entry point, bound lazily
    for raw in (GL_1_0.glGetError, GL_1_5.glBindBuffer):
        function = _ctypes_function(raw)
        assert isinstance(function, ctypes._CFuncPtr)
        assert type(function)._flags_ & ctypes._FUNCFLAG_PYTHONAPI, raw
    try:  # PyOpenGL's per-call error check is still on
        GL.glEnable(0xFFFF)
    except GL.GLError as exc:
        assert exc.err == GL.GL_INVALID_ENUM
    else:
        raise AssertionError("glEnable(0xFFFF) did not raise GLError")


def test_error_checks_switch_off_and_back_on_in_nested_blocks(current_context) -> None:
    from OpenGL import GL

    from app.gl_binding import gl_error_checks

    GL.glGetError()
    with gl_error_checks(False):
        GL.glEnable(0xFFFF)  # no exception: the error waits in GL
        assert GL.glGetError() == GL.GL_INVALID_ENUM
        with gl_error_checks(True), pytest.raises(GL.GLError):
            GL.glEnable(0xFFFF)
        GL.glEnable(0xFFFF)  # off again after the inner block
        assert GL.glGetError() == GL.GL_INVALID_ENUM
    with pytest.raises(GL.GLError):  # and on after the outer one
        GL.glEnable(0xFFFF)
