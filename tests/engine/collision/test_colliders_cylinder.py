"""Cylinder colliders (engine.ode.collision.pairs.colliders_cylinder) against ODE 0.16.2.

ODE's recorded collision-matrix records for the cylinder pairs are checked
by test_collision_matrix.py; here: analytic face-on, side, edge and cap
cases, swap symmetry and depth properties.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import ode


def _angle(a, b) -> float:
    """Angle in degrees between two 3-vectors."""
    a = np.asarray(a, float)
    b = np.asarray(b, float)
    c = float(a @ b / (np.linalg.norm(a) * np.linalg.norm(b)))
    return math.degrees(math.acos(max(-1.0, min(1.0, c))))


# ----------------------------------------------------------------------------
# cylinder-plane
# ----------------------------------------------------------------------------

def _cyl(pos=(0.0, 0.0, 0.0), R=None, r: float = 0.4, length: float = 1.0):
    g = ode.dCreateCylinder(None, r, length)
    ode.dGeomSetPosition(g, *pos)
    if R is not None:
        ode.dGeomSetRotation(g, R)
    return g


def _rot(axis, angle: float) -> np.ndarray:
    """Rotation matrix (3, 3) of ``angle`` rad about ``axis`` (Rodrigues)."""
    a = np.asarray(axis, float) / np.linalg.norm(axis)
    K = np.array([[0, -a[2], a[1]], [a[2], 0, -a[0]], [-a[1], a[0], 0]])
    return np.eye(3) + math.sin(angle) * K + (1 - math.cos(angle)) * (K @ K)


def test_plane_face_on_four_rim_points() -> None:
    cyl = _cyl((0.0, 0.0, 0.45))
    plane = ode.dCreatePlane(None, 0.0, 0.0, 1.0, 0.0)
    cs = ode.dCollide(cyl, plane, 8)
    assert len(cs) == 4
    pts = np.array([c.pos for c in cs])
    np.testing.assert_allclose(pts[:, 2], -0.05, atol=1e-12)
    np.testing.assert_allclose(np.hypot(pts[:, 0], pts[:, 1]), 0.4, atol=1e-12)
    assert {tuple(np.round(p[:2], 9)) for p in pts} == {(0.4, 0.0), (-0.4, 0.0),
                                                          (0.0, 0.4), (0.0, -0.4)}
    for c in cs:
        assert c.depth == pytest.approx(0.05)
        np.testing.assert_allclose(c.normal, [0, 0, 1])
    assert len(ode.dCollide(cyl, plane, 2)) == 2


def test_plane_touching_separated_and_deep() -> None:
    plane = ode.dCreatePlane(None, 0.0, 0.0, 1.0, 0.0)
    assert ode.dCollide(_cyl((0.0, 0.0, 0.6)), plane, 8) == []
    # exactly touching face-on: depth 0 is not reported
    assert ode.dCollide(_cyl((0.0, 0.0, 0.5)), plane, 8) == []
    deep = ode.dCollide(_cyl((0.0, 0.0, -2.0)), plane, 8)
    assert len(deep) == 4 and deep[0].depth == pytest.approx(2.5)
    # lying on its side: both cap ends' lowest points
    side = ode.dCollide(_cyl((0.0, 0.0, 0.35), _rot((1, 0, 0), math.pi / 2)), plane, 8)
    assert len(side) == 2
    for c in side:
        assert c.depth == pytest.approx(0.05)


def test_plane_tilted_depth_is_lowest_rim_point() -> None:
    R = _rot((1.0, 0.3, 0.0), 0.7)
    cyl = _cyl((0.1, -0.2, 0.3), R)
    plane = ode.dCreatePlane(None, 0.0, 0.0, 1.0, 0.0)
    cs = ode.dCollide(cyl, plane, 8)
    a = R[:, 2]
    lowest = 0.3 - 0.5 * abs(a[2]) - 0.4 * math.sqrt(1 - a[2] ** 2)
    assert max(c.depth for c in cs) == pytest.approx(-lowest, abs=1e-12)


# ----------------------------------------------------------------------------
# cylinder-sphere
# ----------------------------------------------------------------------------

def test_sphere_side_cap_edge_and_inside() -> None:
    cyl = _cyl()
    s = ode.dCreateSphere(None, 0.2)
    ode.dGeomSetPosition(s, 0.55, 0.0, 0.0)            # side
    (c,) = ode.dCollide(cyl, s, 4)
    assert c.depth == pytest.approx(0.05)
    np.testing.assert_allclose(c.normal, [-1, 0, 0], atol=1e-12)
    ode.dGeomSetPosition(s, 0.0, 0.0, 0.65)            # cap
    (c,) = ode.dCollide(cyl, s, 4)
    assert c.depth == pytest.approx(0.05)
    np.testing.assert_allclose(c.normal, [0, 0, -1], atol=1e-12)
    ode.dGeomSetPosition(s, 0.5, 0.0, 0.6)             # rim edge
    (c,) = ode.dCollide(cyl, s, 4)
    assert c.depth == pytest.approx(0.2 - math.sqrt(0.02))
    np.testing.assert_allclose(c.normal, -np.array([1, 0, 1]) / math.sqrt(2), atol=1e-12)
    ode.dGeomSetPosition(s, 0.0, 0.3, 0.1)             # centre inside, nearest: side
    (c,) = ode.dCollide(cyl, s, 4)
    assert c.depth == pytest.approx(0.3)
    np.testing.assert_allclose(c.normal, [0, -1, 0], atol=1e-12)
    ode.dGeomSetPosition(s, 0.6, 0.0, 0.65)            # separated beyond the rim
    assert ode.dCollide(cyl, s, 4) == []


# ----------------------------------------------------------------------------
# cylinder-box, cylinder-cylinder, capsule-cylinder
# ----------------------------------------------------------------------------

def test_box_face_on_octagon_and_side_line() -> None:
    box = ode.dCreateBox(None, 2.0, 2.0, 0.6)
    cyl = _cyl((0.0, 0.0, 0.75))
    cs = ode.dCollide(cyl, box, 8)
    assert len(cs) == 8
    for c in cs:
        assert c.depth == pytest.approx(0.05)
        np.testing.assert_allclose(c.normal, [0, 0, 1], atol=1e-9)
        assert math.hypot(c.pos[0], c.pos[1]) == pytest.approx(0.4)
    assert len(ode.dCollide(cyl, box, 3)) == 3
    # lying on the face: the lowest side line, 2 points
    side = _cyl((0.0, 0.0, 0.65), _rot((1, 0, 0), math.pi / 2))
    cs = ode.dCollide(side, box, 8)
    assert len(cs) == 2
    for c in cs:
        assert c.depth == pytest.approx(0.05)
    # over the box corner: clipped to the face
    off = _cyl((1.0, 1.0, 0.75))
    cs = ode.dCollide(off, box, 8)
    assert len(cs) >= 3
    for c in cs:
        assert c.pos[0] <= 1.0 + 1e-9 and c.pos[1] <= 1.0 + 1e-9
    assert ode.dCollide(_cyl((0.0, 0.0, 0.81)), box, 8) == []


def test_box_edge_into_cylinder_side() -> None:
    """A box edge pressed into the cylinder's side: depth along the radius."""
    cyl = _cyl()
    box = ode.dCreateBox(None, 0.4, 0.4, 2.0)
    ode.dGeomSetRotation(box, _rot((0, 0, 1), math.pi / 4))
    half_diag = 0.2 * math.sqrt(2.0)
    ode.dGeomSetPosition(box, 0.4 + half_diag - 0.03, 0.0, 0.0)
    cs = ode.dCollide(cyl, box, 8)
    assert len(cs) >= 1
    assert max(c.depth for c in cs) == pytest.approx(0.03, abs=1e-9)
    for c in cs:
        np.testing.assert_allclose(c.normal, [-1, 0, 0], atol=1e-4)


