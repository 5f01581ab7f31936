"""Rigid bodies: the Body handle and every dBody* function of the manual.

A Body is a thin handle (world, row) over :class:`~engine.ode.bodystore.BodyStore`.
Units: m, kg, s, N, N·m, rad. Vectors come back as new (3,) float64 arrays.
"""

from __future__ import annotations

import math

import numpy as np

from engine.ode import checks
from engine.ode.bodystore import (BF_ANG_DAMPING, BF_AUTO_DISABLE, BF_DISABLED,
                                  BF_FINITE_ROT, BF_FINITE_ROT_AXIS, BF_GYROSCOPIC,
                                  BF_KINEMATIC, BF_LIN_DAMPING, BF_MAX_ANG_SPEED,
                                  BF_NO_GRAVITY)
from engine.ode.errors import ODEError
from engine.ode.kernels.vec import R_to_q, normalize4_inplace, q_to_R
from engine.ode.world import World, world_of


class Body:
    """Handle of one rigid body (ODE's dBodyID)."""

    __slots__ = ("world", "index", "data", "geoms", "moved_callback", "__weakref__")

    def __init__(self, world: World) -> None:
        self.world = world
        self.index = world.bodies.create()
        world.bodies.handles[self.index] = self
        self.data = None
        self.geoms: list = []
        self.moved_callback = None

    @property
    def alive(self) -> bool:
        return self.world.alive and self.world.bodies.handles[self.index] is self

    def __repr__(self) -> str:
        return f"<Body {self.index}{'' if self.alive else ' destroyed'}>"


def body_of(b, function: str, argument: str = "b") -> Body:
    """``b`` checked to be a live Body (None is rejected: ODE's NULL)."""
    if b is None:
        raise ODEError(function, argument, "must not be NULL (None)")
    if not isinstance(b, Body):
        raise ODEError(function, argument, f"expected a dBodyID, got {b!r}")
    if not b.alive:
        raise ODEError(function, argument, "the body has been destroyed")
    return b


def _flag(b: Body, bit: int, on: bool) -> None:
    flags = b.world.bodies.flags
    if on:
        flags[b.index] |= bit
    else:
        flags[b.index] &= ~bit


def _has(b: Body, bit: int) -> bool:
    return bool(b.world.bodies.flags[b.index] & bit)


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
    _flag(b, BF_MAX_ANG_SPEED, math.isfinite(world.max_ang_speed))
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
    for joint in list(world.bodies.joint_lists[body.index]):
        for other in jstore.body[joint.index]:
            if other >= 0 and other != body.index:
                lst = world.bodies.joint_lists[other]
                if joint in lst:
                    lst.remove(joint)
        jstore.body[joint.index] = -1
    world.bodies.destroy(body.index)


def destroy_all_bodies(world: World) -> None:
    for b in list(world.bodies.handles):
        if b is not None:
            world.bodies.destroy(b.index)


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
    from engine.ode.mass import dMass, dMassCheck

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
        store.invI[i] = np.linalg.inv(I3)
    except np.linalg.LinAlgError:
        store.invI[i] = np.eye(3)
    if not store.flags[i] & BF_KINEMATIC:
        store.invmass[i] = 1.0 / mass.mass


def dBodyGetMass(b: Body):
    """The body's mass parameters as a new dMass (centre at the origin)."""
    from engine.ode.mass import dMass

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
    _acc(body, "dBodyAddRelForce", "facc", body.world.bodies.R[body.index] @ f)


def dBodyAddRelTorque(b: Body, fx: float, fy: float, fz: float) -> None:
    """Add a torque given in the body frame."""
    body = body_of(b, "dBodyAddRelTorque")
    t = checks.xyz(fx, fy, fz, "dBodyAddRelTorque", "fx, fy, fz")
    _acc(body, "dBodyAddRelTorque", "tacc", body.world.bodies.R[body.index] @ t)


