"""The kernel warm-up's marker (engine/warmup_marker.py): held while a warm-up
process runs, ignored when it names a process that is gone or no warm-up."""

from __future__ import annotations

import os
import subprocess
import sys

from engine.warmup_marker import marked_running, warmup_running


def _sleeper(*extra: str) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)", *extra])


def test_a_live_warm_up_process_holds_the_marker(tmp_path) -> None:
    marker = tmp_path / "odeon-warmup.pid"
    assert not warmup_running(marker)  # no marker
    warm, other = _sleeper("engine.warmup"), _sleeper()
    try:
        marker.write_text(str(warm.pid))
        assert warmup_running(marker)
        marker.write_text(str(other.pid))  # a live process, but no warm-up
        assert not warmup_running(marker)
    finally:
        for process in (warm, other):
            process.kill()
            process.wait()
    marker.write_text(str(warm.pid))  # gone now
    assert not warmup_running(marker)
    marker.write_text("not a number")
    assert not warmup_running(marker)


def test_the_marker_is_kept_while_the_block_runs(tmp_path) -> None:
    marker = tmp_path / "cache" / "odeon-warmup.pid"
    with marked_running(marker):
        assert marker.read_text() == str(os.getpid())
    assert not marker.exists()
    with marked_running(marker):
        marker.write_text("12345")  # another warm-up took over: its marker stays
    assert marker.read_text() == "12345"
