"""Trimesh data and geom: building (simple, strided double/single), validation,
preprocessing, the geom's callbacks and queries, and dMassSetTrimesh. Numbers
marked ODE were recorded from ODE 0.16.2 (libode, double precision)."""

from __future__ import annotations

import math

import numpy as np
import pytest

from engine import ode
from engine.ode.collision.geoms import trimesh_data as tmd
from engine.ode.collision.geoms.trimesh import TriMesh

CUBE_V = np.array([[-0.5, -0.5, -0.5], [-0.5, -0.5, 0.5], [-0.5, 0.5, -0.5], [-0.5, 0.5, 0.5],
                   [0.5, -0.5, -0.5], [0.5, -0.5, 0.5], [0.5, 0.5, -0.5], [0.5, 0.5, 0.5]])
CUBE_I = np.array([0, 3, 2, 0, 1, 3, 4, 6, 7, 4, 7, 5, 0, 4, 5, 0, 5, 1, 2, 7, 6, 2, 3, 7,
                   0, 6, 4, 0, 2, 6, 1, 5, 7, 1, 7, 3])
TET_V = np.array([[0, 0, 0], [1, 0, 0], [0, 1, 0], [0, 0, 1.0]])
TET_I = np.array([0, 2, 1, 0, 1, 3, 0, 3, 2, 1, 2, 3])


def _R(ax, ay, az, angle):
    return ode.dRFromAxisAndAngle(ax, ay, az, angle)


def _mesh(v=CUBE_V, i=CUBE_I, pos=None, R=None, **kw):
    d = ode.dGeomTriMeshDataCreate()
    ode.dGeomTriMeshDataBuildSimple(d, v, len(v), i, len(i))
    g = ode.dCreateTriMesh(None, d, kw.get("cb"), kw.get("acb"), kw.get("rcb"))
    if pos is not None:
        ode.dGeomSetPosition(g, *pos)
    if R is not None:
        ode.dGeomSetRotation(g, R)
    return g


# ----------------------------------------------------------------------------- building
def test_build_simple_copies_and_derives():
    v = CUBE_V.copy()
    g = _mesh(v)
    d = ode.dGeomTriMeshGetData(g)
    assert d.vertices.shape == (8, 3) and d.vertices.dtype == np.float64
    assert d.triangles.shape == (12, 3) and d.triangles.dtype == np.int64
    v[0] = 99.0
    assert d.vertices[0, 0] == -0.5          # copied at build time
    # outward unit normals: each points from the cube centre to its face
    centres = d.vertices[d.triangles].mean(axis=1)
    assert np.allclose(np.linalg.norm(d.face_normals, axis=1), 1.0)
    assert np.all(np.einsum("ij,ij->i", d.face_normals, centres) > 0.3)
    assert ode.dGeomTriMeshGetTriangleCount(g) == 12
    assert ode.dGeomTriMeshGetTriMeshDataID(g) is d
    assert ode.dGeomGetClass(g) == ode.dTriMeshClass


def test_build_simple_accepts_flat_and_n4_vertices():
    d1 = ode.dGeomTriMeshDataCreate()
    ode.dGeomTriMeshDataBuildSimple(d1, TET_V.reshape(-1).tolist(), 4, TET_I.tolist(), 12)
    d2 = ode.dGeomTriMeshDataCreate()
    v4 = np.hstack([TET_V, np.zeros((4, 1))])
    ode.dGeomTriMeshDataBuildSimple(d2, v4, 4, TET_I.astype(np.uint32), 12)
    assert np.array_equal(d1.vertices, TET_V) and np.array_equal(d2.vertices, TET_V)
    assert np.array_equal(d1.triangles, d2.triangles)


