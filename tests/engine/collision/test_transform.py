"""Geometry transforms against ODE 0.16.2 (values recorded with the real ODE).

Scene A: a 1 x 2 x 0.5 box at (0.5, 0, 0.1) turned 0.3 rad about y, inside a
transform at (1, 2, 0.2) turned 0.7 rad about z, against the plane z = 0.
Scene B: a transform on a body (pos (-1, 0.5, 0.3), 0.4 rad about (1, 1, 0))
holding a sphere r = 0.3 at (0, 0, -0.2), against a 2 x 2 x 0.4 box at the
origin. Scene C: scene A's transform (moved to (0.2, 0, 0.1)) inside another
transform at (0.1, 0.2, -0.1) turned 0.2 rad about x. Scene D: two
transforms of spheres r = 0.5.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import ode
from engine.ode.kernels.detlinalg import matmul

AABB_A = [0.3163560011243911, 2.448486186160097, 1.2019494885383772, 3.4422681986993138,
          -0.0865942256120712, 0.6865942256120713]
# (pos, normal, depth) of dCollide(transform, plane); sides are -1
CONTACTS_A = [([1.0470376510599033, 3.3470785266656278, -0.08659422561207122],
               [0.0, 0.0, 1.0], 0.0865942256120712),
              ([2.3354730255352854, 1.817394152096651, -0.08659422561207122],
               [0.0, 0.0, 1.0], 0.0865942256120712)]
AABB_B = [-1.3550720701129741, -0.7550720701129741, 0.2550720701129742, 0.8550720701129741,
          -0.18421219880057704, 0.41578780119942294]
CONTACTS_B = [([-1.0, 0.5550720701129742, 0.11578780119942295], [-1.0, 0.0, 0.0],
               0.24492792988702589)]
AABB_C = [-0.38364399887560874, 1.7484861861600973, -0.6053886998473573, 1.5572971916451759,
          -0.31915294574278236, 0.6391658736891332]
CONTACTS_C = [([1.6354730255352856, 0.058104661484139, -0.31915294574278236], [0.0, 0.0, 1.0],
               0.31915294574278236),
              ([0.9047913755997733, -0.6037828854738989, -0.1517934475677806], [0.0, 0.0, 1.0],
               0.1517934475677806),
              ([0.3470376510599036, 1.557297191645176, -0.015251574719501948], [0.0, 0.0, 1.0],
               0.015251574719501948)]
CONTACTS_D = [([0.4, 0.15000000000000002, 0.05],
               [-0.5345224838248488, -0.8017837257372732, -0.2672612419124244],
               0.6258342613226058)]


def _rot(ax, ay, az, angle):
    return ode.dRFromAxisAndAngle(ax, ay, az, angle)


def scene_a():
    tr = ode.dCreateGeomTransform(None)
    box = ode.dCreateBox(None, 1, 2, 0.5)
    ode.dGeomSetPosition(box, 0.5, 0, 0.1)
    ode.dGeomSetRotation(box, _rot(0, 1, 0, 0.3))
    ode.dGeomTransformSetGeom(tr, box)
    ode.dGeomSetPosition(tr, 1, 2, 0.2)
    ode.dGeomSetRotation(tr, _rot(0, 0, 1, 0.7))
    plane = ode.dCreatePlane(None, 0, 0, 1, 0)
    return tr, box, plane


def check(contacts, expected, flip=False, tol=1e-9):
    """Contacts match ODE's (pos, normal, depth) list; ``flip``: argument order swapped."""
    assert len(contacts) == len(expected)
    for c, (pos, normal, depth) in zip(contacts, expected, strict=True):
        np.testing.assert_allclose(c.pos, pos, atol=tol)
        np.testing.assert_allclose(c.normal, -np.array(normal) if flip else normal, atol=tol)
        assert c.depth == pytest.approx(depth, abs=tol)
        assert (c.side1, c.side2) == (-1, -1)


