"""Null joint: connects bodies (for islands and dAreConnected) but adds no
constraint rows. It has no parameters: its declared record is empty."""

from __future__ import annotations

from numba import njit

from engine.ode.constants import dJointTypeNull
from engine.ode.joints.base import Joint, create_joint
from engine.ode.joints.record import JointRecord

#: the null joint's record: no fields
RECORD = JointRecord("Null")


class NullJoint(Joint):
    TYPE = dJointTypeNull
    NAME = "Null"
    __slots__ = ()


@njit(cache=True, nogil=True)
def info1(d, di, jf, b0, b1, bodies, wp):
    return 0, 0


@njit(cache=True, nogil=True)
def info2(d, di, jf, b0, b1, bodies, wp, rows, r):
    # never called: the joint asks for no rows
    return


def dJointCreateNull(w, group=None) -> NullJoint:
    """A new null joint in world ``w``."""
    return create_joint(NullJoint, w, group, "dJointCreateNull")
