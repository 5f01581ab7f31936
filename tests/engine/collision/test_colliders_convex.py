"""Convex colliders (engine.ode.collision.pairs.colliders_convex).

ODE 0.16.2's recorded contacts are checked by test_collision_matrix; here:
exact cases, the ray's geometric first hit (docs/decisions/0006), and
properties: swapping the arguments mirrors the contacts, contacts lie in both
shapes within the depth, the depth is the separating translation, no contact
when apart.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import ode
from tests.engine.collision.test_convex import OCTA_PLANES, cube_arrays, octa

S3 = 1.0 / math.sqrt(3.0)


def cube(h: float = 0.5):
    planes, points, polys = cube_arrays(h)
    return ode.dCreateConvex(None, planes, 6, points, 8, polys)


def rot(axis, angle: float) -> np.ndarray:
    return np.asarray(ode.dRFromAxisAndAngle(*axis, angle)).reshape(3, 4)[:, :3]


def place(g, pos=(0.0, 0.0, 0.0), R=None):
    ode.dGeomSetPosition(g, *pos)
    if R is not None:
        ode.dGeomSetRotation(g, R)
    return g


def ray(start, direction, length: float):
    r = ode.dCreateRay(None, length)
    ode.dGeomRaySet(r, *start, *direction)
    return r


# ----------------------------------------------------------------------------- plane
def test_plane_one_contact_per_vertex_below() -> None:
    c = place(cube(), (0.0, 0.0, 0.45))
    plane = ode.dCreatePlane(None, 0, 0, 1, 0)
    cs = ode.dCollide(c, plane, 8)
    assert len(cs) == 4
    for k in cs:
        assert k.depth == pytest.approx(0.05)
        np.testing.assert_allclose(k.normal, [0, 0, 1])
        assert k.pos[2] == pytest.approx(-0.05)
        assert abs(k.pos[0]) == pytest.approx(0.5) and abs(k.pos[1]) == pytest.approx(0.5)
        assert (k.side1, k.side2) == (-1, -1)
    rev = ode.dCollide(plane, c, 8)
    assert len(rev) == 4
    np.testing.assert_allclose(rev[0].normal, [0, 0, -1])
    assert rev[0].g1 is plane
    # tilted: deepest first, and no more than asked for
    ode.dGeomSetRotation(c, rot((1, 0.3, 0), 0.2))
    cs = ode.dCollide(c, plane, 8)
    depths = [k.depth for k in cs]
    assert depths == sorted(depths, reverse=True)
    assert len(ode.dCollide(c, plane, 1)) == 1
    assert ode.dCollide(c, plane, 1)[0].depth == pytest.approx(depths[0])
    # touching counts; apart gives nothing
    place(c, (0.0, 0.0, 0.5), np.eye(3))
    assert [k.depth for k in ode.dCollide(c, plane, 8)] == [0.0] * 4
    place(c, (0.0, 0.0, 0.51))
    assert ode.dCollide(c, plane, 8) == []


# ----------------------------------------------------------------------------- ray
def test_ray_hits_the_entry_face() -> None:
    c = cube()
    cs = ode.dCollide(ray((0.1, 0.2, -2.0), (0, 0, 1), 5.0), c, 4)
    assert len(cs) == 1
    np.testing.assert_allclose(cs[0].pos, [0.1, 0.2, -0.5], atol=1e-12)
    np.testing.assert_allclose(cs[0].normal, [0, 0, -1], atol=1e-12)
    assert cs[0].depth == pytest.approx(1.5)
    # reversed order: normal negated, same point
    rev = ode.dCollide(c, ray((0.1, 0.2, -2.0), (0, 0, 1), 5.0), 4)
    np.testing.assert_allclose(rev[0].normal, [0, 0, 1], atol=1e-12)
    # too short, pointing away, beside, parallel outside a face
    assert ode.dCollide(ray((0.1, 0.2, -2.0), (0, 0, 1), 1.4), c, 4) == []
    assert ode.dCollide(ray((0.1, 0.2, -2.0), (0, 0, -1), 5.0), c, 4) == []
    assert ode.dCollide(ray((0.6, 0.2, -2.0), (0, 0, 1), 5.0), c, 4) == []
    assert ode.dCollide(ray((0.0, 0.0, 0.7), (1, 0, 0), 5.0), c, 4) == []


def test_ray_oblique_face_is_not_missed() -> None:
    """ODE 0.16.2 steps the perpendicular distance along the ray and misses
    such faces (docs/ode-behaviour.md); the geometric hit is on the face x+y+z=0.6."""
    o = octa()
    d = np.array([0.0, 0.0, 1.0])
    start = np.array([0.1, 0.05, -1.0])
    # entry through the face with normal (1, 1, -1)/sqrt(3): x + y - z = 0.6
    t = (0.6 - 0.1 - 0.05 - 1.0) / -1.0
    cs = ode.dCollide(ray(start, d, 3.0), o, 4)
    assert len(cs) == 1
    assert cs[0].depth == pytest.approx(t)
    np.testing.assert_allclose(cs[0].pos, start + t * d, atol=1e-12)
    np.testing.assert_allclose(cs[0].normal, [S3, S3, -S3], atol=1e-12)
    # placed and turned: the same hit in the convex's frame
    R = rot((0.3, -1.0, 0.5), 0.8)
    p = np.array([1.0, -2.0, 0.5])
    place(o, p, R)
    cs = ode.dCollide(ray(p + R @ start, R @ d, 3.0), o, 4)
    assert cs[0].depth == pytest.approx(t)
    np.testing.assert_allclose(cs[0].normal, R @ [S3, S3, -S3], atol=1e-12)


def test_ray_from_inside_reports_the_exit_unless_culled() -> None:
    o = octa()
    r = ray((0.0, 0.0, 0.0), (1, 0, 0), 2.0)
    cs = ode.dCollide(r, o, 4)
    assert len(cs) == 1
    assert cs[0].depth == pytest.approx(0.6)
    np.testing.assert_allclose(cs[0].pos, [0.6, 0, 0], atol=1e-12)
    assert cs[0].normal[0] < 0          # inward, as ODE for a start inside
    ode.dGeomRaySetFirstContact(r, 1)
    ode.dGeomRaySetClosestHit(r, 1)
    assert len(ode.dCollide(r, o, 4)) == 1
    ode.dGeomRaySetBackfaceCull(r, 1)
    assert ode.dCollide(r, o, 4) == []
    assert ode.dCollide(ray((0.0, 0.0, 0.0), (1, 0, 0), 0.5), o, 4) == []


@settings(max_examples=50, deadline=None)
@given(sx=st.floats(-2, 2), sy=st.floats(-2, 2), sz=st.floats(-2, 2),
       dx=st.floats(-1, 1), dy=st.floats(-1, 1), dz=st.floats(-1, 1))
def test_ray_hit_is_the_first_surface_point(sx, sy, sz, dx, dy, dz) -> None:
    d = np.array([dx, dy, dz])
    if np.linalg.norm(d) < 1e-3:
        return
    d /= np.linalg.norm(d)
    s = np.array([sx, sy, sz])
    planes = np.array(OCTA_PLANES)

    def outside(x):
        return float(np.max(planes[:, :3] @ x - planes[:, 3]))

    cs = ode.dCollide(ray(s, d, 4.0), octa(), 4)
    ts = np.linspace(0.0, 4.0, 4001)
    inside = [t for t in ts if outside(s + t * d) < -1e-9]
    if outside(s) < 0:
        return                       # starts inside: exit point, tested above
    if not inside:                   # missed, or grazed between the samples
        assert cs == [] or abs(outside(np.asarray(cs[0].pos))) < 1e-9
        return
    assert len(cs) == 1
    assert cs[0].depth <= inside[0] + 1e-12
    assert cs[0].depth >= inside[0] - 1e-3 - 1e-12
    assert abs(outside(np.asarray(cs[0].pos))) < 1e-9
    assert float(np.dot(cs[0].normal, d)) < 0


# ----------------------------------------------------------------------------- solids
def test_face_on_pairs_exact() -> None:
    c = cube()
    s = place(ode.dCreateSphere(None, 0.3), (0.1, -0.2, 0.75))
    (k,) = ode.dCollide(c, s, 4)
    assert k.depth == pytest.approx(0.05, abs=1e-12)
    np.testing.assert_allclose(k.normal, [0, 0, -1], atol=1e-12)
    b = place(ode.dCreateBox(None, 2.0, 2.0, 0.2), (0.3, 0.0, 0.58))
    (k,) = ode.dCollide(c, b, 4)
    assert k.depth == pytest.approx(0.02, abs=1e-12)
    np.testing.assert_allclose(k.normal, [0, 0, -1], atol=1e-12)
    cap = place(ode.dCreateCapsule(None, 0.2, 1.0), (0.0, 0.68, 0.0), rot((0, 1, 0), 1.0))
    (k,) = ode.dCollide(c, cap, 4)
    assert k.depth == pytest.approx(0.02, abs=1e-12)
    np.testing.assert_allclose(k.normal, [0, -1, 0], atol=1e-12)
    cyl = place(ode.dCreateCylinder(None, 0.3, 0.4), (0.0, 0.0, -0.65))
    (k,) = ode.dCollide(c, cyl, 4)
    assert k.depth == pytest.approx(0.05, abs=1e-9)
    np.testing.assert_allclose(k.normal, [0, 0, 1], atol=1e-9)
    # an octahedron's face against a sphere: along the face normal
    o = octa()
    n = np.array([S3, S3, S3])
    s2 = place(ode.dCreateSphere(None, 0.2), (0.6 * S3 + 0.15) * n)
    (k,) = ode.dCollide(o, s2, 4)
    assert k.depth == pytest.approx(0.05, abs=1e-12)
    np.testing.assert_allclose(k.normal, -n, atol=1e-12)
    assert ode.dCollide(o, place(s2, (0.6 * S3 + 0.21) * n), 4) == []


def test_sunk_below_the_plane_still_collides() -> None:
    """(ODE 0.16.2 gives nothing when every vertex is below the plane.)"""
    cs = ode.dCollide(place(cube(), (0.0, 0.0, -2.0)), ode.dCreatePlane(None, 0, 0, 1, 0), 8)
    assert len(cs) == 8
    assert max(k.depth for k in cs) == pytest.approx(2.5)


def test_touching_and_deep_pairs() -> None:
    c = cube()
    # exactly touching: one contact of depth 0; 1e-9 apart: none
    b = place(ode.dCreateBox(None, 1.0, 1.0, 1.0), (1.0, 0.3, 0.2))
    (k,) = ode.dCollide(c, b, 4)
    assert abs(k.depth) <= 1e-12
    np.testing.assert_allclose(k.normal, [-1, 0, 0], atol=1e-9)
    place(b, (1.0 + 1e-9, 0.3, 0.2))
    assert ode.dCollide(c, b, 4) == []
    s = place(ode.dCreateSphere(None, 0.25), (0.0, 0.0, 0.75))
    (k,) = ode.dCollide(c, s, 4)
    assert abs(k.depth) <= 1e-12
    # deep: the sphere's centre inside leaves by the nearest face
    place(s, (0.1, 0.35, -0.2))
    (k,) = ode.dCollide(c, s, 4)
    assert k.depth == pytest.approx(0.25 + 0.15, abs=1e-12)
    np.testing.assert_allclose(k.normal, [0, -1, 0], atol=1e-12)
    # a capsule through the cube along x, just off the centre: out by -y
    cap = place(ode.dCreateCapsule(None, 0.1, 2.0), (0.0, 0.05, 0.0), rot((0, 1, 0), math.pi / 2))
    (k,) = ode.dCollide(c, cap, 4)
    assert k.depth == pytest.approx(0.5 - 0.05 + 0.1, abs=1e-12)
    np.testing.assert_allclose(k.normal, [0, -1, 0], atol=1e-12)
    # a small cylinder inside, off-centre along z: the nearest face
    cyl = place(ode.dCreateCylinder(None, 0.1, 0.2), (0.0, 0.0, 0.3))
    (k,) = ode.dCollide(c, cyl, 4)
    assert k.depth == pytest.approx(0.2 + 0.1, abs=1e-9)
    np.testing.assert_allclose(k.normal, [0, 0, -1], atol=1e-9)


def test_tip_to_tip_convexes_push_along_the_axis() -> None:
    """Four face normals tie; their mean, the axis, as ODE (libccd) does."""
    a = octa()
    b = place(octa(), (0.0, 0.0, 1.15))
    (k,) = ode.dCollide(a, b, 4)
    assert k.depth == pytest.approx(0.05, abs=1e-12)
    np.testing.assert_allclose(k.normal, [0, 0, -1], atol=1e-12)
    np.testing.assert_allclose(k.pos, [0, 0, 0.575], atol=1e-12)


def test_convex_cube_agrees_with_the_box_geom() -> None:
    """A convex cube and a box geom of the same size against a sphere."""
    rng = np.random.default_rng(3)
    c = cube()
    b = ode.dCreateBox(None, 1.0, 1.0, 1.0)
    for _ in range(40):
        R = rot(rng.normal(size=3), rng.uniform(0, 3))
        place(c, (0, 0, 0), R)
        place(b, (0, 0, 0), R)
        s = place(ode.dCreateSphere(None, 0.4), rng.uniform(-0.9, 0.9, size=3))
        kc = ode.dCollide(c, s, 4)
        kb = ode.dCollide(b, s, 4)
        assert len(kc) == len(kb)
        if kc and kb[0].depth < 0.4:     # (centre outside: the box collider is exact)
            assert kc[0].depth == pytest.approx(kb[0].depth, abs=1e-9)
            np.testing.assert_allclose(kc[0].normal, kb[0].normal, atol=1e-7)


# ----------------------------------------------------------------------------- properties
unit = st.floats(-1.0, 1.0, allow_nan=False)
KINDS = ["sphere", "box", "capsule", "cylinder", "convex"]


def make(kind: str):
    if kind == "sphere":
        return ode.dCreateSphere(None, 0.5)
    if kind == "box":
        return ode.dCreateBox(None, 1.0, 0.8, 0.6)
    if kind == "capsule":
        return ode.dCreateCapsule(None, 0.3, 1.0)
    if kind == "cylinder":
        return ode.dCreateCylinder(None, 0.4, 1.0)
    return octa()


def signed_distance(g, p: np.ndarray) -> float:
    """Distance of p outside geom g (< 0 inside; for a convex, the largest
    plane distance: exact inside, a lower bound outside)."""
    x = np.asarray(g.R).T @ (p - np.asarray(g.pos))
    cls = ode.dGeomGetClass(g)
    if cls == ode.dSphereClass:
        return float(np.linalg.norm(x)) - g.radius
    if cls == ode.dBoxClass:
        q = np.abs(x) - 0.5 * np.asarray(g.lengths)
        return float(np.linalg.norm(np.maximum(q, 0)) + min(q.max(), 0.0))
    if cls == ode.dCapsuleClass:
        z = np.clip(x[2], -0.5 * g.length, 0.5 * g.length)
        return float(np.linalg.norm(x - [0, 0, z])) - g.radius
    if cls == ode.dCylinderClass:
        d = np.array([math.hypot(x[0], x[1]) - g.radius, abs(x[2]) - 0.5 * g.length])
        return float(min(d.max(), 0.0) + np.linalg.norm(np.maximum(d, 0)))
    return float(np.max(g.planes[:, :3] @ x - g.planes[:, 3]))


def pair(kind, x, y, z, ax, ay, az, ang):
    c = place(octa(), (0.0, 0.0, 0.0), rot((1.0, 0.2, -0.3), 0.4))
    o = make(kind)
    ode.dGeomSetPosition(o, x, y, z)
    if math.sqrt(ax * ax + ay * ay + az * az) > 1e-3:
        ode.dGeomSetRotation(o, rot((ax, ay, az), ang))
    return c, o


@settings(max_examples=50, deadline=None)
@given(kind=st.sampled_from(KINDS), x=unit, y=unit, z=unit, ax=unit, ay=unit, az=unit,
       ang=st.floats(0.0, 3.0))
def test_swap_symmetry(kind, x, y, z, ax, ay, az, ang) -> None:
    c, o = pair(kind, x, y, z, ax, ay, az, ang)
    fwd = ode.dCollide(c, o, 8)
    rev = ode.dCollide(o, c, 8)
    assert len(fwd) == len(rev) <= 1
    for a, b in zip(fwd, rev, strict=True):
        assert a.depth == pytest.approx(b.depth, abs=1e-9)
        assert a.depth >= 0.0
        if kind != "convex":            # the same call, swapped by the dispatcher
            np.testing.assert_allclose(a.pos, b.pos, atol=1e-12)
            np.testing.assert_allclose(a.normal, -np.asarray(b.normal), atol=1e-12)
        elif float(np.dot(a.normal, b.normal)) > -math.cos(math.radians(0.1)):
            # the collider run the other way round: the same direction, or
            # another one as deep (a symmetric tie, e.g. concentric)
            R = np.asarray(c.R)
            moved = place(octa(), -np.asarray(b.normal) * (a.depth + 1e-6), R)
            assert ode.dCollide(moved, o, 8) == []


@settings(max_examples=50, deadline=None)
@given(kind=st.sampled_from(KINDS), x=unit, y=unit, z=unit, ax=unit, ay=unit, az=unit,
       ang=st.floats(0.0, 3.0))
def test_contacts_lie_in_both_shapes(kind, x, y, z, ax, ay, az, ang) -> None:
    c, o = pair(kind, x, y, z, ax, ay, az, ang)
    for k in ode.dCollide(c, o, 8):
        p = np.asarray(k.pos)
        assert signed_distance(c, p) <= k.depth + 1e-9
        assert signed_distance(o, p) <= k.depth + 1e-9
        assert abs(np.linalg.norm(k.normal) - 1.0) < 1e-12


@settings(max_examples=50, deadline=None)
@given(kind=st.sampled_from(KINDS), x=unit, y=unit, z=unit, ax=unit, ay=unit, az=unit,
       ang=st.floats(0.0, 3.0))
def test_depth_is_the_separating_translation(kind, x, y, z, ax, ay, az, ang) -> None:
    """Moving the convex by depth + 1e-6 along the normal separates it; by
    depth - 1e-6 it does not."""
    c, o = pair(kind, x, y, z, ax, ay, az, ang)
    cs = ode.dCollide(c, o, 8)
    if not cs:
        return
    (k,) = cs
    n = np.asarray(k.normal)
    R = np.asarray(c.R)
    if k.depth > 2e-6:
        assert ode.dCollide(place(c, n * (k.depth - 1e-6), R), o, 8)
    assert ode.dCollide(place(c, n * (k.depth + 1e-6), R), o, 8) == []


@settings(max_examples=50, deadline=None)
@given(kind=st.sampled_from(KINDS + ["plane"]), dx=unit, dy=unit, dz=unit,
       ax=unit, ay=unit, az=unit, ang=st.floats(0.0, 3.0))
def test_no_contact_when_apart(kind, dx, dy, dz, ax, ay, az, ang) -> None:
    """Beyond the sum of the bounding radii along any direction: nothing."""
    d = np.array([dx, dy, dz])
    if np.linalg.norm(d) < 1e-3:
        return
    d /= np.linalg.norm(d)
    if kind == "plane":
        o = ode.dCreatePlane(None, *d, -0.61)       # the octahedron is above it
    else:
        o = make(kind)
        ode.dGeomSetPosition(o, *(d * (0.6 + 0.81 + 1e-6)))
        if math.sqrt(ax * ax + ay * ay + az * az) > 1e-3:
            ode.dGeomSetRotation(o, rot((ax, ay, az), ang))
    c = octa()
    assert ode.dCollide(c, o, 8) == []
    assert ode.dCollide(o, c, 8) == []

