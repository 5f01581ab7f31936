"""Joint limits and motors ("limot"): one block of a joint record per axis.

A block holds the parameters ``dParamLoStop`` ... ``dParamStopCFM`` and the
limit state. When the axis is powered (FMax > 0) or past a stop, it adds one
constraint row along the axis:

- powered, free: drive the relative velocity to Vel with force in [-FMax, FMax];
- at a stop: push back with erp·fps·(penetration), one-sided force, plus
  restitution (Bounce) of an incoming velocity;
- powered at a stop: the stop row wins; the motor force is applied directly
  to the bodies (scaled by the fudge factor when driving away from the stop).

Kernels call `add_limot` and `test_limit` with ``np.int64(offset)`` and
`ROTATIONAL` / `LINEAR`, never bare constants: numba compiles a kernel once
per literal argument, and one version per joint axis made these kernels ~45 s
of the install-time warm-up.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from engine.ode.constants import (
    dParamBounce,
    dParamCFM,
    dParamFMax,
    dParamFudgeFactor,
    dParamHiStop,
    dParamLoStop,
    dParamStopCFM,
    dParamStopERP,
    dParamVel,
)
from engine.ode.joints.record import JointRecord
from engine.ode.kernels.vec import cross3, dot3

#: ``rotational`` argument of `add_limot`: the angular (hinge-like) or linear
#: (slider-like) part of the Jacobian (numpy booleans: values, not literals)
ROTATIONAL = np.bool_(True)
LINEAR = np.bool_(False)

#: one limit/motor block, placed into joint records with ``JointRecord.block``
LIMOT_BLOCK = JointRecord("limot block")
LM_LO = LIMOT_BLOCK.floats("lo_stop")                 # dParamLoStop (rad or m)
LM_HI = LIMOT_BLOCK.floats("hi_stop")                 # dParamHiStop (rad or m)
LM_VEL = LIMOT_BLOCK.floats("motor_velocity")         # dParamVel (rad/s or m/s)
LM_FMAX = LIMOT_BLOCK.floats("motor_max_force")       # dParamFMax (N·m or N)
LM_FUDGE = LIMOT_BLOCK.floats("fudge_factor")         # dParamFudgeFactor
LM_NORMAL_CFM = LIMOT_BLOCK.floats("normal_cfm")      # dParamCFM
LM_BOUNCE = LIMOT_BLOCK.floats("bounce")              # dParamBounce
LM_STOP_ERP = LIMOT_BLOCK.floats("stop_erp")          # dParamStopERP
LM_STOP_CFM = LIMOT_BLOCK.floats("stop_cfm")          # dParamStopCFM
LM_LIMIT = LIMOT_BLOCK.floats("limit")                # 0 free, 1 at the low, 2 at the high stop
LM_LIMIT_ERR = LIMOT_BLOCK.floats("limit_error")      # how far past the stop (rad or m)
LM_SIZE = LIMOT_BLOCK.float_size

_PARAM_OFFSET = {dParamLoStop: LM_LO, dParamHiStop: LM_HI, dParamVel: LM_VEL,
                 dParamFMax: LM_FMAX, dParamFudgeFactor: LM_FUDGE, dParamBounce: LM_BOUNCE,
                 dParamCFM: LM_NORMAL_CFM, dParamStopERP: LM_STOP_ERP,
                 dParamStopCFM: LM_STOP_CFM}


def limot_init(d: np.ndarray, off: int, erp: float, cfm: float) -> None:
    """ODE's fresh limot: no stops, no motor, stop ERP/CFM from the world."""
    d[off:off + LM_SIZE] = 0.0
    d[off + LM_LO] = -math.inf
    d[off + LM_HI] = math.inf
    d[off + LM_FUDGE] = 1.0
    d[off + LM_NORMAL_CFM] = cfm
    d[off + LM_STOP_ERP] = erp
    d[off + LM_STOP_CFM] = cfm


def limot_set(d: np.ndarray, off: int, param: int, value: float) -> bool:
    """Set parameter ``param`` (group-less dParam* index); False if it is not
    a limot parameter. FMax < 0 and a fudge factor outside [0, 1] are ignored,
    as ODE ignores them."""
    slot = _PARAM_OFFSET.get(param)
    if slot is None:
        return False
    if slot == LM_FMAX and value < 0:
        return True
    if slot == LM_FUDGE and not (0 <= value <= 1):
        return True
    d[off + slot] = value
    return True


def limot_get(d: np.ndarray, off: int, param: int) -> float | None:
    """Value of parameter ``param``, or None if it is not a limot parameter."""
    slot = _PARAM_OFFSET.get(param)
    if slot is None:
        return None
    return float(d[off + slot])


