"""The import contracts of pyproject.toml ([tool.importlinter]) hold.

``lint-imports`` (import-linter) checks them on the source tree: the engine never
imports the app or a GUI library; engine packages and engine.ode's layers only
import downwards; the real ODE's binding and ours stay apart; no import cycles
between sibling modules or packages.
"""

from __future__ import annotations

import pathlib
import subprocess
import sys
import tomllib

ROOT = pathlib.Path(__file__).resolve().parents[1]

#: The contracts docs/architecture.md describes; removing one must be deliberate.
EXPECTED_CONTRACTS = {"engine-no-gui", "engine-packages", "ode-layers", "collision-layers",
                      "libode-apart", "no-cycles", "controller-package-alone"}


def test_the_documented_contracts_are_configured():
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())
    ids = {c["id"] for c in config["tool"]["importlinter"]["contracts"]}
    assert EXPECTED_CONTRACTS <= ids, f"missing contracts: {sorted(EXPECTED_CONTRACTS - ids)}"


def test_import_contracts_are_kept():
    code = ("import sys; from importlinter.cli import lint_imports; "
            "sys.exit(lint_imports(no_cache=True, no_logo=True))")
    res = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True)
    assert res.returncode == 0, "broken import contract(s):\n" + res.stdout + res.stderr


def test_architecture_doc_lists_every_contract():
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())
    doc = (ROOT / "docs" / "architecture.md").read_text()
    missing = [c["id"] for c in config["tool"]["importlinter"]["contracts"]
               if f"`{c['id']}`" not in doc]
    assert not missing, f"docs/architecture.md does not describe contracts {missing}"
