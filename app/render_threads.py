"""How many threads Mesa's software renderer (llvmpipe) may use: one core is left
to the engine.

llvmpipe rasterises in as many threads as the machine has cores. On a small
machine (2 cores, no GPU) those threads then take the core the engine thread
steps on: with 1000 bodies the engine kept 55 % of its headless steps per
second while the window drew 50 frames a second; with one rendering thread
it kept 87 % at 52 frames a second (`bench/bench_viewport.py`, decision
0027). ``LP_NUM_THREADS`` is read when the GL driver starts, so
`leave_a_core_for_the_engine` must run before any GL window exists
(`app.gl_format.set_default_format` calls it). A value the user set is kept;
hardware GL drivers ignore the variable.
"""

from __future__ import annotations

import os
from collections.abc import MutableMapping

#: Mesa's llvmpipe thread-count variable.
LP_NUM_THREADS = "LP_NUM_THREADS"


def render_threads(cpus: int | None) -> int:
    """llvmpipe threads for a machine of ``cpus`` cores (None: unknown): all
    but one, at least one."""
    return max(1, (cpus or 1) - 1)


def leave_a_core_for_the_engine(environ: MutableMapping[str, str] | None = None,
                                cpus: int | None = None) -> str:
    """Set ``LP_NUM_THREADS`` in ``environ`` (the process's environment by
    default) unless it is set; returns the value in force. ``cpus`` defaults
    to the cores this process may run on."""
    env = os.environ if environ is None else environ
    if cpus is None:
        cpus = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    return env.setdefault(LP_NUM_THREADS, str(render_threads(cpus)))
