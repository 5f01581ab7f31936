"""Tools > Monte Carlo...: a small study of the one-link world in the dialog."""

from __future__ import annotations

import csv
from pathlib import Path

import pytest

from app.monte_carlo.dialog import MonteCarloDialog, sample_world_path
from engine.klampt.world_index import axis_position, index_world
from engine.world import read_world

REPO = Path(__file__).resolve().parents[2]
ONE_LINK = REPO / "resources" / "worlds" / "one_link.wbt"


@pytest.fixture
def dialog(qtbot, tmp_path):
    world_path = tmp_path / "one_link.wbt"
    world_path.write_text(ONE_LINK.read_text())
    opened: list[str] = []
    d = MonteCarloDialog(world_path.read_text(), str(world_path), opened.append)
    d.opened = opened
    qtbot.addWidget(d)
    return d


def test_a_study_runs_in_the_background_and_fills_table_and_histogram(dialog, qtbot, tmp_path):
    assert dialog.samplers.toPlainText().startswith("robots[0].config[0]=uniform(")
    dialog.samples.setValue(4)
    dialog.duration.setValue(0.2)
    dialog.workers.setValue(1)
    assert dialog.run_study()
    assert not dialog.run_button.isEnabled()
    qtbot.waitUntil(lambda: dialog.run_button.isEnabled(), timeout=240_000)
    assert dialog.error_label.text() == ""
    assert dialog.outcome.done == 4 and not dialog.outcome.stopped
    assert dialog.table.rowCount() == 4
    assert dialog.column.currentText() == "robots[0].config[0]"
    assert int(dialog.histogram.counts.sum()) == 4
    assert dialog.progress.value() == 4
    # save: the rows read back
    out = tmp_path / "results.csv"
    dialog.save_results(str(out))
    rows = list(csv.DictReader(out.open()))
    assert [int(r["sample"]) for r in rows] == [0, 1, 2, 3]
    # open sample 2: its world holds its start angle, and the app is asked to open it
    dialog.table.selectRow(2)
    path = dialog.open_selected_sample()
    assert path == str(sample_world_path(dialog.world_path, 2)) and dialog.opened == [path]
    start = dialog.outcome.conditions[2]["robots[0].config[0]"]
    ref = index_world(read_world(path)).robots[0].axes[0]
    assert axis_position(ref) == pytest.approx(start, abs=1e-12)


def test_a_bad_sampler_is_shown_not_raised(dialog):
    dialog.samplers.setPlainText("robots[0].config[0]=uniform(1)")
    assert not dialog.run_study()
    assert "uniform" in dialog.error_label.text()
    dialog.samplers.setPlainText("robots[5].config[0]=uniform(0,1)")
    assert not dialog.run_study()
    assert "robots[5]" in dialog.error_label.text()
    assert dialog.run_button.isEnabled()
