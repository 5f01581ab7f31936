"""Trimesh colliders (sphere, box, capsule, plane, ray): ODE's conventions and
properties. Numbers marked ODE were recorded from ODE 0.16.2 (libode, double)."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import ode
from engine.ode.collision.pairs.colliders_trimesh import _closest_on_triangle

CUBE_V = np.array([[-0.5, -0.5, -0.5], [-0.5, -0.5, 0.5], [-0.5, 0.5, -0.5], [-0.5, 0.5, 0.5],
                   [0.5, -0.5, -0.5], [0.5, -0.5, 0.5], [0.5, 0.5, -0.5], [0.5, 0.5, 0.5]])
CUBE_I = np.array([0, 3, 2, 0, 1, 3, 4, 6, 7, 4, 7, 5, 0, 4, 5, 0, 5, 1, 2, 7, 6, 2, 3, 7,
                   0, 6, 4, 0, 2, 6, 1, 5, 7, 1, 7, 3])


def _data(v, i, preprocess=True):
    d = ode.dGeomTriMeshDataCreate()
    ode.dGeomTriMeshDataBuildSimple(d, v, len(v), i, len(i))
    if preprocess:
        ode.dGeomTriMeshDataPreprocess2(
            d, (1 << ode.dTRIDATAPREPROCESS_BUILD_CONCAVE_EDGES)
            | (1 << ode.dTRIDATAPREPROCESS_BUILD_FACE_ANGLES), None)
    return d


def _cube(pos=(0, 0, 0), R=None, **kw):
    g = ode.dCreateTriMesh(None, _data(CUBE_V, CUBE_I), kw.get("cb"), kw.get("acb"), kw.get("rcb"))
    ode.dGeomSetPosition(g, *pos)
    if R is not None:
        ode.dGeomSetRotation(g, R)
    return g


def _grid(n: int, size: float, height=lambda x, y: 0.0 * x):
    """A square n x n grid of 2 n^2 triangles, CCW seen from +z."""
    xs = np.linspace(-size / 2, size / 2, n + 1)
    X, Y = np.meshgrid(xs, xs, indexing="ij")
    v = np.column_stack([X.ravel(), Y.ravel(), height(X.ravel(), Y.ravel())])
    idx = []
    for a in range(n):
        for b in range(n):
            p = a * (n + 1) + b
            idx += [p, p + n + 1, p + n + 2, p, p + n + 2, p + 1]
    return v, np.array(idx)


def _floor(n=12, size=6.0, slope=(0.0, 0.0)):
    v, i = _grid(n, size, lambda x, y: slope[0] * x + slope[1] * y)
    return ode.dCreateTriMesh(None, _data(v, i), None, None, None)


def _shape(kind: str, pos, R=None):
    if kind == "sphere":
        g = ode.dCreateSphere(None, 0.5)
    elif kind == "box":
        g = ode.dCreateBox(None, 1.0, 0.8, 0.6)
    else:
        g = ode.dCreateCapsule(None, 0.3, 1.0)
    ode.dGeomSetPosition(g, *pos)
    if R is not None:
        ode.dGeomSetRotation(g, R)
    return g


def _R3(g) -> np.ndarray:
    return np.asarray(ode.dGeomGetRotation(g)).reshape(3, 4)[:, :3]


def _support_depth(kind: str, g, n: np.ndarray, d: float) -> float:
    """How far shape g reaches below the plane n.x = d (exact)."""
    p = np.asarray(ode.dGeomGetPosition(g))
    base = d - float(n @ p)
    if kind == "sphere":
        return base + 0.5
    if kind == "box":
        return base + 0.5 * float(np.sum(np.abs(_R3(g).T @ n) * np.array([1.0, 0.8, 0.6])))
    return base + 0.3 + 0.5 * abs(float(_R3(g)[:, 2] @ n))


def _tri_distance(tm, side: int, p) -> float:
    v0, v1, v2 = ode.dGeomTriMeshGetTriangle(tm, side)
    q = np.empty(3)
    _closest_on_triangle(np.asarray(p, float), v0, v1, v2, q)
    return float(np.linalg.norm(q - p))


unit = st.floats(-1.0, 1.0, allow_nan=False)
coord = st.floats(-1.2, 1.2, allow_nan=False).map(lambda x: round(x, 5))


def _rot(r):
    if r[0] ** 2 + r[1] ** 2 + r[2] ** 2 < 1e-3:
        return None
    return ode.dRFromAxisAndAngle(r[0], r[1], r[2], 3 * r[3])


# ----------------------------------------------------------------------------- ODE cases
def test_sphere_on_diagonal_edge_ode_unit_test():
    # ODE's test_collision_trimesh_sphere_exact: a 2-triangle square, sphere r 4
    # resting exactly on the diagonal: 2 contacts, depth 0, normal -z (into the mesh)
    v = np.array([[-1, -1, 0], [1, -1, 0], [1, 1, 0], [-1, 1, 0]], dtype=np.float32)
    idx = np.array([0, 1, 2, 0, 2, 3], dtype=np.uint32)
    d = ode.dGeomTriMeshDataCreate()
    ode.dGeomTriMeshDataBuildSingle(d, v, 12, 4, idx, 6, 12)
    tm = ode.dCreateTriMesh(None, d, None, None, None)
    s = ode.dCreateSphere(None, 4.0)
    ode.dGeomSetPosition(s, 0, 0, 4)
    for setup, normal in ((None, (0, 0, -1)), ("moved", (0, 0, -1)), ("rotated", (0, 1, 0))):
        if setup == "moved":
            ode.dGeomSetPosition(tm, 10, 30, 40)
            ode.dGeomSetPosition(s, 10, 30, 44)
        elif setup == "rotated":
            ode.dGeomSetRotation(tm, [1, 0, 0, 0, 0, 0, -1, 0, 0, 1, 0, 0])
            ode.dGeomSetPosition(s, 10, 26, 40)
        cs = ode.dCollide(tm, s, 4)
        assert len(cs) == 2
        assert sorted(c.side1 for c in cs) == [0, 1] and all(c.side2 == -1 for c in cs)
        for c in cs:
            assert c.depth == pytest.approx(0.0, abs=1e-12)
            assert np.allclose(c.normal, normal, atol=1e-12)


def test_box_on_cube_face_gives_eight_contacts():
    # the matrix's z_face placement: ODE gives 8 (6 on the top face, 2 on a side)
    box = _shape("box", (0, 0, 0))
    tm = _cube((0, 0, 0.75))
    cs = ode.dCollide(box, tm, 8)
    assert len(cs) == 8
    top = [c for c in cs if np.allclose(c.normal, [0, 0, -1])]
    assert len(top) >= 4 and all(c.depth == pytest.approx(0.05) for c in top)
    assert all(c.side1 == -1 and c.side2 in range(12) for c in cs)
    # fewer slots: the deepest survive
    few = ode.dCollide(box, tm, 3)
    assert len(few) == 3 and all(c.depth == pytest.approx(0.05) for c in few)


def test_plane_contacts_are_vertices_once():
    tm = _cube((0.1, 0.2, 0.3))
    n = np.array([0.3, 0.2, 0.9]) / np.linalg.norm([0.3, 0.2, 0.9])
    pl = ode.dCreatePlane(None, *n, 0.2)
    cs = ode.dCollide(tm, pl, 20)
    # ODE: the four bottom corners, each with the first triangle using it
    assert [(np.round(c.pos, 3).tolist(), round(c.depth, 4), c.side1) for c in cs] == [
        ([-0.4, -0.3, -0.2], 0.5713, 0), ([-0.4, 0.7, -0.2], 0.365, 0),
        ([0.6, -0.3, -0.2], 0.2619, 2), ([0.6, 0.7, -0.2], 0.0556, 2)]
    assert all(np.allclose(c.normal, n) for c in cs)
    assert len(ode.dCollide(tm, pl, 2)) == 2
    rev = ode.dCollide(pl, tm, 20)
    assert [c.side2 for c in rev] == [0, 0, 2, 2] and np.allclose(rev[0].normal, -n)


#: ODE 0.16.2: dCollide(cube mesh, shape, 16) at two poses: (pos, normal, depth, triangle).
ODE_CAPSULE = [
    ([0.4853889369, 0.1341617175, 0.1744628953], [-0.9807740096, 0.0141450297, -0.1946336563],
     0.0, 2),
    ([0.2894064268, -0.1515216402, -0.1471612741], [-0.9807740096, 0.0141450297, -0.1946336563],
     0.2507724407, 2),
    ([0.4706465862, -0.1844258751, 0.2255973375], [-0.5835452113, -0.397140902, 0.7083460244],
     0.1464500828, 3),
    ([0.4085750663, -0.2749074197, 0.1237326301], [-0.5835452113, -0.397140902, 0.7083460244],
     0.1464500828, 3)]
ODE_BOX = [
    ([0.5507221258, 0.3254369946, -0.5], [1.0, -0.0, -0.0], 0.0014442515, 2),
    ([-0.2418469404, 0.4190652574, -0.2972823135], [0.1397354615, 0.9802795528, -0.1397354615],
     0.0388975928, 6),
    ([-0.25, 0.4, -0.3], [0.1411200081, 0.9899924966, -0.0], 0.0392830034, 7),
    ([-0.4480357157, 0.4, -0.3], [0.1411200081, 0.9899924966, -0.0], 0.0672298052, 7),
    ([-0.4480357157, 0.4, 0.3], [0.1411200081, 0.9899924966, -0.0], 0.0672298052, 7),
    ([0.0283659377, 0.4, 0.3], [0.1411200081, 0.9899924966, -0.0], -0.0, 7),
    ([0.0283659377, 0.4, -0.0216340623], [0.1411200081, 0.9899924966, -0.0], -0.0, 7),
    ([-0.45, 0.3862200497, -0.3], [-0.9899924966, 0.1411200081, 0.0], 0.0, 0),
    ([-0.45, -0.339897522, -0.3], [-0.9899924966, 0.1411200081, 0.0], 0.1024697176, 0),
    ([-0.45, -0.339897522, -0.239897522], [-0.9899924966, 0.1411200081, 0.0], 0.1024697176, 0),
    ([-0.45, 0.2, 0.3], [-0.9899924966, 0.1411200081, 0.0], 0.0262793749, 1),
    ([-0.45, 0.3862200497, 0.3], [-0.9899924966, 0.1411200081, 0.0], 0.0, 0),
    ([-0.45, -0.339897522, 0.3], [-0.9899924966, 0.1411200081, 0.0], 0.1024697176, 1)]


@pytest.mark.parametrize("kind,mesh_pose,shape_pose,expected", [
    ("capsule", ((-0.003090570465728498, 0.046287250007250924, 0.06063375437141602),
                 (-0.9331610072616947, -0.5591901915852318, -0.13281724695166777,
                  0.3761314078582609)),
     ((0.790930069217647, 0.14640321502459808, 0.251411918805606),
      (-0.28328068345761276, 0.8107817520036418, 1.1655271147595807, 1.478965471449033)),
     ODE_CAPSULE),
    ("box", ((0.05, -0.1, 0.0), None), ((0, 0, 0), (0, 0, 1, 3.0)), ODE_BOX),
])
def test_contact_sets_match_ode(kind, mesh_pose, shape_pose, expected):
    # the capsule's contacts on triangle 3 come from an edge axis that only the
    # concave-edge use flags ODE builds allow
    tm = _cube(mesh_pose[0], None if mesh_pose[1] is None
               else ode.dRFromAxisAndAngle(*mesh_pose[1]))
    g = _shape(kind, shape_pose[0], ode.dRFromAxisAndAngle(*shape_pose[1]))
    got = sorted((np.round(c.pos, 8).tolist(), np.round(c.normal, 8).tolist(),
                  round(c.depth, 8), c.side1) for c in ode.dCollide(tm, g, 16))
    want = sorted((np.round(p, 8).tolist(), np.round(np.array(n) + 0.0, 8).tolist(),
                   round(d + 0.0, 8), t) for p, n, d, t in expected)
    assert len(got) == len(want)
    for a, b in zip(got, want, strict=True):
        assert np.allclose(a[0], b[0], atol=1e-8) and np.allclose(a[1], b[1], atol=1e-8)
        assert a[2] == pytest.approx(b[2], abs=1e-8) and a[3] == b[3]


# ----------------------------------------------------------------------------- rays
def _ray(start, direction, length=2.0):
    r = ode.dCreateRay(None, length)
    ode.dGeomRaySet(r, *start, *direction)
    return r


def test_ray_reports_every_crossing_and_flags():
    tm = _cube((0, 0, 1))
    r = _ray((0.1, 0.05, 0), (0, 0, 1), 3.0)
    cs = ode.dCollide(r, tm, 8)
    assert sorted(round(c.depth, 12) for c in cs) == [0.5, 1.5]
    for c in cs:
        # the face normal (outward) in the ray-first order; pos = start + depth dir
        assert np.allclose(c.pos, [0.1, 0.05, c.depth])
        assert np.allclose(c.normal, [0, 0, -1] if c.depth < 1 else [0, 0, 1])
        assert c.side1 == -1 and c.side2 in range(12)
    assert len(ode.dCollide(r, tm, 1)) == 1
    ode.dGeomRaySetClosestHit(r, 1)
    assert [c.depth for c in ode.dCollide(r, tm, 8)] == [pytest.approx(0.5)]
    ode.dGeomRaySetClosestHit(r, 0)
    ode.dGeomRaySetBackfaceCull(r, 1)
    cs = ode.dCollide(r, tm, 8)
    assert [c.depth for c in cs] == [pytest.approx(0.5)]           # only the front face
    ode.dGeomRaySetBackfaceCull(r, 0)
    ode.dGeomRaySetFirstContact(r, 1)
    assert len(ode.dCollide(r, tm, 8)) == 1
    # too short, pointing away
    assert ode.dCollide(_ray((0.1, 0.05, 0), (0, 0, 1), 0.4), tm, 8) == []
    assert ode.dCollide(_ray((0.1, 0.05, 0), (0, 0, -1), 5.0), tm, 8) == []


def test_ray_callbacks_get_barycentric_coordinates():
    seen = []

    def rcb(mesh, ray, index, u, v):
        seen.append((mesh, ray, index, u, v))
        return int(u + v < 2)          # keep all

    tm = _cube((0.3, -0.2, 1), ode.dRFromAxisAndAngle(1, 2, 3, 0.4), rcb=rcb)
    r = _ray((0.25, -0.15, -1), (0.05, 0.02, 1), 5.0)
    cs = ode.dCollide(tm, r, 8)
    assert len(cs) == 2 and len(seen) == 2
    for (mesh, ray, index, u, v), c in zip(seen, cs, strict=True):
        assert mesh is tm and ray is r and c.side1 == index
        assert np.allclose(ode.dGeomTriMeshGetPoint(tm, index, u, v), c.pos, atol=1e-9)
    ode.dGeomTriMeshSetRayCallback(tm, lambda m, ray, i, u, v: i != cs[0].side1)
    assert [c.side1 for c in ode.dCollide(tm, r, 8)] == [cs[1].side1]
    ode.dGeomTriMeshSetRayCallback(tm, None)
    ode.dGeomTriMeshSetCallback(tm, lambda m, other, i: 0)
    assert ode.dCollide(tm, r, 8) == []


# ----------------------------------------------------------------------------- callbacks
@pytest.mark.parametrize("kind", ["sphere", "box", "capsule", "plane"])
def test_triangle_and_array_callbacks(kind):
    calls = []
    tm = _cube((0, 0, 0.5))
    g = (ode.dCreatePlane(None, 0, 0, 1, 0.05) if kind == "plane"
         else _shape(kind, (0.2, 0.1, -0.3 if kind != "capsule" else -0.6)))
    everything = ode.dCollide(tm, g, 16)
    assert everything
    sides = {c.side1 for c in everything}
    drop = min(sides)
    ode.dGeomTriMeshSetArrayCallback(tm, lambda m, other, idx: calls.append(("a", m, other,
                                                                             list(idx))))
    ode.dGeomTriMeshSetCallback(tm, lambda m, other, i: calls.append(("t", m, other, i))
                                or int(i != drop))
    cs = ode.dCollide(tm, g, 16)
    assert drop not in {c.side1 for c in cs}
    assert calls[0][0] == "a" and calls[0][1] is tm and calls[0][2] is g
    touched = calls[0][3]
    assert sides <= set(touched)
    # then the per-triangle callback was asked about each touched triangle
    assert [c[3] for c in calls[1:]] == touched and all(c[2] is g for c in calls[1:])
    ode.dGeomTriMeshSetCallback(tm, lambda m, other, i: 0)
    assert ode.dCollide(tm, g, 16) == []


# ----------------------------------------------------------------------------- properties
@settings(max_examples=40, deadline=None)
@given(st.sampled_from(["sphere", "box", "capsule"]), st.tuples(coord, coord, coord),
       st.tuples(unit, unit, unit, unit), st.tuples(unit, unit, unit, unit))
def test_swap_symmetry_and_contacts_on_both_shapes(kind, p, r1, r2):
    tm = _cube((0.05, -0.1, 0.0), _rot(r1))
    g = _shape(kind, p, _rot(r2))
    a = ode.dCollide(tm, g, 16)
    b = ode.dCollide(g, tm, 16)
    assert len(a) == len(b)
    for ca, cb in zip(a, b, strict=True):
        assert ca.g1 is tm and cb.g1 is g
        assert np.array_equal(ca.pos, cb.pos) and ca.depth == cb.depth
        assert np.array_equal(ca.normal, -cb.normal)
        assert (ca.side1, ca.side2) == (cb.side2, cb.side1) and ca.side2 == -1
        assert ca.depth >= 0 and abs(np.linalg.norm(ca.normal) - 1) < 1e-9
        if kind == "sphere":
            # on its triangle, inside the sphere by at least the depth
            assert _tri_distance(tm, ca.side1, ca.pos) < 1e-9
            assert 0.5 - np.linalg.norm(ca.pos - np.asarray(p)) >= ca.depth - 1e-9
        else:
            # ODE's box and capsule points may lie off both shapes (edge-edge
            # points on the infinite lines, clipped segments): only plausibility
            assert np.linalg.norm(ca.pos - np.asarray(p)) < 2.5


@settings(max_examples=50, deadline=None)
@given(st.sampled_from(["sphere", "box", "capsule"]), st.tuples(coord, coord),
       st.floats(0.05, 1.2, allow_nan=False), st.tuples(unit, unit, unit, unit),
       st.tuples(st.floats(-0.2, 0.2), st.floats(-0.2, 0.2)))
def test_tilted_floor(kind, xy, z, r, slope):
    # a flat floor z = sx x + sy y, the shape's centre above it: contacts iff
    # the shape reaches below it, the deepest at the exact depth. The sphere
    # gets a fine floor (288 triangles); ODE's box and capsule test each
    # triangle on its own and pick lateral axes against small ones, so they
    # get one large triangle (the shape stays over its middle)
    if kind == "sphere":
        floor = _floor(12, 6.0, slope)
        x, y = xy
    else:
        floor = _floor(1, 20.0, slope)
        x, y = 1.75 + 0.6 * xy[0], -1.75 + 0.6 * xy[1]
    g = _shape(kind, (x, y, z + slope[0] * x + slope[1] * y), _rot(r))
    n = np.array([-slope[0], -slope[1], 1.0])
    n /= np.linalg.norm(n)
    exact = _support_depth(kind, g, n, 0.0)
    if kind == "capsule":
        # ODE's capsule-trimesh needs the capsule's segment above the surface
        # (with a cap centre below it, it may miss the floor altogether)
        axis = _R3(g)[:, 2]
        centre = np.asarray(ode.dGeomGetPosition(g))
        if min(n @ (centre + 0.5 * axis), n @ (centre - 0.5 * axis)) < 1e-6:
            return
    cs = ode.dCollide(g, floor, 16)
    if exact < -1e-9:
        assert cs == []
        return
    if exact < 1e-9:
        return
    assert cs
    deepest = max(c.depth for c in cs)
    assert deepest == pytest.approx(exact, abs=1e-7)
    for c in cs:
        assert c.side1 == -1 and 0 <= c.side2 < 288
        if kind != "capsule":
            # on or below the floor by at most the depth, pushed along its normal
            below = -float(n @ c.pos)
            assert -1e-9 <= below <= c.depth + 1e-9
        if kind == "sphere":
            assert np.allclose(c.normal, n, atol=1e-9)


@settings(max_examples=30, deadline=None)
@given(st.tuples(coord, coord, coord), st.tuples(unit, unit, unit))
def test_ray_hits_lie_on_their_triangles(start, d):
    if np.linalg.norm(d) < 1e-3:
        d = (0.0, 0.0, 1.0)
    tm = _cube((0.1, 0.0, 0.2), ode.dRFromAxisAndAngle(0.3, 1, 0.2, 0.7))
    r = _ray(np.asarray(start) * 2, d, 4.0)
    a = ode.dCollide(tm, r, 8)
    b = ode.dCollide(r, tm, 8)
    assert len(a) == len(b) <= 8
    s, u = ode.dGeomRayGet(r)
    for ca, cb in zip(a, b, strict=True):
        assert 0 <= ca.depth <= 4.0
        assert np.allclose(ca.pos, s + ca.depth * u)
        assert _tri_distance(tm, ca.side1, ca.pos) < 1e-9
        assert np.array_equal(ca.normal, -cb.normal) and cb.side2 == ca.side1


def test_separated_shapes_give_nothing():
    tm = _cube()
    for kind, pos in (("sphere", (0, 0, 1.01)), ("box", (1.01, 0, 0)), ("capsule", (0, 0.81, 0)),
                      ("box", (1.1, 1.1, 1.1))):
        assert ode.dCollide(tm, _shape(kind, pos), 8) == []
    assert ode.dCollide(tm, ode.dCreatePlane(None, 0, 0, 1, -0.6), 8) == []
    # a sphere fully inside the closed mesh touches no triangle
    assert ode.dCollide(tm, ode.dCreateSphere(None, 0.2), 8) == []


def test_big_mesh_queries_only_nearby_triangles():
    v, i = _grid(80, 40.0, lambda x, y: 0.2 * np.sin(x) * np.cos(y))   # 12800 triangles
    seen = []
    tm = ode.dCreateTriMesh(None, _data(v, i, False), None,
                            lambda m, o, idx: seen.append(len(idx)), None)
    s = _shape("sphere", (3.0, -2.0, 0.2 * math.sin(3.0) * math.cos(-2.0) + 0.3))
    cs = ode.dCollide(tm, s, 8)
    assert cs and seen and seen[0] < 40


# ----------------------------------------------------------------------------- dynamics
def test_box_comes_to_rest_on_a_mesh_floor():
    w = ode.dWorldCreate()
    ode.dWorldSetGravity(w, 0, 0, -9.81)
    space = ode.dSimpleSpaceCreate(None)
    v, i = _grid(16, 8.0)                          # 512 triangles, z = 0
    floor = ode.dCreateTriMesh(space, _data(v, i), None, None, None)
    body = ode.dBodyCreate(w)
    m = ode.dMass()
    ode.dMassSetBoxTotal(m, 2.0, 0.6, 0.4, 0.3)
    ode.dBodySetMass(body, m)
    ode.dBodySetPosition(body, 0.13, -0.27, 0.4)
    ode.dBodySetRotation(body, ode.dRFromAxisAndAngle(0.2, 1, 0.1, 0.15))
    box = ode.dCreateBox(space, 0.6, 0.4, 0.3)
    ode.dGeomSetBody(box, body)
    group = ode.dJointGroupCreate(0)
    touching = []

    def near(_, a, b):
        for c in ode.dCollide(a, b, 8):
            touching.append(floor in (c.g1, c.g2) and max(c.side1, c.side2) >= 0)
            ct = ode.dContact()
            ct.surface.mode = ode.dContactApprox1 | ode.dContactSoftERP
            ct.surface.mu = 0.8
            ct.surface.soft_erp = 0.3
            ct.geom = c
            j = ode.dJointCreateContact(w, group, ct)
            ode.dJointAttach(j, ode.dGeomGetBody(c.g1), ode.dGeomGetBody(c.g2))

    for _ in range(400):
        ode.dSpaceCollide(space, None, near)
        ode.dWorldStep(w, 0.005)
        ode.dJointGroupEmpty(group)
    p = ode.dBodyGetPosition(body)
    R = np.asarray(ode.dBodyGetRotation(body)).reshape(3, 4)[:, :3]
    assert p[2] == pytest.approx(0.15, abs=2e-3)              # resting on its 0.3 face
    assert abs(R[2, 2]) == pytest.approx(1.0, abs=1e-3)
    assert np.linalg.norm(ode.dBodyGetLinearVel(body)) < 1e-2
    assert np.linalg.norm(ode.dBodyGetAngularVel(body)) < 5e-2
    assert touching and all(touching)
