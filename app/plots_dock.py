"""The plots dock: live pyqtgraph plots of one Solid over simulated time.

Three plots share the time axis (seconds): position ``x, y, z`` (m), linear
velocity ``vx, vy, vz`` (m/s) and the magnitude of the total contact force on
the Solid (N). The main window feeds every frame snapshot it draws with
`PlotsDock.add_frame` and picks the Solid with `PlotsDock.set_solid` (or the
user picks it in the dock's combo box, filled from the frames' Solids).

Frames are `engine.sim.frame.Frame`s: ``time_ms``, ``poses`` (Solid node ->
``(pos (3,), R (3, 3))``), ``contacts`` (a `ContactSet`: ``force`` (3,) [N] on
``solid1`` or None; ``solid2`` gets ``-force``, as ODE's joint feedback
f1 / f2, so the total is the magnitude of the vector sum) and, when the
simulation built the frame, ``pose_v`` (S, 3) [m/s] in the order of
``pose_nodes`` (the velocity of each Solid's origin, from its body), so a
position edited between two frames (a teleport) is not plotted as a velocity
spike. A frame without ``pose_v`` gives the finite difference of successive
positions instead (nothing for the first frame).

Autoscale follows the data but never shows a y span narrower than the
plot's `MIN_SPAN` or `MIN_REL_SPAN` times the largest value plotted: a
steady signal with rounding noise (1e-14) is drawn flat. Another world
(`forget_solids`) puts the axes back to their initial range and autoscale.

History is bounded to the last ``history_s`` seconds; a frame earlier than
the last one (reset, reload) restarts the history. Curves are redrawn at
most every ``REDRAW_MS`` (dirty flag + timer), or at once with `redraw`.
"""

from __future__ import annotations

import importlib
import threading
from collections import deque
from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING

import numpy as np
from PySide6.QtCore import QTimer
from PySide6.QtWidgets import (
    QComboBox,
    QDockWidget,
    QHBoxLayout,
    QLabel,
    QVBoxLayout,
    QWidget,
)

from engine.sim.frame import ContactInfo, ContactSet, Frame
from engine.world import Node

if TYPE_CHECKING:
    import pyqtgraph as pg

    from app.plots_graphs import PlotGraphs

#: Minimum milliseconds between two redraws (about 30 Hz).
REDRAW_MS = 33
#: Combo-box data of the "(none)" entry (a None item data upsets PySide's refcounts).
_NO_SOLID = -1
#: Narrowest y span shown by each plot (m, m/s, N) ...
MIN_SPAN = {"position": 1e-3, "velocity": 1e-3, "force": 1e-2}
#: ... and relative to the largest |value| plotted (doubles carry ~1e-16).
MIN_REL_SPAN = 1e-4
#: The axes' range before any data (time s, value), as after opening a world.
INITIAL_RANGE = ((0.0, 1.0), (0.0, 1.0))


#: How often the GUI looks whether `PlotsDock.prepare_graphs`'s import is done [ms].
IMPORT_POLL_MS = 30


def _import_graphs_module() -> None:
    """Import `app.plots_graphs` (and pyqtgraph), in a worker thread; a failure
    is left for `PlotsDock.build_graphs` to raise again in the GUI thread."""
    try:
        importlib.import_module("app.plots_graphs")
    except Exception:  # noqa: BLE001 (raised again, visibly, by build_graphs)
        return


_PLOT_OF = {"x": "position", "y": "position", "z": "position", "vx": "velocity",
            "vy": "velocity", "vz": "velocity", "force": "force"}


def solid_label(node: Node) -> str:
    """A short name for a Solid node (its ``label()``)."""
    return str(node.label())


def contact_force_on(node: Node, contacts: ContactSet | Iterable[ContactInfo]) -> float:
    """Magnitude of the sum of the contact forces acting on ``node`` (N):
    ``+force`` where it is ``solid1``, ``-force`` where it is ``solid2`` (a
    `ContactSet` is summed from its arrays, other sequences item by item)."""
    if isinstance(contacts, ContactSet):
        on1 = np.fromiter((n is node for n in contacts.solid1), bool, len(contacts))
        on2 = np.fromiter((n is node for n in contacts.solid2), bool, len(contacts)) & ~on1
        f = contacts.force
        ok = contacts.has_force
        return float(np.linalg.norm(f[on1 & ok].sum(axis=0) - f[on2 & ok].sum(axis=0)))
    total = np.zeros(3)
    for contact in contacts:
        force = contact.force
        if force is None:
            continue
        if contact.solid1 is node:
            total += np.asarray(force, dtype=float)
        elif contact.solid2 is node:
            total -= np.asarray(force, dtype=float)
    return float(np.linalg.norm(total))


