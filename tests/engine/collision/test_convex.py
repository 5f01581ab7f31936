"""The convex geom (engine.ode.collision.geoms.convex): creation, validation, bounds."""

from __future__ import annotations

import math

import numpy as np
import pytest

from engine import ode

S3 = 1.0 / math.sqrt(3.0)
#: The collision matrix's octahedron: vertices at +-0.6 on each axis.
OCTA_POINTS = [[0.6, 0, 0], [-0.6, 0, 0], [0, 0.6, 0], [0, -0.6, 0], [0, 0, 0.6], [0, 0, -0.6]]
OCTA_PLANES = [[sx * S3, sy * S3, sz * S3, 0.6 * S3]
               for sx in (1, -1) for sy in (1, -1) for sz in (1, -1)]
OCTA_POLYGONS = [3, 0, 2, 4, 3, 0, 5, 2, 3, 0, 4, 3, 3, 0, 3, 5,
                 3, 1, 4, 2, 3, 1, 2, 5, 3, 1, 3, 4, 3, 1, 5, 3]


def cube_arrays(h: float = 0.5):
    """(planes, points, polygons) of a cube of half side h, faces CCW from outside."""
    points = [[x, y, z] for x in (-h, h) for y in (-h, h) for z in (-h, h)]
    idx = {tuple(np.sign(p).astype(int)): i for i, p in enumerate(points)}
    planes, polys = [], []
    for axis in range(3):
        for s in (1, -1):
            n = [0, 0, 0]
            n[axis] = s
            planes.append([*n, h])
            u, v = (axis + 1) % 3, (axis + 2) % 3
            ring = []
            for a, b in ((-1, -1), (1, -1), (1, 1), (-1, 1)):
                c = [0, 0, 0]
                c[axis], c[u], c[v] = s, a, b
                ring.append(idx[tuple(c)])
            if s < 0:
                ring.reverse()
            polys += [4, *ring]
    return planes, points, polys


def octa(space=None):
    return ode.dCreateConvex(space, OCTA_PLANES, 8, OCTA_POINTS, 6, OCTA_POLYGONS)


def test_create_keeps_local_arrays_and_edges() -> None:
    g = octa()
    assert ode.dGeomGetClass(g) == ode.dConvexClass
    assert g.planes.shape == (8, 4) and g.points.shape == (6, 3)
    assert len(g.polygons) == 8 and all(len(p) == 3 for p in g.polygons)
    assert g.edges.shape == (12, 2)
    assert np.all(g.edges[:, 0] < g.edges[:, 1])
    assert len({tuple(e) for e in g.edges}) == 12
    # flat arrays are accepted too
    flat = ode.dCreateConvex(None, np.ravel(OCTA_PLANES), 8, np.ravel(OCTA_POINTS), 6,
                             np.array(OCTA_POLYGONS, dtype=np.uint32))
    np.testing.assert_array_equal(flat.planes, g.planes)
    np.testing.assert_array_equal(flat.edges, g.edges)
    planes, points, polys = cube_arrays()
    cube = ode.dCreateConvex(None, planes, 6, points, 8, polys)
    assert cube.edges.shape == (12, 2)


def test_normals_are_made_unit() -> None:
    planes = [[2 * p[0], 2 * p[1], 2 * p[2], 2 * p[3]] for p in OCTA_PLANES]
    g = ode.dCreateConvex(None, planes, 8, OCTA_POINTS, 6, OCTA_POLYGONS)
    np.testing.assert_allclose(g.planes, OCTA_PLANES, atol=1e-15)


def test_aabb_bounds_the_transformed_points() -> None:
    g = octa()
    np.testing.assert_allclose(ode.dGeomGetAABB(g), [-0.6, 0.6, -0.6, 0.6, -0.6, 0.6])
    ode.dGeomSetPosition(g, 1.0, 2.0, 3.0)
    ode.dGeomSetRotation(g, ode.dRFromAxisAndAngle(0, 0, 1, math.pi / 4))
    c = 0.6 * math.cos(math.pi / 4)
    np.testing.assert_allclose(ode.dGeomGetAABB(g),
                               [1 - c, 1 + c, 2 - c, 2 + c, 2.4, 3.6], atol=1e-12)
    # on a body with an offset
    w = ode.dWorldCreate()
    b = ode.dBodyCreate(w)
    ode.dBodySetPosition(b, 0.0, 0.0, 1.0)
    g2 = octa()
    ode.dGeomSetBody(g2, b)
    ode.dGeomSetOffsetPosition(g2, 1.0, 0.0, 0.0)
    np.testing.assert_allclose(ode.dGeomGetAABB(g2), [0.4, 1.6, -0.6, 0.6, 0.4, 1.6])


