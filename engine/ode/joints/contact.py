"""Contact joint: keeps two bodies (or a body and the static world) from
inter-penetrating at one contact point, with friction, bounce, soft contact,
surface motion, force-dependent slip and rolling friction.

Record (``RECORD``, declared below; ``d``, float64): the surface
parameters (``mu``, ``mu2``, ``rho``, ``rho2``, ``rhoN``, ``bounce_vel``
then ``bounce``, ``soft_erp``, ``soft_cfm``, ``motion1``, ``motion2``,
``motionN``, ``slip1``, ``slip2``), ``depth`` (m), contact ``pos`` (world,
m), ``normal`` (world, unit, as the collider gives it: the direction that
pushes geom 1's body out), ``fdir1`` (world), then info2's scratch space.
Integers (``di``): surface ``mode``, the row count of the last info1
(``rows``). The contact's geoms ``g1``/``g2`` stay on the handle.

Rows, in order (each only when its condition holds):

0. normal: ``J·v >= rhs`` with λ in [0, inf); rhs = min(erp·fps·(depth -
   surface layer)⁺ + motionN, max correcting vel), raised to the bounce
   velocity when the approach speed exceeds ``bounce_vel``; cfm soft_cfm.
1. friction along t1 (``fdir1`` or the plane space of the normal), λ in
   [-mu, mu] (``Approx1_1``: times the normal force), rhs ``motion1``,
   cfm ``slip1``.
2. friction along t2 = normal x t1, coefficient ``mu2`` (``Mu2``/``AxisDep``)
   or ``mu``; rhs ``motion2``, cfm ``slip2``.
3-5. rolling about t1, t2 and spinning about the normal (``Rolling``),
   coefficients ``rho`` (all three) or ``rho``, ``rho2``, ``rhoN``
   (``AxisDep``); proportional to the normal force with ``Approx1_1``,
   ``Approx1_2``, ``Approx1_N``.

As ODE 0.16.2 does, info1 counts a rolling row for a coefficient of exactly
0 that info2 then leaves empty (J = 0), and clamps negative coefficients to
0 in the record.
"""

from __future__ import annotations

import math
import struct

import numpy as np
from numba import njit

from engine.ode import checks
from engine.ode.constants import (
    dContactApprox1_1,
    dContactApprox1_2,
    dContactApprox1_N,
    dContactAxisDep,
    dContactBounce,
    dContactFDir1,
    dContactMotion1,
    dContactMotion2,
    dContactMotionN,
    dContactRolling,
    dContactSlip1,
    dContactSlip2,
    dContactSoftCFM,
    dContactSoftERP,
    dJointTypeContact,
)
from engine.ode.errors import ODEError
from engine.ode.joints.base import Joint, _destroy, _group_of
from engine.ode.joints.layout import JF_REVERSE
from engine.ode.joints.record import JointRecord
from engine.ode.kernels.options import NO_ALLOC
from engine.ode.structs import dContact, dContactGeom
from engine.ode.world import World, world_of

