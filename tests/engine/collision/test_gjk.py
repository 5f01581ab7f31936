"""GJK distance and EPA penetration (engine.ode.collision.pairs.gjk).

Brute-force references for polytopes: D = A - B is the hull of the
differences a_i - b_j. Apart, the distance from the origin to D is the least
distance to a point, edge or triangle of those differences (the hull's
closest point lies on one of its faces, and any other triangle lies inside
the hull). Overlapping, the depth is the least support value h_D(n) over the
normals n of all triangles of differences (a superset of D's facet
normals; h_D(n) >= depth for every unit n).
"""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.ode.collision.pairs import gjk

I3 = np.eye(3)
ORIGIN = np.zeros(3)
OCTA = np.array([[0.6, 0, 0], [-0.6, 0, 0], [0, 0.6, 0], [0, -0.6, 0], [0, 0, 0.6],
                 [0, 0, -0.6]], dtype=float)


def rot(axis, angle: float) -> np.ndarray:
    a = np.asarray(axis, float)
    a = a / np.linalg.norm(a)
    K = np.array([[0, -a[2], a[1]], [a[2], 0, -a[0]], [-a[1], a[0], 0]])
    return np.eye(3) + math.sin(angle) * K + (1 - math.cos(angle)) * K @ K


def q(ka, pa, posa, Ra, kb, pb, posb, Rb):
    """(touching, out (10,)) of gjk.query with float64 arrays."""
    out = np.empty(10)
    r = gjk.query(ka, np.asarray(pa, float).ravel(), np.asarray(posa, float),
                  np.ascontiguousarray(Ra, float), kb, np.asarray(pb, float).ravel(),
                  np.asarray(posb, float), np.ascontiguousarray(Rb, float), out)
    return r, out


def world(points, pos, R):
    return np.asarray(points) @ np.asarray(R).T + np.asarray(pos)


def brute_distance(A: np.ndarray, B: np.ndarray) -> float:
    """Distance between the hulls of point sets A and B (apart)."""
    P = (A[:, None, :] - B[None, :, :]).reshape(-1, 3)
    best = float(np.min(np.linalg.norm(P, axis=1)))
    for i, j in itertools.combinations(range(len(P)), 2):
        e = P[j] - P[i]
        ll = e @ e
        if ll > 0:
            t = -(P[i] @ e) / ll
            if 0 < t < 1:
                best = min(best, float(np.linalg.norm(P[i] + t * e)))
    tri = np.array(list(itertools.combinations(range(len(P)), 3)), dtype=int).reshape(-1, 3)
    a, b = P[tri[:, 0]], P[tri[:, 1]]
    v0, v1 = b - a, P[tri[:, 2]] - a
    d00 = np.einsum("ij,ij->i", v0, v0)
    d01 = np.einsum("ij,ij->i", v0, v1)
    d11 = np.einsum("ij,ij->i", v1, v1)
    d20 = -np.einsum("ij,ij->i", a, v0)
    d21 = -np.einsum("ij,ij->i", a, v1)
    den = d00 * d11 - d01 * d01
    ok = den > 1e-14
    v = np.where(ok, (d11 * d20 - d01 * d21) / np.where(ok, den, 1), -1)
    w = np.where(ok, (d00 * d21 - d01 * d20) / np.where(ok, den, 1), -1)
    inside = ok & (v > 0) & (w > 0) & (v + w < 1)
    if inside.any():
        x = a + v[:, None] * v0 + w[:, None] * v1
        best = min(best, float(np.min(np.linalg.norm(x[inside], axis=1))))
    return best


def brute_depth(A: np.ndarray, B: np.ndarray) -> float:
    """min over the triangle normals n of the differences of h_D(n): the
    depth when the hulls overlap, < 0 when they are apart."""
    P = (A[:, None, :] - B[None, :, :]).reshape(-1, 3)
    tri = np.array(list(itertools.combinations(range(len(P)), 3)))
    n = np.cross(P[tri[:, 1]] - P[tri[:, 0]], P[tri[:, 2]] - P[tri[:, 0]])
    ln = np.linalg.norm(n, axis=1)
    n = n[ln > 1e-9] / ln[ln > 1e-9, None]
    n = np.concatenate([n, -n])
    return float(np.min(np.max(n @ P.T, axis=1)))


