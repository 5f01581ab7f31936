"""Keep Python's cyclic garbage collector off the objects a loaded world keeps.

A world loaded in the app holds some 400 thousand objects that the garbage
collector tracks (the parsed node tree, the model's records, the scene tree
and viewport views of it). They live as long as the world is open, yet every
full collection walks all of them: with 1000 bodies one took about 90 ms,
in whichever thread happened to allocate (the GUI thread's frame timer then
stalled for as long; `bench/bench_viewport.py` measured gaps of 145 ms).

`settle_loaded_world` is called once a world has been built: it collects
what the previous world left behind, then freezes everything alive
(`gc.freeze`): the collector no longer scans those objects, and later
collections only look at what the run allocates. `release_world` is called
before a world is closed: it unfreezes them again, so that the closed
world's reference cycles are collected by the next settle (a frozen cycle
would never be).

Only processes that hold one world at a time call these (the app, a headless
`odeon run`); a program building many worlds (tests, batch studies) leaves
the collector as it is.
"""

from __future__ import annotations

import gc


def settle_loaded_world() -> int:
    """Collect the garbage the process has now (a world just replaced, the
    parser's temporaries), then move every tracked object into the collector's
    permanent generation. Returns the number of objects frozen."""
    gc.unfreeze()
    gc.collect()
    gc.freeze()
    return gc.get_freeze_count()


def release_world() -> None:
    """Give the frozen objects back to the collector (a world is being closed:
    its cycles must be collectable again)."""
    gc.unfreeze()