def test_defaults_and_empty_transform():
    tr = ode.dCreateGeomTransform(None)
    assert ode.dGeomGetClass(tr) == ode.dGeomTransformClass
    assert ode.dGeomTransformGetGeom(tr) is None
    assert ode.dGeomTransformGetCleanup(tr) == 0
    assert ode.dGeomTransformGetInfo(tr) == 0
    # ODE: an empty transform has an all-zero AABB and no contacts
    np.testing.assert_array_equal(ode.dGeomGetAABB(tr), np.zeros(6))
    s = ode.dCreateSphere(None, 1)
    assert ode.dCollide(tr, s, 4) == []
    assert ode.dCollide(s, tr, 4) == []


def test_modes_keep_the_value_set():
    tr = ode.dCreateGeomTransform(None)
    ode.dGeomTransformSetCleanup(tr, 5)
    ode.dGeomTransformSetInfo(tr, 3)
    assert ode.dGeomTransformGetCleanup(tr) == 5      # as ODE: stored as given
    assert ode.dGeomTransformGetInfo(tr) == 3


def test_aabb_is_the_encapsulated_geom_at_its_world_pose():
    tr, box, _ = scene_a()
    np.testing.assert_allclose(ode.dGeomGetAABB(tr), AABB_A, atol=1e-12)
    # the encapsulated geom keeps its relative pose
    np.testing.assert_array_equal(ode.dGeomGetPosition(box), [0.5, 0, 0.1])
    np.testing.assert_allclose(ode.dGeomGetRotation(box), _rot(0, 1, 0, 0.3), atol=1e-15)


@pytest.mark.parametrize("info", [0, 1])
def test_box_in_transform_against_plane(info):
    tr, box, plane = scene_a()
    ode.dGeomTransformSetInfo(tr, info)
    check(ode.dCollide(tr, plane, 8), CONTACTS_A)
    check(ode.dCollide(plane, tr, 8), CONTACTS_A, flip=True)
    check(ode.dCollide(tr, plane, 2), CONTACTS_A)
    assert len(ode.dCollide(tr, plane, 1)) == 1
    np.testing.assert_array_equal(ode.dGeomGetPosition(box), [0.5, 0, 0.1])


def test_info1_contacts_name_the_transform():
    tr, box, plane = scene_a()
    ode.dGeomTransformSetInfo(tr, 1)
    assert all(c.g1 is tr and c.g2 is plane for c in ode.dCollide(tr, plane, 8))
    assert all(c.g1 is plane and c.g2 is tr for c in ode.dCollide(plane, tr, 8))


def test_contact_geom_resolution_follows_info_level_by_level():
    tr, box, _ = scene_a()
    outer = ode.dCreateGeomTransform(None)
    ode.dGeomTransformSetGeom(outer, tr)
    s = ode.dCreateSphere(None, 1)
    assert s.contact_geom() is s
    # ODE (scene C): outer info 1 -> outer; outer 0 -> what the inner names
    for i_outer, i_inner, expected in ((1, 0, outer), (1, 1, outer), (0, 1, tr), (0, 0, box)):
        ode.dGeomTransformSetInfo(outer, i_outer)
        ode.dGeomTransformSetInfo(tr, i_inner)
        assert outer.contact_geom() is expected
    ode.dGeomTransformSetGeom(outer, None)
    ode.dGeomTransformSetInfo(outer, 0)
    assert outer.contact_geom() is outer


def test_info0_contacts_name_the_encapsulated_geom():
    # ODE 0.16.2: with info 0 the contacts' g1 (g2 when swapped) is the box.
    # Needs dispatch.py to name geoms through Geom.contact_geom.
    tr, box, plane = scene_a()
    assert all(c.g1 is box and c.g2 is plane for c in ode.dCollide(tr, plane, 8))
    assert all(c.g1 is plane and c.g2 is box for c in ode.dCollide(plane, tr, 8))
    # scene C, outer info 0: named as the inner transform decides
    outer = ode.dCreateGeomTransform(None)
    ode.dGeomTransformSetGeom(outer, tr)
    assert {c.g1 for c in ode.dCollide(outer, plane, 8)} == {box}
    ode.dGeomTransformSetInfo(tr, 1)
    assert {c.g1 for c in ode.dCollide(outer, plane, 8)} == {tr}
    # scene D: each side named by its own transform's info
    t3, s3 = ode.dCreateGeomTransform(None), ode.dCreateSphere(None, 0.5)
    t4, s4 = ode.dCreateGeomTransform(None), ode.dCreateSphere(None, 0.5)
    ode.dGeomTransformSetGeom(t3, s3)
    ode.dGeomTransformSetGeom(t4, s4)
    ode.dGeomTransformSetInfo(t4, 1)
    [c] = ode.dCollide(t3, t4, 4)
    assert (c.g1, c.g2) == (s3, t4)
    [c] = ode.dCollide(t4, t3, 4)
    assert (c.g1, c.g2) == (t4, s3)


