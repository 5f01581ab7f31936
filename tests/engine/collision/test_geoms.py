"""dGeom* API: placement, offsets, bounds, bits, enable, data, classes, point
depths, rays and error cases. Reference numbers marked ODE were recorded from
ODE 0.16.2 (libode, double precision)."""

from __future__ import annotations

import math

import numpy as np
import pytest

from engine import ode

#: ODE 0.16.2: dGeomGetAABB after dGeomSetPosition(0.5, -1, 2) and
#: dGeomSetRotation(dRFromAxisAndAngle(1, 2, 3, 0.7)).
ODE_AABB = {
    "box": [-0.9658585684284242, 1.9658585684284242, -2.2141774982536275,
            0.21417749825362753, 0.20604212156141943, 3.7939578784385803],
    "sphere": [0.2, 0.8, -1.3, -0.7, 1.7, 2.3],
    "capsule": [-0.03684387890427987, 1.0368438789042798, -1.3428354996507255,
                -0.6571645003492745, 1.1503909598676096, 2.8496090401323904],
    "cylinder": [-0.012481765009208612, 1.0124817650092086, -1.3420699896287662,
                 -0.6579300103712338, 1.3300478015610897, 2.66995219843891],
    "ray": [0.5, 1.4868494954344995, -1.1784812485446896, -1.0, 2.0, 4.290037667218293],
}


@pytest.fixture
def world():
    w = ode.dWorldCreate()
    yield w
    ode.dWorldDestroy(w)


def _R(ax: float, ay: float, az: float, angle: float) -> np.ndarray:
    """Rotation (3, 3) about axis (ax, ay, az) by ``angle`` rad."""
    return np.asarray(ode.dRFromAxisAndAngle(ax, ay, az, angle), dtype=float).reshape(3, 4)[:, :3]


def _make(kind: str):
    return {
        "box": lambda: ode.dCreateBox(None, 1.0, 2.0, 3.0),
        "sphere": lambda: ode.dCreateSphere(None, 0.3),
        "capsule": lambda: ode.dCreateCapsule(None, 0.3, 1.2),
        "cylinder": lambda: ode.dCreateCylinder(None, 0.3, 1.2),
        "ray": lambda: ode.dCreateRay(None, 2.5),
    }[kind]()


# ----------------------------------------------------------------------------- placement
def test_bodyless_position_rotation_quaternion():
    g = ode.dCreateBox(None, 1, 1, 1)
    ode.dGeomSetPosition(g, 1.0, 2.0, 3.0)
    assert np.allclose(ode.dGeomGetPosition(g), [1, 2, 3])
    assert np.allclose(ode.dGeomCopyPosition(g), [1, 2, 3])
    R = _R(0, 0, 1, 0.5)
    ode.dGeomSetRotation(g, R)
    assert np.allclose(np.asarray(ode.dGeomGetRotation(g)).reshape(3, 4)[:, :3], R)
    assert np.allclose(np.asarray(ode.dGeomCopyRotation(g)).reshape(3, 4)[:, :3], R)
    q = ode.dGeomGetQuaternion(g)
    assert np.allclose(q, [math.cos(0.25), 0, 0, math.sin(0.25)])
    ode.dGeomSetQuaternion(g, [0.0, 1.0, 0.0, 0.0])
    assert np.allclose(np.asarray(ode.dGeomGetRotation(g)).reshape(3, 4)[:, :3],
                       np.diag([1.0, -1.0, -1.0]))
    # an unnormalized quaternion is normalized
    ode.dGeomSetQuaternion(g, [2.0, 0.0, 0.0, 0.0])
    assert np.allclose(ode.dGeomGetQuaternion(g), [1, 0, 0, 0])


def test_geom_follows_body(world):
    b = ode.dBodyCreate(world)
    g = ode.dCreateSphere(None, 0.5)
    ode.dGeomSetBody(g, b)
    assert ode.dGeomGetBody(g) is b
    ode.dBodySetPosition(b, 1.0, -2.0, 0.5)
    assert np.allclose(ode.dGeomGetPosition(g), [1, -2, 0.5])
    R = _R(1, 0, 0, 0.3)
    ode.dBodySetRotation(b, R)
    assert np.allclose(np.asarray(ode.dGeomGetRotation(g)).reshape(3, 4)[:, :3], R)
    assert np.allclose(ode.dGeomGetQuaternion(g), ode.dBodyGetQuaternion(b))


