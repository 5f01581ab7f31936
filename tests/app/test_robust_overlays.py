"""The robust contact model's overlays: boundary layers (padded shells), contacts
coloured by state and sized by cluster; geometry checks and pixel probes.

Screenshots of the probes are written to ``$ODEON_SHOTS`` when it is set
(to look at them; the assertions do not need them)."""

from __future__ import annotations

import os
from types import MappingProxyType

import numpy as np
import pytest
from PySide6.QtGui import QImage

from app.viewport import meshes
from app.viewport import overlay_state as ov
from app.viewport.boundary_layer_drawer import BoundaryLayerDrawer
from app.viewport.overlays import (
    CONTACT_COLOR,
    NORMAL_COLOR,
    STATE_COLORS,
    cluster_scale,
    contact_lines,
    state_colors,
)
from app.viewport.padded_shells import (
    SHELL_COLOR,
    offset_along_normals,
    shell_items,
    shell_maker,
)
from app.viewport.scene import build_scene
from engine.contact.pipeline import CONTACT_OPEN, CONTACT_SLIDING, CONTACT_STICKING
from engine.sim.frame import STATE_UNKNOWN, ContactSet, Frame
from engine.world import parse_world
from tests.app.test_viewport_helpers import (
    HEADER,
    around,
    count_near,
    grab,
    pose,
    shown_viewport,
    sphere_solid,
    world,
)


def contact_set(pos: list, state: list, cluster: list) -> ContactSet:
    m = len(pos)
    return ContactSet(np.asarray(pos, float).reshape(m, 3), np.tile([0.0, 0.0, 1.0], (m, 1)),
                      np.zeros(m), np.full((m, 3), np.nan), np.zeros(m, bool), (None,) * m,
                      (None,) * m, np.zeros(m, bool), state=np.asarray(state, np.int8),
                      cluster_size=np.asarray(cluster, np.int64))


def shells(drawer: BoundaryLayerDrawer) -> int:
    """The number of shell instances the drawer holds."""
    return sum(len(g.solid) for g in drawer.meshes.groups.values())


def rgb255(color: tuple) -> tuple[int, int, int]:
    return tuple(int(round(255 * c)) for c in color[:3])


def save_shot(px: np.ndarray, name: str) -> None:
    folder = os.environ.get("ODEON_SHOTS")
    if folder:
        os.makedirs(folder, exist_ok=True)
        h, w = px.shape[:2]
        QImage(np.ascontiguousarray(px).data, w, h, 4 * w,
               QImage.Format.Format_RGBA8888).save(os.path.join(folder, name))


# ------------------------------------------------------------------ state
def test_robust_switches_start_off_and_are_announced() -> None:
    state = ov.OverlayState()
    seen: list[str] = []
    state.observe(seen.append)
    assert {s: state.is_on(s) for s in ov.ROBUST_SWITCHES} == {
        "boundary_layers": False, "contact_states": False, "cluster_sizes": False}
    for switch in ov.ROBUST_SWITCHES:
        state.set_on(switch, True)
        assert state.is_on(switch)
    assert seen == list(ov.ROBUST_SWITCHES)
    assert dict(state.paddings) == {}
    node = object()
    state.set_frame(Frame(paddings=MappingProxyType({node: 0.01})))
    assert dict(state.paddings) == {node: 0.01}


# ------------------------------------------------------------ contact lines
def test_contact_lines_by_state_and_cluster() -> None:
    contacts = contact_set([(0, 0, 0), (1, 0, 0), (2, 0, 0), (3, 0, 0)],
                           [STATE_UNKNOWN, CONTACT_OPEN, CONTACT_STICKING, CONTACT_SLIDING],
                           [1, 4, 1, 16])
    pts, cols = contact_lines(contacts, True, False)  # as before: orange and green
    assert len(pts) == 4 * 8
    assert np.all(cols[:24] == CONTACT_COLOR) and np.all(cols[24:] == NORMAL_COLOR)
    pts, cols = contact_lines(contacts, True, False, by_state=True)
    crosses = cols[:24].reshape(4, 6, 4)
    normals = cols[24:].reshape(4, 2, 4)
    expected = [CONTACT_COLOR, STATE_COLORS[CONTACT_OPEN], STATE_COLORS[CONTACT_STICKING],
                STATE_COLORS[CONTACT_SLIDING]]
    for k, color in enumerate(expected):
        assert np.all(crosses[k] == color) and np.all(normals[k] == color)
    assert np.array_equal(state_colors(np.array([2, -1])), [STATE_COLORS[2], CONTACT_COLOR])
    # cross arm lengths grow with the square root of the cluster size
    pts, _ = contact_lines(contacts, True, False, point_size=0.02, by_cluster=True)
    arms = np.linalg.norm(pts[:24:2] - pts[1:24:2], axis=1).reshape(4, 3)
    assert np.allclose(arms, 0.02 * np.array([1, 2, 1, 4])[:, None])
    assert np.array_equal(cluster_scale(np.array([0, 1, 9])), [1.0, 1.0, 3.0])
    # items (not a ContactSet) have no state: default colours whatever the switches
    _, cols = contact_lines(list(contacts), True, False, by_state=True, by_cluster=True)
    assert np.all(cols[:24] == CONTACT_COLOR)


