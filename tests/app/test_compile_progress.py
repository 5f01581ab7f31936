"""The status bar shows numba compiling the engine's kernels (app.compile_progress)."""

from __future__ import annotations

import numba
from PySide6.QtWidgets import QMainWindow

from app.compile_progress import CompileProgress
from engine.numba_cache import CompileEvent


def test_reports_show_a_busy_bar_and_the_kernel_then_ready(qtbot) -> None:
    window = QMainWindow()
    qtbot.addWidget(window)
    progress = CompileProgress(window.statusBar(), window)
    try:
        progress.hear(CompileEvent("dWorldQuickStep", 4, 3, True))
        qtbot.waitUntil(lambda: progress.busy, timeout=2000)
        text = window.statusBar().currentMessage()
        assert "Preparing the physics engine" in text and "3 done" in text
        assert "dWorldQuickStep" in text
        progress.hear(CompileEvent("dWorldQuickStep", 4, 4, False))
        qtbot.waitUntil(lambda: not progress.busy, timeout=2000)
        assert "ready (4 kernels compiled)" in window.statusBar().currentMessage()
    finally:
        progress.close()


def test_a_compile_in_another_thread_reaches_the_status_bar(qtbot) -> None:
    """Heard in the compiling thread, shown in the GUI thread by the timer."""
    import threading

    from PySide6.QtCore import QThread

    window = QMainWindow()
    qtbot.addWidget(window)
    progress = CompileProgress(window.statusBar(), window)
    shown: list[tuple] = []
    window.statusBar().messageChanged.connect(
        lambda text: shown.append((QThread.currentThread(), text)))

    @numba.njit(cache=False)
    def fresh_kernel(x):
        return x * 3.0

    try:
        worker = threading.Thread(target=fresh_kernel, args=(1.0,))  # as the engine thread
        worker.start()
        worker.join(60)
        qtbot.waitUntil(lambda: any("ready (1 kernels" in text for _, text in shown),
                        timeout=5000)
        busy = [text for _, text in shown if "Preparing" in text]
        assert busy and "fresh_kernel" in busy[0], shown
        assert all(thread is QThread.currentThread() for thread, _ in shown)
        assert not progress.busy
    finally:
        progress.close()
