"""Keep numba's on-disk cache consistent with the engine's sources.

numba's ``cache=True`` re-validates a compiled function against its own
source file only; kernels that call kernels in other files (the step calls
every joint's ``info2``) would keep stale machine code after an edit. At
import, a hash of every engine source file is compared with the one stored
next to the cache; when they differ, the engine's cache entries are removed
so everything recompiles once (or is unpacked from the kernels shipped with
the sources, `engine.kernel_archive`). The stamp names numba's CPU target too
(`stamp_text`): a cache filled for one target starts afresh for another.

Setting ``ODEON_NUMBA_CACHE_CHECK=0`` skips the check (numba's per-file
validation still applies): useful while several people edit different kernel
files, each with their own ``NUMBA_CACHE_DIR``, at the risk of stale code for
cross-file calls (delete your cache directory when in doubt).

Only the folders that hold kernels count (`KERNEL_DIRS`: engine/ode and
engine/contact; a kernel can only call kernels): editing the simulation,
worlds, plugins or controllers keeps the compiled kernels.

`watch_compiles(callback)` reports every kernel numba compiles (a cache miss:
minutes in all on an empty cache, the first time a world steps) as a
`CompileEvent`, so the app and ``odeon run`` can say what is being prepared.
Kernels loaded from the cache report nothing.
"""

from __future__ import annotations

import hashlib
import os
import pathlib
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import NamedTuple

ENGINE_DIR = pathlib.Path(__file__).resolve().parent
STAMP_NAME = "odeon-engine-sources.sha256"
#: The engine folders whose files define numba kernels (and all they call).
KERNEL_DIRS = ("ode", "contact")


def sources_digest(root: pathlib.Path = ENGINE_DIR,
                   folders: tuple[str, ...] | None = None) -> str:
    """SHA-256 over the relative path and bytes of every .py file under the
    ``folders`` of ``root`` (all of ``root`` when None; the engine's kernel
    folders, `KERNEL_DIRS`, by default for the engine itself)."""
    if folders is None and root == ENGINE_DIR:
        folders = KERNEL_DIRS
    paths = (sorted(root.rglob("*.py")) if folders is None else
             sorted(p for folder in folders for p in (root / folder).rglob("*.py")))
    h = hashlib.sha256()
    for path in paths:
        h.update(str(path.relative_to(root)).encode())
        h.update(path.read_bytes())
    return h.hexdigest()


def stamp_text() -> str:
    """What the cache's stamp file says when it is current: the kernel sources'
    digest and numba's CPU target (``NUMBA_CPU_NAME``/``NUMBA_CPU_FEATURES``;
    another target's entries are dropped too, so a cache that served one target
    starts afresh, and seeded, for another)."""
    cpu = os.environ.get("NUMBA_CPU_NAME", "host")
    features = os.environ.get("NUMBA_CPU_FEATURES", "")
    return f"{sources_digest()}\ncpu {cpu} {features}".rstrip() + "\n"


def cache_root() -> pathlib.Path | None:
    """numba's cache folder (``NUMBA_CACHE_DIR``), or None: numba then caches in
    each source folder's ``__pycache__``."""
    custom = os.environ.get("NUMBA_CACHE_DIR")
    return pathlib.Path(custom) if custom else None


def _cache_dirs() -> list[pathlib.Path]:
    root = cache_root()
    if root is not None:
        return [root]
    return [p for p in ENGINE_DIR.rglob("__pycache__") if p.is_dir()]


