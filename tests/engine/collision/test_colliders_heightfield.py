"""Heightfield colliders (engine.ode.collision.pairs.colliders_heightfield) against ODE 0.16.2.

tests/reference/heightfield_contacts.json holds ODE's contacts (libode,
double precision) for 374 random heightfield / shape poses: fields flat,
sloped, bumpy, with a peak, a valley or a wave, in every sample format
(callback, byte, short, single, double) with scale, offset, thickness and
wrap, fixed or placeable and rotated; spheres, boxes, capsules, cylinders,
rays, convex octahedra and box trimeshes; both argument orders. Our
collider follows ODE's algorithm on the same geometry, so every contact
(order, position, normal, depth, sides) must agree to 1e-6 (the recorded
runs agree to ~1e-13). For 12 trimesh cases ODE appends contacts from its
vertex ray casts (OPCODE with a negative ray length), which are not
reproduced: there our contacts must be ODE's leading ones.
heightfield_roll.json is a sphere rolling down a sloped field under ODE.
"""

from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import ode

REF_DIR = Path(__file__).resolve().parents[2] / "reference"
CASES = json.loads((REF_DIR / "heightfield_contacts.json").read_text())["cases"]
ROLL = json.loads((REF_DIR / "heightfield_roll.json").read_text())
TOL = 1e-6
_DTYPES = {"double": np.float64, "single": np.float32, "short": np.int16, "byte": np.uint8}


def _num(v):
    """JSON value with "inf"/"-inf" strings decoded."""
    if isinstance(v, str):
        return float(v)
    if isinstance(v, list):
        return [_num(x) for x in v]
    return v


def _field(c: dict):
    """Heightfield data and geom of a recorded case."""
    d = ode.dGeomHeightfieldDataCreate()
    h = np.array(c["heights"])
    args = (c["width"], c["depth"], c["ws"], c["ds"], c["scale"], c["offset"], c["thickness"],
            c["wrap"])
    if c["fmt"] == "callback":
        ode.dGeomHeightfieldDataBuildCallback(d, h, lambda u, x, z: float(u[z, x]), *args)
        if c.get("bounds", True):
            ode.dGeomHeightfieldDataSetBounds(d, float(h.min()), float(h.max()))
    else:
        build = getattr(ode, "dGeomHeightfieldDataBuild" + c["fmt"].capitalize())
        build(d, h.astype(_DTYPES[c["fmt"]]), 1, *args)
    g = ode.dCreateHeightfield(None, d, c["placeable"])
    if c["placeable"]:
        ode.dGeomSetPosition(g, *c["hfpos"])
        ode.dGeomSetRotation(g, np.array(c["hfR"]))
    return d, g


def _octahedron(rx: float, ry: float, rz: float):
    """dCreateConvex arguments of an octahedron with half-axes rx, ry, rz:
    vertices +-x, +-y, +-z, one face per octant, CCW from outside."""
    pts = np.array([[rx, 0, 0], [-rx, 0, 0], [0, ry, 0], [0, -ry, 0], [0, 0, rz], [0, 0, -rz]])
    planes, polys = [], []
    for sx in (1, -1):
        for sy in (1, -1):
            for sz in (1, -1):
                n = np.array([sx / rx, sy / ry, sz / rz])
                length = np.linalg.norm(n)
                planes.append([*(n / length), 1.0 / length])
                tri = [0 if sx > 0 else 1, 2 if sy > 0 else 3, 4 if sz > 0 else 5]
                polys += [3, *(tri if sx * sy * sz > 0 else tri[::-1])]
    return np.array(planes), pts, polys


def _box_mesh(a: float, b: float, c: float):
    """Vertices (8, 3) and indices (36,) of a box mesh with half sizes a, b, c
    (faces -x, +x, -y, +y, -z, +z, two triangles each, CCW from outside)."""
    v = np.array([[x, y, z] for x in (-a, a) for y in (-b, b) for z in (-c, c)], float)
    faces = [(0, 1, 3, 2), (4, 6, 7, 5), (0, 4, 5, 1), (2, 3, 7, 6), (0, 2, 6, 4), (1, 5, 7, 3)]
    idx = [i for f in faces for i in (f[0], f[1], f[2], f[0], f[2], f[3])]
    return v, np.array(idx)


