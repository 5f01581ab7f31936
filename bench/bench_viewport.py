"""Viewport frames per second and GUI latency with N falling bodies while the engine runs.

Default mode (the real thing): a world of N bodies (N = ``--bodies``,
100 and 1000 by default) is generated into a temporary .wbt file: a floor
Plane and a grid of alternately Box and Sphere Solids (boundingObject,
Physics) at three heights above it, so they fall, collide and pile up. The
world is opened in the real `app.main_window.MainWindow` (temporary settings
file, dialogs answered without showing), shown at 1280x860, and
``run_fast()`` lets the engine thread step flat out. After ``--warmup``
seconds, for ``--seconds`` seconds of wall time (an event loop runs; nothing
else) the bench counts:

- displayed fps: the viewport's ``frameSwapped`` signals per second (frames
  actually painted and composed);
- snapshots/s: frames the `RunnerBridge` delivered to the window
  (``frame_ready``: a newer published snapshot was found by the 60 Hz timer);
- GUI gap median / p95 / max [ms]: the intervals between two timeouts of the
  bridge's 16 ms frame timer (the GUI thread's latency; 16-17 ms is ideal);
- per-frame GUI work [ms, medians]: ``MainWindow._on_frame``'s parts
  (``viewport.set_frame``, ``plots.add_frame``), the scene tree's drain of
  the engine's field notifications (``tree``: `SceneTreeModel._drain`, at
  most every 50 ms), its pull of the shown pose rows (``pull``:
  `SceneTreeModel.pull`, every 50 ms; nan for a version without it) and the
  viewport's ``paintGL``, timed by wrapping them on the instances;
- engine steps/s with the GUI: ``Frame.steps`` delta / wall time;
- engine steps/s headless: the same world in an `EngineRunner` without any
  window (same run_fast loop, frames published as in the app), measured the
  same way just before, so the GUI's cost on the engine shows side by side;
  ``kept``: steps/s with the GUI over headless.

- CPU by thread [% of one core]: user + system time of the GUI (main)
  thread, the engine's Python threads and the GL driver's threads (llvmpipe
  rasterises in its own threads) over the measured seconds, from /proc; the
  same for the headless run (printed as it ends), so a machine whose other
  load starves the engine (nice 10) shows as such; and from them the CPU
  [ms] the GUI + GL driver threads spend per displayed frame and the engine
  per step, figures that depend little on that other load.

``--orbit`` turns the camera a little on every frame timer tick, as a user
dragging the view would, so a frame is painted on every tick even when the
engine publishes fewer (1000 bodies step slower than 60 Hz).
``--world a.wbt,b.wbt`` measures these worlds instead of the falling bodies
(the default world, for instance).
``--surface window,widget`` runs each N with the app's viewport (a
QOpenGLWindow in a window container, ``window``) and with a QOpenGLWidget twin
drawing with the same renderer (``widget``: Qt composes its framebuffer object
into the main window on every frame, as the viewport did before decision
0011), one after the other, for a side-by-side figure.
``--engine-nice 10,0`` runs each N and surface with the engine thread at
these nice values (`app.runner.ENGINE_THREAD_NICE`; 10 in the app, 0 = the
GUI's priority), one after the other.
``--gui-first on,off`` runs each with and without `EngineRunner.gui_first`
(the engine starts no step while a frame is painted; on in the app).
``--gil-releasing-gl`` skips `app.gl_binding.configure_pyopengl` (GL calls
release the GIL, as before it existed), for a side-by-side run.
``--profile`` adds a cProfile of the GUI thread (the main thread) over the
measured seconds of each N (top functions by cumulative time).

``--synthetic`` keeps the renderer-only benchmark: synthetic frames (every
body moved and turned each frame) fed to a bare 800x600 `ViewportWidget`,
repainted synchronously with ``glFinish``; "render" is set_frame + paintGL,
"display" adds Qt composing the GL view into the window (repaint +
processEvents); medians over ``--frames`` frames, with and without overlays
(boundingObjects, contacts, forces).

Run under Xvfb (Mesa llvmpipe: software GL; numbers are modest)::

    QT_QPA_PLATFORM=xcb PYOPENGL_PLATFORM=glx xvfb-run -a -s "-screen 0 1280x1024x24" \\
        .venv/bin/python bench/bench_viewport.py [--bodies 100,1000] [--seconds 5] [--orbit] \\
        [--surface window,widget] [--engine-nice 10,0] [--gui-first on,off] \\
        [--gil-releasing-gl] [--profile]
    ... bench/bench_viewport.py --synthetic [--bodies 100,1000] [--frames 60]
"""