def test_transform_on_a_body():
    w = ode.dWorldCreate()
    b = ode.dBodyCreate(w)
    ode.dBodySetPosition(b, -1, 0.5, 0.3)
    ode.dBodySetRotation(b, _rot(1, 1, 0, 0.4))
    tr = ode.dCreateGeomTransform(None)
    ode.dGeomSetBody(tr, b)
    sph = ode.dCreateSphere(None, 0.3)
    ode.dGeomSetPosition(sph, 0, 0, -0.2)
    ode.dGeomTransformSetGeom(tr, sph)
    ode.dGeomTransformSetInfo(tr, 1)
    box = ode.dCreateBox(None, 2, 2, 0.4)
    np.testing.assert_allclose(ode.dGeomGetAABB(tr), AABB_B, atol=1e-12)
    check(ode.dCollide(tr, box, 4), CONTACTS_B)
    check(ode.dCollide(box, tr, 4), CONTACTS_B, flip=True)
    # moving the body moves the encapsulated sphere with it
    ode.dBodySetPosition(b, 5, 5, 5)
    assert ode.dCollide(tr, box, 4) == []
    assert ode.dGeomGetAABB(tr)[0] == pytest.approx(AABB_B[0] + 6, abs=1e-12)


@pytest.mark.parametrize("i_outer,i_inner", [(0, 0), (0, 1), (1, 0), (1, 1)])
def test_nested_transforms(i_outer, i_inner):
    tr, box, plane = scene_a()
    outer = ode.dCreateGeomTransform(None)
    ode.dGeomTransformSetGeom(outer, tr)
    ode.dGeomSetPosition(tr, 0.2, 0, 0.1)
    ode.dGeomSetPosition(outer, 0.1, 0.2, -0.1)
    ode.dGeomSetRotation(outer, _rot(1, 0, 0, 0.2))
    ode.dGeomTransformSetInfo(outer, i_outer)
    ode.dGeomTransformSetInfo(tr, i_inner)
    np.testing.assert_allclose(ode.dGeomGetAABB(outer), AABB_C, atol=1e-12)
    check(ode.dCollide(outer, plane, 8), CONTACTS_C)
    check(ode.dCollide(plane, outer, 8), CONTACTS_C, flip=True)


def test_transform_against_transform():
    t3, s3 = ode.dCreateGeomTransform(None), ode.dCreateSphere(None, 0.5)
    t4, s4 = ode.dCreateGeomTransform(None), ode.dCreateSphere(None, 0.5)
    ode.dGeomTransformSetGeom(t3, s3)
    ode.dGeomTransformSetGeom(t4, s4)
    ode.dGeomSetPosition(s3, 0.3, 0, 0)
    ode.dGeomSetPosition(s4, 0, 0.2, 0)
    ode.dGeomSetPosition(t4, 0.5, 0.1, 0.1)
    check(ode.dCollide(t3, t4, 4), CONTACTS_D)
    check(ode.dCollide(t4, t3, 4), CONTACTS_D, flip=True)


def test_cleanup_destroys_the_encapsulated_geom():
    tr, box, _ = scene_a()
    ode.dGeomDestroy(tr)
    ode.dGeomGetAABB(box)                               # cleanup 0: still usable
    tr2 = ode.dCreateGeomTransform(None)
    ode.dGeomTransformSetGeom(tr2, box)
    ode.dGeomTransformSetCleanup(tr2, 1)
    ode.dGeomDestroy(tr2)
    with pytest.raises(ode.ODEError, match="destroyed"):
        ode.dGeomGetAABB(box)


