"""Boundary-layer contacts of meshes and heightfields, and padded broad-phase AABBs."""

from __future__ import annotations

import numpy as np
import pytest

from engine import ode
from engine.contact import set_padding
from engine.contact.boundary import candidates, padded_contacts
from engine.contact.pieces import mesh_info, side_of
from engine.ode.collision.spaces.broadphase import gather
from tests.engine.collision.test_convex import cube_arrays
from tests.engine.contact.boundary_shapes import (
    CUBE_I,
    CUBE_V,
    cube_mesh,
    floor_mesh,
    has_point,
    placed,
    same_contacts,
)

PAD = 0.0025
GAP = 0.002
CX, CY = 0.013, 0.021          # off the floor's grid lines
UP = np.array([0.0, 0.0, 1.0])


def _resting_on_floor(c, half: float, z: float, up=UP, centre=(CX, CY)) -> None:
    """Every contact: depth PAD - GAP, normal ``up``, under the footprint; the corners present."""
    assert len(c.depth) >= 4
    np.testing.assert_allclose(c.depth, PAD - GAP, atol=1e-9)
    np.testing.assert_allclose(c.normal, np.tile(up, (len(c.depth), 1)), atol=1e-9)
    assert not c.penetrating.any()
    assert np.all(np.abs(c.pos[:, 0] - centre[0]) <= half + 1e-9)
    assert np.all(np.abs(c.pos[:, 1] - centre[1]) <= half + 1e-9)
    np.testing.assert_allclose(c.pos[:, 2], z, atol=1e-9)
    for sx in (-1, 1):
        for sy in (-1, 1):
            assert has_point(c, (centre[0] + sx * half, centre[1] + sy * half, z))


def test_mesh_cube_on_a_2000_triangle_floor() -> None:
    floor = floor_mesh()
    cube = cube_mesh(0.1, (CX, CY, 0.05 + GAP))
    c = padded_contacts(cube, floor, PAD, 0.0)
    _resting_on_floor(c, 0.05, GAP / 2)
    A, B, pairs = candidates(side_of(cube, cube.pos, cube.R, np.zeros(6)),
                             side_of(floor, floor.pos, floor.R, np.zeros(6)), PAD)
    assert 0 < pairs.shape[0] < 12 * 2000 // 50
    assert A.kind.shape[0] <= 12 and B.kind.shape[0] < 100
    assert same_contacts(c, padded_contacts(floor, cube, 0.0, PAD), flip=True)


def test_box_and_sphere_on_the_mesh_floor() -> None:
    floor = floor_mesh()
    box = placed(ode.dCreateBox(None, 0.1, 0.1, 0.1), (CX, CY, 0.05 + GAP))
    _resting_on_floor(padded_contacts(box, floor, PAD, 0.0), 0.05, GAP / 2)
    # above a vertex shared by six triangles: still one contact
    s = placed(ode.dCreateSphere(None, 0.1), (0.05, 0.05, 0.1 + GAP))
    c = padded_contacts(s, floor, PAD, 0.0)
    assert len(c.depth) == 1
    np.testing.assert_allclose(c.pos[0], [0.05, 0.05, GAP / 2], atol=1e-12)
    np.testing.assert_allclose(c.depth, [PAD - GAP], atol=1e-12)
    np.testing.assert_allclose(c.normal[0], UP, atol=1e-12)


def test_mesh_cube_on_a_plane_and_a_mesh_cube() -> None:
    cube = cube_mesh(0.1, (CX, CY, 0.05 + GAP))
    plane = ode.dCreatePlane(None, 0.0, 0.0, 1.0, 0.0)
    c = padded_contacts(cube, plane, PAD, 0.0)
    assert len(c.depth) == 4
    _resting_on_floor(c, 0.05, GAP / 2)
    base = cube_mesh(1.0, (0.0, 0.0, -0.5))
    _resting_on_floor(padded_contacts(cube, base, PAD, 0.0), 0.05, GAP / 2)


def test_penetrating_meshes_are_flagged_and_separated_ones_never() -> None:
    floor = floor_mesh()
    sunk = cube_mesh(0.1, (CX, CY, 0.05 - 0.001))
    c = padded_contacts(sunk, floor, PAD, 0.0)
    assert c.penetrating.any()
    np.testing.assert_allclose(c.depth[c.penetrating], PAD + 0.001, atol=1e-9)
    high = cube_mesh(0.1, (CX, CY, 0.05 + GAP))
    assert not padded_contacts(high, floor, PAD, 0.0).penetrating.any()
    assert len(padded_contacts(high, floor, 0.0, 0.0).depth) == 0