def invalidate_if_stale() -> bool:
    """Remove stale engine entries from numba's cache. True when the cache
    starts afresh for these sources: its stamp was missing or named other
    sources (and is rewritten now); False when it is current or unchecked."""
    if os.environ.get("ODEON_NUMBA_CACHE_CHECK", "1") == "0":
        return False
    digest = stamp_text()
    stamp_dir = cache_root() or ENGINE_DIR / "__pycache__"
    stamp = stamp_dir / STAMP_NAME
    try:
        if stamp.read_text() == digest:
            return False
    except OSError:
        pass
    # only numba's index and data files are removed, never directories: another
    # process may be writing into them, and a missing index is just a cache miss
    for d in _cache_dirs():
        for pattern in ("*.nbi", "*.nbc"):
            for f in d.rglob(pattern):
                try:
                    f.unlink()
                except OSError:
                    pass
    try:
        stamp_dir.mkdir(parents=True, exist_ok=True)
        stamp.write_text(digest)
    except OSError:
        pass
    return True


class CompileEvent(NamedTuple):
    """One step of numba compiling engine kernels (cache misses only).

    ``kernel`` is the kernel's qualified name, ``started``/``finished`` count
    the compilations begun/ended since the watch began (a kernel compiles the
    kernels it calls inside its own compilation), ``busy`` is False once no
    compilation is in progress any more."""

    kernel: str
    started: int
    finished: int
    busy: bool


CompileCallback = Callable[[CompileEvent], None]


def _kernel_name(data: dict | None) -> str:
    dispatcher = (data or {}).get("dispatcher")
    func = getattr(dispatcher, "py_func", None)
    return getattr(func, "__qualname__", None) or str(dispatcher)


def _make_listener(callback: CompileCallback):
    """A numba event listener counting compilations and calling ``callback``
    (in the compiling thread) at each start and end."""
    from numba.core import event

    class _Listener(event.Listener):
        def __init__(self) -> None:
            self.lock = threading.Lock()
            self.started = self.finished = self.depth = 0

        def on_start(self, ev) -> None:
            with self.lock:
                self.started += 1
                self.depth += 1
                report = CompileEvent(_kernel_name(ev.data), self.started, self.finished, True)
            callback(report)

        def on_end(self, ev) -> None:
            with self.lock:
                self.finished += 1
                self.depth = max(self.depth - 1, 0)
                report = CompileEvent(_kernel_name(ev.data), self.started, self.finished,
                                      self.depth > 0)
            callback(report)

    return _Listener()


class _CompileClock:
    """Process-wide seconds spent compiling kernels (the one in progress included).

    Readers take no lock (the plugin watchdog reads it around every callback):
    the writer publishes ``(total, since)`` as one tuple, which a reader gets
    whole."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.depth = 0
        #: (seconds of finished compilations, monotonic start of the one in
        #: progress or 0.0), replaced as a whole by `event`
        self.state = (0.0, 0.0)
        self.registered = False

    def event(self, report: CompileEvent) -> None:
        with self.lock:
            now = time.monotonic()
            total, since = self.state
            if report.busy and self.depth == 0 and report.started > report.finished:
                since = now
            self.depth = report.started - report.finished
            if self.depth <= 0:
                self.depth = 0
                if since:
                    total += now - since
                    since = 0.0
            self.state = (total, since)

    def seconds(self) -> float:
        total, since = self.state
        return total + (time.monotonic() - since if since else 0.0)


_CLOCK = _CompileClock()


def compile_seconds() -> float:
    """Seconds this process has spent compiling numba kernels so far, the
    compilation in progress included (0 when every kernel came from the cache).
    A time budget subtracts the growth of this clock (the plugin watchdog does):
    a first call that compiles is not slow code."""
    if not _CLOCK.registered:
        with _CLOCK.lock:
            if not _CLOCK.registered:
                from numba.core import event

                event.register("numba:compile", _make_listener(_CLOCK.event))
                _CLOCK.registered = True
    return _CLOCK.seconds()


@contextmanager
def watch_compiles(callback: CompileCallback) -> Iterator[None]:
    """Call ``callback(CompileEvent)`` for every numba compilation (any thread)
    inside the block; the callback runs in the compiling thread."""
    from numba.core import event

    listener = _make_listener(callback)
    event.register("numba:compile", listener)
    try:
        yield
    finally:
        event.unregister("numba:compile", listener)
