"""``odeon batch`` run as a subprocess on tiny studies of the one-link world."""

from __future__ import annotations

import csv
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pyarrow.parquet as pq

from tests.engine.klampt.worlds import write_one_link

REPO = Path(__file__).resolve().parents[2]


def odeon_batch(*args: str, **kw) -> subprocess.Popen:
    env = dict(os.environ, PYTHONPATH=str(REPO))
    return subprocess.Popen([sys.executable, "-m", "app.main", "batch", *args], cwd=REPO,
                            env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            **kw)


def run(*args: str, timeout: float = 120) -> tuple[int, str]:
    proc = odeon_batch(*args)
    _out, err = proc.communicate(timeout=timeout)
    return proc.returncode, err


def study_args(world: Path, out: Path, *extra: str) -> list[str]:
    return [str(world), "--samples", "4", "--duration", "0.2", "--seed", "3",
            "--sample", "robots[0].config[0]=uniform(-pi,pi)",
            "--return", "robots[0].config", "--return", "time", "--out", str(out), *extra]


def read_csv(path: Path) -> list[dict]:
    with open(path, newline="") as stream:
        return list(csv.DictReader(stream))


def test_a_small_study_writes_its_table_and_histogram(tmp_path):
    world = write_one_link(tmp_path)
    out, png = tmp_path / "res.csv", tmp_path / "hist.png"
    code, err = run(*study_args(world, out, "--workers", "2", "--plot", str(png)))
    assert code == 0, err
    rows = read_csv(out)
    assert [r["sample"] for r in rows] == ["0", "1", "2", "3"]
    assert list(rows[0]) == ["sample", "init:robots[0].config[0]", "robots[0].config[0]",
                             "status", "time", "error"]
    assert [r["time"] for r in rows] == ["0.2"] * 4
    assert all(r["status"] and not r["error"] for r in rows)
    assert len({r["init:robots[0].config[0]"] for r in rows}) == 4
    assert png.read_bytes()[:4] == b"\x89PNG"
    assert "4/4 runs" in err and "wrote 4 results" in err
    # the same seed gives the same file, with one worker and as parquet too
    out2 = tmp_path / "res.parquet"
    code, err = run(*study_args(world, out2, "--workers", "1"))
    assert code == 0, err
    back = pq.read_table(out2).to_pydict()
    assert [repr(v) for v in back["robots[0].config[0]"]] == [
        r["robots[0].config[0]"] for r in rows]


def test_usage_errors_are_one_line_and_exit_2(tmp_path):
    world = write_one_link(tmp_path)
    out = tmp_path / "res.csv"
    cases = {
        "missing.wbt": (["missing.wbt", "--samples", "1", "--duration", "1", "--return",
                         "time", "--out", str(out)], "cannot read the world"),
        "spec": ([str(world), "--samples", "1", "--duration", "1", "--sample", "x=unif(0,1)",
                  "--return", "time", "--out", str(out)], "unknown distribution 'unif'"),
        "path": ([str(world), "--samples", "1", "--duration", "1", "--sample",
                  "robots[2].config[0]=uniform(0,1)", "--return", "time", "--out", str(out)],
                 "the world has 1 robot"),
        "return": ([str(world), "--samples", "1", "--duration", "1", "--return",
                    "robots[0].confg", "--out", str(out)], "a robot has no item 'confg'"),
        "suffix": ([str(world), "--samples", "1", "--duration", "1", "--return", "time",
                    "--out", str(tmp_path / "r.xlsx")], "must end in .csv or .parquet"),
        "samples": ([str(world), "--samples", "0", "--duration", "1", "--return", "time",
                     "--out", str(out)], "--samples"),
    }
    for name, (args, message) in cases.items():
        code, err = run(*args)
        lines = err.strip().splitlines()
        assert code == 2, (name, err)
        assert len(lines) == 1 and lines[0].startswith("odeon batch: error: "), (name, err)
        assert message in lines[0], (name, err)
    assert not out.exists()


def test_ctrl_c_writes_the_finished_results(tmp_path):
    world = write_one_link(tmp_path)
    out = tmp_path / "res.csv"
    proc = odeon_batch(str(world), "--samples", "40", "--duration", "1.0", "--seed", "1",
                       "--sample", "robots[0].config[0]=uniform(-1,1)", "--return",
                       "robots[0].config", "--workers", "1", "--out", str(out))
    done = 0
    deadline = time.monotonic() + 100
    while done < 2 and time.monotonic() < deadline:
        line = proc.stderr.readline()
        if "/40 runs" in line:
            done = int(line.split("/40 runs")[0].rsplit(" ", 1)[1])
    assert done >= 2
    proc.send_signal(signal.SIGINT)
    _out, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, err
    rows = read_csv(out)
    assert 2 <= len(rows) < 40
    assert [int(r["sample"]) for r in rows] == sorted(int(r["sample"]) for r in rows)
    assert f"interrupted: wrote the {len(rows)} of 40 results finished" in err