# ----------------------------------------------------------------- shells
SHAPES = """#VRML_SIM R2025a utf8
WorldInfo {}
DEF S Solid { boundingObject Sphere { radius 0.2 } }
DEF B Solid { boundingObject Pose { translation 1 0 0 children [ Box { size 0.2 0.4 0.6 } ] } }
DEF C Solid { boundingObject Group { children [ Cylinder { radius 0.1 height 0.5 }
  Capsule { radius 0.05 height 0.3 } ] } }
DEF P Solid { boundingObject Plane { size 4 4 } }
DEF M Solid { boundingObject IndexedFaceSet { coord Coordinate { point [ 0 0 0 1 0 0 0 1 0
  0 0 1 ] } coordIndex [ 0 2 1 -1 0 1 3 -1 0 3 2 -1 1 2 3 -1 ] } }
DEF N Solid { boundingObject Sphere { radius 1 } }
"""


def test_shells_grow_each_geometry_by_its_padding() -> None:
    w = parse_world(SHAPES)
    scene = build_scene(w)
    p = 0.05
    paddings = {w.find_by_def(d): p for d in "SBCPM"}
    paddings[w.find_by_def("N")] = 0.0  # no layer: no shell
    table: dict = {}
    items = shell_items(scene.solids, paddings, table, scene.meshes)
    assert [scene.solids[it.solid].def_name for it in items] == list("SBCCPM")
    assert all(it.color == SHELL_COLOR for it in items)
    sphere, box, cylinder, capsule, plane, mesh = items
    assert sphere.mesh_key == ("sphere",)
    assert np.allclose(np.diag(sphere.local)[:3], 0.25)
    assert box.mesh_key == ("box",)
    assert np.allclose(np.diag(box.local)[:3], [0.3, 0.5, 0.7])
    assert np.allclose(box.local[:3, 3], [1, 0, 0])
    assert np.allclose(np.diag(cylinder.local)[:3], [0.15, 0.15, 0.6])
    assert capsule.mesh_key == ("capsule", 0.1, 0.3) and capsule.mesh_key in table
    assert np.allclose(plane.local[:3, 3], [0, 0, p])
    # the tetrahedron's corners move outwards by p along their vertex normals
    grown = table[mesh.mesh_key].positions.astype(float)
    geometry = w.find_by_def("M").get("boundingObject")
    assert shell_maker("IndexedFaceSet")(geometry, p, {}, scene.meshes)[0] == mesh.mesh_key
    base = scene.meshes[("IndexedFaceSet", id(geometry))].positions
    moved = np.linalg.norm(grown - base, axis=1)
    assert np.allclose(moved, p, atol=1e-6)
    origin = np.all(np.abs(base) < 1e-9, axis=1)
    assert np.allclose(grown[origin], -p / np.sqrt(3), atol=1e-6)  # pushed out of the corner


def test_offset_along_normals_of_a_sphere_is_a_larger_sphere() -> None:
    base = meshes.icosphere(2)
    shell = offset_along_normals(base, 0.25)
    moved = np.linalg.norm(shell.positions - base.positions, axis=1)
    assert np.allclose(moved, 0.25, atol=1e-6)
    # each vertex normal (mean of its faces' normals) is within 2 degrees of radial
    assert np.min(np.sum(shell.normals * base.positions, axis=1)) > np.cos(np.radians(2))
    radii = np.linalg.norm(shell.positions, axis=1)
    assert np.allclose(radii, 1.25, atol=1e-4)
    assert np.allclose(np.linalg.norm(shell.normals, axis=1), 1.0, atol=1e-5)
    assert len(shell.edges) == 0


# ------------------------------------------------------------ pixel probes
BALL_WORLD = sphere_solid("BALL", (1.0, 0.1, 0.1), (0, 0, 0), 0.3)