def _flat_heightfield():
    d = ode.dGeomHeightfieldDataCreate()
    ode.dGeomHeightfieldDataBuildDouble(d, np.zeros(21 * 21), 1, 2.0, 2.0, 21, 21, 1.0, 0.0,
                                        0.1, 0)
    return ode.dCreateHeightfield(None, d, 0)       # world y up


def test_heightfield_flat_patch_against_a_sphere_and_a_box() -> None:
    hf = _flat_heightfield()
    y_up = np.array([0.0, 1.0, 0.0])
    s = placed(ode.dCreateSphere(None, 0.1), (CX, 0.1 + GAP, CY))
    c = padded_contacts(s, hf, PAD, 0.0)
    assert len(c.depth) == 1
    np.testing.assert_allclose(c.pos[0], [CX, GAP / 2, CY], atol=1e-12)
    np.testing.assert_allclose(c.normal[0], y_up, atol=1e-12)
    np.testing.assert_allclose(c.depth, [PAD - GAP], atol=1e-12)
    box = placed(ode.dCreateBox(None, 0.1, 0.1, 0.1), (CX, 0.05 + GAP, CY))
    c = padded_contacts(box, hf, PAD, 0.0)
    np.testing.assert_allclose(c.depth, PAD - GAP, atol=1e-9)
    np.testing.assert_allclose(c.normal, np.tile(y_up, (len(c.depth), 1)), atol=1e-9)
    for sx in (-1, 1):
        for sz in (-1, 1):
            assert has_point(c, (CX + sx * 0.05, GAP / 2, CY + sz * 0.05))
    assert np.all(np.abs(c.pos[:, 0] - CX) <= 0.05 + 1e-9)
    assert np.all(np.abs(c.pos[:, 2] - CY) <= 0.05 + 1e-9)
    far = placed(ode.dCreateSphere(None, 0.1), (0.5, 0.5, 0.5))
    assert len(padded_contacts(far, hf, PAD, 0.0).depth) == 0


def test_mesh_tree_is_cached_and_rebuilt_with_the_data() -> None:
    d = ode.dGeomTriMeshDataCreate()
    ode.dGeomTriMeshDataBuildSimple(d, CUBE_V * 0.1, 8, CUBE_I, 36)
    first = mesh_info(d)
    assert mesh_info(d) is first
    ode.dGeomTriMeshDataBuildSimple(d, CUBE_V * 0.2, 8, CUBE_I, 36)
    second = mesh_info(d)
    assert second is not first
    np.testing.assert_allclose(second.tree.hi[0], [0.1, 0.1, 0.1])
    # vertices changed in place, then dGeomTriMeshDataUpdate: refitted
    v = CUBE_V * 0.1
    ode.dGeomTriMeshDataBuildSimple(d, v, 8, CUBE_I, 36)
    third = mesh_info(d)
    v *= 3.0
    assert mesh_info(d) is third
    ode.dGeomTriMeshDataUpdate(d)
    np.testing.assert_allclose(mesh_info(d).tree.hi[0], [0.15, 0.15, 0.15])


@pytest.mark.parametrize("make_space", [ode.dSimpleSpaceCreate, ode.dHashSpaceCreate])
def test_space_collide_reports_a_pair_whose_padded_shells_overlap(make_space) -> None:
    space = make_space(None)
    floor = floor_mesh()
    box = placed(ode.dCreateBox(None, 0.1, 0.1, 0.1), (CX, CY, 0.05 + GAP))
    ode.dSpaceAdd(space, floor)
    ode.dSpaceAdd(space, box)

    def found() -> int:
        seen = []
        ode.dSpaceCollide(space, None, lambda data, a, b: seen.append((a, b)))
        return len(seen)

    assert found() == 0
    set_padding(box, PAD)
    assert found() == 1
    other = ode.dSimpleSpaceCreate(None)
    ode.dSpaceRemove(space, box)
    ode.dSpaceAdd(other, box)
    seen = []
    ode.dSpaceCollide2(space, other, None, lambda data, a, b: seen.append((a, b)))
    assert len(seen) == 1
    set_padding(box, 0.0)
    seen.clear()
    ode.dSpaceCollide2(space, other, None, lambda data, a, b: seen.append((a, b)))
    assert seen == []


def _z_up_heightfield():
    d = ode.dGeomHeightfieldDataCreate()
    ode.dGeomHeightfieldDataBuildDouble(d, np.zeros(21 * 21), 1, 2.0, 2.0, 21, 21, 1.0, 0.0,
                                        0.1, 0)
    g = ode.dCreateHeightfield(None, d, 1)
    ode.dGeomSetRotation(g, ode.dRFromAxisAndAngle(1.0, 0.0, 0.0, np.pi / 2))   # y -> z
    return g