def _shape(kind: str, dims, pos, R):
    if kind == "trimesh":
        v, idx = _box_mesh(*dims)
        td = ode.dGeomTriMeshDataCreate()
        ode.dGeomTriMeshDataBuildSimple(td, v, len(v), idx, len(idx))
        o = ode.dCreateTriMesh(None, td, None, None, None)
    elif kind == "convex":
        planes, pts, polys = _octahedron(*dims)
        o = ode.dCreateConvex(None, planes, 8, pts, 6, polys)
    elif kind == "sphere":
        o = ode.dCreateSphere(None, *dims)
    elif kind == "box":
        o = ode.dCreateBox(None, *dims)
    elif kind == "capsule":
        o = ode.dCreateCapsule(None, *dims)
    elif kind == "cylinder":
        o = ode.dCreateCylinder(None, *dims)
    else:
        o = ode.dCreateRay(None, dims[0])
    ode.dGeomSetPosition(o, *pos)
    ode.dGeomSetRotation(o, np.asarray(R, dtype=float))
    return o


def _rows(contacts) -> np.ndarray:
    return np.array([[*c.pos, *c.normal, c.depth, c.side1, c.side2] for c in contacts]
                    ).reshape(-1, 9)


def _ode_rows(recorded) -> np.ndarray:
    return np.array([[*k["pos"], *k["normal"], k["depth"], k["side1"], k["side2"]]
                     for k in recorded]).reshape(-1, 9)


@pytest.mark.parametrize("case", CASES, ids=[f"{c['source']}-{c['style']}-{c['fmt']}-{c['shape']}"
                                              for c in CASES])
def test_contacts_match_ode(case):
    _, g = _field(case)
    o = _shape(case["shape"], case["dims"], case["pos"], case["R"])
    for name, a, b in (("hf_first", g, o), ("hf_second", o, g)):
        got = _rows(ode.dCollide(a, b, case["maxc"]))
        want = _ode_rows(case["ode"][name])
        if case.get("ode_extra_vertex_contacts"):
            # ODE's trimesh vertex ray casts (not reproduced) add contacts at
            # grid samples after the plane-pass contacts, which we give
            assert 0 < len(want) - len(got) and np.all(want[len(got):, 7:] == -1)
            want = want[:len(got)]
        assert got.shape == want.shape, (name, got, want)
        np.testing.assert_allclose(got[:, :7], want[:, :7], atol=TOL, rtol=0, err_msg=name)
        np.testing.assert_array_equal(got[:, 7:], want[:, 7:], err_msg=name)
    np.testing.assert_allclose(ode.dGeomGetAABB(g), _num(case["ode"]["aabb"]), atol=1e-9)


def test_reference_covers_the_algorithm():
    """The recorded cases exercise the flat-zone, triangle-plane and vertex
    passes, the truncation to max_contacts and every shape and format."""
    counts = [len(c["ode"]["hf_first"]) for c in CASES]
    assert max(counts) >= 20 and counts.count(0) >= 20
    assert any(len(c["ode"]["hf_first"]) == c["maxc"] > 1 for c in CASES)
    assert {c["shape"] for c in CASES} == {"sphere", "box", "capsule", "cylinder", "ray",
                                           "convex", "trimesh"}
    assert {c["fmt"] for c in CASES} == {"double", "single", "short", "byte", "callback"}
    assert {c["style"] for c in CASES} >= {"flat", "slope", "bumpy", "peak", "valley", "wave"}
    assert any(c["wrap"] for c in CASES) and any(c["placeable"] for c in CASES)


