"""Whether the kernel warm-up (``python -m engine.warmup``) is running now.

On a fresh install `make run` opens the app at once and compiles the
engine's kernels in the background (Makefile, decision 0026). While it runs,
the warm-up keeps a marker file next to numba's cache holding its process
id; the app's engine thread waits for it to end before stepping, instead of
compiling the same kernels itself with two processes competing for the
CPUs. A marker left by a warm-up that was killed names a process that is
gone (or that is no warm-up) and is ignored.
"""

from __future__ import annotations

import os
import pathlib
from collections.abc import Iterator
from contextlib import contextmanager

from engine.numba_cache import ENGINE_DIR

#: The marker's file name, in the numba cache folder.
MARKER_NAME = "odeon-warmup.pid"


def marker_path() -> pathlib.Path:
    """The marker file: in ``NUMBA_CACHE_DIR`` (engine/__pycache__ without it)."""
    custom = os.environ.get("NUMBA_CACHE_DIR")
    folder = pathlib.Path(custom) if custom else ENGINE_DIR / "__pycache__"
    return folder / MARKER_NAME


@contextmanager
def marked_running(path: pathlib.Path | None = None) -> Iterator[None]:
    """Keep the marker (this process's id) while the block runs."""
    marker = marker_path() if path is None else path
    mine = str(os.getpid())
    try:
        marker.parent.mkdir(parents=True, exist_ok=True)
        partial = marker.with_name(f"{marker.name}.{mine}")
        partial.write_text(mine)
        os.replace(partial, marker)
    except OSError:
        pass  # no marker: an app started meanwhile compiles what it needs itself
    try:
        yield
    finally:
        try:
            if marker.read_text() == mine:
                marker.unlink()
        except OSError:
            pass


def warmup_running(path: pathlib.Path | None = None) -> bool:
    """True while a warm-up process holds the marker."""
    marker = marker_path() if path is None else path
    try:
        pid = int(marker.read_text().strip())
    except (OSError, ValueError):
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        pass  # alive, another user's
    except OSError:
        return False
    try:
        command = pathlib.Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return True  # no /proc: trust the live process id
    return b"engine.warmup" in command