def _force_at(body: Body, f: np.ndarray, p: np.ndarray) -> None:
    """Add world force f at world point p: the force, and the torque (p - x) × f."""
    store = body.world.bodies
    store.facc[body.index] += f
    store.tacc[body.index] += np.cross(p - store.pos[body.index], f)


def dBodyAddForceAtPos(b: Body, fx, fy, fz, px, py, pz) -> None:
    """World force at a world point."""
    fn = "dBodyAddForceAtPos"
    body = body_of(b, fn)
    _force_at(body, checks.xyz(fx, fy, fz, fn, "fx, fy, fz"), checks.xyz(px, py, pz, fn, "px, py, pz"))


def dBodyAddForceAtRelPos(b: Body, fx, fy, fz, px, py, pz) -> None:
    """World force at a body-frame point."""
    fn = "dBodyAddForceAtRelPos"
    body = body_of(b, fn)
    store = body.world.bodies
    p = store.R[body.index] @ checks.xyz(px, py, pz, fn, "px, py, pz") + store.pos[body.index]
    _force_at(body, checks.xyz(fx, fy, fz, fn, "fx, fy, fz"), p)


def dBodyAddRelForceAtPos(b: Body, fx, fy, fz, px, py, pz) -> None:
    """Body-frame force at a world point."""
    fn = "dBodyAddRelForceAtPos"
    body = body_of(b, fn)
    f = body.world.bodies.R[body.index] @ checks.xyz(fx, fy, fz, fn, "fx, fy, fz")
    _force_at(body, f, checks.xyz(px, py, pz, fn, "px, py, pz"))


def dBodyAddRelForceAtRelPos(b: Body, fx, fy, fz, px, py, pz) -> None:
    """Body-frame force at a body-frame point."""
    fn = "dBodyAddRelForceAtRelPos"
    body = body_of(b, fn)
    store = body.world.bodies
    R = store.R[body.index]
    f = R @ checks.xyz(fx, fy, fz, fn, "fx, fy, fz")
    p = R @ checks.xyz(px, py, pz, fn, "px, py, pz") + store.pos[body.index]
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
    return store.R[body.index] @ checks.xyz(px, py, pz, fn, "px, py, pz") + store.pos[body.index]


def dBodyGetRelPointVel(b: Body, px: float, py: float, pz: float) -> np.ndarray:
    """World velocity of a body-frame point, (3,) m/s."""
    fn = "dBodyGetRelPointVel"
    body = body_of(b, fn)
    store = body.world.bodies
    i = body.index
    r = store.R[i] @ checks.xyz(px, py, pz, fn, "px, py, pz")
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
    return store.R[i].T @ (checks.xyz(px, py, pz, fn, "px, py, pz") - store.pos[i])


def dBodyVectorToWorld(b: Body, px: float, py: float, pz: float) -> np.ndarray:
    """A body-frame vector in world coordinates, (3,)."""
    fn = "dBodyVectorToWorld"
    body = body_of(b, fn)
    return body.world.bodies.R[body.index] @ checks.xyz(px, py, pz, fn, "px, py, pz")


def dBodyVectorFromWorld(b: Body, px: float, py: float, pz: float) -> np.ndarray:
    """A world vector in body coordinates, (3,)."""
    fn = "dBodyVectorFromWorld"
    body = body_of(b, fn)
    return body.world.bodies.R[body.index].T @ checks.xyz(px, py, pz, fn, "px, py, pz")


# ----------------------------------------------------------------------------- enable
def dBodyEnable(b: Body) -> None:
    """Enable the body and restart its auto-disable countdown."""
    body = body_of(b, "dBodyEnable")
    store = body.world.bodies
    _flag(body, BF_DISABLED, False)
    store.ad_idle_steps[body.index] = store.ad_steps[body.index]
    store.ad_idle_time[body.index] = store.ad_time[body.index]
    store.ad_sample_index[body.index] = 0