def test_build_single_with_strides_matches_ode():
    # float xyz + a user float per vertex (16 B), 3 uint32 + a user int per triangle (16 B)
    v = np.array([[0, 0, 0, 9], [2, 0, 0, 9], [0, 3, 0, 9], [0, 0, 4, 9]], dtype=np.float32)
    t = np.array([[0, 2, 1, 77], [0, 1, 3, 77], [0, 3, 2, 77], [1, 2, 3, 77]], dtype=np.uint32)
    d = ode.dGeomTriMeshDataCreate()
    ode.dGeomTriMeshDataBuildSingle(d, v, 16, 4, t, 12, 16)
    assert d.single and d.vertices.dtype == np.float64
    g = ode.dCreateTriMesh(None, d, None, None, None)
    ode.dGeomSetPosition(g, 0.5, -1, 2)
    ode.dGeomSetRotation(g, _R(1, 2, 3, 0.7))
    # ODE
    tri3 = [[2.06327834781405, 0.10023446140871672, 1.4120842431228389],
            [-0.9487878526426368, 1.4960904013239036, 2.818869016664943],
            [2.078959192695199, -1.2855699976715034, 5.664060267549269]]
    assert np.allclose(np.array(ode.dGeomTriMeshGetTriangle(g, 3)), tri3, atol=1e-12)
    assert np.allclose(ode.dGeomTriMeshGetPoint(g, 2, 0.1, 0.7),
                       [-0.35625557758032567, 0.7187062811595819, 2.939614338420387])
    assert np.allclose(ode.dGeomGetAABB(g),
                       [-0.948787852642637, 3.6422375405092495, -1.2855699976715034,
                        2.5963248627326205, 1.4120842431228389, 6.482929284214212])


def test_build_double_structured_records():
    rec = np.zeros(4, dtype=[("p", "<f8", 3), ("color", "<i4")])
    rec["p"] = TET_V
    rec["color"] = 7
    tri = np.zeros(4, dtype=[("i", "<u4", 3), ("material", "<u2")])
    tri["i"] = TET_I.reshape(-1, 3)
    d = ode.dGeomTriMeshDataCreate()
    ode.dGeomTriMeshDataBuildDouble(d, rec, rec.dtype.itemsize, 4, tri, 12, tri.dtype.itemsize)
    assert np.array_equal(d.vertices, TET_V)
    assert np.array_equal(d.triangles, TET_I.reshape(-1, 3))
    # the manual's dGeomTriMeshDataBuild is the double build with optional normals
    d2 = ode.dGeomTriMeshDataCreate()
    ode.dGeomTriMeshDataBuild(d2, TET_V, 24, 4, TET_I.astype(np.uint32), 12, 12, None)
    assert np.array_equal(d2.vertices, TET_V) and d2.normals is None


def test_build_with_normals_and_data_set_get():
    d = ode.dGeomTriMeshDataCreate()
    ode.dGeomTriMeshDataBuildSimple(d, TET_V, 4, TET_I, 12)
    n = d.face_normals.copy()
    d1 = ode.dGeomTriMeshDataCreate()
    ode.dGeomTriMeshDataBuildSimple1(d1, TET_V, 4, TET_I, 12, n)
    assert np.array_equal(ode.dGeomTriMeshDataGet(d1, tmd.TRIMESH_FACE_NORMALS), n)
    data, size = ode.dGeomTriMeshDataGet2(d1, ode.dTRIMESHDATA_FACE_NORMALS)
    assert size == 4 * 3 * 8 and np.array_equal(data, n)
    for build in (ode.dGeomTriMeshDataBuildDouble1, ode.dGeomTriMeshDataBuildSingle1):
        d2 = ode.dGeomTriMeshDataCreate()
        vt = TET_V.astype(np.float32 if build is ode.dGeomTriMeshDataBuildSingle1 else float)
        build(d2, vt, 3 * vt.itemsize, 4, TET_I.astype(np.uint32), 12, 12, n)
        assert np.array_equal(d2.normals, n)
    assert ode.dGeomTriMeshDataGet(d, ode.dTRIMESHDATA_FACE_NORMALS) is None
    ode.dGeomTriMeshDataSet(d, ode.dTRIMESHDATA_FACE_NORMALS, n)
    assert np.array_equal(d.normals, n)
    assert ode.dGeomTriMeshDataGet2(d, ode.dTRIMESHDATA_USE_FLAGS) == (None, 0)
    ode.dGeomTriMeshDataSet(d, ode.dTRIMESHDATA_USE_FLAGS, np.array([1, 2, 4, 63], np.uint8))
    assert ode.dGeomTriMeshDataGet(d, ode.dTRIMESHDATA_USE_FLAGS).tolist() == [1, 2, 4, 63]
    buf, size = ode.dGeomTriMeshDataGetBuffer(d)
    assert buf.tolist() == [1, 2, 4, 63] and size == 4
    ode.dGeomTriMeshDataSetBuffer(d, None)
    assert ode.dGeomTriMeshDataGetBuffer(d) == (None, 0)