@njit(cache=True, nogil=True)
def test_limit(d, off, position) -> bool:
    """Record whether ``position`` (rad or m) is at or past a stop."""
    if position <= d[off + LM_LO]:
        d[off + LM_LIMIT] = 1.0
        d[off + LM_LIMIT_ERR] = position - d[off + LM_LO]
        return True
    if position >= d[off + LM_HI]:
        d[off + LM_LIMIT] = 2.0
        d[off + LM_LIMIT_ERR] = position - d[off + LM_HI]
        return True
    d[off + LM_LIMIT] = 0.0
    return False


@njit(cache=True, nogil=True)
def add_limot(d, off, b0, b1, bodies, wp, rows, r, ax, rotational) -> int:
    """Fill row ``r`` for the axis ``ax`` (world unit vector) if needed.

    Returns the number of rows used (0 or 1). ``rotational`` selects the
    angular (hinge-like) or linear (slider-like) part of the Jacobian.
    """
    powered = d[off + LM_FMAX] > 0
    limit = int(d[off + LM_LIMIT])
    if not powered and limit == 0:
        return 0
    J = rows.J
    lostop = d[off + LM_LO]
    histop = d[off + LM_HI]
    base = 3 if rotational else 0
    J[r, base:base + 3] = ax
    if b1 >= 0:
        J[r, 6 + base:9 + base] = -ax
    # linear axes between two bodies act at the midpoint of the body centres,
    # so the pair of forces creates no torque couple
    ltd = np.zeros(3)
    if not rotational and b1 >= 0:
        mid = 0.5 * (bodies.pos[b1] - bodies.pos[b0])
        ltd = cross3(mid, ax)
        J[r, 3:6] = ltd
        J[r, 9:12] = ltd
    if limit != 0 and lostop == histop:
        powered = False
    if powered and limit != 0:
        _motor_against_stop(d, off, b0, b1, bodies, ax, ltd, rotational, limit)
    set_limot_bounds(d, off, wp, rows, r, powered, limit)
    if limit != 0 and lostop != histop:
        _bounce(d, off, b0, b1, bodies, rows, r, ax, rotational, limit)
    return 1


@njit(cache=True, nogil=True)
def set_limot_bounds(d, off, wp, rows, r, powered, limit) -> None:
    """Right-hand side, CFM and bounds of a limot row.

    Powered and free: drive to Vel with |force| <= FMax. At a stop: push out
    by stop ERP of the penetration, one-sided (both sides when lo == hi).
    """
    c = rows.c
    if powered and limit == 0:
        rows.cfm[r] = d[off + LM_NORMAL_CFM]
        c[r] = d[off + LM_VEL]
        rows.lo[r] = -d[off + LM_FMAX]
        rows.hi[r] = d[off + LM_FMAX]
    if limit == 0:
        return
    c[r] = -wp.fps * d[off + LM_STOP_ERP] * d[off + LM_LIMIT_ERR]
    rows.cfm[r] = d[off + LM_STOP_CFM]
    if d[off + LM_LO] == d[off + LM_HI]:
        rows.lo[r] = -math.inf
        rows.hi[r] = math.inf
    elif limit == 1:
        rows.lo[r] = 0.0
        rows.hi[r] = math.inf
    else:
        rows.lo[r] = -math.inf
        rows.hi[r] = 0.0


@njit(cache=True, nogil=True)
def _motor_against_stop(d, off, b0, b1, bodies, ax, ltd, rotational, limit) -> None:
    """A motor at a stop cannot be one LCP row; apply its force directly.

    Driving into the stop uses the full FMax; driving away uses FMax scaled
    by the fudge factor (ODE's approximation of the two-row problem).
    """
    vel = d[off + LM_VEL]
    fm = d[off + LM_FMAX]
    if vel > 0 or (vel == 0 and limit == 2):
        fm = -fm
    if (limit == 1 and vel > 0) or (limit == 2 and vel < 0):
        fm *= d[off + LM_FUDGE]
    f = fm * ax
    if rotational:
        if b1 >= 0:
            bodies.tacc[b1] += f
        bodies.tacc[b0] -= f
    else:
        if b1 >= 0:
            bodies.tacc[b0] -= fm * ltd
            bodies.tacc[b1] -= fm * ltd
            bodies.facc[b1] += f
        bodies.facc[b0] -= f


@njit(cache=True, nogil=True)
def _bounce(d, off, b0, b1, bodies, rows, r, ax, rotational, limit) -> None:
    """Restitution at a stop: an incoming joint velocity v is answered with at
    least -Bounce·v (only if that asks for more than the stop correction)."""
    bounce = d[off + LM_BOUNCE]
    if bounce <= 0:
        return
    vel_arr = bodies.avel if rotational else bodies.lvel
    v = dot3(vel_arr[b0], ax)
    if b1 >= 0:
        v -= dot3(vel_arr[b1], ax)
    c = rows.c
    if limit == 1:
        if v < 0:
            newc = -bounce * v
            if newc > c[r]:
                c[r] = newc
    else:
        if v > 0:
            newc = -bounce * v
            if newc < c[r]:
                c[r] = newc
