"""Fixtures of the reference scene tests: which engine runs a scene and what
its outputs are compared with (see tests/engine/live_reference.py)."""

from __future__ import annotations

from typing import NamedTuple

import pytest

from tests.engine import live_reference


class Comparison(NamedTuple):
    """A subject engine ("odeon" or "libode", the real ODE) and the source of
    its reference data ("recorded": tests/reference; "live": the real ODE now)."""

    subject: str
    source: str

    def run(self, scene: str, *args: object) -> dict:
        """Outputs of the scene on the subject engine (cached for the session)."""
        return live_reference.scene_output(self.subject, scene, *args)

    def reference(self, name: str) -> dict:
        """Reference data ``name`` (tests/reference/<name>.json's layout)."""
        return live_reference.reference(self.source, name)


COMPARISONS = {
    "odeon-vs-recorded": Comparison("odeon", "recorded"),
    "odeon-vs-live-ode": Comparison("odeon", "live"),
    "ode-vs-recorded": Comparison("libode", "recorded"),
}


@pytest.fixture(params=list(COMPARISONS.values()), ids=list(COMPARISONS))
def comparison(request: pytest.FixtureRequest) -> Comparison:
    """Each reference scene test runs three ways: our engine against the
    recorded ODE data, our engine against the real ODE run live, and the real
    ODE run live against its recording (the recording still holds)."""
    return request.param


@pytest.fixture(params=list(live_reference.BACKENDS))
def engine_name(request: pytest.FixtureRequest) -> str:
    """A scene test without reference data runs on both engines."""
    return request.param
