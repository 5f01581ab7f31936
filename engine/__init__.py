"""Odeon engine: everything that runs without a screen (no Qt, no OpenGL)."""

from engine.numba_cache import invalidate_if_stale as _invalidate_if_stale

_invalidate_if_stale()
