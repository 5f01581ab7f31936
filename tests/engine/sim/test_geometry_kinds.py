"""The geometry-kind registry: every Webots geometry node type has one kind module,
and the builder, the mass and the live edits go through the registry only."""

from __future__ import annotations

import importlib
import pkgutil

import numpy as np
import pytest

from engine import ode
from engine.sim import BuildError, geometry_kinds
from engine.sim.edits import LIVE, REBUILD, apply_edit
from engine.sim.geometry_kinds import GeomBuild, GeometryKind, kind_names, kind_of
from engine.sim.geometry_kinds.registry import register, registered, unregister
from engine.world import schema_nodes
from tests.engine.sim.helpers import make_sim

#: the package's modules that hold no kind: the kind type, limits, registry, trimesh helper
INFRASTRUCTURE = {"kind", "limits", "registry", "trimesh"}


def test_every_geometry_the_builder_accepts_has_a_kind() -> None:
    assert set(kind_names()) == set(schema_nodes.GEOMETRY)
    assert len(kind_names()) == len(schema_nodes.GEOMETRY)
    for name in schema_nodes.GEOMETRY:
        assert kind_of(name).name == name


def test_every_kind_module_is_registered_and_defines_one_kind() -> None:
    names = [m.name for m in pkgutil.iter_modules(geometry_kinds.__path__)]
    kinds = sorted(n for n in names if n not in INFRASTRUCTURE)
    assert len(kinds) == len(kind_names())
    for module_name in kinds:
        module = importlib.import_module(f"engine.sim.geometry_kinds.{module_name}")
        assert isinstance(module.KIND, GeometryKind), module_name
        assert kind_of(module.KIND.name) is module.KIND, module_name
    for module_name in INFRASTRUCTURE:
        module = importlib.import_module(f"engine.sim.geometry_kinds.{module_name}")
        assert not hasattr(module, "KIND"), module_name


def test_non_geometry_types_have_no_kind() -> None:
    for name in ("Shape", "Group", "Pose", "Transform", "Solid", "Appearance", "Cone"):
        assert kind_of(name) is None


def test_a_name_registers_once_and_optional_rules_come_in_pairs() -> None:
    with pytest.raises(ValueError, match="already registered"):
        register(kind_of("Box"))
    with pytest.raises(ValueError, match="live_fields and apply_live"):
        GeometryKind("Disc", kind_of("Box").build, kind_of("Box").mass, frozenset({"radius"}))
    with pytest.raises(ValueError, match="live_fields and apply_live"):
        GeometryKind("Disc", kind_of("Box").build, kind_of("Box").mass,
                     apply_live=kind_of("Box").apply_live)
    with pytest.raises(ValueError, match="place and static_reason"):
        GeometryKind("Disc", kind_of("Box").build, kind_of("Box").mass,
                     place=kind_of("Plane").place)
    with pytest.raises(ValueError, match="place and static_reason"):
        GeometryKind("Disc", kind_of("Box").build, kind_of("Box").mass, static_reason="why")


def test_registered_adds_a_kind_for_the_block_only() -> None:
    disc = GeometryKind("Disc", kind_of("Plane").build, kind_of("Plane").mass)
    with registered(disc):
        assert kind_of("Disc") is disc and kind_names()[-1] == "Disc"
    assert kind_of("Disc") is None and "Disc" not in kind_names()


def _def(sim, name: str):
    """The node with DEF ``name`` anywhere in the world."""
    return next(n for n in sim.world.iter_nodes() if n.def_name == name and not n.is_use)


def _cube_of_sphere_size(node, space, label, base_dir) -> GeomBuild:
    side = 2.0 * node.get("radius")
    return GeomBuild(ode.dCreateBox(space, side, side, side))


def _cube_mass(node, geom, density):
    m = ode.dMass()
    side = 2.0 * node.get("radius")
    ode.dMassSetBox(m, density, side, side, side)
    return m


def _cube_resize(geom, node) -> None:
    side = 2.0 * node.get("radius")
    ode.dGeomBoxSetLengths(geom, side, side, side)


@pytest.fixture
def spheres_as_cubes():
    """The Sphere kind replaced by a kind of our own: a cube of side 2 * radius."""
    original = kind_of("Sphere")
    unregister("Sphere")
    register(GeometryKind("Sphere", _cube_of_sphere_size, _cube_mass, frozenset({"radius"}),
                          _cube_resize))
    try:
        yield
    finally:
        unregister("Sphere")
        register(original)


def test_build_mass_and_live_edit_follow_the_registered_kind(spheres_as_cubes) -> None:
    sim = make_sim("DEF S Solid { boundingObject DEF G Sphere { radius 0.5 } "
                   "physics Physics { density 1000 } }")
    g = sim.geom_from_def("S")
    assert ode.dGeomGetClass(g) == ode.dBoxClass
    assert np.allclose(ode.dGeomBoxGetLengths(g), [1.0, 1.0, 1.0])
    assert ode.dBodyGetMass(sim.body_from_def("S")).mass == pytest.approx(1000.0)
    result = apply_edit(sim, _def(sim, "G"), "radius", 1.0)
    assert result.kind == LIVE
    assert np.allclose(ode.dGeomBoxGetLengths(g), [2.0, 2.0, 2.0])
    assert ode.dBodyGetMass(sim.body_from_def("S")).mass == pytest.approx(8000.0)


def test_a_field_outside_the_kinds_live_fields_rebuilds() -> None:
    sim = make_sim("DEF S Solid { boundingObject DEF P Plane { size 1 1 } }")
    result = apply_edit(sim, _def(sim, "P"), "size", (2.0, 2.0))
    assert result.kind == REBUILD


def test_a_kind_that_places_its_geom_is_static_only() -> None:
    assert [n for n in kind_names() if kind_of(n).place is not None] == ["Plane"]
    with pytest.raises(BuildError, match=r"a Plane boundingObject needs a Solid without "
                                         r"Physics \(planes are static in ODE\)"):
        make_sim("DEF S Solid { boundingObject Plane { } physics Physics { } }")
