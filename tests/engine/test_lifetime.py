"""Destructions are counted and heard by listeners while they listen
(engine/ode/lifetime.py)."""

from __future__ import annotations

from engine import ode
from engine.ode.lifetime import DESTROYED, listening


def test_listeners_hear_each_destruction_only_while_listening() -> None:
    heard = []
    world = ode.dWorldCreate()
    space = ode.dSimpleSpaceCreate(None)
    geom = ode.dCreateSphere(space, 0.1)
    before = DESTROYED.value
    with listening(lambda: heard.append(DESTROYED.value)):
        ode.dGeomDestroy(geom)
        ode.dWorldDestroy(world)
    ode.dSpaceDestroy(space)
    assert heard == [before + 1, before + 2]
    assert DESTROYED.value == before + 3
