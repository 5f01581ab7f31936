"""Per-body stages of a step (compiled): world-frame inertia, gravity and the
gyroscopic term before solving; the position/orientation update after.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from engine.ode.bodystore import (BF_ANG_DAMPING, BF_FINITE_ROT, BF_FINITE_ROT_AXIS,
                                  BF_GYROSCOPIC, BF_LIN_DAMPING, BF_MAX_ANG_SPEED,
                                  BF_NO_GRAVITY)
from engine.ode.kernels.vec import (inv33, mat33_mul, mat33_mul_bt, mat_vec, normalize4_inplace,
                                   q_to_R, qmul0)


@njit(cache=True, nogil=True)
def prepare_body(b, h, gravity, flags, R, avel, facc, tacc, mass, invmass, I_body,
                 invI_body, invI_world) -> None:
    """World inverse inertia R·I⁻¹·Rᵀ; gravity force m·g; implicit gyroscopic torque.

    The gyroscopic torque -w × (I w) is taken implicitly (Lacoursière's
    stabilisation, as ODE 0.16): with angular momentum L = I w and
    Ĩ = I + h [L]ₓ⁻ (the minus cross-product matrix), the torque that makes
    the semi-implicit update behave implicitly is (I Ĩ⁻¹ - 1) L / h.
    """
    Rb = R[b]
    invI_world[b] = mat33_mul(Rb, mat33_mul_bt(invI_body[b], Rb))
    if not flags[b] & BF_NO_GRAVITY:
        for k in range(3):
            if gravity[k] != 0:
                facc[b, k] += mass[b] * gravity[k]
    if flags[b] & BF_GYROSCOPIC and invmass[b] > 0:
        Iw = mat33_mul(Rb, mat33_mul_bt(I_body[b], Rb))
        L = mat_vec(Iw, avel[b])
        # Ĩ = I + h·[-L]ₓ  (cross matrix of -L)
        It = Iw.copy()
        It[0, 1] += h * L[2]
        It[0, 2] -= h * L[1]
        It[1, 0] -= h * L[2]
        It[1, 2] += h * L[0]
        It[2, 0] += h * L[1]
        It[2, 1] -= h * L[0]
        It_inv = np.empty((3, 3))
        if inv33(It, It_inv):
            M = mat33_mul(Iw, It_inv)
            M[0, 0] -= 1.0
            M[1, 1] -= 1.0
            M[2, 2] -= 1.0
            tau = mat_vec(M, L * (1.0 / h))
            tacc[b] += tau


@njit(cache=True, nogil=True)
def _sinc(x: float) -> float:
    # sin(x)/x with its Taylor series near 0, accurate to the last bit there
    if abs(x) < 1.0e-4:
        return 1.0 - x * x * 0.166666666666666666667
    return math.sin(x) / x


@njit(cache=True, nogil=True)
def step_body(b, h, flags, pos, q, R, lvel, avel, max_ang_speed, frot_axis, lin_damp,
              ang_damp, lin_thr2, ang_thr2) -> None:
    """Advance position and orientation of body b over h (ODE's dxStepBody),
    then apply its velocity damping."""
    f = flags[b]
    w = avel[b]
    if f & BF_MAX_ANG_SPEED:
        sp2 = w[0] * w[0] + w[1] * w[1] + w[2] * w[2]
        cap = max_ang_speed[b]
        if sp2 > cap * cap:
            w *= cap / math.sqrt(sp2)
    for k in range(3):
        pos[b, k] += h * lvel[b, k]
    qb = q[b]
    if f & BF_FINITE_ROT:
        hh = h * 0.5
        dq = np.empty(4)
        if f & BF_FINITE_ROT_AXIS:
            # finite rotation about the axis component, infinitesimal for the rest
            ax = frot_axis[b]
            kk = ax[0] * w[0] + ax[1] * w[1] + ax[2] * w[2]
            frv = ax * kk
            irv = w - frv
            theta = kk * hh
            s = _sinc(theta) * hh
            dq[0] = math.cos(theta)
            dq[1:4] = frv * s
        else:
            wlen = math.sqrt(w[0] * w[0] + w[1] * w[1] + w[2] * w[2])
            theta = wlen * hh
            s = _sinc(theta) * hh
            dq[0] = math.cos(theta)
            dq[1:4] = w * s
        qn = qmul0(dq, qb)
        qb[:] = qn
        if f & BF_FINITE_ROT_AXIS:
            # as ODE 0.16, the remaining infinitesimal part uses the halved step
            _add_infinitesimal(qb, irv, hh)
    else:
        _add_infinitesimal(qb, w, h)
    normalize4_inplace(qb)
    q_to_R(qb, R[b])
    if f & BF_LIN_DAMPING:
        v = lvel[b]
        if v[0] * v[0] + v[1] * v[1] + v[2] * v[2] > lin_thr2[b]:
            v *= 1.0 - lin_damp[b]
    if f & BF_ANG_DAMPING:
        if w[0] * w[0] + w[1] * w[1] + w[2] * w[2] > ang_thr2[b]:
            w *= 1.0 - ang_damp[b]


@njit(cache=True, nogil=True)
def _add_infinitesimal(qb, w, h) -> None:
    # dq/dt = ½ [0, w] ⊗ q  (w in world coordinates)
    dq0 = 0.5 * (-w[0] * qb[1] - w[1] * qb[2] - w[2] * qb[3])
    dq1 = 0.5 * (w[0] * qb[0] + w[1] * qb[3] - w[2] * qb[2])
    dq2 = 0.5 * (-w[0] * qb[3] + w[1] * qb[0] + w[2] * qb[1])
    dq3 = 0.5 * (w[0] * qb[2] - w[1] * qb[1] + w[2] * qb[0])
    qb[0] += h * dq0
    qb[1] += h * dq1
    qb[2] += h * dq2
    qb[3] += h * dq3
