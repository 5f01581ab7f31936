"""The collider matrix: which function collides which pair of geom classes.

One entry per unordered pair ``(class1, class2) -> collider(g1, g2,
max_contacts)``, the geoms passed in that order; dCollide serves
``(class2, class1)`` by swapping the contacts (see
:mod:`engine.ode.collision.table`). Pairs not listed have no collider and
give no contacts, as in ODE (ray-ray, plane-plane, heightfield-plane,
heightfield-heightfield...). Importing this module installs the entries in
the table dCollide reads (``engine.ode`` imports it); user geom classes add
theirs when they are created, overrides (``dSetColliderOverride``) take
precedence over both.

The narrow-phase functions live in :mod:`engine.ode.collision.pairs`, one
module per line of ODE's matrix.
"""

from __future__ import annotations

from engine.ode.collision.pairs.colliders_box_box import box_box
from engine.ode.collision.pairs.colliders_capsule import (
    capsule_box,
    capsule_capsule,
    capsule_sphere,
)
from engine.ode.collision.pairs.colliders_convex import (
    convex_plane,
    convex_support_pair,
    ray_convex,
)
from engine.ode.collision.pairs.colliders_cylinder import (
    capsule_cylinder,
    cylinder_box,
    cylinder_cylinder,
    cylinder_plane,
    cylinder_sphere,
)
from engine.ode.collision.pairs.colliders_heightfield import heightfield_collide
from engine.ode.collision.pairs.colliders_plane import box_plane, capsule_plane, sphere_plane
from engine.ode.collision.pairs.colliders_ray import (
    ray_box,
    ray_capsule,
    ray_cylinder,
    ray_plane,
    ray_sphere,
)
from engine.ode.collision.pairs.colliders_sphere import sphere_box, sphere_sphere
from engine.ode.collision.pairs.colliders_transform import collide_transform
from engine.ode.collision.pairs.colliders_trimesh import (
    trimesh_box,
    trimesh_capsule,
    trimesh_plane,
    trimesh_ray,
    trimesh_sphere,
)
from engine.ode.collision.pairs.colliders_trimesh_convex import (
    convex_trimesh,
    cylinder_trimesh,
    trimesh_trimesh,
)
from engine.ode.collision.table import COLLIDERS, ColliderFn
from engine.ode.constants import (
    dBoxClass,
    dCapsuleClass,
    dConvexClass,
    dCylinderClass,
    dFirstSpaceClass,
    dGeomNumClasses,
    dGeomTransformClass,
    dHeightfieldClass,
    dLastSpaceClass,
    dPlaneClass,
    dRayClass,
    dSphereClass,
    dTriMeshClass,
)

#: The built-in pairs, by ODE's lines: (class1, class2) -> collider of (g1, g2).
MATRIX: dict[tuple[int, int], ColliderFn] = {
    # ray (colliders_ray): the ray first
    (dRayClass, dSphereClass): ray_sphere,
    (dRayClass, dBoxClass): ray_box,
    (dRayClass, dCapsuleClass): ray_capsule,
    (dRayClass, dCylinderClass): ray_cylinder,
    (dRayClass, dPlaneClass): ray_plane,
    # sphere (colliders_sphere), plane (colliders_plane), capsule (colliders_capsule), box-box
    (dSphereClass, dSphereClass): sphere_sphere,
    (dSphereClass, dPlaneClass): sphere_plane,
    (dSphereClass, dBoxClass): sphere_box,
    (dBoxClass, dPlaneClass): box_plane,
    (dCapsuleClass, dPlaneClass): capsule_plane,
    (dCapsuleClass, dSphereClass): capsule_sphere,
    (dCapsuleClass, dCapsuleClass): capsule_capsule,
    (dBoxClass, dBoxClass): box_box,
    (dCapsuleClass, dBoxClass): capsule_box,
    # cylinder (colliders_cylinder)
    (dCylinderClass, dPlaneClass): cylinder_plane,
    (dCylinderClass, dSphereClass): cylinder_sphere,
    (dCylinderClass, dBoxClass): cylinder_box,
    (dCylinderClass, dCylinderClass): cylinder_cylinder,
    (dCapsuleClass, dCylinderClass): capsule_cylinder,
    # convex (colliders_convex): support-mapping solids through GJK/EPA, plane, ray
    **{(dConvexClass, c): convex_support_pair
       for c in (dSphereClass, dBoxClass, dCapsuleClass, dCylinderClass, dConvexClass)},
    (dConvexClass, dPlaneClass): convex_plane,
    (dRayClass, dConvexClass): ray_convex,
    # trimesh with the primitives (colliders_trimesh), with solids (colliders_trimesh_convex)
    (dTriMeshClass, dSphereClass): trimesh_sphere,
    (dTriMeshClass, dBoxClass): trimesh_box,
    (dTriMeshClass, dCapsuleClass): trimesh_capsule,
    (dTriMeshClass, dPlaneClass): trimesh_plane,
    (dTriMeshClass, dRayClass): trimesh_ray,
    (dCylinderClass, dTriMeshClass): cylinder_trimesh,
    (dConvexClass, dTriMeshClass): convex_trimesh,
    (dTriMeshClass, dTriMeshClass): trimesh_trimesh,
    # heightfield (colliders_heightfield): every solid but the plane
    **{(dHeightfieldClass, c): heightfield_collide
       for c in (dRayClass, dSphereClass, dBoxClass, dCapsuleClass, dCylinderClass,
                 dConvexClass, dTriMeshClass)},
    # geom transform (colliders_transform): every non-space class, user classes included
    **{(dGeomTransformClass, c): collide_transform
       for c in range(dGeomNumClasses) if not dFirstSpaceClass <= c <= dLastSpaceClass},
}

COLLIDERS.update(MATRIX)
