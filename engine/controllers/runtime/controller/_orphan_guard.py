"""Exit when the simulation that started this controller is gone (its process
was killed): a daemon thread watches the parent process id."""

from __future__ import annotations

import os
import threading
import time

#: Seconds between two looks at the parent.
PERIOD = 0.5


def _watch(parent: int) -> None:
    while True:
        time.sleep(PERIOD)
        if os.getppid() != parent:
            os._exit(0)


def start() -> None:
    """Start watching (once per process)."""
    thread = threading.Thread(target=_watch, args=(os.getppid(),), daemon=True,
                              name="odeon-orphan-guard")
    thread.start()