#: the contact joint's record, declared field by field (offsets in ``d`` / ``di``)
RECORD = JointRecord("Contact")
# the surface parameters, in dSurfaceParameters' order (``_SURFACE_ORDER``)
MU = RECORD.floats("mu")
MU2 = RECORD.floats("mu2")
RHO = RECORD.floats("rho")
RHO2 = RECORD.floats("rho2")
RHON = RECORD.floats("rhoN")
BOUNCE_VEL = RECORD.floats("bounce_vel")
BOUNCE = RECORD.floats("bounce")
SOFT_ERP = RECORD.floats("soft_erp")
SOFT_CFM = RECORD.floats("soft_cfm")
MOTION1 = RECORD.floats("motion1")
MOTION2 = RECORD.floats("motion2")
MOTIONN = RECORD.floats("motionN")
SLIP1 = RECORD.floats("slip1")
SLIP2 = RECORD.floats("slip2")
# the contact geometry
DEPTH = RECORD.floats("depth")           # m
POS = RECORD.floats("pos", 3)            # world (m)
NORMAL = RECORD.floats("normal", 3)      # world, unit, pushing geom 1's body out
FDIR1 = RECORD.floats("fdir1", 3)        # world
#: floats dJointCreateContact writes (surface and geometry)
N_FIELDS = RECORD.float_size
# info2's scratch space (no allocation per contact): the normal as seen from
# body 0, the contact point relative to body 0's and body 1's origins (m),
# the two friction directions
SCRATCH_NORMAL = RECORD.floats("scratch_normal", 3)
SCRATCH_ARM1 = RECORD.floats("scratch_arm1", 3)
SCRATCH_ARM2 = RECORD.floats("scratch_arm2", 3)
SCRATCH_DIR1 = RECORD.floats("scratch_dir1", 3)
SCRATCH_DIR2 = RECORD.floats("scratch_dir2", 3)
I_MODE = RECORD.ints("mode")             # the surface mode (dContact* flags)
I_ROWS = RECORD.ints("rows")             # rows counted by the last info1
_SQRT1_2 = 0.7071067811865475244

_FN = "dJointCreateContact"
# surface fields in record order (the first six may be infinite)
_SURFACE_ORDER = ("mu", "mu2", "rho", "rho2", "rhoN", "bounce_vel", "bounce", "soft_erp",
                  "soft_cfm", "motion1", "motion2", "motionN", "slip1", "slip2")


class ContactJoint(Joint):
    """A contact joint handle; ``g1``, ``g2`` are the contact's geoms (or None)."""

    TYPE = dJointTypeContact
    NAME = "Contact"
    __slots__ = ("g1", "g2")

    def init_record(self) -> None:
        """Nothing to do: dJointCreateContact writes the whole record."""

    @property
    def mode(self) -> int:
        """The surface mode flags copied from the dContact."""
        return int(self.di[I_MODE])

    # ODE has no getters for a contact joint's geometry; these read it back
    # (Odeon extension, used by engine.sim to show a plugin's contacts).
    @property
    def position(self) -> np.ndarray:
        """The contact point, world frame [m], a copy of shape (3,)."""
        return np.array(self.d[POS:POS + 3])

    @property
    def normal(self) -> np.ndarray:
        """The contact normal (unit, world frame), a copy of shape (3,)."""
        return np.array(self.d[NORMAL:NORMAL + 3])

    @property
    def depth(self) -> float:
        """The penetration depth [m]."""
        return float(self.d[DEPTH])


# ----------------------------------------------------------------------------- kernels
@njit(cache=True, nogil=True, inline="always")
def _count_coefficient(d, off, zero_counts):
    """(rows, unbounded rows) one friction coefficient adds; clamps it to >= 0.

    ``zero_counts``: a coefficient of exactly 0 still takes a row (rolling
    coefficients in ODE 0.16.2); otherwise only a positive one does.
    """
    v = d[off]
    if v < 0.0:
        d[off] = 0.0
        return 0, 0
    if v > 0.0 or zero_counts:
        return 1, (1 if v == math.inf else 0)
    return 0, 0


@njit(cache=True, nogil=True)
def info1(d, di, jf, b0, b1, bodies, wp):
    """(rows, unbounded rows) of the contact; remembers the row count in di."""
    mode = di[I_MODE]
    m = 1
    nub = 0
    if mode & dContactAxisDep:
        for off in (MU, MU2):
            k, u = _count_coefficient(d, off, False)
            m += k
            nub += u
        if mode & dContactRolling:
            for off in (RHO, RHO2, RHON):
                k, u = _count_coefficient(d, off, True)
                m += k
                nub += u
    else:
        # one coefficient for both friction directions (and all three rolling axes)
        k, u = _count_coefficient(d, MU, False)
        m += 2 * k
        nub += 2 * u
        if mode & dContactRolling:
            k, u = _count_coefficient(d, RHO, True)
            m += 3 * k
            nub += 3 * u
    di[I_ROWS] = m
    return m, nub