def test_cylinders_face_on_side_and_crossed() -> None:
    a = _cyl()
    b = _cyl((0.0, 0.0, 0.95))
    cs = ode.dCollide(a, b, 8)
    assert len(cs) == 8
    for c in cs:
        assert c.depth == pytest.approx(0.05)
        np.testing.assert_allclose(c.normal, [0, 0, -1], atol=1e-9)
    ode.dGeomSetPosition(b, 0.75, 0.0, 0.0)          # side by side, parallel
    (c,) = ode.dCollide(a, b, 8)
    assert c.depth == pytest.approx(0.05, abs=1e-9)
    np.testing.assert_allclose(c.normal, [-1, 0, 0], atol=1e-4)
    ode.dGeomSetRotation(b, _rot((1, 0, 0), math.pi / 2))   # crossed
    ode.dGeomSetPosition(b, 0.0, 0.0, 0.8)
    (c,) = ode.dCollide(a, b, 8)
    assert c.depth == pytest.approx(0.1, abs=1e-9)
    np.testing.assert_allclose(c.normal, [0, 0, -1], atol=1e-4)
    ode.dGeomSetPosition(b, 0.0, 0.0, 0.91)
    assert ode.dCollide(a, b, 8) == []


def test_capsule_cap_side_and_rim() -> None:
    cyl = _cyl()
    cap = ode.dCreateCapsule(None, 0.3, 1.0)
    ode.dGeomSetPosition(cap, 0.0, 0.0, 1.25)        # tip on the cap
    (c,) = ode.dCollide(cap, cyl, 4)
    assert c.depth == pytest.approx(0.05, abs=1e-9)
    np.testing.assert_allclose(c.normal, [0, 0, 1], atol=1e-4)
    ode.dGeomSetPosition(cap, 0.65, 0.0, 0.0)        # parallel, side by side
    (c,) = ode.dCollide(cap, cyl, 4)
    assert c.depth == pytest.approx(0.05, abs=1e-9)
    np.testing.assert_allclose(c.normal, [1, 0, 0], atol=1e-4)
    ode.dGeomSetRotation(cap, _rot((0, 1, 0), math.pi / 2))  # lying over the rim
    ode.dGeomSetPosition(cap, 0.4 + 0.5, 0.0, 0.5 + 0.25)
    (c,) = ode.dCollide(cap, cyl, 4)
    assert c.depth == pytest.approx(0.05, abs=1e-9)
    np.testing.assert_allclose(c.normal, [0, 0, 1], atol=1e-4)
    ode.dGeomSetPosition(cap, 0.0, 0.0, 1.31)
    assert ode.dCollide(cap, cyl, 4) == []


