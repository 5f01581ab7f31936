"""GUI responsiveness while the engine thread runs: a 16 ms Qt timer's tick gaps.

A `QTimer` (PreciseTimer, 16 ms: the app's frame timer) runs in the main
thread for ``--seconds`` per scenario; each tick records the wall time since
the previous one and does what the app's timer does (``latest_frame()`` and a
touch of its poses). Scenarios, in order:

- ``idle``: no engine thread;
- ``paused``: an `EngineRunner` on the world, paused;
- ``realtime``: the runner in real-time mode;
- ``fast``: the runner in fast mode (steps flat out);
- ``fast, yielding``: fast mode with a ``time.sleep(0)`` after every step, as
  the runner did until stop 32 (decision 0034: it cost the GUI more than it
  gave it).

The table gives, per scenario, the ticks seen, the median, 95th percentile
and largest gap between ticks [ms], the ticks later than 33 ms (a missed
frame at 60 Hz), and the simulation speed (simulated s per wall s) reached.

Run: ``xvfb-run -a .venv/bin/python bench/bench_gui_latency.py [--seconds S]
[--world resources/worlds/default.wbt]`` (QT_QPA_PLATFORM=offscreen also works:
no GL is used).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

from PySide6.QtCore import QElapsedTimer, QEventLoop, Qt, QTimer  # noqa: E402
from PySide6.QtWidgets import QApplication  # noqa: E402

from app.runner import EngineRunner  # noqa: E402

INTERVAL_MS = 16
LATE_MS = 33.0


def measure(seconds: float, runner: EngineRunner | None) -> list[float]:
    """Tick gaps [ms] of a 16 ms PreciseTimer over ``seconds``."""
    gaps: list[float] = []
    clock = QElapsedTimer()
    loop = QEventLoop()
    timer = QTimer()
    timer.setTimerType(Qt.TimerType.PreciseTimer)
    timer.setInterval(INTERVAL_MS)
    last = [None]

    def tick() -> None:
        now = clock.nsecsElapsed() / 1e6
        if last[0] is not None:
            gaps.append(now - last[0])
        last[0] = now
        if runner is not None:  # what the app's frame timer does
            frame = runner.latest_frame()
            for pos, _ in frame.poses.values():
                float(pos[2])

    timer.timeout.connect(tick)
    QTimer.singleShot(int(seconds * 1000), loop.quit)
    clock.start()
    timer.start()
    loop.exec()
    timer.stop()
    return gaps


def sim_speed(runner: EngineRunner, seconds: float, gaps_fn) -> tuple[list[float], float]:
    t0 = runner.call(lambda sim: sim.time_ms).result(60)
    w0 = time.perf_counter()
    gaps = gaps_fn()
    t1 = runner.call(lambda sim: sim.time_ms).result(60)
    return gaps, (t1 - t0) / 1000.0 / (time.perf_counter() - w0)


def row(name: str, gaps: list[float], speed: float | None) -> str:
    gaps_sorted = sorted(gaps)
    p95 = gaps_sorted[int(0.95 * (len(gaps_sorted) - 1))]
    late = sum(g > LATE_MS for g in gaps)
    speed_text = "-" if speed is None else f"{speed:.2f}"
    return (f"{name:<16} {len(gaps):>6} {statistics.median(gaps):>9.1f} {p95:>8.1f} "
            f"{max(gaps):>8.1f} {late:>6} {speed_text:>7}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=5.0)
    parser.add_argument("--world", default=str(REPO / "resources" / "worlds" / "default.wbt"))
    args = parser.parse_args()
    app = QApplication.instance() or QApplication(sys.argv[:1])
    print(f"world {args.world}, {args.seconds:g} s per scenario, timer {INTERVAL_MS} ms")
    print(f"{'scenario':<16} {'ticks':>6} {'median ms':>9} {'p95 ms':>8} {'max ms':>8} "
          f"{'late':>6} {'speed':>7}")
    print(row("idle", measure(args.seconds, None), None))
    runner = EngineRunner(args.world)
    try:
        runner.run_fast()  # warm-up: numba loads or compiles its kernels
        time.sleep(1.0)
        runner.pause()
        runner.call(lambda sim: None).result(600)
        print(row("paused", measure(args.seconds, runner), None))
        for name, command in (("realtime", runner.run_realtime), ("fast", runner.run_fast)):
            command()
            gaps, speed = sim_speed(runner, args.seconds, lambda: measure(args.seconds, runner))
            print(row(name, gaps, speed))
        step = runner.host.step

        def step_then_yield() -> bool:
            stepped = step()
            time.sleep(0)  # what fast mode did until stop 32 (decision 0034)
            return stepped

        runner.host.step = step_then_yield
        try:
            gaps, speed = sim_speed(runner, args.seconds, lambda: measure(args.seconds, runner))
            print(row("fast, yielding", gaps, speed))
        finally:
            runner.host.step = step
    finally:
        runner.stop()
    app.processEvents()


if __name__ == "__main__":
    main()
