"""Slider (prismatic) joint: the bodies keep their relative rotation and may
only translate along one axis, with a limit/motor along it.

Record (``RECORD``, declared below; float ``d``):

- ``axis1`` (3): the slider axis, unit, in body 0's frame;
- ``rel_rotation`` (4): relative rotation body 0 -> body 1 (or the inverse
  of body 0's rotation with no body 1) at attachment, w-first;
- ``offset`` (3): with body 1, body 0's centre relative to body 1's, in
  body 1's frame (m); without, body 0's centre in world coordinates (m)
  at the zero position;
- ``limot``: a limit/motor block (:mod:`engine.ode.joints.limot`, linear,
  metres).

The position is measured along the world axis from body 1's offset point to
body 0's centre, so it grows when body 0 moves along the axis. With one
body attached as (None, b) ODE flips the axis, so the position grows when
that body moves against the axis.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from engine.ode import checks
from engine.ode.constants import dJointTypeSlider
from engine.ode.joints.anchors import body_arrays, get_axis1, set_axes
from engine.ode.joints.base import Joint, create_joint, joint_of
from engine.ode.joints.common import initial_rel_rotation, set_fixed_orientation, world_axis1
from engine.ode.joints.layout import JF_REVERSE
from engine.ode.joints.limot import (
    LIMOT_BLOCK,
    LINEAR,
    LM_FMAX,
    LM_HI,
    LM_LIMIT,
    LM_LO,
    add_limot,
    test_limit,
)
from engine.ode.joints.record import JointRecord
from engine.ode.kernels.detlinalg import matmul
from engine.ode.kernels.vec import cross3, dot3, mat_vec, plane_space

#: the slider's record, declared field by field (offsets in ``d``)
RECORD = JointRecord("Slider")
AXIS1 = RECORD.floats("axis1", 3)                # unit, body-0 frame
REL_ROTATION = RECORD.floats("rel_rotation", 4)  # body 0 -> body 1 (or world), w first
OFFSET = RECORD.floats("offset", 3)              # body 0's centre at the zero position (m)
LIMOT = RECORD.block("limot", LIMOT_BLOCK)       # limit/motor along the axis (m)


class SliderJoint(Joint):
    TYPE = dJointTypeSlider
    NAME = "Slider"
    LIMOTS = (LIMOT,)
    __slots__ = ()

    def init_record(self) -> None:
        super().init_record()
        self.d[AXIS1] = 1.0

    def set_relative_values(self) -> None:
        self.compute_offset()
        self.compute_qrel()

    def compute_offset(self) -> None:
        """Remember where body 0's centre sits relative to body 1 (or the world)."""
        b0, b1 = self.body_rows()
        s = self.world.bodies
        if b1 >= 0:
            self.d[OFFSET:OFFSET + 3] = matmul(s.R[b1].T, s.pos[b0] - s.pos[b1])
        elif b0 >= 0:
            self.d[OFFSET:OFFSET + 3] = s.pos[b0]

    def compute_qrel(self) -> None:
        b0, b1 = self.body_rows()
        if b0 >= 0:
            self.d[REL_ROTATION:REL_ROTATION + 4] = initial_rel_rotation(
                body_arrays(self.world), b0, b1)


@njit(cache=True, nogil=True)
def position(d, jf, b0, b1, bodies) -> float:
    """Slider position (m) along the axis, sign-corrected for reversal."""
    ax1 = world_axis1(d, AXIS1, b0, bodies)
    pos0 = bodies.pos[b0]
    if b1 >= 0:
        # body 0's centre relative to where it sat (in body 1's frame) at zero
        q = pos0 - mat_vec(bodies.R[b1], d[OFFSET:OFFSET + 3]) - bodies.pos[b1]
        return dot3(ax1, q)
    q = pos0 - d[OFFSET:OFFSET + 3]
    s = dot3(ax1, q)
    return -s if jf & JF_REVERSE else s


@njit(cache=True, nogil=True)
def info1(d, di, jf, b0, b1, bodies, wp):
    """5 rows (rotation locked, no sideways motion), 6 when powered or at a stop."""
    m = 6 if d[LIMOT + LM_FMAX] > 0 else 5
    d[LIMOT + LM_LIMIT] = 0.0
    lo = d[LIMOT + LM_LO]
    hi = d[LIMOT + LM_HI]
    if (lo > -math.inf or hi < math.inf) and lo <= hi:
        if test_limit(d, np.int64(LIMOT), position(d, jf, b0, b1, bodies)):
            m = 6
    return m, 5


