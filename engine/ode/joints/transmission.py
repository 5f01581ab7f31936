"""Transmission joint: gears or a chain coupling the rotations of two bodies.

One row makes the contact points of the two wheels move together along
the tangent of the mesh: with opposite travel for gears (parallel or
intersecting axes), equal travel for a chain drive. With backlash the row
only acts (one-sided) once the accumulated phase error exceeds it.

Record (``RECORD``, declared below; floats): ``anchors`` (wheel i's centre
at 3i, body-i frame), ``axes`` (at 3i, body-i frame), ``contacts`` (at 3i,
world, cached by the last step), ``references`` (at 9i, 3x3 row-major: the
wheel's initial contact radius direction, axis × that, and the axis, all
body-i frame), ``phases`` (at i, rad), ``radii`` (at i, m), ``backlash``
(m), ``ratio``, ``erp``, ``cfm``. Ints: ``mode``, ``update`` (1 when the
geometry changed: the next step re-measures radii, ratio and references and
zeroes phases).
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from engine.ode import checks
from engine.ode.constants import (
    dJointTypeTransmission,
    dParamCFM,
    dParamERP,
    dTransmissionChainDrive,
    dTransmissionIntersectingAxes,
    dTransmissionParallelAxes,
)
from engine.ode.errors import ODEError
from engine.ode.joints.base import Joint, create_joint, joint_of
from engine.ode.joints.dball import ode_normalize, ode_unit
from engine.ode.joints.record import JointRecord
from engine.ode.kernels import detmath
from engine.ode.kernels.detlinalg import matmul
from engine.ode.kernels.vec import cross3, dot3, mat_t_vec, mat_vec

#: the transmission's record, declared field by field (offsets in ``d`` / ``di``)
RECORD = JointRecord("Transmission")
ANCHORS = RECORD.floats("anchors", 6)         # wheel i's centre at 3i, body-i frame (m)
AXES = RECORD.floats("axes", 6)               # wheel i's axis at 3i, body-i frame
CONTACTS = RECORD.floats("contacts", 6)       # contact point i at 3i, world, last step (m)
REFERENCES = RECORD.floats("references", 18)  # wheel i's 3x3 reference frame at 9i
PHASES = RECORD.floats("phases", 2)           # wheel i's phase at i (rad)
RADII = RECORD.floats("radii", 2)             # wheel i's radius at i (m)
BACKLASH = RECORD.floats("backlash")          # m
RATIO = RECORD.floats("ratio")
ERP = RECORD.floats("erp")                    # the joint's own ERP (dParamERP)
CFM = RECORD.floats("cfm")                    # the joint's own CFM (dParamCFM)
I_MODE = RECORD.ints("mode")                  # dTransmission* mode
I_UPDATE = RECORD.ints("update")              # 1: re-measure the geometry next step
_MODES = (dTransmissionParallelAxes, dTransmissionIntersectingAxes, dTransmissionChainDrive)


class TransmissionJoint(Joint):
    TYPE = dJointTypeTransmission
    NAME = "Transmission"
    TWO_BODIES = True
    __slots__ = ()

    def init_record(self) -> None:
        d = self.d
        d[AXES] = 1.0
        d[AXES + 3] = 1.0
        d[RATIO] = 1.0
        d[ERP] = self.world.erp
        d[CFM] = self.world.cfm
        self.di[I_UPDATE] = 1

    @property
    def mode(self) -> int:
        return int(self.di[I_MODE])

    def set_axis(self, i: int, v: np.ndarray, fn: str) -> None:
        """Wheel ``i``'s axis from world direction ``v`` (if body i exists)."""
        ode_unit(v, fn)
        row = self.body_rows()[i]
        if row >= 0:
            local = matmul(self.world.bodies.R[row].T, v)
            self.d[AXES + 3 * i:AXES + 3 * i + 3] = ode_unit(local, fn)
        self.di[I_UPDATE] = 1

    def get_axis(self, i: int) -> np.ndarray:
        row = self.body_rows()[i]
        if row < 0:
            return np.zeros(3)
        return matmul(self.world.bodies.R[row], self.d[AXES + 3 * i:AXES + 3 * i + 3])

    def set_anchor(self, i: int, p: np.ndarray) -> None:
        row = self.body_rows()[i]
        if row >= 0:
            s = self.world.bodies
            self.d[ANCHORS + 3 * i:ANCHORS + 3 * i + 3] = matmul(s.R[row].T, p - s.pos[row])
        self.di[I_UPDATE] = 1

    def get_anchor(self, i: int) -> np.ndarray:
        row = self.body_rows()[i]
        if row < 0:
            return np.zeros(3)
        s = self.world.bodies
        return matmul(s.R[row], self.d[ANCHORS + 3 * i:ANCHORS + 3 * i + 3]) + s.pos[row]

    # only the joint's own ERP and CFM
    def _param_slot(self, function, parameter):
        p = checks.integer(parameter, function, "parameter")
        if p not in (dParamERP, dParamCFM):
            raise ODEError(function, "parameter", f"a Transmission joint has no parameter "
                           f"{p:#x}")
        return (ERP if p == dParamERP else CFM), p

    def set_param(self, function, parameter, value):
        slot, _ = self._param_slot(function, parameter)
        self.d[slot] = checks.real(value, function, "value")

    def get_param(self, function, parameter):
        slot, _ = self._param_slot(function, parameter)
        return float(self.d[slot])


