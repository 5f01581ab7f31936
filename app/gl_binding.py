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
little. PyOpenGL's error check after each call stays on: it is cheap once it
no longer gives the GIL away, and it is what turns a plugin's GL mistake into
an exception with a traceback in the console.

The hook is read when a GL function is bound, so this must run before
``OpenGL.GL`` is first imported; `app.viewport` calls it on import.
"""

from __future__ import annotations

import ctypes
import logging
import sys

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