@pytest.mark.parametrize("call,arg", [
    (lambda d: ode.dGeomTriMeshDataBuildSimple(d, TET_V, 4, [0, 1, 4], 3), "indices"),
    (lambda d: ode.dGeomTriMeshDataBuildSimple(d, TET_V, 4, [0, 1, -1], 3), "indices"),
    (lambda d: ode.dGeomTriMeshDataBuildSimple(d, TET_V, 4, [0, 1, 2, 3], 4), "index_count"),
    (lambda d: ode.dGeomTriMeshDataBuildSimple(d, TET_V, 4, [], 0), "index_count"),
    (lambda d: ode.dGeomTriMeshDataBuildSimple(d, [[0, 0, math.nan], [1, 0, 0], [0, 1, 0]], 3,
                                               [0, 1, 2], 3), "vertices"),
    (lambda d: ode.dGeomTriMeshDataBuildSimple(d, TET_V, 5, TET_I, 12), "vertices"),
    (lambda d: ode.dGeomTriMeshDataBuildSimple(d, TET_V, 4, TET_I, 15), "indices"),
    (lambda d: ode.dGeomTriMeshDataBuildDouble(d, TET_V, 24, 4, TET_I.astype(np.uint32), 13, 12),
     "index_count"),
    (lambda d: ode.dGeomTriMeshDataBuildDouble(d, TET_V, 32, 4, TET_I.astype(np.uint32), 12, 12),
     "vertices"),
    (lambda d: ode.dGeomTriMeshDataBuildDouble(d, TET_V, 0, 4, TET_I.astype(np.uint32), 12, 12),
     "vertex_stride"),
    (lambda d: ode.dGeomTriMeshDataBuildSingle(d, TET_V, 12, 4, TET_I.astype(np.uint32), 12, 12),
     "vertices"),
    (lambda d: ode.dGeomTriMeshDataBuildSimple1(d, TET_V, 4, TET_I, 12, [[0, 0, 1]]), "normals"),
    (lambda d: ode.dGeomTriMeshDataSet(d, 7, None), "data_id"),
    (lambda d: ode.dGeomTriMeshDataGet(d, 2), "data_id"),
    (lambda d: ode.dGeomTriMeshDataPreprocess2(d, 1 << 5, None), "buildRequestFlags"),
])
def test_build_errors_name_the_argument(call, arg):
    d = ode.dGeomTriMeshDataCreate()
    with pytest.raises(ode.ODEError) as e:
        call(d)
    assert f"'{arg}'" in str(e.value)


def test_destroyed_data_and_wrong_handles():
    d = ode.dGeomTriMeshDataCreate()
    ode.dGeomTriMeshDataBuildSimple(d, TET_V, 4, TET_I, 12)
    g = ode.dCreateTriMesh(None, d, None, None, None)
    ode.dGeomTriMeshDataDestroy(d)
    with pytest.raises(ode.ODEError, match="destroyed"):
        ode.dGeomTriMeshDataPreprocess(d)
    with pytest.raises(ode.ODEError, match="destroyed"):
        ode.dGeomTriMeshGetTriangle(g, 0)
    with pytest.raises(ode.ODEError, match="Data"):
        ode.dCreateTriMesh(None, None, None, None, None)
    with pytest.raises(ode.ODEError, match="'g'"):
        ode.dGeomTriMeshGetTriangleCount(ode.dCreateSphere(None, 1))
    with pytest.raises(ode.ODEError, match="Callback"):
        ode.dGeomTriMeshSetCallback(_mesh(), 3)


