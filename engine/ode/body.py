"""Rigid bodies: every dBody* function of the manual.

The Body handle (world, row) over :class:`~engine.ode.bodystore.BodyStore` is
:class:`engine.ode.body_handle.Body` (re-exported here).
Units: m, kg, s, N, N·m, rad. Vectors come back as new (3,) float64 arrays.
"""

from __future__ import annotations

import math

import numpy as np

from engine.ode import checks
from engine.ode.body_handle import Body, body_of, set_flag
from engine.ode.body_settings import dBodySetAutoDisableDefaults, dBodySetDampingDefaults
from engine.ode.bodystore import (
    BF_KINEMATIC,
    BF_MAX_ANG_SPEED,
)
from engine.ode.errors import ODEError
from engine.ode.kernels.detlinalg import inv3, matmul
from engine.ode.kernels.vec import R_to_q, normalize4_inplace, q_to_R
from engine.ode.mass import dMass, dMassCheck
from engine.ode.world import (
    TEARDOWN_BODIES,
    World,
    register_teardown,
    settle_body_joints,
    world_of,
)


def _moved(b: Body) -> None:
    """Tell the body's geoms that it moved (their AABBs become stale)."""
    for g in b.geoms:
        g.mark_moved()


# ----------------------------------------------------------------------------- lifetime
def dBodyCreate(w: World) -> Body:
    """A new body at the origin, mass 1, identity inertia, with the world's
    auto-disable and damping defaults."""
    world = world_of(w, "dBodyCreate")
    b = Body(world)
    dBodySetAutoDisableDefaults(b)
    dBodySetDampingDefaults(b)
    world.bodies.max_ang_speed[b.index] = world.max_ang_speed
    set_flag(b, BF_MAX_ANG_SPEED, math.isfinite(world.max_ang_speed))
    return b


def dBodyDestroy(b: Body) -> None:
    """Destroy the body; its joints are detached from it, its geoms from it."""
    body = body_of(b, "dBodyDestroy")
    world = body.world
    for g in list(body.geoms):
        g.set_body(None)
    # as ODE, the body's joints drop out of every body's joint list, so they are
    # never stepped again until re-attached; here they are fully detached
    jstore = world.joints
    settle_body_joints(world, body.index)
    for joint in list(world.bodies.joint_lists[body.index]):
        for other in jstore.body[joint.index]:
            if other >= 0 and other != body.index:
                lst = world.bodies.joint_lists[other]
                if joint in lst:
                    lst.remove(joint)
        jstore.body[joint.index] = -1
    world.bodies.destroy(body.index)


def destroy_all_bodies(world: World) -> None:
    """Free every body row of ``world`` (dWorldDestroy, after the joints)."""
    for b in list(world.bodies.handles):
        if b is not None:
            world.bodies.destroy(b.index)


register_teardown(TEARDOWN_BODIES, destroy_all_bodies)


def dBodyGetWorld(b: Body) -> World:
    return body_of(b, "dBodyGetWorld").world


def dBodySetData(b: Body, data) -> None:
    body_of(b, "dBodySetData").data = data


def dBodyGetData(b: Body):
    return body_of(b, "dBodyGetData").data


# ----------------------------------------------------------------------------- position
def dBodySetPosition(b: Body, x: float, y: float, z: float) -> None:
    body = body_of(b, "dBodySetPosition")
    body.world.bodies.pos[body.index] = checks.xyz(x, y, z, "dBodySetPosition")
    _moved(body)


def dBodySetRotation(b: Body, R) -> None:
    """Set the orientation from a rotation matrix; as ODE, the matrix is turned
    into a unit quaternion and the stored matrix is rebuilt from it."""
    body = body_of(b, "dBodySetRotation")
    q = R_to_q(checks.rotation(R, "dBodySetRotation"))
    normalize4_inplace(q)
    store = body.world.bodies
    store.q[body.index] = q
    q_to_R(store.q[body.index], store.R[body.index])
    _moved(body)


