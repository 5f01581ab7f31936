"""World, body, mass and rotation functions of the flat API over libode.

Conventions as engine.ode: ODE's names and C argument order; setters take
scalars; vectors come back as new numpy float64 arrays (dVector3 (3,),
dQuaternion (4,) w x y z, dMatrix3 (12,) 3x4 row-major); C out-parameters are
returned; a ``dMass`` argument is a :class:`~engine.libode.structs.dMass`
filled in place.
"""

from __future__ import annotations

import ctypes
from ctypes import POINTER, c_double, c_int, c_ulong, c_void_p

import numpy as np

from engine.libode.handles import BODIES, Handle, plain
from engine.libode.loader import bind
from engine.libode.structs import CMass, Matrix3, Vector3, c_matrix3, dMass, vector3

_DOUBLE_PTR = POINTER(c_double)
_VEC_SET = (c_void_p, c_double, c_double, c_double)

_rand_set_seed = bind("dRandSetSeed", None, c_ulong)
_world_create = bind("dWorldCreate", c_void_p)
_world_destroy = bind("dWorldDestroy", None, c_void_p)
_world_set_gravity = bind("dWorldSetGravity", None, *_VEC_SET)
_world_get_gravity = bind("dWorldGetGravity", None, c_void_p, Vector3)
_world_set_erp = bind("dWorldSetERP", None, c_void_p, c_double)
_world_get_erp = bind("dWorldGetERP", c_double, c_void_p)
_world_set_cfm = bind("dWorldSetCFM", None, c_void_p, c_double)
_world_get_cfm = bind("dWorldGetCFM", c_double, c_void_p)
_world_set_iterations = bind("dWorldSetQuickStepNumIterations", None, c_void_p, c_int)
_world_get_iterations = bind("dWorldGetQuickStepNumIterations", c_int, c_void_p)
_world_set_layer = bind("dWorldSetContactSurfaceLayer", None, c_void_p, c_double)
_world_get_layer = bind("dWorldGetContactSurfaceLayer", c_double, c_void_p)
_world_step = bind("dWorldStep", c_int, c_void_p, c_double)
_world_quick_step = bind("dWorldQuickStep", c_int, c_void_p, c_double)

_body_create = bind("dBodyCreate", c_void_p, c_void_p)
_body_destroy = bind("dBodyDestroy", None, c_void_p)
_body_set_mass = bind("dBodySetMass", None, c_void_p, POINTER(CMass))
_body_get_mass = bind("dBodyGetMass", None, c_void_p, POINTER(CMass))
_body_set_position = bind("dBodySetPosition", None, *_VEC_SET)
_body_set_rotation = bind("dBodySetRotation", None, c_void_p, Matrix3)
_body_set_linear_vel = bind("dBodySetLinearVel", None, *_VEC_SET)
_body_set_angular_vel = bind("dBodySetAngularVel", None, *_VEC_SET)
_body_add_force = bind("dBodyAddForce", None, *_VEC_SET)
_body_get_position = bind("dBodyGetPosition", _DOUBLE_PTR, c_void_p)
_body_get_rotation = bind("dBodyGetRotation", _DOUBLE_PTR, c_void_p)
_body_get_quaternion = bind("dBodyGetQuaternion", _DOUBLE_PTR, c_void_p)
_body_get_linear_vel = bind("dBodyGetLinearVel", _DOUBLE_PTR, c_void_p)
_body_get_angular_vel = bind("dBodyGetAngularVel", _DOUBLE_PTR, c_void_p)
_body_get_rel_point_pos = bind("dBodyGetRelPointPos", None, *_VEC_SET, Vector3)

_mass_set_zero = bind("dMassSetZero", None, POINTER(CMass))
_mass_set_sphere_total = bind("dMassSetSphereTotal", None, POINTER(CMass), c_double, c_double)
_mass_set_box_total = bind("dMassSetBoxTotal", None, POINTER(CMass), c_double, c_double,
                           c_double, c_double)
_mass_set_capsule_total = bind("dMassSetCapsuleTotal", None, POINTER(CMass), c_double, c_int,
                               c_double, c_double)
_r_from_axis_and_angle = bind("dRFromAxisAndAngle", None, Matrix3, c_double, c_double,
                              c_double, c_double)


# --- world -------------------------------------------------------------------
def dRandSetSeed(seed: int) -> None:
    """Seed ODE's global RNG (QuickStep reorders constraints with it)."""
    _rand_set_seed(seed)


def dWorldCreate() -> Handle:
    """A new world (gravity 0, ERP 0.2, CFM 1e-10, 20 QuickStep iterations)."""
    return plain("world", _world_create())


def dWorldDestroy(w: Handle) -> None:
    """Destroy a world with its bodies and its joints outside groups."""
    _world_destroy(w)


def dWorldSetGravity(w: Handle, x: float, y: float, z: float) -> None:
    """Gravity (m/s^2, world frame)."""
    _world_set_gravity(w, x, y, z)


def dWorldGetGravity(w: Handle) -> np.ndarray:
    """Gravity (3,) m/s^2."""
    out = Vector3()
    _world_get_gravity(w, out)
    return vector3(out)


def dWorldSetERP(w: Handle, erp: float) -> None:
    """Global error reduction parameter."""
    _world_set_erp(w, erp)


def dWorldGetERP(w: Handle) -> float:
    """Global error reduction parameter."""
    return _world_get_erp(w)


def dWorldSetCFM(w: Handle, cfm: float) -> None:
    """Global constraint force mixing."""
    _world_set_cfm(w, cfm)


def dWorldGetCFM(w: Handle) -> float:
    """Global constraint force mixing."""
    return _world_get_cfm(w)


