"""Boundary-layer contacts of primitives (engine.contact.boundary): closed forms."""

from __future__ import annotations

import math

import numpy as np
import pytest

from engine import ode
from engine.contact import boundary, padding_of, set_padding
from engine.contact.boundary import padded_contacts
from tests.engine.collision.test_convex import cube_arrays
from tests.engine.contact.boundary_shapes import has_point, placed, same_contacts

P1, P2 = 0.0025, 0.0015
REACH = P1 + P2
GAP = 0.001
UP = np.array([0.0, 0.0, 1.0])


def _plane():
    return ode.dCreatePlane(None, 0.0, 0.0, 1.0, 0.0)


def _x_axis_R():
    """Rotation taking local z to world x."""
    return ode.dRFromAxisAndAngle(0.0, 1.0, 0.0, math.pi / 2)


def test_sphere_over_plane_one_contact_with_the_closed_form() -> None:
    s = placed(ode.dCreateSphere(None, 0.1), (0.3, -0.2, 0.1 + GAP))
    c = padded_contacts(s, _plane(), P1, P2)
    assert c.pos.shape == (1, 3)
    np.testing.assert_allclose(c.depth, [REACH - GAP], atol=1e-12)
    np.testing.assert_allclose(c.normal[0], UP, atol=1e-12)
    np.testing.assert_allclose(c.pos[0], [0.3, -0.2, GAP / 2], atol=1e-12)
    assert not c.penetrating.any()
    r = padded_contacts(_plane(), s, P1, P2)
    np.testing.assert_allclose(r.normal[0], -UP, atol=1e-12)


def test_sphere_sphere() -> None:
    a = placed(ode.dCreateSphere(None, 0.2), (0.0, 0.0, 0.0))
    d = np.array([3.0, 4.0, 0.0]) / 5.0
    b = placed(ode.dCreateSphere(None, 0.1), tuple((0.3 + GAP) * d))
    c = padded_contacts(b, a, P1, P2)
    assert len(c.depth) == 1
    np.testing.assert_allclose(c.depth, [REACH - GAP], atol=1e-12)
    np.testing.assert_allclose(c.normal[0], d, atol=1e-12)
    np.testing.assert_allclose(c.pos[0], (0.2 + GAP / 2) * d, atol=1e-12)


@pytest.mark.parametrize("direction", [(0.0, 0.0, 1.0), (1.0, 0.0, 1.0), (1.0, 1.0, 1.0)],
                         ids=["face", "edge", "corner"])
def test_sphere_box_face_edge_corner(direction) -> None:
    box = placed(ode.dCreateBox(None, 1.0, 1.0, 1.0), (0.0, 0.0, 0.0))
    d = np.array(direction) / np.linalg.norm(direction)
    feature = 0.5 * np.array(direction)            # the closest point of the box
    s = placed(ode.dCreateSphere(None, 0.1), tuple(feature + (0.1 + GAP) * d))
    c = padded_contacts(s, box, P1, P2)
    assert len(c.depth) == 1
    np.testing.assert_allclose(c.depth, [REACH - GAP], atol=1e-12)
    np.testing.assert_allclose(c.normal[0], d, atol=1e-9)
    np.testing.assert_allclose(c.pos[0], feature + GAP / 2 * d, atol=1e-9)


def test_parallel_capsules_touch_at_both_ends() -> None:
    R = _x_axis_R()
    low = placed(ode.dCreateCapsule(None, 0.05, 0.4), (0.0, 0.0, 0.0), R)
    high = placed(ode.dCreateCapsule(None, 0.05, 0.4), (0.0, 0.0, 0.1 + GAP), R)
    c = padded_contacts(high, low, P1, P2)
    z = 0.05 + GAP / 2
    assert has_point(c, (-0.2, 0.0, z)) and has_point(c, (0.2, 0.0, z))
    np.testing.assert_allclose(c.depth, REACH - GAP, atol=1e-12)
    np.testing.assert_allclose(c.normal, np.tile(UP, (len(c.depth), 1)), atol=1e-9)
    assert np.all(np.abs(c.pos[:, 0]) <= 0.2 + 1e-12)


def test_capsule_lying_on_a_plane_gives_its_two_ends() -> None:
    cap = placed(ode.dCreateCapsule(None, 0.05, 0.3), (0.0, 0.0, 0.05 + GAP), _x_axis_R())
    c = padded_contacts(cap, _plane(), P1, P2)
    assert len(c.depth) == 2
    assert has_point(c, (-0.15, 0.0, GAP / 2)) and has_point(c, (0.15, 0.0, GAP / 2))


def _corners(h: float, z: float, centre=(0.0, 0.0)) -> list:
    return [(centre[0] + sx * h, centre[1] + sy * h, z) for sx in (-1, 1) for sy in (-1, 1)]