# ----------------------------------------------------------------------------- kernels
@njit(cache=True, nogil=True)
def _norm(v) -> float:
    return math.sqrt(dot3(v, v))


@njit(cache=True, nogil=True)
def _mesh_parallel(d, a, n, c, tl) -> None:
    """Gears on parallel axes: the contact divides the line of centres in
    the ratio, the tangent is normal to it and to each axis."""
    ratio = d[RATIO]
    base = a[1] - a[0]
    c[0] = a[0] + base * (ratio / (1.0 + ratio))
    c[1] = c[0]
    base = ode_normalize(base)
    for i in range(2):
        tl[i] = cross3(base, n[i])


@njit(cache=True, nogil=True)
def _mesh_intersecting(a, n, c, tl) -> None:
    """Bevel gears: the tangent is the line where the two wheel planes meet;
    each contact is its wheel centre projected on that line."""
    tl[0] = cross3(n[0], n[1])
    tl[1] = tl[0]
    nn = dot3(n[0], n[1])
    na0 = dot3(n[0], a[0])
    na1 = dot3(n[1], a[1])
    den = 1.0 - nn * nn
    if den == 0.0:
        # parallel axes have no line of intersection (ODE asserts): use wheel 1
        origin = a[0].copy()
    else:
        # the point of the line lying in the span of the two normals
        origin = n[0] * ((na0 - na1 * nn) / den) + n[1] * ((na1 - na0 * nn) / den)
    for i in range(2):
        c[i] = origin + tl[i] * dot3(a[i] - origin, tl[i])


@njit(cache=True, nogil=True)
def _mesh_chain(d, a, n, c, tl) -> None:
    """Chain drive: the chain leaves each sprocket where its radius makes the
    angle φ with the line of centres, cos φ = (r2 − r1) / distance."""
    base = a[0] - a[1]
    dist = _norm(base)
    cphi = 0.0 if dist == 0.0 else (d[RADII + 1] - d[RADII]) / dist
    cphi = min(1.0, max(-1.0, cphi))
    sphi = math.sqrt(1.0 - cphi * cphi)
    base = ode_normalize(base)
    for i in range(2):
        rad = d[RADII + i]
        u = np.array([rad * cphi, 0.0, rad * sphi])
        side = cross3(base, n[i])
        # the contact radius: u's components in the frame (line, axis, side),
        # applied as ODE applies them
        v = np.array([dot3(base, u), dot3(n[i], u), dot3(side, u)])
        c[i] = a[i] + v
        tl[i] = ode_normalize(cross3(v, n[i]))


@njit(cache=True, nogil=True)
def _remeasure(d, b, a, c, bodies) -> None:
    """New wheel references from the current contacts; phases restart at 0."""
    for i in range(2):
        rad = c[i] - a[i]
        d[RADII + i] = _norm(rad)
        x = ode_normalize(mat_t_vec(bodies.R[b[i]], rad))
        z = d[AXES + 3 * i:AXES + 3 * i + 3].copy()
        y = cross3(z, x)
        m = REFERENCES + 9 * i
        d[m:m + 3] = x
        d[m + 3:m + 6] = y
        d[m + 6:m + 9] = z
        d[PHASES + i] = 0.0
    d[RATIO] = d[RADII] / d[RADII + 1] if d[RADII + 1] != 0.0 else math.inf


