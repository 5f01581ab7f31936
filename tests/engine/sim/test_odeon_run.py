"""``odeon run``: headless runs with console streaming and a trajectory CSV."""

from __future__ import annotations

import csv
import os

import pytest

from app.main import main

WORLD = os.path.join(os.path.dirname(__file__), "..", "..", "resources", "worlds",
                     "sim_box_on_floor.wbt")


def test_odeon_run_writes_a_trajectory_csv(tmp_path, capsys) -> None:
    log = tmp_path / "traj.csv"
    assert main(["run", WORLD, "--duration", "0.1", "--log", str(log)]) == 0
    out = capsys.readouterr().out
    assert "simulated 0.1 s in 10 steps (step)" in out
    with open(log, newline="") as f:
        rows = list(csv.reader(f))
    assert rows[0] == ["time_ms", "solid", "x", "y", "z", "qw", "qx", "qy", "qz"]
    body = rows[1:]
    assert len(body) == 2 * 11   # two bodies, initial row + 10 steps
    assert {r[1] for r in body} == {"BOX", "BALL"}
    last_ball = [r for r in body if r[1] == "BALL"][-1]
    assert float(last_ball[0]) == pytest.approx(100.0)
    assert float(last_ball[4]) < 10.0
    assert float(last_ball[5]) == pytest.approx(1.0)


def test_odeon_run_streams_console_warnings(tmp_path, capsys) -> None:
    world = tmp_path / "w.wbt"
    world.write_text("#VRML_SIM R2025a utf8\nWorldInfo { basicTimeStep 0 }\n")
    assert main(["run", str(world), "--duration", "0.064", "--stepper", "quickstep"]) == 0
    out = capsys.readouterr().out
    assert "[odeon] WARNING: WorldInfo.basicTimeStep 0.0 must be positive" in out
    assert "(quickstep)" in out


def test_odeon_run_reports_a_bad_file(tmp_path, capsys) -> None:
    world = tmp_path / "w.wbt"
    world.write_text("#VRML_SIM R2025a utf8\nSolid { translation 0 0 }\n")
    assert main(["run", str(world)]) == 1
    assert "expected 3 numbers" in capsys.readouterr().err


def test_odeon_run_warns_about_an_unknown_field_and_runs(tmp_path, capsys) -> None:
    world = tmp_path / "w.wbt"
    world.write_text("#VRML_SIM R2025a utf8\nSolid { tranlation 0 0 1 }\n")
    assert main(["run", str(world), "--duration", "0.032"]) == 0
    assert "unknown field 'tranlation' in Solid" in capsys.readouterr().out


def _error_line(capsys) -> str:
    err = capsys.readouterr().err
    assert "Traceback" not in err
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    return lines[0]


def test_odeon_run_refuses_to_log_over_the_world(tmp_path, capsys) -> None:
    world = tmp_path / "w.wbt"
    text = "#VRML_SIM R2025a utf8\nWorldInfo { }\n"
    world.write_text(text)
    assert main(["run", str(world), "--duration", "0.01", "--log", str(world)]) == 2
    assert "is the world file itself" in _error_line(capsys)
    # a symbolic link and a hard link to the world are the world too, even with --force
    (tmp_path / "sym.csv").symlink_to(world)
    os.link(world, tmp_path / "hard.csv")
    for name in ("sym.csv", "hard.csv"):
        args = ["run", str(world), "--duration", "0.01", "--log", str(tmp_path / name)]
        assert main([*args, "--force"]) == 2
        assert "is the world file itself" in _error_line(capsys)
    assert world.read_text() == text


def test_odeon_run_refuses_an_existing_log_unless_forced(tmp_path, capsys) -> None:
    log = tmp_path / "old.csv"
    log.write_text("keep me\n")
    args = ["run", WORLD, "--duration", "0.01", "--log", str(log)]
    assert main(args) == 2
    line = _error_line(capsys)
    assert "--log" in line and "already exists" in line and "--force" in line
    assert log.read_text() == "keep me\n"
    assert main([*args, "--force"]) == 0
    assert log.read_text().startswith("time_ms,solid,")


@pytest.mark.parametrize("value", ["nan", "inf", "-inf", "-1", "abc", "-0.5"])
def test_odeon_run_rejects_bad_durations(value, capsys) -> None:
    with pytest.raises(SystemExit) as exc:
        main(["run", WORLD, f"--duration={value}"])
    assert exc.value.code == 2
    line = _error_line(capsys)
    assert "--duration" in line and value in line


def test_odeon_run_log_times_stay_distinct_after_hours(tmp_path) -> None:
    from engine.headless import _time_text

    # 6 significant digits merged consecutive rows past ~16.7 simulated minutes
    day_ms = 86_400_000.0
    times = [_time_text(day_ms + k) for k in range(3)]
    assert times == ["86400000", "86400001", "86400002"]
    assert float(_time_text(1_000_000.0 + 0.1)) == 1_000_000.1
