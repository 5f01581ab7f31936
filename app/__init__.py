"""Odeon desktop application (PySide6). Imports ``engine``; never imported by it."""

from app.qt_workarounds import pin_bools as _pin_bools
from app.qt_workarounds import pin_none as _pin_none

_pin_none()
_pin_bools()
