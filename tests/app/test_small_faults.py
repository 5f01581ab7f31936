"""Regression tests of the app's smaller faults (issue 13, "Smaller, all seen in the app").

The plugin-failure message leaves the status bar when the engine is no longer
paused by it; plots start fresh (axes included) for another world and never
zoom into rounding noise; trails restart on Reset; the Select dialog says the
plugin change applies at once; an edited position is no velocity spike; the
contact-force plot counts a plugin's contacts; Step and Run look different.
Run under xvfb (see docs/app.md).
"""

from __future__ import annotations

import dataclasses
import inspect
import textwrap
from pathlib import Path

import numpy as np
import pytest

from app.main_window import MainWindow
from app.plots_dock import INITIAL_RANGE, MIN_SPAN, PlotsDock, contact_force_on
from app.scene_tree.plugin_dialog import PROMPT, PluginSelectDialog
from app.viewport.overlays import TRAIL_COLORS, Trails
from tests.app import test_main_window as main_window_tests
from tests.app import test_viewport as viewport_tests
from tests.app.test_main_window import make_project
from tests.app.test_plots_dock import FakeSolid, make_contact, make_frame
from tests.app.test_viewport_helpers import (
    around,
    box_solid,
    count_near,
    frame,
    grab,
    pose,
    world,
)

RGB_TRAIL = tuple(int(c * 255) for c in TRAIL_COLORS[0][:3])


BALL = FakeSolid("BALL")
# the main window tests' fixtures: a shown MainWindow with injected dialog answers
answers = main_window_tests.answers
make_window = main_window_tests.make_window
# the viewport tests' shown 400x300 viewport with a red box
view = viewport_tests.view


@pytest.fixture
def dock(qtbot):
    widget = PlotsDock(history_s=10.0)
    qtbot.addWidget(widget)
    return widget


# ------------------------------------------------------------------ plots
def test_plot_autoscale_draws_rounding_noise_flat(dock) -> None:
    """A resting box's contact force (m g with 1e-14 jitter) is a flat line, not
    noise zoomed to the plot's full height (it was: span ~1e-13 N)."""
    rng = np.random.default_rng(3)
    dock.set_solid(BALL)
    for i in range(60):
        force = np.array([0.0, 0.0, 19.62 + 1e-14 * rng.standard_normal()])
        dock.add_frame(make_frame(16.0 * i, {BALL: (np.zeros(3), np.eye(3))},
                                  [make_contact(BALL, None, force)]))
    dock.redraw()
    view = dock.plots["force"].vb
    view.updateAutoRange()
    lo, hi = view.viewRange()[1]
    assert hi - lo >= MIN_SPAN["force"] * 0.999
    assert lo < 19.62 < hi
    # a real change still fills the plot
    for i in range(60, 70):
        dock.add_frame(make_frame(16.0 * i, {BALL: (np.zeros(3), np.eye(3))},
                                  [make_contact(BALL, None, np.array([0.0, 0.0, 40.0]))]))
    dock.redraw()
    view.updateAutoRange()
    lo, hi = view.viewRange()[1]
    assert lo <= 19.62 and hi >= 40.0 and hi - lo < 30.0


def test_another_world_clears_the_curves_and_axes(dock) -> None:
    """Opening a world (`forget_solids`) empties the curves and puts every axis
    back to its initial, autoscaled range, even when the dock is hidden and the
    user had zoomed (both stayed from the previous world)."""
    dock.set_solid(BALL)
    for i in range(40):
        t = 50.0 + 0.016 * i
        dock.add_frame(make_frame(1000 * t, {BALL: (np.array([300.0, -200.0, 1000.0 + i]),
                                                    np.eye(3))}))
    dock.redraw()
    for plot in dock.plots.values():
        plot.setXRange(50.1, 50.2)  # the user zooms: autoscale off
    dock.forget_solids()
    for name, curve in dock.curves.items():
        x, _y = curve.getData()
        assert x is None or len(x) == 0, name
    for key, plot in dock.plots.items():
        (x0, x1), (y0, y1) = plot.vb.viewRange()
        assert (x0, x1) == pytest.approx(INITIAL_RANGE[0], abs=1e-9), key
        assert (y0, y1) == pytest.approx(INITIAL_RANGE[1], abs=1e-9), key
        assert all(plot.vb.state["autoRange"]), key


