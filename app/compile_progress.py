"""The status bar shows the physics engine being prepared (numba compiling kernels).

On a machine whose numba cache is empty, the first steps of a world compile
the engine's kernels for minutes while the clock stays at 0. `CompileProgress`
watches numba's compilations (`engine.numba_cache.watch_compiles`, reported in
the engine thread), brings each report to the GUI thread through a queued
signal, and shows "Preparing the physics engine (compiling kernels: 3 done,
now <kernel>)…" with a busy progress bar until compilation stops. The GUI
thread only updates a label and a bar, so the window stays usable, and a Run
pressed meanwhile starts as soon as the kernels are ready (the engine thread
takes commands in order).
"""

from __future__ import annotations

from contextlib import ExitStack

from PySide6.QtCore import QObject, Qt, Signal
from PySide6.QtWidgets import QProgressBar, QStatusBar

from engine.numba_cache import CompileEvent, watch_compiles


def progress_text(report: CompileEvent) -> str:
    """The status bar message for one compile report."""
    return (f"Preparing the physics engine (compiling kernels: {report.finished} done, "
            f"now {report.kernel})…")


class CompileProgress(QObject):
    """A busy progress bar and a message on ``status_bar`` while numba compiles."""

    reported = Signal(object)  # CompileEvent, emitted in the compiling thread

    def __init__(self, status_bar: QStatusBar, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.status_bar = status_bar
        self.bar = QProgressBar()
        self.bar.setRange(0, 0)  # busy: how many kernels a world needs is not known
        self.bar.setMaximumWidth(140)
        self.bar.setTextVisible(False)
        self.bar.setVisible(False)
        status_bar.addWidget(self.bar)
        self.message = ""
        self.reported.connect(self._show, Qt.ConnectionType.QueuedConnection)
        self._watch = ExitStack()
        self._watch.enter_context(watch_compiles(self.reported.emit))

    @property
    def busy(self) -> bool:
        """True while the bar is shown (kernels being compiled)."""
        return not self.bar.isHidden()

    def close(self) -> None:
        """Stop watching numba (the window closes)."""
        self._watch.close()

    def _show(self, report: CompileEvent) -> None:
        if report.busy:
            self.message = progress_text(report)
            self.bar.setVisible(True)
            self.status_bar.showMessage(self.message)
            return
        self.bar.setVisible(False)
        if self.status_bar.currentMessage() == self.message:
            self.status_bar.showMessage(f"Physics engine ready ({report.finished} kernels "
                                        "compiled).", 5000)
        self.message = ""