@njit(cache=True, nogil=True)
def _track_phase(d, i, rad, R, omega, n, fps) -> None:
    """Accumulated turn (rad) of wheel ``i``: the angle of its contact radius
    ``rad`` (world) in the wheel's reference frame is only known modulo 2π,
    so the turn closest to the previous phase + ω·n·h is kept."""
    s = mat_t_vec(R, rad)
    m = REFERENCES + 9 * i
    theta = detmath.atan2(dot3(d[m + 3:m + 6], s), dot3(d[m:m + 3], s))
    guess = d[PHASES + i] + dot3(omega, n) / fps
    two_pi = 2.0 * math.pi
    if guess > 0.5 * math.pi:
        if theta < 0:
            theta += two_pi
        theta += math.floor(guess / two_pi) * two_pi
    elif guess < -0.5 * math.pi:
        if theta > 0:
            theta -= two_pi
        theta += math.ceil(guess / two_pi) * two_pi
    if guess - theta > math.pi:
        theta += two_pi
    elif guess - theta < -math.pi:
        theta -= two_pi
    d[PHASES + i] = theta


@njit(cache=True, nogil=True)
def _switch_chain_branch(a, n, c, tl) -> None:
    """Mirror contacts and tangents across the plane of the line of centres
    and the axes: when the load reverses, the other strand of the chain
    carries it."""
    base = a[0] - a[1]
    for i in range(2):
        nrm = cross3(n[i], base)
        nn = dot3(nrm, nrm)
        if nn == 0.0:
            continue
        c[i] = c[i] - nrm * (2.0 * dot3(c[i], nrm) / nn)
        tl[i] = -tl[i] + nrm * (2.0 * dot3(tl[i], nrm) / nn)


@njit(cache=True, nogil=True)
def info1(d, di, jf, b0, b1, bodies, wp):
    if b1 < 0:
        return 0, 0
    # with backlash the driving wheel can only push one way: a bounded row
    return 1, (0 if d[BACKLASH] > 0 else 1)


@njit(cache=True, nogil=True)
def info2(d, di, jf, b0, b1, bodies, wp, rows, r):
    b = (b0, b1)
    a = np.empty((2, 3))
    n = np.empty((2, 3))
    for i in range(2):
        R = bodies.R[b[i]]
        a[i] = mat_vec(R, d[ANCHORS + 3 * i:ANCHORS + 3 * i + 3]) + bodies.pos[b[i]]
        n[i] = mat_vec(R, d[AXES + 3 * i:AXES + 3 * i + 3])
    update = di[I_UPDATE] != 0
    if update and dot3(n[0], n[1]) < 0:
        # give both wheel frames the same handedness
        d[AXES:AXES + 3] = -d[AXES:AXES + 3]
        n[0] = -n[0]
    c = np.empty((2, 3))
    tl = np.empty((2, 3))
    mode = di[I_MODE]
    if mode == dTransmissionParallelAxes:
        _mesh_parallel(d, a, n, c, tl)
    elif mode == dTransmissionIntersectingAxes:
        _mesh_intersecting(a, n, c, tl)
    else:
        _mesh_chain(d, a, n, c, tl)
    if update:
        _remeasure(d, b, a, c, bodies)
        di[I_UPDATE] = 0
    fps = wp.fps
    rad_len = np.empty(2)
    for i in range(2):
        rad = c[i] - a[i]
        rad_len[i] = _norm(rad)
        _track_phase(d, i, rad, bodies.R[b[i]], bodies.avel[b[i]], n[i], fps)
    # arc lengths travelled by the two contact points: equal and opposite
    # for gears, equal for a chain
    if mode == dTransmissionChainDrive:
        delta = rad_len[0] * d[PHASES] - rad_len[1] * d[PHASES + 1]
        if delta < 0:
            _switch_chain_branch(a, n, c, tl)
    else:
        delta = rad_len[0] * d[PHASES] + rad_len[1] * d[PHASES + 1]
    _fill_row(d, b0, b1, bodies, rows, r, c, tl, delta, fps)
    d[CONTACTS:CONTACTS + 3] = c[0]
    d[CONTACTS + 3:CONTACTS + 6] = c[1]


@njit(cache=True, nogil=True)
def _fill_row(d, b0, b1, bodies, rows, r, c, tl, delta, fps) -> None:
    """The contact points' velocities along the tangents must agree:
    (v0 + w0 × r0)·l0 = (v1 + w1 × r1)·l1, r_i the contact relative to
    body i's centre; the phase error ``delta`` (m) beyond the backlash is
    corrected by erp of it per step."""
    backlash = d[BACKLASH]
    rows.cfm[r] = d[CFM]
    if backlash != 0 and abs(delta) <= backlash:
        return
    r0 = c[0] - bodies.pos[b0]
    r1 = c[1] - bodies.pos[b1]
    J = rows.J
    J[r, 0:3] = tl[0]
    J[r, 3:6] = cross3(r0, tl[0])
    J[r, 6:9] = -tl[1]
    J[r, 9:12] = cross3(tl[1], r1)
    k = fps * d[ERP]
    if delta > 0:
        if backlash > 0:
            rows.lo[r] = -math.inf
            rows.hi[r] = 0.0
        rows.c[r] = -k * (delta - backlash)
    else:
        if backlash > 0:
            rows.lo[r] = 0.0
            rows.hi[r] = math.inf
        rows.c[r] = -k * (delta + backlash)


