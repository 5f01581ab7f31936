"""Tests of the plots dock: curve data of a falling Solid, contact forces,
given velocities, history bounds, resets and throttled redraws."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from types import MappingProxyType

import numpy as np
import pytest

from app.plots_dock import REDRAW_MS, PlotsDock, contact_force_on
from app.qt_workarounds import pin_none
from engine.sim.frame import ContactInfo, ContactSet, Frame, Pose
from tests.app import test_main_window as main_window_tests

# the main window tests' fixtures: a shown MainWindow with injected dialog answers
answers = main_window_tests.answers
make_window = main_window_tests.make_window

G = 9.81
DT_MS = 16.0


class FakeSolid:
    """Stands for a Solid node (identity matters, like world nodes)."""

    def __init__(self, name: str) -> None:
        self.name = name

    def label(self) -> str:
        return f"DEF {self.name} Solid"


def make_contact(solid1: object, solid2: object, force: np.ndarray | None) -> ContactInfo:
    """A contact at the origin with ``force`` [N] on ``solid1`` (None: not recorded)."""
    return ContactInfo(np.zeros(3), np.array([0.0, 0.0, 1.0]), 0.0, force, solid1, solid2)


def make_frame(time_ms: float, poses: Mapping[object, Pose],
               contacts: Sequence[ContactInfo] = ()) -> Frame:
    """A `Frame` at ``time_ms`` with these poses and contacts (no pose arrays)."""
    return Frame(time_ms=time_ms, poses=MappingProxyType(dict(poses)),
                 contacts=ContactSet.of(list(contacts)))


BALL = FakeSolid("BALL")
FLOOR = FakeSolid("FLOOR")


def falling_z(t: float) -> float:
    return 2.0 - 0.5 * G * t * t


def falling_frames(n: int, start_ms: float = 0.0) -> list[Frame]:
    frames = []
    for i in range(n):
        t = (start_ms + i * DT_MS) / 1000.0
        pos = np.array([0.1 * t, -0.2, falling_z(t)])
        contacts = []
        if i % 3 == 0:  # ball on top of floor: force on solid1 = ball
            contacts.append(make_contact(BALL, FLOOR, np.array([0.0, 0.0, float(i)])))
        if i % 3 == 1:  # two contacts, the ball second: it gets -force
            contacts.append(make_contact(FLOOR, BALL, np.array([0.0, 0.0, -1.0])))
            contacts.append(make_contact(FLOOR, BALL, np.array([3.0, 0.0, 0.0])))
        contacts.append(make_contact(FLOOR, FakeSolid("OTHER"), np.array([100.0, 0, 0])))
        contacts.append(make_contact(BALL, FLOOR, None))  # no feedback: ignored
        frames.append(make_frame(start_ms + i * DT_MS, {BALL: (pos, np.eye(3)),
                                                       FLOOR: (np.zeros(3), np.eye(3))},
                                contacts))
    return frames


def expected_force(i: int) -> float:
    if i % 3 == 0:
        return float(i)
    if i % 3 == 1:
        return float(np.hypot(3.0, 1.0))  # -(0,0,-1) - (3,0,0) = (-3, 0, 1)
    return 0.0


@pytest.fixture
def dock(qtbot):
    widget = PlotsDock(history_s=10.0)
    qtbot.addWidget(widget)
    widget.resize(500, 600)
    widget.show()
    qtbot.waitExposed(widget)
    return widget


def curve(dock: PlotsDock, name: str) -> tuple[np.ndarray, np.ndarray]:
    x, y = dock.curves[name].getData()
    if x is None:  # pyqtgraph gives None for an empty curve
        return np.zeros(0), np.zeros(0)
    return np.asarray(x), np.asarray(y)


def test_falling_solid_curves(dock):
    dock.set_solid(BALL)
    frames = falling_frames(30)
    for frame in frames:
        dock.add_frame(frame)
    dock.redraw()
    times = np.array([f.time_ms / 1000.0 for f in frames])
    zs = np.array([falling_z(t) for t in times])
    t, z = curve(dock, "z")
    np.testing.assert_allclose(t, times)
    np.testing.assert_allclose(z, zs)
    np.testing.assert_allclose(curve(dock, "x")[1], 0.1 * times)
    np.testing.assert_allclose(curve(dock, "y")[1], -0.2)
    # velocities: finite differences, none for the first frame
    t_v, vz = curve(dock, "vz")
    np.testing.assert_allclose(t_v, times[1:])
    np.testing.assert_allclose(vz, np.diff(zs) / np.diff(times))
    np.testing.assert_allclose(vz, -G * (times[1:] + times[:-1]) / 2, rtol=1e-9)
    np.testing.assert_allclose(curve(dock, "vx")[1], 0.1)
    np.testing.assert_allclose(curve(dock, "vy")[1], 0.0, atol=1e-12)
    # contact force magnitude of the vector sum on the ball
    t_f, force = curve(dock, "force")
    np.testing.assert_allclose(t_f, times)
    np.testing.assert_allclose(force, [expected_force(i) for i in range(30)])


def test_given_velocities_are_used(dock):
    dock.set_solid(BALL)
    for i, frame in enumerate(falling_frames(5)):
        frame = dataclasses.replace(frame, pose_nodes=(BALL,),
                                    pose_v=np.array([[1.0, 2.0, float(i)]]))
        dock.add_frame(frame)
    dock.redraw()
    t, vz = curve(dock, "vz")
    assert len(t) == 5
    np.testing.assert_allclose(vz, np.arange(5.0))
    np.testing.assert_allclose(curve(dock, "vy")[1], 2.0)


def test_other_solid_and_no_selection(dock):
    frames = falling_frames(4)
    for frame in frames:
        dock.add_frame(frame)  # nothing selected: nothing recorded
    assert dock.data().shape == (0, 8)
    assert [dock.combo.itemText(i) for i in range(dock.combo.count())] == [
        "(none)", "DEF BALL Solid", "DEF FLOOR Solid"]
    dock.combo.setCurrentIndex(2)
    dock.combo.activated.emit(2)
    assert dock.solid is FLOOR
    for frame in falling_frames(3, start_ms=100.0):
        dock.add_frame(frame)
    dock.redraw()
    np.testing.assert_allclose(curve(dock, "z")[1], 0.0)
    # FLOOR: +(100, 0, 0) with OTHER, -force of the ball's contacts, +force where it is solid1
    np.testing.assert_allclose(curve(dock, "force")[1], [
        np.linalg.norm([100.0, 0.0, -0.0]),
        np.linalg.norm([103.0, 0.0, -1.0]),
        100.0])


def test_contact_force_on_sums_vectors():
    contacts = [make_contact(BALL, FLOOR, np.array([1.0, 0, 0])),
                make_contact(BALL, FLOOR, np.array([-1.0, 0, 0])),
                make_contact(FLOOR, BALL, np.array([0, 0, -2.0]))]
    assert contact_force_on(BALL, contacts) == pytest.approx(2.0)
    assert contact_force_on(FLOOR, contacts) == pytest.approx(2.0)
    assert contact_force_on(FakeSolid("X"), contacts) == 0.0


def test_history_is_bounded(qtbot):
    dock = PlotsDock(history_s=1.0)
    qtbot.addWidget(dock)
    dock.set_solid(BALL)
    for frame in falling_frames(200):  # 3.2 s of frames
        dock.add_frame(frame)
    table = dock.data()
    last = 199 * DT_MS / 1000.0
    assert table[-1, 0] == pytest.approx(last)
    assert table[0, 0] >= last - 1.0
    assert len(table) == int(1000.0 / DT_MS) + 1


def test_time_going_back_restarts_history(dock):
    dock.set_solid(BALL)
    for frame in falling_frames(10, start_ms=500.0):
        dock.add_frame(frame)
    for frame in falling_frames(3):  # reset: time 0 again
        dock.add_frame(frame)
    dock.redraw()
    t, _ = curve(dock, "z")
    np.testing.assert_allclose(t, [0.0, 0.016, 0.032])
    assert len(curve(dock, "vz")[0]) == 2  # no velocity across the reset


def test_same_frame_twice_is_kept_once(dock):
    dock.set_solid(BALL)
    frames = falling_frames(3)
    for frame in frames + [frames[-1]]:  # paused: the GUI sees the newest frame again
        dock.add_frame(frame)
    assert len(dock.data()) == 3
    assert np.isfinite(dock.data()[-1, 6])


def test_set_solid_restarts_and_selects_in_combo(dock):
    dock.set_solid(BALL)
    for frame in falling_frames(3):
        dock.add_frame(frame)
    dock.set_solid(FLOOR)
    assert dock.data().shape == (0, 8)
    assert dock.combo.currentText() == "DEF FLOOR Solid"
    dock.set_solid(None)
    assert dock.combo.currentIndex() == 0
    dock.forget_solids()
    assert dock.combo.count() == 1


def test_redraw_is_throttled_by_timer(dock, qtbot):
    dock.set_solid(BALL)
    for frame in falling_frames(4):
        dock.add_frame(frame)
    assert dock.is_dirty
    assert len(curve(dock, "z")[0]) == 0  # nothing drawn yet
    qtbot.waitUntil(lambda: not dock.is_dirty, timeout=20 * REDRAW_MS)
    assert len(curve(dock, "z")[0]) == 4


def test_none_stays_alive_through_many_redraws(dock):
    """PySide6 6.12 on CPython 3.11 drops a None reference per null pointer
    returned; pin_none (run at import) must leave a huge margin."""
    import sys

    before = sys.getrefcount(None)
    if sys.version_info < (3, 12):
        assert before > 2 ** 39
    dock.set_solid(BALL)
    for frame in falling_frames(50):
        dock.add_frame(frame)
        dock.redraw()
    dock.layout_widget.grab()
    assert sys.getrefcount(None) > before - 10 ** 6
    pin_none()  # idempotent
    assert sys.getrefcount(None) < before + 10 ** 6


def test_accepts_app_frame_snapshots(dock):
    """The engine's `Frame` and a `ContactSet` of `ContactInfo`s fit add_frame."""
    dock.set_solid(BALL)
    for i in range(3):
        pos = np.array([0.0, 0.0, 1.0 - 0.1 * i])
        contact = ContactInfo(np.zeros(3), np.array([0.0, 0.0, 1.0]), 0.001,
                              np.array([0.0, 0.0, 2.0 * i]), FLOOR, BALL)
        dock.add_frame(Frame(time_ms=10.0 * i, poses=MappingProxyType({BALL: (pos, np.eye(3))}),
                             contacts=ContactSet.of([contact])))
    table = dock.data()
    np.testing.assert_allclose(table[:, 3], [1.0, 0.9, 0.8])
    np.testing.assert_allclose(table[1:, 6], [-10.0, -10.0])
    np.testing.assert_allclose(table[:, 7], [0.0, 2.0, 4.0])