# ----------------------------------------------------------------------------
# properties: swapping the arguments mirrors the contacts
# ----------------------------------------------------------------------------

unit = st.floats(-1.0, 1.0, allow_nan=False)


def _other(kind: str):
    if kind == "sphere":
        return ode.dCreateSphere(None, 0.5)
    if kind == "box":
        return ode.dCreateBox(None, 1.0, 0.8, 0.6)
    if kind == "capsule":
        return ode.dCreateCapsule(None, 0.3, 1.0)
    return ode.dCreateCylinder(None, 0.4, 1.0)


@settings(max_examples=50, deadline=None)
@given(kind=st.sampled_from(["sphere", "box", "capsule", "cylinder"]),
       x=unit, y=unit, z=unit, ax=unit, ay=unit, az=unit, ang=st.floats(0.0, 3.0))
def test_swap_symmetry(kind, x, y, z, ax, ay, az, ang) -> None:
    cyl = _cyl(R=_rot((1.0, 0.2, -0.3), 0.4))
    o = _other(kind)
    ode.dGeomSetPosition(o, x, y, z)
    if math.sqrt(ax * ax + ay * ay + az * az) > 1e-3:
        ode.dGeomSetRotation(o, _rot((ax, ay, az), ang))
    fwd = ode.dCollide(cyl, o, 8)
    rev = ode.dCollide(o, cyl, 8)
    assert len(fwd) == len(rev)
    if kind == "cylinder":
        # the same collider with the arguments exchanged: the same solution
        # up to EPA's tolerance on curved shapes, or, where the minimum is
        # not unique (concentric cylinders: n and -n), another direction
        # just as deep: moving by the depth along it separates them too
        if fwd:
            df = max(c.depth for c in fwd)
            dr = max(c.depth for c in rev)
            assert df == pytest.approx(dr, abs=1e-7)
            nf = max(fwd, key=lambda c: c.depth).normal
            nr = -np.asarray(max(rev, key=lambda c: c.depth).normal)
            if _angle(nf, nr) > 0.5:
                R = _rot((1.0, 0.2, -0.3), 0.4)
                assert ode.dCollide(_cyl(pos=nr * (dr + 1e-6), R=R), o, 8) == []
                assert ode.dCollide(_cyl(pos=nr * (dr - 1e-6), R=R), o, 8)
        return
    for a, b in zip(fwd, rev, strict=True):
        np.testing.assert_allclose(a.pos, b.pos, atol=1e-12)
        np.testing.assert_allclose(a.normal, -np.asarray(b.normal), atol=1e-12)
        assert a.depth == pytest.approx(b.depth, abs=1e-12)
        assert a.depth >= 0.0


