"""Settings shared by every test.

Property tests (hypothesis) run derandomized: each test draws the same
examples in every run, so the test run gives the same verdict on every
machine and every CI run (a fresh random search once hit a slow corner of
the example generator and held a CI run for many minutes). To explore new
examples locally, run with ``--hypothesis-profile=explore``.

The engine is imported before any test module: it sets numba's CPU target
(decision 0030), which a test module importing numba first would miss.
"""

from __future__ import annotations

from hypothesis import settings

import engine  # noqa: F401  (before any test module: it sets numba's CPU target)

settings.register_profile("odeon", derandomize=True, database=None)
settings.register_profile("explore", derandomize=False)
settings.load_profile("odeon")
