"""How each geometry kind is drawn: the app's half of the geometry-kind registry.

The engine registers what a geometry node type does in a simulation
(engine/sim/geometry_kinds/); the viewport registers here, under the same
type name, how it is drawn: a `GeometryDrawer` gives the key of the node's
mesh in the scene's mesh table (adding the mesh on first use) and the scale
its instances draw it at. Primitive kinds share one unit mesh scaled per
instance (Box, Sphere, Cylinder, Plane); Capsules share a mesh per (radius,
height); IndexedFaceSet, ElevationGrid and Mesh get a mesh per node. A
drawer returns None when the node has nothing to draw; a type without a
drawer has nothing to draw either (`mesh_for` is the one lookup).
"""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import Any

from app.viewport import meshes

MeshKey = tuple[Any, ...]
Scale = tuple[float, float, float]
MeshTable = dict[MeshKey, meshes.MeshData]
#: ``drawer(node, mesh_table, base_dir)`` -> (mesh key, instance scale) or None.
GeometryDrawer = Callable[[Any, MeshTable, str], "tuple[MeshKey, Scale] | None"]

_DRAWERS: dict[str, GeometryDrawer] = {}
_ONE: Scale = (1.0, 1.0, 1.0)
#: First elements of the mesh keys of closed surfaces whose triangles are wound
#: counter-clockwise seen from outside (meshes.py): an opaque instance drawn
#: without mirroring never shows a back face, so the drawer may cull them.
CLOSED_MESH_KINDS = frozenset({"box", "sphere", "cylinder", "capsule"})


def register_drawer(type_name: str) -> Callable[[GeometryDrawer], GeometryDrawer]:
    """Decorator: register the drawer of geometry node type ``type_name``."""
    def add(drawer: GeometryDrawer) -> GeometryDrawer:
        if type_name in _DRAWERS:
            raise ValueError(f"a drawer for {type_name} is already registered")
        _DRAWERS[type_name] = drawer
        return drawer

    return add


def drawer_names() -> tuple[str, ...]:
    """The geometry node types with a registered drawer."""
    return tuple(_DRAWERS)


def mesh_for(node: Any, table: MeshTable, base_dir: str) -> tuple[MeshKey, Scale] | None:
    """(mesh key in ``table``, instance scale) of geometry ``node``; None when it has
    nothing to draw (no drawer for its type, or its drawer found nothing)."""
    drawer = _DRAWERS.get(node.type_name)
    return drawer(node, table, base_dir) if drawer is not None else None


def _unit(table: MeshTable, name: str, make: Callable[[], meshes.MeshData]) -> MeshKey:
    key = (name,)
    if key not in table:
        table[key] = make()
    return key


def _per_node(node: Any, table: MeshTable,
              make: Callable[[], meshes.MeshData | None]) -> tuple[MeshKey, Scale] | None:
    """A mesh of its own for ``node`` (keyed by its type and identity), made once."""
    key = (node.type_name, id(node))
    if key not in table:
        mesh = make()
        if mesh is None:
            return None
        table[key] = mesh
    return key, _ONE


def _target(n: Any) -> Any:
    return n.target if getattr(n, "is_use", False) else n


@register_drawer("Box")
def _box(g: Any, table: MeshTable, base_dir: str) -> tuple[MeshKey, Scale]:
    return _unit(table, "box", meshes.unit_box), tuple(g.get("size"))


@register_drawer("Sphere")
def _sphere(g: Any, table: MeshTable, base_dir: str) -> tuple[MeshKey, Scale]:
    r = g.get("radius")
    return _unit(table, "sphere", meshes.unit_sphere), (r, r, r)


@register_drawer("Cylinder")
def _cylinder(g: Any, table: MeshTable, base_dir: str) -> tuple[MeshKey, Scale]:
    r = g.get("radius")
    return _unit(table, "cylinder", meshes.unit_cylinder), (r, r, g.get("height"))


@register_drawer("Plane")
def _plane(g: Any, table: MeshTable, base_dir: str) -> tuple[MeshKey, Scale]:
    sx, sy = g.get("size")
    return _unit(table, "plane", meshes.unit_plane), (sx, sy, 1.0)


@register_drawer("Capsule")
def _capsule(g: Any, table: MeshTable, base_dir: str) -> tuple[MeshKey, Scale]:
    key = ("capsule", g.get("radius"), g.get("height"))
    if key not in table:
        table[key] = meshes.capsule(g.get("radius"), g.get("height"))
    return key, _ONE


@register_drawer("IndexedFaceSet")
def _indexed_face_set(g: Any, table: MeshTable, base_dir: str
                      ) -> tuple[MeshKey, Scale] | None:
    def make() -> meshes.MeshData | None:
        coord = g.get("coord")
        if coord is None:
            return None
        return meshes.indexed_face_set(_target(coord).get("point"), g.get("coordIndex"),
                                       g.get("ccw"))

    return _per_node(g, table, make)


@register_drawer("ElevationGrid")
def _elevation_grid(g: Any, table: MeshTable, base_dir: str
                    ) -> tuple[MeshKey, Scale] | None:
    return _per_node(g, table, lambda: meshes.elevation_grid(
        g.get("height"), g.get("xDimension"), g.get("yDimension"), g.get("xSpacing"),
        g.get("ySpacing")))


@register_drawer("Mesh")
def _mesh(g: Any, table: MeshTable, base_dir: str) -> tuple[MeshKey, Scale] | None:
    def make() -> meshes.MeshData | None:
        for url in g.get("url"):
            mesh = meshes.load_obj(os.path.join(base_dir, url))
            if mesh is not None:
                return mesh
        return None

    return _per_node(g, table, make)