def test_boundary_layer_pixels_around_a_padded_sphere(qtbot, gl_available) -> None:
    w = shown_viewport(qtbot)
    wd = world(BALL_WORLD)
    ball = wd.find_by_def("BALL")
    w.set_world(wd)
    w.show_grid = False  # its line x = 0 runs through the probes
    w.set_frame(Frame(poses=MappingProxyType({ball: pose((0, 0, 0))}),
                      paddings=MappingProxyType({ball: 0.15})))
    ring = w.world_to_pixel([0.0, 0.38, 0.0])  # between r = 0.3 and r + p = 0.45
    outside = w.world_to_pixel([0.0, 0.55, 0.0])
    centre = w.world_to_pixel([0.0, 0.0, 0.0])
    off = grab(w)
    w.renderer.overlays.set_on(ov.BOUNDARY_LAYERS, True)
    on = grab(w)
    save_shot(off, "boundary_layers_off.png")
    save_shot(on, "boundary_layers_on.png")
    drawer = w.renderer.boundary_layers
    assert shells(drawer) == 1
    x, y = (int(round(v)) for v in ring)
    assert off[y, x, :3].max() < 20  # black background without the layer
    r, g, b = on[y, x, :3].astype(int)
    assert b > 40 and b > r + 15, (r, g, b)  # the translucent blue shell
    ox, oy = (int(round(v)) for v in outside)
    assert on[oy, ox, :3].max() < 20  # nothing beyond r + p
    cx, cy = (int(round(v)) for v in centre)
    r, g, b = on[cy, cx, :3].astype(int)
    assert r > 120 and r > b, (r, g, b)  # the red ball shows through the shell
    # no padding in the frame (default model): no shell although the switch is on
    w.set_frame(Frame(poses=MappingProxyType({ball: pose((0, 0, 0))})))
    plain = grab(w)
    assert plain[y, x, :3].max() < 20 and shells(drawer) == 0


def test_boundary_layer_follows_its_solid(qtbot, gl_available) -> None:
    w = shown_viewport(qtbot)
    wd = world(BALL_WORLD)
    ball = wd.find_by_def("BALL")
    w.set_world(wd)
    w.show_grid = False  # its line x = 0 runs through the probes
    w.renderer.overlays.set_on(ov.BOUNDARY_LAYERS, True)
    w.set_frame(Frame(poses=MappingProxyType({ball: pose((0, 1.0, 0))}),
                      paddings=MappingProxyType({ball: 0.15})))
    moved = grab(w)
    x, y = (int(round(v)) for v in w.world_to_pixel([0.0, 1.38, 0.0]))
    assert moved[y, x, 2] > 40
    x, y = (int(round(v)) for v in w.world_to_pixel([0.0, 0.38, 0.0]))
    assert moved[y, x, :3].max() < 20


@pytest.mark.parametrize("state", [CONTACT_OPEN, CONTACT_STICKING, CONTACT_SLIDING])
def test_contact_colour_by_state_at_the_contact(qtbot, gl_available, state) -> None:
    w = shown_viewport(qtbot)
    w.set_world(parse_world(HEADER))
    w.show_grid = False  # its grey is close to the open contacts' grey
    point = (0.0, 0.0, 0.5)
    w.set_frame(Frame(contacts=contact_set([point], [state], [1])))
    w.show_contacts = True
    px = w.world_to_pixel(point)
    plain = grab(w)
    assert count_near(plain, rgb255(CONTACT_COLOR), 40, around(px, 6)) > 0
    assert count_near(plain, rgb255(STATE_COLORS[state]), 40, around(px, 6)) == 0
    w.renderer.overlays.set_on(ov.CONTACT_STATES, True)
    coloured = grab(w)
    save_shot(coloured, f"contact_state_{state}.png")
    assert count_near(coloured, rgb255(STATE_COLORS[state]), 40, around(px, 6)) > 0
    assert count_near(coloured, rgb255(CONTACT_COLOR), 40, around(px, 6)) == 0


def test_cluster_sizes_draw_larger_crosses(qtbot, gl_available) -> None:
    w = shown_viewport(qtbot)
    w.set_world(parse_world(HEADER))
    w.show_grid = False  # its grey is close to the open contacts' grey
    point = (0.0, 0.0, 0.5)
    w.set_frame(Frame(contacts=contact_set([point], [STATE_UNKNOWN], [16])))
    w.renderer.overlays.set_on(ov.CLUSTER_SIZES, True)  # shows the contacts by itself
    big = count_near(grab(w), rgb255(CONTACT_COLOR), 40)
    w.renderer.overlays.set_on(ov.CLUSTER_SIZES, False)
    w.show_contacts = True
    small = count_near(grab(w), rgb255(CONTACT_COLOR), 40)
    assert small > 0 and big > 2.5 * small, (big, small)


def test_contacts_are_drawn_over_the_boundary_layers(qtbot, gl_available) -> None:
    w = shown_viewport(qtbot)
    wd = world(BALL_WORLD)
    ball = wd.find_by_def("BALL")
    w.set_world(wd)
    w.show_grid = False
    point = (-0.3, 0.0, 0.0)  # on the ball, facing the camera: inside the shell
    w.set_frame(Frame(poses=MappingProxyType({ball: pose((0, 0, 0))}),
                      contacts=contact_set([point], [CONTACT_STICKING], [4]),
                      paddings=MappingProxyType({ball: 0.15})))
    for switch in (ov.BOUNDARY_LAYERS, ov.CONTACT_STATES, ov.CLUSTER_SIZES):
        w.renderer.overlays.set_on(switch, True)
    px = grab(w)
    save_shot(px, "contact_in_boundary_layer.png")
    assert shells(w.renderer.boundary_layers) == 1
    sticking = rgb255(STATE_COLORS[CONTACT_STICKING])
    assert count_near(px, sticking, 30, around(w.world_to_pixel(point), 8)) > 5
