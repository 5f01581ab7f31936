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
    world.write_text("#VRML_SIM R2025a utf8\nSolid { tranlation 0 0 1 }\n")
    assert main(["run", str(world)]) == 1
    assert "tranlation" in capsys.readouterr().err