@njit(cache=True, nogil=True, inline="always")
def _plane_space_into(s, n, out1, out2):
    """Unit vectors s[out1:+3], s[out2:+3] completing s[n:+3] to a right-handed
    orthonormal basis; the same arithmetic as ``kernels.vec.plane_space``
    (ODE's dPlaneSpace), written into the scratch vector."""
    n0, n1, n2 = s[n], s[n + 1], s[n + 2]
    if abs(n2) > _SQRT1_2:
        # first direction in the y-z plane
        a = n1 * n1 + n2 * n2
        k = 1.0 / math.sqrt(a)
        s[out1], s[out1 + 1], s[out1 + 2] = 0.0, -n2 * k, n1 * k
        s[out2], s[out2 + 1], s[out2 + 2] = a * k, -n0 * s[out1 + 2], n0 * s[out1 + 1]
    else:
        # first direction in the x-y plane
        a = n0 * n0 + n1 * n1
        k = 1.0 / math.sqrt(a)
        s[out1], s[out1 + 1], s[out1 + 2] = -n1 * k, n0 * k, 0.0
        s[out2], s[out2 + 1], s[out2 + 2] = -n2 * s[out1 + 1], n2 * s[out1], a * k


@njit(cache=True, nogil=True, inline="always")
def _point_row(J, r, s, t, b1):
    """Row r acting along world direction s[t:t+3] at the contact point:
    linear t and angular c1 x t for body 0, -t and t x c2 (= -(c2 x t)) for body 1."""
    t0, t1, t2 = s[t], s[t + 1], s[t + 2]
    J[r, 0], J[r, 1], J[r, 2] = t0, t1, t2
    c0, c1, c2 = s[SCRATCH_ARM1], s[SCRATCH_ARM1 + 1], s[SCRATCH_ARM1 + 2]
    J[r, 3] = c1 * t2 - c2 * t1
    J[r, 4] = c2 * t0 - c0 * t2
    J[r, 5] = c0 * t1 - c1 * t0
    if b1 >= 0:
        c0, c1, c2 = s[SCRATCH_ARM2], s[SCRATCH_ARM2 + 1], s[SCRATCH_ARM2 + 2]
        J[r, 6], J[r, 7], J[r, 8] = -t0, -t1, -t2
        J[r, 9] = t1 * c2 - t2 * c1
        J[r, 10] = t2 * c0 - t0 * c2
        J[r, 11] = t0 * c1 - t1 * c0


@njit(cache=True, nogil=True, inline="always")
def _normal_rhs(d, mode, b0, b1, bodies, wp, J, r):
    """Right-hand side (m/s) of the non-penetration row r whose J is set."""
    erp = d[SOFT_ERP] if mode & dContactSoftERP else wp.erp
    # only the penetration beyond the surface layer is corrected
    depth = d[DEPTH] - wp.surface_layer
    if depth < 0.0:
        depth = 0.0
    motion_n = d[MOTIONN] if mode & dContactMotionN else 0.0
    rhs = min(wp.fps * erp * depth + motion_n, wp.max_correcting_vel)
    if mode & dContactBounce and d[BOUNCE_VEL] >= 0.0:
        # separating speed J·v (negative while approaching); the bounce target
        # is not capped by the max correcting velocity
        lv = bodies.lvel
        av = bodies.avel
        out = 0.0
        for k in range(3):
            out += J[r, k] * lv[b0, k] + J[r, 3 + k] * av[b0, k]
            if b1 >= 0:
                out += J[r, 6 + k] * lv[b1, k] + J[r, 9 + k] * av[b1, k]
        approach = motion_n - out
        if approach > d[BOUNCE_VEL]:
            rhs = max(rhs, d[BOUNCE] * approach + motion_n)
    return rhs