def dBodySetQuaternion(b: Body, q) -> None:
    """Set the orientation from a quaternion (w, x, y, z); it is normalized."""
    body = body_of(b, "dBodySetQuaternion")
    qq = checks.vector(q, 4, "dBodySetQuaternion", "q")
    if not np.any(qq):
        raise ODEError("dBodySetQuaternion", "q", "must not be the zero quaternion")
    normalize4_inplace(qq)
    store = body.world.bodies
    store.q[body.index] = qq
    q_to_R(store.q[body.index], store.R[body.index])
    _moved(body)


def dBodySetLinearVel(b: Body, x: float, y: float, z: float) -> None:
    body = body_of(b, "dBodySetLinearVel")
    body.world.bodies.lvel[body.index] = checks.xyz(x, y, z, "dBodySetLinearVel")


def dBodySetAngularVel(b: Body, x: float, y: float, z: float) -> None:
    body = body_of(b, "dBodySetAngularVel")
    body.world.bodies.avel[body.index] = checks.xyz(x, y, z, "dBodySetAngularVel")


def dBodyGetPosition(b: Body) -> np.ndarray:
    """Position of the body origin (= centre of mass), (3,) m."""
    body = body_of(b, "dBodyGetPosition")
    return body.world.bodies.pos[body.index].copy()


def dBodyGetRotation(b: Body) -> np.ndarray:
    """Rotation matrix as dMatrix3: (12,) row-major 3x4."""
    body = body_of(b, "dBodyGetRotation")
    return checks.matrix12(body.world.bodies.R[body.index])


def dBodyGetQuaternion(b: Body) -> np.ndarray:
    """Orientation quaternion (4,) (w, x, y, z)."""
    body = body_of(b, "dBodyGetQuaternion")
    return body.world.bodies.q[body.index].copy()


def dBodyGetLinearVel(b: Body) -> np.ndarray:
    body = body_of(b, "dBodyGetLinearVel")
    return body.world.bodies.lvel[body.index].copy()


def dBodyGetAngularVel(b: Body) -> np.ndarray:
    body = body_of(b, "dBodyGetAngularVel")
    return body.world.bodies.avel[body.index].copy()


def dBodyCopyPosition(b: Body) -> np.ndarray:
    return dBodyGetPosition(b)


def dBodyCopyRotation(b: Body) -> np.ndarray:
    return dBodyGetRotation(b)


def dBodyCopyQuaternion(b: Body) -> np.ndarray:
    return dBodyGetQuaternion(b)


# ----------------------------------------------------------------------------- mass
def dBodySetMass(b: Body, mass) -> None:
    """Set the mass parameters; the centre of mass must be at the body origin
    (translate the dMass with dMassTranslate first)."""
    body = body_of(b, "dBodySetMass")
    if not isinstance(mass, dMass):
        raise ODEError("dBodySetMass", "mass", f"expected a dMass, got {mass!r}")
    if not dMassCheck(mass):
        raise ODEError("dBodySetMass", "mass", "invalid mass parameters (mass must be "
                       "positive and the inertia positive definite)")
    c = np.asarray(mass.c, dtype=np.float64)
    if np.any(np.abs(c[:3]) > np.finfo(float).eps):
        raise ODEError("dBodySetMass", "mass", "the centre of mass must be at the body origin "
                       f"(c = {c[:3].tolist()}); use dMassTranslate")
    store = body.world.bodies
    i = body.index
    I3 = np.asarray(mass.I, dtype=np.float64).reshape(3, 4)[:, :3]
    store.mass[i] = mass.mass
    store.I[i] = I3
    try:
        store.invI[i] = inv3(I3)
    except ValueError:   # singular (dMassCheck already rules it out)
        store.invI[i] = np.eye(3)
    # as ODE, setting the mass makes a kinematic body dynamic again
    store.flags[i] &= ~BF_KINEMATIC
    store.invmass[i] = 1.0 / mass.mass


def dBodyGetMass(b: Body):
    """The body's mass parameters as a new dMass (centre at the origin)."""
    body = body_of(b, "dBodyGetMass")
    store = body.world.bodies
    m = dMass()
    m.mass = float(store.mass[body.index])
    m.I = store.I[body.index].copy()
    return m


# ----------------------------------------------------------------------------- forces
def _acc(b: Body, function: str, which: str, vec: np.ndarray) -> None:
    getattr(b.world.bodies, which)[b.index] += vec