# ----------------------------------------------------------------------------- sanity cases
def _flat_field(height: float = 0.5, placeable: int = 0, wrap: int = 0):
    d = ode.dGeomHeightfieldDataCreate()
    ode.dGeomHeightfieldDataBuildDouble(d, np.full((5, 5), height), 1, 4.0, 4.0, 5, 5, 1.0,
                                        0.0, 0.0, wrap)
    return d, ode.dCreateHeightfield(None, d, placeable)


@pytest.mark.parametrize("kind,dims", [("sphere", [0.4]), ("box", [0.6, 0.5, 0.7]),
                                       ("capsule", [0.3, 0.8]), ("cylinder", [0.3, 0.8])])
def test_flat_field_equals_plane(kind, dims):
    """A flat field gives exactly the plane collider's contacts (normal negated
    for the (heightfield, shape) order)."""
    _, g = _flat_field(0.5)
    plane = ode.dCreatePlane(None, 0, 1, 0, 0.5)
    R = ode.dRFromAxisAndAngle(0.3, 1.0, 0.2, 0.6)
    o = _shape(kind, dims, [0.2, 0.55, -0.3], R)
    got = _rows(ode.dCollide(g, o, 8))
    want = _rows(ode.dCollide(o, plane, 8))
    assert len(want) >= 1
    want[:, 3:6] *= -1
    np.testing.assert_allclose(got, want, atol=1e-12)


def test_sphere_resting_on_flat_field():
    _, g = _flat_field(0.5)
    s = _shape("sphere", [0.3], [0.1, 0.75, 0.2], np.eye(3))
    (c,) = ode.dCollide(s, g, 4)
    np.testing.assert_allclose(c.pos, [0.1, 0.45, 0.2], atol=1e-12)
    np.testing.assert_allclose(c.normal, [0, 1, 0], atol=1e-12)
    assert c.depth == pytest.approx(0.05)
    assert c.g1 is s and c.g2 is g and (c.side1, c.side2) == (-1, -1)


def test_box_face_on_flat_and_sloped():
    """A box lying face-down gets its 4 bottom corners, on a flat field and
    on a uniform slope (box turned to lie on it), depth = sink depth."""
    _, g = _flat_field(0.5)
    b = _shape("box", [0.6, 0.4, 0.8], [0.1, 0.5 + 0.2 - 0.03, -0.2], np.eye(3))
    cs = ode.dCollide(b, g, 8)
    assert len(cs) == 4
    np.testing.assert_allclose(sorted(c.pos[0] for c in cs), [-0.2, -0.2, 0.4, 0.4])
    np.testing.assert_allclose([c.depth for c in cs], 0.03, atol=1e-12)
    np.testing.assert_allclose([c.pos[1] for c in cs], 0.47, atol=1e-12)
    # slope: h = 0.5 x (x from the corner), a box turned about z by atan(0.5)
    d = ode.dGeomHeightfieldDataCreate()
    ode.dGeomHeightfieldDataBuildDouble(d, np.tile(0.5 * np.arange(5.0), (5, 1)), 1, 4.0, 4.0,
                                        5, 5, 1.0, 0.0, 0.0, 0)
    sl = ode.dCreateHeightfield(None, d, 0)
    angle = math.atan(0.5)
    n = np.array([-math.sin(angle), math.cos(angle), 0.0])
    centre = np.array([0.3, 0.5 * 2.3, 0.1]) + n * (0.2 - 0.05)
    b2 = _shape("box", [0.6, 0.4, 0.8], centre, ode.dRFromAxisAndAngle(0, 0, 1, angle))
    cs = ode.dCollide(b2, sl, 8)
    assert len(cs) == 4
    for c in cs:
        np.testing.assert_allclose(c.normal, n, atol=1e-12)
        assert c.depth == pytest.approx(0.05, abs=1e-12)


def test_separated_and_outside():
    _, g = _flat_field(0.5)
    assert ode.dCollide(g, _shape("sphere", [0.3], [0.1, 0.9, 0.2], np.eye(3)), 4) == []
    # beside a finite field (beyond x = +2), nothing; a wrapped field goes on forever
    assert ode.dCollide(g, _shape("sphere", [0.3], [3.0, 0.6, 0.0], np.eye(3)), 4) == []
    _, gw = _flat_field(0.5, wrap=1)
    assert len(ode.dCollide(gw, _shape("sphere", [0.3], [13.0, 0.6, -7.0], np.eye(3)), 4)) == 1