def dBodyDisable(b: Body) -> None:
    _flag(body_of(b, "dBodyDisable"), BF_DISABLED, True)


def dBodyIsEnabled(b: Body) -> int:
    return int(not _has(body_of(b, "dBodyIsEnabled"), BF_DISABLED))


def dBodySetAutoDisableFlag(b: Body, do_auto_disable: int) -> None:
    body = body_of(b, "dBodySetAutoDisableFlag")
    _flag(body, BF_AUTO_DISABLE, bool(do_auto_disable))
    if not do_auto_disable:
        dBodyEnable(body)


def dBodyGetAutoDisableFlag(b: Body) -> int:
    return int(_has(body_of(b, "dBodyGetAutoDisableFlag"), BF_AUTO_DISABLE))


def _ad_set(b, function: str, argument: str, field: str, value) -> None:
    body = body_of(b, function)
    getattr(body.world.bodies, field)[body.index] = value


def dBodySetAutoDisableLinearThreshold(b: Body, threshold: float) -> None:
    t = checks.real(threshold, "dBodySetAutoDisableLinearThreshold", "threshold")
    _ad_set(b, "dBodySetAutoDisableLinearThreshold", "threshold", "ad_lin_thr2", t * t)


def dBodyGetAutoDisableLinearThreshold(b: Body) -> float:
    body = body_of(b, "dBodyGetAutoDisableLinearThreshold")
    return math.sqrt(body.world.bodies.ad_lin_thr2[body.index])


def dBodySetAutoDisableAngularThreshold(b: Body, threshold: float) -> None:
    t = checks.real(threshold, "dBodySetAutoDisableAngularThreshold", "threshold")
    _ad_set(b, "dBodySetAutoDisableAngularThreshold", "threshold", "ad_ang_thr2", t * t)


def dBodyGetAutoDisableAngularThreshold(b: Body) -> float:
    body = body_of(b, "dBodyGetAutoDisableAngularThreshold")
    return math.sqrt(body.world.bodies.ad_ang_thr2[body.index])


def dBodySetAutoDisableSteps(b: Body, steps: int) -> None:
    n = checks.integer(steps, "dBodySetAutoDisableSteps", "steps")
    _ad_set(b, "dBodySetAutoDisableSteps", "steps", "ad_steps", n)


def dBodyGetAutoDisableSteps(b: Body) -> int:
    body = body_of(b, "dBodyGetAutoDisableSteps")
    return int(body.world.bodies.ad_steps[body.index])


def dBodySetAutoDisableTime(b: Body, time: float) -> None:
    t = checks.real(time, "dBodySetAutoDisableTime", "time")
    _ad_set(b, "dBodySetAutoDisableTime", "time", "ad_time", t)


def dBodyGetAutoDisableTime(b: Body) -> float:
    body = body_of(b, "dBodyGetAutoDisableTime")
    return float(body.world.bodies.ad_time[body.index])


def dBodySetAutoDisableAverageSamplesCount(b: Body, average_samples_count: int) -> None:
    fn = "dBodySetAutoDisableAverageSamplesCount"
    n = checks.integer(average_samples_count, fn, "average_samples_count")
    if n < 0:
        raise ODEError(fn, "average_samples_count", f"must be >= 0, got {n}")
    body = body_of(b, fn)
    body.world.bodies.ensure_samples(max(n, 1))
    body.world.bodies.ad_samples[body.index] = n
    body.world.bodies.ad_sample_index[body.index] = 0


def dBodyGetAutoDisableAverageSamplesCount(b: Body) -> int:
    body = body_of(b, "dBodyGetAutoDisableAverageSamplesCount")
    return int(body.world.bodies.ad_samples[body.index])