@njit(cache=True, nogil=True, inline="always")
def _bounds(rows, r, coef, proportional):
    """Row r's force bounds ±coef (N or N·m; times the normal force, row 0 of
    the joint, when ``proportional``)."""
    rows.lo[r] = -coef
    rows.hi[r] = coef
    if proportional:
        rows.findex[r] = 0


@njit(cache=True, nogil=True, inline="always")
def _rolling_row(J, r, s, ax, b1):
    """Angular row r resisting relative rotation about world axis s[ax:ax+3]."""
    for k in range(3):
        J[r, 3 + k] = s[ax + k]
        if b1 >= 0:
            J[r, 9 + k] = -s[ax + k]


@njit(cache=True, nogil=True, inline="always")
def _friction_rows(d, mode, s, b1, rows, r):
    """Friction and rolling rows from row r on; returns the next free row."""
    J = rows.J
    mu = d[MU]
    if mu > 0.0:
        _point_row(J, r, s, SCRATCH_DIR1, b1)
        _bounds(rows, r, mu, mode & dContactApprox1_1)
        if mode & dContactMotion1:
            rows.c[r] = d[MOTION1]
        if mode & dContactSlip1:
            rows.cfm[r] = d[SLIP1]
        r += 1
    mu2 = d[MU2] if mode & dContactAxisDep else mu
    if mu2 > 0.0:
        _point_row(J, r, s, SCRATCH_DIR2, b1)
        _bounds(rows, r, mu2, mode & dContactApprox1_2)
        if mode & dContactMotion2:
            rows.c[r] = d[MOTION2]
        if mode & dContactSlip2:
            rows.cfm[r] = d[SLIP2]
        r += 1
    if mode & dContactRolling:
        # rolling about t1, about t2, and spinning about the normal
        axdep = mode & dContactAxisDep
        rho = d[RHO]
        if rho > 0.0:
            _rolling_row(J, r, s, SCRATCH_DIR1, b1)
            _bounds(rows, r, rho, mode & dContactApprox1_1)
            r += 1
        rho2 = d[RHO2] if axdep else rho
        if rho2 > 0.0:
            _rolling_row(J, r, s, SCRATCH_DIR2, b1)
            _bounds(rows, r, rho2, mode & dContactApprox1_2)
            r += 1
        rho_n = d[RHON] if axdep else rho
        if rho_n > 0.0:
            _rolling_row(J, r, s, SCRATCH_NORMAL, b1)
            _bounds(rows, r, rho_n, mode & dContactApprox1_N)
            r += 1
    return r


@njit(cache=True, nogil=True)
def info2(d, di, jf, b0, b1, bodies, wp, rows, r):
    """Fill the contact's rows r.. (see the module docstring for their order)."""
    mode = di[I_MODE]
    # the lone body of a (NULL, body) attachment sits in slot 0, but the
    # normal points into geom 1's body: flip it
    sign = -1.0 if jf & JF_REVERSE else 1.0
    s = d
    bpos = bodies.pos
    for k in range(3):
        s[SCRATCH_NORMAL + k] = sign * d[NORMAL + k]
        s[SCRATCH_ARM1 + k] = d[POS + k] - bpos[b0, k]
        s[SCRATCH_ARM2 + k] = d[POS + k] - bpos[b1, k] if b1 >= 0 else 0.0
    J = rows.J
    _point_row(J, r, s, SCRATCH_NORMAL, b1)
    rows.c[r] = _normal_rhs(d, mode, b0, b1, bodies, wp, J, r)
    if mode & dContactSoftCFM:
        rows.cfm[r] = d[SOFT_CFM]
    rows.lo[r] = 0.0
    rows.hi[r] = math.inf
    if di[I_ROWS] <= 1:
        return
    if mode & dContactFDir1:
        # t1 as given, t2 = n x t1
        for k in range(3):
            s[SCRATCH_DIR1 + k] = d[FDIR1 + k]
        # dir2 = normal x dir1
        s[SCRATCH_DIR2] = (s[SCRATCH_NORMAL + 1] * s[SCRATCH_DIR1 + 2]
                           - s[SCRATCH_NORMAL + 2] * s[SCRATCH_DIR1 + 1])
        s[SCRATCH_DIR2 + 1] = (s[SCRATCH_NORMAL + 2] * s[SCRATCH_DIR1]
                               - s[SCRATCH_NORMAL] * s[SCRATCH_DIR1 + 2])
        s[SCRATCH_DIR2 + 2] = (s[SCRATCH_NORMAL] * s[SCRATCH_DIR1 + 1]
                               - s[SCRATCH_NORMAL + 1] * s[SCRATCH_DIR1])
    else:
        _plane_space_into(s, SCRATCH_NORMAL, SCRATCH_DIR1, SCRATCH_DIR2)
    _friction_rows(d, mode, s, b1, rows, r + 1)


