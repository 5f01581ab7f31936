"""The Webots geometry kinds: one module per geometry node type, one registry.

Each kind module (box.py, sphere.py, ...) defines ``KIND``, a `GeometryKind`
with the node type's geom build, mass and live-edit rules; this package
registers them all, in the order below. Adding a geometry node type = one
module defining ``KIND`` plus its line here (tests/engine/sim/
test_geometry_kinds.py fails when a kind module is not registered), and its
drawing in app/viewport/geometry_meshes.py. Look kinds up with `kind_of`.
"""

from __future__ import annotations

from engine.sim.geometry_kinds import (
    box,
    capsule,
    cylinder,
    elevation_grid,
    indexed_face_set,
    mesh,
    plane,
    sphere,
)
from engine.sim.geometry_kinds.kind import GeomBuild, GeometryKind, no_volume
from engine.sim.geometry_kinds.limits import MAX_SIZE, MIN_SIZE
from engine.sim.geometry_kinds.registry import (
    kind_names,
    kind_of,
    register,
    registered,
    unregister,
)

for _module in (box, sphere, capsule, cylinder, plane, indexed_face_set, mesh, elevation_grid):
    register(_module.KIND)

__all__ = ["MAX_SIZE", "MIN_SIZE", "GeomBuild", "GeometryKind", "kind_names", "kind_of",
           "no_volume", "register", "registered", "unregister"]
