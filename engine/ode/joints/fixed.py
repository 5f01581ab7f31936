"""Fixed joint: keeps the relative position and rotation of two bodies (or of
a body and the world) as they were at the last dJointSetFixed.

Record (``RECORD``, declared below; float ``d``): ``rel_rotation`` (4:
relative rotation body 0 -> body 1, or the inverse of body 0's rotation
with no body 1; w-first), ``offset`` (3: with body 1, body 0's centre minus
body 1's, in body 0's frame; without, body 0's centre in world coordinates;
m), ``erp`` and ``cfm`` (the
joint's own, used by the three position rows; the rotation rows use the
world's ERP and CFM, as in ODE 0.16.2).

As in ODE, attaching does not record anything: until dJointSetFixed is
called the reference rotation is the zero quaternion (no rotation
correction) and the offset zero (body 0 is pulled onto body 1's centre or
onto the world origin).
"""

from __future__ import annotations

from numba import njit

from engine.ode import checks
from engine.ode.constants import dJointTypeFixed, dParamCFM, dParamERP
from engine.ode.constants import dParamsInGroup as _N_PARAMS  # dParamLoStop .. dParamERP
from engine.ode.errors import ODEError
from engine.ode.joints.anchors import body_arrays
from engine.ode.joints.base import Joint, create_joint, joint_of
from engine.ode.joints.common import initial_rel_rotation, set_fixed_orientation
from engine.ode.joints.record import JointRecord
from engine.ode.kernels.detlinalg import matmul
from engine.ode.kernels.vec import mat_vec

#: the fixed joint's record, declared field by field (offsets in ``d``)
RECORD = JointRecord("Fixed")
REL_ROTATION = RECORD.floats("rel_rotation", 4)  # body 0 -> body 1 (or world), w first
OFFSET = RECORD.floats("offset", 3)              # body 0's centre from body 1's / world (m)
ERP = RECORD.floats("erp")                       # the joint's own ERP (dParamERP)
CFM = RECORD.floats("cfm")                       # the joint's own CFM (dParamCFM)


class FixedJoint(Joint):
    TYPE = dJointTypeFixed
    NAME = "Fixed"
    __slots__ = ()

    def init_record(self) -> None:
        self.d[ERP] = self.world.erp
        self.d[CFM] = self.world.cfm

    # The fixed joint's parameters are its ERP and CFM; other dParam* names
    # are ignored (get 0) as ODE does, numbers that are no dParam* are errors.
    def _slot(self, function: str, parameter: int) -> int | None:
        p = checks.integer(parameter, function, "parameter")
        if not 0 <= p < _N_PARAMS:
            raise ODEError(function, "parameter",
                           f"unknown parameter {p:#x} for a Fixed joint")
        return {dParamERP: ERP, dParamCFM: CFM}.get(p)

    def set_param(self, function: str, parameter: int, value: float) -> None:
        slot = self._slot(function, parameter)
        v = checks.real(value, function, "value")
        if slot is not None:
            self.d[slot] = v

    def get_param(self, function: str, parameter: int) -> float:
        slot = self._slot(function, parameter)
        return 0.0 if slot is None else float(self.d[slot])


@njit(cache=True, nogil=True)
def info1(d, di, jf, b0, b1, bodies, wp):
    """Always 6 unbounded rows."""
    return 6, 6


@njit(cache=True, nogil=True)
def info2(d, di, jf, b0, b1, bodies, wp, rows, r):
    """Rows 0-2 position (joint ERP/CFM), 3-5 rotation (world ERP/CFM)."""
    J = rows.J
    c = rows.c
    # rows 3-5: no relative rotation
    set_fixed_orientation(d[REL_ROTATION:REL_ROTATION + 4], b0, b1, bodies, wp, rows, r + 3, wp.erp)
    # rows 0-2: body 1's centre stays at -ofs from body 0's centre, i.e. the
    # point x0 - ofs of body 0 (velocity v0 + ofs x w0) moves with body 1
    for k in range(3):
        J[r + k, k] = 1.0
    kerp = wp.fps * d[ERP]
    pos0 = bodies.pos[b0]
    ofs = mat_vec(bodies.R[b0], d[OFFSET:OFFSET + 3])
    if b1 >= 0:
        # angular part of body 0: the cross-product matrix [ofs]x
        J[r, 4] = -ofs[2]
        J[r, 5] = ofs[1]
        J[r + 1, 3] = ofs[2]
        J[r + 1, 5] = -ofs[0]
        J[r + 2, 3] = -ofs[1]
        J[r + 2, 4] = ofs[0]
        pos1 = bodies.pos[b1]
        for k in range(3):
            J[r + k, 6 + k] = -1.0
            c[r + k] = kerp * (pos1[k] - pos0[k] + ofs[k])
    else:
        for k in range(3):
            c[r + k] = kerp * (d[OFFSET + k] - pos0[k])
    for k in range(3):
        rows.cfm[r + k] = d[CFM]


# ----------------------------------------------------------------------------- API
def _fixed(j, fn: str) -> FixedJoint:
    return joint_of(j, fn, FixedJoint)


def dJointCreateFixed(w, group=None) -> FixedJoint:
    """A new fixed joint; call dJointSetFixed after attaching it."""
    return create_joint(FixedJoint, w, group, "dJointCreateFixed")


def dJointSetFixed(j) -> None:
    """Remember the bodies' current relative offset and rotation as the ones to keep."""
    joint = _fixed(j, "dJointSetFixed")
    b0, b1 = joint.body_rows()
    if b0 < 0:
        return
    s = joint.world.bodies
    d = joint.d
    if b1 >= 0:
        d[OFFSET:OFFSET + 3] = matmul(s.R[b0].T, s.pos[b0] - s.pos[b1])
    else:
        d[OFFSET:OFFSET + 3] = s.pos[b0]
    d[REL_ROTATION:REL_ROTATION + 4] = initial_rel_rotation(body_arrays(joint.world), b0, b1)


def dJointSetFixedParam(j, parameter: int, value: float) -> None:
    """Set dParamERP or dParamCFM (other dParam* names are ignored)."""
    _fixed(j, "dJointSetFixedParam").set_param("dJointSetFixedParam", parameter, value)


def dJointGetFixedParam(j, parameter: int) -> float:
    """dParamERP or dParamCFM of the joint (0 for other dParam* names)."""
    return _fixed(j, "dJointGetFixedParam").get_param("dJointGetFixedParam", parameter)

