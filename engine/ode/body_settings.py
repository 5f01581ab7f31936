"""Per-body settings: enabling and auto-disable, damping, angular speed cap,
kinematic/dynamic, gravity, gyroscopic and finite-rotation modes, moved callback.

Thresholds are stored squared (as ODE stores them) and returned as given.
"""

from __future__ import annotations

import math

import numpy as np

from engine.ode import checks
from engine.ode.body_handle import Body, body_of, has_flag, set_flag
from engine.ode.bodystore import (
    BF_ANG_DAMPING,
    BF_AUTO_DISABLE,
    BF_DISABLED,
    BF_FINITE_ROT,
    BF_FINITE_ROT_AXIS,
    BF_GYROSCOPIC,
    BF_KINEMATIC,
    BF_LIN_DAMPING,
    BF_MAX_ANG_SPEED,
    BF_NO_GRAVITY,
)
from engine.ode.errors import ODEError
from engine.ode.kernels.detlinalg import inv3, norm


# ----------------------------------------------------------------------------- enable
def dBodyEnable(b: Body) -> None:
    """Enable the body and restart its auto-disable countdown."""
    body = body_of(b, "dBodyEnable")
    store = body.world.bodies
    set_flag(body, BF_DISABLED, False)
    store.ad_idle_steps[body.index] = store.ad_steps[body.index]
    store.ad_idle_time[body.index] = store.ad_time[body.index]
    store.ad_sample_index[body.index] = 0


def dBodyDisable(b: Body) -> None:
    set_flag(body_of(b, "dBodyDisable"), BF_DISABLED, True)


def dBodyIsEnabled(b: Body) -> int:
    return int(not has_flag(body_of(b, "dBodyIsEnabled"), BF_DISABLED))


def dBodySetAutoDisableFlag(b: Body, do_auto_disable: int) -> None:
    body = body_of(b, "dBodySetAutoDisableFlag")
    set_flag(body, BF_AUTO_DISABLE, bool(do_auto_disable))
    if not do_auto_disable:
        dBodyEnable(body)


def dBodyGetAutoDisableFlag(b: Body) -> int:
    return int(has_flag(body_of(b, "dBodyGetAutoDisableFlag"), BF_AUTO_DISABLE))


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
    set_flag(body, BF_AUTO_DISABLE, ad.flag)
    store.ad_idle_steps[i] = ad.steps
    store.ad_idle_time[i] = ad.time


# ----------------------------------------------------------------------------- damping
def dBodySetLinearDamping(b: Body, scale: float) -> None:
    body = body_of(b, "dBodySetLinearDamping")
    s = checks.real(scale, "dBodySetLinearDamping", "scale")
    body.world.bodies.lin_damp[body.index] = s
    set_flag(body, BF_LIN_DAMPING, s != 0)


def dBodyGetLinearDamping(b: Body) -> float:
    body = body_of(b, "dBodyGetLinearDamping")
    return float(body.world.bodies.lin_damp[body.index])


def dBodySetAngularDamping(b: Body, scale: float) -> None:
    body = body_of(b, "dBodySetAngularDamping")
    s = checks.real(scale, "dBodySetAngularDamping", "scale")
    body.world.bodies.ang_damp[body.index] = s
    set_flag(body, BF_ANG_DAMPING, s != 0)


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
    set_flag(body, BF_MAX_ANG_SPEED, s < math.inf)


def dBodyGetMaxAngularSpeed(b: Body) -> float:
    body = body_of(b, "dBodyGetMaxAngularSpeed")
    return float(body.world.bodies.max_ang_speed[body.index])


# ----------------------------------------------------------------------------- modes
def dBodySetKinematic(b: Body) -> None:
    """Make the body kinematic: infinite mass and inertia, moved only by its
    velocity (joints and contacts cannot push it)."""
    body = body_of(b, "dBodySetKinematic")
    store = body.world.bodies
    set_flag(body, BF_KINEMATIC, True)
    store.invmass[body.index] = 0.0
    store.invI[body.index] = 0.0


def dBodySetDynamic(b: Body) -> None:
    """Make the body dynamic again with its stored mass (as dBodySetMass does)."""
    body = body_of(b, "dBodySetDynamic")
    store = body.world.bodies
    i = body.index
    set_flag(body, BF_KINEMATIC, False)
    store.invmass[i] = 1.0 / store.mass[i]
    store.invI[i] = inv3(store.I[i])


def dBodyIsKinematic(b: Body) -> int:
    return int(has_flag(body_of(b, "dBodyIsKinematic"), BF_KINEMATIC))


def dBodySetGravityMode(b: Body, mode: int) -> None:
    """1 (default): gravity acts on the body; 0: it does not."""
    set_flag(body_of(b, "dBodySetGravityMode"), BF_NO_GRAVITY, not mode)


def dBodyGetGravityMode(b: Body) -> int:
    return int(not has_flag(body_of(b, "dBodyGetGravityMode"), BF_NO_GRAVITY))


def dBodySetGyroscopicMode(b: Body, enabled: int) -> None:
    """1 (default): include the gyroscopic term (implicitly, as ODE does)."""
    set_flag(body_of(b, "dBodySetGyroscopicMode"), BF_GYROSCOPIC, bool(enabled))


def dBodyGetGyroscopicMode(b: Body) -> int:
    return int(has_flag(body_of(b, "dBodyGetGyroscopicMode"), BF_GYROSCOPIC))


def dBodySetFiniteRotationMode(b: Body, mode: int) -> None:
    """0: infinitesimal orientation update (default); 1: finite rotation."""
    set_flag(body_of(b, "dBodySetFiniteRotationMode"), BF_FINITE_ROT, bool(mode))


def dBodyGetFiniteRotationMode(b: Body) -> int:
    return int(has_flag(body_of(b, "dBodyGetFiniteRotationMode"), BF_FINITE_ROT))


def dBodySetFiniteRotationAxis(b: Body, x: float, y: float, z: float) -> None:
    """Axis (world frame) for finite rotation; (0, 0, 0) rotates finitely about
    the whole angular velocity."""
    body = body_of(b, "dBodySetFiniteRotationAxis")
    axis = checks.xyz(x, y, z, "dBodySetFiniteRotationAxis")
    n = float(norm(axis))
    if n > 0:
        axis = axis / n
    body.world.bodies.frot_axis[body.index] = axis
    set_flag(body, BF_FINITE_ROT_AXIS, n > 0)


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