@njit(cache=True, nogil=True)
def info2(d, di, jf, b0, b1, bodies, wp, rows, r):
    """Rows 0-2 rotation, 3-4 across the axis, 5 limit/motor along it (m, m/s)."""
    # rows 0-2: no relative rotation
    set_fixed_orientation(d[REL_ROTATION:REL_ROTATION + 4], b0, b1, bodies, wp, rows, r, wp.erp)
    ax1 = world_axis1(d, AXIS1, b0, bodies)
    p, q = plane_space(ax1)
    J = rows.J
    c = rows.c
    pos0 = bodies.pos[b0]
    k = wp.fps * wp.erp
    # rows 3-4: no relative translation across the axis (along p and q). With
    # two bodies, v1 = v0 + w0 x (x1 - x0); using (w0 + w1)/2 for w0 keeps the
    # rows symmetric, hence the half lever arm on both angular parts.
    J[r + 3, 0:3] = p
    J[r + 4, 0:3] = q
    if b1 >= 0:
        cc = bodies.pos[b1] - pos0
        J[r + 3, 6:9] = -p
        J[r + 4, 6:9] = -q
        hp = 0.5 * cross3(cc, p)
        hq = 0.5 * cross3(cc, q)
        J[r + 3, 3:6] = hp
        J[r + 3, 9:12] = hp
        J[r + 4, 3:6] = hq
        J[r + 4, 9:12] = hq
        # gap between body 0's centre and its place on body 1
        gap = cc + mat_vec(bodies.R[b1], d[OFFSET:OFFSET + 3])
    else:
        gap = d[OFFSET:OFFSET + 3] - pos0
        if jf & JF_REVERSE:
            ax1 = -ax1
    c[r + 3] = k * dot3(p, gap)
    c[r + 4] = k * dot3(q, gap)
    add_limot(d, np.int64(LIMOT), b0, b1, bodies, wp, rows, r + 5, ax1, LINEAR)


# ----------------------------------------------------------------------------- API
def _slider(j, fn: str) -> SliderJoint:
    return joint_of(j, fn, SliderJoint)


def dJointCreateSlider(w, group=None) -> SliderJoint:
    """A new slider joint in world ``w`` (axis +x until set)."""
    return create_joint(SliderJoint, w, group, "dJointCreateSlider")


def dJointSetSliderAxis(j, x: float, y: float, z: float) -> None:
    """Set the axis (world direction, any length); the current configuration
    becomes position 0."""
    fn = "dJointSetSliderAxis"
    joint = _slider(j, fn)
    set_axes(joint, checks.xyz(x, y, z, fn), AXIS1, None, fn)
    joint.compute_offset()
    joint.compute_qrel()


def dJointSetSliderAxisDelta(j, x: float, y: float, z: float,
                             dx: float, dy: float, dz: float) -> None:
    """Set the axis; with no body 1 the zero point is shifted by (dx, dy, dz) m,
    so the current position reads -(dx, dy, dz)·axis."""
    fn = "dJointSetSliderAxisDelta"
    joint = _slider(j, fn)
    axis = checks.xyz(x, y, z, fn)
    delta = checks.xyz(dx, dy, dz, fn, "dx, dy, dz")
    set_axes(joint, axis, AXIS1, None, fn)
    joint.compute_offset()
    if joint.body_rows()[1] < 0:
        joint.d[OFFSET:OFFSET + 3] += delta
    joint.compute_qrel()


def dJointGetSliderAxis(j) -> np.ndarray:
    """The axis in world coordinates, (3,) (zeros if not attached)."""
    return get_axis1(_slider(j, "dJointGetSliderAxis"), AXIS1)


def dJointGetSliderPosition(j) -> float:
    """Extension of the slider (m) since the axis was set (0 if unattached)."""
    joint = _slider(j, "dJointGetSliderPosition")
    b0, b1 = joint.body_rows()
    if b0 < 0:
        return 0.0
    return float(position(joint.d, joint.flags, b0, b1, body_arrays(joint.world)))


def dJointGetSliderPositionRate(j) -> float:
    """Time derivative of the position (m/s): body 0's velocity along the axis
    minus body 1's."""
    joint = _slider(j, "dJointGetSliderPositionRate")
    b0, b1 = joint.body_rows()
    if b0 < 0:
        return 0.0
    s = joint.world.bodies
    ax1 = matmul(s.R[b0], joint.d[AXIS1:AXIS1 + 3])
    rate = float(matmul(ax1, s.lvel[b0]))
    if b1 >= 0:
        return rate - float(matmul(ax1, s.lvel[b1]))
    return -rate if joint.reversed else rate


def dJointSetSliderParam(j, parameter: int, value: float) -> None:
    _slider(j, "dJointSetSliderParam").set_param("dJointSetSliderParam", parameter, value)


def dJointGetSliderParam(j, parameter: int) -> float:
    return _slider(j, "dJointGetSliderParam").get_param("dJointGetSliderParam", parameter)


def dJointAddSliderForce(j, force: float) -> None:
    """Push body 1 along the axis with ``force`` (N) and body 2 the other way.

    With two bodies the pair acts at the midpoint of the centres: each body
    also gets the torque (x2 - x1)/2 x F so the pair adds no angular momentum.
    """
    fn = "dJointAddSliderForce"
    joint = _slider(j, fn)
    f = checks.real(force, fn, "force")
    if joint.reversed:
        f = -f
    b0, b1 = joint.body_rows()
    if b0 < 0:
        return
    s = joint.world.bodies
    fv = get_axis1(joint, AXIS1) * f
    s.facc[b0] += fv
    if b1 >= 0:
        s.facc[b1] -= fv
        ltd = np.cross(0.5 * (s.pos[b1] - s.pos[b0]), fv)
        s.tacc[b0] += ltd
        s.tacc[b1] += ltd

