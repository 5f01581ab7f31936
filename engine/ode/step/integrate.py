"""Per-body stages of a step (compiled): world-frame inertia, gravity and the
gyroscopic term before solving; the position/orientation update after.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from engine.ode.bodystore import (
    BF_ANG_DAMPING,
    BF_FINITE_ROT,
    BF_FINITE_ROT_AXIS,
    BF_GYROSCOPIC,
    BF_LIN_DAMPING,
    BF_MAX_ANG_SPEED,
    BF_NO_GRAVITY,
)
from engine.ode.kernels import detmath
from engine.ode.kernels.vec import normalize4_inplace, q_to_R, qmul0


@njit(cache=True, nogil=True)
def _sinc(x: float) -> float:
    # sin(x)/x with its Taylor series near 0, accurate to the last bit there
    if abs(x) < 1.0e-4:
        return 1.0 - x * x * 0.166666666666666666667
    return detmath.sin(x) / x


@njit(cache=True, nogil=True)
def step_body(b, h, flags, bodies, damping) -> None:
    """Advance position and orientation of body b over h (s) (ODE's dxStepBody)
    for a body with finite rotation (``BF_FINITE_ROT``; the others are
    advanced on scalars in :func:`advance_island`), then apply its velocity
    damping; ``flags`` (n,) ``BF_*`` bits, ``bodies`` :class:`Bodies`,
    ``damping`` :class:`Damping`."""
    pos = bodies.pos
    q = bodies.q
    R = bodies.R
    lvel = bodies.lvel
    avel = bodies.avel
    max_ang_speed = damping.max_ang_speed
    frot_axis = damping.frot_axis
    lin_damp = damping.lin
    ang_damp = damping.ang
    lin_thr2 = damping.lin_thr2
    ang_thr2 = damping.ang_thr2
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
        dq[0] = detmath.cos(theta)
        dq[1:4] = frv * s
    else:
        wlen = math.sqrt(w[0] * w[0] + w[1] * w[1] + w[2] * w[2])
        theta = wlen * hh
        s = _sinc(theta) * hh
        dq[0] = detmath.cos(theta)
        dq[1:4] = w * s
    qn = qmul0(dq, qb)
    qb[:] = qn
    if f & BF_FINITE_ROT_AXIS:
        # as ODE 0.16, the remaining infinitesimal part uses the halved step
        _add_infinitesimal(qb, irv, hh)
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


# ----------------------------------------------------------------------------- island loops
# The per-body stages for all bodies of an island in one call, indexing the
# body arrays directly (no per-body views or calls with array arguments, whose
# reference counting cost more than the arithmetic). Bodies with finite
# rotation still go through step_body.


@njit(cache=True, nogil=True)
def prepare_island(ib, h, gravity, flags, bodies, masses, scratch) -> None:
    """World inverse inertia R·I⁻¹·Rᵀ (into ``masses.invI_world``), gravity
    force m·g (``gravity`` (3,) m/s²) and the implicit gyroscopic torque of a
    step of ``h`` s, for every body of ``ib`` (int64 body rows); ``flags`` (n,)
    ``BF_*`` bits, ``bodies`` :class:`Bodies`, ``masses`` :class:`MassModel`;
    ``scratch`` is a (9, 3) work array."""
    R = bodies.R
    avel = bodies.avel
    facc = bodies.facc
    tacc = bodies.tacc
    invmass = bodies.invmass
    mass = masses.mass
    I_body = masses.I_body
    invI_body = masses.invI_body
    invI_world = masses.invI_world
    for t in range(ib.shape[0]):
        b = ib[t]
        _rotate_tensor_at(R, invI_body, b, scratch)
        for i in range(3):
            for j in range(3):
                invI_world[b, i, j] = scratch[i, j]
        if not flags[b] & BF_NO_GRAVITY:
            for k in range(3):
                if gravity[k] != 0:
                    facc[b, k] += mass[b] * gravity[k]
        if flags[b] & BF_GYROSCOPIC and invmass[b] > 0:
            _gyroscopic_torque(b, h, R, avel, tacc, I_body, scratch)


@njit(cache=True, nogil=True, inline="always")
def _rotate_tensor_at(R, T, b, out) -> None:
    """:func:`_rotate_tensor` of R[b] and T[b]."""
    for i in range(3):
        t0 = T[b, i, 0] * R[b, 0, 0] + T[b, i, 1] * R[b, 0, 1] + T[b, i, 2] * R[b, 0, 2]
        t1 = T[b, i, 0] * R[b, 1, 0] + T[b, i, 1] * R[b, 1, 1] + T[b, i, 2] * R[b, 1, 2]
        t2 = T[b, i, 0] * R[b, 2, 0] + T[b, i, 1] * R[b, 2, 1] + T[b, i, 2] * R[b, 2, 2]
        out[3 + i, 0] = t0
        out[3 + i, 1] = t1
        out[3 + i, 2] = t2
    for i in range(3):
        for j in range(3):
            out[i, j] = (R[b, i, 0] * out[3, j] + R[b, i, 1] * out[4, j]
                         + R[b, i, 2] * out[5, j])


@njit(cache=True, nogil=True)
def _gyroscopic_torque(b, h, R, avel, tacc, I_body, A) -> None:
    """The implicit gyroscopic torque of body ``b``, added to tacc[b].

    The gyroscopic torque -w × (I w) is taken implicitly (Lacoursière's
    stabilisation, as ODE 0.16): with angular momentum L = I w and
    Ĩ = I + h [L]ₓ⁻ (the minus cross-product matrix), the torque that makes
    the semi-implicit update behave implicitly is (I Ĩ⁻¹ - 1) L / h.
    ``A`` is a (9, 3) work array: Iw in A[0:3], Ĩ in A[3:6], Ĩ⁻¹ in A[6:9].
    """
    _rotate_tensor_at(R, I_body, b, A)       # Iw in A[0:3]
    w0 = avel[b, 0]
    w1 = avel[b, 1]
    w2 = avel[b, 2]
    L0 = A[0, 0] * w0 + A[0, 1] * w1 + A[0, 2] * w2
    L1 = A[1, 0] * w0 + A[1, 1] * w1 + A[1, 2] * w2
    L2 = A[2, 0] * w0 + A[2, 1] * w1 + A[2, 2] * w2
    for i in range(3):
        for j in range(3):
            A[3 + i, j] = A[i, j]
    A[3, 1] += h * L2
    A[3, 2] -= h * L1
    A[4, 0] -= h * L2
    A[4, 2] += h * L0
    A[5, 0] += h * L1
    A[5, 1] -= h * L0
    c00 = A[4, 1] * A[5, 2] - A[4, 2] * A[5, 1]
    c01 = A[4, 2] * A[5, 0] - A[4, 0] * A[5, 2]
    c02 = A[4, 0] * A[5, 1] - A[4, 1] * A[5, 0]
    det = A[3, 0] * c00 + A[3, 1] * c01 + A[3, 2] * c02
    if det == 0:
        return
    r = 1.0 / det
    A[6, 0] = c00 * r
    A[7, 0] = c01 * r
    A[8, 0] = c02 * r
    A[6, 1] = (A[3, 2] * A[5, 1] - A[3, 1] * A[5, 2]) * r
    A[7, 1] = (A[3, 0] * A[5, 2] - A[3, 2] * A[5, 0]) * r
    A[8, 1] = (A[3, 1] * A[5, 0] - A[3, 0] * A[5, 1]) * r
    A[6, 2] = (A[3, 1] * A[4, 2] - A[3, 2] * A[4, 1]) * r
    A[7, 2] = (A[3, 2] * A[4, 0] - A[3, 0] * A[4, 2]) * r
    A[8, 2] = (A[3, 0] * A[4, 1] - A[3, 1] * A[4, 0]) * r
    rh = 1.0 / h
    Ls0 = L0 * rh
    Ls1 = L1 * rh
    Ls2 = L2 * rh
    for i in range(3):
        m0 = A[i, 0] * A[6, 0] + A[i, 1] * A[7, 0] + A[i, 2] * A[8, 0]
        m1 = A[i, 0] * A[6, 1] + A[i, 1] * A[7, 1] + A[i, 2] * A[8, 1]
        m2 = A[i, 0] * A[6, 2] + A[i, 1] * A[7, 2] + A[i, 2] * A[8, 2]
        if i == 0:
            m0 -= 1.0
        elif i == 1:
            m1 -= 1.0
        else:
            m2 -= 1.0
        tacc[b, i] += m0 * Ls0 + m1 * Ls1 + m2 * Ls2


@njit(cache=True, nogil=True)
def advance_island(ib, solved, cforce, h, flags, bodies, invI_world, damping) -> None:
    """Velocities v += h M⁻¹ (fe + Jᵀλ) (without Jᵀλ, ``cforce`` (n, 6),
    unless ``solved``), then :func:`step_body`, then clear the force
    accumulators, for every body of ``ib``; ``h`` s, ``flags`` (n,) ``BF_*``
    bits, ``bodies`` :class:`Bodies`, ``invI_world`` (n, 3, 3), ``damping``
    :class:`Damping`.

    The arrays are taken out of their bundles once, here: a helper inlined
    into the loop that took them out itself (or took arrays at all) made
    numba count references to every array for every body, about twenty
    atomic operations per body, a sixth of a small world's step."""
    pos = bodies.pos
    q = bodies.q
    R = bodies.R
    lvel = bodies.lvel
    avel = bodies.avel
    facc = bodies.facc
    tacc = bodies.tacc
    invmass = bodies.invmass
    max_ang_speed = damping.max_ang_speed
    lin_damp = damping.lin
    ang_damp = damping.ang
    lin_thr2 = damping.lin_thr2
    ang_thr2 = damping.ang_thr2
    for t in range(ib.shape[0]):
        b = ib[t]
        imh = invmass[b] * h
        if solved:
            for k in range(3):
                lvel[b, k] += (cforce[b, k] + facc[b, k]) * imh
            a0 = (cforce[b, 3] + tacc[b, 0]) * h
            a1 = (cforce[b, 4] + tacc[b, 1]) * h
            a2 = (cforce[b, 5] + tacc[b, 2]) * h
        else:
            for k in range(3):
                lvel[b, k] += facc[b, k] * imh
            a0 = tacc[b, 0] * h
            a1 = tacc[b, 1] * h
            a2 = tacc[b, 2] * h
        for k in range(3):
            avel[b, k] += (invI_world[b, k, 0] * a0 + invI_world[b, k, 1] * a1
                           + invI_world[b, k, 2] * a2)
        for k in range(3):
            facc[b, k] = 0.0
            tacc[b, k] = 0.0
        f = flags[b]
        if f & BF_FINITE_ROT:
            step_body(b, h, flags, bodies, damping)
            continue
        # step_body without finite rotation, on scalars
        w0 = avel[b, 0]
        w1 = avel[b, 1]
        w2 = avel[b, 2]
        if f & BF_MAX_ANG_SPEED:
            w0, w1, w2 = _capped(w0, w1, w2, max_ang_speed[b])
            avel[b, 0] = w0
            avel[b, 1] = w1
            avel[b, 2] = w2
        for k in range(3):
            pos[b, k] += h * lvel[b, k]
        q0, q1, q2, q3 = _advanced_quaternion(q[b, 0], q[b, 1], q[b, 2], q[b, 3], w0, w1, w2, h)
        q[b, 0] = q0
        q[b, 1] = q1
        q[b, 2] = q2
        q[b, 3] = q3
        # rotation matrix of q (as rotation.q_to_R)
        xx2 = 2.0 * q1 * q1
        yy2 = 2.0 * q2 * q2
        zz2 = 2.0 * q3 * q3
        R[b, 0, 0] = 1.0 - yy2 - zz2
        R[b, 0, 1] = 2.0 * (q1 * q2 - q0 * q3)
        R[b, 0, 2] = 2.0 * (q1 * q3 + q0 * q2)
        R[b, 1, 0] = 2.0 * (q1 * q2 + q0 * q3)
        R[b, 1, 1] = 1.0 - xx2 - zz2
        R[b, 1, 2] = 2.0 * (q2 * q3 - q0 * q1)
        R[b, 2, 0] = 2.0 * (q1 * q3 - q0 * q2)
        R[b, 2, 1] = 2.0 * (q2 * q3 + q0 * q1)
        R[b, 2, 2] = 1.0 - xx2 - yy2
        if f & BF_LIN_DAMPING:
            v0 = lvel[b, 0]
            v1 = lvel[b, 1]
            v2 = lvel[b, 2]
            if v0 * v0 + v1 * v1 + v2 * v2 > lin_thr2[b]:
                s = 1.0 - lin_damp[b]
                lvel[b, 0] = v0 * s
                lvel[b, 1] = v1 * s
                lvel[b, 2] = v2 * s
        if f & BF_ANG_DAMPING:
            if w0 * w0 + w1 * w1 + w2 * w2 > ang_thr2[b]:
                s = 1.0 - ang_damp[b]
                avel[b, 0] = w0 * s
                avel[b, 1] = w1 * s
                avel[b, 2] = w2 * s


@njit(cache=True, nogil=True, inline="always")
def _capped(w0: float, w1: float, w2: float, cap: float) -> tuple[float, float, float]:
    """The angular velocity (w0, w1, w2) rad/s scaled down to speed ``cap`` if faster."""
    sp2 = w0 * w0 + w1 * w1 + w2 * w2
    if sp2 > cap * cap:
        s = cap / math.sqrt(sp2)
        return w0 * s, w1 * s, w2 * s
    return w0, w1, w2


@njit(cache=True, nogil=True, inline="always")
def _advanced_quaternion(q0: float, q1: float, q2: float, q3: float, w0: float, w1: float,
                         w2: float, h: float) -> tuple[float, float, float, float]:
    """The orientation q after ``h`` s of angular velocity w (world frame, rad/s),
    to first order and normalised (a zero quaternion becomes the identity)."""
    # dq/dt = ½ [0, w] ⊗ q  (w in world coordinates), as _add_infinitesimal
    dq0 = 0.5 * (-w0 * q1 - w1 * q2 - w2 * q3)
    dq1 = 0.5 * (w0 * q0 + w1 * q3 - w2 * q2)
    dq2 = 0.5 * (-w0 * q3 + w1 * q0 + w2 * q1)
    dq3 = 0.5 * (w0 * q2 - w1 * q1 + w2 * q0)
    q0 += h * dq0
    q1 += h * dq1
    q2 += h * dq2
    q3 += h * dq3
    # dNormalize4 (zero becomes the identity)
    l2 = q0 * q0 + q1 * q1 + q2 * q2 + q3 * q3
    if l2 > 0.0:
        kq = 1.0 / math.sqrt(l2)
        return q0 * kq, q1 * kq, q2 * kq, q3 * kq
    return 1.0, 0.0, 0.0, 0.0