# ----------------------------------------------------------------------------- island kernel
# The step's hot path: the same rows as info1/info2 above, bit for bit, for all
# contacts of an island in one call, reading the joint store and writing the
# island's row arrays directly. Inside the loop only scalars move between
# helpers: passing arrays to a helper (or inlining one) costs reference-count
# updates per call, which were most of the time of the generic path.


@njit(cache=True, nogil=True, inline="always")
def _clamped_count(v, zero_counts):
    """(rows, unbounded rows, clamped value) for one friction coefficient ``v``;
    as :func:`_count_coefficient`."""
    if v < 0.0:
        return 0, 0, 0.0
    if v > 0.0 or zero_counts:
        return 1, (1 if v == math.inf else 0), v
    return 0, 0, v


@njit(**NO_ALLOC)
def count_island_rows(joints, js, ms, nubs) -> None:
    """info1 of the contacts among the joints ``js`` (store rows; others are
    left alone): ``ms[i]``, ``nubs[i]``; clamps negative coefficients in
    ``joints.data`` and remembers the row count in ``joints.idata[j, I_ROWS]``."""
    jtype = joints.type
    d = joints.data
    di = joints.idata
    for i in range(js.shape[0]):
        j = js[i]
        if jtype[j] != dJointTypeContact:
            continue
        mode = di[j, I_MODE]
        m = 1
        nub = 0
        if mode & dContactAxisDep:
            k, u, d[j, MU] = _clamped_count(d[j, MU], False)
            m += k
            nub += u
            k, u, d[j, MU2] = _clamped_count(d[j, MU2], False)
            m += k
            nub += u
            if mode & dContactRolling:
                k, u, d[j, RHO] = _clamped_count(d[j, RHO], True)
                m += k
                nub += u
                k, u, d[j, RHO2] = _clamped_count(d[j, RHO2], True)
                m += k
                nub += u
                k, u, d[j, RHON] = _clamped_count(d[j, RHON], True)
                m += k
                nub += u
        else:
            k, u, d[j, MU] = _clamped_count(d[j, MU], False)
            m += 2 * k
            nub += 2 * u
            if mode & dContactRolling:
                k, u, d[j, RHO] = _clamped_count(d[j, RHO], True)
                m += 3 * k
                nub += 3 * u
        di[j, I_ROWS] = m
        ms[i] = m
        nubs[i] = nub


@njit(cache=True, nogil=True, inline="always")
def _cross(a0, a1, a2, b0, b1, b2):
    """a x b, as three floats."""
    return a1 * b2 - a2 * b1, a2 * b0 - a0 * b2, a0 * b1 - a1 * b0


@njit(cache=True, nogil=True, inline="always")
def _direction(q, n0, n1, n2, t10, t11, t12, t20, t21, t22):
    """Direction of friction/rolling slot q: 0 t1, 1 t2, 2 n."""
    if q == 0:
        return t10, t11, t12
    if q == 1:
        return t20, t21, t22
    return n0, n1, n2


