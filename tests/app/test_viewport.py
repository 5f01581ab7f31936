"""Pixel tests of the 3D viewport (pytest-qt under xvfb, grabFramebuffer probes)."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest
from OpenGL import GL

from app.viewport.overlays import CONTACT_COLOR, FORCE_COLOR
from app.viewport.renderer import BOUND_COLOR, COLLIDING_COLOR
from engine.sim.frame import ContactInfo
from tests.app.test_viewport_helpers import (
    around,
    at,
    box_solid,
    count_near,
    frame,
    grab,
    is_red,
    pixels,
    pose,
    shown_viewport,
    world,
)

RGB_BOUND = tuple(int(c * 255) for c in BOUND_COLOR[:3])
RGB_COLLIDING = tuple(int(c * 255) for c in COLLIDING_COLOR[:3])


@pytest.fixture
def view(qtbot, gl_available):
    """A shown 400x300 viewport without grid, showing a red box at the origin."""
    w = shown_viewport(qtbot)
    w.show_grid = False
    w.set_world(world(box_solid("BOX", (1, 0, 0))))
    yield w
    w.close()


def test_context_is_compatibility_profile(view):
    from PySide6.QtGui import QSurfaceFormat

    grab(view)
    fmt = view.gl_window.context().format()
    assert fmt.profile() == QSurfaceFormat.OpenGLContextProfile.CompatibilityProfile


def test_red_box_at_projected_centre_and_background_elsewhere(view):
    px = grab(view)
    assert is_red(at(px, view.world_to_pixel((0, 0, 0))))
    assert tuple(at(px, (10, 10))) == (0, 0, 0)
    assert tuple(at(px, view.world_to_pixel((0, 1.5, 0)))) == (0, 0, 0)


def test_frame_moves_the_box(view):
    box = view.scene.solids[0]
    view.set_frame(frame({box: pose((0, 1.0, 0))}))
    px = grab(view)
    assert is_red(at(px, view.world_to_pixel((0, 1.0, 0))))
    assert tuple(at(px, view.world_to_pixel((0, 0, 0)))) == (0, 0, 0)
    R = np.array([[0, -1, 0], [1, 0, 0], [0, 0, 1.0]])
    view.set_frame(frame({box: pose((0, -1.0, 0.2), R)}))
    px = grab(view)
    assert is_red(at(px, view.world_to_pixel((0, -1.0, 0.2))))
    assert not is_red(at(px, view.world_to_pixel((0, 1.0, 0))))


def test_frame_pose_arrays_move_the_box_like_the_pose_mapping(view):
    box = view.scene.solids[0]
    R = np.array([[0, -1, 0], [1, 0, 0], [0, 0, 1.0]])
    by_mapping = frame({box: pose((0, -1.0, 0.2), R)})
    other = object()  # a Solid the scene does not show is ignored
    nodes = (other, box)
    by_arrays = dataclasses.replace(frame(), pose_nodes=nodes,
                                    pose_t=np.array([[9.0, 9.0, 9.0], [0, -1.0, 0.2]]),
                                    pose_R=np.stack([np.eye(3), R]))
    view.set_frame(by_mapping)
    expected = grab(view)
    view.set_frame(by_arrays)
    px = grab(view)
    assert np.array_equal(px, expected)
    assert is_red(at(px, view.world_to_pixel((0, -1.0, 0.2))))
    # same node tuple: the cached rows are reused
    moved = dataclasses.replace(by_arrays, pose_t=np.array([[9.0, 9.0, 9.0], [0, 1.0, 0]]))
    view.set_frame(moved)
    px = grab(view)
    assert is_red(at(px, view.world_to_pixel((0, 1.0, 0))))
    assert not is_red(at(px, view.world_to_pixel((0, -1.0, 0.2))))


def test_transparency_blends(view):
    view.set_world(world(box_solid("BACK", (0, 1, 0), (1.0, 0, 0), size=1.0),
                         box_solid("GLASS", (1, 0, 0), (0, 0, 0), transparency=0.5)))
    px = grab(view)
    rgb = at(px, view.world_to_pixel((0, 0, 0)))
    assert 60 < rgb[0] < 200 and 40 < rgb[1] < 200 and rgb[2] < 40, rgb
    only_glass = at(px, view.world_to_pixel((0, 0, 0.3)))  # above the green box's top face
    assert only_glass[0] < 200


def _yellow_line(pass_):
    """The seed's plugin example: yellow line in world coordinates, legacy GL."""
    if pass_ != 1:
        return
    GL.glDisable(GL.GL_DEPTH_TEST)
    GL.glDisable(GL.GL_LIGHTING)
    GL.glLineWidth(3.0)
    GL.glBegin(GL.GL_LINES)
    GL.glColor3f(1, 1, 0)
    GL.glVertex3f(0, 1.0, 0)
    GL.glVertex3f(0, 2.0, 0)
    GL.glEnd()