def test_set_position_on_body_geom_moves_body(world):
    b = ode.dBodyCreate(world)
    g = ode.dCreateBox(None, 1, 1, 1)
    ode.dGeomSetBody(g, b)
    ode.dGeomSetPosition(g, 3.0, 4.0, 5.0)
    assert np.allclose(ode.dBodyGetPosition(b), [3, 4, 5])
    R = _R(0, 1, 0, 0.4)
    ode.dGeomSetRotation(g, R)
    assert np.allclose(np.asarray(ode.dBodyGetRotation(b)).reshape(3, 4)[:, :3], R)


def test_detach_keeps_world_pose(world):
    b = ode.dBodyCreate(world)
    ode.dBodySetPosition(b, 1, 2, 3)
    g = ode.dCreateSphere(None, 0.1)
    ode.dGeomSetBody(g, b)
    ode.dGeomSetOffsetPosition(g, 0.0, 0.0, 1.0)
    ode.dGeomSetBody(g, None)
    assert ode.dGeomGetBody(g) is None
    assert np.allclose(ode.dGeomGetPosition(g), [1, 2, 4])
    ode.dBodySetPosition(b, 0, 0, 0)
    assert np.allclose(ode.dGeomGetPosition(g), [1, 2, 4])


def test_body_next(world):
    b = ode.dBodyCreate(world)
    g1, g2 = ode.dCreateSphere(None, 1), ode.dCreateSphere(None, 1)
    ode.dGeomSetBody(g1, b)
    ode.dGeomSetBody(g2, b)
    assert ode.dGeomGetBodyNext(g1) is g2
    assert ode.dGeomGetBodyNext(g2) is None
    assert ode.dGeomGetBodyNext(ode.dCreateSphere(None, 1)) is None


# ----------------------------------------------------------------------------- offsets
def test_offset_position_and_rotation_follow_body(world):
    b = ode.dBodyCreate(world)
    g = ode.dCreateBox(None, 1, 1, 1)
    ode.dGeomSetBody(g, b)
    assert ode.dGeomIsOffset(g) == 0
    assert np.allclose(ode.dGeomGetOffsetPosition(g), 0)
    assert np.allclose(ode.dGeomGetOffsetQuaternion(g), [1, 0, 0, 0])
    ode.dGeomSetOffsetPosition(g, 1.0, 0.0, 0.0)
    assert ode.dGeomIsOffset(g) == 1
    assert np.allclose(ode.dGeomCopyOffsetPosition(g), [1, 0, 0])
    Rb = _R(0, 0, 1, math.pi / 2)
    ode.dBodySetRotation(b, Rb)
    ode.dBodySetPosition(b, 0.0, 0.0, 2.0)
    # body x axis now along world y
    assert np.allclose(ode.dGeomGetPosition(g), [0, 1, 2])
    Ro = _R(1, 0, 0, 0.3)
    ode.dGeomSetOffsetRotation(g, Ro)
    assert np.allclose(np.asarray(ode.dGeomGetOffsetRotation(g)).reshape(3, 4)[:, :3], Ro)
    assert np.allclose(np.asarray(ode.dGeomCopyOffsetRotation(g)).reshape(3, 4)[:, :3], Ro)
    assert np.allclose(np.asarray(ode.dGeomGetRotation(g)).reshape(3, 4)[:, :3], Rb @ Ro)
    ode.dGeomSetOffsetQuaternion(g, [math.cos(0.2), 0, math.sin(0.2), 0])
    assert np.allclose(ode.dGeomGetOffsetQuaternion(g), [math.cos(0.2), 0, math.sin(0.2), 0])
    assert np.allclose(np.asarray(ode.dGeomGetRotation(g)).reshape(3, 4)[:, :3],
                       Rb @ _R(0, 1, 0, 0.4))


