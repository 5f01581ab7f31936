"""No dead code: vulture, with pyproject's ``[tool.vulture]`` settings and
vulture_whitelist.py, finds nothing unused in engine, app and plugins."""

from __future__ import annotations

import subprocess
import sys
import tomllib
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


def _vulture(*args: str) -> subprocess.CompletedProcess:
    """vulture run from the repository root (so it reads pyproject.toml)."""
    return subprocess.run([sys.executable, "-m", "vulture", *args], cwd=REPO,
                          capture_output=True, text=True, timeout=300)


def test_no_dead_code():
    run = _vulture()
    assert run.stdout + run.stderr == ""
    assert run.returncode == 0


def test_the_settings_cover_the_product_and_the_whitelist():
    config = tomllib.loads((REPO / "pyproject.toml").read_text())["tool"]["vulture"]
    assert config["paths"] == ["engine", "app", "plugins", "vulture_whitelist.py"]
    assert config["min_confidence"] <= 60


def test_an_unused_function_is_reported(tmp_path):
    module = tmp_path / "orphan.py"
    module.write_text("def used() -> int:\n    return 1\n\n\n"
                      "def never_called() -> int:\n    return used()\n")
    run = _vulture(str(module), "--min-confidence", "60")
    assert run.returncode == 3
    assert "unused function 'never_called'" in run.stdout
    assert "'used'" not in run.stdout