def test_an_edited_position_is_not_a_velocity_spike(dock) -> None:
    """The plotted velocity is the frame's body velocity (``pose_v``), so a
    position edit between two frames (1 m teleport) does not show as a spike
    of 1 m / 16 ms = 62 m/s (the finite difference did)."""
    nodes = (FakeSolid("OTHER"), BALL)
    dock.set_solid(BALL)
    for i in range(20):
        z = 2.0 - 0.016 * i + (1.0 if i >= 10 else 0.0)  # moved up 1 m at frame 10
        p = np.array([0.0, 0.0, z])
        f = dataclasses.replace(make_frame(16.0 * i, {BALL: (p, np.eye(3))}), pose_nodes=nodes,
                                pose_v=np.array([[9.0, 9.0, 9.0], [0.0, 0.0, -1.0]]))
        dock.add_frame(f)
    vz = dock.data()[:, 6]
    assert np.allclose(vz, -1.0)


def test_frames_carry_each_solid_origins_velocity() -> None:
    """`Simulation.frame` fills ``pose_v`` from the bodies: a box falling
    from rest has v_z = -g t; a static Solid has zero."""
    from engine.sim import Simulation

    sim = Simulation(world(box_solid("BOX", (1, 0, 0), (0, 0, 5.0))
                           .replace("boundingObject", "physics Physics { }\n"
                                    "  boundingObject")))
    for _ in range(10):
        sim.step()
    f = sim.frame(mode="paused", running=False, speed=0.0)
    row = f.pose_nodes.index(sim.world.find_by_def("BOX"))
    g = -float(sim.model.settings.gravity[2])
    assert f.pose_v[row] == pytest.approx([0.0, 0.0, -g * sim.time_ms / 1000.0], abs=1e-9)


# ------------------------------------------------------------------ trails
def test_trails_restart_when_simulated_time_goes_back() -> None:
    trails = Trails()
    trails.set_solids(["a"])
    for k in range(5):
        trails.record({"a": np.array([k, 0.0, 0.0])}, 16.0 * k)
    trails.record({"a": np.array([0.0, 0.0, 0.0])}, 0.0)  # Reset: back to t = 0
    assert [p[0] for p in trails.paths["a"]] == [0.0]
    assert len(trails.lines()[0]) == 0


def test_reset_removes_the_drawn_trail(view) -> None:
    """Pixel probe: the trail drawn before a Reset is gone after it (it stayed,
    and the next run's trail was joined to it)."""
    box = view.scene.solids[0]
    view.show_trails = True
    view.set_trail_solids([box])
    for k in range(11):
        view.set_frame(frame({box: pose((0, -1.5 + 0.3 * k, 0.6))}, time_ms=16 * k))
    probe = around(view.world_to_pixel((0, -1.05, 0.6)), 2)
    assert count_near(grab(view), RGB_TRAIL, 50, probe) > 0
    view.set_frame(frame({box: pose((0, 0, 0))}, time_ms=0))  # the frame after Reset
    assert count_near(grab(view), RGB_TRAIL, 50, probe) == 0


# ------------------------------------------------------- Select... dialog
def test_select_dialog_says_the_change_applies_at_once(qtbot) -> None:
    """What happens (the edit loads the plugin at once: test_main_window's
    test_new_plugin_sets_physics_and_runs) is what the dialog says (it said:
    only after you save and reload the world)."""
    from PySide6.QtWidgets import QLabel

    dialog = PluginSelectDialog(None, lister=lambda _p: ["a"])
    qtbot.addWidget(dialog)
    shown = " ".join(label.text() for label in dialog.findChildren(QLabel))
    assert PROMPT in shown
    assert "at once" in shown and "reload" not in shown


