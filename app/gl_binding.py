"""How PyOpenGL calls libGL in Odeon: without releasing the GIL.

The engine runs in a background thread of the same process and holds the GIL
for most of a step (collision callbacks, contact joints and plugins are
Python). By default ctypes releases the GIL around every foreign call, so each
of the viewport's GL calls gave the GIL away and then waited for it to come
back: up to ``sys.getswitchinterval()`` per call, dozens of calls a frame.
Measured with 100 falling bodies on the 2-core test machine, a frame's paint
took 45 ms that way and 12 ms with the calls below (bench/bench_viewport.py).

`configure_pyopengl` therefore sets PyOpenGL's per-library ``FunctionType``
hook of the GL and GLX libraries to `ctypes.PYFUNCTYPE`: GL entry points are
called with the GIL held. A GL call is short (llvmpipe rasterises in its own
threads; Qt composes and swaps in C++ without the GIL), so the engine loses
little. PyOpenGL's error check after each call stays on for plugins: it is
what turns a plugin's GL mistake into an exception with a traceback in the
console. The viewport's own drawing turns it off (`gl_error_checks`) and
collects errors once per frame instead.

The hook is read when a GL function is bound, so this must run before
``OpenGL.GL`` is first imported; `app.viewport` calls it on import.

The draw calls are the exception (`DrawCalls`, `draw_calls`): with a software
GL driver they shade every vertex and set up every triangle in the calling
thread, up to a millisecond a call with 1000 bodies. Holding the GIL that
long stalled the engine's Python; since the GUI thread takes the GIL back
within ``sys.getswitchinterval()`` (0.1 ms while the app runs,
`app.runner_qt.GUI_SWITCH_INTERVAL_S`), they release it like any C call.
"""

from __future__ import annotations

import contextlib
import ctypes
import logging
import sys
from collections.abc import Iterator
from functools import lru_cache
from typing import Any, NamedTuple

log = logging.getLogger(__name__)

_configured = False


def configure_pyopengl() -> bool:
    """Set up PyOpenGL as the module docstring says (idempotent).

    Returns True when the settings are in effect, False (with a warning logged)
    when ``OpenGL.GL`` had already been imported by someone else, in which case
    the functions it bound keep releasing the GIL.
    """
    global _configured
    if _configured:
        return True
    if "OpenGL.GL" in sys.modules:
        log.warning("OpenGL.GL was imported before app.gl_binding.configure_pyopengl(); "
                    "GL calls will release the GIL (slower viewport while running)")
        return False
    from OpenGL import platform

    for name in ("GL", "GLX"):
        try:
            library = getattr(platform.PLATFORM, name)
        except (AttributeError, OSError):  # e.g. no GLX on an EGL platform
            continue
        if library is not None:
            library.FunctionType = ctypes.PYFUNCTYPE
    _configured = True
    return True


@contextlib.contextmanager
def gl_error_checks(enabled: bool) -> Iterator[None]:
    """Turn PyOpenGL's ``glGetError`` after every GL call off (or back on) inside the
    block, restoring the previous setting afterwards.

    The viewport's own drawing runs with the checks off: about a hundred calls a
    frame, each followed by a ``glGetError`` round trip, for errors the renderer
    collects once per frame anyway (`ViewportRenderer.gl_errors`). A plugin's draw
    passes run with them on, so its GL mistakes stay exceptions with a traceback.
    Inside a ``glBegin``/``glEnd`` pair PyOpenGL turns them off itself; do not
    switch them there. Without PyOpenGL's error checking (``OpenGL.ERROR_CHECKING``
    false) this does nothing.
    """
    from OpenGL.raw.GL import _errors

    checker = _errors._error_checker
    if not checker:
        yield
        return
    previous = checker._currentChecker
    checker._currentChecker = checker._registeredChecker if enabled else checker.nullGetError
    try:
        yield
    finally:
        checker._currentChecker = previous


class DrawCalls(NamedTuple):
    """GL draw entry points called without the GIL (module docstring), with
    ctypes arguments: ``draw_elements_instanced(mode, count, type, indices
    (byte offset into the bound element buffer), instances)`` and
    ``draw_arrays(mode, first, count)``. No PyOpenGL error check follows them
    (the viewport collects errors once per frame)."""

    draw_elements_instanced: Any
    draw_arrays: Any


@lru_cache(maxsize=1)
def draw_calls() -> DrawCalls:
    """The `DrawCalls` of the GL library PyOpenGL loaded (bound once)."""
    from OpenGL import platform

    library = platform.PLATFORM.GL  # a ctypes.CDLL: its functions release the GIL
    enum, size = ctypes.c_uint, ctypes.c_int
    elements = library.glDrawElementsInstanced
    elements.argtypes = (enum, size, enum, ctypes.c_void_p, size)
    elements.restype = None
    arrays = library.glDrawArrays
    arrays.argtypes = (enum, ctypes.c_int, size)
    arrays.restype = None
    return DrawCalls(elements, arrays)
