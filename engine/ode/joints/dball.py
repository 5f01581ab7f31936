"""Double ball (distance) joint: one row keeps two anchors a fixed distance apart.

Record (``RECORD``, declared below; floats): ``anchor1`` (3) in body 0's
frame, ``anchor2`` (3) in body 1's frame (world coordinates for a missing
body), ``erp`` and ``cfm`` (the joint's own, set with dParamERP / dParamCFM;
default the world's), target ``distance`` (m).
:mod:`engine.ode.joints.dhinge` extends this record.

As in ODE, attaching does not move the anchors (they stay body-relative
with whatever coordinates they had, the origins of the bodies for a fresh
joint): it only measures the target distance between them.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from engine.ode import checks
from engine.ode.constants import dJointTypeDBall, dParamCFM, dParamERP
from engine.ode.errors import ODEError
from engine.ode.joints.base import Joint, create_joint, joint_of
from engine.ode.joints.record import JointRecord
from engine.ode.kernels.detlinalg import matmul, norm
from engine.ode.kernels.vec import cross3, mat_vec
from engine.ode.rotation import safe_normalize3

#: the double ball's record, declared field by field (offsets in ``d``)
RECORD = JointRecord("DBall")
ANCHOR1 = RECORD.floats("anchor1", 3)  # body-0 frame (m)
ANCHOR2 = RECORD.floats("anchor2", 3)  # body-1 frame, or world (m)
ERP = RECORD.floats("erp")             # the joint's own ERP (dParamERP)
CFM = RECORD.floats("cfm")             # the joint's own CFM (dParamCFM)
DISTANCE = RECORD.floats("distance")   # target anchor distance (m)

# below this anchor gap (m) the direction of the row is taken from velocities
_MIN_LENGTH = 1e-12


class DistanceJoint(Joint):
    """Shared part of the double ball and double hinge joints (anchors,
    target distance, ERP/CFM); not a joint type of its own."""

    __slots__ = ()

    def init_record(self) -> None:
        self.d[ERP] = self.world.erp
        self.d[CFM] = self.world.cfm

    def set_relative_values(self) -> None:
        self.update_distance()

    # -- anchors --------------------------------------------------------------
    def _slot(self, user_index: int) -> int:
        """Internal slot (0 or 1) of the user's anchor 1 or 2."""
        k = user_index - 1
        return 1 - k if self.reversed else k

    def _point_world(self, slot: int) -> np.ndarray:
        """Anchor of internal slot ``slot`` in world coordinates, (3,) m."""
        off = ANCHOR1 if slot == 0 else ANCHOR2
        row = int(self.world.joints.body[self.index, slot])
        p = self.d[off:off + 3]
        if row < 0:
            return p.copy()
        s = self.world.bodies
        return matmul(s.R[row], p) + s.pos[row]

    def set_anchor(self, user_index: int, p: np.ndarray) -> None:
        """Store world point ``p`` (3,) as the user's anchor 1 or 2, re-measure."""
        slot = self._slot(user_index)
        off = ANCHOR1 if slot == 0 else ANCHOR2
        row = int(self.world.joints.body[self.index, slot])
        if row < 0:
            self.d[off:off + 3] = p
        else:
            s = self.world.bodies
            self.d[off:off + 3] = matmul(s.R[row].T, p - s.pos[row])
        self.update_distance()

    def get_anchor(self, user_index: int) -> np.ndarray:
        return self._point_world(self._slot(user_index))

    def update_distance(self) -> None:
        """Target distance := current distance between the two anchors."""
        self.d[DISTANCE] = float(norm(self._point_world(0) - self._point_world(1)))

    # -- parameters: only the joint's own ERP and CFM -------------------------
    def _param_slot(self, function, parameter):
        p = checks.integer(parameter, function, "parameter")
        if p not in (dParamERP, dParamCFM):
            raise ODEError(function, "parameter", f"a {self.NAME} joint has no parameter {p:#x}")
        return (ERP if p == dParamERP else CFM), p

    def set_param(self, function, parameter, value):
        slot, _ = self._param_slot(function, parameter)
        self.d[slot] = checks.real(value, function, "value")

    def get_param(self, function, parameter):
        slot, _ = self._param_slot(function, parameter)
        return float(self.d[slot])


class DBallJoint(DistanceJoint):
    TYPE = dJointTypeDBall
    NAME = "DBall"
    __slots__ = ()


# ----------------------------------------------------------------------------- kernels
@njit(cache=True, nogil=True)
def anchors_world(d, b0, b1, bodies):
    """World anchors and anchors relative to the body centres, (3,) each, m:
    (anchor 1, anchor 2, anchor 1 − centre 0, anchor 2 − centre 1 or zeros)."""
    rel1 = mat_vec(bodies.R[b0], d[ANCHOR1:ANCHOR1 + 3])
    g1 = rel1 + bodies.pos[b0]
    if b1 >= 0:
        rel2 = mat_vec(bodies.R[b1], d[ANCHOR2:ANCHOR2 + 3])
        g2 = rel2 + bodies.pos[b1]
    else:
        rel2 = np.zeros(3)
        g2 = d[ANCHOR2:ANCHOR2 + 3].copy()
    return g1, g2, rel1, rel2