# ------------------------------------------------------------- status bar
BOOM = textwrap.dedent('''\
    from engine.plugins.physics import *  # noqa: F403


    def webots_physics_step():
        {body}


    def webots_physics_cleanup():
        pass
    ''')


def _write_plugin(world_path: Path, body: str) -> Path:
    folder = world_path.parents[1] / "plugins" / "physics" / "boom"
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "boom.py"
    path.write_text(BOOM.format(body=body))
    return path


def test_status_bar_mirrors_the_pause_message(make_window) -> None:
    """Shown while the frames have it, gone when they no longer do (the message
    stayed forever), shown again for a new failure; someone else's message stays."""
    window = make_window()
    bar = window.statusBar()
    base = window.runner.latest_frame()
    failed = dataclasses.replace(base, pause_message="physics plugin 'x' failed: boom")
    window._on_frame(failed)
    assert bar.currentMessage() == failed.pause_message
    window._on_frame(dataclasses.replace(base, time_ms=16.0))
    assert bar.currentMessage() == ""
    window._on_frame(failed)
    assert bar.currentMessage() == failed.pause_message
    window._on_frame(base)
    bar.showMessage("saved")
    window._on_frame(dataclasses.replace(base, time_ms=32.0))
    assert bar.currentMessage() == "saved"


def _trusting() -> dict:
    """The window's answer to "run this folder's plugin?" (where it asks): yes."""
    asks = "ask_trust" in inspect.signature(MainWindow).parameters
    return {"ask_trust": lambda _question: True} if asks else {}


def test_plugin_failure_message_leaves_after_the_fix_and_reset(qtbot, make_window,
                                                              tmp_path) -> None:
    world_path = make_project(tmp_path)
    text = world_path.read_text().replace('physics "flying_robot"', 'physics "boom"')
    world_path.write_text(text)
    source = _write_plugin(world_path, "raise RuntimeError('boom in step')")
    window = make_window(str(world_path), **_trusting())
    assert window.runner.host.name == "boom"
    bar = window.statusBar()
    window.step()
    qtbot.waitUntil(lambda: "boom in step" in bar.currentMessage(), timeout=60000)
    source.write_text(BOOM.format(body="pass"))
    window.reload_plugin()  # fixed: the message goes
    qtbot.waitUntil(lambda: bar.currentMessage() == "", timeout=10000)
    source.write_text(BOOM.format(body="raise RuntimeError('boom again')"))
    window.reload_plugin()
    window.step()
    qtbot.waitUntil(lambda: "boom again" in bar.currentMessage(), timeout=10000)
    window.reset()  # Reset: the message goes (the plugin gets another chance)
    qtbot.waitUntil(lambda: bar.currentMessage() == "", timeout=10000)


