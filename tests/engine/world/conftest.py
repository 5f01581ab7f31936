"""Shared helpers of the world tests."""

from __future__ import annotations

from pathlib import Path

import pytest

WORLDS = Path(__file__).resolve().parents[2] / "resources" / "worlds"
HEADER = "#VRML_SIM R2025a utf8\n"


@pytest.fixture
def worlds_dir() -> Path:
    """Folder of the sample worlds used by the tests."""
    return WORLDS
