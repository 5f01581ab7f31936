"""The viewport's overlay state (Qt-free) and its registered drawers."""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np
import pytest

from app.viewport import overlay_state as ov
from app.viewport.geometry_meshes import drawer_names, mesh_for
from app.viewport.overlay_drawers import (
    BoundingObjectDrawer,
    ContactDrawer,
    GridDrawer,
    OverlayDrawer,
    PluginDrawer,
    Stage,
    TrailDrawer,
    drawer_classes,
    register_overlay,
)
from engine.sim.frame import ContactInfo
from engine.sim.geometry_kinds import kind_names
from engine.world import schema_nodes
from tests.app.test_viewport_helpers import box_solid, frame, grab, pose, shown_viewport, world


def test_switches_start_with_the_grid_only_and_unknown_switches_fail() -> None:
    state = ov.OverlayState()
    assert {s: state.is_on(s) for s in ov.SWITCHES} == {
        "grid": True, "bounding_objects": False, "contacts": False, "forces": False,
        "trails": False}
    with pytest.raises(KeyError):
        state.set_on("shadows", True)
    with pytest.raises(KeyError):
        state.is_on("shadows")


def test_every_change_is_announced_to_the_observers_in_order() -> None:
    state = ov.OverlayState()
    seen: list[tuple[str, str]] = []
    state.observe(lambda e: seen.append(("a", e)))
    state.observe(lambda e: seen.append(("b", e)))
    state.set_on(ov.CONTACTS, True)
    state.set_frame(None)
    state.set_trail_solids([])
    state.clear_trails()
    state.set_plugin_draw(print)
    assert seen == [(k, e) for e in (ov.CONTACTS, ov.FRAME, ov.TRAIL_SOLIDS, ov.TRAIL_SOLIDS,
                                     ov.PLUGIN) for k in ("a", "b")]
    assert state.is_on(ov.CONTACTS) and state.plugin_draw is print


def test_frame_gives_contacts_colliding_and_trail_points() -> None:
    state = ov.OverlayState()
    assert len(state.contacts) == 0 and state.colliding == frozenset()
    a = object()
    c = ContactInfo(pos=np.array([0.5, 0.0, 0.0]), normal=np.array([0.0, 0.0, 1.0]),
                    depth=0.01, force=None, solid1=a, solid2=None)
    state.set_trail_solids([a])
    state.set_frame(frame({a: pose((1.0, 2.0, 3.0))}, contacts=(c,), colliding={a},
                          time_ms=16))
    assert [tuple(x.pos) for x in state.contacts] == [(0.5, 0.0, 0.0)]
    assert state.colliding == frozenset({a})
    assert np.allclose(state.trails.paths[a][-1], [1.0, 2.0, 3.0])
    state.set_frame(None)
    assert len(state.contacts) == 0 and state.frame is None


def test_toggling_a_switch_makes_its_drawer_see_it() -> None:
    state = ov.OverlayState()
    contacts, trails, bounds = ContactDrawer(state), TrailDrawer(state), \
        BoundingObjectDrawer(state)
    for d in (contacts, trails, bounds):
        d.stale = False
    state.set_on(ov.FORCES, True)
    assert contacts.stale and not trails.stale and not bounds.stale
    assert contacts.state.is_on(ov.FORCES)
    contacts.stale = False
    state.set_trail_solids([object()])
    assert trails.stale and not contacts.stale and not bounds.stale
    trails.stale = False
    state.set_frame(None)
    assert contacts.stale and trails.stale and bounds.stale


def test_registered_drawers_cover_every_stage_in_paint_order() -> None:
    classes = drawer_classes()
    assert classes == (PluginDrawer, GridDrawer, BoundingObjectDrawer, ContactDrawer,
                       TrailDrawer)
    assert {s for cls in classes for s in cls.stages} == set(Stage)
    assert PluginDrawer.stages == (Stage.FIRST, Stage.LAST)
    assert GridDrawer.stages == (Stage.UNDER_SHAPES,)


def test_every_geometry_kind_has_a_drawer() -> None:
    assert set(drawer_names()) == set(kind_names()) == set(schema_nodes.GEOMETRY)


def test_a_type_without_a_drawer_has_nothing_to_draw() -> None:
    table: dict = {}
    assert mesh_for(SimpleNamespace(type_name="Cone"), table, ".") is None
    assert table == {}


def test_the_renderer_runs_a_drawer_registered_for_a_stage(qtbot, gl_available,
                                                            monkeypatch) -> None:
    calls: list[tuple[Stage, bool]] = []

    class Probe(OverlayDrawer):
        stages = (Stage.UNDER_SHAPES, Stage.LAST)

        def draw(self, ctx, stage) -> None:
            calls.append((stage, self.state.is_on(ov.TRAILS)))

    monkeypatch.setattr("app.viewport.overlay_drawers._DRAWER_CLASSES",
                        [*drawer_classes(), Probe])
    view = shown_viewport(qtbot)
    try:
        view.set_world(world(box_solid("BOX", (1, 0, 0))))
        grab(view)
        view.show_trails = True
        grab(view)
        assert calls[:2] == [(Stage.UNDER_SHAPES, False), (Stage.LAST, False)]
        assert calls[-2:] == [(Stage.UNDER_SHAPES, True), (Stage.LAST, True)]
    finally:
        view.close()


def test_a_drawer_class_without_a_stage_is_refused() -> None:
    class Nowhere(OverlayDrawer):
        def draw(self, ctx, stage) -> None:
            pass

    with pytest.raises(ValueError, match="declares no stage"):
        register_overlay(Nowhere)
    assert Nowhere not in drawer_classes()


def test_the_renderers_switches_are_the_overlay_state() -> None:
    from app.viewport.renderer import ViewportRenderer

    repaints: list[int] = []
    r = ViewportRenderer(changed=lambda: repaints.append(1))
    contacts = r.overlay_drawer(ContactDrawer)
    contacts.stale = False
    r.show_contacts = True
    assert r.overlays.is_on(ov.CONTACTS) and contacts.stale and repaints == [1]
    r.overlays.set_on(ov.GRID, False)
    assert not r.show_grid and repaints == [1, 1]
    r.set_trail_solids(["a"])
    assert list(r.trails.paths) == ["a"] and r.trails is r.overlays.trails