@njit(cache=True, nogil=True)
def ode_normalize(v) -> np.ndarray:
    """A unit copy of v (3,) normalized as ODE's dNormalize3 does (largest
    component divided out first: same rounding); +x for a zero vector."""
    out = v.copy()
    if not safe_normalize3(out):
        out[0] = 1.0
        out[1] = 0.0
        out[2] = 0.0
    return out


def ode_unit(v: np.ndarray, function: str, argument: str = "x, y, z") -> np.ndarray:
    """Python side: ``v`` (3,) normalized like :func:`ode_normalize`; ODEError if zero."""
    if not np.any(v):
        raise ODEError(function, argument, "the axis must not be the zero vector")
    return ode_normalize(np.asarray(v, dtype=np.float64))


@njit(cache=True, nogil=True)
def _norm(v) -> float:
    return math.sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2])


@njit(cache=True, nogil=True)
def distance_row(d, b0, b1, bodies, wp, rows, r) -> None:
    """Row ``r``: the rate of change of the anchor distance equals
    fps·erp·(target − distance).

    With u the unit vector from anchor 2 to anchor 1 and p1, p2 the anchors
    relative to the body centres, d|a1 − a2|/dt = u·(v0 + w0 × p1) −
    u·(v1 + w1 × p2), so J = [u, p1 × u, −u, u × p2]. When the anchors
    coincide u is undefined: the relative anchor velocity is used instead,
    or +x when that vanishes too.
    """
    g1, g2, rel1, rel2 = anchors_world(d, b0, b1, bodies)
    u = g1 - g2
    dist = _norm(u)
    if dist < _MIN_LENGTH:
        u = bodies.lvel[b0] + cross3(bodies.avel[b0], rel1)
        if b1 >= 0:
            u = u - bodies.lvel[b1] - cross3(bodies.avel[b1], rel2)
        if _norm(u) < _MIN_LENGTH:
            u = np.array([1.0, 0.0, 0.0])
    u = ode_normalize(u)
    J = rows.J
    J[r, 0:3] = u
    J[r, 3:6] = cross3(rel1, u)
    if b1 >= 0:
        J[r, 6:9] = -u
        J[r, 9:12] = cross3(u, rel2)
    rows.c[r] = wp.fps * d[ERP] * (d[DISTANCE] - dist)
    rows.cfm[r] = d[CFM]


@njit(cache=True, nogil=True)
def info1(d, di, jf, b0, b1, bodies, wp):
    return 1, 1


@njit(cache=True, nogil=True)
def info2(d, di, jf, b0, b1, bodies, wp, rows, r):
    distance_row(d, b0, b1, bodies, wp, rows, r)


# ----------------------------------------------------------------------------- API
def _dball(j, fn: str) -> DBallJoint:
    return joint_of(j, fn, DBallJoint)


def dJointCreateDBall(w, group=None) -> DBallJoint:
    """A new double ball joint (ODE's dJointCreateDBall)."""
    return create_joint(DBallJoint, w, group, "dJointCreateDBall")


def dJointSetDBallAnchor1(j, x: float, y: float, z: float) -> None:
    """Anchor on body 1 (world point, m); the target distance is re-measured."""
    fn = "dJointSetDBallAnchor1"
    _dball(j, fn).set_anchor(1, checks.xyz(x, y, z, fn))


def dJointSetDBallAnchor2(j, x: float, y: float, z: float) -> None:
    """Anchor on body 2 (world point, m); the target distance is re-measured."""
    fn = "dJointSetDBallAnchor2"
    _dball(j, fn).set_anchor(2, checks.xyz(x, y, z, fn))


def dJointGetDBallAnchor1(j) -> np.ndarray:
    """Anchor 1 in world coordinates, (3,) m."""
    return _dball(j, "dJointGetDBallAnchor1").get_anchor(1)


def dJointGetDBallAnchor2(j) -> np.ndarray:
    """Anchor 2 in world coordinates, (3,) m."""
    return _dball(j, "dJointGetDBallAnchor2").get_anchor(2)


def dJointGetDBallDistance(j) -> float:
    """Target distance between the anchors (m)."""
    return float(_dball(j, "dJointGetDBallDistance").d[DISTANCE])


def dJointSetDBallDistance(j, dist: float) -> None:
    """Override the target distance (m, >= 0) measured at attach time."""
    fn = "dJointSetDBallDistance"
    joint = _dball(j, fn)
    v = checks.real(dist, fn, "dist")
    if v < 0:
        raise ODEError(fn, "dist", f"the target distance must be non-negative, got {v}")
    joint.d[DISTANCE] = v


def dJointSetDBallParam(j, parameter: int, value: float) -> None:
    """Set dParamERP or dParamCFM (the only parameters of the joint)."""
    fn = "dJointSetDBallParam"
    _dball(j, fn).set_param(fn, parameter, value)


def dJointGetDBallParam(j, parameter: int) -> float:
    fn = "dJointGetDBallParam"
    return _dball(j, fn).get_param(fn, parameter)
