"""A pyqtgraph histogram of one returned scalar of a Monte Carlo study.

`HistogramView.show_values(name, values)` draws the counts of ``values``
(finite ones; NaN and missing values are left out and counted in the title)
in `BINS` equal bins between their minimum and maximum.
"""

from __future__ import annotations

import math

import numpy as np
import pyqtgraph as pg

#: Bars per histogram.
BINS = 20
#: Bar colour (the app's accent orange).
BAR_BRUSH = (230, 140, 40, 200)


class HistogramView(pg.PlotWidget):
    """One histogram (module docstring)."""

    def __init__(self, parent=None) -> None:
        super().__init__(parent, background="w")
        self._bars: pg.BarGraphItem | None = None
        self.getPlotItem().showGrid(x=True, y=True, alpha=0.3)
        self.setLabel("left", "runs")
        self.counts = np.zeros(0, dtype=np.int64)
        self.edges = np.zeros(0)

    def show_values(self, name: str, values: list) -> None:
        """Draw the histogram of ``values`` labelled ``name``."""
        finite = np.array([float(v) for v in values
                           if v is not None and math.isfinite(float(v))], dtype=float)
        left_out = len(values) - finite.size
        if self._bars is not None:
            self.removeItem(self._bars)
            self._bars = None
        self.setLabel("bottom", name)
        title = f"{name}: {finite.size} runs"
        if left_out:
            title += f" ({left_out} without a value)"
        self.setTitle(title, color="k")
        if finite.size == 0:
            self.counts, self.edges = np.zeros(0, dtype=np.int64), np.zeros(0)
            return
        lo, hi = float(finite.min()), float(finite.max())
        if hi <= lo:  # all equal: one bar of width 1 around the value
            lo, hi = lo - 0.5, hi + 0.5
        self.counts, self.edges = np.histogram(finite, bins=BINS, range=(lo, hi))
        width = self.edges[1] - self.edges[0]
        self._bars = pg.BarGraphItem(x=self.edges[:-1] + 0.5 * width, height=self.counts,
                                     width=width * 0.95, brush=BAR_BRUSH, pen=None)
        self.addItem(self._bars)