def given_velocity(frame: Frame, node: Node, index: Mapping[Node, int] | None = None
                   ) -> np.ndarray | None:
    """The frame's linear velocity of ``node`` (3,) [m/s]: ``frame.pose_v`` (S, 3) at
    ``node``'s row in ``frame.pose_nodes`` (``index`` maps nodes to rows when the
    caller has it); None when the frame has no velocities or not this node's."""
    if frame.pose_v is None:
        return None
    if index is None:
        index = {n: i for i, n in enumerate(frame.pose_nodes)}
    row = index.get(node)
    return None if row is None else np.asarray(frame.pose_v[row], dtype=float).reshape(3)


class PlotsDock(QDockWidget):
    """Position, velocity and contact-force plots of the selected Solid."""

    def __init__(self, parent: QWidget | None = None, history_s: float = 10.0) -> None:
        super().__init__("Plots", parent)
        self.setObjectName("PlotsDock")
        self.history_s = history_s
        self.solid: Node | None = None
        # rows: t (s), x, y, z, vx, vy, vz, force
        self._rows: deque[tuple[float, ...]] = deque()
        self._last: tuple[float, np.ndarray] | None = None  # (t, pos) of the selected solid
        self._known: list[Node] = []
        self._known_ids: dict[int, int] = {}  # id(node) -> index in _known
        self._rows_of: tuple[tuple, dict] = ((), {})  # (pose_nodes, node -> row)
        self._remembered_from: tuple = ()  # the pose_nodes whose Solids are in the combo
        self._dirty = False

        self.combo = QComboBox()
        self.combo.setToolTip("The Solid to plot")
        self.combo.addItem("(none)", _NO_SOLID)
        self.combo.activated.connect(self._on_combo)
        top = QHBoxLayout()
        top.addWidget(QLabel("Solid:"))
        top.addWidget(self.combo, 1)

        body = QWidget()
        layout = QVBoxLayout(body)
        layout.setContentsMargins(2, 2, 2, 2)
        layout.addLayout(top)
        self._body_layout = layout
        #: the pyqtgraph plots, made on first need (`build_graphs`)
        self._graphs: PlotGraphs | None = None
        self._importer: threading.Thread | None = None  # of `prepare_graphs`
        self._import_poll = QTimer(self)
        self._import_poll.setInterval(IMPORT_POLL_MS)
        self._import_poll.timeout.connect(self._build_when_imported)
        self.setWidget(body)

        self._timer = QTimer(self)
        self._timer.setInterval(REDRAW_MS)
        self._timer.timeout.connect(self._tick)
        self._timer.start()

    # ------------------------------------------------------------ input
    def set_solid(self, node: Node | None) -> None:
        """Plot ``node`` from now on (None: nothing); the history restarts."""
        if node is not self.solid:
            self.solid = node
            self.clear()
        if node is not None:
            self._remember([node])
        self.combo.setCurrentIndex(0 if node is None else max(self._combo_index(node), 0))

    def add_frame(self, frame: Frame) -> None:
        """Record the selected Solid's values at ``frame.time_ms`` (cheap: the
        curves are refreshed by the redraw timer)."""
        if not frame.pose_nodes:
            self._remember(frame.poses.keys())
        elif frame.pose_nodes is not self._remembered_from:  # one tuple per model
            self._remember(frame.pose_nodes)
            self._remembered_from = frame.pose_nodes
        node = self.solid
        if node is None or node not in frame.poses:
            return
        t = float(frame.time_ms) / 1000.0
        if self._last is not None and t == self._last[0]:
            return  # the same snapshot again (paused)
        if self._last is not None and t < self._last[0]:
            self.clear()  # time went back: reset or reload
        pos = np.asarray(frame.poses[node][0], dtype=float).reshape(3)
        vel = given_velocity(frame, node, self._row_index(frame))
        if vel is None:
            if self._last is None:
                vel = np.full(3, np.nan)
            else:
                vel = (pos - self._last[1]) / (t - self._last[0])
        force = contact_force_on(node, frame.contacts)
        self._rows.append((t, *pos, *vel, force))
        self._last = (t, pos)
        while self._rows and self._rows[0][0] < t - self.history_s:
            self._rows.popleft()
        self._dirty = True

    def clear(self) -> None:
        """Forget the history (the curves empty at the next redraw)."""
        self._rows.clear()
        self._last = None
        self._dirty = True

    def forget_solids(self) -> None:
        """A new world: forget the known Solids and the selection; the curves
        empty and the axes go back to their initial range, autoscaled."""
        self._known.clear()
        self._known_ids.clear()
        self._remembered_from = ()
        self._rows_of = ((), {})
        self.combo.clear()
        self.combo.addItem("(none)", _NO_SOLID)
        self.solid = None
        self.clear()
        if self._graphs is not None:  # else they start so when made
            self.redraw()
            self._graphs.reset_ranges()

    # ----------------------------------------------------------- graphs
    def build_graphs(self) -> PlotGraphs:
        """The plots (made now the first time: importing pyqtgraph and making
        them takes about 0.3 s, which the main window spends after the
        viewport's first frame)."""
        if self._graphs is None:
            from app.plots_graphs import PlotGraphs

            self._graphs = PlotGraphs(MIN_SPAN, INITIAL_RANGE)
            self._body_layout.addWidget(self._graphs.widget, 1)
            self._dirty = True
        return self._graphs

    @property
    def has_graphs(self) -> bool:
        """Whether the plots are made yet (`build_graphs`)."""
        return self._graphs is not None

    def prepare_graphs(self) -> None:
        """Make the plots soon without holding the GUI up: pyqtgraph is imported
        in a worker thread (no Qt object is made by importing it), then the
        plots are made here in the GUI thread."""
        if self._graphs is not None or self._importer is not None:
            return
        self._importer = threading.Thread(target=_import_graphs_module,
                                          name="odeon-plots-import", daemon=True)
        self._importer.start()
        self._import_poll.start()

    def _build_when_imported(self) -> None:
        if self._importer is not None and self._importer.is_alive():
            return
        self._import_poll.stop()
        self.build_graphs()

    @property
    def layout_widget(self) -> pg.GraphicsLayoutWidget:
        """The widget holding the plots."""
        return self.build_graphs().layout_widget

    @property
    def plots(self) -> dict[str, pg.PlotItem]:
        """Plot key (position, velocity, force) -> PlotItem."""
        return self.build_graphs().plots

    @property
    def curves(self) -> dict[str, pg.PlotDataItem]:
        """Curve name (x, y, z, vx, vy, vz, force) -> PlotDataItem."""
        return self.build_graphs().curves

    # ----------------------------------------------------------- output
    def data(self) -> np.ndarray:
        """The history as an (n, 8) array: t (s), x, y, z, vx, vy, vz, force."""
        if not self._rows:
            return np.zeros((0, 8))
        return np.array(self._rows, dtype=float)

    def redraw(self) -> None:
        """Push the history into the curves now."""
        self._dirty = False
        table = self.data()
        t = table[:, 0]
        peaks = dict.fromkeys(self.plots, 0.0)
        for column, name in enumerate(("x", "y", "z", "vx", "vy", "vz", "force"), start=1):
            y = table[:, column]
            ok = np.isfinite(y)
            self.curves[name].setData(t[ok], y[ok])
            key = _PLOT_OF[name]
            if ok.any():
                peaks[key] = max(peaks[key], float(np.abs(y[ok]).max()))
        for key, plot in self.plots.items():
            # the narrowest span autoscale may zoom to: noise below it is drawn flat
            plot.setLimits(minYRange=max(MIN_SPAN[key], MIN_REL_SPAN * peaks[key]))

    @property
    def is_dirty(self) -> bool:
        """True when the curves lag behind the history."""
        return self._dirty

    # ----------------------------------------------------------- helpers
    def _tick(self) -> None:
        if self._dirty and self.has_graphs and self.isVisible():
            self.redraw()

    def _row_index(self, frame: Frame) -> dict | None:
        """Node -> row of ``frame.pose_nodes`` (kept while the tuple is the same);
        None when the frame has no pose arrays."""
        nodes = frame.pose_nodes
        if frame.pose_v is None:
            return None
        if self._rows_of[0] is not nodes:
            self._rows_of = (nodes, {n: i for i, n in enumerate(nodes)})
        return self._rows_of[1]

    def _remember(self, nodes: Iterable[Node]) -> None:
        for node in nodes:
            if id(node) not in self._known_ids:
                self._known_ids[id(node)] = len(self._known)
                self._known.append(node)
                self.combo.addItem(solid_label(node), len(self._known) - 1)

    def _combo_index(self, node: Node) -> int:
        index = self._known_ids.get(id(node))
        return -1 if index is None else self.combo.findData(index)

    def _on_combo(self, index: int) -> None:
        data = self.combo.itemData(index)
        self.set_solid(None if data in (None, _NO_SOLID) else self._known[data])
