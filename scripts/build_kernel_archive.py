"""Rebuild resources/kernels/engine-kernels.tar.xz, the kernels shipped with the sources.

    .venv/bin/python scripts/build_kernel_archive.py           # when stale
    .venv/bin/python scripts/build_kernel_archive.py --force   # anyway

Compiles every kernel into an empty numba cache (``python -m engine.warmup``
in a child process, the engine's generic CPU target) and packs it with
`engine.kernel_archive.pack`: about 5 minutes on two cores. Run it after
changing anything under engine/ode or engine/contact (decision 0030).
"""

from __future__ import annotations

import os
import subprocess
import sys
import tarfile
import tempfile
import time
from pathlib import Path

from engine.kernel_archive import (
    ARCHIVE,
    REPO_DIR,
    current_manifest,
    manifest_mismatch,
    pack,
    read_manifest,
)


def rebuild(archive: Path = ARCHIVE, force: bool = False) -> int:
    """Compile every kernel into an empty cache (``python -m engine.warmup``
    in a child process, generic CPU target) and pack it into ``archive``,
    unless it is current already (``force`` rebuilds anyway); prints progress,
    returns a process exit status."""
    try:
        current = not force and not manifest_mismatch(read_manifest(archive), current_manifest())
    except (OSError, tarfile.TarError, ValueError, TypeError):
        current = False
    if current:
        print(f"{archive.relative_to(REPO_DIR)} is current (--force rebuilds it)")
        return 0
    with tempfile.TemporaryDirectory(prefix="odeon-kernels-") as tmp:
        env = {k: v for k, v in os.environ.items() if k != "ODEON_NUMBA_CACHE_CHECK"}
        env.update(NUMBA_CACHE_DIR=tmp, ODEON_KERNEL_ARCHIVE="0")
        t0 = time.monotonic()
        done = subprocess.run([sys.executable, "-m", "engine.warmup"], env=env, check=False)
        if done.returncode != 0:
            print(f"the warm-up failed (exit status {done.returncode}); {archive} unchanged")
            return 1
        count = pack(Path(tmp), archive)
    print(f"{archive.relative_to(REPO_DIR)}: {count} files, "
          f"{archive.stat().st_size / 1e6:.1f} MB, {time.monotonic() - t0:.0f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(rebuild(force="--force" in sys.argv[1:]))
