"""Helpers of the viewport tests: small worlds, frames, pixel access."""

from __future__ import annotations

from collections.abc import Sequence
from types import MappingProxyType
from typing import Any

import numpy as np
from PySide6.QtGui import QImage

from engine.sim.frame import ContactInfo, ContactSet, Frame
from engine.world import parse_world

# Camera at (-4, 0, 3) looking at the origin (pitch down atan(3/4)); screen right is -Y.
HEADER = """#VRML_SIM R2025a utf8
WorldInfo {}
Viewpoint { orientation 0 1 0 0.6435011 position -4 0 3 }
Background { skyColor [ 0 0 0 ] }
"""


def box_solid(def_name: str, color: tuple, pos: tuple = (0, 0, 0), size: float = 0.5,
              transparency: float = 0.0) -> str:
    """A Solid with one coloured Box Shape and a Box boundingObject."""
    r, g, b = color
    x, y, z = pos
    return (f"DEF {def_name} Solid {{ translation {x} {y} {z} children [ Shape {{ "
            f"appearance PBRAppearance {{ baseColor {r} {g} {b} metalness 0 roughness 1 "
            f"transparency {transparency} }} geometry Box {{ size {size} {size} {size} }} }} ] "
            f"name \"{def_name}\" boundingObject Box {{ size {size} {size} {size} }} }}\n")


def world(*solids: str) -> Any:
    """A world with the test camera, black background and the given Solid texts."""
    return parse_world(HEADER + "".join(solids))


def frame(poses: dict | None = None, contacts: Sequence[ContactInfo] = (),
          colliding: frozenset = frozenset(), time_ms: float = 0.0) -> Frame:
    """A simulation `Frame` with these poses (no pose arrays), contacts and colliding Solids."""
    return Frame(time_ms=time_ms, poses=MappingProxyType(dict(poses or {})),
                 contacts=ContactSet.of(list(contacts)), colliding=colliding)


def pose(pos: tuple, R: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
    """(pos (3,), R (3, 3)) world pose."""
    return np.asarray(pos, float), np.eye(3) if R is None else R


def pixels(img: QImage) -> np.ndarray:
    """(h, w, 4) uint8 RGBA copy of a QImage."""
    img = img.convertToFormat(QImage.Format.Format_RGBA8888)
    h, w, bpl = img.height(), img.width(), img.bytesPerLine()
    data = np.frombuffer(img.constBits(), np.uint8, count=h * bpl).reshape(h, bpl)
    return data[:, : w * 4].reshape(h, w, 4).copy()


def at(px: np.ndarray, xy: tuple[float, float]) -> np.ndarray:
    """RGB at a (float) pixel position."""
    x, y = int(round(xy[0])), int(round(xy[1]))
    return px[y, x, :3].astype(int)


def count_near(px: np.ndarray, rgb: tuple, tol: int = 40,
               region: tuple[int, int, int, int] | None = None) -> int:
    """Number of pixels within ``tol`` of ``rgb`` (0-255) per channel, optionally in (x0, y0, x1, y1)."""
    if region is not None:
        x0, y0, x1, y1 = region
        px = px[max(y0, 0):y1, max(x0, 0):x1]
    diff = np.abs(px[..., :3].astype(int) - np.asarray(rgb)[None, None, :])
    return int(np.sum(np.all(diff <= tol, axis=-1)))


def around(xy: tuple[float, float], r: int = 4) -> tuple[int, int, int, int]:
    """Square region of half-size ``r`` around a pixel."""
    x, y = int(round(xy[0])), int(round(xy[1]))
    return x - r, y - r, x + r + 1, y + r + 1


def is_red(rgb: np.ndarray) -> bool:
    """Clearly red."""
    return rgb[0] > 150 and rgb[1] < 60 and rgb[2] < 60


def sphere_solid(name: str, color: tuple, pos: tuple, radius: float) -> str:
    """A Solid with one coloured Sphere Shape and a Sphere boundingObject."""
    r, g, b = color
    x, y, z = pos
    return (f"DEF {name} Solid {{ translation {x} {y} {z} children [ Shape {{ appearance "
            f"PBRAppearance {{ baseColor {r} {g} {b} metalness 0 roughness 1 }} geometry "
            f"Sphere {{ radius {radius} }} }} ] name \"{name}\" "
            f"boundingObject Sphere {{ radius {radius} }} }}\n")


def shown_viewport(qtbot: Any, size: tuple[int, int] = (400, 300)) -> Any:
    """A `ViewportWidget` of ``size`` (logical pixels), shown and exposed, owned by qtbot."""
    from app.viewport import ViewportWidget

    w = ViewportWidget()
    w.resize(*size)
    qtbot.addWidget(w)
    w.show()
    qtbot.waitExposed(w)
    qtbot.waitUntil(lambda: w.renderer.initialized, timeout=5000)  # the GL window's first paint
    return w


def grab(w: Any) -> np.ndarray:
    """Render ``w`` now and return its framebuffer as (h, w, 4) pixels; fails on a paint
    exception or a GL error."""
    px = pixels(w.grabFramebuffer())
    assert w.paint_errors == []
    assert w.gl_errors == []
    return px