def test_offset_world_position_rotation(world):
    b = ode.dBodyCreate(world)
    ode.dBodySetPosition(b, 1, 1, 1)
    ode.dBodySetRotation(b, _R(0, 0, 1, 0.7))
    g = ode.dCreateCapsule(None, 0.1, 0.5)
    ode.dGeomSetBody(g, b)
    ode.dGeomSetOffsetWorldPosition(g, 2.0, 3.0, 4.0)
    assert np.allclose(ode.dGeomGetPosition(g), [2, 3, 4])
    Rw = _R(1, 1, 0, 0.9)
    ode.dGeomSetOffsetWorldRotation(g, Rw)
    assert np.allclose(np.asarray(ode.dGeomGetRotation(g)).reshape(3, 4)[:, :3], Rw)
    assert np.allclose(ode.dGeomGetPosition(g), [2, 3, 4])
    ode.dGeomSetOffsetWorldQuaternion(g, [1.0, 0.0, 0.0, 0.0])
    assert np.allclose(np.asarray(ode.dGeomGetRotation(g)).reshape(3, 4)[:, :3], np.eye(3))
    # the offset then follows the body
    ode.dBodySetPosition(b, 0, 0, 0)
    assert np.allclose(ode.dGeomGetPosition(g), [1, 2, 3])


def test_set_position_with_offset_moves_body(world):
    b = ode.dBodyCreate(world)
    ode.dBodySetRotation(b, _R(0, 0, 1, math.pi / 2))
    g = ode.dCreateSphere(None, 0.1)
    ode.dGeomSetBody(g, b)
    ode.dGeomSetOffsetPosition(g, 1.0, 0.0, 0.0)
    ode.dGeomSetPosition(g, 5.0, 5.0, 5.0)
    assert np.allclose(ode.dGeomGetPosition(g), [5, 5, 5])
    assert np.allclose(ode.dBodyGetPosition(b), [5, 4, 5])
    # ODE 0.16.2: setting the rotation keeps the geom in place and moves the body
    ode.dGeomSetRotation(g, _R(1, 0, 0, 0.3))
    assert np.allclose(ode.dGeomGetPosition(g), [5, 5, 5])
    assert np.allclose(ode.dBodyGetPosition(b), [4, 5, 5])
    assert np.allclose(np.asarray(ode.dGeomGetRotation(g)).reshape(3, 4)[:, :3],
                       _R(1, 0, 0, 0.3))


def test_clear_offset(world):
    b = ode.dBodyCreate(world)
    ode.dBodySetPosition(b, 1, 2, 3)
    g = ode.dCreateSphere(None, 0.1)
    ode.dGeomSetBody(g, b)
    ode.dGeomSetOffsetPosition(g, 1, 1, 1)
    ode.dGeomSetOffsetRotation(g, _R(1, 0, 0, 1.0))
    ode.dGeomClearOffset(g)
    assert ode.dGeomIsOffset(g) == 0
    assert np.allclose(ode.dGeomGetPosition(g), [1, 2, 3])
    assert np.allclose(ode.dGeomGetQuaternion(g), ode.dBodyGetQuaternion(b))


@pytest.mark.parametrize("fn, args", [
    ("dGeomSetOffsetPosition", (1.0, 0.0, 0.0)),
    ("dGeomSetOffsetRotation", (np.eye(3),)),
    ("dGeomSetOffsetQuaternion", ([1.0, 0.0, 0.0, 0.0],)),
    ("dGeomSetOffsetWorldPosition", (1.0, 0.0, 0.0)),
    ("dGeomSetOffsetWorldRotation", (np.eye(3),)),
    ("dGeomSetOffsetWorldQuaternion", ([1.0, 0.0, 0.0, 0.0],)),
])
def test_offset_needs_body(fn, args):
    g = ode.dCreateSphere(None, 1)
    # (the Quaternion variants currently name dGeomSetOffset[World]Rotation: see report)
    with pytest.raises(ode.ODEError, match="attached to a body"):
        getattr(ode, fn)(g, *args)


# ----------------------------------------------------------------------------- bounds
@pytest.mark.parametrize("kind", sorted(ODE_AABB))
def test_aabb_matches_ode(kind):
    g = _make(kind)
    ode.dGeomSetPosition(g, 0.5, -1.0, 2.0)
    ode.dGeomSetRotation(g, ode.dRFromAxisAndAngle(1, 2, 3, 0.7))
    assert np.allclose(ode.dGeomGetAABB(g), ODE_AABB[kind], atol=1e-12)


