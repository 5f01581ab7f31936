"""Compiled dispatch from a joint type to its info1/info2 kernels.

Each joint module defines ``info1(d, di, jf, b0, b1, bodies, wp) -> (m, nub)``
and ``info2(d, di, jf, b0, b1, bodies, wp, rows, r)``; see
:mod:`engine.ode.joints.layout`. Adding a joint type means one branch in
each function below.
"""

from __future__ import annotations

from numba import njit

from engine.ode.constants import dJointTypeBall, dJointTypeHinge

# @joint-imports (one import line per joint module goes right below)
from engine.ode.joints import (
    amotor,
    ball,
    contact,
    dball,
    dhinge,
    fixed,
    hinge,
    hinge2,
    lmotor,
    null,
    piston,
    plane2d,
    pr,
    pu,
    slider,
    transmission,
    universal,
)


@njit(cache=True, nogil=True)
def joint_info1(t, d, di, jf, b0, b1, bodies, wp):
    """(rows, unbounded rows) the joint of type ``t`` needs this step."""
    if t == dJointTypeBall:
        return ball.info1(d, di, jf, b0, b1, bodies, wp)
    if t == dJointTypeHinge:
        return hinge.info1(d, di, jf, b0, b1, bodies, wp)
    # @info1-branches (two lines per joint type go right below)
    if t == hinge2.dJointTypeHinge2:
        return hinge2.info1(d, di, jf, b0, b1, bodies, wp)
    if t == pr.dJointTypePR:
        return pr.info1(d, di, jf, b0, b1, bodies, wp)
    if t == pu.dJointTypePU:
        return pu.info1(d, di, jf, b0, b1, bodies, wp)
    if t == piston.dJointTypePiston:
        return piston.info1(d, di, jf, b0, b1, bodies, wp)
    if t == amotor.dJointTypeAMotor:
        return amotor.info1(d, di, jf, b0, b1, bodies, wp)
    if t == dball.dJointTypeDBall:
        return dball.info1(d, di, jf, b0, b1, bodies, wp)
    if t == dhinge.dJointTypeDHinge:
        return dhinge.info1(d, di, jf, b0, b1, bodies, wp)
    if t == transmission.dJointTypeTransmission:
        return transmission.info1(d, di, jf, b0, b1, bodies, wp)
    if t == slider.dJointTypeSlider:
        return slider.info1(d, di, jf, b0, b1, bodies, wp)
    if t == universal.dJointTypeUniversal:
        return universal.info1(d, di, jf, b0, b1, bodies, wp)
    if t == fixed.dJointTypeFixed:
        return fixed.info1(d, di, jf, b0, b1, bodies, wp)
    if t == plane2d.dJointTypePlane2D:
        return plane2d.info1(d, di, jf, b0, b1, bodies, wp)
    if t == null.dJointTypeNull:
        return null.info1(d, di, jf, b0, b1, bodies, wp)
    if t == lmotor.dJointTypeLMotor:
        return lmotor.info1(d, di, jf, b0, b1, bodies, wp)
    if t == contact.dJointTypeContact:
        return contact.info1(d, di, jf, b0, b1, bodies, wp)
    return 0, 0


@njit(cache=True, nogil=True)
def joint_info2(t, d, di, jf, b0, b1, bodies, wp, rows, r) -> None:
    """Fill the joint's rows starting at row ``r``."""
    if t == dJointTypeBall:
        ball.info2(d, di, jf, b0, b1, bodies, wp, rows, r)
    elif t == dJointTypeHinge:
        hinge.info2(d, di, jf, b0, b1, bodies, wp, rows, r)
    # @info2-branches (two lines per joint type go right below)
    if t == hinge2.dJointTypeHinge2:
        hinge2.info2(d, di, jf, b0, b1, bodies, wp, rows, r)
    if t == pr.dJointTypePR:
        pr.info2(d, di, jf, b0, b1, bodies, wp, rows, r)
    if t == pu.dJointTypePU:
        pu.info2(d, di, jf, b0, b1, bodies, wp, rows, r)
    if t == piston.dJointTypePiston:
        piston.info2(d, di, jf, b0, b1, bodies, wp, rows, r)
    if t == amotor.dJointTypeAMotor:
        amotor.info2(d, di, jf, b0, b1, bodies, wp, rows, r)
    if t == dball.dJointTypeDBall:
        dball.info2(d, di, jf, b0, b1, bodies, wp, rows, r)
    if t == dhinge.dJointTypeDHinge:
        dhinge.info2(d, di, jf, b0, b1, bodies, wp, rows, r)
    if t == transmission.dJointTypeTransmission:
        transmission.info2(d, di, jf, b0, b1, bodies, wp, rows, r)
    if t == slider.dJointTypeSlider:
        slider.info2(d, di, jf, b0, b1, bodies, wp, rows, r)
    if t == universal.dJointTypeUniversal:
        universal.info2(d, di, jf, b0, b1, bodies, wp, rows, r)
    if t == fixed.dJointTypeFixed:
        fixed.info2(d, di, jf, b0, b1, bodies, wp, rows, r)
    if t == plane2d.dJointTypePlane2D:
        plane2d.info2(d, di, jf, b0, b1, bodies, wp, rows, r)
    if t == null.dJointTypeNull:
        null.info2(d, di, jf, b0, b1, bodies, wp, rows, r)
    if t == lmotor.dJointTypeLMotor:
        lmotor.info2(d, di, jf, b0, b1, bodies, wp, rows, r)
    if t == contact.dJointTypeContact:
        contact.info2(d, di, jf, b0, b1, bodies, wp, rows, r)