def dBodyAddForce(b: Body, fx: float, fy: float, fz: float) -> None:
    """Add a force (N, world frame) at the centre of mass."""
    body = body_of(b, "dBodyAddForce")
    _acc(body, "dBodyAddForce", "facc", checks.xyz(fx, fy, fz, "dBodyAddForce", "fx, fy, fz"))


def dBodyAddTorque(b: Body, fx: float, fy: float, fz: float) -> None:
    """Add a torque (N·m, world frame)."""
    body = body_of(b, "dBodyAddTorque")
    _acc(body, "dBodyAddTorque", "tacc", checks.xyz(fx, fy, fz, "dBodyAddTorque", "fx, fy, fz"))


def dBodyAddRelForce(b: Body, fx: float, fy: float, fz: float) -> None:
    """Add a force given in the body frame, at the centre of mass."""
    body = body_of(b, "dBodyAddRelForce")
    f = checks.xyz(fx, fy, fz, "dBodyAddRelForce", "fx, fy, fz")
    _acc(body, "dBodyAddRelForce", "facc", matmul(body.world.bodies.R[body.index], f))


def dBodyAddRelTorque(b: Body, fx: float, fy: float, fz: float) -> None:
    """Add a torque given in the body frame."""
    body = body_of(b, "dBodyAddRelTorque")
    t = checks.xyz(fx, fy, fz, "dBodyAddRelTorque", "fx, fy, fz")
    _acc(body, "dBodyAddRelTorque", "tacc", matmul(body.world.bodies.R[body.index], t))


def _force_at(body: Body, f: np.ndarray, p: np.ndarray) -> None:
    """Add world force f at world point p: the force, and the torque (p - x) × f."""
    store = body.world.bodies
    store.facc[body.index] += f
    store.tacc[body.index] += np.cross(p - store.pos[body.index], f)


def dBodyAddForceAtPos(b: Body, fx, fy, fz, px, py, pz) -> None:
    """World force at a world point."""
    fn = "dBodyAddForceAtPos"
    body = body_of(b, fn)
    force = checks.xyz(fx, fy, fz, fn, "fx, fy, fz")
    _force_at(body, force, checks.xyz(px, py, pz, fn, "px, py, pz"))


def dBodyAddForceAtRelPos(b: Body, fx, fy, fz, px, py, pz) -> None:
    """World force at a body-frame point."""
    fn = "dBodyAddForceAtRelPos"
    body = body_of(b, fn)
    store = body.world.bodies
    rel = checks.xyz(px, py, pz, fn, "px, py, pz")
    p = matmul(store.R[body.index], rel) + store.pos[body.index]
    _force_at(body, checks.xyz(fx, fy, fz, fn, "fx, fy, fz"), p)


def dBodyAddRelForceAtPos(b: Body, fx, fy, fz, px, py, pz) -> None:
    """Body-frame force at a world point."""
    fn = "dBodyAddRelForceAtPos"
    body = body_of(b, fn)
    f = matmul(body.world.bodies.R[body.index], checks.xyz(fx, fy, fz, fn, "fx, fy, fz"))
    _force_at(body, f, checks.xyz(px, py, pz, fn, "px, py, pz"))


def dBodyAddRelForceAtRelPos(b: Body, fx, fy, fz, px, py, pz) -> None:
    """Body-frame force at a body-frame point."""
    fn = "dBodyAddRelForceAtRelPos"
    body = body_of(b, fn)
    store = body.world.bodies
    R = store.R[body.index]
    f = matmul(R, checks.xyz(fx, fy, fz, fn, "fx, fy, fz"))
    p = matmul(R, checks.xyz(px, py, pz, fn, "px, py, pz")) + store.pos[body.index]
    _force_at(body, f, p)


def dBodyGetForce(b: Body) -> np.ndarray:
    """The force accumulator (3,) N (zeroed after every step)."""
    body = body_of(b, "dBodyGetForce")
    return body.world.bodies.facc[body.index].copy()


def dBodyGetTorque(b: Body) -> np.ndarray:
    body = body_of(b, "dBodyGetTorque")
    return body.world.bodies.tacc[body.index].copy()


