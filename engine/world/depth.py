"""Room for deeply nested worlds in the recursive parser and writer.

Both walk the node tree recursively, a few Python frames per nested node;
Python's default recursion limit (1000) refused hinge chains longer than
123 links. `deep_recursion` raises the limit for the duration of a parse or
a write. Python 3.11+ calls between Python functions do not use the C
stack, so the higher limit is safe in any thread.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from contextlib import contextmanager

#: recursion limit while parsing or writing: nodes may nest about 5000 deep
#: (a hinge chain of ~2500 links: HingeJoint and Solid per link)
RECURSION_LIMIT = 40_000


@contextmanager
def deep_recursion() -> Iterator[None]:
    """Run the body with the recursion limit at least `RECURSION_LIMIT`."""
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, RECURSION_LIMIT))
    try:
        yield
    finally:
        sys.setrecursionlimit(limit)