@pytest.mark.parametrize("x,n", [(1.9, 1), (2.1, 1), (2.25, 1), (2.35, 0)])
def test_flat_field_reaches_beyond_its_edge(x, n):
    """ODE's flat-zone shortcut keeps every plane contact: a sphere (r 0.3)
    hanging over the edge (x = 2) of a finite flat field still touches it
    while its AABB overlaps the field (recorded with ODE 0.16.2)."""
    _, g = _flat_field(0.5)
    cs = ode.dCollide(_shape("sphere", [0.3], [x, 0.75, 0.0], np.eye(3)), g, 4)
    assert len(cs) == n
    for c in cs:
        np.testing.assert_allclose(c.pos, [x, 0.45, 0.0], atol=1e-12)
        assert c.depth == pytest.approx(0.05)


def test_shape_under_the_field():
    """A shape entirely below every sample of its zone gets ODE's single
    'under' contact: at (x, lowest sample, z), normal -y, depth to its top."""
    _, g = _flat_field(0.5)
    s = _shape("sphere", [0.2], [0.3, -1.0, 0.4], np.eye(3))
    (c,) = ode.dCollide(g, s, 4)
    np.testing.assert_allclose(c.pos, [0.3, 0.5, 0.4], atol=1e-12)
    np.testing.assert_allclose(c.normal, [0, -1, 0], atol=1e-12)
    assert c.depth == pytest.approx(1.3)


def test_rotated_placeable_field():
    """A field turned so that its height axis is world z behaves like the
    plane z = height."""
    _, g = _flat_field(0.25, placeable=1)
    ode.dGeomSetPosition(g, 1.0, 2.0, 3.0)
    ode.dGeomSetRotation(g, ode.dRFromAxisAndAngle(1, 0, 0, math.pi / 2))
    s = _shape("sphere", [0.5], [1.2, 2.1, 3.0 + 0.25 + 0.4], np.eye(3))
    (c,) = ode.dCollide(s, g, 4)
    np.testing.assert_allclose(c.normal, [0, 0, 1], atol=1e-12)
    np.testing.assert_allclose(c.pos, [1.2, 2.1, 3.15], atol=1e-12)
    assert c.depth == pytest.approx(0.1)


def test_ray_down_on_slope():
    """A ray cast straight down hits the sloped surface at its height."""
    d = ode.dGeomHeightfieldDataCreate()
    xs = np.arange(5) * 1.0
    ode.dGeomHeightfieldDataBuildDouble(d, np.tile(0.5 * xs, (5, 1)), 1, 4.0, 4.0, 5, 5, 1.0,
                                        0.0, 0.0, 0)
    g = ode.dCreateHeightfield(None, d, 0)
    r = ode.dCreateRay(None, 10.0)
    ode.dGeomRaySet(r, 0.3, 5.0, 0.1, 0, -1, 0)
    (c,) = ode.dCollide(r, g, 4)
    # local x = 0.3 is 2.3 m from the corner: height 0.5 * 2.3
    np.testing.assert_allclose(c.pos, [0.3, 1.15, 0.1], atol=1e-12)
    assert c.depth == pytest.approx(5.0 - 1.15)
    n = np.array([-0.5, 1.0, 0.0]) / math.sqrt(1.25)
    np.testing.assert_allclose(c.normal, n, atol=1e-12)


PEAK = [  # (radius, y, x) of a sphere at z = 0.02 -> ODE 0.16.2's contacts (pos, normal, depth)
    (0.3, 1.2, 0.0, []),
    (0.3, 1.2, 0.05, []),
    (0.8, 1.7, 0.0, [([0.0, 1.0, 0.0], [-0.57735, 0.57735, -0.57735], 0.099714)]),
    (0.3, 0.9, 0.4, []),
    (0.3, 0.25, -1.5, [([-1.5, -0.05, 0.02], [0.0, 1.0, 0.0], 0.05)]),
    (0.5, 0.3, 1.0, [([1.0, -0.2, 0.02], [0.0, 1.0, 0.0], 0.2)]),
]