def test_data_update_rereads_changed_vertices():
    v = TET_V.copy()
    d = ode.dGeomTriMeshDataCreate()
    ode.dGeomTriMeshDataBuildSimple(d, v, 4, TET_I, 12)
    g = ode.dCreateTriMesh(None, d, None, None, None)
    v[3] = [0, 0, 2.0]
    assert ode.dGeomGetAABB(g)[5] == 1.0
    ode.dGeomTriMeshDataUpdate(d)
    assert ode.dGeomGetAABB(g)[5] == 2.0
    assert np.allclose(ode.dGeomTriMeshGetTriangle(g, 1)[2], [0, 0, 2])


# ----------------------------------------------------------------------------- preprocessing
def test_preprocess_cube_face_angles_and_use_flags():
    g = _mesh()
    d = ode.dGeomTriMeshGetData(g)
    assert d.use_flags is None and d.face_angles is None and d.preprocess_flags == 0
    assert ode.dGeomTriMeshDataPreprocess2(
        d, (1 << ode.dTRIDATAPREPROCESS_BUILD_CONCAVE_EDGES)
        | (1 << ode.dTRIDATAPREPROCESS_BUILD_FACE_ANGLES), None) == 1
    assert d.preprocess_flags == 3
    # each triangle has two cube edges (90 deg) and one face diagonal (flat)
    a = np.sort(d.face_angles, axis=1)
    assert np.allclose(a, [[0, math.pi / 2, math.pi / 2]] * 12)
    # every one of the 18 distinct edges and 8 vertices is given to exactly one triangle
    edges, verts = set(), []
    for t, f in enumerate(d.use_flags):
        for k in range(3):
            if f & (1 << k):
                e = tuple(sorted((d.triangles[t, k], d.triangles[t, (k + 1) % 3])))
                assert e not in edges
                edges.add(e)
            if f & (8 << k):
                verts.append(int(d.triangles[t, k]))
    assert len(edges) == 18 and sorted(verts) == list(range(8))


def test_preprocess_concave_crease():
    # two triangles folded upwards along the y axis: a valley (concave) edge
    v = np.array([[0, -1, 0], [0, 1, 0], [-1, 0, 0.5], [1, 0, 0.5]])
    i = np.array([0, 1, 2, 1, 0, 3])
    d = ode.dGeomTriMeshDataCreate()
    ode.dGeomTriMeshDataBuildSimple(d, v, 4, i, 6)
    ode.dGeomTriMeshDataPreprocess(d)
    ode.dGeomTriMeshDataPreprocess2(d, 1 << ode.dTRIDATAPREPROCESS_BUILD_FACE_ANGLES, [0, 2])
    assert d.face_angles_storage == ode.dTRIDATAPREPROCESS_FACE_ANGLES_EXTRA_WORD_ALL
    n0, n1 = d.face_normals
    bend = math.acos(float(n0 @ n1))
    assert d.face_angles[0, 0] == pytest.approx(-bend) and d.face_angles[1, 0] == pytest.approx(-bend)
    # the crease edge and its two vertices are never used; the other edges are
    for t in range(2):
        assert d.use_flags[t] & ode.dMESHDATAUSE_EDGE1 == 0
        assert d.use_flags[t] & (ode.dMESHDATAUSE_EDGE2 | ode.dMESHDATAUSE_EDGE3) == 6
        assert d.use_flags[t] & (ode.dMESHDATAUSE_VERTEX1 | ode.dMESHDATAUSE_VERTEX2) == 0
        assert d.use_flags[t] & ode.dMESHDATAUSE_VERTEX3


