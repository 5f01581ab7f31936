"""Piston joint: a slider that may also turn about its axis (default x).

Parameters dParamX act on the sliding (prismatic) axis, dParamX2 on the
rotation about the same axis.

Rows (as ODE 0.16.2): two angular rows normal to the axis keep the axes of
the two bodies aligned; two linear rows normal to the axis keep body 2's
anchor on the line of body 1's anchor along the axis; then the prismatic
limit/motor row and the rotoide one.

Record (``RECORD``, declared below): ``anchor1`` (body-0 frame, m),
``anchor2`` (body-1 frame or world), ``axis1`` (body-0 frame), ``axis2``
(body-1 frame or world), ``rel_rotation`` (relative rotation at angle 0),
``prismatic_limot``, ``rotoide_limot``.

As in ODE, a joint attached as (NULL, body) measures the body-to-anchor
vector of its linear rows with the opposite sign; that is exact only when
the anchor is at the body's centre (the usual set-up).
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from engine.ode import checks
from engine.ode.constants import dJointTypePiston
from engine.ode.joints.anchors import (
    body_arrays,
    get_anchor1,
    get_anchor2,
    get_axis1,
    set_anchors,
    set_axes,
)
from engine.ode.joints.base import Joint, create_joint, joint_of
from engine.ode.joints.common import hinge_angle, initial_rel_rotation, world_axis1, world_axis2
from engine.ode.joints.layout import JF_REVERSE
from engine.ode.joints.limot import (
    LIMOT_BLOCK,
    LINEAR,
    LM_FMAX,
    LM_HI,
    LM_LIMIT,
    LM_LO,
    ROTATIONAL,
    add_limot,
    test_limit,
)
from engine.ode.joints.record import JointRecord
from engine.ode.kernels.detlinalg import matmul
from engine.ode.kernels.vec import cross3, dot3, mat_vec, plane_space

#: the piston's record, declared field by field (offsets in ``d``)
RECORD = JointRecord("Piston")
ANCHOR1 = RECORD.floats("anchor1", 3)            # body-0 frame (m)
ANCHOR2 = RECORD.floats("anchor2", 3)            # body-1 frame, or world (m)
AXIS1 = RECORD.floats("axis1", 3)                # body-0 frame
AXIS2 = RECORD.floats("axis2", 3)                # body-1 frame, or world
REL_ROTATION = RECORD.floats("rel_rotation", 4)  # body 0 -> body 1 at angle 0, w first
PRISMATIC_LIMOT = RECORD.block("prismatic_limot", LIMOT_BLOCK)  # dParamX (m)
ROTOIDE_LIMOT = RECORD.block("rotoide_limot", LIMOT_BLOCK)      # dParamX2 (rad)


class PistonJoint(Joint):
    TYPE = dJointTypePiston
    NAME = "Piston"
    LIMOTS = (PRISMATIC_LIMOT, ROTOIDE_LIMOT)
    __slots__ = ()

    def init_record(self) -> None:
        super().init_record()
        self.d[AXIS1] = 1.0
        self.d[AXIS2] = 1.0

    def set_relative_values(self) -> None:
        set_anchors(self, self.anchor(), ANCHOR1, ANCHOR2)
        set_axes(self, get_axis1(self, AXIS1), AXIS1, AXIS2, "dJointAttach")
        self.compute_qrel()

    def compute_qrel(self) -> None:
        b0, b1 = self.body_rows()
        if b0 >= 0:
            self.d[REL_ROTATION:REL_ROTATION + 4] = initial_rel_rotation(
                body_arrays(self.world), b0, b1)

    def anchor(self) -> np.ndarray:
        return get_anchor2(self, ANCHOR2) if self.reversed else get_anchor1(self, ANCHOR1)

    def anchor2(self) -> np.ndarray:
        return get_anchor1(self, ANCHOR1) if self.reversed else get_anchor2(self, ANCHOR2)

    def set_anchor_shifted(self, p: np.ndarray, shift: np.ndarray) -> None:
        """Set the anchor at world point p as if body 1 stood at its position + shift."""
        b0 = self.body_rows()[0]
        set_anchors(self, p, ANCHOR1, ANCHOR2)
        if b0 >= 0:
            s = self.world.bodies
            self.d[ANCHOR1:ANCHOR1 + 3] = matmul(s.R[b0].T, p - (s.pos[b0] + shift))
        self.compute_qrel()


# ----------------------------------------------------------------------------- kernels
@njit(cache=True, nogil=True)
def position(d, jf, b0, b1, bodies) -> float:
    """Prismatic position (m): axis · (anchor on body 1 - anchor on body 2),
    sign-corrected for a reversed one-body joint."""
    q = world_axis1(d, ANCHOR1, b0, bodies) + bodies.pos[b0]
    if b1 >= 0:
        q -= mat_vec(bodies.R[b1], d[ANCHOR2:ANCHOR2 + 3]) + bodies.pos[b1]
    else:
        q -= d[ANCHOR2:ANCHOR2 + 3]
        if (jf & JF_REVERSE) != 0:
            q = -q
    return dot3(world_axis1(d, AXIS1, b0, bodies), q)


@njit(cache=True, nogil=True)
def _test(d, off, value) -> None:
    """Limit test of a piston block: only when a stop is finite (both axes)."""
    lo = d[off + LM_LO]
    hi = d[off + LM_HI]
    d[off + LM_LIMIT] = 0.0
    if (lo > -math.inf or hi < math.inf) and lo <= hi:
        test_limit(d, off, value)


@njit(cache=True, nogil=True)
def info1(d, di, jf, b0, b1, bodies, wp):
    m = 4
    _test(d, PRISMATIC_LIMOT, position(d, jf, b0, b1, bodies))
    if d[PRISMATIC_LIMOT + LM_LIMIT] != 0 or d[PRISMATIC_LIMOT + LM_FMAX] > 0:
        m += 1
    # the angle is only computed when the rotoide axis has a finite stop
    lo = d[ROTOIDE_LIMOT + LM_LO]
    hi = d[ROTOIDE_LIMOT + LM_HI]
    d[ROTOIDE_LIMOT + LM_LIMIT] = 0.0
    if (lo > -math.inf or hi < math.inf) and lo <= hi:
        test_limit(d, np.int64(ROTOIDE_LIMOT),
                   hinge_angle(bodies, b0, b1, d[AXIS1:AXIS1 + 3],
                               d[REL_ROTATION:REL_ROTATION + 4]))
    if d[ROTOIDE_LIMOT + LM_LIMIT] != 0 or d[ROTOIDE_LIMOT + LM_FMAX] > 0:
        m += 1
    return m, 4


@njit(cache=True, nogil=True)
def info2(d, di, jf, b0, b1, bodies, wp, rows, r):
    k = wp.fps * wp.erp
    J = rows.J
    c = rows.c
    pos0 = bodies.pos[b0]
    ax1 = world_axis1(d, AXIS1, b0, bodies)
    # dist: from body 1's centre to body 2's anchor (sign flipped for a
    # reversed one-body joint, as ODE does); lanchor2: that anchor from body 2
    lanchor2 = np.zeros(3)
    if b1 >= 0:
        lanchor2 = mat_vec(bodies.R[b1], d[ANCHOR2:ANCHOR2 + 3])
        dist = lanchor2 + bodies.pos[b1] - pos0
    elif (jf & JF_REVERSE) != 0:
        dist = pos0 - d[ANCHOR2:ANCHOR2 + 3]
    else:
        dist = d[ANCHOR2:ANCHOR2 + 3] - pos0
    p, q = plane_space(ax1)
    # rows 0-1: equal angular velocities about p and q; the axes'
    # misalignment ax1 x ax2 (≈ the rotation needed) corrected by erp
    J[r, 3:6] = p
    J[r + 1, 3:6] = q
    if b1 >= 0:
        J[r, 9:12] = -p
        J[r + 1, 9:12] = -q
    b = cross3(ax1, world_axis2(d, AXIS2, b1, bodies))
    c[r] = k * dot3(p, b)
    c[r + 1] = k * dot3(q, b)
    # rows 2-3: u·(v0 + w0 x dist) = u·(v1 + w1 x lanchor2) for u = p, q;
    # u·(w x a) = w·(a x u) gives the angular parts
    J[r + 2, 0:3] = p
    J[r + 2, 3:6] = cross3(dist, p)
    J[r + 3, 0:3] = q
    J[r + 3, 3:6] = cross3(dist, q)
    if b1 >= 0:
        J[r + 2, 6:9] = -p
        J[r + 2, 9:12] = cross3(p, lanchor2)
        J[r + 3, 6:9] = -q
        J[r + 3, 9:12] = cross3(q, lanchor2)
    # positional error: body 2's anchor off body 1's sliding line
    err = dist - world_axis1(d, ANCHOR1, b0, bodies)
    c[r + 2] = k * dot3(p, err)
    c[r + 3] = k * dot3(q, err)
    axp = -ax1 if b1 < 0 and (jf & JF_REVERSE) != 0 else ax1
    n = r + 4
    n += add_limot(d, np.int64(PRISMATIC_LIMOT), b0, b1, bodies, wp, rows, n, axp, LINEAR)
    add_limot(d, np.int64(ROTOIDE_LIMOT), b0, b1, bodies, wp, rows, n, ax1, ROTATIONAL)


# ----------------------------------------------------------------------------- API
def _piston(j, fn: str) -> PistonJoint:
    return joint_of(j, fn, PistonJoint)


def dJointCreatePiston(w, group=None) -> PistonJoint:
    """A new piston joint (axis x in body 1's frame)."""
    return create_joint(PistonJoint, w, group, "dJointCreatePiston")


def dJointSetPistonAnchor(j, x: float, y: float, z: float) -> None:
    """Set the anchor (world, m); position 0 and angle 0 are the current pose."""
    fn = "dJointSetPistonAnchor"
    _piston(j, fn).set_anchor_shifted(checks.xyz(x, y, z, fn), np.zeros(3))


def dJointSetPistonAnchorOffset(j, x: float, y: float, z: float, dx: float, dy: float,
                                dz: float) -> None:
    """Set the anchor so that the position now reads axis · (dx, dy, dz) (m):
    as if body 1 stood at its position - (dx, dy, dz)."""
    fn = "dJointSetPistonAnchorOffset"
    joint = _piston(j, fn)
    delta = checks.xyz(dx, dy, dz, fn, "dx, dy, dz")
    if joint.reversed:
        delta = -delta
    joint.set_anchor_shifted(checks.xyz(x, y, z, fn), -delta)


def dJointSetPistonAxis(j, x: float, y: float, z: float) -> None:
    """Set the axis (world direction); the current pose becomes angle 0."""
    fn = "dJointSetPistonAxis"
    joint = _piston(j, fn)
    set_axes(joint, checks.xyz(x, y, z, fn), AXIS1, AXIS2, fn)
    joint.compute_qrel()


def dJointSetPistonAxisDelta(j, x: float, y: float, z: float, dx: float, dy: float,
                             dz: float) -> None:
    """Set the axis, then body 1's anchor offset to (body 1 - body 2 - (dx, dy, dz))
    (world, m; body 2 is the origin without body 2), as ODE does."""
    fn = "dJointSetPistonAxisDelta"
    joint = _piston(j, fn)
    axis = checks.xyz(x, y, z, fn)
    delta = checks.xyz(dx, dy, dz, fn, "dx, dy, dz")
    set_axes(joint, axis, AXIS1, AXIS2, fn)
    joint.compute_qrel()
    b0, b1 = joint.body_rows()
    if b0 < 0:
        return
    s = joint.world.bodies
    off = s.pos[b0] - s.pos[b1] - delta if b1 >= 0 else s.pos[b0] - delta
    joint.d[ANCHOR1:ANCHOR1 + 3] = matmul(s.R[b0].T, off)


def dJointGetPistonAnchor(j) -> np.ndarray:
    """The anchor on body 1 in world coordinates (3,)."""
    return _piston(j, "dJointGetPistonAnchor").anchor()


def dJointGetPistonAnchor2(j) -> np.ndarray:
    """The anchor on body 2 in world coordinates (3,)."""
    return _piston(j, "dJointGetPistonAnchor2").anchor2()


def dJointGetPistonAxis(j) -> np.ndarray:
    """The axis in world coordinates (3,)."""
    return get_axis1(_piston(j, "dJointGetPistonAxis"), AXIS1)


def dJointSetPistonParam(j, parameter: int, value: float) -> None:
    """dParamX: the sliding axis; dParamX2: the rotation about it."""
    _piston(j, "dJointSetPistonParam").set_param("dJointSetPistonParam", parameter, value)


def dJointGetPistonParam(j, parameter: int) -> float:
    return _piston(j, "dJointGetPistonParam").get_param("dJointGetPistonParam", parameter)


def dJointGetPistonPosition(j) -> float:
    """Prismatic extension (m), zero where the anchor was set."""
    joint = _piston(j, "dJointGetPistonPosition")
    b0, b1 = joint.body_rows()
    if b0 < 0:
        return 0.0
    return float(position(joint.d, joint.flags, b0, b1, body_arrays(joint.world)))


def dJointGetPistonPositionRate(j) -> float:
    """Time derivative of the position (m/s): axis · (v1 - v2)."""
    joint = _piston(j, "dJointGetPistonPositionRate")
    b0, b1 = joint.body_rows()
    if b0 < 0:
        return 0.0
    s = joint.world.bodies
    ax = get_axis1(joint, AXIS1)
    rate = float(matmul(ax, s.lvel[b0]))
    if b1 >= 0:
        return rate - float(matmul(ax, s.lvel[b1]))
    return -rate if joint.reversed else rate


def dJointGetPistonAngle(j) -> float:
    """Rotation about the axis (rad, -π..π), zero when anchor/axis were set."""
    joint = _piston(j, "dJointGetPistonAngle")
    b0, b1 = joint.body_rows()
    if b0 < 0:
        return 0.0
    d = joint.d
    a = float(hinge_angle(body_arrays(joint.world), b0, b1, d[AXIS1:AXIS1 + 3],
                          d[REL_ROTATION:REL_ROTATION + 4]))
    return -a if joint.reversed else a


def dJointGetPistonAngleRate(j) -> float:
    """Time derivative of the angle (rad/s)."""
    joint = _piston(j, "dJointGetPistonAngleRate")
    b0, b1 = joint.body_rows()
    if b0 < 0:
        return 0.0
    s = joint.world.bodies
    axis = get_axis1(joint, AXIS1)
    rate = float(matmul(axis, s.avel[b0]))
    if b1 >= 0:
        rate -= float(matmul(axis, s.avel[b1]))
    return -rate if joint.reversed else rate


def dJointAddPistonForce(j, force: float) -> None:
    """Force (N) along the axis on body 1 and the opposite on body 2, each
    applied at the anchor (so with the matching torques about the centres).

    Two deliberate departures from ODE 0.16.2, whose code has evident slips
    here: a (NULL, body) joint gets the force negated (ODE zeroes it), and
    body 2's torque is that of the force it receives (ODE's has the wrong sign).
    """
    fn = "dJointAddPistonForce"
    joint = _piston(j, fn)
    f = checks.real(force, fn, "force")
    b0, b1 = joint.body_rows()
    if b0 < 0:
        return
    if joint.reversed:
        f = -f
    s = joint.world.bodies
    F = get_axis1(joint, AXIS1) * f
    s.facc[b0] += F
    if b1 >= 0:
        s.facc[b1] -= F
        s.tacc[b0] += np.cross(matmul(s.R[b0], joint.d[ANCHOR1:ANCHOR1 + 3]), F)
        s.tacc[b1] += np.cross(matmul(s.R[b1], joint.d[ANCHOR2:ANCHOR2 + 3]), -F)
