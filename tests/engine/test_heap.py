"""The loaded world kept out of full garbage collections (engine/heap.py)."""

from __future__ import annotations

import gc
import weakref

from engine.heap import release_world, settle_loaded_world


class _Cyclic:
    """An object in a reference cycle with itself (freed only by the collector)."""

    def __init__(self) -> None:
        self.me = self


def test_settle_collects_the_garbage_then_freezes_what_is_alive():
    garbage, kept = _Cyclic(), _Cyclic()
    garbage_ref = weakref.ref(garbage)
    del garbage
    try:
        frozen = settle_loaded_world()
        assert garbage_ref() is None  # collected before the freeze
        # frozen objects that die leave the count (another thread may free some)
        assert frozen > 0 and 0 < gc.get_freeze_count() <= frozen
        kept_ref = weakref.ref(kept)
        del kept
        gc.collect()
        assert kept_ref() is not None  # frozen: the collector no longer looks at it
    finally:
        release_world()
    assert gc.get_freeze_count() == 0
    gc.collect()
    assert kept_ref() is None  # released: its cycle is collected again