def test_use_flags_match_ode_on_a_bumpy_shuffled_mesh():
    # which triangle gets a shared edge or vertex depends on the order C++'s
    # std::sort leaves equal edges in; ODE's flags (libode 0.16.2)
    n = 5
    xs = np.linspace(-1, 1, n + 1)
    X, Y = np.meshgrid(xs, xs, indexing="ij")
    v = np.column_stack([X.ravel(), Y.ravel(),
                         0.4 * np.sin(3 * X.ravel() + 1) * np.cos(2 * Y.ravel())])
    t = []
    for a in range(n):
        for b in range(n):
            p = a * (n + 1) + b
            t += [[p, p + n + 1, p + n + 2], [p, p + n + 2, p + 1]]
    t = np.array(t)[[(7 * k) % 50 for k in range(50)]].reshape(-1)
    d = ode.dGeomTriMeshDataCreate()
    ode.dGeomTriMeshDataBuildSimple(d, v, len(v), t, len(t))
    ode.dGeomTriMeshDataPreprocess2(d, 1 << ode.dTRIDATAPREPROCESS_BUILD_CONCAVE_EDGES, None)
    assert d.use_flags.tolist() == [
        1, 4, 0, 0, 0, 3, 2, 2, 0, 1, 5, 6, 2, 2, 38, 5, 0, 2, 2, 2, 19, 0, 0, 0, 2, 23, 3, 2,
        6, 5, 5, 2, 3, 0, 4, 1, 0, 38, 0, 0, 3, 0, 2, 13, 2, 3, 38, 2, 4, 2]
    # the cube of the collision matrix (ODE)
    c = ode.dGeomTriMeshDataCreate()
    ode.dGeomTriMeshDataBuildSimple(c, CUBE_V, 8, CUBE_I, 36)
    ode.dGeomTriMeshDataPreprocess(c)
    assert c.use_flags.tolist() == [55, 27, 0, 1, 2, 19, 7, 2, 55, 0, 38, 0]


# ----------------------------------------------------------------------------- geom
def test_geom_callbacks_tc_last_transform_user_data():
    def cb(tm, other, i):
        return 1

    def acb(tm, other, idx):
        return None

    def rcb(tm, ray, i, u, v):
        return 1

    def mcb(tm, a, b):
        return a + b

    g = _mesh(cb=cb, acb=acb, rcb=rcb)
    assert ode.dGeomTriMeshGetCallback(g) is cb
    assert ode.dGeomTriMeshGetArrayCallback(g) is acb
    assert ode.dGeomTriMeshGetRayCallback(g) is rcb
    assert ode.dGeomTriMeshGetTriMergeCallback(g) is None
    ode.dGeomTriMeshSetTriMergeCallback(g, mcb)
    assert ode.dGeomTriMeshGetTriMergeCallback(g) is mcb
    for setter in (ode.dGeomTriMeshSetCallback, ode.dGeomTriMeshSetArrayCallback,
                   ode.dGeomTriMeshSetRayCallback):
        setter(g, None)
    assert g.callback is None and g.array_callback is None and g.ray_callback is None
    # ODE: temporal coherence off by default; switchable for sphere, box, capsule only
    assert [ode.dGeomTriMeshIsTCEnabled(g, c) for c in range(10)] == [0] * 10
    for c in range(10):
        ode.dGeomTriMeshEnableTC(g, c, 1)
    assert [ode.dGeomTriMeshIsTCEnabled(g, c) for c in range(10)] == [1, 1, 1] + [0] * 7
    ode.dGeomTriMeshClearTCCache(g)
    assert np.array_equal(ode.dGeomTriMeshGetLastTransform(g), np.zeros(16))
    ode.dGeomTriMeshSetLastTransform(g, np.arange(16.0))
    assert np.array_equal(ode.dGeomTriMeshGetLastTransform(g), np.arange(16.0))
    # user data and mesh data live side by side
    assert ode.dGeomGetData(g) is None
    ode.dGeomSetData(g, "robot-floor")
    assert ode.dGeomGetData(g) == "robot-floor"
    assert isinstance(g.mesh_data, tmd.TriMeshData) and g.user_data == "robot-floor"
    d2 = ode.dGeomTriMeshDataCreate()
    ode.dGeomTriMeshDataBuildSimple(d2, TET_V, 4, TET_I, 12)
    ode.dGeomTriMeshSetData(g, d2)
    assert ode.dGeomTriMeshGetData(g) is d2 and ode.dGeomGetData(g) == "robot-floor"


