"""Spaces: every space type finds exactly the simple space's pairs (and the
O(n²) brute force of ODE's demo_space), plus membership, nesting,
dSpaceCollide2, cleanup and locking."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import ode

SPACE_MAKERS = {
    "simple": lambda parent=None: ode.dSimpleSpaceCreate(parent),
    "hash": lambda parent=None: ode.dHashSpaceCreate(parent),
    "quadtree": lambda parent=None: ode.dQuadTreeSpaceCreate(parent, [0, 0, 0], [8, 8, 8], 4),
    "sap": lambda parent=None: ode.dSweepAndPruneSpaceCreate(parent, ode.dSAP_AXES_XYZ),
}


@pytest.fixture
def world():
    w = ode.dWorldCreate()
    yield w
    ode.dWorldDestroy(w)


def collide_pairs(space) -> list[tuple]:
    """The pairs dSpaceCollide reports, as (o1, o2) in call order."""
    out: list[tuple] = []
    ode.dSpaceCollide(space, None, lambda data, a, b: out.append((a, b)))
    return out


def brute_force(geoms) -> set[frozenset]:
    """ODE's rules tested on every pair (demo_space's check)."""
    found = set()
    for a, b in itertools.combinations(geoms, 2):
        if not (ode.dGeomIsEnabled(a) and ode.dGeomIsEnabled(b)):
            continue
        ba, bb = ode.dGeomGetBody(a), ode.dGeomGetBody(b)
        if ba is not None and ba is bb:
            continue
        if not (ode.dGeomGetCategoryBits(a) & ode.dGeomGetCollideBits(b)
                or ode.dGeomGetCategoryBits(b) & ode.dGeomGetCollideBits(a)):
            continue
        x, y = ode.dGeomGetAABB(a), ode.dGeomGetAABB(b)
        if np.all(x[0::2] <= y[1::2]) and np.all(y[0::2] <= x[1::2]):
            found.add(frozenset((id(a), id(b))))
    return found


# ----------------------------------------------------------------------------- random scenes
_grid = st.integers(-40, 40).map(lambda k: k * 0.25)  # exact touching is common
_size = st.integers(0, 24).map(lambda k: k * 0.25)
_geom = st.tuples(
    st.sampled_from(["sphere", "box", "capsule", "plane", "ray"]),
    st.tuples(_grid, _grid, _grid),
    st.tuples(_size, _size, _size),
    st.integers(-1, 3),  # body slot (-1: none)
    st.booleans(),  # enabled
    st.sampled_from([(1 << 64) - 1, 1, 2, 3]),  # category bits
    st.sampled_from([(1 << 64) - 1, 1, 2, 0]),  # collide bits
    st.floats(0.0, 3.0),  # rotation angle about (1, 1, 0)
)


def build_scene(world, space, specs) -> list:
    bodies = [ode.dBodyCreate(world) for _ in range(4)]
    for k, b in enumerate(bodies):
        ode.dBodySetPosition(b, 0.5 * k, -0.25 * k, 0.0)
    geoms = []
    for kind, pos, size, slot, enabled, cat, col, angle in specs:
        if kind == "sphere":
            g = ode.dCreateSphere(space, size[0])
        elif kind == "box":
            g = ode.dCreateBox(space, *size)
        elif kind == "capsule":
            g = ode.dCreateCapsule(space, size[0], size[1])
        elif kind == "ray":
            g = ode.dCreateRay(space, size[0])
        else:
            g = ode.dCreatePlane(space, 0, 0, 1, pos[2])
        if kind != "plane":
            if slot >= 0:
                ode.dGeomSetBody(g, bodies[slot])
                ode.dGeomSetOffsetWorldPosition(g, *pos)
            else:
                ode.dGeomSetPosition(g, *pos)
            ode.dGeomSetRotation(g, ode.dRFromAxisAndAngle(1, 1, 0, angle))
        if not enabled:
            ode.dGeomDisable(g)
        ode.dGeomSetCategoryBits(g, cat)
        ode.dGeomSetCollideBits(g, col)
        geoms.append(g)
    return geoms


def _replicate(world, make_space, specs):
    space = make_space()
    geoms = build_scene(world, space, specs)
    return space, geoms


@settings(max_examples=60, deadline=None)
@given(specs=st.lists(_geom, min_size=0, max_size=40),
       levels=st.tuples(st.integers(-4, 2), st.integers(-1, 4)),
       quad=st.tuples(st.tuples(_grid, _grid), st.tuples(_size, _size), st.integers(0, 6)),
       axes=st.sampled_from(["XYZ", "XZY", "YXZ", "YZX", "ZXY", "ZYX"]))
def test_all_spaces_find_the_simple_space_pairs(specs, levels, quad, axes):
    world = ode.dWorldCreate()
    try:
        lo, hi = min(levels), max(levels)
        (cx, cy), (ex, ey), depth = quad

        def hashed():
            s = ode.dHashSpaceCreate(None)
            ode.dHashSpaceSetLevels(s, lo, hi)
            return s

        makers = [
            lambda: ode.dSimpleSpaceCreate(None),
            hashed,
            lambda: ode.dHashSpaceCreate(None),
            lambda: ode.dQuadTreeSpaceCreate(None, [cx, cy, 0], [ex, ey, 1], depth),
            lambda: ode.dQuadTreeSpaceCreate(None, [0, 0, 0], [10, 10, 10], 5),
            lambda: ode.dSweepAndPruneSpaceCreate(None, getattr(ode, f"dSAP_AXES_{axes}")),
        ]
        results = []
        for make in makers:
            space, geoms = _replicate(world, make, specs)
            ordered = [ode.dSpaceGetGeom(space, i) for i in range(len(geoms))]
            pairs = space.candidate_pairs(ordered)
            assert pairs.shape[1] == 2 and pairs.dtype == np.int64
            as_list = pairs.tolist()
            assert as_list == sorted(as_list)
            assert all(i < j for i, j in as_list)
            results.append(as_list)
            # dSpaceCollide reports the same pairs, in that order
            index = {id(g): k for k, g in enumerate(ordered)}
            reported = [(index[id(a)], index[id(b)]) for a, b in collide_pairs(space)]
            assert reported == [tuple(p) for p in as_list]
            bf = brute_force(geoms)
            assert {frozenset((id(ordered[i]), id(ordered[j]))) for i, j in as_list} == bf
            ode.dSpaceDestroy(space)
        assert all(r == results[0] for r in results[1:])
    finally:
        ode.dWorldDestroy(world)


@pytest.mark.parametrize("kind", sorted(SPACE_MAKERS))
def test_larger_random_scene(world, kind):
    rng = np.random.default_rng(7)
    space = SPACE_MAKERS[kind]()
    geoms = []
    for _ in range(400):
        g = ode.dCreateBox(space, *rng.uniform(0.01, 2.0, 3))
        ode.dGeomSetPosition(g, *rng.uniform(-10, 10, 3))
        geoms.append(g)
    big = ode.dCreateSphere(space, 3000.0)  # above the hash space's top level
    geoms.append(big)
    pairs = collide_pairs(space)
    assert {frozenset((id(a), id(b))) for a, b in pairs} == brute_force(geoms)
    assert sum(1 for a, b in pairs if big in (a, b)) == 400


# ----------------------------------------------------------------------------- rules
@pytest.mark.parametrize("kind", sorted(SPACE_MAKERS))
def test_rules(world, kind):
    space = SPACE_MAKERS[kind]()
    a = ode.dCreateSphere(space, 1.0)
    b = ode.dCreateSphere(space, 1.0)
    c = ode.dCreateSphere(space, 1.0)
    assert len(collide_pairs(space)) == 3
    ode.dGeomDisable(c)
    assert len(collide_pairs(space)) == 1
    ode.dGeomEnable(c)
    body = ode.dBodyCreate(world)
    ode.dGeomSetBody(a, body)
    ode.dGeomSetBody(b, body)
    assert {frozenset(p) for p in collide_pairs(space)} == {frozenset((a, c)), frozenset((b, c))}
    ode.dGeomSetCategoryBits(c, 0b10)
    ode.dGeomSetCollideBits(c, 0b10)
    ode.dGeomSetCategoryBits(a, 0b01)
    ode.dGeomSetCollideBits(a, 0b01)
    assert [set(p) for p in collide_pairs(space)] == [{b, c}]
    ode.dGeomSetCollideBits(a, 0b10)  # one direction is enough
    assert len(collide_pairs(space)) == 2


@pytest.mark.parametrize("kind", sorted(SPACE_MAKERS))
def test_touching_counts(kind):
    space = SPACE_MAKERS[kind]()
    a = ode.dCreateBox(space, 1, 1, 1)
    b = ode.dCreateBox(space, 1, 1, 1)
    ode.dGeomSetPosition(b, 1.0, 0.0, 0.0)  # faces touch at x = 0.5
    assert len(collide_pairs(space)) == 1
    ode.dGeomSetPosition(b, 1.0 + 1e-12, 0.0, 0.0)
    assert collide_pairs(space) == []
    del a


# ----------------------------------------------------------------------------- nesting
@pytest.mark.parametrize("outer, inner", [("simple", "hash"), ("hash", "quadtree"),
                                          ("sap", "simple"), ("quadtree", "sap")])
def test_nested_space_is_a_pair(outer, inner):
    top = SPACE_MAKERS[outer]()
    sub = SPACE_MAKERS[inner](top)
    assert ode.dGeomGetSpace(sub) is top
    g1 = ode.dCreateSphere(sub, 1.0)
    g2 = ode.dCreateSphere(sub, 1.0)
    ode.dGeomSetPosition(g2, 0.5, 0, 0)
    other = ode.dCreateBox(top, 1, 1, 1)
    far = ode.dCreateSphere(top, 0.1)
    ode.dGeomSetPosition(far, 50, 0, 0)
    pairs = collide_pairs(top)
    assert [set(p) for p in pairs] == [{sub, other}]
    inner_pairs = []

    def near(data, a, b):
        if ode.dGeomIsSpace(a) or ode.dGeomIsSpace(b):
            ode.dSpaceCollide2(a, b, data, near)
        else:
            inner_pairs.append((a, b))

    ode.dSpaceCollide(top, None, near)
    assert {frozenset(p) for p in inner_pairs} == {frozenset((g1, other)),
                                                   frozenset((g2, other))}
    assert [set(p) for p in collide_pairs(sub)] == [{g1, g2}]


def test_collide2_geom_vs_space_keeps_sides():
    s = ode.dHashSpaceCreate(None)
    g1 = ode.dCreateSphere(s, 1.0)
    g2 = ode.dCreateSphere(s, 1.0)
    ode.dGeomSetPosition(g2, 10, 0, 0)
    probe = ode.dCreateBox(None, 1, 1, 1)
    got = []
    ode.dSpaceCollide2(probe, s, None, lambda d, a, b: got.append((a, b)))
    assert got == [(probe, g1)]
    got.clear()
    ode.dSpaceCollide2(s, probe, None, lambda d, a, b: got.append((a, b)))
    assert got == [(g1, probe)]
    got.clear()
    ode.dGeomSetPosition(probe, 30, 0, 0)  # outside the space's bounds
    ode.dSpaceCollide2(s, probe, None, lambda d, a, b: got.append((a, b)))
    assert got == []


def test_collide2_geom_vs_geom_and_same_space():
    a = ode.dCreateSphere(None, 1.0)
    b = ode.dCreateSphere(None, 1.0)
    got = []
    ode.dSpaceCollide2(a, b, "d", lambda d, x, y: got.append((d, x, y)))
    assert got == [("d", a, b)]
    s = ode.dSweepAndPruneSpaceCreate(None, ode.dSAP_AXES_ZYX)
    c1, c2 = ode.dCreateSphere(s, 1.0), ode.dCreateSphere(s, 1.0)
    got.clear()
    ode.dSpaceCollide2(s, s, None, lambda d, x, y: got.append({x, y}))
    assert got == [{c1, c2}]


def _two_spaces():
    s1 = ode.dSimpleSpaceCreate(None)
    s2 = ode.dHashSpaceCreate(None)
    a1, a2 = ode.dCreateSphere(s1, 1.0), ode.dCreateSphere(s1, 1.0)
    b1 = ode.dCreateSphere(s2, 1.0)
    ode.dGeomSetPosition(a2, 0.5, 0, 0)
    return s1, s2, a1, a2, b1


def test_collide2_space_vs_space_equal_sublevels():
    s1, s2, a1, a2, b1 = _two_spaces()
    calls = []
    ode.dSpaceCollide2(s1, s2, None, lambda d, x, y: calls.append((x, y)))
    # ODE 0.16.2 (recorded): each geom of one space against the other space's geoms
    assert calls == [(a2, b1), (a1, b1)]
    calls.clear()
    ode.dSpaceCollide2(s2, s1, None, lambda d, x, y: calls.append((x, y)))
    assert {frozenset(c) for c in calls} == {frozenset((b1, a2)), frozenset((b1, a1))}
    assert all(x is b1 for x, _ in calls)


def test_collide2_disabled_probe_as_ode():
    s1, _, a1, a2, _ = _two_spaces()
    c, d = ode.dCreateSphere(None, 1.0), ode.dCreateSphere(None, 1.0)
    ode.dGeomDisable(c)
    calls = []
    # ODE 0.16.2 (recorded): one call for geom-geom, two for geom-space
    ode.dSpaceCollide2(c, d, None, lambda dd, x, y: calls.append((x, y)))
    ode.dSpaceCollide2(c, s1, None, lambda dd, x, y: calls.append((x, y)))
    assert len(calls) == 3


def test_collide2_space_vs_space_sublevels():
    s1, s2, a1, a2, b1 = _two_spaces()
    calls = []
    ode.dSpaceSetSublevel(s2, 1)
    assert ode.dSpaceGetSublevel(s2) == 1
    ode.dSpaceCollide2(s1, s2, None, lambda d, x, y: calls.append((x, y)))
    # the deeper space is opened: its geoms against s1
    assert calls == [(s1, b1)]
    calls.clear()
    ode.dSpaceSetSublevel(s1, 2)
    ode.dSpaceCollide2(s1, s2, None, lambda d, x, y: calls.append((x, y)))
    assert calls == [(a2, s2), (a1, s2)]


# ----------------------------------------------------------------------------- membership
@pytest.mark.parametrize("kind", sorted(SPACE_MAKERS))
def test_add_remove_query_get(kind):
    s = SPACE_MAKERS[kind]()
    assert ode.dSpaceGetNumGeoms(s) == 0
    gs = [ode.dCreateSphere(None, 1.0) for _ in range(3)]
    for g in gs:
        ode.dSpaceAdd(s, g)
    assert ode.dSpaceGetNumGeoms(s) == 3
    assert [ode.dSpaceGetGeom(s, i) for i in range(3)] == gs[::-1]  # newest first
    assert all(ode.dSpaceQuery(s, g) == 1 for g in gs)
    ode.dSpaceRemove(s, gs[1])
    assert ode.dSpaceQuery(s, gs[1]) == 0
    assert ode.dGeomGetSpace(gs[1]) is None
    assert [ode.dSpaceGetGeom(s, i) for i in range(2)] == [gs[2], gs[0]]
    with pytest.raises(ode.ODEError, match="dSpaceGetGeom"):
        ode.dSpaceGetGeom(s, 2)
    with pytest.raises(ode.ODEError, match="dSpaceRemove"):
        ode.dSpaceRemove(s, gs[1])


def test_geom_in_two_spaces_raises():
    s1, s2 = ode.dHashSpaceCreate(None), ode.dSimpleSpaceCreate(None)
    g = ode.dCreateSphere(s1, 1.0)
    with pytest.raises(ode.ODEError, match="already in a space"):
        ode.dSpaceAdd(s2, g)
    with pytest.raises(ode.ODEError):
        ode.dSpaceAdd(s1, s1)


@pytest.mark.parametrize("kind", sorted(SPACE_MAKERS))
def test_cleanup_mode(kind):
    s = SPACE_MAKERS[kind]()
    assert ode.dSpaceGetCleanup(s) == 1
    g = ode.dCreateSphere(s, 1.0)
    ode.dSpaceDestroy(s)
    with pytest.raises(ode.ODEError, match="destroyed"):
        ode.dGeomGetAABB(g)
    s = SPACE_MAKERS[kind]()
    ode.dSpaceSetCleanup(s, 0)
    g = ode.dCreateSphere(s, 1.0)
    ode.dSpaceDestroy(s)
    assert ode.dGeomGetSpace(g) is None
    assert ode.dGeomSpherePointDepth(g, 0, 0, 0) == 1.0


@pytest.mark.parametrize("kind", sorted(SPACE_MAKERS))
def test_changing_space_during_collide_raises(kind):
    s = SPACE_MAKERS[kind]()
    ode.dCreateSphere(s, 1.0)
    ode.dCreateSphere(s, 1.0)

    def add(data, a, b):
        ode.dCreateSphere(s, 1.0)

    with pytest.raises(ode.ODEError, match="dSpaceAdd"):
        ode.dSpaceCollide(s, None, add)

    def remove(data, a, b):
        ode.dSpaceRemove(s, a)

    with pytest.raises(ode.ODEError, match="dSpaceRemove"):
        ode.dSpaceCollide(s, None, remove)
    # unlocked again afterwards
    ode.dCreateSphere(s, 1.0)
    assert ode.dSpaceGetNumGeoms(s) == 3


# ----------------------------------------------------------------------------- constructors
def test_class_ids():
    assert ode.dSpaceGetClass(ode.dSimpleSpaceCreate(None)) == ode.dSimpleSpaceClass == 10
    assert ode.dGeomGetClass(ode.dHashSpaceCreate(None)) == ode.dHashSpaceClass == 11
    sap = ode.dSweepAndPruneSpaceCreate(None, ode.dSAP_AXES_XYZ)
    assert ode.dGeomGetClass(sap) == ode.dSweepAndPruneSpaceClass == 12
    quad = ode.dQuadTreeSpaceCreate(None, [0, 0, 0], [1, 1, 1], 2)
    assert ode.dGeomGetClass(quad) == ode.dQuadTreeSpaceClass == 13
    assert ode.dGeomIsSpace(quad) == 1


def test_hash_levels():
    s = ode.dHashSpaceCreate(None)
    assert ode.dHashSpaceGetLevels(s) == (-3, 10)
    ode.dHashSpaceSetLevels(s, -1, 4)
    assert ode.dHashSpaceGetLevels(s) == (-1, 4)
    ode.dHashSpaceSetLevels(s, 2, 2)
    assert ode.dHashSpaceGetLevels(s) == (2, 2)
    with pytest.raises(ode.ODEError, match="dHashSpaceSetLevels"):
        ode.dHashSpaceSetLevels(s, 3, 2)
    with pytest.raises(ode.ODEError, match="hash space"):
        ode.dHashSpaceSetLevels(ode.dSimpleSpaceCreate(None), 0, 1)
    with pytest.raises(ode.ODEError, match="dHashSpaceGetLevels"):
        ode.dHashSpaceGetLevels(ode.dCreateSphere(None, 1.0))


def test_constructor_errors():
    with pytest.raises(ode.ODEError, match="axisorder"):
        ode.dSweepAndPruneSpaceCreate(None, 3)
    with pytest.raises(ode.ODEError, match="depth"):
        ode.dQuadTreeSpaceCreate(None, [0, 0, 0], [1, 1, 1], -1)
    with pytest.raises(ode.ODEError, match="extents"):
        ode.dQuadTreeSpaceCreate(None, [0, 0, 0], [-1, 1, 1], 2)
    with pytest.raises(ode.ODEError, match="center"):
        ode.dQuadTreeSpaceCreate(None, [0, 0], [1, 1, 1], 2)
    # a padded dVector3 is accepted
    q = ode.dQuadTreeSpaceCreate(None, [0, 0, 0, 0], [1, 1, 1, 0], 1)
    assert ode.dSpaceGetNumGeoms(q) == 0
    with pytest.raises(ode.ODEError):
        ode.dHashSpaceCreate("not a space")


# ----------------------------------------------------------------------------- kernels
_coord = st.one_of(st.integers(-64, 64).map(lambda k: k / 8.0),
                   st.floats(-1e3, 1e3, allow_nan=False, allow_infinity=False))


@st.composite
def _arrays(draw):
    n = draw(st.integers(0, 60))
    aabb = np.empty((n, 6))
    for i in range(n):
        for a in range(3):
            lo = draw(_coord)
            hi = lo + draw(st.one_of(st.just(0.0), st.integers(0, 40).map(lambda k: k / 8.0),
                                     st.just(np.inf), st.floats(0, 5e3)))
            if draw(st.integers(0, 20)) == 0:
                lo = -np.inf
            aabb[i, 2 * a], aabb[i, 2 * a + 1] = lo, hi
    if n and draw(st.booleans()):  # an empty space's inverted box
        aabb[0] = [np.inf, -np.inf] * 3
    enabled = np.array([draw(st.integers(0, 7)) > 0 for _ in range(n)], dtype=np.bool_)
    body = np.array([draw(st.integers(-1, 3)) for _ in range(n)], dtype=np.int64)
    cat = np.array([draw(st.sampled_from([2**64 - 1, 1, 2])) for _ in range(n)], dtype=np.uint64)
    col = np.array([draw(st.sampled_from([2**64 - 1, 1, 0])) for _ in range(n)], dtype=np.uint64)
    return aabb, enabled, body, cat, col


@settings(max_examples=300, deadline=None)
@given(arrays=_arrays(),
       quad=st.tuples(st.floats(-50, 50), st.floats(-50, 50), st.floats(0, 100),
                      st.floats(0, 100), st.integers(0, 8)),
       order=st.permutations([0, 1, 2]))
def test_kernels_match_the_simple_sweep(arrays, quad, order):
    from engine.ode.collision.spaces.broadphase import overlapping_pairs
    from engine.ode.collision.spaces.spaces import quadtree_pairs, sap_pairs

    expected = overlapping_pairs(*arrays).tolist()
    center = np.array([quad[0], quad[1], 0.0])
    extents = np.array([quad[2], quad[3], 1.0])
    assert quadtree_pairs(*arrays, center, extents, quad[4]).tolist() == expected
    assert sap_pairs(*arrays, *order).tolist() == expected


def test_quadtree_blocks():
    from engine.ode.collision.spaces.spaces import quadtree_nodes

    aabb = np.array([
        [-0.9, -0.8, -0.9, -0.8, 0, 1],  # deep in the (0, 0) corner
        [-0.1, 0.1, -0.1, 0.1, 0, 1],  # straddles the centre: root
        [5.0, 6.0, 0.0, 0.1, 0, 1],  # outside: root
        [0.1, 0.9, 0.1, 0.9, 0, 1],  # the (1, 1) quadrant at depth 1
        [0.5, 0.5, 0.5, 0.5, 0, 1],  # a point on a depth-2 boundary: upper cell
    ])
    nodes = quadtree_nodes(aabb, np.ones(5, dtype=np.bool_), np.zeros(3), np.ones(3), 3)
    # ids: offset(d) + iy 2**d + ix with offset = 0, 1, 5, 21
    assert nodes.tolist() == [21, 0, 0, 1 + 3, 21 + 6 * 8 + 6]


def test_hash_space_with_levels_all_big():
    # every box above the top level: everything is tested against everything
    s = ode.dHashSpaceCreate(None)
    ode.dHashSpaceSetLevels(s, -2, -1)
    gs = [ode.dCreateBox(s, 2, 2, 2) for _ in range(4)]
    for k, g in enumerate(gs):
        ode.dGeomSetPosition(g, 1.5 * k, 0, 0)
    assert {frozenset(p) for p in collide_pairs(s)} == {
        frozenset((gs[k], gs[k + 1])) for k in range(3)}