@pytest.mark.parametrize("r,y,x,want", PEAK)
def test_sphere_on_a_peak_like_ode(r, y, x, want):
    """ODE's quirk on a one-sample spike (height 1, 1 m cells): a sphere
    narrower than 1.5 cells sunk into the apex or its slopes gets no contact
    (each triangle plane's contact point falls outside that triangle); a wider
    one gets the apex vertex as a contact with the normal of a triangle;
    on the flat ground around, a plain plane contact."""
    h = np.zeros((5, 5))
    h[2, 2] = 1.0
    d = ode.dGeomHeightfieldDataCreate()
    ode.dGeomHeightfieldDataBuildDouble(d, h, 1, 4.0, 4.0, 5, 5, 1.0, 0.0, 0.0, 0)
    g = ode.dCreateHeightfield(None, d, 0)
    s = _shape("sphere", [r], [x, y, 0.02], np.eye(3))
    got = ode.dCollide(s, g, 10)
    assert len(got) == len(want)
    for c, (pos, normal, depth) in zip(got, want, strict=True):
        np.testing.assert_allclose(c.pos, pos, atol=1e-4)
        np.testing.assert_allclose(c.normal, normal, atol=1e-4)
        assert c.depth == pytest.approx(depth, abs=1e-6)


VALLEY = [  # (radius, y, x, z) of a sphere -> ODE 0.16.2's contacts (pos, normal, depth)
    (0.3, 0.35, 0.0, 0.0, [
        ([-0.173205, 0.176795, -0.173205], [0.57735, 0.57735, 0.57735], 0.0979274),
        ([-0.212132, 0.137868, 0.0], [0.707107, 0.707107, -0.0], 0.0525126),
        ([0.0, 0.137868, -0.212132], [-0.0, 0.707107, 0.707107], 0.0525126),
        ([0.173205, 0.176795, 0.173205], [-0.57735, 0.57735, -0.57735], 0.0979274),
    ]),
    (0.3, 0.45, 0.1, -0.05, [
        ([-0.073205, 0.276795, -0.223205], [0.57735, 0.57735, 0.57735], 0.0113249),
        ([0.1, 0.237868, -0.262132], [-0.0, 0.707107, 0.707107], 0.0171573),
        ([0.312132, 0.237868, -0.05], [-0.707107, 0.707107, 0.0], 0.0525126),
        ([0.273205, 0.276795, 0.123205], [-0.57735, 0.57735, -0.57735], 0.0690599),
    ]),
    (0.5, 0.5, 0.0, 0.0, [
        ([-0.288675, 0.211325, -0.288675], [0.57735, 0.57735, 0.57735], 0.2113249),
        ([-0.353553, 0.146447, 0.0], [0.707107, 0.707107, -0.0], 0.1464466),
        ([0.0, 0.146447, -0.353553], [-0.0, 0.707107, 0.707107], 0.1464466),
        ([0.288675, 0.211325, 0.288675], [-0.57735, 0.57735, -0.57735], 0.2113249),
    ]),
    (0.8, 0.9, 0.05, 0.02, [
        ([-0.41188, 0.43812, -0.44188], [0.57735, 0.57735, 0.57735], 0.2399702),
        ([-0.515685, 0.334315, 0.02], [0.707107, 0.707107, -0.0], 0.1282486),
        ([0.05, 0.334315, -0.545685], [-0.0, 0.707107, 0.707107], 0.1494618),
        ([0.51188, 0.43812, 0.48188], [-0.57735, 0.57735, -0.57735], 0.3207993),
    ]),
    (0.2, 0.6, 0.5, 0.5, [
        ([0.5, 0.4, 0.5], [0.0, 1.0, 0.0], 0.6),
    ]),
    (0.25, 1.2, -0.98, 1.01, [
        ([-0.98, 0.95, 1.01], [0.0, 1.0, 0.0], 0.05),
    ]),
]


