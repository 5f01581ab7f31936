"""boundingObject -> geoms: every geometry type, Pose offsets, Group spaces, meshes."""

from __future__ import annotations

import struct

import numpy as np
import pytest

from engine import ode
from engine.sim import BuildError, Simulation
from engine.world import read_world
from tests.engine.sim.helpers import make_sim, world_text


def _geom(bo: str, physics: bool = False, extra: str = ""):
    phys = "physics Physics { }" if physics else ""
    sim = make_sim(f"DEF S Solid {{ {extra} boundingObject {bo} {phys} }}")
    return sim, sim.geom_from_def("S")


def test_box_sphere_capsule_cylinder() -> None:
    _, g = _geom("Box { size 1 2 3 }")
    assert ode.dGeomGetClass(g) == ode.dBoxClass
    assert np.allclose(ode.dGeomBoxGetLengths(g), [1, 2, 3])
    _, g = _geom("Sphere { radius 0.3 }")
    assert ode.dGeomSphereGetRadius(g) == 0.3
    _, g = _geom("Capsule { radius 0.2 height 1 }")
    assert ode.dGeomGetClass(g) == ode.dCapsuleClass
    assert ode.dGeomCapsuleGetParams(g) == pytest.approx((0.2, 1.0))
    _, g = _geom("Cylinder { radius 0.2 height 1 }")
    assert ode.dGeomGetClass(g) == ode.dCylinderClass
    assert ode.dGeomCylinderGetParams(g) == pytest.approx((0.2, 1.0))


def test_capsule_and_cylinder_lie_along_local_z_as_in_ode() -> None:
    _, g = _geom("Cylinder { radius 0.1 height 2 }", extra="translation 0 0 5")
    aabb = ode.dGeomGetAABB(g)
    assert aabb[5] - aabb[4] == pytest.approx(2.0)
    assert aabb[1] - aabb[0] == pytest.approx(0.2)


def test_capsule_mass_counts_the_caps() -> None:
    sim, _ = _geom("Capsule { radius 0.1 height 1 }", physics=True)
    m = ode.dBodyGetMass(sim.body_from_def("S"))
    volume = np.pi * 0.01 * 1 + 4 / 3 * np.pi * 0.001
    assert m.mass == pytest.approx(1000 * volume)


def test_shape_in_bounding_object_uses_its_geometry() -> None:
    _, g = _geom("Shape { geometry Sphere { radius 0.25 } }")
    assert ode.dGeomSphereGetRadius(g) == 0.25


def test_plane_is_an_infinite_plane_along_the_solid_z_axis() -> None:
    _, g = _geom("Plane { size 2 2 }", extra="translation 0 0 0.5 rotation 1 0 0 3.141592653589793")
    a, b, c, d = ode.dGeomPlaneGetParams(g)
    assert np.allclose([a, b, c], [0, 0, -1], atol=1e-12)
    assert d == pytest.approx(-0.5)


def test_plane_in_a_physics_solid_is_an_error() -> None:
    with pytest.raises(BuildError, match="Plane"):
        _geom("Plane { }", physics=True)


def test_pose_in_bounding_object_gives_an_offset_from_the_body() -> None:
    sim, g = _geom("Pose { translation 0.3 0 0 rotation 0 1 0 1.5707963267948966 children "
                   "[ Box { size 0.1 0.2 0.3 } ] }", physics=True, extra="translation 0 0 1")
    b = sim.body_from_def("S")
    assert ode.dGeomGetBody(g) is b
    # the centre of mass is the box centre: the offset is a pure rotation
    assert np.allclose(ode.dGeomGetPosition(g), [0.3, 0, 1])
    assert np.allclose(ode.dGeomGetOffsetPosition(g), 0)
    R = np.asarray(ode.dGeomGetRotation(g)).reshape(3, 4)[:, :3]
    assert np.allclose(R @ [0, 0, 1], [1, 0, 0], atol=1e-12)


def test_static_pose_places_the_geom_in_the_world() -> None:
    _, g = _geom("Pose { translation 1 0 0 children [ Sphere { radius 0.1 } ] }",
                 extra="translation 0 2 0 rotation 0 0 1 1.5707963267948966")
    assert np.allclose(ode.dGeomGetPosition(g), [0, 3, 0], atol=1e-12)


def test_group_becomes_a_nested_simple_space() -> None:
    sim, g = _geom("Group { children [ Box { size 1 1 1 } Pose { translation 0 0 1 children "
                   "[ Sphere { radius 0.5 } ] } ] }", physics=True)
    assert ode.dGeomIsSpace(g)
    assert ode.dSpaceGetClass(g) == ode.dSimpleSpaceClass
    assert ode.dSpaceGetNumGeoms(g) == 2
    assert ode.dGeomGetSpace(g) is sim.model.space
    b = sim.body_from_def("S")
    for i in range(2):
        assert ode.dGeomGetBody(ode.dSpaceGetGeom(g, i)) is b
    # mass is the sum of both volumes
    assert ode.dBodyGetMass(b).mass == pytest.approx(1000 * (1 + 4 / 3 * np.pi * 0.125))


