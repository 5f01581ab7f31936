"""Compile options shared by the engine's kernels."""

from __future__ import annotations

#: njit options of the kernels that allocate nothing: cached, no GIL, and
#: without numba's reference counting (``_nrt=False``), which costs two atomic
#: operations for every array a kernel binds (an argument, a field of a
#: bundle, a view it makes), at every call. The kernels it calls may be
#: compiled for it the same way, so an allocation anywhere below it can fail
#: to compile (a kernel that calls the joints' dispatch cannot be one). It
#: must not return an array (alone or in a tuple) nor store one anywhere: the
#: array would reach its holder without the reference the holder later drops
#: (tests/engine/test_kernels_without_reference_counts.py checks the return
#: annotations). See docs/dev/joint-authoring.md.
NO_ALLOC = {"cache": True, "nogil": True, "_nrt": False}
