"""Shared helpers of the world tests."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

WORLDS = Path(__file__).resolve().parents[2] / "resources" / "worlds"
HEADER = "#VRML_SIM R2025a utf8\n"


@pytest.fixture
def worlds_dir() -> Path:
    """Folder of the sample worlds used by the tests."""
    return WORLDS


_MANTISSA = re.compile(r"(?<![\w.])[+-]?(\d+\.?\d*|\.\d+)(?=[eE]|\b|\s|$)")


def exact_on_write(text: str) -> bool:
    """True when no number of ``text`` has more than 15 significant digits, so a
    written copy reads back to exactly the same values (decision 0015)."""
    for match in _MANTISSA.finditer(text):
        digits = match.group(1).replace(".", "").lstrip("0")
        if len(digits.rstrip("0")) > 15:
            return False
    return True
