"""Repaints as soon as the event loop is free: Qt's idle delay before a
requested window update is set to zero.

`QWindow.requestUpdate` (what `QOpenGLWindow.update` calls) waits
``QT_QPA_UPDATE_IDLE_TIME`` milliseconds (5 by default) before it delivers
the update on platforms without frame callbacks (xcb, offscreen). The
viewport asks for a repaint when its 16 ms frame timer finds a new frame; a
frame that takes 14 ms to draw on the software renderer then came every
19 ms, 51 frames a second with 1000 bodies, instead of every 16 (decision
0028, `bench/bench_viewport.py`). Qt reads the variable once, at the first
update request, so `paint_without_idle_delay` runs before any window exists
(`app.gl_format.set_default_format` calls it). A value the user set is kept.
"""

from __future__ import annotations

import os
from collections.abc import MutableMapping

#: Qt's variable: milliseconds between an update request and its delivery.
UPDATE_IDLE_TIME = "QT_QPA_UPDATE_IDLE_TIME"


def paint_without_idle_delay(environ: MutableMapping[str, str] | None = None) -> str:
    """Set ``QT_QPA_UPDATE_IDLE_TIME`` to 0 in ``environ`` (the process's
    environment by default) unless it is set; returns the value in force."""
    env = os.environ if environ is None else environ
    return env.setdefault(UPDATE_IDLE_TIME, "0")
