"""The pyqtgraph side of the plots dock: three plots sharing the time axis
(position, velocity, contact force) and their curves.

Kept apart from `app.plots_dock` so that importing the dock does not import
pyqtgraph (about 0.3 s): the dock makes its `PlotGraphs` when they are first
needed, which the main window arranges for just after the viewport's first
frame (`app.main_window`), so a start draws the world sooner.
"""

from __future__ import annotations

import pyqtgraph as pg
from PySide6.QtWidgets import QVBoxLayout, QWidget

#: Curve names (keys of `PlotGraphs.curves`) and their pens.
PENS = {"x": "r", "y": "g", "z": "b", "vx": "r", "vy": "g", "vz": "b", "force": "m"}
#: The plots (keys of `PlotGraphs.plots`): their y label and curves, top to bottom.
PLOT_SPECS = (("position", "position (m)", ("x", "y", "z")),
              ("velocity", "velocity (m/s)", ("vx", "vy", "vz")),
              ("force", "contact force (N)", ("force",)))

#: Pixels given to the value axes' ticks and tick labels (their title comes on top).
TICK_LABELS_WIDTH = 56


class PlotGraphs:
    """The plots of the dock: ``widget`` holding ``layout_widget`` (a
    GraphicsLayoutWidget), ``plots`` (key -> PlotItem) and ``curves`` (name -> PlotDataItem).
    ``min_span``: the narrowest y span per plot; ``initial_range``: (x range,
    y range) before any data."""

    def __init__(self, min_span: dict[str, float],
                 initial_range: tuple[tuple[float, float], tuple[float, float]]) -> None:
        self.min_span = min_span
        self.initial_range = initial_range
        # the plots are set up inside a widget that is not in a window yet
        # (linked axes map their ranges through the views' geometry, which a
        # laid-out view already has); the dock adds ``widget`` afterwards
        self.widget = QWidget()
        box = QVBoxLayout(self.widget)
        box.setContentsMargins(0, 0, 0, 0)
        self.layout_widget = pg.GraphicsLayoutWidget()
        box.addWidget(self.layout_widget)
        self.plots: dict[str, pg.PlotItem] = {}
        self.curves: dict[str, pg.PlotDataItem] = {}
        for row, (key, label, names) in enumerate(PLOT_SPECS):
            plot = self.layout_widget.addPlot(row=row, col=0)
            plot.setLabel("left", label)
            self._start_range(key, plot)
            plot.showGrid(x=True, y=True, alpha=0.3)
            for axis in ("left", "bottom"):
                plot.getAxis(axis).enableAutoSIPrefix(False)
            # one width for the three value axes: the shared time axes line up,
            # and the linked x ranges stay equal (a link maps a range through
            # the views' widths)
            plot.getAxis("left").setWidth(TICK_LABELS_WIDTH)
            if len(names) > 1:
                plot.addLegend(offset=(-5, 5))
            if row:
                plot.setXLink(self.plots["position"])
            self.plots[key] = plot
            for name in names:
                self.curves[name] = plot.plot([], [], pen=pg.mkPen(PENS[name], width=1.5),
                                              name=name)
        self.plots["force"].setLabel("bottom", "simulated time (s)")

    def reset_ranges(self) -> None:
        """Every plot back to the initial range, autoscaled, with its narrowest span."""
        # the views at their laid-out widths first: the x link maps ranges
        # through them (equal widths, `TICK_LABELS_WIDTH`: the same range)
        self.layout_widget.ci.layout.activate()
        for plot in self.plots.values():
            plot.layout.activate()
        for key, plot in self.plots.items():
            self._start_range(key, plot)

    def _start_range(self, key: str, plot: pg.PlotItem) -> None:
        """``plot`` (of key ``key``) at the initial range, autoscaled, with its
        narrowest span (the limits first: a wider one from the data would clip
        the range)."""
        x_range, y_range = self.initial_range
        plot.setLimits(minYRange=self.min_span[key])
        plot.setRange(xRange=x_range, yRange=y_range, padding=0)
        plot.enableAutoRange()
