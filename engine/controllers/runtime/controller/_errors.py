"""Webots' error style: misuse prints a line to stderr and the call returns
None, NaN or 0; nothing raises."""

from __future__ import annotations

import sys


def error(text: str) -> None:
    """Print ``Error: text`` to stderr."""
    sys.stderr.write(f"Error: {text}\n")
    sys.stderr.flush()


def deprecated(old: str, new: str) -> None:
    """Print Webots' deprecation line for ``old`` (use ``new`` instead)."""
    sys.stderr.write(f"DEPRECATION: {old} is deprecated, please use {new} instead.\n")
    sys.stderr.flush()