def test_plugin_pass1_yellow_line_and_state_restored(view):
    before = grab(view)
    centre = view.world_to_pixel((0, 0, 0))
    calls = []

    def plugin(pass_):
        calls.append(pass_)
        _yellow_line(pass_)
        if pass_ == 1:  # leave a mess behind, as a careless plugin would
            GL.glPolygonMode(GL.GL_FRONT_AND_BACK, GL.GL_LINE)
            GL.glEnable(GL.GL_BLEND)
            GL.glBlendFunc(GL.GL_ZERO, GL.GL_ONE)
            GL.glMatrixMode(GL.GL_PROJECTION)
            GL.glLoadIdentity()
            GL.glColor3f(0, 0, 1)
            GL.glLineWidth(9.0)

    view.set_plugin_draw(plugin)
    px = grab(view)
    assert calls[:2] == [0, 1]
    assert count_near(px, (255, 255, 0), 60, around(view.world_to_pixel((0, 1.5, 0)), 2)) > 0
    assert is_red(at(px, centre))
    px2 = grab(view)  # a second frame after the mess: the scene is unchanged
    assert tuple(at(px2, centre)) == tuple(at(before, centre))
    assert count_near(px2, (255, 255, 0), 60, around(view.world_to_pixel((0, 1.5, 0)), 2)) > 0
    view.set_plugin_draw(None)
    px3 = grab(view)
    assert np.array_equal(px3, before)
    assert view.plugin_errors == []


def test_plugin_pass0_is_covered_by_the_box(view):
    def plugin(pass_):
        if pass_ == 0:  # a yellow quad just behind the box's front face, wider than the box
            GL.glColor3f(1, 1, 0)
            GL.glBegin(GL.GL_QUADS)
            for y, z in ((-1, -1), (1, -1), (1, 1), (-1, 1)):
                GL.glVertex3f(0.0, y, z)
            GL.glEnd()

    view.set_plugin_draw(plugin)
    px = grab(view)
    assert is_red(at(px, view.world_to_pixel((-0.25, 0, 0))))
    assert count_near(px, (255, 255, 0), 30, around(view.world_to_pixel((0, 0.8, 0)), 1)) > 0


def test_plugin_exception_is_reported_and_state_kept(view):
    def plugin(pass_):
        GL.glMatrixMode(GL.GL_PROJECTION)
        GL.glPushMatrix()
        raise RuntimeError("boom")

    view.set_plugin_draw(plugin)
    px = grab(view)
    assert is_red(at(px, view.world_to_pixel((0, 0, 0))))
    assert [str(e) for e in view.plugin_errors] == ["boom", "boom"]


def test_plugin_gl_mistake_raises_in_the_plugin_and_renderer_errors_are_not_its(view):
    def plugin(pass_):
        if pass_ == 1:
            GL.glEnable(0xFFFF)  # checked: a GLError with the plugin's traceback

    view.set_plugin_draw(plugin)
    grab(view)
    assert len(view.plugin_errors) == 1 and isinstance(view.plugin_errors[0], GL.GLError)
    assert view.gl_errors == []  # the plugin's error is its own

    # a GL mistake of the renderer itself (unchecked calls) is collected per frame and
    # does not surface as an exception in the plugin's next checked call
    view.plugin_errors.clear()
    view.set_plugin_draw(lambda pass_: GL.glColor3f(1, 1, 0))
    bad_grid_lines = view.renderer._lines.draw

    def draw_with_a_mistake(*args, **kwargs):
        GL.glEnable(0xFFFF)
        return bad_grid_lines(*args, **kwargs)

    view.renderer._lines.draw = draw_with_a_mistake
    view.show_grid = True
    px = pixels(view.grabFramebuffer())
    assert view.plugin_errors == [] and view.paint_errors == []
    assert view.gl_errors == [GL.GL_INVALID_ENUM]
    assert is_red(at(px, view.world_to_pixel((0, 0, 0))))


