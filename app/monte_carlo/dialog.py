"""Tools > Monte Carlo…: a batch study of the open world, in the background.

The dialog takes the options of ``odeon batch`` (docs/scripting.md): the
number of samples, the duration of each run, one sampler per line
(``PATH=uniform(a,b)`` or ``PATH=normal(m,s)``), one return path per line,
the seed, and local workers or a Dask scheduler address. Run draws the
samples and starts them in the background (`StudyThread`, the app stays
responsive); the progress bar and line count runs done, the rate and the time
left; the table and the histogram (one returned scalar at a time) fill as
results arrive. Stop keeps what finished. Save Results writes the table
(.csv or .parquet) as ``odeon batch --out`` does; Open Sample as World writes
the selected sample's world (the open world with that sample's initial
conditions) next to the world file as ``<name>_sample<k>.wbt`` and opens it.
"""

from __future__ import annotations

import os
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QDoubleSpinBox,
    QFileDialog,
    QFormLayout,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QProgressBar,
    QPushButton,
    QSpinBox,
    QSplitter,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from app.monte_carlo.histogram import HistogramView
from app.monte_carlo.study_thread import StudyOutcome, StudyRequest, StudyThread, draw_conditions
from engine.klampt import access, study
from engine.klampt.world_index import index_world
from engine.world import write_world

#: Columns of the results table besides the initial conditions and returns.
_STATUS_COLUMNS = ("status", "error")


def default_paths(request_world) -> tuple[str, str]:
    """(sampler line, return line) proposed for a world: its first robot's
    first joint over [-pi, pi], else its first rigid object's height."""
    index = index_world(request_world)
    if index.robots and index.robots[0].axes:
        return ("robots[0].config[0]=uniform(-3.14159,3.14159)", "robots[0].config[0]")
    if index.rigid_objects:
        return ("", "rigidObjects[0].transform")
    return ("", "time")


def sample_world_path(world_path: str | None, sample: int) -> Path:
    """Where the world of sample ``sample`` is written: beside the world file
    (its resources and plugin are found from there), else in a temp folder."""
    if world_path:
        p = Path(world_path)
        return p.with_name(f"{p.stem}_sample{sample}.wbt")
    return Path(tempfile.mkdtemp(prefix="odeon-sample-")) / f"sample{sample}.wbt"


def write_sample_world(request: StudyRequest, conditions: dict[str, Any], path: Path) -> list[str]:
    """Write the world of one sample to ``path``; returns the paths that only a
    Simulator takes (left out of the file)."""
    world = request.world()
    skipped = []
    for item, value in conditions.items():
        if item == "args":
            continue
        try:
            access.set_item(world, item, value)
        except access.SimulatorOnlyError:
            skipped.append(item)
    write_world(world, path)
    return skipped


