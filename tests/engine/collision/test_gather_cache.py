"""gather with a space's cache: passes without geom edits read nothing from the
geoms (only the bodies move), and every kind of edit is seen by the next pass."""

from __future__ import annotations

import numpy as np
import pytest

from engine import ode
from engine.ode.collision.geoms.geom import geom_edits
from engine.ode.collision.spaces import gather as gather_module
from engine.ode.collision.spaces.broadphase import GatherCache, gather


def _same_arrays(a, b) -> None:
    for name in ("cls", "pos", "R", "size", "body", "bkey", "enabled", "cat", "col", "aabb"):
        assert np.array_equal(getattr(a, name), getattr(b, name)), name


@pytest.fixture
def scene():
    world = ode.dWorldCreate()
    space = ode.dHashSpaceCreate(None)
    rng = np.random.default_rng(4)
    ode.dCreatePlane(space, 0, 0, 1, 0)
    ode.dCreateBox(space, 1.0, 2.0, 0.5)                       # static, bodyless
    geoms = []
    for k in range(12):
        b = ode.dBodyCreate(world)
        ode.dBodySetPosition(b, *rng.uniform(-1, 1, 3))
        g = ode.dCreateSphere(space, 0.2) if k % 2 else ode.dCreateBox(space, 0.3, 0.2, 0.1)
        ode.dGeomSetBody(g, b)
        if k % 3 == 0:
            ode.dGeomSetOffsetPosition(g, 0.1, -0.05, 0.2)
        geoms.append(g)
    yield world, space, geoms
    ode.dSpaceDestroy(space)
    ode.dWorldDestroy(world)


def test_passes_without_edits_read_no_attribute(scene, monkeypatch):
    world, space, geoms = scene
    cache = GatherCache()
    gather(space.ordered(), cache)

    real = gather_module._read_geoms
    reads = []

    def counted(c, geoms):
        reads.append(c)
        real(c, geoms)

    monkeypatch.setattr(gather_module, "_read_geoms", counted)
    b = ode.dGeomGetBody(geoms[0])
    for _ in range(3):
        ode.dBodySetPosition(b, *(ode.dBodyGetPosition(b) + 0.1))    # bodies move freely
        space.locked = True                                        # collide() toggles this
        space.locked = False
        got = gather(space.ordered(), cache)
        _same_arrays(got, gather(space.ordered()))          # a fresh read
    assert reads and all(c is not cache for c in reads)


@pytest.mark.parametrize("edit", ["enable", "bits", "radius", "lengths", "body", "offset",
                                  "static_pose", "add", "remove"])
def test_each_edit_is_seen(scene, edit):
    world, space, geoms = scene
    cache = GatherCache()
    gather(space.ordered(), cache)
    before = geom_edits()
    g = geoms[2]
    if edit == "enable":
        ode.dGeomDisable(g)
    elif edit == "bits":
        ode.dGeomSetCategoryBits(g, 2)
    elif edit == "radius":
        ode.dGeomSphereSetRadius(geoms[1], 0.7)
    elif edit == "lengths":
        ode.dGeomBoxSetLengths(g, 0.9, 0.8, 0.7)
    elif edit == "body":
        ode.dGeomSetBody(g, ode.dGeomGetBody(geoms[5]))
    elif edit == "offset":
        ode.dGeomSetOffsetPosition(g, 0.3, 0.0, 0.0)
    elif edit == "static_pose":
        static = [s for s in space.ordered() if s.body is None and s.PLACEABLE][0]
        ode.dGeomSetPosition(static, 3.0, 2.0, 1.0)
    elif edit == "add":
        ode.dCreateSphere(space, 0.4)
    else:
        ode.dGeomDestroy(geoms[7])
    assert geom_edits() != before
    _same_arrays(gather(space.ordered(), cache), gather(space.ordered()))
