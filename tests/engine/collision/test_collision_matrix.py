"""Every pair of ODE's collision matrix against ODE 0.16.2's recorded contacts.

The 36 pairs among sphere, box, capsule, cylinder, plane, ray, convex and
trimesh at five placements, in both argument orders, under ode_ref's
acceptance rules (see matrix_check).
"""

from __future__ import annotations

import pytest

from tests.engine.collision import matrix_check as mc


def _params():
    for c1, c2, rec in mc.records():
        if mc.skipped(c1, c2, rec):
            continue
        yield pytest.param(c1, c2, rec, id=f"{c1}-{c2}-{rec['name']}")


@pytest.mark.parametrize("c1,c2,rec", list(_params()))
@pytest.mark.parametrize("order", ["forward", "reverse"])
def test_matrix_record(c1: str, c2: str, rec: dict, order: str) -> None:
    probs = mc.check_record(c1, c2, rec, order)
    assert not probs, probs


def test_every_pair_is_recorded() -> None:
    names = {f"{c1}-{c2}" for c1, c2, _ in mc.records()}
    assert len(names) == 36