def test_aabb_closed_forms():
    R = _R(0.3, -1, 2, 1.1)
    p = np.array([0.2, 0.4, -0.6])
    box = ode.dCreateBox(None, 1.0, 0.4, 2.0)
    cap = ode.dCreateCapsule(None, 0.25, 1.5)
    cyl = ode.dCreateCylinder(None, 0.25, 1.5)
    for g in (box, cap, cyl):
        ode.dGeomSetPosition(g, *p)
        ode.dGeomSetRotation(g, R)
    ext = np.abs(R) @ np.array([0.5, 0.2, 1.0])
    assert np.allclose(ode.dGeomGetAABB(box)[0::2], p - ext)
    assert np.allclose(ode.dGeomGetAABB(box)[1::2], p + ext)
    a = R[:, 2]
    ext = np.abs(a) * 0.75 + 0.25
    assert np.allclose(ode.dGeomGetAABB(cap)[1::2], p + ext)
    ext = np.abs(a) * 0.75 + 0.25 * np.sqrt(1 - a * a)
    assert np.allclose(ode.dGeomGetAABB(cyl)[0::2], p - ext)


def test_plane_aabb_matches_ode():
    assert np.array_equal(ode.dGeomGetAABB(ode.dCreatePlane(None, 0, 0, 1, 0.5)),
                          [-math.inf, math.inf, -math.inf, math.inf, -math.inf, 0.5])
    assert np.array_equal(ode.dGeomGetAABB(ode.dCreatePlane(None, -1, 0, 0, 0.5)),
                          [-0.5, math.inf, -math.inf, math.inf, -math.inf, math.inf])
    tilted = ode.dGeomGetAABB(ode.dCreatePlane(None, 1, 1, 0, 0.5))
    assert np.all(np.isinf(tilted))


def test_aabb_on_body_with_offset(world):
    b = ode.dBodyCreate(world)
    ode.dBodySetPosition(b, 1, 0, 0)
    g = ode.dCreateSphere(None, 0.5)
    ode.dGeomSetBody(g, b)
    ode.dGeomSetOffsetPosition(g, 0, 0, 2)
    assert np.allclose(ode.dGeomGetAABB(g), [0.5, 1.5, -0.5, 0.5, 1.5, 2.5])


# ----------------------------------------------------------------------------- bits, flags
def test_bits_default_and_set():
    g = ode.dCreateSphere(None, 1)
    assert ode.dGeomGetCategoryBits(g) == (1 << 64) - 1
    assert ode.dGeomGetCollideBits(g) == (1 << 64) - 1
    ode.dGeomSetCategoryBits(g, 0b101)
    ode.dGeomSetCollideBits(g, 1 << 63)
    assert ode.dGeomGetCategoryBits(g) == 5
    assert ode.dGeomGetCollideBits(g) == 1 << 63
    ode.dGeomSetCategoryBits(g, -1)  # C's ~0: all bits
    assert ode.dGeomGetCategoryBits(g) == (1 << 64) - 1


def test_enable_disable_data():
    g = ode.dCreateSphere(None, 1)
    assert ode.dGeomIsEnabled(g) == 1
    ode.dGeomDisable(g)
    assert ode.dGeomIsEnabled(g) == 0
    ode.dGeomEnable(g)
    assert ode.dGeomIsEnabled(g) == 1
    assert ode.dGeomGetData(g) is None
    token = object()
    ode.dGeomSetData(g, token)
    assert ode.dGeomGetData(g) is token


def test_class_ids():
    assert ode.dGeomGetClass(ode.dCreateSphere(None, 1)) == ode.dSphereClass == 0
    assert ode.dGeomGetClass(ode.dCreateBox(None, 1, 1, 1)) == ode.dBoxClass == 1
    assert ode.dGeomGetClass(ode.dCreateCapsule(None, 1, 1)) == ode.dCapsuleClass == 2
    assert ode.dGeomGetClass(ode.dCreateCylinder(None, 1, 1)) == ode.dCylinderClass == 3
    assert ode.dGeomGetClass(ode.dCreatePlane(None, 0, 0, 1, 0)) == ode.dPlaneClass == 4
    assert ode.dGeomGetClass(ode.dCreateRay(None, 1)) == ode.dRayClass == 5
    s = ode.dSimpleSpaceCreate(None)
    assert ode.dGeomGetClass(s) == ode.dSimpleSpaceClass == 10
    assert ode.dGeomIsSpace(s) == 1
    assert ode.dGeomIsSpace(ode.dCreateSphere(None, 1)) == 0


