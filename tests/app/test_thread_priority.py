"""app.thread_priority: the calling thread's nice value, and only its own."""

from __future__ import annotations

import os
import sys
import threading

import pytest

from app.thread_priority import lower_current_thread_priority

linux_only = pytest.mark.skipif(not sys.platform.startswith("linux"),
                                reason="per-thread nice is Linux's")


def in_a_thread(fn):
    """Run ``fn()`` in a new thread; its result (exceptions re-raised)."""
    out: dict = {}

    def run() -> None:
        try:
            out["value"] = fn()
        except BaseException as exc:  # handed to the caller
            out["error"] = exc
    t = threading.Thread(target=run)
    t.start()
    t.join()
    if "error" in out:
        raise out["error"]
    return out["value"]


def own_nice() -> int:
    return os.getpriority(os.PRIO_PROCESS, threading.get_native_id())


@linux_only
def test_raises_the_nice_value_of_the_calling_thread_only() -> None:
    before = own_nice()
    target = max(before, 15)
    applied, after = in_a_thread(lambda: (lower_current_thread_priority(target), own_nice()))
    assert applied is True and after == target
    assert own_nice() == before


@linux_only
def test_never_raises_the_priority_back() -> None:
    def run() -> tuple[bool, int]:
        lower_current_thread_priority(18)
        return lower_current_thread_priority(5), own_nice()
    applied, nice = in_a_thread(run)
    assert applied is True and nice == max(18, os.getpriority(os.PRIO_PROCESS, 0))


def test_rejects_nice_values_out_of_range() -> None:
    with pytest.raises(ValueError, match="nice must be 0..19, got 20"):
        lower_current_thread_priority(20)
    with pytest.raises(ValueError, match="got -1"):
        lower_current_thread_priority(-1)
