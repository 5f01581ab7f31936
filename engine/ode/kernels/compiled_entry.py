"""Call a compiled kernel without its dispatcher typing the arguments again.

numba's dispatcher types every argument on every call (for an array: its
dtype, dimensions, layout, whether it is writeable and aligned) before it
picks the compiled version to run. For the step kernel, which takes 53
arrays, that is about 3 us a call, close to a tenth of a small world's
step. :class:`CompiledEntry` does that typing once per *kind* of argument
tuple (see :func:`argument_kinds`) and then calls the compiled version's
entry point directly; the entry point still converts each argument (reads
an array's data pointer and shape), it only skips choosing.

Two argument tuples of the same kinds get the same numba types, so the
entry point chosen for one is the right one for the other; anything that
could change the typing (another dtype, a read-only or non-contiguous
array, an ``int`` where a ``float`` was) changes the kinds and goes through
the dispatcher's typing again.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

ArgumentKinds = tuple

#: the bits of ``ndarray.flags.num`` numba's typing reads: C and Fortran
#: contiguity (0x1, 0x2), alignment (0x100), writeability (0x400)
_TYPED_FLAGS = 0x1 | 0x2 | 0x100 | 0x400


def argument_kinds(args: tuple) -> ArgumentKinds:
    """What numba's typing of ``args`` depends on, as a hashable tuple.

    An array (exactly ``np.ndarray``) contributes its dtype, number of
    dimensions and the flags numba reads (contiguity, alignment,
    writeability); a tuple the kinds of its items; anything else, a subclass
    of ndarray included, its Python type.
    """
    kinds = []
    for a in args:
        if type(a) is np.ndarray:
            kinds.append((a.dtype.str, a.ndim, a.flags.num & _TYPED_FLAGS))
        elif type(a) is tuple:
            kinds.append(argument_kinds(a))
        else:
            kinds.append(type(a))
    return tuple(kinds)


class CompiledEntry:
    """The compiled entry points of one numba dispatcher, by argument kinds."""

    def __init__(self, dispatcher: Any) -> None:
        self._dispatcher = dispatcher
        self._entries: dict[ArgumentKinds, Callable[..., Any]] = {}

    def entry_for(self, args: tuple) -> Callable[..., Any]:
        """The compiled function to call with ``args`` (or with any argument
        tuple of the same kinds): typed, loaded from numba's cache or
        compiled the first time a kind of arguments is seen."""
        kinds = argument_kinds(args)
        entry = self._entries.get(kinds)
        if entry is None:
            d = self._dispatcher
            signature = tuple(d.typeof_pyval(a) for a in args)
            entry = d.compile(signature)
            self._entries[kinds] = entry
        return entry