def test_geom_space_membership():
    s = ode.dSimpleSpaceCreate(None)
    g = ode.dCreateSphere(s, 1)
    assert ode.dGeomGetSpace(g) is s
    assert ode.dGeomGetSpace(ode.dCreateSphere(None, 1)) is None
    ode.dGeomDestroy(g)
    assert ode.dSpaceGetNumGeoms(s) == 0


# ----------------------------------------------------------------------------- point depth
def test_sphere_point_depth():
    # collision_point_depth.cpp: inside positive, surface 0, outside negative
    g = ode.dCreateSphere(None, 1.0)
    ode.dGeomSetPosition(g, 1, 1, 1)
    assert ode.dGeomSpherePointDepth(g, 1, 1, 1) == pytest.approx(1.0)
    assert ode.dGeomSpherePointDepth(g, 1.5, 1, 1) == pytest.approx(0.5)
    assert ode.dGeomSpherePointDepth(g, 2, 1, 1) == pytest.approx(0.0)
    assert ode.dGeomSpherePointDepth(g, 1, 1, 3.5) == pytest.approx(-1.5)


def test_box_point_depth():
    g = ode.dCreateBox(None, 1.0, 2.0, 3.0)
    # ODE 0.16.2 values inside and on the surface
    assert ode.dGeomBoxPointDepth(g, 0, 0, 0) == pytest.approx(0.5)
    assert ode.dGeomBoxPointDepth(g, 0.4, 0, 0) == pytest.approx(0.1)
    assert ode.dGeomBoxPointDepth(g, 0.5, 1, 1.5) == pytest.approx(0.0)
    # outside: the true distance (ODE gives -2 and -3 here; decision 0005)
    assert ode.dGeomBoxPointDepth(g, 1.5, 0, 0) == pytest.approx(-1.0)
    assert ode.dGeomBoxPointDepth(g, 1.5, 2, 0) == pytest.approx(-math.sqrt(2.0))
    ode.dGeomSetPosition(g, 10, 0, 0)
    ode.dGeomSetRotation(g, _R(0, 0, 1, math.pi / 2))
    assert ode.dGeomBoxPointDepth(g, 10.9, 0, 0) == pytest.approx(0.1)


def test_capsule_point_depth():
    g = ode.dCreateCapsule(None, 0.5, 2.0)
    assert ode.dGeomCapsulePointDepth(g, 0, 0, 0) == pytest.approx(0.5)
    assert ode.dGeomCapsulePointDepth(g, 0, 0, 1.4) == pytest.approx(0.1)
    assert ode.dGeomCapsulePointDepth(g, 0, 0, 1.5) == pytest.approx(0.0)
    assert ode.dGeomCapsulePointDepth(g, 2, 0, 0.5) == pytest.approx(-1.5)
    assert ode.dGeomCapsulePointDepth(g, 0, 0, 3) == pytest.approx(-1.5)


def test_plane_point_depth():
    g = ode.dCreatePlane(None, 0, 0, 2, 2)  # normalized to z = 1
    assert np.allclose(ode.dGeomPlaneGetParams(g), [0, 0, 1, 1])
    assert ode.dGeomPlanePointDepth(g, 5, 5, 0) == pytest.approx(1.0)
    assert ode.dGeomPlanePointDepth(g, 0, 0, 1) == pytest.approx(0.0)
    assert ode.dGeomPlanePointDepth(g, 0, 0, 3) == pytest.approx(-2.0)


# ----------------------------------------------------------------------------- rays
def test_ray_set_get():
    r = ode.dCreateRay(None, 2.0)
    ode.dGeomRaySet(r, 1, 2, 3, 0, 3, 4)
    start, d = ode.dGeomRayGet(r)
    assert np.allclose(start, [1, 2, 3])
    assert np.allclose(d, [0, 0.6, 0.8])
    assert ode.dGeomRayGetLength(r) == 2.0
    ode.dGeomRaySetLength(r, 5.0)
    assert ode.dGeomRayGetLength(r) == 5.0
    assert np.allclose(ode.dGeomGetAABB(r), [1, 1, 2, 5, 3, 7])