def test_box_on_plane_four_corners() -> None:
    box = placed(ode.dCreateBox(None, 0.1, 0.1, 0.1), (0.0, 0.0, 0.05 + GAP))
    c = padded_contacts(box, _plane(), P1, P2)
    assert len(c.depth) == 4
    assert all(has_point(c, p) for p in _corners(0.05, GAP / 2))
    np.testing.assert_allclose(c.depth, REACH - GAP, atol=1e-12)


def test_box_on_box_face_four_corner_probes() -> None:
    big = placed(ode.dCreateBox(None, 1.0, 1.0, 0.2), (0.0, 0.0, -0.1))
    small = placed(ode.dCreateBox(None, 0.1, 0.1, 0.1), (0.01, 0.02, 0.05 + GAP))
    c = padded_contacts(small, big, P1, P2)
    assert all(has_point(c, p) for p in _corners(0.05, GAP / 2, (0.01, 0.02)))
    assert len(c.depth) in (4, 5)
    np.testing.assert_allclose(c.depth, REACH - GAP, atol=1e-12)
    np.testing.assert_allclose(c.normal, np.tile(UP, (len(c.depth), 1)), atol=1e-9)


def test_standing_cylinder_rim_contacts() -> None:
    cyl = placed(ode.dCreateCylinder(None, 0.1, 0.2), (0.0, 0.0, 0.1 + GAP))
    c = padded_contacts(cyl, _plane(), P1, P2)
    rim = [(0.1 * math.cos(k * math.pi / 4), 0.1 * math.sin(k * math.pi / 4), GAP / 2)
           for k in range(8)]
    assert all(has_point(c, p, 1e-12) for p in rim)
    assert len(c.depth) in (8, 9)
    np.testing.assert_allclose(c.depth, REACH - GAP, atol=1e-12)


def test_convex_cube_on_plane() -> None:
    planes, points, polys = cube_arrays(0.05)
    cvx = placed(ode.dCreateConvex(None, planes, 6, points, 8, polys), (0.2, 0.0, 0.05 + GAP))
    c = padded_contacts(cvx, _plane(), P1, P2)
    assert len(c.depth) == 4
    assert all(has_point(c, p) for p in _corners(0.05, GAP / 2, (0.2, 0.0)))


def test_geom_transform_equals_its_child_placed_directly() -> None:
    Rt = ode.dRFromAxisAndAngle(0.0, 0.0, 1.0, 0.3)
    Rc = ode.dRFromAxisAndAngle(1.0, 0.0, 0.0, 0.2)
    tr = placed(ode.dCreateGeomTransform(None), (0.1, 0.2, 0.3), Rt)
    child = placed(ode.dCreateBox(None, 0.1, 0.2, 0.1), (0.0, 0.05, -0.2), Rc)
    ode.dGeomTransformSetGeom(tr, child)
    rt = np.asarray(ode.dGeomGetRotation(tr)).reshape(3, 4)[:, :3]
    rc = np.asarray(ode.dGeomGetRotation(child)).reshape(3, 4)[:, :3]
    direct = placed(ode.dCreateBox(None, 0.1, 0.2, 0.1),
                    tuple(rt @ np.array([0.0, 0.05, -0.2]) + [0.1, 0.2, 0.3]), rt @ rc)
    corners = np.array([[sx * 0.05, sy * 0.1, sz * 0.05] for sx in (-1, 1) for sy in (-1, 1)
                        for sz in (-1, 1)])
    lowest = float(np.min((corners @ (rt @ rc).T)[:, 2])) + ode.dGeomGetPosition(direct)[2]
    plane = ode.dCreatePlane(None, 0.0, 0.0, 1.0, lowest - GAP)
    via = padded_contacts(tr, plane, P1, P2)
    ref = padded_contacts(direct, plane, P1, P2)
    assert len(ref.depth) >= 2
    assert same_contacts(via, ref, flip=False, tol=1e-9)


def test_overlapping_shapes_are_flagged_with_the_full_depth() -> None:
    a = placed(ode.dCreateSphere(None, 0.1), (0.0, 0.0, 0.0))
    b = placed(ode.dCreateSphere(None, 0.1), (0.0, 0.0, 0.19))
    c = padded_contacts(b, a, P1, P2)
    assert c.penetrating.tolist() == [True]
    np.testing.assert_allclose(c.depth, [REACH + 0.01], atol=1e-12)
    box = placed(ode.dCreateBox(None, 0.1, 0.1, 0.1), (0.0, 0.0, 0.05 - 0.001))
    c = padded_contacts(box, _plane(), P1, P2)
    assert len(c.depth) == 4 and c.penetrating.all()
    np.testing.assert_allclose(c.depth, REACH + 0.001, atol=1e-12)
    big = placed(ode.dCreateBox(None, 1.0, 1.0, 0.2), (0.0, 0.0, -0.1))
    c = padded_contacts(box, big, P1, P2)
    assert len(c.depth) >= 4 and c.penetrating.all()