def h_shape(kind, prm, pos, R, n) -> float:
    return gjk.support_value(kind, np.asarray(prm, float).ravel(), np.asarray(pos, float),
                             np.ascontiguousarray(R, float), *np.asarray(n, float))


def overlap(ka, pa, posa, Ra, kb, pb, posb, Rb, n) -> float:
    """h_A(n) + h_B(-n): the overlap of the projections on the unit n."""
    return h_shape(ka, pa, posa, Ra, n) + h_shape(kb, pb, posb, Rb, -np.asarray(n))


def min_overlap(ka, pa, posa, Ra, kb, pb, posb, Rb) -> float:
    """A numerical minimum of the overlap over unit directions (sampling and
    a compass search): an upper bound of the exact depth, close to it."""
    k = 4000
    i = np.arange(k) + 0.5
    phi = np.arccos(1 - 2 * i / k)
    th = math.pi * (1 + 5 ** 0.5) * i
    dirs = np.stack([np.cos(th) * np.sin(phi), np.sin(th) * np.sin(phi), np.cos(phi)], 1)
    vals = np.array([overlap(ka, pa, posa, Ra, kb, pb, posb, Rb, d) for d in dirs])
    best = np.inf
    for s in np.argsort(vals)[:4]:
        n, v, step = dirs[s], vals[s], 0.05
        while step > 1e-9:
            a = np.cross(n, [1.0, 0, 0] if abs(n[0]) < 0.9 else [0, 1.0, 0])
            a /= np.linalg.norm(a)
            b = np.cross(n, a)
            moved = False
            for t in np.linspace(0, 2 * math.pi, 12, endpoint=False):
                m = n + step * (math.cos(t) * a + math.sin(t) * b)
                m /= np.linalg.norm(m)
                w = overlap(ka, pa, posa, Ra, kb, pb, posb, Rb, m)
                if w < v:
                    n, v, moved = m, w, True
            if not moved:
                step *= 0.5
        best = min(best, v)
    return best


# ----------------------------------------------------------------------------- supports
@pytest.mark.parametrize("kind,prm,samples", [
    (gjk.BOX, [0.5, 0.4, 0.3], None),
    (gjk.CYLINDER, [0.4, 0.5], None),
    (gjk.CAPSULE, [0.3, 0.5], None),
    (gjk.SPHERE, [0.5], None),
    (gjk.POLYTOPE, OCTA.ravel(), OCTA),
    (gjk.TRIANGLE, [0, 0, 0, 1, 0, 0, 0, 1, 0], np.array([[0, 0, 0], [1, 0, 0], [0, 1, 0]])),
    (gjk.SEGMENT, [0, 0, -1, 0, 0, 1], np.array([[0, 0, -1], [0, 0, 1]])),
    (gjk.POINT, [0.1, 0.2, 0.3], np.array([[0.1, 0.2, 0.3]])),
])
def test_support_is_the_furthest_point(kind, prm, samples) -> None:
    """The support value beats every point of a dense sample of the shape."""
    rng = np.random.default_rng(1)
    prm = np.asarray(prm, float)
    if samples is None:
        u = rng.uniform(-1, 1, size=(20000, 3))
        if kind == gjk.BOX:
            samples = np.sign(u) * prm          # the corners
        else:
            ang = rng.uniform(0, 2 * math.pi, 20000)
            r = prm[0]
            if kind == gjk.SPHERE:
                samples = u / np.linalg.norm(u, axis=1)[:, None] * r
            else:
                z = np.where(u[:, 2] > 0, prm[1], -prm[1]) * np.abs(u[:, 0]) ** 0.01
                samples = np.stack([r * np.cos(ang), r * np.sin(ang), z], 1)
                if kind == gjk.CAPSULE:
                    s = u / np.linalg.norm(u, axis=1)[:, None] * r
                    samples = np.stack([s[:, 0], s[:, 1],
                                        s[:, 2] + np.sign(s[:, 2]) * prm[1]], 1)
    R = rot([1, 2, 3], 0.7)
    pos = np.array([0.3, -0.2, 1.0])
    pts = world(samples, pos, R)
    for n in rng.normal(size=(50, 3)):
        n /= np.linalg.norm(n)
        h = h_shape(kind, prm, pos, R, n)
        assert h >= float(np.max(pts @ n)) - 1e-12
        assert h <= float(np.max(pts @ n)) + 2e-3       # the sample is dense


