"""Odeon's own settings in WorldInfo.info (engine/world/odeon_settings.py)."""

from __future__ import annotations

import math

from engine.world import parse_world
from engine.world.odeon_settings import (
    ContactModelSettings,
    JointFrictionSettings,
    OdeonSettings,
    SolidContactSettings,
    read_odeon_settings,
    settings_lines,
    solid_key,
    solid_settings_of,
    unknown_keys,
    write_odeon_settings,
)
from engine.world.writer import format_world

from .conftest import HEADER

WORLD = HEADER + """WorldInfo {
  info [
    "A world"
    "odeon: contacts robust maxContacts 12 adaptiveTimeStepping FALSE"
    "odeon: solid BOX padding 0.004 kFriction 0.8 kStiffness inf"
    "odeon: solid robot/foot kRestitution 0.2"
    "odeon: joint KNEE viscousFriction 0.05"
  ]
}
DEF BOX Solid { name "box" }
Robot {
  name "robot"
  children [
    Solid { name "foot" }
  ]
}
"""


def _world(text: str = WORLD):
    world = parse_world(text, "w.wbt")
    world.filename = "w.wbt"  # as read_world sets it
    return world


def test_lines_are_read_into_typed_settings() -> None:
    s = read_odeon_settings(_world())
    assert s.problems == ()
    assert s.contacts == ContactModelSettings(model="robust", max_contacts=12,
                                              adaptive_time_stepping=False)
    assert s.contacts.robust
    assert s.solids["BOX"] == SolidContactSettings(padding=0.004, k_friction=0.8,
                                                   k_stiffness=math.inf)
    assert s.solids["robot/foot"] == SolidContactSettings(k_restitution=0.2)
    assert s.joints["KNEE"] == JointFrictionSettings(viscous_friction=0.05)


def test_a_world_without_lines_has_the_defaults() -> None:
    s = read_odeon_settings(_world(HEADER + "WorldInfo { }\n"))
    assert s == OdeonSettings()
    assert not s.contacts.robust


def test_solids_are_found_by_def_name_then_name_path() -> None:
    w = _world()
    s = read_odeon_settings(w)
    box, robot, foot = w.solids()
    assert solid_key(box) == "BOX"
    assert solid_key(foot) == "robot/foot"
    assert solid_settings_of(s, box).padding == 0.004
    assert solid_settings_of(s, foot).k_restitution == 0.2
    assert solid_settings_of(s, robot) == SolidContactSettings()
    assert unknown_keys(w, s) == ["KNEE"]


def test_bad_lines_are_reported_with_file_line_and_index_and_skipped() -> None:
    text = WORLD.replace('"A world"', '"odeon: solid BOX padding -1"\n    "odeon: wobble 3"\n'
                         '    "odeon: contacts robust maxContacts 2.5"\n'
                         '    "odeon: solid BOX kFriction"')
    s = read_odeon_settings(_world(text))
    assert len(s.problems) == 4
    first = s.problems[0]
    assert first.startswith("w.wbt:2:1: WorldInfo.info[0]: ")
    assert "padding must not be negative" in first
    assert "unknown setting 'wobble'" in s.problems[1]
    assert "maxContacts expects a positive whole number" in s.problems[2]
    assert "'kFriction' has no value" in s.problems[3]
    # the good lines after them still count
    assert s.contacts.max_contacts == 12
    assert s.solids["BOX"].padding == 0.004


def test_writing_replaces_only_the_odeon_lines_in_place() -> None:
    w = _world()
    s = read_odeon_settings(w)
    solids = dict(s.solids)
    solids["BOX"] = SolidContactSettings(padding=0.01)
    write_odeon_settings(w, OdeonSettings(ContactModelSettings(model="robust"), solids,
                                          s.joints))
    assert list(w.world_info.get("info")) == [
        "A world",
        "odeon: contacts robust",
        "odeon: solid BOX padding 0.01",
        "odeon: solid robot/foot kRestitution 0.2",
        "odeon: joint KNEE viscousFriction 0.05",
    ]
    again = read_odeon_settings(parse_world(format_world(w), "w.wbt"))
    assert again.solids["BOX"] == SolidContactSettings(padding=0.01)
    assert again.contacts == ContactModelSettings(model="robust")


def test_default_settings_write_no_line() -> None:
    assert settings_lines(OdeonSettings()) == []
    w = _world()
    write_odeon_settings(w, OdeonSettings())
    assert list(w.world_info.get("info")) == ["A world"]


def test_infinite_values_round_trip() -> None:
    lines = settings_lines(OdeonSettings(solids={"X": SolidContactSettings(k_damping=math.inf)}))
    assert lines == ["odeon: solid X kDamping inf"]