@pytest.mark.parametrize("r,y,x,z,want", VALLEY)
def test_sphere_in_a_valley_like_ode(r, y, x, z, want):
    """A one-sample pit (height 0 in a field of 1, 1 m cells): the sphere in
    the pit touches the four triangle planes around it (ODE's order: planes
    by ascending highest vertex); across the cells' diagonal the buried
    sphere meets the flat triangle's plane."""
    h = np.ones((5, 5))
    h[2, 2] = 0.0
    d = ode.dGeomHeightfieldDataCreate()
    ode.dGeomHeightfieldDataBuildDouble(d, h, 1, 4.0, 4.0, 5, 5, 1.0, 0.0, 0.0, 0)
    g = ode.dCreateHeightfield(None, d, 0)
    s = _shape("sphere", [r], [x, y, z], np.eye(3))
    got = ode.dCollide(s, g, 10)
    assert len(got) == len(want)
    for c, (pos, normal, depth) in zip(got, want, strict=True):
        np.testing.assert_allclose(c.pos, pos, atol=2e-6)
        np.testing.assert_allclose(c.normal, normal, atol=2e-6)
        assert c.depth == pytest.approx(depth, abs=2e-7)


@pytest.mark.parametrize("case", CASES[::9], ids=lambda c: c["source"])
def test_swap_symmetry(case):
    _, g = _field(case)
    o = _shape(case["shape"], case["dims"], case["pos"], case["R"])
    a = _rows(ode.dCollide(g, o, case["maxc"]))
    b = _rows(ode.dCollide(o, g, case["maxc"]))
    assert a.shape == b.shape
    np.testing.assert_allclose(b[:, :3], a[:, :3], atol=1e-12)
    np.testing.assert_allclose(b[:, 3:6], -a[:, 3:6], atol=1e-12)
    np.testing.assert_allclose(b[:, 6], a[:, 6], atol=1e-12)
    np.testing.assert_array_equal(b[:, 7:], a[:, [8, 7]])


def test_max_contacts_truncates():
    rng = np.random.default_rng(3)
    d = ode.dGeomHeightfieldDataCreate()
    ode.dGeomHeightfieldDataBuildDouble(d, rng.uniform(0, 0.3, (9, 9)), 1, 4.0, 4.0, 9, 9, 1.0,
                                        0.0, 0.0, 0)
    g = ode.dCreateHeightfield(None, d, 0)
    b = _shape("box", [3.0, 0.4, 3.0], [0.0, 0.3, 0.0], np.eye(3))
    many = _rows(ode.dCollide(g, b, 200))
    assert len(many) > 8
    few = _rows(ode.dCollide(g, b, 5))
    np.testing.assert_array_equal(few, many[:5])


@pytest.mark.parametrize("make_space", ["dSimpleSpaceCreate", "dHashSpaceCreate"])
@pytest.mark.parametrize("placeable,wrap", [(1, 1), (0, 1), (0, 0), (1, 0)])
def test_space_collide_finds_heightfield(make_space, placeable, wrap):
    """Wrapped fields have infinite AABBs (all axes when placeable)."""
    space = getattr(ode, make_space)(None)
    d = ode.dGeomHeightfieldDataCreate()
    ode.dGeomHeightfieldDataBuildDouble(d, np.zeros((4, 4)), 1, 3.0, 3.0, 4, 4, 1.0, 0.0, 1.0,
                                        wrap)
    g = ode.dCreateHeightfield(space, d, placeable)
    s = ode.dCreateSphere(space, 0.2)
    ode.dGeomSetPosition(s, 7.0 if wrap else 0.7, 0.1, -9.0 if wrap else -0.4)
    pairs = []
    ode.dSpaceCollide(space, None, lambda data, a, b: pairs.append(ode.dCollide(a, b, 4)))
    assert len(pairs) == 1 and len(pairs[0]) == 1
    assert {pairs[0][0].g1, pairs[0][0].g2} == {g, s}
    assert pairs[0][0].depth == pytest.approx(0.1)