def test_set_convex_replaces_the_shape() -> None:
    g = octa()
    planes, points, polys = cube_arrays(0.25)
    ode.dGeomSetConvex(g, planes, 6, points, 8, polys)
    assert g.points.shape == (8, 3) and len(g.polygons) == 6
    np.testing.assert_allclose(ode.dGeomGetAABB(g), [-0.25, 0.25] * 3)
    with pytest.raises(ode.ODEError, match="dGeomSetConvex"):
        ode.dGeomSetConvex(ode.dCreateSphere(None, 1.0), planes, 6, points, 8, polys)
    # a failed set leaves the geom as it was
    with pytest.raises(ode.ODEError):
        ode.dGeomSetConvex(g, planes, 6, points, 8, polys[:-1])
    assert g.points.shape == (8, 3)


@pytest.mark.parametrize("args,argument", [
    ((OCTA_PLANES, 0, OCTA_POINTS, 6, OCTA_POLYGONS), "planecount"),
    ((OCTA_PLANES, 8, OCTA_POINTS, -1, OCTA_POLYGONS), "pointcount"),
    ((OCTA_PLANES, 8.5, OCTA_POINTS, 6, OCTA_POLYGONS), "planecount"),
    ((OCTA_PLANES, 7, OCTA_POINTS, 6, OCTA_POLYGONS), "planes"),
    ((OCTA_PLANES, 8, OCTA_POINTS, 5, OCTA_POLYGONS), "points"),
    ((np.array(OCTA_PLANES)[:, :3], 8, OCTA_POINTS, 6, OCTA_POLYGONS), "planes"),
    ((OCTA_PLANES, 8, np.full((6, 3), np.nan), 6, OCTA_POLYGONS), "points"),
    ((OCTA_PLANES, 8, "abc", 6, OCTA_POLYGONS), "points"),
    ((OCTA_PLANES, 8, OCTA_POINTS, 6, OCTA_POLYGONS[:-4]), "polygons"),
    ((OCTA_PLANES, 8, OCTA_POINTS, 6, OCTA_POLYGONS + [3]), "polygons"),
    ((OCTA_PLANES, 8, OCTA_POINTS, 6, [2, 0, 1] + OCTA_POLYGONS[4:]), "polygons"),
    ((OCTA_PLANES, 8, OCTA_POINTS, 6, [3, 0, 2, 6] + OCTA_POLYGONS[4:]), "polygons"),
    ((OCTA_PLANES, 8, OCTA_POINTS, 6, [3, 0, 2, -1] + OCTA_POLYGONS[4:]), "polygons"),
    ((OCTA_PLANES, 8, OCTA_POINTS, 6, [3.5, 0, 2, 4] + OCTA_POLYGONS[4:]), "polygons"),
    (([[0, 0, 0, 1]] + OCTA_PLANES[1:], 8, OCTA_POINTS, 6, OCTA_POLYGONS), "planes"),
    (([[-a, -b, -c, -d] for a, b, c, d in OCTA_PLANES], 8, OCTA_POINTS, 6, OCTA_POLYGONS),
     "planes"),
])
def test_bad_arrays_name_the_argument(args, argument) -> None:
    with pytest.raises(ode.ODEError) as e:
        ode.dCreateConvex(None, *args)
    assert e.value.function == "dCreateConvex"
    assert e.value.argument == argument


def test_in_a_space_and_placeable() -> None:
    space = ode.dSimpleSpaceCreate(None)
    g = octa(space)
    ode.dGeomSetPosition(g, 0.0, 0.0, 0.55)
    ode.dCreatePlane(space, 0, 0, 1, 0)
    pairs = []
    ode.dSpaceCollide(space, None, lambda data, a, b: pairs.append(ode.dCollide(a, b, 4)))
    assert len(pairs) == 1 and len(pairs[0]) == 1
    assert pairs[0][0].depth == pytest.approx(0.05)
    np.testing.assert_allclose(ode.dGeomGetPosition(g), [0, 0, 0.55])
    ode.dGeomDestroy(g)
    ode.dSpaceDestroy(space)
