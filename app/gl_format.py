"""The OpenGL surface format of the whole app (call before any GL widget exists).

Odeon's viewport needs a *compatibility* context so that physics plugins can
use legacy GL (glBegin/glVertex, GL_PROJECTION/GL_MODELVIEW stacks) next to
the renderer's shaders. On xcb/GLX, a 3.3 CompatibilityProfile request without
``DeprecatedFunctions`` yields a forward-compatible *core* context (legacy
calls then fail), so that option is required.
"""

from __future__ import annotations

from PySide6.QtGui import QSurfaceFormat

from app.render_threads import leave_a_core_for_the_engine
from app.update_timing import paint_without_idle_delay


def default_format() -> QSurfaceFormat:
    """The format: GL 3.3 compatibility with deprecated functions, 24-bit depth, no MSAA."""
    fmt = QSurfaceFormat()
    fmt.setRenderableType(QSurfaceFormat.RenderableType.OpenGL)
    fmt.setVersion(3, 3)
    fmt.setProfile(QSurfaceFormat.OpenGLContextProfile.CompatibilityProfile)
    fmt.setOption(QSurfaceFormat.FormatOption.DeprecatedFunctions)
    fmt.setDepthBufferSize(24)
    fmt.setStencilBufferSize(8)
    fmt.setSamples(0)  # exact pixels for tests and the ID picking pass
    return fmt


def set_default_format() -> QSurfaceFormat:
    """Install `default_format()` as Qt's default surface format and return it;
    also limit the software renderer's threads (`app.render_threads`) and
    have window updates delivered without Qt's idle delay (`app.update_timing`).

    Call it before the QApplication (or at least before any GL window or widget) is
    created; tests do it from tests/app/conftest.py at import time.
    """
    leave_a_core_for_the_engine()
    paint_without_idle_delay()
    fmt = default_format()
    QSurfaceFormat.setDefaultFormat(fmt)
    return fmt
