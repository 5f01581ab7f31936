"""The main window's robust-contact pieces: the status bar's contact label and the
View / tool bar toggles of the boundary layers, contact states and cluster sizes."""

from __future__ import annotations

import dataclasses
import threading

import pytest

from app.main_window_support import EngineSink
from app.robust_contacts_ui import (
    STATUS_STYLES,
    UNKNOWN_STATUS_STYLE,
    VIEW_TOGGLES,
    contact_status_style,
    contact_status_text,
)
from app.scene_tree.edits import SetField
from app.viewport import overlay_state as ov
from engine.sim.frame import Frame
from tests.app import test_main_window as main_window_tests

# the main window tests' fixtures: a shown MainWindow with injected dialog answers
answers = main_window_tests.answers
make_window = main_window_tests.make_window

STATUSES = ("Normal", "AdaptiveTimeStepping", "ContactUnreliable", "Unstable")


def test_status_text_and_style_per_model_and_status() -> None:
    assert contact_status_text(Frame()) == "Contacts: default"
    assert contact_status_style(Frame()) == ""
    for status in STATUSES:
        frame = Frame(contact_model="robust", contact_status=status)
        assert contact_status_text(frame) == f"Contacts: robust \u2014 {status}"
        assert contact_status_style(frame) == STATUS_STYLES[status]
    assert STATUS_STYLES["Normal"] == ""
    assert all("bold" in STATUS_STYLES[s] for s in STATUSES[1:])
    assert contact_status_style(Frame(contact_model="robust", contact_status="Error")) \
        == UNKNOWN_STATUS_STYLE
    # the default model has no status to show, whatever the frame says
    assert contact_status_text(Frame(contact_status="Unstable")) == "Contacts: default"


def test_status_label_follows_the_frames(make_window) -> None:
    window = make_window()
    label = window.robust_ui.status_label
    assert label in window.statusBar().findChildren(type(label))
    assert label.text() == "Contacts: default"
    base = window.runner.latest_frame()
    for status in STATUSES:
        window._on_frame(dataclasses.replace(base, contact_model="robust",
                                             contact_status=status))
        assert label.text() == f"Contacts: robust \u2014 {status}"
        assert label.styleSheet() == STATUS_STYLES[status]
    window._on_frame(base)
    assert label.text() == "Contacts: default" and label.styleSheet() == ""


@pytest.mark.parametrize(("name", "switch"), [(n, s) for n, _t, s, _tip in VIEW_TOGGLES])
def test_view_toggles_switch_the_overlay_state(make_window, name, switch) -> None:
    window = make_window()
    overlays = window.viewport.renderer.overlays
    action = window.actions_[name]
    view_menu = next(a.menu() for a in window.menuBar().actions()
                     if a.text().replace("&", "") == "View")
    assert action in view_menu.actions()
    assert action in window.tools_toolbar.actions()
    # in the View menu after Trajectories, before Plots
    shown = view_menu.actions()
    assert shown.index(window.actions_["trails"]) < shown.index(action) \
        < shown.index(window.actions_["plots"])
    assert action.isCheckable() and not action.isChecked() and not overlays.is_on(switch)
    action.trigger()
    assert overlays.is_on(switch)
    action.trigger()
    assert not overlays.is_on(switch)
    assert set(ov.ROBUST_SWITCHES) == {s for _n, _t, s, _tip in VIEW_TOGGLES}


def test_engine_effects_run_in_the_engine_thread_before_the_field(make_window) -> None:
    window = make_window()
    sink = EngineSink(window.runner)
    info = window.runner.world.world_info
    before = list(info.get("info"))
    seen: list = []

    def effect(sim) -> None:
        seen.append((sim, threading.current_thread(), list(info.get("info"))))

    sink.apply(SetField(info, "info", [*before, "odeon: contacts robust"],
                        engine_effect=effect))
    assert seen == [(window.runner.sim, seen[0][1], before)]  # the field not set yet
    assert seen[0][1] is not threading.current_thread()
    assert list(info.get("info")) == [*before, "odeon: contacts robust"]
    assert window.runner.sim.baseline.value(info, "info") == [*before,
                                                              "odeon: contacts robust"]

    def refuse(sim) -> None:
        raise ValueError("padding must not be negative")

    with pytest.raises(ValueError, match="padding must not be negative"):
        sink.apply(SetField(info, "info", before, engine_effect=refuse))
    assert list(info.get("info")) == [*before, "odeon: contacts robust"]  # unchanged