# ----------------------------------------------------------------------------- API
def _tr(j, fn: str) -> TransmissionJoint:
    return joint_of(j, fn, TransmissionJoint)


def _need_mode(joint: TransmissionJoint, fn: str, modes: tuple, what: str) -> None:
    if joint.mode not in modes:
        raise ODEError(fn, "j", f"{what} (the joint is in mode {joint.mode})")


def dJointCreateTransmission(w, group=None) -> TransmissionJoint:
    """A new transmission joint: parallel axes, ratio 1, axes +x, anchors at
    the body origins (ODE's dJointCreateTransmission)."""
    return create_joint(TransmissionJoint, w, group, "dJointCreateTransmission")


def dJointSetTransmissionMode(j, mode: int) -> None:
    """dTransmissionParallelAxes, dTransmissionIntersectingAxes or dTransmissionChainDrive."""
    fn = "dJointSetTransmissionMode"
    joint = _tr(j, fn)
    m = checks.integer(mode, fn, "mode")
    if m not in _MODES:
        raise ODEError(fn, "mode", f"must be 0, 1 or 2 (a dTransmission* mode), got {m}")
    joint.di[I_MODE] = m


def dJointGetTransmissionMode(j) -> int:
    return _tr(j, "dJointGetTransmissionMode").mode


def dJointGetTransmissionContactPoint1(j) -> np.ndarray:
    """Contact point of wheel 1 (world, (3,) m) as computed by the last step."""
    return _tr(j, "dJointGetTransmissionContactPoint1").d[CONTACTS:CONTACTS + 3].copy()


def dJointGetTransmissionContactPoint2(j) -> np.ndarray:
    """Contact point of wheel 2 (world, (3,) m) as computed by the last step."""
    return _tr(j, "dJointGetTransmissionContactPoint2").d[CONTACTS + 3:CONTACTS + 6].copy()


def dJointSetTransmissionAxis1(j, x: float, y: float, z: float) -> None:
    """Intersecting-axes mode: axis of wheel 1 (world direction)."""
    fn = "dJointSetTransmissionAxis1"
    joint = _tr(j, fn)
    _need_mode(joint, fn, (dTransmissionIntersectingAxes,),
               "individual axes are only set in intersecting-axes mode")
    joint.set_axis(0, checks.xyz(x, y, z, fn), fn)


def dJointSetTransmissionAxis2(j, x: float, y: float, z: float) -> None:
    """Intersecting-axes mode: axis of wheel 2 (world direction)."""
    fn = "dJointSetTransmissionAxis2"
    joint = _tr(j, fn)
    _need_mode(joint, fn, (dTransmissionIntersectingAxes,),
               "individual axes are only set in intersecting-axes mode")
    joint.set_axis(1, checks.xyz(x, y, z, fn), fn)


def dJointGetTransmissionAxis1(j) -> np.ndarray:
    """Axis of wheel 1 in world coordinates, (3,)."""
    return _tr(j, "dJointGetTransmissionAxis1").get_axis(0)


def dJointGetTransmissionAxis2(j) -> np.ndarray:
    """Axis of wheel 2 in world coordinates, (3,)."""
    return _tr(j, "dJointGetTransmissionAxis2").get_axis(1)


def dJointSetTransmissionAxis(j, x: float, y: float, z: float) -> None:
    """Parallel-axes and chain-drive modes: the common axis of both wheels."""
    fn = "dJointSetTransmissionAxis"
    joint = _tr(j, fn)
    _need_mode(joint, fn, (dTransmissionParallelAxes, dTransmissionChainDrive),
               "the common axis is only set in parallel-axes or chain-drive mode")
    v = checks.xyz(x, y, z, fn)
    joint.set_axis(0, v, fn)
    joint.set_axis(1, v, fn)