from __future__ import annotations

import argparse
import cProfile
import io
import itertools
import os
import pstats
import statistics
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path
from types import MappingProxyType

import numpy as np

REPO = Path(__file__).resolve().parents[1]
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

#: Size of the main window [px].
WINDOW_SIZE = (1280, 860)
#: Spacing of the body grid [m] and the body size (box edge, sphere diameter) [m].
GRID_STEP, BODY_SIZE = 0.3, 0.2


# --------------------------------------------------------------------------- world file
def falling_world_text(n: int) -> str:
    """A .wbt world: a floor Plane and ``n`` Box/Sphere Solids (1 kg each) on a
    square grid of ``GRID_STEP`` m spacing, at heights 0.3, 0.55, 0.8 m."""
    side = int(np.ceil(np.sqrt(n)))
    span = side * GRID_STEP / 2 + 1.0
    floor = f"Plane {{ size {2 * span} {2 * span} }}"
    parts = ["#VRML_SIM R2025a utf8\n",
             f'WorldInfo {{ title "bench {n} bodies" basicTimeStep 16 }}\n',
             f"Viewpoint {{ orientation -0.212 0.513 0.832 0.924 "
             f"position {-1.6 * span} {-1.6 * span} {1.5 * span} }}\n",
             "Background { skyColor [ 0.55 0.7 0.85 ] }\n",
             "DirectionalLight { ambientIntensity 0.6 direction 0.4 0.6 -1 }\n",
             f'Solid {{ children [ Shape {{ appearance PBRAppearance {{ baseColor 0.75 0.75 0.7 '
             f'metalness 0 }} geometry {floor} }} ] name "floor" boundingObject {floor} }}\n']
    half = BODY_SIZE / 2
    for i in range(n):
        x = (i % side - (side - 1) / 2) * GRID_STEP
        y = (i // side - (side - 1) / 2) * GRID_STEP
        z = 0.3 + 0.25 * (i % 3)
        geom = (f"Box {{ size {BODY_SIZE} {BODY_SIZE} {BODY_SIZE} }}" if i % 2 == 0
                else f"Sphere {{ radius {half} }}")
        r, g = (i * 37) % 100 / 100, (i * 59) % 100 / 100
        parts.append(f"Solid {{ translation {x:.3f} {y:.3f} {z:.3f} "
                     f"rotation 1 1 0 {0.1 * (i % 7):.2f} children [ Shape {{ appearance "
                     f"PBRAppearance {{ baseColor {r} {g} 0.6 metalness 0 }} geometry {geom} }} ] "
                     f'name "b{i}" boundingObject {geom} '
                     "physics Physics { density -1 mass 1 } }\n")
    return "".join(parts)


def write_falling_world(n: int, directory: Path) -> Path:
    """Write `falling_world_text` (``n`` bodies) to ``directory/falling_<n>.wbt``."""
    path = directory / f"falling_{n}.wbt"
    path.write_text(falling_world_text(n))
    return path


# ------------------------------------------------------------------------ measuring
def percentile(values: list[float], q: float) -> float:
    """The ``q`` quantile (0..1) of ``values`` (nearest rank; nan when empty)."""
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(q * (len(ordered) - 1))))]


