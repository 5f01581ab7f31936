"""ODE's global pseudo-random generator (dRand family).

QuickStep draws from it to reorder constraints, so it must produce ODE's
exact sequence: a 32-bit linear congruential generator
``seed <- (1664525 * seed + 1013904223) mod 2**32``.

The state is one uint64 in ``RNG_STATE`` so numba kernels can share it
(pass the array to a kernel; it updates element 0 in place).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from engine.ode.errors import ODEError

#: The generator's state (element 0), shared by Python and numba kernels.
RNG_STATE = np.zeros(1, dtype=np.uint64)

_MASK32 = 0xFFFFFFFF


@njit(cache=True, nogil=True)
def rand_next(state: np.ndarray) -> int:
    """Advance the generator held in ``state[0]`` and return the new 32-bit value."""
    s = (np.uint64(1664525) * state[0] + np.uint64(1013904223)) & np.uint64(_MASK32)
    state[0] = s
    return s


@njit(cache=True, nogil=True)
def rand_int(state: np.ndarray, n: int) -> int:
    """An integer in [0, n) from one draw, as ODE's dRandInt computes it.

    For small n the high bits are folded into the low ones (xor-shifts)
    before scaling, so that the few bits used still depend on all 32.
    """
    r = np.uint64(rand_next(state))
    un = np.uint64(n)
    if un <= np.uint64(0x10):
        r ^= r >> np.uint64(16)
        r ^= r >> np.uint64(8)
        r ^= r >> np.uint64(4)
        if un <= np.uint64(2):
            r ^= r >> np.uint64(2)
            r ^= r >> np.uint64(1)
            return int(r & (un >> np.uint64(1)))
        if un <= np.uint64(4):
            r ^= r >> np.uint64(2)
            return int(((r & np.uint64(3)) * un) >> np.uint64(2))
        return int(((r & np.uint64(0xF)) * un) >> np.uint64(4))
    if un <= np.uint64(0x100):
        r ^= r >> np.uint64(16)
        r ^= r >> np.uint64(8)
        return int(((r & np.uint64(0xFF)) * un) >> np.uint64(8))
    if un <= np.uint64(0x10000):
        r ^= r >> np.uint64(16)
        return int(((r & np.uint64(0xFFFF)) * un) >> np.uint64(16))
    return int((r * un) >> np.uint64(32))


def dRand() -> int:
    """Next raw 32-bit value of ODE's generator."""
    return int(rand_next(RNG_STATE))


def dRandInt(n: int) -> int:
    """A random integer in [0, n)."""
    if n < 1:
        raise ODEError("dRandInt", "n", f"must be >= 1, got {n}")
    return int(rand_int(RNG_STATE, int(n)))


def dRandReal() -> float:
    """A random real in [0, 1]."""
    return float(rand_next(RNG_STATE)) / float(_MASK32)


def dRandGetSeed() -> int:
    """The generator's current seed."""
    return int(RNG_STATE[0])


def dRandSetSeed(s: int) -> None:
    """Set the generator's seed (taken modulo 2**32, as C's unsigned long)."""
    RNG_STATE[0] = np.uint64(int(s) & _MASK32)


def dTestRand() -> int:
    """1 if the generator produces ODE's reference sequence from seed 0."""
    saved = RNG_STATE[0]
    RNG_STATE[0] = 0
    expected = (0x3C6EF35F, 0x47502932, 0xD1CCF6E9, 0xAAF95334, 0x6252E503)
    ok = all(dRand() == e for e in expected)
    RNG_STATE[0] = saved
    return int(ok)