def test_the_start_path_leaves_pyqtgraph_until_the_plots_are_made() -> None:
    # importing pyqtgraph takes ~0.3 s: the main window's module must not need it
    import subprocess
    import sys

    code = ("import sys; import app.main_window, app.plots_dock; "
            "print('pyqtgraph' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True, timeout=300).stdout.split()
    assert out[-1] == "False"


def test_prepared_graphs_are_made_after_a_worker_imports_pyqtgraph(qtbot) -> None:
    dock = PlotsDock(history_s=10.0)
    qtbot.addWidget(dock)
    dock.set_solid(BALL)
    for frame in falling_frames(10):
        dock.add_frame(frame)  # recorded before the plots exist
    assert not dock.has_graphs
    dock.prepare_graphs()
    qtbot.waitUntil(lambda: dock.has_graphs, timeout=30000)
    dock.redraw()
    x, y = dock.curves["z"].getData()
    assert len(x) == 10 and y[0] == pytest.approx(falling_z(0.0))


def test_the_main_window_makes_the_plots_once_the_world_is_drawn(make_window, qtbot) -> None:
    window = make_window()
    # shown in the dock (a widget added to a shown layout is shown by the event loop)
    qtbot.waitUntil(lambda: window.plots.has_graphs and window.plots.layout_widget.isVisible(),
                    timeout=30000)
