"""Kernels compiled without numba's reference counting keep its rule.

A kernel compiled with ``NO_ALLOC`` (``engine/ode/kernels/options.py``:
``_nrt=False``) makes no reference-count updates. That is only sound for a
kernel that allocates nothing, nor does any kernel it calls (numba may
compile the callees for it without reference counting too, and refuses an
allocation there), and that hands no array back: an array it returned,
alone or in a tuple, would reach its caller without the reference the
caller later drops, and be freed while still in use. Such kernels therefore declare what they return, and
this test reads the declarations (the compiled signatures are not at hand:
a kernel called only from other kernels is compiled inside them, or not at
all when they come from numba's cache).
"""

from __future__ import annotations

import importlib
import pkgutil
import re

from numba.core.registry import CPUDispatcher

import engine

#: what a return annotation of a kernel without reference counts may name
_SCALARS = {"None", "int", "float", "bool", "tuple"}


def _kernels_without_reference_counts() -> dict[str, CPUDispatcher]:
    found = {}
    for info in pkgutil.walk_packages(engine.__path__, "engine."):
        if not info.name.startswith(("engine.ode", "engine.contact")):
            continue
        module = importlib.import_module(info.name)
        for name, value in vars(module).items():
            if (isinstance(value, CPUDispatcher) and value.__module__ == info.name
                    and value.targetoptions.get("_nrt") is False):
                found[f"{info.name}.{name}"] = value
    return found


def test_kernels_without_reference_counts_are_found() -> None:
    kernels = _kernels_without_reference_counts()
    for name in ("engine.ode.solvers.lcp_dantzig._drive",
                 "engine.ode.solvers.lcp_ldlt.row_terms",
                 "engine.ode.joints.contact.fill_island_rows",
                 "engine.ode.collision.pairs.narrow._pair_into"):
        assert name in kernels


def test_kernels_without_reference_counts_return_no_array() -> None:
    bad = []
    for name, kernel in _kernels_without_reference_counts().items():
        returns = kernel.py_func.__annotations__.get("return")
        if returns is None:
            bad.append(f"{name}: no return annotation")
            continue
        words = set(re.findall(r"[A-Za-z_][A-Za-z_.]*", str(returns)))
        if not words <= _SCALARS:
            bad.append(f"{name} returns {returns}")
    assert not bad, bad