# ----------------------------------------------------------------------------- properties
BUMPS = np.random.default_rng(11).uniform(0.0, 0.8, size=(7, 7))


def _bumpy():
    d = ode.dGeomHeightfieldDataCreate()
    ode.dGeomHeightfieldDataBuildDouble(d, BUMPS, 1, 6.0, 6.0, 7, 7, 1.0, 0.0, 0.5, 0)
    return d, ode.dCreateHeightfield(None, d, 0)


def _surface(x: float, z: float) -> float:
    """Height of the triangulated BUMPS surface (1 m cells, centred grid)."""
    u, v = x + 3.0, z + 3.0
    i, j = min(int(math.floor(u)), 5), min(int(math.floor(v)), 5)
    fx, fz = u - i, v - j
    h = BUMPS.T  # h[ix, iz]
    if fx + fz <= 1.0:
        return h[i, j] + (h[i + 1, j] - h[i, j]) * fx + (h[i, j + 1] - h[i, j]) * fz
    return (h[i + 1, j + 1] + (h[i + 1, j] - h[i + 1, j + 1]) * (1 - fz)
            + (h[i, j + 1] - h[i + 1, j + 1]) * (1 - fx))


@settings(max_examples=50, deadline=None)
@given(x=st.floats(-2.5, 2.5), z=st.floats(-2.5, 2.5), r=st.floats(0.05, 0.7),
       lift=st.floats(-0.9, 1.0))
def test_sphere_contacts_lie_on_surface(x, z, r, lift):
    """Sphere plane contacts: the point is inside the sphere, on or under the
    surface by exactly depth along the triangle normal, and the normal is
    the surface's (pointing up into the sphere)."""
    _, g = _bumpy()
    # the sphere's top stays above the surface (no 'under' contact)
    y = _surface(x, z) + r * (1.0 + lift)
    s = _shape("sphere", [r], [x, y, z], np.eye(3))
    for c in ode.dCollide(s, g, 16):
        p = np.asarray(c.pos)
        n = np.asarray(c.normal)
        assert np.linalg.norm(p - [x, y, z]) <= r + 1e-9
        assert abs(np.linalg.norm(n) - 1) < 1e-12 and n[1] > 0
        assert c.depth >= -1e-12
        below = _surface(p[0], p[2]) - p[1]
        assert below >= -1e-9
        if r < 0.75:  # no vertex pass for a sphere under 1.5 cells wide
            assert below == pytest.approx(c.depth / n[1], abs=1e-9)


@settings(max_examples=40, deadline=None)
@given(kind=st.sampled_from(["sphere", "box", "capsule", "cylinder"]),
       x=st.floats(-2.5, 2.5), z=st.floats(-2.5, 2.5), gap=st.floats(0.01, 2.0),
       ax=st.floats(-1, 1), ay=st.floats(-1, 1), angle=st.floats(0, 3.1))
def test_no_contact_above_field(kind, x, z, gap, ax, ay, angle):
    """Any shape whose lowest point is above the highest sample: no contact."""
    _, g = _bumpy()
    dims = {"sphere": [0.4], "box": [0.5, 0.8, 0.3], "capsule": [0.3, 0.9],
            "cylinder": [0.3, 0.9]}[kind]
    o = _shape(kind, dims, [x, 0.0, z], ode.dRFromAxisAndAngle(ax, ay, 0.5, angle))
    box = ode.dGeomGetAABB(o)
    ode.dGeomSetPosition(o, x, BUMPS.max() - box[2] + gap, z)
    assert ode.dCollide(g, o, 8) == []
    assert ode.dCollide(o, g, 8) == []


@settings(max_examples=40, deadline=None)
@given(kind=st.sampled_from(["box", "capsule", "cylinder"]), x=st.floats(-2.5, 2.5),
       z=st.floats(-2.5, 2.5), sink=st.floats(0.0, 0.3), angle=st.floats(0, 3.1))