def test_get_triangle_point_errors():
    g = _mesh(TET_V, TET_I)
    assert np.allclose(ode.dGeomTriMeshGetPoint(g, 3, 0.25, 0.5), [0.25, 0.25, 0.5])   # ODE
    for bad in (-1, 4):
        with pytest.raises(ode.ODEError, match="'Index'"):
            ode.dGeomTriMeshGetTriangle(g, bad)
    with pytest.raises(ode.ODEError, match="'u'"):
        ode.dGeomTriMeshGetPoint(g, 0, math.nan, 0)


def test_aabb_matches_ode():
    g = _mesh(pos=(1, 2, 3), R=_R(0.3, 0.4, 0.5, 0.7))
    assert np.allclose(ode.dGeomGetAABB(g),   # ODE
                       [0.17938234, 1.82061766, 1.23434173, 2.76565827, 2.22816008, 3.77183992])
    v0, v1, v2 = ode.dGeomTriMeshGetTriangle(g, 5)
    assert np.allclose([v0, v1, v2], [[0.57847516, 1.41359702, 2.52203729],  # ODE
                                      [1.82061766, 1.7463103, 3.11058117],
                                      [1.01344706, 1.23434173, 3.40445838]])
    assert np.allclose(ode.dGeomTriMeshGetPoint(g, 5, 0.25, 0.5), [1.10649674, 1.40714769, 3.11038381])


def _grid(n: int, size: float = 10.0):
    xs = np.linspace(-size / 2, size / 2, n + 1)
    X, Y = np.meshgrid(xs, xs, indexing="ij")
    v = np.column_stack([X.ravel(), Y.ravel(), 0.05 * np.sin(X.ravel() + Y.ravel())])
    idx = []
    for a in range(n):
        for b in range(n):
            p = a * (n + 1) + b
            idx += [p, p + n + 1, p + n + 2, p, p + n + 2, p + 1]
    return v, np.array(idx)


def test_candidate_triangles_against_brute_force_and_callbacks():
    v, i = _grid(60)          # 7200 triangles
    calls = []
    g = _mesh(v, i, pos=(0.3, -0.2, 1.0), R=_R(1, 1, 0.2, 0.4),
              cb=lambda tm, o, k: calls.append(("t", tm, o, k)) or k % 2,
              acb=lambda tm, o, idx: calls.append(("a", tm, o, list(idx))))
    other = ode.dCreateSphere(None, 0.4)
    box = np.array([0.1, 0.9, -0.7, 0.2, 0.5, 1.6])
    tris = g.world_triangles(np.arange(7200))
    lo, hi = tris.min(axis=1), tris.max(axis=1)
    brute = np.nonzero((lo[:, 0] <= box[1]) & (hi[:, 0] >= box[0]) & (lo[:, 1] <= box[3])
                       & (hi[:, 1] >= box[2]) & (lo[:, 2] <= box[5]) & (hi[:, 2] >= box[4]))[0]
    got = g.candidate_triangles(other, box)
    assert got.dtype == np.int64 and len(brute) > 20
    assert got.tolist() == [k for k in brute.tolist() if k % 2]
    # ODE's order: the array callback sees every touched triangle, then the
    # per-triangle callback is asked about each
    assert calls[0][0] == "a" and calls[0][1] is g and calls[0][2] is other
    assert calls[0][3] == brute.tolist()
    assert [c[3] for c in calls[1:]] == brute.tolist() and all(c[2] is other for c in calls[1:])
    # nothing touched: no callback at all
    calls.clear()
    assert g.candidate_triangles(other, [50, 51, 50, 51, 50, 51]).size == 0
    assert calls == []