def test_separated_shapes_are_never_flagged_and_zero_pads_give_nothing() -> None:
    a = placed(ode.dCreateBox(None, 0.2, 0.2, 0.2), (0.0, 0.0, 0.0))
    b = placed(ode.dCreateBox(None, 0.1, 0.1, 0.1), (0.03, 0.0, 0.15 + GAP))
    c = padded_contacts(b, a, P1, P2)
    assert len(c.depth) >= 4 and not c.penetrating.any()
    assert len(padded_contacts(b, a, 0.0, 0.0).depth) == 0
    assert len(padded_contacts(b, a, 0.49 * GAP, 0.49 * GAP).depth) == 0   # shells just apart
    s = placed(ode.dCreateSphere(None, 0.1), (0.0, 0.0, 0.1 + GAP))
    assert len(padded_contacts(s, _plane(), 0.0, 0.0).depth) == 0


def test_symmetry_swaps_the_normals() -> None:
    R = ode.dRFromAxisAndAngle(1.0, 1.0, 0.0, 0.4)
    pairs = [
        (placed(ode.dCreateSphere(None, 0.1), (0.0, 0.0, 0.6 + GAP)),
         placed(ode.dCreateBox(None, 1.0, 1.0, 1.0), (0.0, 0.0, 0.0))),
        (placed(ode.dCreateBox(None, 0.1, 0.1, 0.1), (0.0, 0.0, 0.05 + GAP)),
         placed(ode.dCreateBox(None, 1.0, 1.0, 0.2), (0.0, 0.0, -0.1))),
        (placed(ode.dCreateCapsule(None, 0.05, 0.4), (0.0, 0.0, 0.1 + GAP), _x_axis_R()),
         placed(ode.dCreateCapsule(None, 0.05, 0.4), (0.0, 0.0, 0.0), _x_axis_R())),
        (placed(ode.dCreateCylinder(None, 0.1, 0.2),
                (0.0, 0.0, 0.1 + 0.1 * math.cos(0.4) + 0.1 * math.sin(0.4) + GAP), R),
         placed(ode.dCreateBox(None, 1.0, 1.0, 0.2), (0.0, 0.0, 0.0))),
    ]
    for g1, g2 in pairs:
        ab = padded_contacts(g1, g2, P1, P2)
        ba = padded_contacts(g2, g1, P2, P1)
        assert len(ab.depth) >= 1
        assert same_contacts(ab, ba, flip=True, tol=1e-9)


def test_bad_arguments_name_the_argument() -> None:
    s = ode.dCreateSphere(None, 0.1)
    with pytest.raises(ValueError, match="padded_contacts: argument 'pad2'"):
        padded_contacts(s, _plane(), 0.001, -1.0)
    with pytest.raises(ValueError, match="padded_contacts: argument 'pad1'"):
        padded_contacts(s, _plane(), float("nan"), 0.0)
    with pytest.raises(ValueError, match="argument 'g2'"):
        padded_contacts(s, "plane", 0.0, 0.0)
    with pytest.raises(ValueError, match="ray geoms have no boundary-layer pieces"):
        padded_contacts(ode.dCreateRay(None, 1.0), s, 0.001, 0.0)


def test_too_many_contacts_is_an_error_not_a_cut(monkeypatch) -> None:
    box = placed(ode.dCreateBox(None, 0.1, 0.1, 0.1), (0.0, 0.0, 0.05 + GAP))
    monkeypatch.setattr(boundary, "MAX_ROWS", 3)
    with pytest.raises(ValueError, match="more than 3 contacts"):
        padded_contacts(box, _plane(), P1, P2)
    monkeypatch.setattr(boundary, "MAX_BOX_TESTS", 0)
    with pytest.raises(ValueError, match="pieces to test"):
        padded_contacts(box, _plane(), P1, P2)


def test_set_padding_validates_and_round_trips() -> None:
    g = ode.dCreateBox(None, 0.1, 0.1, 0.1)
    assert padding_of(g) == 0.0
    set_padding(g, 0.0025)
    assert padding_of(g) == 0.0025
    for bad in (-0.001, float("inf"), float("nan"), "x"):
        with pytest.raises(ValueError, match="set_padding: argument 'm'"):
            set_padding(g, bad)
    with pytest.raises(ValueError, match="padding_of: argument 'geom'"):
        padding_of(None)
