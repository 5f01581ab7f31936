"""Work-arounds for bugs of the Qt binding that the whole app needs.

Applied once, when the ``app`` package is imported (app/__init__.py), before
any Qt object exists.
"""

from __future__ import annotations

import ctypes
import sys

#: Extra references given to None by `pin_none` (never released).
_NONE_PIN = 1 << 40


def pin_none() -> None:
    """Work around a PySide6 6.12 bug on CPython < 3.12: a wrapped C++ method
    returning a null pointer (``parentItem()``, ``parentWidget()``...) gives
    None without a new reference, so None's refcount falls by one per call;
    pyqtgraph makes thousands of such calls per redraw and the process
    aborts with "none_dealloc". Adding 2**40 references once makes None
    practically immortal (CPython 3.12 made it immortal). Idempotent."""
    if sys.version_info >= (3, 12) or sys.getrefcount(None) >= _NONE_PIN // 2:
        return  # immortal, or already pinned
    refcnt = ctypes.c_ssize_t.from_address(id(None))  # ob_refcnt is the first field
    refcnt.value += _NONE_PIN


#: Extra references given to True and False by `pin_bools` (never released).
_BOOL_PIN = 1 << 40


def pin_bools() -> None:
    """The same bug for booleans: ``QObject.property()`` returning a bool gives
    True/False without a new reference, and pyqtgraph calls
    ``self.property('styleWasChanged')`` in every ``PlotDataItem.setData``, so
    plot redraws lower the refcount of True or False until the process aborts
    with "bool_dealloc" (about a minute of running with plots shown). Adding
    2**40 references once makes them practically immortal. Idempotent."""
    if sys.version_info >= (3, 12):
        return
    for value in (True, False):
        if sys.getrefcount(value) < _BOOL_PIN // 2:
            ctypes.c_ssize_t.from_address(id(value)).value += _BOOL_PIN