def _boxed():
    t = ode.dCreateGeomTransform(None)
    ode.dGeomTransformSetGeom(t, ode.dCreateBox(None, 0.1, 0.1, 0.1))
    return t


def _convex_cube():
    planes, points, polys = cube_arrays(0.05)
    return ode.dCreateConvex(None, planes, 6, points, 8, polys)


MOVERS = {
    "sphere": lambda: ode.dCreateSphere(None, 0.05),
    "box": lambda: ode.dCreateBox(None, 0.1, 0.1, 0.1),
    "capsule": lambda: ode.dCreateCapsule(None, 0.05, 0.1),
    "cylinder": lambda: ode.dCreateCylinder(None, 0.05, 0.1),
    "convex": _convex_cube,
    "trimesh": lambda: cube_mesh(0.1, (0.0, 0.0, 0.0)),
    "transform": _boxed,
}
GROUNDS = {
    "plane": lambda: ode.dCreatePlane(None, 0.0, 0.0, 1.0, 0.0),
    "floor mesh": floor_mesh,
    "heightfield": _z_up_heightfield,
    "box": lambda: placed(ode.dCreateBox(None, 1.0, 1.0, 1.0), (0.0, 0.0, -0.5)),
}


@pytest.mark.parametrize("ground", list(GROUNDS))
@pytest.mark.parametrize("mover", list(MOVERS))
def test_every_class_rests_on_every_ground(mover, ground) -> None:
    lift = 0.1 if mover == "capsule" else 0.05
    g = placed(MOVERS[mover](), (CX, CY, lift + GAP))
    floor = GROUNDS[ground]()
    c = padded_contacts(g, floor, PAD, 0.0)
    assert len(c.depth) >= 1
    np.testing.assert_allclose(c.depth, PAD - GAP, atol=1e-9)
    np.testing.assert_allclose(c.normal, np.tile(UP, (len(c.depth), 1)), atol=1e-9)
    np.testing.assert_allclose(c.pos[:, 2], GAP / 2, atol=1e-9)
    assert np.all(np.abs(c.pos[:, :2] - [CX, CY]) <= 0.05 + 1e-9)
    assert not c.penetrating.any()
    assert same_contacts(c, padded_contacts(floor, g, 0.0, PAD), flip=True)


def test_a_heightfield_and_a_plane_make_no_contacts() -> None:
    plane = ode.dCreatePlane(None, 0.0, 0.0, 1.0, 0.0)
    assert len(padded_contacts(_z_up_heightfield(), plane, 0.01, 0.01).depth) == 0


def test_gathered_aabbs_grow_by_the_padding() -> None:
    box = placed(ode.dCreateBox(None, 0.1, 0.2, 0.3), (1.0, 2.0, 3.0))
    mesh = cube_mesh(0.1, (0.0, 0.0, 0.0))
    before = gather([box, mesh]).aabb.copy()
    set_padding(box, 0.01)
    set_padding(mesh, 0.02)
    after = gather([box, mesh]).aabb
    np.testing.assert_array_equal(after[:, 0::2], before[:, 0::2] - [[0.01], [0.02]])
    np.testing.assert_array_equal(after[:, 1::2], before[:, 1::2] + [[0.01], [0.02]])


@pytest.mark.parametrize("ground", ["plane", "floor mesh", "box"])
@pytest.mark.parametrize("mover", ["box", "trimesh"])
def test_a_cube_resting_on_an_edge_touches_along_that_edge(mover, ground) -> None:
    R = ode.dRFromAxisAndAngle(1.0, 0.0, 0.0, np.pi / 4)
    g = placed(MOVERS[mover](), (CX, CY, 0.05 * np.sqrt(2.0) + GAP), R)
    c = padded_contacts(g, GROUNDS[ground](), PAD, 0.0)
    np.testing.assert_allclose(c.depth, PAD - GAP, atol=1e-9)
    np.testing.assert_allclose(c.normal, np.tile(UP, (len(c.depth), 1)), atol=1e-9)
    np.testing.assert_allclose(c.pos[:, 1:], np.tile([CY, GAP / 2], (len(c.depth), 1)),
                               atol=1e-9)
    assert np.all(np.abs(c.pos[:, 0] - CX) <= 0.05 + 1e-9)
    assert has_point(c, (CX - 0.05, CY, GAP / 2)) and has_point(c, (CX + 0.05, CY, GAP / 2))


def test_repeated_calls_are_bit_identical() -> None:
    floor = floor_mesh()
    cube = cube_mesh(0.1, (CX, CY, 0.05 + GAP))
    first = padded_contacts(cube, floor, PAD, 0.0)       # builds the trees
    second = padded_contacts(cube, floor, PAD, 0.0)      # cached trees
    assert all(np.array_equal(a, b) for a, b in zip(first, second, strict=True))
