"""Frames per second of the 3D viewport with many moving bodies (synthetic frames).

A world of N Solids (half Boxes, half Spheres, each with a boundingObject)
on a grid is shown in an 800x600 `ViewportWidget`; every frame moves and
turns every body (a new duck-typed frame: poses, contacts, colliding), then
the widget repaints synchronously and ``glFinish`` waits for the GPU (Mesa
llvmpipe under Xvfb here). Variants: shapes only, and shapes + wireframe
boundingObjects (5 % of them highlighted as colliding) + one contact with a
force arrow per 10 bodies. The table gives medians over ``--frames`` frames
of each kind (after warm-up frames): "render" is the viewport's own work
(set_frame, paintGL, glFinish), "display" adds Qt composing the GL view into
the window (repaint + processEvents), as the app's timer-driven updates do.

Run under Xvfb::

    QT_QPA_PLATFORM=xcb PYOPENGL_PLATFORM=glx xvfb-run -a -s "-screen 0 1280x1024x24" \\
        .venv/bin/python bench/bench_viewport.py [--bodies 100,1000] [--frames 60]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path
from types import SimpleNamespace

import numpy as np

REPO = Path(__file__).resolve().parents[1]
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))


def make_world(n: int):
    """A world of ``n`` Solids alternately Box and Sphere on a square grid."""
    from engine.world import parse_world

    side = int(np.ceil(np.sqrt(n)))
    parts = ["#VRML_SIM R2025a utf8\nWorldInfo {}\n",
             f"Viewpoint {{ orientation 0 1 0 0.6 position {-side * 0.9} 0 {side * 0.6} }}\n",
             "Background { skyColor [ 0.2 0.25 0.3 ] }\n"]
    for i in range(n):
        x, y = (i % side - side / 2) * 0.5, (i // side - side / 2) * 0.5
        geom = "Box { size 0.2 0.2 0.2 }" if i % 2 == 0 else "Sphere { radius 0.12 }"
        c = ((i * 37) % 100 / 100, (i * 59) % 100 / 100, 0.6)
        parts.append(f"Solid {{ translation {x} {y} 0.2 children [ Shape {{ appearance "
                     f"PBRAppearance {{ baseColor {c[0]} {c[1]} {c[2]} metalness 0 }} "
                     f"geometry {geom} }} ] name \"b{i}\" boundingObject {geom} }}\n")
    return parse_world("".join(parts))


def frames(solids, base: np.ndarray, count: int, contacts: bool):
    """``count`` synthetic frames moving every Solid along a small circle and spinning it."""
    n = len(solids)
    phase = np.arange(n) * 0.1
    for k in range(count):
        t = k * 0.05
        pos = base + np.stack([0.1 * np.cos(t + phase), 0.1 * np.sin(t + phase),
                               0.1 * np.abs(np.sin(2 * t + phase))], 1)
        c, s = np.cos(t + phase), np.sin(t + phase)
        R = np.zeros((n, 3, 3))
        R[:, 0, 0], R[:, 0, 1], R[:, 1, 0], R[:, 1, 1], R[:, 2, 2] = c, -s, s, c, 1
        cts = ()
        if contacts:
            cts = tuple(SimpleNamespace(pos=pos[i] - (0, 0, 0.1), normal=np.array([0, 0, 1.0]),
                                        depth=0.001, force=np.array([0, 0, 5.0]))
                        for i in range(0, n, 10))
        yield SimpleNamespace(poses={solids[i]: (pos[i], R[i]) for i in range(n)},
                              contacts=cts, colliding=frozenset(solids[:n // 20]),
                              time_ms=k * 16.0)


def run(w, app, n: int, count: int, overlays: bool) -> tuple[float, float]:
    """Median times (s) of a rendered frame and of a displayed frame.

    Rendered: ``set_frame`` + ``paintGL`` called directly + ``glFinish`` (the
    viewport's own work). Displayed: ``set_frame`` + ``repaint`` +
    ``processEvents`` + ``glFinish`` (adds Qt composing the GL view into the
    window, as the app's 60 Hz timer would).
    """
    from OpenGL import GL

    w.set_world(make_world(n))
    w.show_bounding_objects = w.show_contacts = w.show_forces = overlays
    solids = w.scene.solids
    base = w.scene.static_solid_world()[:-1, :3, 3]
    rendered, displayed = [], []
    for k, f in enumerate(frames(solids, base, 2 * (count + 5), overlays)):
        t0 = time.perf_counter()
        w.set_frame(f)
        if k % 2 == 0:
            w.makeCurrent()
            w.paintGL()
            GL.glFinish()
            w.doneCurrent()
        else:
            w.repaint()
            app.processEvents()
            w.makeCurrent()
            GL.glFinish()
            w.doneCurrent()
        if k >= 10:
            (rendered if k % 2 == 0 else displayed).append(time.perf_counter() - t0)
        assert not w.paint_errors and not w.gl_errors, (w.paint_errors, w.gl_errors)
    return statistics.median(rendered), statistics.median(displayed)


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark and print the table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bodies", default="100,1000")
    parser.add_argument("--frames", type=int, default=60)
    args = parser.parse_args(argv)

    from app.gl_format import set_default_format

    set_default_format()
    from OpenGL import GL
    from PySide6.QtWidgets import QApplication

    from app.viewport import ViewportWidget

    app = QApplication.instance() or QApplication([])
    w = ViewportWidget()
    w.resize(800, 600)
    w.show()
    for _ in range(10):
        app.processEvents()
    w.makeCurrent()
    renderer = GL.glGetString(GL.GL_RENDERER).decode()
    w.doneCurrent()
    print(f"renderer: {renderer}; window 800x600; {args.frames} frames per row")
    print(f"{'bodies':>7} {'overlays':>9} {'render ms':>10} {'render fps':>11} "
          f"{'display ms':>11} {'display fps':>12}")
    for n in (int(v) for v in args.bodies.split(",")):
        for overlays in (False, True):
            ren, disp = run(w, app, n, args.frames, overlays)
            print(f"{n:>7} {('yes' if overlays else 'no'):>9} {ren * 1e3:>10.1f} "
                  f"{1 / ren:>11.1f} {disp * 1e3:>11.1f} {1 / disp:>12.1f}")
    w.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