# ----------------------------------------------------------------------------- fixed cases
def test_separated_boxes_distance_and_closest_points() -> None:
    r, out = q(gjk.BOX, [0.5, 0.5, 0.5], ORIGIN, I3, gjk.BOX, [0.5, 0.5, 0.5],
               [2.0, 0.3, 0.1], I3)
    assert r == 0
    assert out[0] == pytest.approx(1.0, abs=1e-12)
    np.testing.assert_allclose(out[1:4], [1, 0, 0], atol=1e-12)
    assert out[4] == pytest.approx(0.5) and out[7] == pytest.approx(1.5)


def test_touching_faces_and_just_apart() -> None:
    r, out = q(gjk.BOX, [0.5, 0.5, 0.5], ORIGIN, I3, gjk.BOX, [0.5, 0.5, 0.5],
               [1.0, 0.2, 0.0], I3)
    assert r == 1 and abs(out[0]) <= 1e-12
    np.testing.assert_allclose(out[1:4], [1, 0, 0], atol=1e-9)
    r, out = q(gjk.BOX, [0.5, 0.5, 0.5], ORIGIN, I3, gjk.BOX, [0.5, 0.5, 0.5],
               [1.0 + 1e-9, 0.2, 0.0], I3)
    assert r == 0 and out[0] == pytest.approx(1e-9, abs=1e-14)
    # vertex on vertex, exactly touching
    r, out = q(gjk.POLYTOPE, OCTA, ORIGIN, I3, gjk.POLYTOPE, OCTA, [0, 0, 1.2], I3)
    assert r == 1 and abs(out[0]) <= 1e-12


def test_face_on_and_deep() -> None:
    # box resting 0.05 into a box, off-centre: the face normal
    r, out = q(gjk.BOX, [0.5, 0.4, 0.3], ORIGIN, I3, gjk.BOX, [1.0, 1.0, 0.3],
               [0.3, -0.2, 0.55], I3)
    assert r == 1 and -out[0] == pytest.approx(0.05, abs=1e-12)
    np.testing.assert_allclose(out[1:4], [0, 0, 1], atol=1e-12)
    np.testing.assert_allclose(out[4:7] - out[7:10], 0.05 * out[1:4], atol=1e-12)
    # sphere centre deep inside the octahedron: radius + distance to a face
    c = np.array([0.05, 0.1, 0.15])
    r, out = q(gjk.SPHERE, [0.2], c, I3, gjk.POLYTOPE, OCTA, ORIGIN, I3)
    face = 0.6 / math.sqrt(3) - np.sum(np.abs(c)) / math.sqrt(3)
    assert r == 1 and -out[0] == pytest.approx(0.2 + face, abs=1e-12)
    np.testing.assert_allclose(out[1:4], -np.ones(3) / math.sqrt(3), atol=1e-9)
    # concentric: the smaller box leaves through its short side
    r, out = q(gjk.BOX, [0.2, 0.3, 0.4], ORIGIN, I3, gjk.BOX, [1.0, 1.0, 1.0], ORIGIN, I3)
    assert r == 1 and -out[0] == pytest.approx(1.2, abs=1e-12)
    assert abs(out[1]) == pytest.approx(1.0)


def test_rounded_shapes_use_their_cores() -> None:
    # sphere against sphere, capsule side against a box face: exact
    r, out = q(gjk.SPHERE, [0.5], ORIGIN, I3, gjk.SPHERE, [0.3], [0.6, 0.0, 0.0], I3)
    assert r == 1 and -out[0] == pytest.approx(0.2, abs=1e-14)
    np.testing.assert_allclose(out[4:7], [0.5, 0, 0], atol=1e-14)
    np.testing.assert_allclose(out[7:10], [0.3, 0, 0], atol=1e-14)
    R = rot([1, 0, 0], math.pi / 2)
    r, out = q(gjk.CAPSULE, [0.3, 0.5], [0, 0, 0.55], R, gjk.BOX, [1, 1, 0.3], ORIGIN, I3)
    assert r == 1 and -out[0] == pytest.approx(0.05, abs=1e-12)
    np.testing.assert_allclose(out[1:4], [0, 0, -1], atol=1e-12)