@njit(**NO_ALLOC)
def fill_island_rows(joints, js, order, nk, offsets, bodies, wp, rows) -> None:
    """info2 of the contacts among the joints ``js[order[k]]``, k < nk, into
    their preset rows ``offsets[k]``.. of the island's ``rows`` (``findex``
    island-relative); same values as :func:`info2`."""
    jtype = joints.type
    jflags = joints.flags
    jbody = joints.body
    d = joints.data
    di = joints.idata
    pos = bodies.pos
    lvel = bodies.lvel
    avel = bodies.avel
    J = rows.J
    c = rows.c
    cfm = rows.cfm
    lo = rows.lo
    hi = rows.hi
    findex = rows.findex
    for kk in range(nk):
        j = js[order[kk]]
        if jtype[j] != dJointTypeContact:
            continue
        r = offsets[kk]
        b0 = jbody[j, 0]
        b1 = jbody[j, 1]
        mode = di[j, I_MODE]
        two = b1 >= 0
        sign = -1.0 if jflags[j] & JF_REVERSE else 1.0
        n0 = sign * d[j, NORMAL]
        n1 = sign * d[j, NORMAL + 1]
        n2 = sign * d[j, NORMAL + 2]
        p0 = d[j, POS] - pos[b0, 0]
        p1 = d[j, POS + 1] - pos[b0, 1]
        p2 = d[j, POS + 2] - pos[b0, 2]
        q0 = 0.0
        q1 = 0.0
        q2 = 0.0
        if two:
            q0 = d[j, POS] - pos[b1, 0]
            q1 = d[j, POS + 1] - pos[b1, 1]
            q2 = d[j, POS + 2] - pos[b1, 2]
        # normal row (see _point_row)
        a3, a4, a5 = _cross(p0, p1, p2, n0, n1, n2)
        J[r, 0] = n0
        J[r, 1] = n1
        J[r, 2] = n2
        J[r, 3] = a3
        J[r, 4] = a4
        J[r, 5] = a5
        if two:
            a9, a10, a11 = _cross(n0, n1, n2, q0, q1, q2)
            J[r, 6] = -n0
            J[r, 7] = -n1
            J[r, 8] = -n2
            J[r, 9] = a9
            J[r, 10] = a10
            J[r, 11] = a11
        # its right-hand side (see _normal_rhs)
        erp = d[j, SOFT_ERP] if mode & dContactSoftERP else wp.erp
        depth = d[j, DEPTH] - wp.surface_layer
        if depth < 0.0:
            depth = 0.0
        motion_n = d[j, MOTIONN] if mode & dContactMotionN else 0.0
        rhs = min(wp.fps * erp * depth + motion_n, wp.max_correcting_vel)
        if mode & dContactBounce and d[j, BOUNCE_VEL] >= 0.0:
            out = 0.0
            for k in range(3):
                out += J[r, k] * lvel[b0, k] + J[r, 3 + k] * avel[b0, k]
                if two:
                    out += J[r, 6 + k] * lvel[b1, k] + J[r, 9 + k] * avel[b1, k]
            approach = motion_n - out
            if approach > d[j, BOUNCE_VEL]:
                rhs = max(rhs, d[j, BOUNCE] * approach + motion_n)
        c[r] = rhs
        if mode & dContactSoftCFM:
            cfm[r] = d[j, SOFT_CFM]
        lo[r] = 0.0
        hi[r] = math.inf
        if di[j, I_ROWS] <= 1:
            continue
        # friction directions t1, t2 (fdir1 and n x fdir1, or dPlaneSpace(n))
        if mode & dContactFDir1:
            t10 = d[j, FDIR1]
            t11 = d[j, FDIR1 + 1]
            t12 = d[j, FDIR1 + 2]
            t20, t21, t22 = _cross(n0, n1, n2, t10, t11, t12)
        elif abs(n2) > _SQRT1_2:
            a = n1 * n1 + n2 * n2
            k = 1.0 / math.sqrt(a)
            t10 = 0.0
            t11 = -n2 * k
            t12 = n1 * k
            t20 = a * k
            t21 = -n0 * t12
            t22 = n0 * t11
        else:
            a = n0 * n0 + n1 * n1
            k = 1.0 / math.sqrt(a)
            t10 = -n1 * k
            t11 = n0 * k
            t12 = 0.0
            t20 = -n2 * t11
            t21 = n2 * t10
            t22 = a * k
        r0 = r
        r += 1
        axdep = mode & dContactAxisDep
        mu = d[j, MU]
        mu2 = d[j, MU2] if axdep else mu
        rolling = mode & dContactRolling
        rho = d[j, RHO]
        rho2 = d[j, RHO2] if axdep else rho
        rho_n = d[j, RHON] if axdep else rho
        # slots: friction t1, t2 (point rows), then rolling t1, t2, n (angular)
        for q in range(5):
            if q == 0:
                coef = mu
                prop = mode & dContactApprox1_1
            elif q == 1:
                coef = mu2
                prop = mode & dContactApprox1_2
            elif q == 2:
                coef = rho
                prop = mode & dContactApprox1_1
            elif q == 3:
                coef = rho2
                prop = mode & dContactApprox1_2
            else:
                coef = rho_n
                prop = mode & dContactApprox1_N
            if q >= 2 and not rolling:
                break
            if not coef > 0.0:
                continue
            e0, e1, e2 = _direction(q if q < 2 else q - 2, n0, n1, n2, t10, t11, t12,
                                    t20, t21, t22)
            if q < 2:
                a3, a4, a5 = _cross(p0, p1, p2, e0, e1, e2)
                J[r, 0] = e0
                J[r, 1] = e1
                J[r, 2] = e2
                J[r, 3] = a3
                J[r, 4] = a4
                J[r, 5] = a5
                if two:
                    a9, a10, a11 = _cross(e0, e1, e2, q0, q1, q2)
                    J[r, 6] = -e0
                    J[r, 7] = -e1
                    J[r, 8] = -e2
                    J[r, 9] = a9
                    J[r, 10] = a10
                    J[r, 11] = a11
            else:
                J[r, 3] = e0
                J[r, 4] = e1
                J[r, 5] = e2
                if two:
                    J[r, 9] = -e0
                    J[r, 10] = -e1
                    J[r, 11] = -e2
            lo[r] = -coef
            hi[r] = coef
            if prop:
                findex[r] = r0
            if q == 0:
                if mode & dContactMotion1:
                    c[r] = d[j, MOTION1]
                if mode & dContactSlip1:
                    cfm[r] = d[j, SLIP1]
            elif q == 1:
                if mode & dContactMotion2:
                    c[r] = d[j, MOTION2]
                if mode & dContactSlip2:
                    cfm[r] = d[j, SLIP2]
            r += 1


