"""The batched collision path (engine/ode/collision/batch.py) against the per-pair one.

Random scenes of mixed primitives in every space type, nested spaces,
category/collide bits, disabled geoms, several geoms on one body and
offsets: the batched contacts must equal, bit for bit and in order, those of
dCollide on every pair dSpaceCollide reports (nested spaces opened by the
standard recursive callback). Bulk contact joints must equal the ones of
dJointCreateContact + dJointAttach, down to the step results.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import ode
from engine.ode.collision import batch
from engine.ode.collision.spaces.broadphase import (
    GatherCache,
    gather,
    overlapping_pairs,
    sweep_pairs,
)

SPACES = ("simple", "hash", "sap", "quadtree")


def make_space(kind: str, parent=None):
    if kind == "simple":
        return ode.dSimpleSpaceCreate(parent)
    if kind == "hash":
        return ode.dHashSpaceCreate(parent)
    if kind == "sap":
        return ode.dSweepAndPruneSpaceCreate(parent, ode.dSAP_AXES_XZY)
    return ode.dQuadTreeSpaceCreate(parent, (0, 0, 0), (4, 4, 4), 4)


def random_rotation(rng) -> np.ndarray:
    axis = rng.normal(size=3)
    return ode.dRFromAxisAndAngle(*axis, rng.uniform(0, np.pi))


def add_geom(rng, space, world, bodies, kind: str):
    """One geom of ``kind`` at a random pose in a 1.6 m cube, on a new or an
    existing body, or on none."""
    if kind == "sphere":
        g = ode.dCreateSphere(space, rng.uniform(0.1, 0.4))
    elif kind == "box":
        g = ode.dCreateBox(space, *rng.uniform(0.1, 0.7, 3))
    elif kind == "capsule":
        g = ode.dCreateCapsule(space, rng.uniform(0.05, 0.3), rng.uniform(0.1, 0.6))
    elif kind == "cylinder":
        g = ode.dCreateCylinder(space, rng.uniform(0.05, 0.3), rng.uniform(0.1, 0.6))
    elif kind == "ray":
        g = ode.dCreateRay(space, rng.uniform(0.3, 1.5))
    else:
        raise ValueError(kind)
    p = rng.uniform(-0.8, 0.8, 3)
    how = rng.integers(0, 4)
    if how == 0 or world is None:
        ode.dGeomSetPosition(g, *p)
        ode.dGeomSetRotation(g, random_rotation(rng))
        return g
    if how == 3 and bodies:
        # a second geom on an existing body, with an offset
        b = bodies[rng.integers(0, len(bodies))]
        ode.dGeomSetBody(g, b)
        ode.dGeomSetOffsetPosition(g, *rng.uniform(-0.3, 0.3, 3))
        ode.dGeomSetOffsetRotation(g, random_rotation(rng))
        return g
    b = ode.dBodyCreate(world)
    ode.dBodySetPosition(b, *p)
    ode.dBodySetRotation(b, random_rotation(rng))
    bodies.append(b)
    ode.dGeomSetBody(g, b)
    return g


def random_scene(seed: int, space_kind: str, n: int = 30, nested: bool = False,
                 kinds=("sphere", "box", "capsule", "cylinder")):
    rng = np.random.default_rng(seed)
    world = ode.dWorldCreate()
    top = make_space(space_kind)
    spaces = [top]
    if nested:
        spaces.append(make_space(SPACES[(SPACES.index(space_kind) + 1) % 4], top))
        spaces.append(make_space("simple", spaces[1]))
    ode.dCreatePlane(top, 0, 0, 1, -0.5)
    ode.dCreatePlane(spaces[-1], 0.3, 0.1, 1, -0.6)
    bodies: list = []
    geoms = []
    for _ in range(n):
        space = spaces[rng.integers(0, len(spaces))]
        g = add_geom(rng, space, world, bodies, kinds[rng.integers(0, len(kinds))])
        geoms.append(g)
        r = rng.uniform()
        if r < 0.1:
            ode.dGeomDisable(g)
        elif r < 0.25:
            ode.dGeomSetCategoryBits(g, int(rng.integers(1, 4)))
            ode.dGeomSetCollideBits(g, int(rng.integers(1, 4)))
    return world, top, bodies, geoms


def per_pair_contacts(space, max_contacts: int, world=None):
    """(rows (m, 9), [(g1, g2)]) from dSpaceCollide + dCollide, nested spaces
    opened by the standard recursive callback; pairs of bodies joined by a
    non-contact joint skipped when ``world`` is given."""
    rows, geoms = [], []

    def near(data, o1, o2):
        if ode.dGeomIsSpace(o1) or ode.dGeomIsSpace(o2):
            ode.dSpaceCollide2(o1, o2, None, near)
            if ode.dGeomIsSpace(o1):
                ode.dSpaceCollide(o1, None, near)
            if ode.dGeomIsSpace(o2):
                ode.dSpaceCollide(o2, None, near)
            return
        b1, b2 = ode.dGeomGetBody(o1), ode.dGeomGetBody(o2)
        if (world is not None and b1 is not None and b2 is not None
                and ode.dAreConnectedExcluding(b1, b2, ode.dJointTypeContact)):
            return
        for c in ode.dCollide(o1, o2, max_contacts):
            rows.append([*c.pos, *c.normal, c.depth, c.side1, c.side2])
            geoms.append((c.g1, c.g2))

    ode.dSpaceCollide(space, None, near)
    return np.array(rows, dtype=np.float64).reshape(-1, 9), geoms


def batched(space, max_contacts: int, skip: bool = False):
    sc = batch.space_contacts(space, max_contacts, skip)
    geoms = [(sc.ga.geoms[i], sc.ga.geoms[j]) for i, j in zip(sc.g1.tolist(), sc.g2.tolist(),
                                                               strict=True)]
    for q, pair in sc.extra.items():
        geoms[q] = pair
    return sc.rows, geoms


def assert_same(a, b):
    rows_a, geoms_a = a
    rows_b, geoms_b = b
    assert rows_a.shape == rows_b.shape
    assert rows_a.tobytes() == rows_b.tobytes()
    assert len(geoms_a) == len(geoms_b)
    assert all(x[0] is y[0] and x[1] is y[1] for x, y in zip(geoms_a, geoms_b, strict=True))


# ----------------------------------------------------------------------------- contacts
@pytest.mark.parametrize("space_kind", SPACES)
@pytest.mark.parametrize("seed", range(4))
def test_batched_contacts_equal_per_pair(space_kind, seed):
    world, top, _bodies, _geoms = random_scene(seed, space_kind)
    for maxc in (1, 3, 8):
        expected = per_pair_contacts(top, maxc)
        assert_same(batched(top, maxc), expected)
    assert expected[0].shape[0] > 0


@pytest.mark.parametrize("space_kind", SPACES)
def test_nested_spaces(space_kind):
    world, top, _bodies, _geoms = random_scene(7, space_kind, n=40, nested=True)
    expected = per_pair_contacts(top, 4)
    assert expected[0].shape[0] > 0
    assert_same(batched(top, 4), expected)


def test_python_fallback_classes_keep_order():
    # rays have no compiled kernel here: their pairs go through dCollide in place
    world, top, _bodies, _geoms = random_scene(3, "hash", n=40,
                                               kinds=("sphere", "box", "ray", "capsule"))
    sc = batch.space_contacts(top, 4)
    assert (sc.counts == batch.PAIR_PYTHON).sum() == 0   # filled in
    expected = per_pair_contacts(top, 4)
    assert_same(batched(top, 4), expected)
    cls = sc.ga.cls
    assert np.any(cls[sc.g1] == ode.dRayClass) or np.any(cls[sc.g2] == ode.dRayClass)


def test_collider_override_is_used():
    world, top, _bodies, _geoms = random_scene(5, "simple", n=25)
    calls = []

    def fake(o1, o2, n):
        calls.append((o1, o2))
        return [ode.dContactGeom((1.0, 2.0, 3.0), (0.0, 0.0, 1.0), 0.01, o1, o2)]

    ode.dSetColliderOverride(ode.dSphereClass, ode.dBoxClass, fake)
    try:
        table = batch.kernel_table()
        assert table[ode.dSphereClass, ode.dBoxClass] == batch.K_FALLBACK
        assert table[ode.dBoxClass, ode.dSphereClass] == batch.K_FALLBACK
        expected = per_pair_contacts(top, 4)
        n_calls = len(calls)
        assert_same(batched(top, 4), expected)
        assert n_calls > 0 and len(calls) == 2 * n_calls
    finally:
        ode.dSetColliderOverride(ode.dSphereClass, ode.dBoxClass, None)
    assert batch.kernel_table()[ode.dSphereClass, ode.dBoxClass] == batch.K_SB


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 10**6), st.sampled_from(SPACES), st.integers(1, 6))
def test_random_scenes_property(seed, space_kind, maxc):
    world, top, _bodies, _geoms = random_scene(seed, space_kind, n=20)
    assert_same(batched(top, maxc), per_pair_contacts(top, maxc))


def test_sweep_pairs_equal_overlapping_pairs():
    rng = np.random.default_rng(0)
    for trial in range(30):
        n = int(rng.integers(0, 60))
        c = rng.uniform(-2, 2, (n, 3))
        h = rng.uniform(0.0, 0.6, (n, 3))
        aabb = np.empty((n, 6))
        aabb[:, 0::2] = c - h
        aabb[:, 1::2] = c + h
        if n > 3:
            aabb[0] = [-np.inf, np.inf, -np.inf, np.inf, -np.inf, 0.1]     # a plane
            aabb[1, 1] = np.inf
            aabb[2] = aabb[3]                                               # touching copies
        enabled = rng.uniform(size=n) > 0.1
        body = rng.integers(-1, 5, n)
        cat = rng.integers(0, 4, n).astype(np.uint64)
        col = rng.integers(0, 4, n).astype(np.uint64)
        a = overlapping_pairs(aabb, enabled, body, cat, col)
        b = sweep_pairs(aabb, enabled, body, cat, col)
        assert a.tolist() == b.tolist(), trial


def test_gathered_bounds_match_compute_aabb():
    world, top, _bodies, geoms = random_scene(11, "simple", n=40)
    ga = gather(top.ordered())
    for g, box in zip(ga.geoms, ga.aabb, strict=True):
        np.testing.assert_allclose(box, g.compute_aabb(), rtol=0, atol=1e-12)
        if g.PLACEABLE:
            assert np.array_equal(ga.pos[ga.geoms.index(g)], g.pos)


# ----------------------------------------------------------------------------- joined bodies
def test_joined_bodies_are_skipped():
    world = ode.dWorldCreate()
    space = ode.dSimpleSpaceCreate(None)
    bodies = []
    for i in range(4):
        b = ode.dBodyCreate(world)
        ode.dBodySetPosition(b, 0.3 * i, 0, 0)
        g = ode.dCreateSphere(space, 0.2)
        ode.dGeomSetBody(g, b)
        bodies.append(b)
    j = ode.dJointCreateBall(world, None)
    ode.dJointAttach(j, bodies[1], bodies[2])
    ode.dJointDisable(j)      # disabled joints still count, as in ODE
    c = ode.dJointCreateContact(world, None, ode.dContact())
    ode.dJointAttach(c, bodies[0], bodies[1])     # contact joints do not
    h = ode.dJointCreateHinge(world, None)
    ode.dJointAttach(h, bodies[3], None)          # a joint to the world does not
    expected = per_pair_contacts(space, 4, world)
    got = batched(space, 4, skip=True)
    assert_same(got, expected)
    pairs = {frozenset((ode.dGeomGetBody(a), ode.dGeomGetBody(b))) for a, b in got[1]}
    assert frozenset((bodies[1], bodies[2])) not in pairs
    assert frozenset((bodies[0], bodies[1])) in pairs
    assert frozenset((bodies[2], bodies[3])) in pairs
    sc = batch.space_contacts(space, 4, True)
    assert (sc.counts == batch.PAIR_CONNECTED).sum() == 1
    # without skipping, the joined pair collides
    assert batched(space, 4)[0].shape[0] == got[0].shape[0] + 1


# ----------------------------------------------------------------------------- bulk joints
def _surface():
    return ode.dSurfaceParameters(mode=ode.dContactApprox1 | ode.dContactBounce
                                  | ode.dContactSoftCFM, mu=0.7, bounce=0.2,
                                  bounce_vel=0.05, soft_cfm=1e-5)


def _scene_pair(seed):
    return [random_scene(seed, "hash", n=30) for _ in range(2)]


def _python_joints(world, group, space, surface, maxc):
    def near(data, o1, o2):
        b1, b2 = ode.dGeomGetBody(o1), ode.dGeomGetBody(o2)
        if b1 is not None and b2 is not None and ode.dAreConnectedExcluding(
                b1, b2, ode.dJointTypeContact):
            return
        for cg in ode.dCollide(o1, o2, maxc):
            j = ode.dJointCreateContact(world, group, ode.dContact(surface, cg))
            ode.dJointAttach(j, b1, b2)

    ode.dSpaceCollide(space, None, near)


@pytest.mark.parametrize("quick", [False, True])
def test_bulk_joints_equal_created_ones(quick):
    (w1, s1, b1, _g1), (w2, s2, b2, _g2) = _scene_pair(21)
    for w in (w1, w2):
        ode.dWorldSetGravity(w, 0, 0, -9.81)
    # a few unrelated joints first, so rows are reused from the free list
    for w, bs in ((w1, b1), (w2, b2)):
        tmp = [ode.dJointCreateBall(w, None) for _ in range(3)]
        ode.dJointDestroy(tmp[1])
        ode.dJointAttach(tmp[0], bs[0], bs[1])
    g1, g2 = ode.dJointGroupCreate(0), ode.dJointGroupCreate(0)
    surface = _surface()
    nat = ode.NativeCollider(w2, g2, 5, surface)
    step = ode.dWorldQuickStep if quick else ode.dWorldStep
    for it in range(6):
        ode.dJointGroupEmpty(g1)
        ode.dJointGroupEmpty(g2)
        _python_joints(w1, g1, s1, surface, 5)
        n = nat.collide(s2)
        assert n == len(g1.joints) == len(g2.joints) > 0
        j1, j2 = w1.joints, w2.joints
        assert j1.count == j2.count and j1.free == j2.free
        k = j1.count
        for name in ("type", "body", "flags", "seq", "attach_seq", "data", "idata"):
            assert getattr(j1, name)[:k].tobytes() == getattr(j2, name)[:k].tobytes(), name
        for a, b in zip(g1.joints, g2.joints, strict=True):
            assert a.index == b.index and a.alive and b.alive
            assert ode.dJointGetType(b) == ode.dJointTypeContact
            assert (ode.dJointGetBody(a, 0) is None) == (ode.dJointGetBody(b, 0) is None)
        if it % 2:
            # the bodies' joint lists as the API shows them (batch joints are
            # put into them on this first query; even passes never ask)
            for x, y in zip(b1, b2, strict=True):
                assert ode.dBodyGetNumJoints(x) == ode.dBodyGetNumJoints(y)
                assert [ode.dBodyGetJoint(x, i).index for i in range(ode.dBodyGetNumJoints(x))] \
                    == [ode.dBodyGetJoint(y, i).index for i in range(ode.dBodyGetNumJoints(y))]
        # QuickStep draws from ODE's global dRand: the same state for both
        ode.dRandSetSeed(it)
        step(w1, 0.01)
        ode.dRandSetSeed(it)
        step(w2, 0.01)
        for x, y in zip(b1, b2, strict=True):
            assert ode.dBodyGetPosition(x).tobytes() == ode.dBodyGetPosition(y).tobytes()
            assert ode.dBodyGetAngularVel(x).tobytes() == ode.dBodyGetAngularVel(y).tobytes()


def test_group_empty_detaches_bulk_joints():
    world, top, bodies, _geoms = random_scene(2, "simple", n=25)
    group = ode.dJointGroupCreate(0)
    nat = ode.NativeCollider(world, group, 4, _surface())
    n = nat.collide(top)
    assert n > 0
    made = list(group.joints)
    assert sum(ode.dBodyGetNumJoints(b) for b in bodies) > 0
    ode.dJointGroupEmpty(group)
    assert all(ode.dBodyGetNumJoints(b) == 0 for b in bodies)
    assert not any(j.alive for j in made)
    assert nat.collide(top) == n
    ode.dJointGroupDestroy(group)


def test_changes_between_passes_are_seen():
    """The gathered arrays are reused between passes only while nothing changed."""
    world, top, bodies, geoms = random_scene(13, "hash", n=30)
    assert_same(batched(top, 4), per_pair_contacts(top, 4))
    rng = np.random.default_rng(5)
    for step in range(12):
        g = geoms[rng.integers(0, len(geoms))]
        what = step % 6
        if what == 0:
            ode.dGeomDisable(g) if ode.dGeomIsEnabled(g) else ode.dGeomEnable(g)
        elif what == 1:
            ode.dGeomSetCollideBits(g, int(rng.integers(0, 3)))
        elif what == 2 and ode.dGeomGetClass(g) == ode.dSphereClass:
            ode.dGeomSphereSetRadius(g, rng.uniform(0.1, 0.6))
        elif what == 2 and ode.dGeomGetClass(g) == ode.dBoxClass:
            ode.dGeomBoxSetLengths(g, *rng.uniform(0.2, 0.9, 3))
        elif what == 2 and ode.dGeomGetClass(g) in (ode.dCapsuleClass, ode.dCylinderClass):
            set_params = (ode.dGeomCapsuleSetParams if ode.dGeomGetClass(g) == ode.dCapsuleClass
                          else ode.dGeomCylinderSetParams)
            r = ode.dGeomCapsuleGetParams(g)[0] if ode.dGeomGetClass(g) == ode.dCapsuleClass \
                else ode.dGeomCylinderGetParams(g)[0]
            set_params(g, r, rng.uniform(0.5, 1.2))      # same radius object, new length
        elif what == 3:
            ode.dGeomSetBody(g, bodies[rng.integers(0, len(bodies))])
        elif what == 4 and ode.dGeomGetBody(g) is not None:
            ode.dGeomSetOffsetPosition(g, *rng.uniform(-0.2, 0.2, 3))
        elif what == 5:
            ode.dGeomDestroy(g)
            geoms.remove(g)
        for b in bodies:
            ode.dBodySetPosition(b, *(ode.dBodyGetPosition(b) + rng.uniform(-0.05, 0.05, 3)))
        got = batched(top, 4)                 # with what the space kept from the last pass
        top.gather_cache = GatherCache()      # the reference starts afresh
        assert_same(got, per_pair_contacts(top, 4))


def test_bodies_of_two_worlds_in_one_space():
    world, top, bodies, geoms = random_scene(17, "simple", n=20)
    other = ode.dWorldCreate()
    rng = np.random.default_rng(2)
    for _ in range(6):
        b = ode.dBodyCreate(other)
        ode.dBodySetPosition(b, *rng.uniform(-0.5, 0.5, 3))
        g = ode.dCreateSphere(top, 0.3)
        ode.dGeomSetBody(g, b)
    sc = batch.space_contacts(top, 4)
    assert sc.ga.world is None
    assert_same(batched(top, 4), per_pair_contacts(top, 4))
    assert_same(batched(top, 4, skip=True), per_pair_contacts(top, 4, world))


def test_per_pair_surfaces():
    """A surface (and mode) per candidate pair, as a near callback choosing it per pair."""
    (w1, s1, _b1, _g1), (w2, s2, _b2, _g2) = _scene_pair(8)
    grp1, grp2 = ode.dJointGroupCreate(0), ode.dJointGroupCreate(0)
    sc = batch.space_contacts(s2, 3, True)
    p = sc.pairs.shape[0]
    rng = np.random.default_rng(4)
    table = np.zeros((p, 14))
    table[:, 0] = rng.uniform(0.1, 1.0, p)            # mu
    table[:, 6] = rng.uniform(0.0, 0.5, p)            # bounce
    modes = np.where(rng.uniform(size=p) < 0.5, ode.dContactBounce, ode.dContactApprox1)
    calls = [0]

    def near(data, o1, o2):
        k = calls[0]
        calls[0] += 1
        b1, b2 = ode.dGeomGetBody(o1), ode.dGeomGetBody(o2)
        if b1 is not None and b2 is not None and ode.dAreConnectedExcluding(
                b1, b2, ode.dJointTypeContact):
            return
        surf = ode.dSurfaceParameters(mode=int(modes[k]), mu=float(table[k, 0]),
                                      bounce=float(table[k, 6]))
        for cg in ode.dCollide(o1, o2, 3):
            j = ode.dJointCreateContact(w1, grp1, ode.dContact(surf, cg))
            ode.dJointAttach(j, b1, b2)

    ode.dSpaceCollide(s1, None, near)
    assert calls[0] == p
    n = batch.create_contact_joints(w2, grp2, sc, table, modes)
    assert n == len(grp1.joints) > 0
    k = w1.joints.count
    for name in ("body", "flags", "data", "idata", "attach_seq"):
        assert getattr(w1.joints, name)[:k].tobytes() == getattr(w2.joints, name)[:k].tobytes()
