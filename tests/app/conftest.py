"""Shared fixtures of the app tests: the GL surface format and a GL probe.

The default surface format must be installed before pytest-qt creates the
QApplication, hence the call at import time.
"""

from __future__ import annotations

import pytest

from app.gl_binding import configure_pyopengl
from app.gl_format import set_default_format

set_default_format()
configure_pyopengl()  # before any test module imports OpenGL.GL


@pytest.fixture(scope="session")
def gl_available(qapp) -> bool:
    """Fail clearly (instead of aborting in grabFramebuffer) when no GL context can be made."""
    from PySide6.QtGui import QOpenGLContext, QSurfaceFormat

    ctx = QOpenGLContext()
    ctx.setFormat(QSurfaceFormat.defaultFormat())
    if not ctx.create():
        pytest.fail("no OpenGL context: run GUI tests under xvfb-run with "
                    "QT_QPA_PLATFORM=xcb PYOPENGL_PLATFORM=glx")
    profile = ctx.format().profile()
    if profile == QSurfaceFormat.OpenGLContextProfile.CoreProfile:
        pytest.fail("got a core-profile context: the compatibility format was not applied")
    return True


@pytest.fixture(scope="session", autouse=True)
def warm_engine() -> None:
    """Compile the engine's kernels once, before the tests that wait on the
    engine thread with timeouts: on a cold numba cache the first steps of a
    world compile for minutes, which is not what those tests measure."""
    from pathlib import Path

    from engine.plugins import PluginHost
    from engine.sim import Simulation

    world = Path(__file__).resolve().parents[2] / "resources" / "worlds" / "default.wbt"
    for stepper in ("step", "quickstep"):
        sim = Simulation(str(world), stepper=stepper)
        host = PluginHost(sim)
        host.load_world_plugin()
        for _ in range(80):
            host.step()
        host.close()
        # no plugin collide callback: the batched default contacts (their own kernels)
        sim = Simulation(str(world), stepper=stepper)
        sim.record_contact_feedback = True
        for _ in range(80):
            sim.step()
        assert sim._handler._batch is not None


@pytest.fixture
def gridless_view(qtbot, gl_available):
    """A shown 400x300 viewport without grid (camera at (-4, 0, 3) looking at the origin)."""
    from tests.app.test_viewport_helpers import shown_viewport

    w = shown_viewport(qtbot)
    w.show_grid = False
    yield w
    w.close()