def test_ray_set_on_body_moves_body(world):
    # ODE 0.16.2 writes only the body's rotation column 2 here, leaving a
    # non-orthonormal matrix; Odeon sets a full rotation (primitives.dGeomRaySet)
    b = ode.dBodyCreate(world)
    r = ode.dCreateRay(None, 1.0)
    ode.dGeomSetBody(r, b)
    ode.dGeomRaySet(r, 1, 0, 0, 1, 0, 0)
    start, d = ode.dGeomRayGet(r)
    assert np.allclose(start, [1, 0, 0]) and np.allclose(d, [1, 0, 0])
    assert np.allclose(ode.dBodyGetPosition(b), [1, 0, 0])
    R = np.asarray(ode.dBodyGetRotation(b)).reshape(3, 4)[:, :3]
    assert np.allclose(R[:, 2], [1, 0, 0])
    assert np.allclose(R.T @ R, np.eye(3))


def test_ray_flags():
    r = ode.dCreateRay(None, 1.0)
    assert ode.dGeomRayGetParams(r) == (0, 0)
    ode.dGeomRaySetParams(r, 1, 1)
    assert ode.dGeomRayGetParams(r) == (1, 1)
    ode.dGeomRaySetFirstContact(r, 0)
    assert ode.dGeomRayGetFirstContact(r) == 0
    ode.dGeomRaySetBackfaceCull(r, 0)
    assert ode.dGeomRayGetBackfaceCull(r) == 0
    assert ode.dGeomRayGetClosestHit(r) == 0
    ode.dGeomRaySetClosestHit(r, 1)
    assert ode.dGeomRayGetClosestHit(r) == 1


# ----------------------------------------------------------------------------- errors
def test_errors():
    with pytest.raises(ode.ODEError, match="dGeomGetClass"):
        ode.dGeomGetClass(None)
    with pytest.raises(ode.ODEError, match="dCreateSphere"):
        ode.dCreateSphere(None, -1.0)
    with pytest.raises(ode.ODEError, match="dGeomBoxSetLengths"):
        ode.dGeomBoxSetLengths(ode.dCreateBox(None, 1, 1, 1), 1, -1, 1)
    with pytest.raises(ode.ODEError, match="dGeomSphereGetRadius"):
        ode.dGeomSphereGetRadius(ode.dCreateBox(None, 1, 1, 1))
    with pytest.raises(ode.ODEError, match="dCreatePlane"):
        ode.dCreatePlane(None, 0, 0, 0, 1)
    with pytest.raises(ode.ODEError, match="dGeomRaySet"):
        ode.dGeomRaySet(ode.dCreateRay(None, 1), 0, 0, 0, 0, 0, 0)
    with pytest.raises(ode.ODEError, match="dGeomSetQuaternion"):
        ode.dGeomSetQuaternion(ode.dCreateSphere(None, 1), [0, 0, 0, 0])
    plane = ode.dCreatePlane(None, 0, 0, 1, 0)
    with pytest.raises(ode.ODEError, match="not placeable"):
        ode.dGeomSetPosition(plane, 0, 0, 0)
    with pytest.raises(ode.ODEError, match="dGeomSetPosition"):
        ode.dGeomSetPosition(ode.dCreateSphere(None, 1), math.nan, 0, 0)
    g = ode.dCreateSphere(None, 1)
    ode.dGeomDestroy(g)
    with pytest.raises(ode.ODEError, match="destroyed"):
        ode.dGeomGetPosition(g)
    with pytest.raises(ode.ODEError, match="dGeomSetBody"):
        ode.dGeomSetBody(ode.dCreateSphere(None, 1), "not a body")


def test_geoms_of_one_body_never_touch() -> None:
    """As ODE's dCollide: overlapping geoms on the same body give no contacts."""
    w = ode.dWorldCreate()
    b = ode.dBodyCreate(w)
    s1 = ode.dCreateSphere(None, 0.5)
    s2 = ode.dCreateSphere(None, 0.5)
    ode.dGeomSetBody(s1, b)
    ode.dGeomSetBody(s2, b)
    ode.dGeomSetOffsetPosition(s2, 0.3, 0, 0)
    assert ode.dCollide(s1, s2, 4) == []
    ode.dGeomSetBody(s2, None)
    assert len(ode.dCollide(s1, s2, 4)) == 1
    ode.dWorldDestroy(w)