def dBodySetForce(b: Body, x: float, y: float, z: float) -> None:
    body = body_of(b, "dBodySetForce")
    body.world.bodies.facc[body.index] = checks.xyz(x, y, z, "dBodySetForce")


def dBodySetTorque(b: Body, x: float, y: float, z: float) -> None:
    body = body_of(b, "dBodySetTorque")
    body.world.bodies.tacc[body.index] = checks.xyz(x, y, z, "dBodySetTorque")


# ----------------------------------------------------------------------------- conversions
def dBodyGetRelPointPos(b: Body, px: float, py: float, pz: float) -> np.ndarray:
    """World position of a body-frame point, (3,)."""
    fn = "dBodyGetRelPointPos"
    body = body_of(b, fn)
    store = body.world.bodies
    rel = checks.xyz(px, py, pz, fn, "px, py, pz")
    return matmul(store.R[body.index], rel) + store.pos[body.index]


def dBodyGetRelPointVel(b: Body, px: float, py: float, pz: float) -> np.ndarray:
    """World velocity of a body-frame point, (3,) m/s."""
    fn = "dBodyGetRelPointVel"
    body = body_of(b, fn)
    store = body.world.bodies
    i = body.index
    r = matmul(store.R[i], checks.xyz(px, py, pz, fn, "px, py, pz"))
    return store.lvel[i] + np.cross(store.avel[i], r)


def dBodyGetPointVel(b: Body, px: float, py: float, pz: float) -> np.ndarray:
    """World velocity of a world point moving with the body, (3,) m/s."""
    fn = "dBodyGetPointVel"
    body = body_of(b, fn)
    store = body.world.bodies
    i = body.index
    r = checks.xyz(px, py, pz, fn, "px, py, pz") - store.pos[i]
    return store.lvel[i] + np.cross(store.avel[i], r)


def dBodyGetPosRelPoint(b: Body, px: float, py: float, pz: float) -> np.ndarray:
    """Body-frame coordinates of a world point, (3,)."""
    fn = "dBodyGetPosRelPoint"
    body = body_of(b, fn)
    store = body.world.bodies
    i = body.index
    return matmul(store.R[i].T, checks.xyz(px, py, pz, fn, "px, py, pz") - store.pos[i])


def dBodyVectorToWorld(b: Body, px: float, py: float, pz: float) -> np.ndarray:
    """A body-frame vector in world coordinates, (3,)."""
    fn = "dBodyVectorToWorld"
    body = body_of(b, fn)
    return matmul(body.world.bodies.R[body.index], checks.xyz(px, py, pz, fn, "px, py, pz"))


def dBodyVectorFromWorld(b: Body, px: float, py: float, pz: float) -> np.ndarray:
    """A world vector in body coordinates, (3,)."""
    fn = "dBodyVectorFromWorld"
    body = body_of(b, fn)
    return matmul(body.world.bodies.R[body.index].T, checks.xyz(px, py, pz, fn, "px, py, pz"))


# ----------------------------------------------------------------------------- joints, geoms
def dBodyGetNumJoints(b: Body) -> int:
    body = body_of(b, "dBodyGetNumJoints")
    settle_body_joints(body.world, body.index)
    return len(body.world.bodies.joint_lists[body.index])


def dBodyGetJoint(b: Body, index: int):
    """Joint number ``index`` of the body (newest attachment first)."""
    body = body_of(b, "dBodyGetJoint")
    k = checks.integer(index, "dBodyGetJoint", "index")
    settle_body_joints(body.world, body.index)
    joints = body.world.bodies.joint_lists[body.index]
    if not 0 <= k < len(joints):
        return None
    return joints[len(joints) - 1 - k]


def dBodyGetFirstGeom(b: Body):
    body = body_of(b, "dBodyGetFirstGeom")
    return body.geoms[0] if body.geoms else None


def dBodyGetNextGeom(g):
    """The geom after ``g`` on the same body, or None."""
    body = getattr(g, "body", None)
    if body is None:
        return None
    i = body.geoms.index(g)
    return body.geoms[i + 1] if i + 1 < len(body.geoms) else None
