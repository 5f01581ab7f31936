"""Round trips: read -> write -> read gives an equal tree; writing is idempotent."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.world import format_world, parse_world, read_world, tree_equal, write_world
from tests.engine.world.conftest import WORLDS, exact_on_write

SAMPLES = sorted(p.name for p in WORLDS.glob("*.wbt"))
#: The worlds shipped with Odeon (resources/worlds).
BUNDLED = sorted((Path(__file__).resolve().parents[3] / "resources" / "worlds").glob("*.wbt"))


def test_samples_exist() -> None:
    assert {"hinge_robot.wbt", "contact_properties.wbt", "unknown_proto.wbt"} <= set(SAMPLES)


@pytest.mark.parametrize("name", SAMPLES)
def test_round_trip(name: str, tmp_path) -> None:
    world = read_world(WORLDS / name)
    text = format_world(world)
    again = parse_world(text)
    # files written by Webots may hold 17-digit numbers, rounded to 15 on write
    exact = exact_on_write((WORLDS / name).read_text())
    assert again == world or not exact
    assert format_world(again) == text
    write_world(again, tmp_path / name)
    assert (tmp_path / name).read_text() == text
    assert read_world(tmp_path / name) == again


@pytest.mark.parametrize("name", SAMPLES)
def test_round_trip_detects_changes(name: str) -> None:
    world = read_world(WORLDS / name)
    again = parse_world(format_world(world))
    solid = again.solids()[-1]
    solid.set("translation", (9, 9, 9))
    assert again != world
    assert not tree_equal(solid, world.solids()[-1])


def test_exact_on_write_tells_long_numbers() -> None:
    assert exact_on_write("a 0.123456789012345 1e-300 -12 0x1f 1.5e+20 100000000000000000000")
    assert not exact_on_write("a 0.20329203746157004")
    assert not exact_on_write("a 1.1102230246251565e-16")
    assert not exact_on_write(str(0.1 + 0.2))
    assert "asymmetric_friction1.wbt" in SAMPLES
    assert not exact_on_write((WORLDS / "asymmetric_friction1.wbt").read_text())


def test_defaults_in_file_are_dropped_on_write() -> None:
    world = read_world(WORLDS / "hinge_robot.wbt")
    text = format_world(world)
    # written in the sample although equal to Webots' defaults
    assert "size 1 1\n" not in text
    assert "channel 0" not in text
    assert "minStop 0\n" not in text
    assert "maxStop 0.5" in text


def test_bundled_worlds_exist() -> None:
    assert {"default.wbt", "flying_robot.wbt", "contact_points.wbt", "blimp.wbt",
            "floating_body.wbt"} <= {p.name for p in BUNDLED}


@pytest.mark.parametrize("path", BUNDLED, ids=[p.name for p in BUNDLED])
def test_bundled_world_round_trip(path: Path, tmp_path) -> None:
    world = read_world(path)
    text = format_world(world)
    assert parse_world(text) == world
    write_world(world, tmp_path / path.name)
    assert read_world(tmp_path / path.name) == world
    assert format_world(read_world(tmp_path / path.name)) == text
