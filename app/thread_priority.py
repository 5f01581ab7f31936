"""Lowering the CPU priority of the calling thread (the engine yields cores to the GUI).

On Linux, ``setpriority(PRIO_PROCESS, tid)`` sets the nice value of one thread
(a task), not of the whole process; a higher nice value only needs no
privilege. Elsewhere the call is not per-thread, so nothing is changed.
"""

from __future__ import annotations

import logging
import os
import sys
import threading

log = logging.getLogger(__name__)


def lower_current_thread_priority(nice: int) -> bool:
    """Give the calling thread the nice value ``nice`` (0..19) unless it already has a
    higher one. True when the thread's nice value is now at least ``nice``; False
    where per-thread priorities are not available (not Linux) or the call failed."""
    if not 0 <= nice <= 19:
        raise ValueError(f"lower_current_thread_priority: nice must be 0..19, got {nice}")
    if not sys.platform.startswith("linux"):
        return False
    tid = threading.get_native_id()
    try:
        current = os.getpriority(os.PRIO_PROCESS, tid)
        if current < nice:
            os.setpriority(os.PRIO_PROCESS, tid, nice)
    except OSError as exc:
        log.warning("could not lower the priority of thread %d: %s", tid, exc)
        return False
    return True
