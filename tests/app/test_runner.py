"""EngineRunner: the simulation in its own thread, commands, frames, errors (no Qt)."""

from __future__ import annotations

import dataclasses
import sys
import threading
import time
from pathlib import Path

import numpy as np
import pytest

from app.plots_dock import contact_force_on
from app.runner import EngineRunner
from app.viewport.overlays import contact_lines
from engine.sim.frame import Frame

WORLD = """#VRML_SIM R2025a utf8
WorldInfo {{
  basicTimeStep 8
  physicsDisableTime -1
  physics "probe"
}}
Viewpoint {{
}}
DEF FLOOR Solid {{
  boundingObject Plane {{
  }}
}}
DEF BOX Solid {{
  translation 0 0 {height}
  boundingObject Box {{
    size 0.2 0.2 0.2
  }}
  physics Physics {{
    mass 1
  }}
}}
"""

PLUGIN = """from engine.plugins.physics import *

VERSION = {version}
FAIL_AT = {fail_at}


def webots_physics_init():
    dWebotsConsolePrintf("probe version %d", VERSION)


def webots_physics_step():
    if dWebotsGetTime() >= FAIL_AT:
        raise RuntimeError("probe failure")


def webots_physics_cleanup():
    pass
"""

PLUGIN_CONTACTS = """from engine.plugins.physics import *

KEEP = []


def webots_physics_init():
    global BOX, FLOOR
    BOX, FLOOR = dWebotsGetGeomFromDEF("BOX"), dWebotsGetGeomFromDEF("FLOOR")


def webots_physics_step():
    KEEP.clear()


def webots_physics_collide(g1, g2):
    if not ({id(g1), id(g2)} == {id(BOX), id(FLOOR)}):
        return 0
    world = dBodyGetWorld(dWebotsGetBodyFromDEF("BOX"))
    for cg in dCollide(g1, g2, 4):
        c = dContact()
        c.surface.mode = dContactApprox1
        c.surface.mu = 1.0
        c.geom = cg
        j = dJointCreateContact(world, dWebotsGetContactJointGroup(), c)
        dJointAttach(j, dGeomGetBody(g1), dGeomGetBody(g2))
        fb = dJointFeedback()
        dJointSetFeedback(j, fb)
        KEEP.append(fb)
    return 1


def webots_physics_cleanup():
    pass
"""

TIMEOUT = 120.0  # generous: a cold numba cache compiles on the first step


def make_project(root: Path, height: float = 1.0, version: int = 1,
                 fail_at: float = 1e18, plugin: str | None = None) -> Path:
    """A Webots-style project: worlds/probe.wbt and plugins/physics/probe/probe.py."""
    (root / "worlds").mkdir(parents=True, exist_ok=True)
    plugin_dir = root / "plugins" / "physics" / "probe"
    plugin_dir.mkdir(parents=True, exist_ok=True)
    world = root / "worlds" / "probe.wbt"
    world.write_text(WORLD.format(height=height))
    text = plugin if plugin is not None else PLUGIN.format(version=version, fail_at=fail_at)
    (plugin_dir / "probe.py").write_text(text)
    return world