CUBE_IFS = ("IndexedFaceSet { coord Coordinate { point [ -0.5 -0.5 -0.5, 0.5 -0.5 -0.5, "
            "0.5 0.5 -0.5, -0.5 0.5 -0.5, -0.5 -0.5 0.5, 0.5 -0.5 0.5, 0.5 0.5 0.5, "
            "-0.5 0.5 0.5 ] } coordIndex [ 0 3 2 1 -1 4 5 6 7 -1 0 1 5 4 -1 1 2 6 5 -1 "
            "2 3 7 6 -1 3 0 4 7 -1 ] }")


def test_indexed_face_set_is_a_trimesh_with_a_volume() -> None:
    sim, g = _geom(CUBE_IFS, physics=True)
    assert ode.dGeomGetClass(g) == ode.dTriMeshClass
    assert ode.dGeomTriMeshGetTriangleCount(g) == 12
    assert ode.dBodyGetMass(sim.body_from_def("S")).mass == pytest.approx(1000.0)


def test_indexed_face_set_index_out_of_range_names_the_solid() -> None:
    with pytest.raises(BuildError, match=r"DEF S.*coordIndex"):
        _geom("IndexedFaceSet { coord Coordinate { point [ 0 0 0 ] } coordIndex [ 0 1 2 ] }")


def _write_stl(path) -> None:
    v = [(0, 0, 0), (1, 0, 0), (0, 1, 0), (0, 0, 1)]
    faces = [(0, 2, 1), (0, 1, 3), (0, 3, 2), (1, 2, 3)]
    data = bytearray(b"\0" * 80) + struct.pack("<I", len(faces))
    for f in faces:
        data += struct.pack("<3f", 0, 0, 0)
        for i in f:
            data += struct.pack("<3f", *v[i])
        data += struct.pack("<H", 0)
    path.write_bytes(bytes(data))


@pytest.mark.parametrize("kind", ["obj", "stl"])
def test_mesh_files_relative_to_the_world(tmp_path, kind) -> None:
    (tmp_path / "meshes").mkdir()
    if kind == "obj":
        (tmp_path / "meshes" / "t.obj").write_text(
            "v 0 0 0\nv 1 0 0\nv 0 1 0\nv 0 0 1\nf 1 3 2\nf 1 2 4\nf 1 4 3\nf 2 3 4\n")
    else:
        _write_stl(tmp_path / "meshes" / "t.stl")
    world = tmp_path / "w.wbt"
    world.write_text(world_text(f'DEF S Solid {{ boundingObject Mesh {{ url [ "meshes/t.{kind}" ] '
                                '} physics Physics { } }'))
    sim = Simulation(read_world(world))
    g = sim.geom_from_def("S")
    assert ode.dGeomTriMeshGetTriangleCount(g) == 4
    assert ode.dBodyGetMass(sim.body_from_def("S")).mass == pytest.approx(1000 / 6)


def test_missing_mesh_file_is_an_error_naming_the_solid(tmp_path) -> None:
    world = tmp_path / "w.wbt"
    world.write_text(world_text('DEF S Solid { boundingObject Mesh { url [ "nope.obj" ] } }'))
    with pytest.raises(BuildError, match=r"DEF S.*Mesh.url.*nope.obj"):
        Simulation(read_world(world))


def test_elevation_grid_is_a_heightfield_matching_webots_layout() -> None:
    # heights rise along +y only: row j has height j
    sim = make_sim("DEF G Solid { boundingObject ElevationGrid { xDimension 3 yDimension 3 "
                   "xSpacing 1 ySpacing 1 height [ 0 0 0 1 1 1 2 2 2 ] } } "
                   "DEF P Solid { translation 1 1.9 3 boundingObject Sphere { radius 0.1 } "
                   "physics Physics { } }")
    g = sim.geom_from_def("G")
    assert ode.dGeomGetClass(g) == ode.dHeightfieldClass
    probe = ode.dCreateSphere(None, 0.1)
    # above (1, 1.9) the terrain is at z = 1.9; above (1, 0.1) at z = 0.1
    ode.dGeomSetPosition(probe, 1, 1.9, 1.95)
    ode.dGeomGetAABB(probe)
    assert ode.dCollide(g, probe, 4)
    ode.dGeomSetPosition(probe, 1, 0.1, 1.95)
    ode.dGeomGetAABB(probe)
    assert not ode.dCollide(g, probe, 4)
    ode.dGeomSetPosition(probe, 1, 0.1, 0.15)
    ode.dGeomGetAABB(probe)
    assert ode.dCollide(g, probe, 4)


def test_geom_map_points_to_the_solid() -> None:
    sim, g = _geom("Sphere { radius 1 }")
    assert sim.model.geom_solid[g].node is sim.world.find_solid_by_def("S")