# ------------------------------------------------------------------ icons
def _silhouette(icon, n: int = 32) -> np.ndarray:
    """(n, n) bool: the icon's opaque pixels, cropped to their bounding box and
    resampled (so a small and a big triangle have the same silhouette)."""
    from PySide6.QtGui import QImage

    img = icon.pixmap(48, 48).toImage().convertToFormat(QImage.Format.Format_ARGB32)
    rgba = np.frombuffer(img.constBits(), np.uint8).reshape(
        img.height(), img.bytesPerLine() // 4, 4)[:, :img.width()]
    opaque = rgba[:, :, 3] > 128
    ys, xs = np.nonzero(opaque)
    opaque = opaque[ys.min():ys.max() + 1, xs.min():xs.max() + 1]
    rows = (np.arange(n) * opaque.shape[0] / n).astype(int)
    cols = (np.arange(n) * opaque.shape[1] / n).astype(int)
    return opaque[np.ix_(rows, cols)]


def _overlap(a: np.ndarray, b: np.ndarray) -> float:
    """Intersection over union of two silhouettes."""
    return float((a & b).sum() / (a | b).sum())


def test_step_and_run_have_different_icons(make_window) -> None:
    """Step's icon is not Run's play triangle: their silhouettes overlap little
    (Step's arrow icon overlapped Run's by 0.94: the same triangle, smaller)."""
    window = make_window()
    shapes = {name: _silhouette(window.actions_[name].icon())
              for name in ("step", "realtime", "fast", "pause", "reset")}
    for other in ("realtime", "fast", "pause", "reset"):
        assert _overlap(shapes["step"], shapes[other]) < 0.8, other


# ------------------------------------------------- plugin contact forces
CONTACT_PLUGIN = textwrap.dedent('''\
    from engine.plugins.physics import *  # noqa: F403


    def webots_physics_init():
        global floor, box
        floor = dWebotsGetGeomFromDEF("FLOOR")
        box = dWebotsGetGeomFromDEF("OBJECT")


    def webots_physics_collide(g1, g2):
        if {g1, g2} != {floor, box}:
            return 0
        body = dGeomGetBody(box)
        group = dWebotsGetContactJointGroup()
        for cg in dCollide(box, floor, 10):
            c = dContact()
            c.surface.mode = dContactApprox1
            c.surface.mu = 0.5
            c.geom = cg
            joint = dJointCreateContact(dBodyGetWorld(body), group, c)
            dJointAttach(joint, body, None)  # no dJointFeedback
        return 1


    def webots_physics_step():
        pass


    def webots_physics_cleanup():
        pass
    ''')


def test_contact_force_plot_counts_the_contacts_a_plugin_made(tmp_path) -> None:
    """A 2 kg box resting on contacts its plugin made (no dJointFeedback) gets
    m g = 19.6 N in the frame's contacts (it read 0 N)."""
    from engine.plugins import PluginHost
    from engine.sim import Simulation

    world_file = Path(__file__).resolve().parents[2] / "resources" / "worlds" \
        / "contact_points.wbt"
    plugin = tmp_path / "contacts_no_feedback.py"
    plugin.write_text(CONTACT_PLUGIN)
    sim = Simulation(str(world_file))
    sim.record_contact_feedback = True
    host = PluginHost(sim)
    assert host.load_file(plugin)
    for _ in range(150):
        host.step()
    assert host.running and not sim.paused
    f = sim.frame(mode="paused", running=False, speed=0.0)
    box = sim.world.find_by_def("OBJECT")
    assert f.contacts.plugin.any() and f.contacts.has_force[f.contacts.plugin].all()
    assert contact_force_on(box, f.contacts) == pytest.approx(2.0 * 9.81, rel=0.02)
    host.close()


def test_the_force_on_a_static_solid_1_is_the_reaction() -> None:
    """ODE's f1 acts on the joint's first body: a (static, body) contact is
    attached (None, body), so f1 is the force on Solid 2. The box below gets
    +5 N up from both contacts (it got +5 - 5 = 0 N when the floor was Solid 1)."""
    from types import SimpleNamespace

    from engine.sim.frame import contact_set

    floor_node, box_node = object(), object()
    floor = SimpleNamespace(ode_body=None, node=floor_node)
    box = SimpleNamespace(ode_body=object(), node=box_node)
    f1 = np.array([[0.0, 0.0, 5.0], [0.0, 0.0, 5.0]])  # on the first body: the box
    default = (np.zeros((2, 3)), np.tile([0.0, 0.0, 1.0], (2, 1)), np.zeros(2), f1.copy(),
               [box, floor], [floor, box])
    contacts = contact_set(default, [])
    assert contact_force_on(box_node, contacts) == pytest.approx(10.0)
    assert contact_force_on(floor_node, contacts) == pytest.approx(10.0)
    assert contacts.force[1] == pytest.approx([0.0, 0.0, -5.0])  # on the floor: down