@settings(max_examples=50, deadline=None)
@given(nx=unit, ny=unit, nz=unit, d=st.floats(-1.0, 1.0), ax=unit, ay=unit, az=unit,
       ang=st.floats(0.0, 3.0))
def test_plane_depths_match_geometry(nx, ny, nz, d, ax, ay, az, ang) -> None:
    n = np.array([nx, ny, nz])
    if np.linalg.norm(n) < 1e-3 or math.sqrt(ax * ax + ay * ay + az * az) < 1e-3:
        return
    n = n / np.linalg.norm(n)
    R = _rot((ax, ay, az), ang)
    cyl = _cyl((0.1, 0.2, -0.1), R)
    plane = ode.dCreatePlane(None, *n, d)
    cs = ode.dCollide(cyl, plane, 8)
    a = R[:, 2]
    ca = abs(float(a @ n))
    lowest = float(n @ [0.1, 0.2, -0.1]) - 0.5 * ca - 0.4 * math.sqrt(max(0.0, 1 - ca * ca))
    true_depth = d - lowest
    if true_depth > 1e-9:
        # within 1e-7 of face-on the cap's 4 rim points stand for the rim
        # (as in ODE): up to r * sqrt(2e-7) = 1.8e-4 m shallower
        assert cs and max(c.depth for c in cs) == pytest.approx(true_depth, abs=2e-4)
    elif true_depth < -2e-4:
        assert cs == []
    for c in cs:
        np.testing.assert_allclose(c.normal, n, atol=1e-12)
        assert c.depth == pytest.approx(d - float(n @ c.pos), abs=1e-12)


@settings(max_examples=40, deadline=None)
@given(kind=st.sampled_from(["sphere", "box", "capsule", "cylinder"]),
       x=unit, y=unit, z=unit, ax=unit, ay=unit, az=unit, ang=st.floats(0.0, 3.0))
def test_depth_is_the_separating_translation(kind, x, y, z, ax, ay, az, ang) -> None:
    """Moving the cylinder by (depth + 1e-4) along the normal separates the
    shapes; by (depth - 1e-4) it does not (exact penetration depth)."""
    o = _other(kind)
    ode.dGeomSetPosition(o, 0.6 * x, 0.6 * y, 0.9 * z)
    if math.sqrt(ax * ax + ay * ay + az * az) > 1e-3:
        ode.dGeomSetRotation(o, _rot((ax, ay, az), ang))
    R = _rot((1.0, 0.2, -0.3), 0.4)
    cs = ode.dCollide(_cyl(R=R), o, 8)
    if not cs:
        return
    deep = max(cs, key=lambda c: c.depth)
    n = np.asarray(deep.normal)
    if deep.depth > 2e-4:
        near = _cyl(pos=n * (deep.depth - 1e-4), R=R)
        assert ode.dCollide(near, o, 8), "still overlapping short of the depth"
    far = _cyl(pos=n * (deep.depth + 1e-4), R=R)
    assert ode.dCollide(far, o, 8) == [], "separated beyond the depth"
