"""Saving a world (issue 13, "Nothing lost"): links, modes, read-only files,
leftovers of a killed save, and the numbers written."""

from __future__ import annotations

import os
import signal
import stat
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from engine.world import (
    WorldReadOnlyError,
    format_world,
    parse_world,
    read_world,
    write_world,
)
from engine.world import fieldtypes as ft

from .conftest import HEADER

ROOT = Path(__file__).resolve().parents[3]
OLD = HEADER + "WorldInfo {}\n"


def _world():
    return parse_world(HEADER + "WorldInfo { basicTimeStep 8 }")


def test_saving_through_a_symlink_writes_its_target_and_keeps_the_link(tmp_path) -> None:
    real = tmp_path / "real.wbt"
    real.write_text(OLD)
    link = tmp_path / "link.wbt"
    link.symlink_to(real)
    world = _world()
    write_world(world, link)
    assert link.is_symlink() and os.readlink(link) == str(real)
    assert read_world(real) == world
    assert world.filename == str(link)


def test_a_read_only_world_is_refused_unless_asked(tmp_path) -> None:
    path = tmp_path / "w.wbt"
    path.write_text(OLD)
    path.chmod(0o444)
    with pytest.raises(WorldReadOnlyError) as info:
        write_world(_world(), path)
    assert info.value.path == str(path) and "read-only" in str(info.value)
    assert path.read_text() == OLD
    write_world(_world(), path, overwrite_read_only=True)
    assert read_world(path) == _world()
    assert stat.S_IMODE(path.stat().st_mode) == 0o444  # it stays read-only


def test_the_saved_file_keeps_its_mode(tmp_path) -> None:
    path = tmp_path / "w.wbt"
    path.write_text(OLD)
    path.chmod(0o640)
    write_world(_world(), path)
    assert stat.S_IMODE(path.stat().st_mode) == 0o640


@pytest.mark.parametrize("umask", [0o022, 0o002, 0o077])
def test_a_new_file_gets_0666_minus_the_umask(tmp_path, umask) -> None:
    old = os.umask(umask)
    try:
        write_world(_world(), tmp_path / "new.wbt")
    finally:
        os.umask(old)
    assert stat.S_IMODE((tmp_path / "new.wbt").stat().st_mode) == 0o666 & ~umask


_KILLED_SAVE = textwrap.dedent("""
    import sys, time
    import engine.world.writer as writer
    from engine.world import parse_world, write_world

    def stalled_replace(src, dst):
        print("written", flush=True)  # the temporary file is complete
        time.sleep(600)

    writer.os.replace = stalled_replace
    write_world(parse_world("#VRML_SIM R2025a utf8\\nViewpoint {}\\n"), sys.argv[1])
""")


def test_leftovers_of_a_killed_save_are_removed_by_the_next_save(tmp_path) -> None:
    path = tmp_path / "w.wbt"
    path.write_text(OLD)
    child = subprocess.Popen([sys.executable, "-c", _KILLED_SAVE, str(path)], cwd=ROOT,
                             stdout=subprocess.PIPE, text=True)
    try:
        assert child.stdout.readline() == "written\n"
    finally:
        child.send_signal(signal.SIGKILL)
        child.wait()
        child.stdout.close()
    leftovers = [p.name for p in tmp_path.iterdir() if p.name != "w.wbt"]
    assert len(leftovers) == 1 and leftovers[0].startswith(".w.wbt.odeon-")
    assert path.read_text() == OLD
    write_world(_world(), path)
    assert [p.name for p in tmp_path.iterdir()] == ["w.wbt"]


def test_other_files_and_live_saves_are_left_alone(tmp_path) -> None:
    path = tmp_path / "w.wbt"
    mine = tmp_path / f".w.wbt.odeon-{os.getpid()}-abc.tmp"  # a save in progress here
    other = tmp_path / ".x.wbt.odeon-999999999-abc.tmp"  # another world's
    for p in (mine, other):
        p.write_text("x")
    write_world(_world(), path)
    assert {p.name for p in tmp_path.iterdir()} == {"w.wbt", mine.name, other.name}


@pytest.mark.parametrize(("value", "text"), [
    (0.1 + 0.2, "0.3"), (0.7 + 0.1, "0.8"), (32.0, "32"), (-0.0, "0"), (1e-05, "1e-05"),
    (1.75e-18, "1.75e-18"), (2.5e20, "2.5e+20"), (0.20329203746157004, "0.20329203746157"),
    (-1.5, "-1.5"), (123.456, "123.456"),
])
def test_floats_are_written_with_15_significant_digits(value, text) -> None:
    assert ft.format_float(value) == text
    assert ft.format_float(float(text)) == text  # stable from the first save on


def test_vector_noise_is_written_as_zero() -> None:
    world = parse_world(HEADER + "Solid { }")
    solid = world.nodes[0]
    solid.set("translation", (0.5, 1.75e-18, -0.0))
    solid.set("rotation", (1.1102230246251565e-16, 0.0, 1.0, 0.1 + 0.2))
    text = format_world(world)
    assert "translation 0.5 0 0\n" in text
    assert "rotation 0 0 1 0.3\n" in text
    # a small vector alone is not noise
    solid.set("translation", (0.0, 1e-20, 0.0))
    assert "translation 0 1e-20 0\n" in format_world(world)
    again = parse_world(format_world(world))
    assert format_world(again) == format_world(world)
