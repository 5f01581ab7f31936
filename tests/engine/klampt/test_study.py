"""What odeon batch and the app share (engine.klampt.study): sampler specs,
seeded samplers, the results table, atomic writing and histograms."""

from __future__ import annotations

import csv
import math
import os
import stat

import pyarrow.parquet as pq
import pytest

from engine.klampt import study


def test_sampler_specs_parse_with_pi():
    s = study.parse_sampler("robots[0].config[0]=uniform(-pi, pi)")
    assert (s.path, s.law, s.params) == ("robots[0].config[0]", "uniform", (-math.pi, math.pi))
    s = study.parse_sampler(" args[0] = normal(0.5, 2*pi/10) ")
    assert (s.path, s.law, s.params) == ("args[0]", "normal", (0.5, 2 * math.pi / 10))


@pytest.mark.parametrize("text, message", [
    ("robots[0].config[0]", "expected PATH=uniform\\(a,b\\) or PATH=normal\\(mean,std\\)"),
    ("=uniform(0,1)", "expected PATH="),
    ("x=unif(0,1)", "unknown distribution 'unif' \\(known: uniform, normal\\)"),
    ("x=uniform(0)", "uniform takes 2 numbers \\(a, b\\), got 1"),
    ("x=uniform(1,0)", "uniform\\(a, b\\) needs a <= b"),
    ("x=normal(0,-1)", "normal\\(mean, std\\) needs std >= 0"),
    ("x=normal(0,inf)", "not a number: inf"),
    ("x=uniform(0,1/0)", "not a number"),
    ("x=uniform(0,1", "expected uniform\\(a,b\\) or normal\\(mean,std\\) after '='"),
    ("x[=uniform(0,1)", "unexpected '\\[' at character 2"),
])
def test_bad_sampler_specs_name_the_spec(text, message):
    with pytest.raises(ValueError, match=message) as info:
        study.parse_sampler(text)
    assert str(info.value).startswith(f"'{text}': ")


def draws(specs, seed, n=5):
    samplers = study.make_samplers([study.parse_sampler(s) for s in specs], seed)
    return {path: [f() for _ in range(n)] for path, f in samplers.items()}


def test_samplers_are_seeded_per_path():
    a = draws(["x=uniform(-1,1)"], 7)
    assert a == draws(["x=uniform(-1,1)"], 7)
    assert a != draws(["x=uniform(-1,1)"], 8)
    both = draws(["y=normal(0,1)", "x=uniform(-1,1)"], 7)
    assert both["x"] == a["x"]  # adding a sampler (before it) leaves x's draws alone
    assert all(-1 <= v <= 1 for v in a["x"]) and len(set(a["x"])) == 5


def test_a_path_sampled_twice_is_refused():
    with pytest.raises(ValueError, match="x is sampled twice"):
        draws(["x=uniform(0,1)", "x=normal(0,1)"], 1)


def test_new_seeds_differ():
    assert study.new_seed() != study.new_seed()


CONDITIONS = [{"robots[0].config[0]": -1.0, "args": (0.5,)},
              {"robots[0].config[0]": 0.25, "args": (0.1,)},
              {"robots[0].config[0]": 2.0, "args": (0.0,)}]
RESULTS = [
    {"robots[0].config": [0.1], "rigidObjects[0].velocity": ([0, 0, 1.5], [1, 2, 3]),
     "status": "normal", "time": 5.0, "wall_clock_time": 1.0},
    None,
    {"error": "ZeroDivisionError: x", "traceback": "...", "status": "error",
     "wall_clock_time": 0.1},
]


def test_results_table_has_one_row_per_finished_sample():
    t = study.results_table(CONDITIONS, RESULTS)
    assert list(t.columns) == [
        "sample", "init:robots[0].config[0]", "init:args[0]", "robots[0].config[0]",
        "rigidObjects[0].velocity[0][0]", "rigidObjects[0].velocity[0][1]",
        "rigidObjects[0].velocity[0][2]", "rigidObjects[0].velocity[1][0]",
        "rigidObjects[0].velocity[1][1]", "rigidObjects[0].velocity[1][2]",
        "status", "time", "error"]
    assert t.rows == 2
    assert t.columns["sample"] == [0, 2]
    assert t.columns["robots[0].config[0]"] == [0.1, None]
    assert t.columns["error"] == ["", "ZeroDivisionError: x"]
    assert t.columns["time"] == [5.0, None]
    assert t.returned()[0] == "robots[0].config[0]"


@pytest.mark.parametrize("suffix", [".csv", ".parquet"])
def test_tables_are_written_atomically_and_read_back(tmp_path, suffix):
    t = study.results_table(CONDITIONS, RESULTS)
    path = tmp_path / f"out{suffix}"
    path.write_text("old")
    os.chmod(path, 0o640)
    study.write_table(t, path)
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o640
    assert [p.name for p in tmp_path.iterdir()] == [path.name]  # no temporary left
    if suffix == ".csv":
        with open(path, newline="") as stream:
            rows = list(csv.DictReader(stream))
        assert [r["sample"] for r in rows] == ["0", "2"]
        assert float(rows[0]["init:robots[0].config[0]"]) == -1.0
        assert rows[1]["robots[0].config[0]"] == ""
        assert rows[1]["error"] == "ZeroDivisionError: x"
    else:
        back = pq.read_table(path).to_pydict()
        assert back == t.columns


def test_a_failing_write_leaves_the_old_file(tmp_path):
    path = tmp_path / "out.csv"
    path.write_text("old")

    def broken(temp):
        raise OSError("disk full")

    with pytest.raises(OSError, match="disk full"):
        study.write_atomically(path, broken)
    assert path.read_text() == "old"
    assert [p.name for p in tmp_path.iterdir()] == ["out.csv"]


def test_unknown_suffixes_are_refused(tmp_path):
    with pytest.raises(ValueError, match="must end in .csv or .parquet"):
        study.write_table(study.results_table([], []), tmp_path / "out.xlsx")


def test_histograms_have_one_subplot_per_returned_scalar(tmp_path):
    t = study.results_table(CONDITIONS, RESULTS)
    fig = study.histogram_figure(t)
    assert [ax.get_title() for ax in fig.axes] == t.returned()
    path = tmp_path / "hist.png"
    study.write_histograms(t, path)
    assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
