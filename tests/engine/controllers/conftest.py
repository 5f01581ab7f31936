"""The ``run_world`` fixture: start a world with its controllers in a project
folder under ``tmp_path``; every run started is stopped at the end."""

from __future__ import annotations

import pytest

from tests.engine.controllers.project import make_project, start


@pytest.fixture
def run_world(tmp_path):
    runs = []

    def go(world, controllers, **options):
        run = start(make_project(tmp_path, world, controllers), **options)
        runs.append(run)
        return run
    yield go
    for run in runs:
        run.stop()