class MonteCarloDialog(QDialog):
    """The Monte Carlo dialog (module docstring). ``world_text`` and
    ``world_path`` are the open world's (as edited); ``open_world(path)`` opens a
    sample's world in the app."""

    def __init__(self, world_text: str, world_path: str | None,
                 open_world: Callable[[str], object], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Monte Carlo Study")
        self.resize(900, 640)
        self.world_text = world_text
        self.world_path = world_path
        self._open_world = open_world
        self.thread = StudyThread(self)
        self.thread.sample_done.connect(self._sample_done)
        self.thread.finished.connect(self._finished)
        self.thread.failed.connect(self._failed)
        self.outcome: StudyOutcome | None = None
        self.request: StudyRequest | None = None
        self._started = 0.0
        self._build()

    # ------------------------------------------------------------ layout
    def _build(self) -> None:
        form = QFormLayout()
        self.samples = QSpinBox(minimum=1, maximum=1_000_000, value=100)
        self.duration = QDoubleSpinBox(minimum=0.0, maximum=1e6, value=5.0, decimals=3,
                                       suffix=" s")
        self.seed = QSpinBox(minimum=0, maximum=2**31 - 1, value=1)
        self.workers = QSpinBox(minimum=1, maximum=256, value=os.cpu_count() or 1)
        self.scheduler = QLineEdit(placeholderText="tcp://HOST:8786 (empty: local workers)")
        self.samplers = QPlainTextEdit()
        self.returns = QPlainTextEdit()
        try:
            sampler, ret = default_paths(StudyRequest(self.world_text, self.world_path, 1, 0.0,
                                                      (), (), 0, 1).world())
        except ValueError:
            sampler, ret = "", "time"
        self.samplers.setPlainText(sampler)
        self.returns.setPlainText(ret)
        for w in (self.samplers, self.returns):
            w.setMaximumHeight(56)
        form.addRow("Samples", self.samples)
        form.addRow("Duration", self.duration)
        form.addRow("Samplers (PATH=uniform(a,b) | normal(m,s))", self.samplers)
        form.addRow("Return paths", self.returns)
        form.addRow("Seed", self.seed)
        form.addRow("Local workers", self.workers)
        form.addRow("Dask scheduler", self.scheduler)
        self.run_button = QPushButton("&Run")
        self.stop_button = QPushButton("S&top", enabled=False)
        self.run_button.clicked.connect(self.run_study)
        self.stop_button.clicked.connect(self.thread.stop)
        self.progress = QProgressBar()
        self.progress_label = QLabel("")
        self.error_label = QLabel("")
        self.error_label.setStyleSheet("color: #b00020")
        self.error_label.setWordWrap(True)
        self.error_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        runs = QHBoxLayout()
        for w in (self.run_button, self.stop_button, self.progress):
            runs.addWidget(w)
        self.column = QComboBox()
        self.column.currentTextChanged.connect(self._draw_histogram)
        self.histogram = HistogramView()
        self.table = QTableWidget()
        self.table.setSelectionBehavior(QTableWidget.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QTableWidget.SelectionMode.SingleSelection)
        self.table.setEditTriggers(QTableWidget.EditTrigger.NoEditTriggers)
        self.table.itemSelectionChanged.connect(self._selection_changed)
        self.table.horizontalHeader().setSectionResizeMode(
            QHeaderView.ResizeMode.ResizeToContents)
        self.open_button = QPushButton("&Open Sample as World", enabled=False)
        self.open_button.clicked.connect(self.open_selected_sample)
        self.save_button = QPushButton("&Save Results...", enabled=False)
        self.save_button.clicked.connect(self.save_dialog)
        plot = QWidget()
        plot_layout = QVBoxLayout(plot)
        plot_layout.setContentsMargins(0, 0, 0, 0)
        plot_layout.addWidget(self.column)
        plot_layout.addWidget(self.histogram)
        split = QSplitter(Qt.Orientation.Horizontal)
        split.addWidget(self.table)
        split.addWidget(plot)
        split.setSizes([520, 380])
        bottom = QHBoxLayout()
        bottom.addWidget(self.open_button)
        bottom.addWidget(self.save_button)
        bottom.addStretch(1)
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addLayout(runs)
        layout.addWidget(self.progress_label)
        layout.addWidget(self.error_label)
        layout.addWidget(split, 1)
        layout.addLayout(bottom)

    # ------------------------------------------------------------ running
    def _lines(self, edit: QPlainTextEdit) -> tuple[str, ...]:
        return tuple(line.strip() for line in edit.toPlainText().splitlines() if line.strip())

    def make_request(self) -> StudyRequest:
        """The study the fields describe."""
        return StudyRequest(self.world_text, self.world_path, self.samples.value(),
                            self.duration.value(), self._lines(self.samplers),
                            self._lines(self.returns), self.seed.value(), self.workers.value(),
                            self.scheduler.text().strip())

    def run_study(self) -> bool:
        """Run: draw the samples and start them; False (the error shown) when the
        fields do not make a study."""
        if self.thread.running:
            return False
        request = self.make_request()
        try:
            conditions = draw_conditions(request)
            world = request.world()
            for item, value in (conditions[0].items() if conditions else ()):
                if item != "args":
                    try:
                        access.set_item(world, item, value)
                    except access.SimulatorOnlyError:
                        pass
            for item in request.returns:
                access.parse_path(item)
        except ValueError as exc:
            self.error_label.setText(str(exc))
            return False
        self.error_label.setText("")
        self.request = request
        self.outcome = StudyOutcome(conditions, [None] * len(conditions))
        self.progress.setRange(0, len(conditions))
        self.progress.setValue(0)
        self._started = time.perf_counter()
        self.run_button.setEnabled(False)
        self.stop_button.setEnabled(True)
        self.save_button.setEnabled(False)
        self.table.setRowCount(0)
        self.column.clear()
        self.progress_label.setText(f"0/{len(conditions)} runs")
        self.thread.start(request, conditions)
        return True

    def _sample_done(self, index: int, result: dict) -> None:
        if self.outcome is None:
            return
        self.outcome.results[index] = result
        done, total = self.outcome.done, len(self.outcome.results)
        self.progress.setValue(done)
        elapsed = time.perf_counter() - self._started
        rate = done / elapsed if elapsed > 0 else 0.0
        left = (total - done) / rate if rate > 0 else float("nan")
        self.progress_label.setText(f"{done}/{total} runs, {rate:.2f} runs/s, "
                                    f"{left:.0f} s left")
        self._refresh()

    def _finished(self, outcome: StudyOutcome) -> None:
        self.outcome = outcome
        self.run_button.setEnabled(True)
        self.stop_button.setEnabled(False)
        self.save_button.setEnabled(outcome.done > 0)
        total = len(outcome.results)
        errors = sum(1 for r in outcome.results if r is not None and r.get("error"))
        text = f"{outcome.done}/{total} runs" + (" (stopped)" if outcome.stopped else "")
        if errors:
            text += f", {errors} raised (see the error column)"
        self.progress_label.setText(text)
        self._refresh()

    def _failed(self, message: str) -> None:
        self.run_button.setEnabled(True)
        self.stop_button.setEnabled(False)
        self.error_label.setText(message)

    # ------------------------------------------------------------ results
    def _refresh(self) -> None:
        table = self.outcome.table()
        names = list(table.columns)
        rows = table.rows
        self.table.setColumnCount(len(names))
        self.table.setHorizontalHeaderLabels(names)
        self.table.setRowCount(rows)
        for c, name in enumerate(names):
            for r, value in enumerate(table.columns[name]):
                text = "" if value is None else (f"{value:.6g}" if isinstance(value, float)
                                                 else str(value))
                self.table.setItem(r, c, QTableWidgetItem(text))
        returned = [n for n in table.returned() if n not in _STATUS_COLUMNS]
        current = self.column.currentText()
        if [self.column.itemText(i) for i in range(self.column.count())] != returned:
            self.column.blockSignals(True)
            self.column.clear()
            self.column.addItems(returned)
            if current in returned:
                self.column.setCurrentText(current)
            self.column.blockSignals(False)
        self._draw_histogram(self.column.currentText())

    def _draw_histogram(self, name: str) -> None:
        if self.outcome is None or not name:
            return
        table = self.outcome.table()
        values = [v if isinstance(v, (int, float)) and not isinstance(v, bool) else None
                  for v in table.columns.get(name, [])]
        self.histogram.show_values(name, values)

    def _selection_changed(self) -> None:
        self.open_button.setEnabled(bool(self.table.selectedItems()))

    def selected_sample(self) -> int | None:
        """The sample index of the selected row, or None."""
        rows = {i.row() for i in self.table.selectedItems()}
        if not rows or self.outcome is None:
            return None
        sample_column = self.outcome.table().columns["sample"]
        return int(sample_column[min(rows)])

    def open_selected_sample(self) -> str | None:
        """Write the selected sample's world and open it in the app; its path."""
        sample = self.selected_sample()
        if sample is None or self.request is None or self.outcome is None:
            return None
        path = sample_world_path(self.world_path, sample)
        try:
            skipped = write_sample_world(self.request, self.outcome.conditions[sample], path)
        except (OSError, ValueError) as exc:
            self.error_label.setText(f"Could not write the world of sample {sample}: {exc}")
            return None
        note = f"; not in the file (simulator only): {', '.join(skipped)}" if skipped else ""
        self.progress_label.setText(f"Sample {sample} written to {path}{note}")
        self._open_world(str(path))
        return str(path)

    def save_results(self, path: str) -> None:
        """Write the finished rows to ``path`` (.csv or .parquet), atomically."""
        study.write_table(self.outcome.table(), path)

    def save_dialog(self) -> None:
        path, _ = QFileDialog.getSaveFileName(self, "Save Results", "results.csv",
                                              "Tables (*.csv *.parquet)")
        if not path:
            return
        try:
            self.save_results(path)
        except (OSError, ValueError) as exc:
            self.error_label.setText(f"Could not save '{path}': {exc}")

    def closeEvent(self, event) -> None:  # noqa: N802 (Qt's name)
        self.thread.stop()
        super().closeEvent(event)
