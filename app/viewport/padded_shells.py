"""Boundary layers as meshes: each Solid's boundingObject grown by its padding (no GL here).

The robust contact model (Klamp't's) gives a Solid a boundary layer: contacts
exist where the shells of thickness ``padding`` around the boundingObjects
overlap. `shell_items` builds the `SceneItem`s of those shells for the
viewport (app/viewport/boundary_layer_drawer.py draws them translucent).
A registry (`SHELL_MAKERS`) says per geometry type how its shell is made:
primitives exactly (Sphere radius + p, Box half sizes + p, Cylinder radius +
p and height + 2p, Capsule radius + p, Plane raised by p along its normal);
any other drawable geometry (IndexedFaceSet, Mesh, ElevationGrid) has its
vertices moved along their vertex normals by p (`offset_along_normals`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import numpy as np

from app.viewport import meshes
from app.viewport.geometry_meshes import MeshKey, MeshTable, mesh_for
from app.viewport.scene import SceneItem, node_transform
from app.viewport.transforms import pose_matrix

#: RGBA of the shells: translucent (alpha < 1 draws them blended, without depth writes).
SHELL_COLOR = (0.35, 0.75, 1.0, 0.35)

#: ``maker(geometry node, padding [m], shell mesh table, scene mesh table)`` ->
#: (mesh key in the shell table, (4, 4) transform of the mesh in the geometry's frame),
#: or None when the geometry has nothing to draw.
ShellMaker = Callable[[Any, float, MeshTable, MeshTable], "tuple[MeshKey, np.ndarray] | None"]

def _unit(table: MeshTable, name: str, make: Callable[[], meshes.MeshData]) -> MeshKey:
    key = (name,)
    if key not in table:
        table[key] = make()
    return key


def _scaled(sx: float, sy: float, sz: float, dz: float = 0.0) -> np.ndarray:
    return pose_matrix((0.0, 0.0, dz), None, (sx, sy, sz))


def _sphere(g: Any, p: float, table: MeshTable, scene: MeshTable
            ) -> tuple[MeshKey, np.ndarray]:
    r = g.get("radius") + p
    return _unit(table, "sphere", meshes.unit_sphere), _scaled(r, r, r)


def _box(g: Any, p: float, table: MeshTable, scene: MeshTable) -> tuple[MeshKey, np.ndarray]:
    sx, sy, sz = g.get("size")
    return _unit(table, "box", meshes.unit_box), _scaled(sx + 2 * p, sy + 2 * p, sz + 2 * p)


def _cylinder(g: Any, p: float, table: MeshTable, scene: MeshTable
              ) -> tuple[MeshKey, np.ndarray]:
    r = g.get("radius") + p
    return (_unit(table, "cylinder", meshes.unit_cylinder),
            _scaled(r, r, g.get("height") + 2 * p))


def _capsule(g: Any, p: float, table: MeshTable, scene: MeshTable
             ) -> tuple[MeshKey, np.ndarray]:
    key = ("capsule", g.get("radius") + p, g.get("height"))
    if key not in table:
        table[key] = meshes.capsule(key[1], key[2])
    return key, np.eye(4)


def _plane(g: Any, p: float, table: MeshTable, scene: MeshTable
           ) -> tuple[MeshKey, np.ndarray]:
    sx, sy = g.get("size")
    return _unit(table, "plane", meshes.unit_plane), _scaled(sx, sy, 1.0, p)


def offset_along_normals(mesh: meshes.MeshData, padding: float) -> meshes.MeshData:
    """``mesh`` with every vertex moved by ``padding`` [m] along its vertex normal.

    Corners of the triangle soup at the same position are one vertex; its
    normal is the area-weighted mean of its triangles' normals (winding
    gives the outside). The result is smooth-shaded and has no edges.
    """
    pos = np.asarray(mesh.positions, np.float64).reshape(-1, 3)
    unique, inverse = np.unique(pos, axis=0, return_inverse=True)
    inverse = inverse.ravel()
    tri = pos.reshape(-1, 3, 3)
    face = np.cross(tri[:, 1] - tri[:, 0], tri[:, 2] - tri[:, 0])  # |face| = 2 area
    vertex = np.zeros_like(unique)
    np.add.at(vertex, inverse, np.repeat(face, 3, axis=0))
    length = np.linalg.norm(vertex, axis=1, keepdims=True)
    vertex = np.where(length > 1e-300, vertex / np.maximum(length, 1e-300), 0.0)
    normals = vertex[inverse]
    return meshes.MeshData(np.asarray(pos + padding * normals, np.float32),
                           np.asarray(normals, np.float32), np.zeros((0, 3), np.float32))


def _offset_mesh(g: Any, p: float, table: MeshTable, scene: MeshTable
                 ) -> tuple[MeshKey, np.ndarray] | None:
    """Any other geometry: its scene mesh (made by the scene builder) offset by p."""
    made = mesh_for(g, scene, "")
    if made is None:
        return None
    key, scale = made
    shell_key = ("shell", key, float(p), tuple(scale))
    if shell_key not in table:
        base = scene[key]
        scaled = meshes.MeshData(np.asarray(base.positions) * np.asarray(scale, np.float32),
                                 base.normals, base.edges)
        table[shell_key] = offset_along_normals(scaled, p)
    return shell_key, np.eye(4)


#: Geometry type -> how its shell is made (other types: `_offset_mesh`).
SHELL_MAKERS: dict[str, ShellMaker] = {"Sphere": _sphere, "Box": _box, "Cylinder": _cylinder,
                                       "Capsule": _capsule, "Plane": _plane}


def shell_maker(type_name: str) -> ShellMaker:
    """The maker of ``type_name`` in `SHELL_MAKERS`, else the vertex-normal offset one."""
    return SHELL_MAKERS.get(type_name, _offset_mesh)


def _target(n: Any) -> Any:
    return n.target if getattr(n, "is_use", False) else n


def _walk(n: Any, M: np.ndarray, out: list[tuple[Any, np.ndarray]]) -> None:
    """Collect (geometry node, (4, 4) transform in the Solid's frame) of a boundingObject."""
    n = _target(n)
    if n is None or getattr(n, "is_opaque", False):
        return
    if n.type_name in ("Pose", "Transform"):
        M2 = M @ node_transform(n)
        for c in n.get("children"):
            _walk(c, M2, out)
    elif n.type_name == "Group":
        for c in n.get("children"):
            _walk(c, M, out)
    elif n.type_name == "Shape":
        _walk(n.get("geometry"), M, out)
    else:
        out.append((n, M))


def shell_items(solids: list[Any], paddings: Mapping[Any, float], table: MeshTable,
                scene_meshes: MeshTable) -> list[SceneItem]:
    """The shells of the Solids with a padding > 0: one `SceneItem` per geometry of
    their boundingObject, attached to the Solid's index in ``solids`` (the
    scene's Solid order), coloured `SHELL_COLOR`. Shell meshes are added to
    ``table``; ``scene_meshes`` is the scene's table (meshes of custom geometry)."""
    items: list[SceneItem] = []
    for index, solid in enumerate(solids):
        padding = float(paddings.get(solid, 0.0))
        if padding <= 0.0:
            continue
        geometries: list[tuple[Any, np.ndarray]] = []
        _walk(solid.get("boundingObject"), np.eye(4), geometries)
        for g, M in geometries:
            made = shell_maker(g.type_name)(g, padding, table, scene_meshes)
            if made is not None:
                key, local = made
                items.append(SceneItem(key, M @ local, SHELL_COLOR, index))
    return items
