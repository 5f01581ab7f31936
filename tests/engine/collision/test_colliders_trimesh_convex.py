"""Cylinder-, convex- and trimesh-trimesh colliders (colliders_trimesh_convex).

Kernel tests work on plain arrays; collider tests go through ``ode.dCollide``.
The ODE values below were recorded with ODE 0.16.2 (double precision,
through ode_ref's libode bindings) for the same scenes: a floor mesh of 4 x 4
squares (32 triangles, z = 0, x and y in [-2, 2]), a V-groove (two 1 m wide
strips at 45 degrees either side of the x axis) and small shapes resting on
or in them. ODE's contact counts come from its own point layouts; the depth
of the deepest contact and the normals are what this engine must match.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import ode
from engine.ode.collision.pairs import colliders_trimesh_convex as tc
from engine.ode.collision.pairs import (
    convex_triangles,
    cylinder_triangles,
    mesh_surface,
    triangle_pairs,
)

DEPTH_TOL = 1e-3
ANGLE_TOL = 2.0

CUBE_V = np.array([[-0.5, -0.5, -0.5], [-0.5, -0.5, 0.5], [-0.5, 0.5, -0.5], [-0.5, 0.5, 0.5],
                   [0.5, -0.5, -0.5], [0.5, -0.5, 0.5], [0.5, 0.5, -0.5], [0.5, 0.5, 0.5]])
CUBE_I = [0, 3, 2, 0, 1, 3, 4, 6, 7, 4, 7, 5, 0, 4, 5, 0, 5, 1, 2, 7, 6, 2, 3, 7,
          0, 6, 4, 0, 2, 6, 1, 5, 7, 1, 7, 3]


# --------------------------------------------------------------------------
# scene helpers
# --------------------------------------------------------------------------
def _mesh(V, idx):
    data = ode.dGeomTriMeshDataCreate()
    ode.dGeomTriMeshDataBuildSimple(data, np.asarray(V, float), len(V),
                                    np.asarray(idx, dtype=np.uint32), len(idx))
    ode.dGeomTriMeshDataPreprocess2(
        data, (1 << ode.dTRIDATAPREPROCESS_BUILD_CONCAVE_EDGES)
        | (1 << ode.dTRIDATAPREPROCESS_BUILD_FACE_ANGLES), None)
    return ode.dCreateTriMesh(None, data, None, None, None)


def _floor_arrays(n: int = 4, size: float = 2.0):
    xs = np.linspace(-size, size, n + 1)
    V = np.array([[x, y, 0.0] for y in xs for x in xs])
    idx = []
    for j in range(n):
        for i in range(n):
            a = j * (n + 1) + i
            b, c = a + 1, a + n + 1
            idx += [a, b, c + 1, a, c + 1, c]
    return V, idx


def floor(n: int = 4, size: float = 2.0):
    return _mesh(*_floor_arrays(n, size))


def cube_mesh(s: float = 1.0):
    return _mesh(CUBE_V * s, CUBE_I)


def groove(L: float = 2.0, W: float = 1.0):
    s = c = math.sqrt(0.5)
    V = [[-L, 0, 0], [L, 0, 0], [-L, W * s, W * c], [L, W * s, W * c],
         [-L, -W * s, W * c], [L, -W * s, W * c]]
    return _mesh(V, [0, 1, 3, 0, 3, 2, 0, 4, 5, 0, 5, 1])


def convex_box(h=(0.3, 0.2, 0.15)):
    hx, hy, hz = h
    pts = np.array([[sx * hx, sy * hy, sz * hz] for sx in (-1, 1) for sy in (-1, 1)
                    for sz in (-1, 1)])
    planes = np.array([[1, 0, 0, hx], [-1, 0, 0, hx], [0, 1, 0, hy], [0, -1, 0, hy],
                       [0, 0, 1, hz], [0, 0, -1, hz]], float)
    polys = [4, 4, 6, 7, 5, 4, 0, 1, 3, 2, 4, 2, 3, 7, 6, 4, 0, 4, 5, 1, 4, 1, 5, 7, 3,
             4, 0, 2, 6, 4]
    return ode.dCreateConvex(None, planes, 6, pts, 8, polys)


def octahedron(a: float = 0.6):
    k = 1 / math.sqrt(3)
    planes = np.array([[sx * k, sy * k, sz * k, a * k] for sx in (1, -1) for sy in (1, -1)
                       for sz in (1, -1)])
    pts = np.array([[a, 0, 0], [-a, 0, 0], [0, a, 0], [0, -a, 0], [0, 0, a], [0, 0, -a]])
    # vertex (sx a, 0, 0) = 0/1, (0, sy a, 0) = 2/3, (0, 0, sz a) = 4/5; CCW from outside
    polys = []
    for sx in (1, -1):
        for sy in (1, -1):
            for sz in (1, -1):
                tri = [0 if sx > 0 else 1, 2 if sy > 0 else 3, 4 if sz > 0 else 5]
                if sx * sy * sz < 0:
                    tri = [tri[0], tri[2], tri[1]]
                polys += [3] + tri
    return ode.dCreateConvex(None, planes, 8, pts, 6, polys)


def rot(ax, ay, az, ang):
    return ode.dRFromAxisAndAngle(ax, ay, az, ang)


def R33(g) -> np.ndarray:
    return np.asarray(ode.dGeomGetRotation(g)).reshape(3, 4)[:, :3]


def angle(a, b) -> float:
    a = np.asarray(a, float)
    b = np.asarray(b, float)
    c = float(a @ b / (np.linalg.norm(a) * np.linalg.norm(b)))
    return math.degrees(math.acos(max(-1.0, min(1.0, c))))


def deepest(cs):
    return max(cs, key=lambda c: c.depth)


def check_against_ode(cs, count: int, depth: float, normals, count_rule: bool = True):
    """ODE's acceptance rules: count, deepest depth, every normal near one of ODE's."""
    if count_rule:
        if count <= 4:
            assert 1 <= len(cs) and abs(len(cs) - count) <= 1, len(cs)
        else:
            assert len(cs) >= count
    assert abs(deepest(cs).depth - depth) <= DEPTH_TOL
    for c in cs:
        assert min(angle(c.normal, n) for n in normals) <= ANGLE_TOL, c.normal
        assert c.depth >= 0.0
        assert abs(np.linalg.norm(c.normal) - 1.0) < 1e-9
    for n in normals:
        assert min(angle(c.normal, n) for c in cs) <= ANGLE_TOL


def box_mtd(p1, R1, h1, p2, R2, h2) -> float:
    """Exact penetration depth of two boxes (15-axis separating-axis test)."""
    axes = [R1[:, i] for i in range(3)] + [R2[:, i] for i in range(3)]
    for i in range(3):
        for j in range(3):
            c = np.cross(R1[:, i], R2[:, j])
            if np.linalg.norm(c) > 1e-9:
                axes.append(c / np.linalg.norm(c))
    best = np.inf
    for a in axes:
        r1 = sum(h1[i] * abs(R1[:, i] @ a) for i in range(3))
        r2 = sum(h2[i] * abs(R2[:, i] @ a) for i in range(3))
        best = min(best, r1 + r2 - abs((p2 - p1) @ a))
    return best


# --------------------------------------------------------------------------
# kernels on plain arrays
# --------------------------------------------------------------------------
def test_topology_of_a_square():
    V = np.array([[0, 0, 0], [1, 0, 0], [1, 1, 0], [0, 1, 0]], float)
    nb_ptr, nb_idx, vt_ptr, vt_idx = mesh_surface.build_topology(np.array([[0, 1, 2], [0, 2, 3]]), 4)
    assert sorted(nb_idx[nb_ptr[0]:nb_ptr[1]]) == [1, 2, 3]
    assert sorted(nb_idx[nb_ptr[1]:nb_ptr[2]]) == [0, 2]
    assert sorted(vt_idx[vt_ptr[0]:vt_ptr[1]]) == [0, 1]
    assert sorted(vt_idx[vt_ptr[3]:vt_ptr[4]]) == [1]
    assert V.shape[0] == len(vt_ptr) - 1


def test_admissible_directions_of_a_floor():
    V, idx = _floor_arrays(2, 1.0)       # 3 x 3 vertices, the centre vertex 4 is inner
    arr = mesh_surface.triangle_mesh_arrays(V, np.reshape(idx, (-1, 3)))
    Vw, T, FN, nb_ptr, nb_idx = arr[:5]
    t = 0                                  # (0, 1, 4): lower-left square, touches the centre
    up = np.array([0.0, 0.0, 1.0])
    assert mesh_surface.admissible(Vw, T, FN, nb_ptr, nb_idx, t, up)
    assert not mesh_surface.admissible(Vw, T, FN, nb_ptr, nb_idx, t, -up)
    inward = np.array([1.0, 1.0, 5.0]) / math.sqrt(27.0)
    # supported by the inner vertex, beaten by its neighbours: not admissible
    assert not mesh_surface.admissible(Vw, T, FN, nb_ptr, nb_idx, t, inward)
    # supported by the outer corner (-1, -1): the floor's boundary may push sideways
    assert mesh_surface.admissible(Vw, T, FN, nb_ptr, nb_idx, t, -inward * np.array([1, 1, -1]))


def test_admissible_directions_of_a_cube_corner():
    V, T, FN, nb_ptr, nb_idx = mesh_surface.triangle_mesh_arrays(CUBE_V, np.reshape(CUBE_I, (-1, 3)))[:5]
    corner = np.array([1.0, 1.0, -1.0]) / math.sqrt(3.0)     # octant of vertex 6
    bottom_with_6 = 8          # (0, 6, 4)
    assert mesh_surface.admissible(V, T, FN, nb_ptr, nb_idx, bottom_with_6, corner)
    # the top face's triangles cannot push downwards
    assert not mesh_surface.admissible(V, T, FN, nb_ptr, nb_idx, 10, corner)
    # a side face's own normal always is
    assert mesh_surface.admissible(V, T, FN, nb_ptr, nb_idx, 2, FN[2].copy())


def _single_triangle(z: float = 0.0, s: float = 2.0):
    V = np.array([[-s, -s, z], [s, -s, z], [0.0, s, z]])
    return mesh_surface.triangle_mesh_arrays(V, np.array([[0, 1, 2]]))


def test_cylinder_kernel_cap_on_a_triangle():
    arr = _single_triangle()
    c = np.array([0.1, -0.2, 0.49])
    rows = cylinder_triangles.cylinder_triangles_kernel(c, np.eye(3), 0.3, 1.0, *arr, np.array([0]))
    out = triangle_pairs.reduce_contacts(rows, 8)
    assert len(out) == 8
    assert np.allclose(out[:, 3:6], [0, 0, 1])
    assert np.allclose(out[:, 6], 0.01)
    assert np.all(out[:, 7] == -1) and np.all(out[:, 8] == 0)
    # the points lie on the cap's disc, spread around it
    r = np.hypot(out[:, 0] - c[0], out[:, 1] - c[1])
    assert np.all(r <= 0.3 + 1e-9) and r.max() > 0.25


def test_cylinder_kernel_separated_and_touching():
    arr = _single_triangle()
    rows = cylinder_triangles.cylinder_triangles_kernel(np.array([0.0, 0.0, 0.5001]), np.eye(3), 0.3, 1.0,
                                        *arr, np.array([0]))
    assert rows.shape == (0, 9)
    rows = cylinder_triangles.cylinder_triangles_kernel(np.array([0.0, 0.0, 0.5]), np.eye(3), 0.3, 1.0,
                                        *arr, np.array([0]))
    assert len(rows) >= 1 and np.all(np.abs(rows[:, 6]) < 1e-12)


def test_cylinder_kernel_side_gives_the_side_line():
    arr = _single_triangle()
    R = np.asarray(rot(1, 0, 0, math.pi / 2)).reshape(3, 4)[:, :3]    # axis along -y
    rows = cylinder_triangles.cylinder_triangles_kernel(np.array([0.0, 0.3, 0.28]), R, 0.3, 1.0, *arr,
                                        np.array([0]))
    out = triangle_pairs.reduce_contacts(rows, 8)
    assert np.allclose(out[:, 6], 0.02) and np.allclose(out[:, 3:6], [0, 0, 1])
    assert np.allclose(out[:, 0], 0.0, atol=1e-9)                     # on the lowest line
    assert out[:, 1].max() - out[:, 1].min() == pytest.approx(1.0)


def test_convex_kernel_box_on_a_triangle():
    arr = _single_triangle()
    g = convex_box()
    ode.dGeomSetPosition(g, 0.0, -0.5, 0.14)
    Q, P, E = tc.convex_world_arrays(g)
    rows = convex_triangles.convex_triangles_kernel(Q, P, E, *arr, np.array([0]))
    out = triangle_pairs.reduce_contacts(rows, 8)
    assert len(out) == 4                    # the four bottom corners
    assert np.allclose(out[:, 6], 0.01) and np.allclose(out[:, 3:6], [0, 0, 1])
    assert sorted(np.round(out[:, 0], 9)) == [-0.3, -0.3, 0.3, 0.3]


def test_triangle_pair_kernel_crossing():
    big = _single_triangle()
    V1 = np.array([[0.0, -0.3, -0.1], [0.0, 0.3, 0.5], [0.0, 0.0, 0.6]])
    small = mesh_surface.triangle_mesh_arrays(V1, np.array([[0, 1, 2]]))
    rows = triangle_pairs.trimesh_pairs_kernel(*small, np.array([0]), *big, np.array([0]))
    out = triangle_pairs.reduce_contacts(rows, 8)
    assert len(out) >= 1
    i = int(np.argmax(out[:, 6]))
    assert out[i, 6] == pytest.approx(0.1)
    assert np.allclose(out[i, 3:6], [0, 0, 1])
    assert np.all(out[:, 7] == 0) and np.all(out[:, 8] == 0)


def test_reduce_contacts_drops_duplicates_and_keeps_deepest_first():
    rows = np.zeros((5, 9))
    rows[:, 5] = 1.0
    rows[:, 0] = [0.0, 1.0, 1.0, 2.0, 0.5]
    rows[:, 6] = [0.1, 0.3, 0.3, 0.2, 0.05]
    out = triangle_pairs.reduce_contacts(rows.copy(), 8)
    assert len(out) == 4
    assert out[0, 6] == 0.3 and out[0, 0] == 1.0
    out = triangle_pairs.reduce_contacts(rows.copy(), 2)
    assert out[0, 6] == 0.3
    assert out[1, 0] in (0.0, 2.0)         # the farthest of the deep enough ones


# --------------------------------------------------------------------------
# colliders against ODE 0.16.2's values (non-matrix scenes)
# --------------------------------------------------------------------------
UP = (0.0, 0.0, 1.0)
WALLS = ((0.0, -math.sqrt(0.5), math.sqrt(0.5)), (0.0, math.sqrt(0.5), math.sqrt(0.5)))


def test_cylinder_lying_on_floor_matches_ode():
    f = floor()
    c = ode.dCreateCylinder(None, 0.3, 1.0)
    Rx = np.asarray(rot(1, 0, 0, math.pi / 2)).reshape(3, 4)[:, :3]
    Rz = np.asarray(rot(0, 0, 1, math.pi / 6)).reshape(3, 4)[:, :3]
    ode.dGeomSetRotation(c, (Rz @ Rx).ravel())
    ode.dGeomSetPosition(c, 0.1, 0.2, 0.28)
    cs = ode.dCollide(c, f, 8)
    check_against_ode(cs, 5, 0.020000000000000073, [UP])          # ODE: 5 points
    assert all(0 <= x.side2 < 32 and x.side1 == -1 for x in cs)


def test_cylinder_upright_on_floor_matches_ode():
    f = floor()
    c = ode.dCreateCylinder(None, 0.3, 1.0)
    ode.dGeomSetPosition(c, 0.25, -0.15, 0.49)
    cs = ode.dCollide(c, f, 8)
    check_against_ode(cs, 7, 0.010000000000000009, [UP])          # ODE: 7 points
    assert all(abs(x.pos[2]) <= 0.01 + 1e-9 for x in cs)


def test_cylinder_tilted_on_floor_matches_ode_depth():
    f = floor()
    c = ode.dCreateCylinder(None, 0.3, 1.0)
    ode.dGeomSetRotation(c, rot(1, 0, 0, 0.5))
    zmin = 0.5 * math.cos(0.5) + 0.3 * math.sin(0.5)
    ode.dGeomSetPosition(c, 0.2, 0.1, zmin - 0.02)
    cs = ode.dCollide(c, f, 8)
    # ODE: 5 points, deepest 0.02 along +z (two of its normals lean 10 deg: the
    # exact floor normal is +z everywhere)
    assert abs(deepest(cs).depth - 0.020000000000000018) <= DEPTH_TOL
    assert all(angle(x.normal, UP) < 1e-6 for x in cs)


def test_cylinder_above_floor_no_contact():
    f = floor()
    c = ode.dCreateCylinder(None, 0.3, 1.0)
    ode.dGeomSetPosition(c, 0.0, 0.0, 0.52)                      # ODE: none
    assert ode.dCollide(c, f, 8) == []
    assert ode.dCollide(f, c, 8) == []


def test_cylinder_in_groove_matches_ode():
    g = groove()
    c = ode.dCreateCylinder(None, 0.3, 1.0)
    ode.dGeomSetRotation(c, rot(0, 1, 0, math.pi / 2))
    ode.dGeomSetPosition(c, 0.1, 0.0, 0.28 * math.sqrt(2))
    cs = ode.dCollide(c, g, 8)
    check_against_ode(cs, 4, 0.020000000000000073, WALLS)         # ODE: 2 per wall


def test_convex_box_on_floor_matches_ode():
    f = floor()
    b = convex_box()
    ode.dGeomSetPosition(b, 0.3, 0.1, 0.14)
    cs = ode.dCollide(b, f, 8)
    check_against_ode(cs, 6, 0.009999999999999981, [UP])          # ODE: 6 points
    corners = {(round(float(x.pos[0]), 9), round(float(x.pos[1]), 9)) for x in cs}
    assert {(0.0, -0.1), (0.6, -0.1), (0.0, 0.3), (0.6, 0.3)} <= corners


def test_convex_box_on_edge_matches_ode():
    f = floor()
    b = convex_box()
    ode.dGeomSetRotation(b, rot(0, 1, 0, 0.4))
    zmin = 0.3 * math.sin(0.4) + 0.15 * math.cos(0.4)
    ode.dGeomSetPosition(b, -0.3, 0.2, zmin - 0.03)
    cs = ode.dCollide(b, f, 8)
    check_against_ode(cs, 2, 0.03, [UP])                          # ODE: 2 points
    assert sorted(round(float(x.pos[1]), 9) for x in cs) == [0.0, 0.4]


def test_convex_box_in_groove_matches_ode_depth_and_normals():
    g = groove()
    b = convex_box((0.3, 0.2, 0.2))
    ode.dGeomSetRotation(b, rot(1, 0, 0, math.pi / 4))
    ode.dGeomSetPosition(b, 0.0, 0.0, 0.2 * math.sqrt(2) - 0.015 * math.sqrt(2))
    cs = ode.dCollide(b, g, 8)
    # ODE (libccd): one point per wall; here the four corners of each face
    check_against_ode(cs, 2, 0.014999999999999947, WALLS, count_rule=False)
    assert len(cs) == 8


def test_octahedron_tip_on_floor():
    f = floor()
    o = octahedron()
    ode.dGeomSetPosition(o, 0.3, 0.2, 0.55)
    cs = ode.dCollide(o, f, 8)
    assert len(cs) == 1
    assert cs[0].depth == pytest.approx(0.05)
    assert np.allclose(cs[0].pos, [0.3, 0.2, -0.025])
    assert angle(cs[0].normal, UP) < 1e-9


def test_cube_mesh_on_floor_matches_ode():
    f = floor()
    m = cube_mesh(0.5)
    ode.dGeomSetPosition(m, 0.1, 0.1, 0.24)
    cs = ode.dCollide(m, f, 8)
    check_against_ode(cs, 8, 0.010000000000000009, [UP])          # ODE: 8 points
    assert all(0 <= x.side1 < 12 and 0 <= x.side2 < 32 for x in cs)


def test_cube_mesh_tilted_on_floor_matches_ode_depth():
    f = floor()
    m = cube_mesh(0.5)
    ode.dGeomSetRotation(m, rot(1, 1, 0, 0.3))
    zm = min((R33(m) @ v)[2] for v in CUBE_V * 0.5)
    ode.dGeomSetPosition(m, -0.3, 0.4, -zm - 0.025)
    cs = ode.dCollide(m, f, 8)
    # ODE: 1 point (the lowest corner), 0.025 along +z
    assert abs(deepest(cs).depth - 0.025000000000000022) <= DEPTH_TOL
    assert all(angle(x.normal, UP) < 1e-6 for x in cs)
    assert np.allclose(deepest(cs).pos[:2], [-0.1134, 0.2134], atol=1e-4)


def test_cube_mesh_in_groove_matches_ode():
    g = groove()
    m = cube_mesh(0.4)
    ode.dGeomSetRotation(m, rot(1, 0, 0, math.pi / 4))
    ode.dGeomSetPosition(m, 0.0, 0.0, 0.2 * math.sqrt(2) - 0.015 * math.sqrt(2))
    cs = ode.dCollide(m, g, 8)
    check_against_ode(cs, 8, 0.015000002980232213, WALLS)         # ODE: 8 points


# --------------------------------------------------------------------------
# exact geometry on closed meshes, deep and tilted
# --------------------------------------------------------------------------
def test_deep_tilted_cube_meshes_give_the_exact_depth():
    a = cube_mesh(0.8)
    b = cube_mesh(1.0)
    ode.dGeomSetRotation(a, rot(0.3, 1, 0.2, 0.7))
    ode.dGeomSetRotation(b, rot(1, -0.4, 0.5, 1.1))
    ode.dGeomSetPosition(b, 0.35, 0.2, 0.55)
    cs = ode.dCollide(a, b, 8)
    mtd = box_mtd(np.zeros(3), R33(a), np.full(3, 0.4), np.array([0.35, 0.2, 0.55]), R33(b),
                  np.full(3, 0.5))
    assert mtd > 0.2
    assert deepest(cs).depth == pytest.approx(mtd, abs=1e-9)
    assert len(cs) == 8


def test_cylinder_face_on_cube_mesh():
    m = cube_mesh()
    c = ode.dCreateCylinder(None, 0.4, 1.0)
    ode.dGeomSetPosition(m, 0.0, 0.0, 0.95)
    cs = ode.dCollide(c, m, 8)
    assert len(cs) == 8
    assert all(x.depth == pytest.approx(0.05) for x in cs)
    assert all(angle(x.normal, (0, 0, -1)) < 1e-9 for x in cs)
    assert {x.side2 for x in cs} == {8, 9}                        # the bottom face


# --------------------------------------------------------------------------
# argument order, callbacks, max_contacts
# --------------------------------------------------------------------------
def _pair(kind: str):
    m = cube_mesh()
    ode.dGeomSetRotation(m, rot(1, 2, 3, 0.4))
    ode.dGeomSetPosition(m, 0.2, -0.1, 0.95)
    if kind == "cylinder":
        g = ode.dCreateCylinder(None, 0.4, 1.0)
    elif kind == "convex":
        g = octahedron()
    else:
        g = cube_mesh(0.9)
    ode.dGeomSetRotation(g, rot(0, 1, 1, 0.3))
    return g, m


@pytest.mark.parametrize("kind", ["cylinder", "convex"])
def test_argument_swap_symmetry(kind):
    g, m = _pair(kind)
    fwd = ode.dCollide(g, m, 8)
    rev = ode.dCollide(m, g, 8)
    assert len(fwd) == len(rev) >= 1
    for a, b in zip(fwd, rev, strict=True):
        assert np.allclose(a.pos, b.pos) and np.allclose(a.normal, -b.normal)
        assert a.depth == b.depth and a.side1 == b.side2 and a.side2 == b.side1
        assert b.g1 is m and b.g2 is g


def test_trimesh_pair_both_orders():
    # as in ODE (docs/ode-behaviour.md, "Argument order") the two orders give their own point sets;
    # the deepest contact is the same, with the normal reversed
    g, m = _pair("trimesh")
    fwd = ode.dCollide(g, m, 8)
    rev = ode.dCollide(m, g, 8)
    assert fwd and rev
    assert deepest(fwd).depth == pytest.approx(deepest(rev).depth, abs=1e-12)
    assert angle(deepest(fwd).normal, -deepest(rev).normal) < 1e-6
    assert all(0 <= c.side1 < 12 and 0 <= c.side2 < 12 for c in fwd + rev)


@pytest.mark.parametrize("kind", ["cylinder", "convex", "trimesh"])
def test_triangle_callback_is_honoured(kind):
    g, m = _pair(kind)
    seen = []
    keep = 9

    def cb(tm, other, index):
        seen.append(index)
        return 1 if index == keep else 0

    ode.dGeomTriMeshSetCallback(m, cb)
    cs = ode.dCollide(g, m, 8)
    assert seen and cs
    assert all(x.side2 == keep for x in cs)
    ode.dGeomTriMeshSetCallback(m, lambda tm, other, index: 0)
    assert ode.dCollide(g, m, 8) == []


@pytest.mark.parametrize("kind", ["cylinder", "convex", "trimesh"])
def test_max_contacts_keeps_the_deepest(kind):
    g, m = _pair(kind)
    every = ode.dCollide(g, m, 100)
    one = ode.dCollide(g, m, 1)
    assert len(one) == 1
    assert one[0].depth == max(c.depth for c in every)


# --------------------------------------------------------------------------
# properties
# --------------------------------------------------------------------------
def _rotation(ax, ay, az, ang):
    if ax * ax + ay * ay + az * az < 1e-6:
        ax = 1.0
    return rot(ax, ay, az, ang)


unit = st.floats(-1.0, 1.0)
angles = st.floats(0.0, math.pi)


def _floor_contacts_check(cs, zmin, inside):
    """Contacts of a shape over the floor (z = 0) whose lowest point is at zmin:
    ``inside(x, tol)`` tells whether x lies within tol of the shape."""
    if zmin > 1e-8:
        assert cs == []
        return
    if zmin > -1e-8:
        return          # touching within rounding: either answer is right
    assert cs
    assert deepest(cs).depth == pytest.approx(-zmin, abs=1e-9)
    for c in cs:
        # the floor normal, up to the rounding of the direction search (~1e-6 deg)
        assert angle(c.normal, UP) < 1e-5
        assert c.depth <= -zmin + 1e-9
        # between the floor and the deepest point, and inside the shape
        assert -c.depth - 1e-9 <= c.pos[2] <= 1e-9
        assert inside(np.asarray(c.pos), c.depth + 1e-9)


@settings(max_examples=25, deadline=None)
@given(unit, unit, unit, angles, st.floats(-0.05, 0.05))
def test_property_cylinder_over_floor(ax, ay, az, ang, gap):
    f = floor(16, 2.0)                  # 0.25 m squares: many triangles under it
    c = ode.dCreateCylinder(None, 0.3, 0.8)
    ode.dGeomSetRotation(c, _rotation(ax, ay, az, ang))
    a = R33(c)[:, 2]
    zmin_rel = -(0.4 * abs(a[2]) + 0.3 * math.sqrt(max(0.0, 1 - a[2] ** 2)))
    ode.dGeomSetPosition(c, 0.2, -0.3, -zmin_rel + gap)
    p = np.array([0.2, -0.3, -zmin_rel + gap])

    def inside(x, tol):
        v = x - p
        s = v @ a
        return abs(s) <= 0.4 + tol and np.linalg.norm(v - s * a) <= 0.3 + tol

    _floor_contacts_check(ode.dCollide(c, f, 8), gap, inside)


@settings(max_examples=25, deadline=None)
@given(unit, unit, unit, angles, st.floats(-0.05, 0.05))
def test_property_convex_over_floor(ax, ay, az, ang, gap):
    f = floor(16, 2.0)
    b = convex_box()
    ode.dGeomSetRotation(b, _rotation(ax, ay, az, ang))
    R = R33(b)
    h = np.array([0.3, 0.2, 0.15])
    zmin_rel = -float(np.abs(R[2]) @ h)
    p = np.array([-0.4, 0.1, -zmin_rel + gap])
    ode.dGeomSetPosition(b, *p)

    def inside(x, tol):
        return np.all(np.abs(R.T @ (x - p)) <= h + tol)

    _floor_contacts_check(ode.dCollide(b, f, 8), gap, inside)


@settings(max_examples=20, deadline=None)
@given(unit, unit, unit, angles, unit, unit, unit, angles,
       st.floats(0.5, 1.4), st.floats(-1, 1), st.floats(-1, 1), st.floats(-1, 1))
def test_property_cube_meshes_exact_or_apart(ax, ay, az, ang, bx, by, bz, bng, dist, ux, uy, uz):
    a = cube_mesh(0.8)
    b = cube_mesh(1.0)
    ode.dGeomSetRotation(a, _rotation(ax, ay, az, ang))
    ode.dGeomSetRotation(b, _rotation(bx, by, bz, bng))
    u = np.array([ux, uy, uz])
    u = u / np.linalg.norm(u) if np.linalg.norm(u) > 1e-3 else np.array([0.0, 0.0, 1.0])
    p = dist * u
    ode.dGeomSetPosition(b, *p)
    mtd = box_mtd(np.zeros(3), R33(a), np.full(3, 0.4), p, R33(b), np.full(3, 0.5))
    cs = ode.dCollide(a, b, 8)
    if mtd < -1e-9:
        assert cs == []
    elif mtd > 1e-6:
        assert cs
        assert deepest(cs).depth == pytest.approx(mtd, abs=1e-6)
        for c in cs:
            assert 0.0 <= c.depth <= mtd + 1e-6
            # inside both cubes (within the depth)
            assert np.all(np.abs(R33(a).T @ c.pos) <= 0.4 + c.depth + 1e-6)
            assert np.all(np.abs(R33(b).T @ (c.pos - p)) <= 0.5 + c.depth + 1e-6)


@settings(max_examples=20, deadline=None)
@given(unit, unit, unit, angles, st.floats(0.5, 1.4), st.floats(-1, 1), st.floats(-1, 1),
       st.floats(-1, 1))
def test_property_convex_box_against_cube_mesh(ax, ay, az, ang, dist, ux, uy, uz):
    b = convex_box()
    m = cube_mesh(1.0)
    ode.dGeomSetRotation(b, _rotation(ax, ay, az, ang))
    u = np.array([ux, uy, uz])
    u = u / np.linalg.norm(u) if np.linalg.norm(u) > 1e-3 else np.array([1.0, 0.0, 0.0])
    p = dist * u
    ode.dGeomSetPosition(m, *p)
    mtd = box_mtd(np.zeros(3), R33(b), np.array([0.3, 0.2, 0.15]), p, np.eye(3),
                  np.full(3, 0.5))
    cs = ode.dCollide(b, m, 8)
    if mtd < -1e-9:
        assert cs == []
    elif mtd > 1e-6:
        # the box may sit wholly inside the hollow mesh: then nothing touches
        inner = np.all(np.abs(np.asarray(tc.convex_world_arrays(b)[0]) - p) < 0.5)
        if inner:
            assert cs == []
        else:
            assert deepest(cs).depth == pytest.approx(mtd, abs=1e-6)


# --------------------------------------------------------------------------
# finely tessellated convex meshes
# --------------------------------------------------------------------------
def icosphere_arrays(r: float = 0.5, sub: int = 2):
    """Vertices (n, 3) and flat indices of a subdivided icosahedron of radius r
    (CCW seen from outside): 20 * 4**sub triangles."""
    g = (1 + 5 ** 0.5) / 2
    V = [np.array(v, float) for v in
         ([-1, g, 0], [1, g, 0], [-1, -g, 0], [1, -g, 0], [0, -1, g], [0, 1, g], [0, -1, -g],
          [0, 1, -g], [g, 0, -1], [g, 0, 1], [-g, 0, -1], [-g, 0, 1])]
    V = [v / np.linalg.norm(v) for v in V]
    F = [[0, 11, 5], [0, 5, 1], [0, 1, 7], [0, 7, 10], [0, 10, 11], [1, 5, 9], [5, 11, 4],
         [11, 10, 2], [10, 7, 6], [7, 1, 8], [3, 9, 4], [3, 4, 2], [3, 2, 6], [3, 6, 8],
         [3, 8, 9], [4, 9, 5], [2, 4, 11], [6, 2, 10], [8, 6, 7], [9, 8, 1]]
    def mid(a, b, mids):
        key = (min(a, b), max(a, b))
        if key not in mids:
            m = V[a] + V[b]
            V.append(m / np.linalg.norm(m))
            mids[key] = len(V) - 1
        return mids[key]

    for _ in range(sub):
        mids: dict = {}
        F = [f for a, b, c in F for f in
             ([a, mid(a, b, mids), mid(c, a, mids)], [b, mid(b, c, mids), mid(a, b, mids)],
              [c, mid(c, a, mids), mid(b, c, mids)],
              [mid(a, b, mids), mid(b, c, mids), mid(c, a, mids)])]
    return np.array(V) * r, np.array(F)


def polytope_mtd(A: np.ndarray, FA: np.ndarray, B: np.ndarray, FB: np.ndarray) -> float:
    """Exact penetration depth of the convex hulls of two triangulated
    polytopes (vertices A, B; triangles FA, FB) by separating axes."""
    def normals(V, F):
        n = np.cross(V[F[:, 1]] - V[F[:, 0]], V[F[:, 2]] - V[F[:, 0]])
        return n / np.linalg.norm(n, axis=1)[:, None]

    def edges(V, F):
        e = {tuple(sorted((f[i], f[(i + 1) % 3]))) for f in F for i in range(3)}
        return np.array([V[b] - V[a] for a, b in e])

    ea, eb = edges(A, FA), edges(B, FB)
    cr = np.cross(ea[:, None, :], eb[None, :, :]).reshape(-1, 3)
    ln = np.linalg.norm(cr, axis=1)
    axes = np.vstack([normals(A, FA), normals(B, FB), cr[ln > 1e-9] / ln[ln > 1e-9, None]])
    pa, pb = A @ axes.T, B @ axes.T
    return float(np.min(np.minimum(pa.max(0) - pb.min(0), pb.max(0) - pa.min(0))))


BOX_F = np.array([[4, 6, 7], [4, 7, 5], [0, 1, 3], [0, 3, 2], [2, 3, 7], [2, 7, 6], [0, 4, 5],
                  [0, 5, 1], [1, 5, 7], [1, 7, 3], [0, 2, 6], [0, 6, 4]])


@pytest.mark.parametrize("seed", [0, 1, 2, 3])
def test_convex_box_against_tessellated_sphere_is_exact(seed):
    rng = np.random.default_rng(seed)
    V, F = icosphere_arrays(0.5, 2)
    m = _mesh(V, F.ravel())
    b = convex_box()
    pos = rng.normal(size=3)
    pos *= rng.uniform(0.45, 0.7) / np.linalg.norm(pos)
    ode.dGeomSetRotation(b, rot(*rng.normal(size=3), rng.uniform(0, 3)))
    ode.dGeomSetPosition(b, *pos)
    Q = tc.convex_world_arrays(b)[0]
    mtd = polytope_mtd(Q, BOX_F, V, F)
    cs = ode.dCollide(b, m, 8)
    assert mtd > 0.0 and cs
    # only the overlap of the solid remains, not the rim triangles' own
    assert deepest(cs).depth == pytest.approx(mtd, abs=1e-9)


def test_tessellated_spheres_crossing_steeply_still_touch():
    V, F = icosphere_arrays(0.5, 2)
    a = _mesh(V, F.ravel())
    b = _mesh(V, F.ravel())
    centre = np.array([0.3, 0.5, 0.6])                   # 0.16 deep for true spheres
    ode.dGeomSetPosition(b, *centre)
    cs = ode.dCollide(a, b, 8)
    assert len(cs) == 8
    u = -centre / np.linalg.norm(centre)                # a is pushed away from b
    assert 0.05 < deepest(cs).depth < 0.17
    assert all(angle(c.normal, u) < 60.0 for c in cs)