def test_replacing_the_geom_with_cleanup_destroys_the_old_one():
    tr = ode.dCreateGeomTransform(None)
    a, b = ode.dCreateSphere(None, 1), ode.dCreateSphere(None, 2)
    ode.dGeomTransformSetGeom(tr, a)
    ode.dGeomTransformSetGeom(tr, b)                    # cleanup 0: a survives
    ode.dGeomSphereGetRadius(a)
    ode.dGeomTransformSetCleanup(tr, 1)
    ode.dGeomTransformSetGeom(tr, b)                    # the same geom again: kept
    assert ode.dGeomSphereGetRadius(b) == 2
    ode.dGeomTransformSetGeom(tr, a)
    with pytest.raises(ode.ODEError):
        ode.dGeomSphereGetRadius(b)
    assert ode.dGeomTransformGetGeom(tr) is a


def test_space_destroys_transform_with_cleanup():
    space = ode.dSimpleSpaceCreate(None)
    tr = ode.dCreateGeomTransform(space)
    s = ode.dCreateSphere(None, 1)
    ode.dGeomTransformSetGeom(tr, s)
    ode.dGeomTransformSetCleanup(tr, 1)
    ode.dSpaceDestroy(space)
    with pytest.raises(ode.ODEError):
        ode.dGeomSphereGetRadius(s)


def test_space_collide_reports_transform_pairs():
    space = ode.dSimpleSpaceCreate(None)
    tr = ode.dCreateGeomTransform(space)
    s = ode.dCreateSphere(None, 0.5)
    ode.dGeomSetPosition(s, 3, 0, 0)
    ode.dGeomTransformSetGeom(tr, s)
    far = ode.dCreateSphere(space, 0.5)
    ode.dGeomSetPosition(far, 0, 0, 0)
    pairs = []
    ode.dSpaceCollide(space, None, lambda data, a, b: pairs.append({a, b}))
    assert pairs == []                     # the transform's AABB is around x = 3
    ode.dGeomSetPosition(far, 3.5, 0, 0)
    ode.dSpaceCollide(space, None, lambda data, a, b: pairs.append({a, b}))
    assert pairs == [{tr, far}]
    cs = ode.dCollide(tr, far, 4)
    assert len(cs) == 1 and cs[0].depth == pytest.approx(0.5)


def test_errors_name_function_and_argument():
    tr = ode.dCreateGeomTransform(None)
    s = ode.dCreateSphere(None, 1)
    with pytest.raises(ode.ODEError, match="dGeomTransformSetGeom.*g"):
        ode.dGeomTransformSetGeom(s, tr)
    with pytest.raises(ode.ODEError, match="dGeomTransformSetGeom.*obj.*placeable"):
        ode.dGeomTransformSetGeom(tr, ode.dCreatePlane(None, 0, 0, 1, 0))
    with pytest.raises(ode.ODEError, match="itself"):
        ode.dGeomTransformSetGeom(tr, tr)
    outer = ode.dCreateGeomTransform(None)
    ode.dGeomTransformSetGeom(outer, tr)
    with pytest.raises(ode.ODEError, match="itself"):
        ode.dGeomTransformSetGeom(tr, outer)
    for f in (ode.dGeomTransformGetGeom, ode.dGeomTransformGetCleanup, ode.dGeomTransformGetInfo):
        with pytest.raises(ode.ODEError, match=f.__name__):
            f(s)
    with pytest.raises(ode.ODEError, match="mode"):
        ode.dGeomTransformSetCleanup(tr, "yes")
    with pytest.raises(ode.ODEError, match="NULL"):
        ode.dGeomTransformSetInfo(None, 1)


def test_encapsulated_geom_must_be_free_when_collided():
    space = ode.dSimpleSpaceCreate(None)
    tr = ode.dCreateGeomTransform(None)
    s = ode.dCreateSphere(space, 1)
    other = ode.dCreateSphere(None, 1)
    ode.dGeomTransformSetGeom(tr, s)
    with pytest.raises(ode.ODEError, match="dCollide.*space"):
        ode.dCollide(tr, other, 1)
    ode.dSpaceRemove(space, s)
    assert len(ode.dCollide(tr, other, 1)) == 1
    w = ode.dWorldCreate()
    ode.dGeomSetBody(s, ode.dBodyCreate(w))
    with pytest.raises(ode.ODEError, match="body"):
        ode.dCollide(other, tr, 1)
    with pytest.raises(ode.ODEError, match="dGeomGetAABB.*body"):
        ode.dGeomGetAABB(tr)
    ode.dGeomSetBody(s, None)
    ode.dGeomDestroy(s)
    with pytest.raises(ode.ODEError, match="destroyed"):
        ode.dCollide(tr, other, 1)