def dJointGetTransmissionAxis(j) -> np.ndarray:
    """Parallel-axes and chain-drive modes: the common axis (wheel 1's), (3,)."""
    fn = "dJointGetTransmissionAxis"
    joint = _tr(j, fn)
    _need_mode(joint, fn, (dTransmissionParallelAxes, dTransmissionChainDrive),
               "there is no common axis in intersecting-axes mode")
    return joint.get_axis(0)


def dJointSetTransmissionAnchor1(j, x: float, y: float, z: float) -> None:
    """Centre of wheel 1 (world point, m), kept in body 1's frame."""
    fn = "dJointSetTransmissionAnchor1"
    _tr(j, fn).set_anchor(0, checks.xyz(x, y, z, fn))


def dJointSetTransmissionAnchor2(j, x: float, y: float, z: float) -> None:
    """Centre of wheel 2 (world point, m), kept in body 2's frame."""
    fn = "dJointSetTransmissionAnchor2"
    _tr(j, fn).set_anchor(1, checks.xyz(x, y, z, fn))


def dJointGetTransmissionAnchor1(j) -> np.ndarray:
    return _tr(j, "dJointGetTransmissionAnchor1").get_anchor(0)


def dJointGetTransmissionAnchor2(j) -> np.ndarray:
    return _tr(j, "dJointGetTransmissionAnchor2").get_anchor(1)


def dJointSetTransmissionParam(j, parameter: int, value: float) -> None:
    """Set dParamERP or dParamCFM (the only parameters of the joint)."""
    fn = "dJointSetTransmissionParam"
    _tr(j, fn).set_param(fn, parameter, value)


def dJointGetTransmissionParam(j, parameter: int) -> float:
    fn = "dJointGetTransmissionParam"
    return _tr(j, fn).get_param(fn, parameter)


def dJointSetTransmissionRatio(j, ratio: float) -> None:
    """Parallel-axes mode: angular speed ratio ω2/ω1 magnitude (> 0)."""
    fn = "dJointSetTransmissionRatio"
    joint = _tr(j, fn)
    _need_mode(joint, fn, (dTransmissionParallelAxes,),
               "the ratio is only set in parallel-axes mode")
    v = checks.real(ratio, fn, "ratio")
    if not v > 0:
        raise ODEError(fn, "ratio", f"must be positive, got {v}")
    joint.d[RATIO] = v


def dJointGetTransmissionRatio(j) -> float:
    """The ratio (set, or radius 1 / radius 2 once a step measured the wheels)."""
    return float(_tr(j, "dJointGetTransmissionRatio").d[RATIO])


def dJointGetTransmissionAngle1(j) -> float:
    """Angle (rad) wheel 1 turned since the geometry was last set."""
    return float(_tr(j, "dJointGetTransmissionAngle1").d[PHASES])


def dJointGetTransmissionAngle2(j) -> float:
    """Angle (rad) wheel 2 turned since the geometry was last set."""
    return float(_tr(j, "dJointGetTransmissionAngle2").d[PHASES + 1])


def dJointGetTransmissionRadius1(j) -> float:
    """Radius of wheel 1 (m)."""
    return float(_tr(j, "dJointGetTransmissionRadius1").d[RADII])


def dJointGetTransmissionRadius2(j) -> float:
    """Radius of wheel 2 (m)."""
    return float(_tr(j, "dJointGetTransmissionRadius2").d[RADII + 1])


def dJointSetTransmissionRadius1(j, radius: float) -> None:
    """Chain-drive mode: radius of sprocket 1 (m)."""
    fn = "dJointSetTransmissionRadius1"
    joint = _tr(j, fn)
    _need_mode(joint, fn, (dTransmissionChainDrive,), "radii are only set in chain-drive mode")
    joint.d[RADII] = checks.real(radius, fn, "radius")


def dJointSetTransmissionRadius2(j, radius: float) -> None:
    """Chain-drive mode: radius of sprocket 2 (m)."""
    fn = "dJointSetTransmissionRadius2"
    joint = _tr(j, fn)
    _need_mode(joint, fn, (dTransmissionChainDrive,), "radii are only set in chain-drive mode")
    joint.d[RADII + 1] = checks.real(radius, fn, "radius")


def dJointSetTransmissionBacklash(j, backlash: float) -> None:
    """Play (m of arc at the contact) before the wheels engage."""
    fn = "dJointSetTransmissionBacklash"
    _tr(j, fn).d[BACKLASH] = checks.real(backlash, fn, "backlash")


def dJointGetTransmissionBacklash(j) -> float:
    return float(_tr(j, "dJointGetTransmissionBacklash").d[BACKLASH])