def dBodySetAutoDisableDefaults(b: Body) -> None:
    """Copy the world's auto-disable settings into the body."""
    body = body_of(b, "dBodySetAutoDisableDefaults")
    ad = body.world.autodisable
    store = body.world.bodies
    i = body.index
    store.ad_lin_thr2[i] = ad.lin_thr * ad.lin_thr
    store.ad_ang_thr2[i] = ad.ang_thr * ad.ang_thr
    store.ad_steps[i] = ad.steps
    store.ad_time[i] = ad.time
    store.ensure_samples(max(ad.samples, 1))
    store.ad_samples[i] = ad.samples
    _flag(body, BF_AUTO_DISABLE, ad.flag)
    store.ad_idle_steps[i] = ad.steps
    store.ad_idle_time[i] = ad.time


# ----------------------------------------------------------------------------- damping
def dBodySetLinearDamping(b: Body, scale: float) -> None:
    body = body_of(b, "dBodySetLinearDamping")
    s = checks.real(scale, "dBodySetLinearDamping", "scale")
    body.world.bodies.lin_damp[body.index] = s
    _flag(body, BF_LIN_DAMPING, s != 0)


def dBodyGetLinearDamping(b: Body) -> float:
    body = body_of(b, "dBodyGetLinearDamping")
    return float(body.world.bodies.lin_damp[body.index])


def dBodySetAngularDamping(b: Body, scale: float) -> None:
    body = body_of(b, "dBodySetAngularDamping")
    s = checks.real(scale, "dBodySetAngularDamping", "scale")
    body.world.bodies.ang_damp[body.index] = s
    _flag(body, BF_ANG_DAMPING, s != 0)


def dBodyGetAngularDamping(b: Body) -> float:
    body = body_of(b, "dBodyGetAngularDamping")
    return float(body.world.bodies.ang_damp[body.index])


def dBodySetDamping(b: Body, linear_scale: float, angular_scale: float) -> None:
    dBodySetLinearDamping(b, linear_scale)
    dBodySetAngularDamping(b, angular_scale)


def dBodySetLinearDampingThreshold(b: Body, threshold: float) -> None:
    t = checks.real(threshold, "dBodySetLinearDampingThreshold", "threshold")
    body = body_of(b, "dBodySetLinearDampingThreshold")
    body.world.bodies.lin_damp_thr2[body.index] = t * t


def dBodyGetLinearDampingThreshold(b: Body) -> float:
    body = body_of(b, "dBodyGetLinearDampingThreshold")
    return math.sqrt(body.world.bodies.lin_damp_thr2[body.index])


def dBodySetAngularDampingThreshold(b: Body, threshold: float) -> None:
    t = checks.real(threshold, "dBodySetAngularDampingThreshold", "threshold")
    body = body_of(b, "dBodySetAngularDampingThreshold")
    body.world.bodies.ang_damp_thr2[body.index] = t * t


def dBodyGetAngularDampingThreshold(b: Body) -> float:
    body = body_of(b, "dBodyGetAngularDampingThreshold")
    return math.sqrt(body.world.bodies.ang_damp_thr2[body.index])


def dBodySetDampingDefaults(b: Body) -> None:
    """Copy the world's damping settings into the body."""
    body = body_of(b, "dBodySetDampingDefaults")
    w = body.world
    dBodySetLinearDamping(body, w.lin_damp)
    dBodySetAngularDamping(body, w.ang_damp)
    dBodySetLinearDampingThreshold(body, w.lin_damp_thr)
    dBodySetAngularDampingThreshold(body, w.ang_damp_thr)


def dBodySetMaxAngularSpeed(b: Body, max_speed: float) -> None:
    """Cap the angular speed (rad/s); inf removes the cap."""
    body = body_of(b, "dBodySetMaxAngularSpeed")
    s = checks.real_or_inf(max_speed, "dBodySetMaxAngularSpeed", "max_speed")
    body.world.bodies.max_ang_speed[body.index] = s
    _flag(body, BF_MAX_ANG_SPEED, s < math.inf)


def dBodyGetMaxAngularSpeed(b: Body) -> float:
    body = body_of(b, "dBodyGetMaxAngularSpeed")
    return float(body.world.bodies.max_ang_speed[body.index])