def test_box_capsule_cylinder_contacts_inside_shape(kind, x, z, sink, angle):
    """Contacts of sunk shapes lie in the shape (within depth) and on or
    under the surface, with upward normals and depth >= 0."""
    _, g = _bumpy()
    dims = {"box": [0.5, 0.4, 0.6], "capsule": [0.2, 0.6], "cylinder": [0.25, 0.5]}[kind]
    o = _shape(kind, dims, [x, 0.0, z], ode.dRFromAxisAndAngle(1, 0.3, 0.2, angle))
    box = ode.dGeomGetAABB(o)
    ode.dGeomSetPosition(o, x, _surface(x, z) - box[2] - sink, z)
    reach = 0.5 * math.sqrt(sum(v * v for v in dims)) + max(dims)
    for c in ode.dCollide(g, o, 16):
        p = np.asarray(c.pos)
        assert c.depth >= -1e-12
        assert np.asarray(c.normal)[1] < 0  # into the heightfield
        assert np.linalg.norm(p - ode.dGeomGetPosition(o)) <= reach + 1e-9
        assert _surface(p[0], p[2]) - p[1] >= -1e-9


# ----------------------------------------------------------------------------- dynamics
def _roll(stepper: str, steps: int = 300):
    """ODE's reference scene (see heightfield_roll.json) on engine.ode."""
    w = ode.dWorldCreate()
    ode.dWorldSetGravity(w, 0, -9.81, 0)
    grp = ode.dJointGroupCreate(0)
    d = ode.dGeomHeightfieldDataCreate()
    h = np.array([[0.25 * (10 - x) + 0.02 * z for x in range(11)] for z in range(11)])
    ode.dGeomHeightfieldDataBuildDouble(d, h, 1, 10.0, 10.0, 11, 11, 1.0, 0.0, 1.0, 0)
    hf = ode.dCreateHeightfield(None, d, 0)
    b = ode.dBodyCreate(w)
    m = ode.dMass()
    ode.dMassSetSphereTotal(m, 1.0, 0.25)
    ode.dBodySetMass(b, m)
    ode.dBodySetPosition(b, -3.0, 2.45, 0.0)
    s = ode.dCreateSphere(None, 0.25)
    ode.dGeomSetBody(s, b)
    traj, ncont = [], []
    for _ in range(steps):
        cs = ode.dCollide(s, hf, 4)
        ncont.append(len(cs))
        for c in cs:
            ct = ode.dContact()
            ct.surface.mode = 0
            ct.surface.mu = 1.0
            ct.geom = c
            ode.dJointAttach(ode.dJointCreateContact(w, grp, ct), b, None)
        getattr(ode, stepper)(w, 0.01)
        ode.dJointGroupEmpty(grp)
        traj.append(np.array(ode.dBodyGetPosition(b)))
    return np.array(traj), ncont, np.array(ode.dBodyGetLinearVel(b))


@pytest.mark.parametrize("stepper", ["dWorldStep", "dWorldQuickStep"])
def test_sphere_rolls_down_slope_like_ode(stepper):
    """The sphere lands, rolls down the slope (+x, and -z for the small cross
    slope) and ends where ODE's does. Tolerance 1e-6 m: the contacts are
    ODE's to ~1e-14 and the solver is ODE's, so the trajectories agree to
    ~1e-14 (recorded run); 1e-6 m over 7.4 m of travel leaves room for
    rounding differences without letting a different contact set pass."""
    ref = ROLL[stepper]
    traj, ncont, vel = _roll(stepper)
    assert ncont == ref["ncont"]
    np.testing.assert_allclose(traj[::10], np.array(ref["traj"][:-1]), atol=1e-6)
    np.testing.assert_allclose(traj[-1], ref["final"], atol=1e-6)
    np.testing.assert_allclose(vel, ref["vel"], atol=1e-6)
    assert traj[-1][0] - traj[0][0] > 7.0 and traj[-1][2] < -0.5
    assert traj[-1][1] < 1.0
