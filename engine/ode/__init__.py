"""engine.ode — Odeon's rigid-body engine behind the flat ODE API.

Every ODE function and constant of the manual under its exact name, with C's
argument order; handles are objects and ``None`` is ODE's NULL; vectors come
back as new numpy float64 arrays shaped like C's data (dVector3 (3,),
dQuaternion (4,) w-first, dMatrix3 (12,) row-major 3x4); C out-parameters
are returned. Misuse raises :class:`ODEError` naming the function and argument.

>>> from engine import ode
>>> w = ode.dWorldCreate()
>>> ode.dWorldSetGravity(w, 0, 0, -9.81)
>>> b = ode.dBodyCreate(w)
>>> ode.dBodySetPosition(b, 0, 0, 1)
>>> ode.dWorldStep(w, 0.01)
1
>>> round(float(ode.dBodyGetPosition(b)[2]), 6)
0.999019
"""

from __future__ import annotations

import importlib

#: Modules whose public ODE names make up the flat API, in dependency order.
_API_MODULES = (
    "engine.ode.constants", "engine.ode.errors", "engine.ode.library", "engine.ode.structs",
    "engine.ode.rng",
    "engine.ode.rotation", "engine.ode.odemath", "engine.ode.matrix", "engine.ode.mass",
    "engine.ode.world",
    "engine.ode.body", "engine.ode.body_settings", "engine.ode.joints.base",
    "engine.ode.joints.ball",
    "engine.ode.joints.hinge",
    # @api-modules (one line per joint module goes right below)
    "engine.ode.joints.hinge2", "engine.ode.joints.pr", "engine.ode.joints.pu",
    "engine.ode.joints.piston",
    "engine.ode.joints.amotor", "engine.ode.joints.dball", "engine.ode.joints.dhinge",
    "engine.ode.joints.transmission",
    "engine.ode.joints.slider",
    "engine.ode.joints.universal",
    "engine.ode.joints.fixed",
    "engine.ode.joints.plane2d",
    "engine.ode.joints.null",
    "engine.ode.joints.lmotor",
    "engine.ode.joints.contact",
    "engine.ode.step.stepper", "engine.ode.export_dif",
    "engine.ode.collision.geom", "engine.ode.collision.primitives",
    "engine.ode.collision.space", "engine.ode.collision.dispatch",
    # @collision-modules (one line per collision module goes right below)
    "engine.ode.collision.spaces",
    "engine.ode.collision.colliders_ray",
    "engine.ode.collision.colliders_basic",
    "engine.ode.collision.colliders_cylinder",
    "engine.ode.collision.convex", "engine.ode.collision.colliders_convex",
    "engine.ode.collision.trimesh_data", "engine.ode.collision.trimesh",
    "engine.ode.collision.colliders_trimesh", "engine.ode.collision.colliders_trimesh_convex",
    "engine.ode.collision.heightfield", "engine.ode.collision.colliders_heightfield",
    "engine.ode.collision.transform", "engine.ode.collision.user_class",
    "engine.ode.collision.geom_utils",
    "engine.ode.collision.native",
)

_EXTRA_NAMES = {"ODEError", "M_PI", "dMass", "dContact", "dContactGeom",
                "dSurfaceParameters", "dJointFeedback", "NativeCollider", "native",
                "TRIMESH_FACE_NORMALS"}


def _is_api_name(name: str) -> bool:
    return name in _EXTRA_NAMES or (len(name) > 1 and name[0] == "d" and name[1].isupper())


def _collect() -> list[str]:
    names = []
    g = globals()
    for mod_name in _API_MODULES:
        mod = importlib.import_module(mod_name)
        for name, value in vars(mod).items():
            if _is_api_name(name) and not name.startswith("_"):
                g[name] = value
                names.append(name)
    return sorted(set(names))


__all__ = _collect()