def test_world_vertices_and_triangles():
    g = _mesh(pos=(1, 2, 3), R=_R(0, 0, 1, math.pi / 2))
    w = g.world_vertices()
    assert np.allclose(w[7], [1 - 0.5, 2 + 0.5, 3.5])
    assert np.allclose(g.world_triangles([0, 1]), w[ode.dGeomTriMeshGetData(g).triangles[:2]])


# ----------------------------------------------------------------------------- mass
def test_mass_cube_matches_ode():
    m = ode.dMass()
    ode.dMassSetTrimesh(m, 2.0, _mesh())
    assert m.mass == pytest.approx(2.0) and np.allclose(m.c, 0)
    assert np.allclose(m.I3(), np.eye(3) / 3)
    # ODE: the mesh's world pose counts, and the inertia is moved to c once more
    m = ode.dMass()
    ode.dMassSetTrimesh(m, 2.0, _mesh(pos=(1, 2, 3), R=_R(0.3, 0.4, 0.5, 0.7)))
    assert m.mass == pytest.approx(2.0) and np.allclose(m.c, [1, 2, 3])
    assert np.allclose(m.I3(), [[52.33333333, -8, -12], [-8, 40.33333333, -24],
                                [-12, -24, 20.33333333]])


def test_mass_tetrahedra_match_ode():
    m = ode.dMass()
    ode.dMassSetTrimeshTotal(m, 3.0, _mesh(TET_V, TET_I))
    assert m.mass == pytest.approx(3.0) and np.allclose(m.c, 0.25)
    assert np.allclose(m.I3(), [[0.975, -0.3375, -0.3375], [-0.3375, 0.975, -0.3375],
                                [-0.3375, -0.3375, 0.975]])
    d = ode.dGeomTriMeshDataCreate()
    ode.dGeomTriMeshDataBuildSimple(d, [[0, 0, 0], [2, 0, 0], [0, 3, 0], [0, 0, 4]], 4, TET_I, 12)
    g = ode.dCreateTriMesh(None, d, None, None, None)
    ode.dGeomSetPosition(g, 0.5, -1, 2)
    ode.dGeomSetRotation(g, _R(1, 2, 3, 0.7))
    ode.dMassSetTrimesh(m, 1000.0, g)
    assert m.mass == pytest.approx(4000.0)                       # ODE
    assert np.allclose(m.c, [0.9233624219666527, -0.17231128373472074, 2.9737533818342645])
    assert np.allclose(m.I, [74069.40391466985, 2022.6231767894765, -22373.008164695184, 0.0,
                             2022.6231767894765, 80960.00691794849, 4673.905804281101, 0.0,
                             -22373.008164695184, 4673.905804281101, 9278.565435752085, 0.0])


def test_mass_errors_leave_mass_unchanged():
    m = ode.dMass()
    ode.dMassSetBoxTotal(m, 1.0, 1, 1, 1)
    before = m.copy()
    open_mesh = _mesh(TET_V, TET_I[:9])
    inverted = _mesh(TET_V, TET_I.reshape(-1, 3)[:, ::-1].reshape(-1))
    for g, arg in ((open_mesh, "'g'"), (inverted, "'g'"), (ode.dCreateSphere(None, 1), "'g'")):
        with pytest.raises(ode.ODEError, match=arg):
            ode.dMassSetTrimesh(m, 1.0, g)
    with pytest.raises(ode.ODEError, match="'total_mass'"):
        ode.dMassSetTrimeshTotal(m, -1.0, _mesh())
    with pytest.raises(ode.ODEError, match="'m'"):
        ode.dMassSetTrimesh(None, 1.0, _mesh())
    assert m.mass == before.mass and np.array_equal(m.I, before.I)


def test_trimesh_is_a_geom_class():
    assert isinstance(_mesh(), TriMesh)
    assert tmd.dMESHDATAUSE_VERTEX3 == 0x20 and ode.dTRIMESHDATA_USE_FLAGS == 1
