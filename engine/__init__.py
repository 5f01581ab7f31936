"""Odeon engine: everything that runs without a screen (no Qt, no OpenGL).

Importing it first sets numba's code generation to a baseline x86-64 CPU
(``NUMBA_CPU_NAME=generic``, unless set already; decision 0030): the same
machine code on every x86-64 machine, and one kernel cache that serves them
all. numba reads the setting when it compiles its first kernel; if numba was
imported earlier, its configuration is read again here (a kernel compiled
before that keeps the host CPU, and the cache entries it writes do not match
the shipped ones). Then it drops cached kernels compiled from other sources
or for another CPU target (`engine.numba_cache`) and, on a cache starting
afresh, unpacks the kernels shipped with the sources (`engine.kernel_archive`;
``ODEON_KERNEL_ARCHIVE=0`` skips that).
"""

import os as _os
import sys as _sys

_os.environ.setdefault("NUMBA_CPU_NAME", "generic")
if "numba" in _sys.modules:
    from numba.core import config as _numba_config

    _numba_config.reload_config()

from engine.numba_cache import invalidate_if_stale as _invalidate_if_stale  # noqa: E402

if _invalidate_if_stale():
    from engine.kernel_archive import seed_at_import as _seed_at_import

    _seed_at_import()