def test_degenerate_differences() -> None:
    """Cores whose difference is a point, a segment or flat: depth = radii."""
    # concentric spheres (a point)
    r, out = q(gjk.SPHERE, [0.5], ORIGIN, I3, gjk.SPHERE, [0.3], ORIGIN, I3)
    assert r == 1 and -out[0] == pytest.approx(0.8)
    assert np.linalg.norm(out[1:4]) == pytest.approx(1.0)
    # sphere centre on a capsule's axis (a segment): across the axis, towards B
    r, out = q(gjk.SPHERE, [0.2], ORIGIN, I3, gjk.CAPSULE, [0.3, 0.5], [0.0, 0.0, 0.1], I3)
    assert r == 1 and -out[0] == pytest.approx(0.5)
    assert abs(out[3]) < 1e-12
    # a segment through a triangle's plane, both flat: zero thickness
    tri = [0, 0, 0, 1, 0, 0, 0, 1, 0]
    seg = [0.2, 0.2, 0.0, 0.3, 0.3, 0.0]
    r, out = q(gjk.TRIANGLE, tri, ORIGIN, I3, gjk.SEGMENT, seg, ORIGIN, I3)
    assert r == 1 and out[0] == pytest.approx(0.0, abs=1e-12)
    np.testing.assert_allclose(np.abs(out[1:4]), [0, 0, 1], atol=1e-12)


def test_tip_to_tip_tie_uses_the_mean_direction() -> None:
    """Two octahedra tip to tip: four face normals tie at 0.05/sqrt(3); the
    mean is the axis, with the overlap along it (0.05) as the depth."""
    for order in (1.0, -1.0):
        r, out = q(gjk.POLYTOPE, OCTA, ORIGIN, I3, gjk.POLYTOPE, OCTA,
                   [0, 0, order * 1.15], I3)
        assert r == 1 and -out[0] == pytest.approx(0.05, abs=1e-12)
        np.testing.assert_allclose(out[1:4], [0, 0, order], atol=1e-12)
    # slightly off the axis the minimum is unique again
    r, out = q(gjk.POLYTOPE, OCTA, ORIGIN, I3, gjk.POLYTOPE, OCTA, [0.01, 0.003, 1.15], I3)
    depth = (1.2 - 1.15 - 0.01 - 0.003) / math.sqrt(3)
    assert -out[0] == pytest.approx(depth, abs=1e-12)
    np.testing.assert_allclose(out[1:4], np.ones(3) / np.sqrt(3), atol=1e-12)


@pytest.mark.parametrize("ka,pa,kb,pb", [
    (gjk.CYLINDER, [0.4, 0.5], gjk.CYLINDER, [0.4, 0.5]),
    (gjk.CYLINDER, [0.4, 0.5], gjk.BOX, [0.5, 0.4, 0.3]),
    (gjk.CAPSULE, [0.3, 0.5], gjk.CYLINDER, [0.4, 0.5]),
    (gjk.CYLINDER, [0.4, 0.5], gjk.POLYTOPE, OCTA.ravel()),
])
def test_curved_depth_matches_a_numerical_minimum(ka, pa, kb, pb) -> None:
    rng = np.random.default_rng(7)
    for _ in range(6):
        Ra = rot(rng.normal(size=3), rng.uniform(0, 3))
        Rb = rot(rng.normal(size=3), rng.uniform(0, 3))
        posb = rng.uniform(-0.5, 0.5, size=3)
        r, out = q(ka, pa, ORIGIN, Ra, kb, pb, posb, Rb)
        if not r:
            continue
        # n is a separating direction with exactly that overlap, no worse
        # than a numerical minimisation (whose accuracy is ~1e-5 at kinks)
        assert overlap(ka, pa, ORIGIN, Ra, kb, pb, posb, Rb, out[1:4]) == pytest.approx(
            -out[0], abs=1e-9)
        ref = min_overlap(ka, pa, ORIGIN, Ra, kb, pb, posb, Rb)
        assert ref - 1e-4 <= -out[0] <= ref + 1e-9


# ----------------------------------------------------------------------------- properties
def _cloud(seed: int, n: int, scale: float) -> np.ndarray:
    rng = np.random.default_rng(seed)
    return rng.uniform(-scale, scale, size=(n, 3))


@settings(max_examples=50, deadline=None)
@given(sa=st.integers(0, 2**31), sb=st.integers(0, 2**31), na=st.integers(1, 7),
       nb=st.integers(1, 7), gap=st.floats(0.01, 1.0), ax=st.floats(-1, 1),
       ay=st.floats(-1, 1), az=st.floats(-1, 1))
