"""Helper of bench_start.py: open the app on the default world, then press Run;
print ``FIRST_FRAME <s>`` (process start to the first frame the viewport
showed) and ``FIRST_STEP <s>`` (process start to the world's first step),
each also as ``FIRST_FRAME_CLOCK``/``FIRST_STEP_CLOCK`` (``time.perf_counter()``
then: the system's monotonic clock, which another process can compare with
its own), then quit. Run in its own process, with the NUMBA_CACHE_DIR under test."""

from __future__ import annotations

import time

T0 = time.perf_counter()

import sys  # noqa: E402
from pathlib import Path  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from app.gl_format import set_default_format  # noqa: E402

set_default_format()

from PySide6.QtCore import QTimer  # noqa: E402
from PySide6.QtWidgets import QApplication  # noqa: E402

from app.main_window import MainWindow  # noqa: E402


def main() -> int:
    app = QApplication(sys.argv[:1])
    window = MainWindow(None)
    seen: dict[str, float] = {}

    def shown() -> None:
        if "frame" not in seen:
            seen["frame"] = time.perf_counter() - T0
            print(f"FIRST_FRAME {seen['frame']:.2f}", flush=True)
            print(f"FIRST_FRAME_CLOCK {seen['frame'] + T0:.3f}", flush=True)
            window.runner.run_fast()
            poll()

    def poll() -> None:
        if window.runner.latest_frame().steps >= 1:
            now = time.perf_counter()
            print(f"FIRST_STEP {now - T0:.2f}", flush=True)
            print(f"FIRST_STEP_CLOCK {now:.3f}", flush=True)
            app.quit()
        else:
            QTimer.singleShot(20, poll)

    window.viewport.frameSwapped.connect(shown)
    window.show()
    return app.exec()


if __name__ == "__main__":
    raise SystemExit(main())