def test_bounding_objects_and_colliding_highlight(view):
    box = view.scene.solids[0]
    corner = view.world_to_pixel((-0.25, -0.25, 0.25))
    far = view.world_to_pixel((0.25, 0.25, -0.25))
    region = (int(min(corner[0], far[0])) - 40, 0, int(max(corner[0], far[0])) + 40, 300)
    assert count_near(grab(view), RGB_BOUND, 40, region) == 0
    view.show_bounding_objects = True
    px = grab(view)
    assert count_near(px, RGB_BOUND, 40, region) > 20
    assert count_near(px, RGB_COLLIDING, 40) == 0
    view.set_frame(frame(colliding=frozenset({box})))
    px = grab(view)
    assert count_near(px, RGB_COLLIDING, 40, region) > 20
    assert count_near(px, RGB_BOUND, 40, region) == 0


def test_hidden_bounding_objects_catch_up_with_frames_when_shown(view):
    box = view.scene.solids[0]
    view.show_bounding_objects = True
    grab(view)  # drawn at the origin
    view.show_bounding_objects = False
    view.set_frame(frame({box: pose((0, 1.5, 0))}, colliding=frozenset({box})))
    grab(view)  # shown without boundingObjects: their instances are not updated
    view.show_bounding_objects = True
    px = grab(view)
    moved = view.world_to_pixel((0, 1.25, 0.25))  # an edge of the moved box's top face
    assert count_near(px, RGB_COLLIDING, 40, around(moved, 3)) > 0
    assert count_near(px, RGB_COLLIDING, 40, around(view.world_to_pixel((0, 0.25, 0.25)), 3)) == 0


def test_contact_point_normal_and_force_drawn(view):
    c = ContactInfo(pos=np.array([0, 1.2, 0]), normal=np.array([0, 0, 1.0]), depth=0.01,
                    force=np.array([0, 0, 20.0]), solid1=None, solid2=None)
    view.set_frame(frame(contacts=(c,)))
    rgb_contact = tuple(int(v * 255) for v in CONTACT_COLOR[:3])
    rgb_force = tuple(int(v * 255) for v in FORCE_COLOR[:3])
    px = grab(view)
    assert count_near(px, rgb_contact, 40) == 0 and count_near(px, rgb_force, 40) == 0
    view.show_contacts = True
    view.show_forces = True
    px = grab(view)
    assert count_near(px, rgb_contact, 40, around(view.world_to_pixel((0, 1.2, 0)), 3)) > 0
    assert count_near(px, rgb_force, 40, around(view.world_to_pixel((0, 1.2, 0.6)), 3)) > 0


def test_trails_drawn_for_selected_solids(view):
    box = view.scene.solids[0]
    view.show_trails = True
    view.set_trail_solids([box])
    for k in range(11):
        view.set_frame(frame({box: pose((0, -1.5 + 0.3 * k, 0.6))}, time_ms=16 * k))
    assert len(view.trails.paths[box]) == 11
    px = grab(view)
    probe = around(view.world_to_pixel((0, -1.05, 0.6)), 2)  # behind the box, on the trail
    assert count_near(px, (255, 51, 153), 50, probe) > 0


def test_picking_box_and_background(view, qtbot):
    from PySide6.QtCore import QPoint, Qt

    grab(view)
    box = view.scene.solids[0]
    x, y = view.world_to_pixel((0, 0, 0))
    with qtbot.waitSignal(view.solid_picked, timeout=2000) as sig:
        qtbot.mouseClick(view.gl_window, Qt.MouseButton.LeftButton, pos=QPoint(int(x), int(y)))
    assert sig.args == [box]
    with qtbot.waitSignal(view.solid_picked, timeout=2000) as sig:
        qtbot.mouseClick(view.gl_window, Qt.MouseButton.LeftButton, pos=QPoint(10, 10))
    assert sig.args == [None]
    assert view.pick_at(x, y) is box
    assert is_red(at(grab(view), (x, y)))  # the pick pass left the view intact


def _send_drag(w, start, end, button):
    from PySide6.QtCore import QEvent, QPointF, Qt
    from PySide6.QtGui import QMouseEvent
    from PySide6.QtWidgets import QApplication

    mods = Qt.KeyboardModifier.NoModifier
    for kind, pos, buttons in ((QEvent.Type.MouseButtonPress, start, button),
                               (QEvent.Type.MouseMove, end, button),
                               (QEvent.Type.MouseButtonRelease, end, Qt.MouseButton.NoButton)):
        p = QPointF(*pos)
        ev = QMouseEvent(kind, p, w.mapToGlobal(p), button, buttons, mods)
        QApplication.sendEvent(w, ev)