def wait_for(predicate, timeout: float = TIMEOUT) -> bool:
    """Poll ``predicate`` until it is true (False after ``timeout`` s)."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if predicate():
            return True
        time.sleep(0.005)
    return bool(predicate())


def sync(runner: EngineRunner) -> Frame:
    """Wait until every command posted so far ran; the frame published then."""
    runner.call(lambda sim: None).result(TIMEOUT)
    return runner.latest_frame()


def box_z(frame: Frame, runner: EngineRunner) -> float:
    box = runner.world.find_solid_by_def("BOX")
    return float(frame.poses[box][0][2])


@pytest.fixture
def runner(tmp_path):
    r = EngineRunner(str(make_project(tmp_path)))
    yield r
    r.stop()
    assert not r.thread.is_alive()


def test_start_and_stop_leave_no_thread(tmp_path) -> None:
    before = set(threading.enumerate())
    r = EngineRunner(str(make_project(tmp_path)))
    assert r.thread.is_alive() and r.thread.daemon
    r.run_fast()
    assert wait_for(lambda: r.latest_frame().steps > 3)
    r.stop()
    assert not r.thread.is_alive()
    assert set(threading.enumerate()) == before
    with pytest.raises(RuntimeError):
        r.call(lambda sim: None).result(TIMEOUT)


def test_initial_frame_is_paused_at_time_zero(runner) -> None:
    f = runner.latest_frame()
    assert (f.time_ms, f.steps, f.mode, f.paused, f.running) == (0.0, 0, "paused", True, False)
    assert {n.def_name for n in f.poses} == {"FLOOR", "BOX"}   # static Solids included
    assert box_z(f, runner) == 1.0


def test_step_once_advances_exactly_one_basic_time_step(runner) -> None:
    runner.step_once()
    f = sync(runner)
    assert (f.time_ms, f.steps, f.mode) == (8.0, 1, "paused")
    runner.step_once()
    runner.step_once()
    f = sync(runner)
    assert (f.time_ms, f.steps) == (24.0, 3)
    assert box_z(f, runner) < 1.0


def test_pause_stops_time(runner) -> None:
    runner.run_fast()
    assert wait_for(lambda: runner.latest_frame().steps > 10)
    runner.pause()
    f = sync(runner)
    assert f.paused and f.mode == "paused" and not f.running
    time.sleep(0.1)
    again = sync(runner)
    assert again.time_ms == f.time_ms and again.steps == f.steps


def test_reset_returns_time_and_poses_to_initial(runner) -> None:
    initial = runner.latest_frame()
    runner.run_fast()
    assert wait_for(lambda: runner.latest_frame().time_ms > 300)
    runner.pause()
    runner.reset()
    f = sync(runner)
    assert (f.time_ms, f.steps) == (0.0, 0)
    for node, (pos, rot) in initial.poses.items():
        assert np.array_equal(f.poses[node][0], pos)
        assert np.array_equal(f.poses[node][1], rot)


def test_reset_keeps_the_mode(runner) -> None:
    runner.run_fast()
    assert wait_for(lambda: runner.latest_frame().time_ms > 100)
    runner.reset()
    assert wait_for(lambda: runner.latest_frame().time_ms > 100)  # running again from 0
    assert runner.latest_frame().mode == "fast"


def test_reload_world_reads_the_file_again(tmp_path) -> None:
    world = make_project(tmp_path, height=1.0)
    with EngineRunner(str(world)) as r:
        r.step_once()
        sync(r)
        world.write_text(WORLD.format(height=2.5))
        r.reload_world()
        f = sync(r)
        assert (f.time_ms, f.steps) == (0.0, 0)
        assert box_z(f, r) == 2.5   # keyed by the new World's nodes
        assert r.world.find_solid_by_def("BOX").get("translation")[2] == 2.5


def test_reload_plugin_after_editing_it_on_disk(tmp_path) -> None:
    world = make_project(tmp_path, version=1)
    lines: list[tuple[str, str]] = []
    with EngineRunner(str(world)) as r:
        r.add_console_listener(lambda source, text: lines.append((source, text)))
        r.step_once()
        sync(r)
        (tmp_path / "plugins" / "physics" / "probe" / "probe.py").write_text(
            PLUGIN.format(version=2, fail_at=1e18))
        r.reload_plugin()
        f = sync(r)
        assert ("physics", "probe: probe version 2") in lines
        assert r.host.plugin.module.VERSION == 2
        assert f.time_ms == 8.0    # the state is kept


def test_call_runs_in_the_engine_thread(runner) -> None:
    thread = runner.call(lambda sim: threading.current_thread()).result(TIMEOUT)
    assert thread is runner.thread and thread is not threading.current_thread()
    runner.run_fast()
    t = runner.call(lambda sim: sim.time_ms).result(TIMEOUT)
    assert t >= 0.0
    with pytest.raises(ZeroDivisionError):
        runner.call(lambda sim: 1 / 0).result(TIMEOUT)
    assert runner.latest_frame().mode == "fast"   # a failing call is not an engine error


def test_real_time_mode_follows_the_wall_clock(runner) -> None:
    # land the box first: with a cold numba cache its first contact compiles kernels,
    # a pause real-time mode rightly does not catch up on (it re-anchors its clock)
    runner.call(lambda sim: sim.run(1.0)).result(TIMEOUT)
    runner.run_realtime()
    f0 = sync(runner)
    w0 = time.perf_counter()
    time.sleep(1.0)
    f1 = sync(runner)
    w1 = time.perf_counter()
    ratio = (f1.time_ms - f0.time_ms) / 1000.0 / (w1 - w0)
    assert 0.5 < ratio < 1.5
    assert f1.mode == "realtime" and f1.running and not f1.paused
    assert 0.5 < f1.speed < 1.5


def test_frames_are_immutable_and_newest_first(runner) -> None:
    runner.run_fast()
    seen = []
    assert wait_for(lambda: seen.append(runner.latest_frame()) or len(seen) > 50)
    times = [f.time_ms for f in seen]
    assert times == sorted(times)
    f = seen[-1]
    pos, rot = next(iter(f.poses.values()))
    assert pos.shape == (3,) and rot.shape == (3, 3)
    with pytest.raises(ValueError):
        pos[0] = 1.0
    with pytest.raises(TypeError):
        f.poses[next(iter(f.poses))] = (pos, rot)  # read-only mapping
    with pytest.raises(dataclasses.FrozenInstanceError):
        f.time_ms = 0.0
    runner.pause()
    latest = sync(runner)
    assert latest.time_ms == runner.call(lambda sim: sim.time_ms).result(TIMEOUT)


def test_fast_mode_builds_a_frame_only_once_the_last_was_read(runner, monkeypatch) -> None:
    built = []
    make = runner._make_frame
    monkeypatch.setattr(runner, "_make_frame", lambda: built.append(1) or make())
    runner.run_fast()
    assert wait_for(lambda: runner.latest_frame().steps > 5)
    before = runner.latest_frame().steps  # read: one more frame comes after a step
    time.sleep(0.05)
    count = len(built)
    time.sleep(0.2)  # the engine steps on; nobody reads
    assert len(built) == count
    seen = runner.latest_frame()
    assert wait_for(lambda: runner.latest_frame() is not seen)  # read: built again
    assert runner.latest_frame().steps > before + 10  # it stepped all along


def test_contacts_carry_positions_and_forces(runner) -> None:
    runner.run_fast()
    assert wait_for(lambda: runner.latest_frame().time_ms > 1500)
    runner.pause()
    f = sync(runner)
    assert f.contacts and not any(c.plugin for c in f.contacts)
    total = np.zeros(3)
    for c in f.contacts:
        assert {c.solid1.def_name, c.solid2.def_name} == {"FLOOR", "BOX"}
        assert abs(c.pos[2]) < 0.01 and c.force is not None
        total += c.force if c.solid1.def_name == "BOX" else -c.force
    assert np.isclose(total[2], 9.81, rtol=0.05)   # the box's weight


def test_contact_arrays_agree_with_the_contact_items(runner) -> None:
    runner.run_fast()
    assert wait_for(lambda: runner.latest_frame().time_ms > 1500)
    runner.pause()
    contacts = sync(runner).contacts
    items = list(contacts)
    assert items and contacts.pos.shape == (len(items), 3)
    assert np.array_equal(contacts.pos, [c.pos for c in items])
    assert np.array_equal(contacts.force, [c.force for c in items])
    assert contacts.has_force.all() and not contacts.pos.flags.writeable
    # the overlay lines and the plotted force read the arrays: same as item by item
    for show in ((True, False), (False, True), (True, True)):
        a, b = contact_lines(contacts, *show), contact_lines(items, *show)
        assert np.array_equal(a[0], b[0]) and np.array_equal(a[1], b[1])
    box = items[0].solid1 if items[0].solid1.def_name == "BOX" else items[0].solid2
    assert contact_force_on(box, contacts) == pytest.approx(contact_force_on(box, items),
                                                             rel=1e-12)
    assert contact_force_on(box, contacts) == pytest.approx(9.81, rel=0.05)


def test_plugin_made_contacts_are_in_the_frame(tmp_path) -> None:
    with EngineRunner(str(make_project(tmp_path, plugin=PLUGIN_CONTACTS))) as r:
        r.run_fast()
        assert wait_for(lambda: r.latest_frame().time_ms > 1500)
        r.pause()
        f = sync(r)
        assert f.contacts and all(c.plugin for c in f.contacts)
        assert abs(box_z(f, r) - 0.1) < 0.01    # the plugin's contacts hold the box
        total = np.zeros(3)
        for c in f.contacts:
            assert {c.solid1.def_name, c.solid2.def_name} == {"FLOOR", "BOX"}
            assert abs(c.pos[2]) < 0.01 and c.depth >= 0.0
            total += c.force if c.solid1.def_name == "BOX" else -c.force
        assert np.isclose(total[2], 9.81, rtol=0.05)


def test_colliding_solids_marked_by_the_plugin(tmp_path) -> None:
    plugin = PLUGIN_CONTACTS.replace("    return 1\n", "    return 2\n")
    with EngineRunner(str(make_project(tmp_path, height=0.1, plugin=plugin))) as r:
        assert r.latest_frame().colliding == frozenset()
        r.step_once()
        f = sync(r)
        assert {n.def_name for n in f.colliding} == {"BOX", "FLOOR"}
    with EngineRunner(str(make_project(tmp_path, height=0.1, plugin=PLUGIN_CONTACTS))) as r:
        r.step_once()
        assert sync(r).colliding == frozenset()   # 1: handled, not shown as colliding


def test_plugin_exception_pauses_with_a_message(tmp_path) -> None:
    world = make_project(tmp_path, fail_at=40.0)
    errors = []
    states = []
    with EngineRunner(str(world)) as r:
        r.add_error_listener(errors.append)
        r.add_state_listener(states.append)
        r.run_fast()
        assert wait_for(lambda: r.latest_frame().pause_message != "")
        f = r.latest_frame()
        assert f.paused and f.mode == "paused"
        assert f.time_ms == 48.0   # the failing step (at 40 ms) completes, then the pause
        assert "probe failure" in f.pause_message
        assert errors and "probe failure" in errors[-1].message
        assert states == ["fast", "paused"]
        assert r.thread.is_alive()
        r.run_fast()   # carries on without the plugin
        assert wait_for(lambda: r.latest_frame().time_ms > 100)


def test_engine_exception_pauses_with_a_message(runner) -> None:
    def broken_step():
        raise RuntimeError("engine exploded")

    lines = []
    runner.add_console_listener(lambda source, text: lines.append(text))
    runner.call(lambda sim: setattr(runner.host, "step", broken_step)).result(TIMEOUT)
    runner.run_fast()
    assert wait_for(lambda: runner.latest_frame().pause_message != "")
    f = runner.latest_frame()
    assert f.paused and "engine exploded" in f.pause_message
    assert any("engine exploded" in line for line in lines)
    assert runner.thread.is_alive()
    del runner.host.step   # back to the class method
    runner.step_once()
    assert sync(runner).steps == 1


def test_edit_field_moves_the_box(runner) -> None:
    box = runner.world.find_solid_by_def("BOX")
    result = runner.edit_field(box, "translation", (0.0, 0.0, 3.0)).result(TIMEOUT)
    assert result.kind == "live"
    assert box_z(runner.latest_frame(), runner) == 3.0
    runner.step_once()
    assert 2.99 < box_z(sync(runner), runner) < 3.0


def test_edit_needing_a_rebuild_keeps_time(runner) -> None:
    runner.step_once()
    sync(runner)
    box = runner.world.find_solid_by_def("BOX")
    result = runner.edit_field(box, "boundingObject", None).result(TIMEOUT)
    assert result.needs_rebuild
    f = sync(runner)
    assert f.time_ms == 8.0
    assert runner.call(lambda sim: sim.geom_from_def("BOX")).result(TIMEOUT) is None


def test_draw_without_a_draw_callback_draws_nothing(runner) -> None:
    assert runner.draw(1, None) is False


def _frame_and_expected(sim) -> tuple[Frame, dict]:
    frame = sim.frame(mode="fast", running=True, speed=1.0)
    expected = {rec.node: sim.solid_world_frame(rec) for rec in sim.model.solids}
    return frame, expected


def test_frame_poses_equal_the_solids_world_frames(runner) -> None:
    for _ in range(3):
        runner.step_once()
    frame, expected = runner.call(_frame_and_expected).result(TIMEOUT)
    assert list(frame.poses) == list(expected)
    for node, world in expected.items():
        assert np.array_equal(frame.poses[node][0], world.t)
        assert np.array_equal(frame.poses[node][1], world.R)


def test_frame_pose_arrays_hold_the_same_poses_and_keep_their_node_tuple(runner) -> None:
    runner.step_once()
    first, _ = runner.call(_frame_and_expected).result(TIMEOUT)
    for _ in range(2):
        runner.step_once()
    frame, expected = runner.call(_frame_and_expected).result(TIMEOUT)
    assert frame.pose_nodes is first.pose_nodes  # one tuple per model: cacheable
    assert list(frame.pose_nodes) == list(expected)
    assert frame.pose_t.shape == (len(expected), 3)
    assert frame.pose_R.shape == (len(expected), 3, 3)
    assert not frame.pose_t.flags.writeable and not frame.pose_R.flags.writeable
    for k, (node, world) in enumerate(expected.items()):
        assert np.array_equal(frame.pose_t[k], world.t)
        assert np.array_equal(frame.pose_R[k], world.R)
        assert np.array_equal(frame.poses[node][0], frame.pose_t[k])
    box = runner.world.find_solid_by_def("BOX")
    k = frame.pose_nodes.index(box)
    assert not np.array_equal(frame.pose_t[k], first.pose_t[k])  # it fell meanwhile


def test_a_call_resolves_after_the_frame_showing_it_is_published(runner) -> None:
    floor = runner.world.find_solid_by_def("FLOOR")
    before = sys.getswitchinterval()
    sys.setswitchinterval(1e-5)  # hand the GIL over as eagerly as the app does, or more
    try:
        for k in range(1, 31):
            runner.edit_field(floor, "translation", (0.01 * k, 0.0, 0.0)).result(TIMEOUT)
            assert runner.latest_frame().poses[floor][0][0] == pytest.approx(0.01 * k)
    finally:
        sys.setswitchinterval(before)


def test_frame_follows_an_edited_static_solid(runner) -> None:
    floor = runner.world.find_solid_by_def("FLOOR")
    before = runner.latest_frame().poses[floor][0]
    runner.edit_field(floor, "translation", (0.5, 0.0, -0.25)).result(TIMEOUT)
    frame, expected = runner.call(_frame_and_expected).result(TIMEOUT)
    assert np.array_equal(before, [0.0, 0.0, 0.0])
    assert np.array_equal(frame.poses[floor][0], [0.5, 0.0, -0.25])
    assert np.array_equal(frame.poses[floor][0], expected[floor].t)


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="per-thread nice is Linux's")
def test_engine_thread_runs_at_a_low_cpu_priority(runner) -> None:
    import os

    from app.runner import ENGINE_THREAD_NICE

    nice = runner.call(lambda sim: os.getpriority(os.PRIO_PROCESS, threading.get_native_id()))
    assert ENGINE_THREAD_NICE == 10
    assert nice.result(TIMEOUT) == ENGINE_THREAD_NICE
    # only the engine thread: this (the GUI's) thread keeps the process's priority
    assert os.getpriority(os.PRIO_PROCESS, threading.get_native_id()) == os.getpriority(
        os.PRIO_PROCESS, 0)


def drawing_runner(tmp_path) -> EngineRunner:
    """A runner of the probe world whose plugin also has a draw callback."""
    plugin = PLUGIN.format(version=1, fail_at=1e18) + (
        "\n\ndef webots_physics_draw(pass_, view):\n    pass\n")
    return EngineRunner(str(make_project(tmp_path, plugin=plugin)))


def test_gui_first_holds_new_steps_back_while_the_gui_paints(tmp_path) -> None:
    import app.runner as runner_module

    runner = drawing_runner(tmp_path)
    try:
        runner.run_fast()
        assert wait_for(lambda: runner.latest_frame().steps > 20)  # warm, stepping flat out
        assert runner.host.draws
        with runner.gui_first():
            held = sync(runner).steps  # commands still run (and publish) while held back
            time.sleep(0.4)
            during = sync(runner).steps - held
        # the engine waits up to GUI_FIRST_WAIT per step for the frame: a few steps at most
        assert during <= 0.4 / runner_module.GUI_FIRST_WAIT + 2, during
        resumed = sync(runner).steps
        time.sleep(0.4)
        after = sync(runner).steps - resumed
        assert after > 4 * max(during, 5), (during, after)
    finally:
        runner.stop()


def test_gui_first_holds_nothing_back_without_a_plugin_draw_callback(runner) -> None:
    runner.run_fast()
    assert wait_for(lambda: runner.latest_frame().steps > 20)
    assert not runner.host.draws
    with runner.gui_first():
        held = sync(runner).steps
        time.sleep(0.2)
        during = sync(runner).steps - held
    assert during > 20, during


def test_gui_first_does_not_stop_an_engine_whose_gui_hangs(tmp_path, monkeypatch) -> None:
    import app.runner as runner_module

    monkeypatch.setattr(runner_module, "GUI_FIRST_WAIT", 0.01)
    runner = drawing_runner(tmp_path)
    try:
        runner.run_fast()
        with runner.gui_first():  # a GUI that never finishes its frame
            start = sync(runner).steps
            assert wait_for(lambda: sync(runner).steps >= start + 10, timeout=30.0)
    finally:
        runner.stop()


def test_run_waits_for_a_kernel_warm_up_running_in_the_background(tmp_path, monkeypatch):
    warming = [True]
    monkeypatch.setattr("app.runner.warmup_running", lambda: warming[0])
    lines = []
    r = EngineRunner(str(make_project(tmp_path)))
    r.add_console_listener(lambda source, text: lines.append(text))
    try:
        r.run_fast()
        assert wait_for(lambda: any("compiled in the background" in t for t in lines))
        time.sleep(0.3)
        assert r.latest_frame().steps == 0 and r.state() == "fast"
        warming[0] = False
        assert wait_for(lambda: r.latest_frame().steps > 0)
        assert "Physics engine ready." in lines
    finally:
        r.stop()