# ----------------------------------------------------------------------------- modes
def dBodySetKinematic(b: Body) -> None:
    """Make the body kinematic: infinite mass, moved only by its velocity."""
    body = body_of(b, "dBodySetKinematic")
    store = body.world.bodies
    _flag(body, BF_KINEMATIC, True)
    store.invmass[body.index] = 0.0


def dBodySetDynamic(b: Body) -> None:
    """Make the body dynamic again, with its stored mass."""
    body = body_of(b, "dBodySetDynamic")
    store = body.world.bodies
    _flag(body, BF_KINEMATIC, False)
    store.invmass[body.index] = 1.0 / store.mass[body.index]


def dBodyIsKinematic(b: Body) -> int:
    return int(_has(body_of(b, "dBodyIsKinematic"), BF_KINEMATIC))


def dBodySetGravityMode(b: Body, mode: int) -> None:
    """1 (default): gravity acts on the body; 0: it does not."""
    _flag(body_of(b, "dBodySetGravityMode"), BF_NO_GRAVITY, not mode)


def dBodyGetGravityMode(b: Body) -> int:
    return int(not _has(body_of(b, "dBodyGetGravityMode"), BF_NO_GRAVITY))


def dBodySetGyroscopicMode(b: Body, enabled: int) -> None:
    """1 (default): include the gyroscopic term (implicitly, as ODE does)."""
    _flag(body_of(b, "dBodySetGyroscopicMode"), BF_GYROSCOPIC, bool(enabled))


def dBodyGetGyroscopicMode(b: Body) -> int:
    return int(_has(body_of(b, "dBodyGetGyroscopicMode"), BF_GYROSCOPIC))


def dBodySetFiniteRotationMode(b: Body, mode: int) -> None:
    """0: infinitesimal orientation update (default); 1: finite rotation."""
    _flag(body_of(b, "dBodySetFiniteRotationMode"), BF_FINITE_ROT, bool(mode))


def dBodyGetFiniteRotationMode(b: Body) -> int:
    return int(_has(body_of(b, "dBodyGetFiniteRotationMode"), BF_FINITE_ROT))


def dBodySetFiniteRotationAxis(b: Body, x: float, y: float, z: float) -> None:
    """Axis (world frame) for finite rotation; (0, 0, 0) rotates finitely about
    the whole angular velocity."""
    body = body_of(b, "dBodySetFiniteRotationAxis")
    axis = checks.xyz(x, y, z, "dBodySetFiniteRotationAxis")
    n = float(np.linalg.norm(axis))
    if n > 0:
        axis = axis / n
    body.world.bodies.frot_axis[body.index] = axis
    _flag(body, BF_FINITE_ROT_AXIS, n > 0)


def dBodyGetFiniteRotationAxis(b: Body) -> np.ndarray:
    body = body_of(b, "dBodyGetFiniteRotationAxis")
    return body.world.bodies.frot_axis[body.index].copy()


def dBodySetMovedCallback(b: Body, callback) -> None:
    """Call ``callback(body)`` after every step that moved the body (None: stop)."""
    body = body_of(b, "dBodySetMovedCallback")
    if callback is not None and not callable(callback):
        raise ODEError("dBodySetMovedCallback", "callback", "must be callable or None")
    body.moved_callback = callback
    if callback is None:
        body.world.moved_callbacks.pop(body.index, None)
    else:
        body.world.moved_callbacks[body.index] = body


# ----------------------------------------------------------------------------- joints, geoms
def dBodyGetNumJoints(b: Body) -> int:
    body = body_of(b, "dBodyGetNumJoints")
    return len(body.world.bodies.joint_lists[body.index])


def dBodyGetJoint(b: Body, index: int):
    """Joint number ``index`` of the body (newest attachment first)."""
    body = body_of(b, "dBodyGetJoint")
    k = checks.integer(index, "dBodyGetJoint", "index")
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