def test_orbit_pan_and_zoom_move_pixels(view, qtbot):
    from PySide6.QtCore import QPoint, QPointF, Qt
    from PySide6.QtGui import QWheelEvent
    from PySide6.QtWidgets import QApplication

    before = grab(view)
    centre0 = view.world_to_pixel((0, 1.0, 0))
    _send_drag(view.gl_window, (200, 150), (260, 150), Qt.MouseButton.LeftButton)
    px = grab(view)
    assert not np.array_equal(px, before)
    assert view.world_to_pixel((0, 1.0, 0)) != pytest.approx(centre0, abs=5)
    assert is_red(at(px, view.world_to_pixel((0, 0, 0))))

    eye = view.camera.eye.copy()
    _send_drag(view.gl_window, (200, 150), (230, 170), Qt.MouseButton.RightButton)
    assert not np.allclose(view.camera.eye, eye)
    assert is_red(at(grab(view), view.world_to_pixel((0, 0, 0))))

    n_red = count_near(grab(view), (255, 0, 0), 110)
    dist = np.linalg.norm(view.camera.eye - view.camera.target)
    p = QPointF(200, 150)
    wheel = QWheelEvent(p, view.gl_window.mapToGlobal(p), QPoint(), QPoint(0, 240),
                        Qt.MouseButton.NoButton, Qt.KeyboardModifier.NoModifier,
                        Qt.ScrollPhase.NoScrollPhase, False)
    QApplication.sendEvent(view.gl_window, wheel)
    assert np.linalg.norm(view.camera.eye - view.camera.target) < dist
    assert count_near(grab(view), (255, 0, 0), 110) > n_red * 1.2  # the box looks bigger


def test_default_world_renders_without_gl_errors(qtbot, gl_available, tmp_path):
    from engine.world import read_world

    w = shown_viewport(qtbot, (640, 480))
    wld = read_world("resources/worlds/default.wbt")
    w.set_world(wld)
    w.show_bounding_objects = True
    w.show_contacts = w.show_forces = True
    px = grab(w)
    w.grabFramebuffer().save(str(tmp_path / "default.png"))
    assert len(w.scene.shapes) == 17 and len(w.scene.bounds) == 15
    green = at(px, w.world_to_pixel((1.0, 0.4, 0.5)))
    assert green[1] > green[0] + 40 and green[1] > green[2] + 40, green
    blue = at(px, w.world_to_pixel((-0.9, -0.8, 0.5)))
    assert blue[2] > blue[0] + 60, blue
    assert GL.glGetError  # PyOpenGL loaded; errors are collected after each paint
    assert w.gl_errors == [] and w.paint_errors == []
    w.close()


def test_each_light_count_has_its_program_and_every_light_adds_light(view):
    from app.viewport.shaders import MAX_LIGHTS, mesh_fragment_source

    grey = box_solid("GREY", (0.5, 0.5, 0.5))
    light = "DirectionalLight {{ direction {} ambientIntensity 0 }}\n"
    brightness = []
    for directions in (["1 0 -1"], ["1 0 -1", "0 1 -1"], ["1 0 -1", "0 1 -1", "0 -1 -1"]):
        view.set_world(world(grey, *(light.format(d) for d in directions)))
        px = grab(view)
        brightness.append(int(at(px, view.world_to_pixel((0, 0, 0.25))).sum()))
    assert brightness[0] < brightness[1] < brightness[2], brightness
    assert {1, 2, 3} <= {nlights for nlights, _ in view.renderer._program.programs}
    assert "const int NLIGHTS = 3;" in mesh_fragment_source(3)
    with pytest.raises(ValueError, match=f"nlights must be 0..{MAX_LIGHTS}, got 5"):
        mesh_fragment_source(MAX_LIGHTS + 1)


def test_paint_runs_inside_the_paint_guard(view):
    import contextlib

    events = []

    @contextlib.contextmanager
    def guard():
        events.append("enter")
        yield
        events.append("exit")

    view.set_plugin_draw(lambda pass_: events.append(f"pass {pass_}"))
    view.set_paint_guard(guard)
    grab(view)
    assert events == ["enter", "pass 0", "pass 1", "exit"]
    view.set_paint_guard(None)
    events.clear()
    grab(view)
    assert events == ["pass 0", "pass 1"]