def thread_cpu_ticks() -> dict[int, tuple[str, int]]:
    """{thread id: (name, user + system CPU clock ticks)} of this process's threads
    (Linux ``/proc/self/task``; empty elsewhere)."""
    out: dict[int, tuple[str, int]] = {}
    for task in Path("/proc/self/task").glob("*"):
        try:
            name = (task / "comm").read_text().strip()
            fields = (task / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:  # the thread ended meanwhile
            continue
        out[int(task.name)] = (name, int(fields[11]) + int(fields[12]))
    return out


def cpu_shares(before: dict, after: dict, wall: float) -> dict[str, float]:
    """{thread kind: % of one core} of the threads that used CPU between two
    `thread_cpu_ticks` (GUI = the main thread, engine, the GL driver's threads...)."""
    hz = os.sysconf("SC_CLK_TCK")
    main_tid = threading.main_thread().native_id
    main_name = after.get(main_tid, ("", 0))[0]
    totals: dict[str, float] = {}
    for tid, (name, ticks) in after.items():
        used = ticks - before.get(tid, (name, 0))[1]
        # Python threads keep the process's name: the non-GUI ones are the engine's
        kind = "GUI" if tid == main_tid else "engine" if name == main_name else name
        totals[kind] = totals.get(kind, 0.0) + used / hz / wall * 100.0
    return totals


def format_shares(shares: dict[str, float]) -> str:
    """"name pct%, ..." of `cpu_shares`, largest first (1 % and more)."""
    return ", ".join(f"{k} {v:.0f}%" for k, v in sorted(shares.items(), key=lambda kv: -kv[1])
                     if v >= 1.0)


def cpu_per_event(shares: dict[str, float], fps: float, steps: float) -> str:
    """CPU [ms] the GUI and the GL driver's threads spent per displayed frame and the
    engine per step (from `cpu_shares` [% of one core] and the rates [1/s]): unlike
    rates, these hardly depend on what the machine's other load leaves the process."""
    frame = sum(v for k, v in shares.items() if k != "engine") * 10.0 / fps if fps else 0.0
    step = shares.get("engine", 0.0) * 10.0 / steps if steps else 0.0
    return f"GUI + GL {frame:.1f} ms CPU per displayed frame, engine {step:.1f} ms CPU per step"


def wait(app, seconds: float) -> None:
    """Run the Qt event loop for ``seconds`` of wall time."""
    from PySide6.QtCore import QEventLoop, QTimer

    loop = QEventLoop()
    QTimer.singleShot(int(seconds * 1000), loop.quit)
    loop.exec()


def steps_now(runner) -> int:
    """The engine's step count now, asked between two of its steps (a published
    frame may be older: the engine builds one only when the last was read)."""
    return runner.call(lambda sim: sim.steps).result(timeout=10.0)


def headless_rate(path: Path, warmup: float, seconds: float) -> tuple[float, dict[str, float]]:
    """Engine steps per wall second of ``path`` in an `EngineRunner` without a window
    (run_fast; nothing reads its frames, so it builds none: `steps_now`), and the
    CPU by thread meanwhile (`cpu_shares`: what the machine's other load left the
    engine)."""
    from app.runner import EngineRunner

    with EngineRunner(str(path)) as runner:
        runner.run_fast()
        time.sleep(warmup)
        s0, t0 = steps_now(runner), time.perf_counter()
        cpu0 = thread_cpu_ticks()
        time.sleep(seconds)
        s1, t1 = steps_now(runner), time.perf_counter()
        cpu = cpu_shares(cpu0, thread_cpu_ticks(), t1 - t0)
    return (s1 - s0) / (t1 - t0), cpu


class Timed:
    """Wraps ``obj.name`` (an instance attribute shadowing the method) and
    records each call's duration [s] while ``on``."""

    def __init__(self, obj: object, name: str) -> None:
        self.times: list[float] = []
        self.on = False
        inner: Callable | None = getattr(obj, name, None)
        if inner is None:  # an older version of the app: nothing to time
            return

        def wrapper(*args, **kwargs):
            t0 = time.perf_counter()
            try:
                return inner(*args, **kwargs)
            finally:
                if self.on:
                    self.times.append(time.perf_counter() - t0)
        setattr(obj, name, wrapper)

    def median_ms(self) -> float:
        """Median call time [ms] (nan when never called)."""
        return statistics.median(self.times) * 1e3 if self.times else float("nan")


def composed_viewport_class() -> type:
    """A QOpenGLWidget with the viewport's state API and renderer (no mouse, no
    picking): the viewport as it was before decision 0011, for ``--surface widget``."""
    from PySide6.QtCore import Signal
    from PySide6.QtOpenGLWidgets import QOpenGLWidget

    from app.viewport.renderer import ViewportRenderer
    from app.viewport.widget import RendererFacade

    class ComposedViewport(RendererFacade, QOpenGLWidget):
        solid_picked = Signal(object)

        def __init__(self, parent=None) -> None:
            super().__init__(parent)
            self.renderer = ViewportRenderer(changed=self.update)

        def initializeGL(self) -> None:
            self.renderer.initialize()

        def resizeGL(self, w: int, h: int) -> None:
            dpr = self.devicePixelRatioF()
            self.renderer.resize(round(w * dpr), round(h * dpr))

        def paintGL(self) -> None:
            self.renderer.paint()

        def request_paint(self) -> None:
            self.update()

    return ComposedViewport


def gui_run(app, path: Path, settings: Path, warmup: float, seconds: float,
            profile: bool, orbit: bool, surface: str = "window", gui_first: bool = True) -> dict:
    """Open ``path`` in a `MainWindow` (viewport ``surface``: "window" as in the app,
    "widget" the QOpenGLWidget twin), run fast, measure (see module docstring)."""
    import app.main_window as main_window

    errors: list[tuple[str, str]] = []
    viewport_class = main_window.ViewportWidget
    if surface == "widget":
        main_window.ViewportWidget = composed_viewport_class()
    try:
        window = main_window.MainWindow(
            path, settings_path=str(settings), ask_unsaved=lambda _t: "discard",
            confirm=lambda _t, _x: False, show_error=lambda t, x: errors.append((t, x)))
    finally:
        main_window.ViewportWidget = viewport_class
    if not gui_first:
        window.viewport.set_paint_guard(None)
    window.resize(*WINDOW_SIZE)
    window.show()
    timed = {name: Timed(obj, attr) for name, obj, attr in (
        ("set_frame", window.viewport, "set_frame"), ("tree", window.tree.model, "_drain"),
        ("pull", window.tree.model, "pull"),
        ("plots", window.plots, "add_frame"), ("paint", window.viewport.renderer, "paint"))}
    counts = {"swapped": 0, "delivered": 0}
    ticks: list[float] = []
    window.viewport.frameSwapped.connect(lambda: counts.__setitem__("swapped",
                                                                    counts["swapped"] + 1))
    window.bridge.frame_ready.connect(lambda _f: counts.__setitem__("delivered",
                                                                   counts["delivered"] + 1))
    window.bridge.timer.timeout.connect(lambda: ticks.append(time.perf_counter()))
    if orbit:  # a user dragging the view: every timer tick has something new to paint
        def turn() -> None:
            window.viewport.camera.orbit(2.0, 0.0)
            window.viewport.request_paint()
        window.bridge.timer.timeout.connect(turn)
    wait(app, 0.5)
    window.run_fast()
    wait(app, warmup)
    for t in timed.values():
        t.on = True
    counts.update(swapped=0, delivered=0)
    ticks.clear()
    prof = cProfile.Profile() if profile else None
    s0, t0 = steps_now(window.runner), time.perf_counter()
    cpu0 = thread_cpu_ticks()
    if prof:
        prof.enable()
    wait(app, seconds)
    if prof:
        prof.disable()
    s1, t1 = steps_now(window.runner), time.perf_counter()
    cpu = cpu_shares(cpu0, thread_cpu_ticks(), t1 - t0)
    window.pause()
    wall = t1 - t0
    gaps = [(b - a) * 1e3 for a, b in zip(ticks, ticks[1:], strict=False)]
    paint_ok = not window.viewport.paint_errors and not errors
    view_size = f"{window.viewport.width()}x{window.viewport.height()}"
    window.close()
    window.deleteLater()
    wait(app, 0.1)
    if not paint_ok:
        raise RuntimeError(f"errors while running: {errors or window.viewport.paint_errors}")
    result = {"fps": counts["swapped"] / wall, "delivered": counts["delivered"] / wall,
              "gap_med": percentile(gaps, 0.5), "gap_p95": percentile(gaps, 0.95),
              "gap_max": max(gaps, default=float("nan")), "steps": (s1 - s0) / wall,
              "cpu": cpu, "view": view_size}
    result.update({name: t.median_ms() for name, t in timed.items()})
    if prof:
        out = io.StringIO()
        pstats.Stats(prof, stream=out).sort_stats("cumulative").print_stats(25)
        result["profile"] = out.getvalue()
    return result


def main_gui(args: argparse.Namespace) -> int:
    """The default mode: the real window with the engine running (module docstring)."""
    from app.gl_binding import configure_pyopengl
    from app.gl_format import set_default_format

    set_default_format()
    if not args.gil_releasing_gl:
        configure_pyopengl()
    from OpenGL import GL
    from PySide6.QtWidgets import QApplication

    import app.runner as runner_module

    app = QApplication.instance() or QApplication([])
    app_nice = runner_module.ENGINE_THREAD_NICE
    rows = []
    with tempfile.TemporaryDirectory(prefix="odeon_bench_") as tmp:
        tmpdir = Path(tmp)
        worlds = ([(Path(w).stem, Path(w).resolve()) for w in args.world.split(",")]
                  if args.world else
                  [(n, write_falling_world(int(n), tmpdir)) for n in args.bodies.split(",")])
        for n, path in worlds:
            headless, headless_cpu = headless_rate(path, args.warmup, args.seconds)
            step_cpu = headless_cpu.get("engine", 0.0) * 10.0 / max(headless, 1e-9)
            print(f"CPU by thread, {n}, headless (% of one core): "
                  f"{format_shares(headless_cpu)}; engine {step_cpu:.1f} ms CPU per step",
                  flush=True)
            for surface in args.surface.split(","):
                for nice, first in itertools.product(
                        (int(v) for v in args.engine_nice.split(",")),
                        args.gui_first.split(",")):
                    runner_module.ENGINE_THREAD_NICE = nice
                    result = gui_run(app, path, tmpdir / "settings.ini", args.warmup,
                                     args.seconds, args.profile, args.orbit, surface,
                                     gui_first=first == "on")
                    runner_module.ENGINE_THREAD_NICE = app_nice
                    rows.append((n, surface, nice, first, headless, result))
                    if args.profile:
                        print(f"--- GUI thread profile, {n}, {surface}, nice {nice}, "
                              f"gui_first {first} ---\n{result['profile']}")
    from PySide6.QtGui import QOffscreenSurface, QOpenGLContext

    ctx, offscreen = QOpenGLContext(), QOffscreenSurface()
    offscreen.create()
    ctx.create()
    ctx.makeCurrent(offscreen)
    renderer = GL.glGetString(GL.GL_RENDERER).decode()
    ctx.doneCurrent()
    views = sorted({result["view"] for *_, result in rows})
    print(f"renderer: {renderer}; window {WINDOW_SIZE[0]}x{WINDOW_SIZE[1]} "
          f"(3D view {', '.join(views)}); run_fast; "
          f"{'camera orbiting; ' if args.orbit else ''}"
          f"{'GL calls release the GIL; ' if args.gil_releasing_gl else ''}"
          f"{args.seconds:g} s measured after {args.warmup:g} s warm-up")
    print(f"{'world':>6} {'surface':>7} {'nice':>4} {'first':>5} {'disp fps':>8} {'snap/s':>7} "
          f"{'gap med':>8} {'gap p95':>8} {'gap max':>8} {'set_frame':>9} {'tree':>7} "
          f"{'pull':>6} {'plots':>6} {'paint':>7} {'steps/s GUI':>11} {'headless':>9} "
          f"{'kept':>5}")
    for n, surface, nice, first, headless, r in rows:
        print(f"{n:>6} {surface:>7} {nice:>4} {first:>5} {r['fps']:>8.1f} {r['delivered']:>7.1f} "
              f"{r['gap_med']:>8.1f} {r['gap_p95']:>8.1f} {r['gap_max']:>8.1f} "
              f"{r['set_frame']:>9.2f} {r['tree']:>7.2f} {r['pull']:>6.2f} {r['plots']:>6.2f} "
              f"{r['paint']:>7.2f} {r['steps']:>11.1f} {headless:>9.1f} "
              f"{r['steps'] / max(headless, 1e-9):>5.0%}")
    print("world: number of falling bodies or --world file; gaps, set_frame/tree/pull/plots/"
          "paint in ms (medians per call; nan: never called); steps/s = engine steps "
          "per wall second with the window / in an EngineRunner without it; kept = their ratio")
    for n, surface, nice, first, _headless, r in rows:
        print(f"CPU by thread, {n}, {surface}, engine nice {nice}, gui_first {first} "
              f"(% of one core): {format_shares(r['cpu'])}; "
              f"{cpu_per_event(r['cpu'], r['fps'], r['steps'])}")
    return 0


# ---------------------------------------------------------------- --synthetic mode
def synthetic_world(n: int):
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


def synthetic_frames(solids, base: np.ndarray, count: int, contacts: bool):
    """``count`` synthetic frames moving every Solid along a small circle and spinning it."""
    from engine.sim.frame import NO_CONTACTS, ContactInfo, ContactSet, Frame

    n = len(solids)
    phase = np.arange(n) * 0.1
    for k in range(count):
        t = k * 0.05
        pos = base + np.stack([0.1 * np.cos(t + phase), 0.1 * np.sin(t + phase),
                               0.1 * np.abs(np.sin(2 * t + phase))], 1)
        c, s = np.cos(t + phase), np.sin(t + phase)
        R = np.zeros((n, 3, 3))
        R[:, 0, 0], R[:, 0, 1], R[:, 1, 0], R[:, 1, 1], R[:, 2, 2] = c, -s, s, c, 1
        cts = NO_CONTACTS
        if contacts:
            cts = ContactSet.of([ContactInfo(pos[i] - (0, 0, 0.1), np.array([0, 0, 1.0]), 0.001,
                                             np.array([0, 0, 5.0]), solids[i], None)
                                 for i in range(0, n, 10)])
        yield Frame(time_ms=k * 16.0,
                    poses=MappingProxyType({solids[i]: (pos[i], R[i]) for i in range(n)}),
                    contacts=cts, colliding=frozenset(solids[:n // 20]))


def run_synthetic(w, app, n: int, count: int, overlays: bool) -> tuple[float, float]:
    """Median times (s) of a rendered frame and of a displayed frame.

    Rendered: ``set_frame`` + the renderer's ``paint`` called directly +
    ``glFinish`` (the viewport's own work). Displayed: ``set_frame`` +
    ``request_paint`` + events until the window swapped the frame + ``glFinish``
    (adds the window's own paint cycle and buffer swap, as the app's 60 Hz timer
    would).
    """
    from OpenGL import GL

    w.set_world(synthetic_world(n))
    w.show_bounding_objects = w.show_contacts = w.show_forces = overlays
    solids = w.scene.solids
    base = w.scene.static_solid_world()[:-1, :3, 3]
    rendered, displayed = [], []
    swaps = [0]

    def count_swap() -> None:
        swaps[0] += 1
    w.frameSwapped.connect(count_swap)
    for k, f in enumerate(synthetic_frames(solids, base, 2 * (count + 5), overlays)):
        t0 = time.perf_counter()
        w.set_frame(f)
        if k % 2 == 0:
            w.gl_window.makeCurrent()
            w.renderer.paint()
            GL.glFinish()
            w.gl_window.doneCurrent()
        else:
            swapped = swaps[0]
            w.request_paint()
            while swaps[0] == swapped:
                app.processEvents()
            w.gl_window.makeCurrent()
            GL.glFinish()
            w.gl_window.doneCurrent()
        if k >= 10:
            (rendered if k % 2 == 0 else displayed).append(time.perf_counter() - t0)
        assert not w.paint_errors and not w.gl_errors, (w.paint_errors, w.gl_errors)
    w.frameSwapped.disconnect(count_swap)
    return statistics.median(rendered), statistics.median(displayed)


def main_synthetic(args: argparse.Namespace) -> int:
    """``--synthetic``: synthetic frames on a bare ViewportWidget (module docstring)."""
    from app.gl_binding import configure_pyopengl
    from app.gl_format import set_default_format

    set_default_format()
    configure_pyopengl()
    from OpenGL import GL
    from PySide6.QtWidgets import QApplication

    from app.viewport import ViewportWidget

    app = QApplication.instance() or QApplication([])
    w = ViewportWidget()
    w.resize(800, 600)
    w.show()
    while not w.renderer.initialized:  # the GL window's first paint
        app.processEvents()
    w.gl_window.makeCurrent()
    renderer = GL.glGetString(GL.GL_RENDERER).decode()
    w.gl_window.doneCurrent()
    print(f"renderer: {renderer}; window 800x600; {args.frames} frames per row")
    print(f"{'bodies':>7} {'overlays':>9} {'render ms':>10} {'render fps':>11} "
          f"{'display ms':>11} {'display fps':>12}")
    for n in (int(v) for v in args.bodies.split(",")):
        for overlays in (False, True):
            ren, disp = run_synthetic(w, app, n, args.frames, overlays)
            print(f"{n:>7} {('yes' if overlays else 'no'):>9} {ren * 1e3:>10.1f} "
                  f"{1 / ren:>11.1f} {disp * 1e3:>11.1f} {1 / disp:>12.1f}")
    w.close()
    return 0


def main(argv: list[str] | None = None) -> int:
    """Parse the arguments and run the chosen mode."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bodies", default="100,1000", help="comma-separated body counts")
    parser.add_argument("--world", default="",
                        help="comma-separated .wbt files to measure instead of the falling "
                             "bodies (e.g. resources/worlds/default.wbt)")
    parser.add_argument("--seconds", type=float, default=5.0, help="measured wall seconds")
    parser.add_argument("--warmup", type=float, default=2.0, help="running seconds not measured")
    parser.add_argument("--profile", action="store_true", help="cProfile the GUI thread")
    parser.add_argument("--orbit", action="store_true",
                        help="turn the camera a little on every frame timer tick (a user "
                             "dragging the view), so frames are painted even when the "
                             "engine publishes fewer")
    parser.add_argument("--surface", default="window",
                        help="comma-separated viewport surfaces: window (the app's "
                             "QOpenGLWindow), widget (a QOpenGLWidget twin, to compare)")
    parser.add_argument("--gui-first", default="on",
                        help="comma-separated on/off: EngineRunner.gui_first around paints")
    parser.add_argument("--engine-nice", default="10",
                        help="comma-separated nice values of the engine thread (the app "
                             "uses app.runner.ENGINE_THREAD_NICE)")
    parser.add_argument("--gil-releasing-gl", action="store_true",
                        help="leave PyOpenGL's GL calls releasing the GIL (as before "
                             "app.gl_binding), to compare")
    parser.add_argument("--synthetic", action="store_true",
                        help="renderer only: synthetic frames on a bare ViewportWidget")
    parser.add_argument("--frames", type=int, default=60, help="--synthetic: frames per row")
    args = parser.parse_args(argv)
    return main_synthetic(args) if args.synthetic else main_gui(args)


if __name__ == "__main__":
    raise SystemExit(main())