# ----------------------------------------------------------------------------- API
# the 24 record floats written in one call straight into the joint store's buffer
_FIELDS_STRUCT = struct.Struct(f"{N_FIELDS}d")


def dJointCreateContact(w: World, group, contact) -> ContactJoint:
    """A contact joint made from a copy of ``contact`` (a dContact).

    Copies the surface parameters, the contact point ``geom.pos`` (world, m),
    ``geom.normal`` (world unit vector, pushing geom 1's body out),
    ``geom.depth`` (m) and ``fdir1``; later changes to ``contact`` do not
    affect the joint. ``mu``, ``mu2``, ``rho``, ``rho2``, ``rhoN`` and
    ``bounce_vel`` may be infinite (dInfinity); every other value must be
    finite (``fdir1`` only when dContactFDir1 is set).
    """
    # fast path for the usual dContact of Python numbers and (3,) float arrays;
    # called thousands of times per step by near callbacks
    try:
        s = contact.surface
        g = contact.geom
        mode = s.mode
        p0, p1, p2 = g.pos.tolist()
        n0, n1, n2 = g.normal.tolist()
        f0, f1, f2 = contact.fdir1.tolist()
        depth = g.depth
        mu, mu2, rho, rho2, rho_n, bvel = s.mu, s.mu2, s.rho, s.rho2, s.rhoN, s.bounce_vel
        bounce, erp, cfm, m1, m2, mn, slip1, slip2 = (s.bounce, s.soft_erp, s.soft_cfm,
                                                      s.motion1, s.motion2, s.motionN,
                                                      s.slip1, s.slip2)
        # one sum per class of field: a NaN (or an infinity where none is
        # allowed) makes it non-finite; the slow path then names the field
        fin = (bounce + erp + cfm + m1 + m2 + mn + slip1 + slip2 + depth
               + p0 + p1 + p2 + n0 + n1 + n2)
        if mode & dContactFDir1:
            fin += f0 + f1 + f2
        ok = (type(mode) is int and math.isfinite(fin)
              and not math.isnan(mu + mu2 + rho + rho2 + rho_n + bvel))
    except (AttributeError, TypeError, ValueError, OverflowError):
        ok = False
    world = w if type(w) is World and w.alive else world_of(w, _FN)
    grp = None if group is None else _group_of(group, _FN)
    if ok:
        joint = ContactJoint(world, grp)
        i = joint.index
        data = world.joints.data
        try:
            _FIELDS_STRUCT.pack_into(data, i * data.strides[0], mu, mu2, rho, rho2, rho_n, bvel,
                              bounce, erp, cfm, m1, m2, mn, slip1, slip2, depth,
                              p0, p1, p2, n0, n1, n2, f0, f1, f2)
        except (struct.error, OverflowError):
            # a value struct cannot convert to a double: the slow path decides
            _destroy(joint)
            ok = False
    if not ok:
        # every field checked (ODEError naming it); also reached when the sums
        # above overflowed or mixed +inf and -inf with valid fields
        mode, vals = _checked_values(contact)
        g = contact.geom
        joint = ContactJoint(world, grp)
        i = joint.index
        world.joints.data[i, :N_FIELDS] = vals
    world.joints.idata[i, I_MODE] = mode
    joint.g1 = getattr(g, "g1", None)
    joint.g2 = getattr(g, "g2", None)
    return joint


