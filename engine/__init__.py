"""Odeon engine: everything that runs without a screen (no Qt, no OpenGL).

Importing it first sets numba's code generation to a baseline x86-64 CPU
(``NUMBA_CPU_NAME=generic``, unless set already; decision 0030): the same
machine code on every x86-64 machine, and one kernel cache that serves them
all. Then it drops cached kernels compiled from other sources
(`engine.numba_cache`) and, on a cache starting afresh, unpacks the kernels
shipped with the sources (`engine.kernel_archive`; ``ODEON_KERNEL_ARCHIVE=0``
skips that). Both must come before numba is imported.
"""

import os as _os

_os.environ.setdefault("NUMBA_CPU_NAME", "generic")

from engine.numba_cache import invalidate_if_stale as _invalidate_if_stale  # noqa: E402

if _invalidate_if_stale():
    from engine.kernel_archive import seed_at_import as _seed_at_import

    _seed_at_import()