def dWorldSetQuickStepNumIterations(w: Handle, n: int) -> None:
    """SOR iterations of dWorldQuickStep."""
    _world_set_iterations(w, n)


def dWorldGetQuickStepNumIterations(w: Handle) -> int:
    """SOR iterations of dWorldQuickStep."""
    return _world_get_iterations(w)


def dWorldSetContactSurfaceLayer(w: Handle, depth: float) -> None:
    """Penetration (m) contacts may keep without correction."""
    _world_set_layer(w, depth)


def dWorldGetContactSurfaceLayer(w: Handle) -> float:
    """Contact surface layer (m)."""
    return _world_get_layer(w)


def dWorldStep(w: Handle, stepsize: float) -> int:
    """One step of stepsize s with the Dantzig LCP stepper; 1 on success."""
    return _world_step(w, stepsize)


def dWorldQuickStep(w: Handle, stepsize: float) -> int:
    """One step of stepsize s with the iterative (SOR) stepper; 1 on success."""
    return _world_quick_step(w, stepsize)


# --- body --------------------------------------------------------------------
def dBodyCreate(w: Handle) -> Handle:
    """A new body in world ``w`` (mass 1, identity inertia, at the origin)."""
    return BODIES.new(_body_create(w))


def dBodyDestroy(b: Handle) -> None:
    """Destroy a body (its joints are detached)."""
    _body_destroy(b)


def dBodySetMass(b: Handle, mass: dMass) -> None:
    """Set the body's mass (ODE requires c = 0 and a positive mass)."""
    cm = mass.to_c()
    _body_set_mass(b, ctypes.byref(cm))


def dBodyGetMass(b: Handle) -> dMass:
    """The body's mass as a new dMass."""
    cm = CMass()
    _body_get_mass(b, ctypes.byref(cm))
    m = dMass()
    m.set_from_c(cm)
    return m


def dBodySetPosition(b: Handle, x: float, y: float, z: float) -> None:
    """Position of the body's point of reference (m)."""
    _body_set_position(b, x, y, z)


def dBodySetRotation(b: Handle, R: object) -> None:
    """Orientation from a (12,) 3x4 row-major, (9,) or (3, 3) rotation matrix."""
    _body_set_rotation(b, c_matrix3(R))


def dBodySetLinearVel(b: Handle, x: float, y: float, z: float) -> None:
    """Linear velocity (m/s)."""
    _body_set_linear_vel(b, x, y, z)


def dBodySetAngularVel(b: Handle, x: float, y: float, z: float) -> None:
    """Angular velocity (rad/s, world frame)."""
    _body_set_angular_vel(b, x, y, z)


def dBodyAddForce(b: Handle, fx: float, fy: float, fz: float) -> None:
    """Add a force (N, world frame) at the centre of mass for the next step."""
    _body_add_force(b, fx, fy, fz)


def dBodyGetPosition(b: Handle) -> np.ndarray:
    """Position (3,) m."""
    return np.array(_body_get_position(b)[:3], dtype=np.float64)


def dBodyGetRotation(b: Handle) -> np.ndarray:
    """Rotation (12,), 3x4 row-major."""
    return np.array(_body_get_rotation(b)[:12], dtype=np.float64)


def dBodyGetQuaternion(b: Handle) -> np.ndarray:
    """Orientation quaternion (4,) w, x, y, z."""
    return np.array(_body_get_quaternion(b)[:4], dtype=np.float64)


def dBodyGetLinearVel(b: Handle) -> np.ndarray:
    """Linear velocity (3,) m/s."""
    return np.array(_body_get_linear_vel(b)[:3], dtype=np.float64)


def dBodyGetAngularVel(b: Handle) -> np.ndarray:
    """Angular velocity (3,) rad/s, world frame."""
    return np.array(_body_get_angular_vel(b)[:3], dtype=np.float64)


def dBodyGetRelPointPos(b: Handle, px: float, py: float, pz: float) -> np.ndarray:
    """World position (3,) m of the body-frame point (px, py, pz)."""
    out = Vector3()
    _body_get_rel_point_pos(b, px, py, pz, out)
    return vector3(out)


# --- mass ----------------------------------------------------------------------
def _fill(mass: dMass, setter: object, *args: float) -> None:
    cm = mass.to_c()
    setter(ctypes.byref(cm), *args)
    mass.set_from_c(cm)


def dMassSetZero(mass: dMass) -> None:
    """Zero every field of ``mass`` in place."""
    _fill(mass, _mass_set_zero)


def dMassSetSphereTotal(mass: dMass, total_mass: float, radius: float) -> None:
    """Solid sphere of total mass (kg) and radius (m), in place."""
    _fill(mass, _mass_set_sphere_total, total_mass, radius)


def dMassSetBoxTotal(mass: dMass, total_mass: float, lx: float, ly: float, lz: float) -> None:
    """Solid box of total mass (kg) and side lengths (m), in place."""
    _fill(mass, _mass_set_box_total, total_mass, lx, ly, lz)


def dMassSetCapsuleTotal(mass: dMass, total_mass: float, direction: int, radius: float,
                         length: float) -> None:
    """Solid capsule of total mass (kg) along axis 1/2/3 = x/y/z, radius and
    cylinder length (m), in place."""
    _fill(mass, _mass_set_capsule_total, total_mass, direction, radius, length)


# --- rotation ------------------------------------------------------------------
def dRFromAxisAndAngle(ax: float, ay: float, az: float, angle: float) -> np.ndarray:
    """Rotation (12,) 3x4 row-major by ``angle`` rad about the axis (ax, ay, az)."""
    out = Matrix3()
    _r_from_axis_and_angle(out, ax, ay, az, angle)
    return np.array(out[:], dtype=np.float64)
