"""Compiled dispatch from a joint type to its info1/info2 kernels.

Each joint module defines ``info1(d, di, jf, b0, b1, B, wp) -> (m, nub)``
and ``info2(d, di, jf, b0, b1, B, wp, rows, r)``; see
:mod:`engine.ode.joints.layout`. Adding a joint type means one branch in
each function below.
"""

from __future__ import annotations

from numba import njit

from engine.ode.constants import dJointTypeBall, dJointTypeHinge
from engine.ode.joints import ball, hinge


@njit(cache=True, nogil=True)
def joint_info1(t, d, di, jf, b0, b1, B, wp):
    """(rows, unbounded rows) the joint of type ``t`` needs this step."""
    if t == dJointTypeBall:
        return ball.info1(d, di, jf, b0, b1, B, wp)
    if t == dJointTypeHinge:
        return hinge.info1(d, di, jf, b0, b1, B, wp)
    return 0, 0


@njit(cache=True, nogil=True)
def joint_info2(t, d, di, jf, b0, b1, B, wp, rows, r) -> None:
    """Fill the joint's rows starting at row ``r``."""
    if t == dJointTypeBall:
        ball.info2(d, di, jf, b0, b1, B, wp, rows, r)
    elif t == dJointTypeHinge:
        hinge.info2(d, di, jf, b0, b1, B, wp, rows, r)
