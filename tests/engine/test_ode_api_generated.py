"""engine/ode/__init__.py is the generator's output for the current modules.

The flat API is written out as explicit imports by scripts/gen_ode_api.py; this
regenerates the text in a fresh interpreter (the generator imports the API
modules without the package's ``__init__``) and compares it with the file.
"""

from __future__ import annotations

import pathlib
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parents[2]


def test_engine_ode_init_is_up_to_date():
    res = subprocess.run([sys.executable, "scripts/gen_ode_api.py", "--check"], cwd=ROOT,
                         capture_output=True, text=True)
    assert res.returncode == 0, (res.stderr or res.stdout
                                 or "engine/ode/__init__.py is stale: run "
                                    "python scripts/gen_ode_api.py")