def test_pose_is_restored_when_the_collider_raises():
    tr = ode.dCreateGeomTransform(None)
    s = ode.dCreateSphere(None, 1)
    ode.dGeomSetPosition(s, 1, 2, 3)
    ode.dGeomTransformSetGeom(tr, s)
    ode.dGeomSetPosition(tr, 10, 0, 0)

    def boom(o1, o2, n):
        np.testing.assert_allclose(ode.dGeomGetPosition(o1), [11, 2, 3])
        raise RuntimeError("user collider failed")

    ode.dSetColliderOverride(ode.dSphereClass, ode.dSphereClass, boom)
    try:
        with pytest.raises(RuntimeError):
            ode.dCollide(tr, ode.dCreateSphere(None, 1), 1)
    finally:
        ode.dSetColliderOverride(ode.dSphereClass, ode.dSphereClass, None)
    np.testing.assert_array_equal(ode.dGeomGetPosition(s), [1, 2, 3])


angles = st.floats(-math.pi, math.pi)
coords = st.floats(-1.0, 1.0)
axes = st.tuples(st.floats(-1, 1), st.floats(-1, 1), st.floats(0.1, 1))


@settings(max_examples=40, deadline=None)
@given(t_pos=st.tuples(coords, coords, coords), t_axis=axes, t_angle=angles,
       b_pos=st.tuples(coords, coords, coords), b_axis=axes, b_angle=angles,
       s_pos=st.tuples(coords, coords, coords))
def test_transform_equals_composed_placement(t_pos, t_axis, t_angle, b_pos, b_axis, b_angle,
                                             s_pos):
    """A box in a transform collides exactly as a box placed at the composed pose."""
    tr = ode.dCreateGeomTransform(None)
    inner = ode.dCreateBox(None, 0.6, 0.8, 1.0)
    ode.dGeomSetPosition(inner, *b_pos)
    ode.dGeomSetRotation(inner, _rot(*b_axis, b_angle))
    ode.dGeomTransformSetGeom(tr, inner)
    ode.dGeomSetPosition(tr, *t_pos)
    ode.dGeomSetRotation(tr, _rot(*t_axis, t_angle))
    Rt = ode.dGeomGetRotation(tr).reshape(3, 4)[:, :3]
    Rb = ode.dGeomGetRotation(inner).reshape(3, 4)[:, :3]
    direct = ode.dCreateBox(None, 0.6, 0.8, 1.0)
    # the composed pose, bit for bit (dGeomSetRotation would re-normalise it,
    # and degenerate placements then order or count corners differently), with
    # the engine's own BLAS-free products (decision 0012), not numpy's `@`
    direct.own_pos = matmul(Rt, ode.dGeomGetPosition(inner)) + ode.dGeomGetPosition(tr)
    direct.own_R = matmul(Rt, Rb)
    np.testing.assert_array_equal(ode.dGeomGetAABB(tr), ode.dGeomGetAABB(direct))
    for other in (ode.dCreatePlane(None, 0, 0, 1, 0.2), ode.dCreateSphere(None, 0.7)):
        if ode.dGeomGetClass(other) == ode.dSphereClass:
            ode.dGeomSetPosition(other, *s_pos)
        for a, b in ((tr, other), (other, tr)):
            got = ode.dCollide(a, b, 8)
            want = ode.dCollide(*((direct, other) if a is tr else (other, direct)), 8)
            assert len(got) == len(want)
            for c, d in zip(got, want, strict=True):
                np.testing.assert_array_equal(c.pos, d.pos)
                np.testing.assert_array_equal(c.normal, d.normal)
                assert c.depth == d.depth