#: Surface values at the head of a contact record (the depth follows them).
N_SURFACE = DEPTH


def surface_record(surface) -> tuple[int, list[float]]:
    """(mode, the ``N_SURFACE`` surface values in record order) of a
    dSurfaceParameters, every field checked as dJointCreateContact checks it
    (ODEError): what a contact joint made with ``surface`` stores."""
    mode, vals = _checked_values(dContact(surface, dContactGeom()))
    return int(mode), list(vals[:N_SURFACE])


def _checked_values(contact) -> tuple[int, list[float]]:
    """(mode, record values) of ``contact``, every field checked (ODEError)."""
    if not all(hasattr(contact, a) for a in ("surface", "geom", "fdir1")):
        raise ODEError(_FN, "contact", f"expected a dContact, got {contact!r}")
    s = contact.surface
    mode = checks.integer(getattr(s, "mode", None), _FN, "contact.surface.mode")
    vals = []
    for i, name in enumerate(_SURFACE_ORDER):
        field = f"contact.surface.{name}"
        v = getattr(s, name, None)
        vals.append(checks.real_or_inf(v, _FN, field) if i < 6 else checks.real(v, _FN, field))
    g = contact.geom
    vals.append(checks.real(getattr(g, "depth", None), _FN, "contact.geom.depth"))
    vals.extend(checks.vector(getattr(g, "pos", None), 3, _FN, "contact.geom.pos"))
    vals.extend(checks.vector(getattr(g, "normal", None), 3, _FN, "contact.geom.normal"))
    if mode & dContactFDir1:
        vals.extend(checks.vector(contact.fdir1, 3, _FN, "contact.fdir1"))
    else:
        vals.extend((0.0, 0.0, 0.0))
    return mode, vals