def test_distance_matches_brute_force(sa, sb, na, nb, gap, ax, ay, az) -> None:
    """Random polytopes pulled apart along a random direction."""
    A = _cloud(sa, na, 0.5)
    B = _cloud(sb, nb, 0.5)
    d = np.array([ax, ay, az])
    if np.linalg.norm(d) < 1e-3:
        d = np.array([0.0, 0.0, 1.0])
    d /= np.linalg.norm(d)
    # turn B, then place it beyond A along d by gap (projections apart => hulls apart)
    R = rot([1, 1, 0], 0.3)
    Bt = B @ R.T
    shift = (np.max(A @ d) - np.min(Bt @ d) + gap) * d
    Bw = Bt + shift
    r, out = q(gjk.POLYTOPE, A, ORIGIN, I3, gjk.POLYTOPE, B, shift, R)
    ref = brute_distance(A, Bw)
    assert r == 0
    assert out[0] == pytest.approx(ref, abs=1e-9)
    assert out[0] >= gap - 1e-9
    # closest points: on the support planes along n, the right distance apart
    n = out[1:4]
    assert out[4:7] @ n == pytest.approx(np.max(A @ n), abs=1e-9)
    assert out[7:10] @ n == pytest.approx(np.min(Bw @ n), abs=1e-9)
    assert np.linalg.norm(out[7:10] - out[4:7]) == pytest.approx(out[0], abs=1e-9)


@settings(max_examples=50, deadline=None)
@given(sa=st.integers(0, 2**31), sb=st.integers(0, 2**31), na=st.integers(4, 7),
       nb=st.integers(4, 7), x=st.floats(-0.6, 0.6), y=st.floats(-0.6, 0.6),
       z=st.floats(-0.6, 0.6))
def test_depth_matches_brute_force(sa, sb, na, nb, x, y, z) -> None:
    A = _cloud(sa, na, 0.5)
    B = _cloud(sb, nb, 0.5)
    posb = np.array([x, y, z])
    Bw = B + posb
    ref = brute_depth(A, Bw)
    r, out = q(gjk.POLYTOPE, A, ORIGIN, I3, gjk.POLYTOPE, B, posb, I3)
    if ref < -1e-9:
        assert r == 0 and out[0] > 0
        return
    if ref < 1e-9:
        return          # touching within rounding: either answer
    assert r == 1
    assert -out[0] == pytest.approx(ref, abs=1e-9)
    n = out[1:4]
    assert np.max(A @ n) - np.min(Bw @ n) == pytest.approx(-out[0], abs=1e-9)


@settings(max_examples=50, deadline=None)
@given(ka=st.sampled_from([gjk.SPHERE, gjk.BOX, gjk.CAPSULE, gjk.CYLINDER, gjk.POLYTOPE]),
       kb=st.sampled_from([gjk.SPHERE, gjk.BOX, gjk.CAPSULE, gjk.CYLINDER, gjk.POLYTOPE]),
       x=st.floats(-1, 1), y=st.floats(-1, 1), z=st.floats(-1, 1),
       ang=st.floats(0, 3), ang2=st.floats(0, 3))
def test_swap_symmetry(ka, kb, x, y, z, ang, ang2) -> None:
    prm = {gjk.SPHERE: [0.5], gjk.BOX: [0.5, 0.4, 0.3], gjk.CAPSULE: [0.3, 0.5],
           gjk.CYLINDER: [0.4, 0.5], gjk.POLYTOPE: OCTA.ravel()}
    Ra = rot([1, 0.2, -0.3], ang)
    Rb = rot([0.1, 1, 0.4], ang2)
    posb = np.array([x, y, z])
    r1, o1 = q(ka, prm[ka], ORIGIN, Ra, kb, prm[kb], posb, Rb)
    r2, o2 = q(kb, prm[kb], posb, Rb, ka, prm[ka], ORIGIN, Ra)
    assert r1 == r2
    assert o1[0] == pytest.approx(o2[0], abs=1e-7)
    if r1 and o1[0] < -1e-6:
        cos = float(o1[1:4] @ -o2[1:4])
        # the same direction, or another one as deep (a symmetric tie)
        assert cos > math.cos(math.radians(0.5)) or overlap(
            ka, prm[ka], ORIGIN, Ra, kb, prm[kb], posb, Rb, -o2[1:4]) == pytest.approx(
            -o1[0], abs=1e-9)
