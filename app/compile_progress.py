"""The status bar shows the physics engine being prepared (numba compiling kernels).

On a machine whose numba cache is empty, the first steps of a world compile
the engine's kernels for minutes while the clock stays at 0. `CompileProgress`
watches numba's compilations (`engine.numba_cache.watch_compiles`, reported in
the compiling thread, usually the engine's), queues each report there (no Qt
call outside the GUI thread) and takes them in the GUI thread on a
`POLL_MS` timer, and shows "Preparing the physics engine (compiling kernels: 3 done,
now <kernel>)…" with a busy progress bar until compilation stops. The GUI
thread only updates a label and a bar, so the window stays usable, and a Run
pressed meanwhile starts as soon as the kernels are ready (the engine thread
takes commands in order).
"""

from __future__ import annotations

from collections import deque
from contextlib import ExitStack

from PySide6.QtCore import QObject, QTimer
from PySide6.QtWidgets import QProgressBar, QStatusBar

from engine.numba_cache import CompileEvent, watch_compiles


def progress_text(report: CompileEvent) -> str:
    """The status bar message for one compile report."""
    return (f"Preparing the physics engine (compiling kernels: {report.finished} done, "
            f"now {report.kernel})…")


#: How often the GUI thread takes the queued compile reports [ms].
POLL_MS = 100


class CompileProgress(QObject):
    """A busy progress bar and a message on ``status_bar`` while numba compiles."""

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
        #: reports heard in the compiling thread, shown by `take_reports`
        self._reports: deque[CompileEvent] = deque()
        self._timer = QTimer(self)
        self._timer.setInterval(POLL_MS)
        self._timer.timeout.connect(self.take_reports)
        self._timer.start()
        self._watch = ExitStack()
        self._watch.enter_context(watch_compiles(self.hear))

    @property
    def busy(self) -> bool:
        """True while the bar is shown (kernels being compiled)."""
        return not self.bar.isHidden()

    def close(self) -> None:
        """Stop watching numba (the window closes)."""
        self._watch.close()
        self._timer.stop()

    def hear(self, report: CompileEvent) -> None:
        """Queue one compile report (any thread; no Qt call)."""
        self._reports.append(report)

    def take_reports(self) -> None:
        """Show the reports queued since the last call, in order (GUI thread)."""
        while self._reports:
            self._show(self._reports.popleft())

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
