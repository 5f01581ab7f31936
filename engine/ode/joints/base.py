"""Joint handles and the dJoint* functions every joint type shares.

A :class:`Joint` is a thin handle over a row of the world's
:class:`~engine.ode.jointstore.JointStore`; each joint module subclasses it,
defines its record layout, its compiled ``info1``/``info2`` kernels (see
:mod:`engine.ode.joints.layout`) and its own dJoint*<Type>* functions.
"""

from __future__ import annotations

import numpy as np

from engine.ode import checks
from engine.ode.body import Body, body_of
from engine.ode.constants import dJointTypeNone, dParamGroup
from engine.ode.errors import ODEError
from engine.ode.joints.bulk import (
    NOT_BULK,
    JointBatch,
    adopt_body,
    joint_handle,
    pending_rows,
    retire_batch,
)
from engine.ode.joints.layout import (
    JD,
    JF_ALIVE,
    JF_ENABLED,
    JF_FEEDBACK,
    JF_IN_GROUP,
    JF_REVERSE,
)
from engine.ode.joints.limot import LM_SIZE, limot_get, limot_init, limot_set
from engine.ode.lifetime import note_destroyed
from engine.ode.structs import dJointFeedback
from engine.ode.world import TEARDOWN_JOINTS, World, register_teardown, world_of


class JointGroup:
    """A group of joints emptied (destroyed) together: ODE's dJointGroupID.

    ``members``: in creation order, each a :class:`Joint` made on its own or a
    :class:`~engine.ode.joints.bulk.JointBatch` of joints made together."""

    __slots__ = ("members", "alive")

    def __init__(self) -> None:
        self.members: list = []
        self.alive = True

    @property
    def joints(self) -> list[Joint]:
        """The group's live joints in creation order (batch joints get their
        handles now)."""
        out: list[Joint] = []
        for member in self.members:
            if isinstance(member, JointBatch):
                world = member.world
                out.extend(joint_handle(world, r) for r in member.live_rows().tolist())
            elif member.alive:
                out.append(member)
        return out


class Joint:
    """Base joint handle. Subclasses set ``TYPE``, ``NAME`` (the word in the
    dJoint*<NAME>* functions), ``LIMOTS`` (offsets of their limit/motor
    blocks in the record, one per parameter group) and override
    :meth:`init_record` and :meth:`set_relative_values`."""

    TYPE = dJointTypeNone
    NAME = "Joint"
    LIMOTS: tuple[int, ...] = ()
    TWO_BODIES = False

    __slots__ = ("world", "index", "group", "data", "feedback")

    def __init__(self, world: World, group: JointGroup | None) -> None:
        if world.before_joint_creation is not None:
            world.before_joint_creation()
        self.world = world
        self.index = world.joints.create(self.TYPE)
        world.joints.handles[self.index] = self
        self.group = group
        self.data = None
        self.feedback: dJointFeedback | None = None
        if group is not None:
            group.members.append(self)
            world.joints.flags[self.index] |= JF_IN_GROUP
        self.init_record()

    # -- record access --------------------------------------------------------
    @property
    def d(self) -> np.ndarray:
        """This joint's float record, float64[JD] (a live view)."""
        return self.world.joints.data[self.index]

    @property
    def di(self) -> np.ndarray:
        """This joint's int record, int64[JI] (a live view)."""
        return self.world.joints.idata[self.index]

    @property
    def flags(self) -> int:
        return int(self.world.joints.flags[self.index])

    @property
    def reversed(self) -> bool:
        """True when attached as (NULL, body): ODE then keeps the body in slot 0."""
        return bool(self.world.joints.flags[self.index] & JF_REVERSE)

    @property
    def alive(self) -> bool:
        return self.world.joints.handles[self.index] is self

    def body_rows(self) -> tuple[int, int]:
        """Internal (slot 0, slot 1) body rows, -1 for none."""
        b = self.world.joints.body[self.index]
        return int(b[0]), int(b[1])

    # -- per-type hooks -------------------------------------------------------
    def init_record(self) -> None:
        """Fill the record with the type's defaults (limots get ODE's init)."""
        for off in self.LIMOTS:
            limot_init(self.d, off, self.world.erp, self.world.cfm)

    def set_relative_values(self) -> None:
        """Re-express anchors/axes after (re)attachment; default: nothing."""

    # -- parameters -----------------------------------------------------------
    def set_param(self, function: str, parameter: int, value: float) -> None:
        """Set a dParam* value; the group (>> 8) selects the axis."""
        off, base = self._param_slot(function, parameter)
        v = checks.real_or_inf(value, function, "value")
        if not limot_set(self.d, off, base, v):
            self.set_extra_param(function, parameter, v)

    def get_param(self, function: str, parameter: int) -> float:
        off, base = self._param_slot(function, parameter)
        v = limot_get(self.d, off, base)
        return self.get_extra_param(function, parameter) if v is None else v

    def set_extra_param(self, function: str, parameter: int, value: float) -> None:
        """Non-limot parameters (suspension, ERP...); ignored unless overridden,
        as ODE ignores parameters a joint does not use."""

    def get_extra_param(self, function: str, parameter: int) -> float:
        return 0.0

    def _param_slot(self, function: str, parameter: int) -> tuple[int, int]:
        p = checks.integer(parameter, function, "parameter")
        group, base = divmod(p, dParamGroup)
        if not (0 <= base < 14) or not (0 <= group < max(len(self.LIMOTS), 1)):
            raise ODEError(function, "parameter",
                           f"unknown parameter {p:#x} for a {self.NAME} joint")
        if not self.LIMOTS:
            raise ODEError(function, "parameter", f"a {self.NAME} joint has no parameters")
        return self.LIMOTS[group], base

    def __repr__(self) -> str:
        state = "" if self.alive else " destroyed"
        return f"<{self.NAME}Joint {self.index}{state}>"


# ----------------------------------------------------------------------------- checks
def joint_of(j, function: str, cls: type | None = None, argument: str = "j") -> Joint:
    """``j`` checked to be a live joint (of class ``cls`` if given)."""
    if j is None:
        raise ODEError(function, argument, "must not be NULL (None)")
    if not isinstance(j, Joint):
        raise ODEError(function, argument, f"expected a dJointID, got {j!r}")
    if not j.alive:
        raise ODEError(function, argument, "the joint has been destroyed")
    if cls is not None and not isinstance(j, cls):
        raise ODEError(function, argument, f"expected a {cls.NAME} joint, got {j!r}")
    return j


def _group_of(group, function: str) -> JointGroup | None:
    if group is None:
        return None
    if not isinstance(group, JointGroup) or not group.alive:
        raise ODEError(function, "group", f"expected a live dJointGroupID or None, got {group!r}")
    return group


def create_joint(cls: type, w, group, function: str) -> Joint:
    """Common body of every dJointCreate*."""
    world = world_of(w, function)
    return cls(world, _group_of(group, function))


# ----------------------------------------------------------------------------- lifetime
def _unlink(world: World, row: int) -> None:
    """Remove joint row ``row`` from its bodies' joint lists."""
    store = world.joints
    if store.bulk[row] != NOT_BULK:
        # a batch row is in no list yet; from now on it is tracked by its handle
        store.bulk[row] = NOT_BULK
        return
    handle = store.handles[row]
    for b in store.body[row]:
        if b >= 0:
            lst = world.bodies.joint_lists[b]
            if handle in lst:
                lst.remove(handle)


def _destroy(joint: Joint) -> None:
    world = joint.world
    world.feedback_joints.pop(joint.index, None)
    _unlink(world, joint.index)
    world.joints.destroy(joint.index)


def dJointDestroy(j: Joint) -> None:
    """Destroy a joint (a joint in a group is destroyed with its group only)."""
    joint = joint_of(j, "dJointDestroy")
    if joint.world.joints.flags[joint.index] & JF_IN_GROUP:
        return
    _destroy(joint)


def dJointGroupCreate(max_size: int = 0) -> JointGroup:
    """A new joint group (``max_size`` is kept for compatibility; unused)."""
    checks.integer(max_size, "dJointGroupCreate", "max_size")
    return JointGroup()


def dJointGroupEmpty(group: JointGroup) -> None:
    """Destroy every joint of the group; the group stays usable."""
    g = _group_of(group, "dJointGroupEmpty")
    checks.not_none(g, "dJointGroupEmpty", "group")
    members = g.members
    if not members:
        return
    if all(type(member) is JointBatch and not member.has_handles for member in members):
        # the usual contact group: joints made in bulk that nobody asked a
        # handle for are in no body's joint list and have no feedback, so
        # freeing their rows is all there is to do (one compiled pass each)
        for member in members:
            if member.world.alive:
                member.world.joints.release_batch(member.rows, member.seq0,
                                                  member.record_floats)
                retire_batch(member)
        members.clear()
        return
    # the rows of each world in creation order (the free list's order follows),
    # how many record floats they may have written, whether any has a handle
    by_world: dict[int, tuple[World, list[np.ndarray], list[int], list[bool]]] = {}
    for member in members:
        world = member.world
        if not world.alive:
            continue
        if isinstance(member, JointBatch):
            rows = member.live_rows()
            floats = member.record_floats
            handles = member.has_handles
            retire_batch(member)
        elif member.alive:
            rows = np.array([member.index], dtype=np.int64)
            floats = JD
            handles = True
        else:
            continue    # destroyed some other way
        _world, parts, widths, made = by_world.setdefault(id(world), (world, [], [], []))
        parts.append(rows)
        widths.append(floats)
        made.append(handles)
    for world, parts, widths, made in by_world.values():
        idx = parts[0] if len(parts) == 1 else np.concatenate(parts)
        if idx.size:
            _destroy_rows(world, idx, max(widths), any(made))
    members.clear()


def _destroy_rows(world: World, idx: np.ndarray, floats: int = JD,
                  with_handles: bool = True) -> None:
    """Destroy joint rows ``idx`` (k,) int64 of one world: unlink those in
    body joint lists in one pass per body (the lists keep their order: the
    same result as unlinking one by one), drop their feedback, free the rows
    (``floats``: the record floats their joints may have written;
    ``with_handles`` False: none of them has a handle)."""
    store = world.joints
    listed = idx[store.bulk[idx] == NOT_BULK]
    attached = store.body[listed]
    attached = attached[attached >= 0]
    if attached.size:
        # per body: how many of its joints go; when that is all of them (the
        # usual case for contact groups) the list is simply emptied
        going = np.bincount(attached)
        touched = np.flatnonzero(going).tolist()
        going = going[touched].tolist()
        lists = world.bodies.joint_lists
        dead = None
        for b, k in zip(touched, going, strict=True):
            lst = lists[b]
            if len(lst) == k:
                lst.clear()
                continue
            if dead is None:
                handles = store.handles
                dead = {id(handles[r]) for r in listed.tolist()}
            lst[:] = [j for j in lst if id(j) not in dead]
    if world.feedback_joints:
        for i in idx.tolist():
            world.feedback_joints.pop(i, None)
    store.destroy_many(idx, floats, with_handles)


def dJointGroupDestroy(group: JointGroup) -> None:
    """Empty the group and destroy it."""
    dJointGroupEmpty(group)
    group.alive = False
    note_destroyed()


def destroy_all_joints(world: World) -> None:
    """Destroy every joint of a world (dWorldDestroy)."""
    store = world.joints
    for row in np.flatnonzero(store.flags[:store.count] & JF_ALIVE).tolist():
        joint = store.handles[row]
        if joint is not None:
            _destroy(joint)
        else:
            store.destroy(row)
    store.batches.clear()


register_teardown(TEARDOWN_JOINTS, destroy_all_joints)


# ----------------------------------------------------------------------------- attachment
def dJointAttach(j: Joint, body1: Body | None, body2: Body | None) -> None:
    """Attach the joint between two bodies; None is the static environment.

    As in ODE, attaching (None, b) stores b in slot 0 and marks the joint
    reversed, which flips the sign of angles, rates and feedback slots.
    """
    joint = joint_of(j, "dJointAttach")
    b1 = None if body1 is None else body_of(body1, "dJointAttach", "body1")
    b2 = None if body2 is None else body_of(body2, "dJointAttach", "body2")
    if b1 is not None and b1 is b2:
        raise ODEError("dJointAttach", "body2", "can't attach a joint between a body and itself")
    for b, name in ((b1, "body1"), (b2, "body2")):
        if b is not None and b.world is not joint.world:
            raise ODEError("dJointAttach", name, "joint and bodies must be in the same world")
    if joint.TWO_BODIES and (b1 is None) != (b2 is None):
        raise ODEError("dJointAttach", "body1", f"a {joint.NAME} joint needs two bodies")
    store = joint.world.joints
    i = joint.index
    _unlink(joint.world, i)
    if b1 is None:
        b1, b2 = b2, None
        store.flags[i] |= JF_REVERSE
    else:
        store.flags[i] &= ~JF_REVERSE
    store.body[i, 0] = -1 if b1 is None else b1.index
    store.body[i, 1] = -1 if b2 is None else b2.index
    store.attach_seq[i] = store.next_attach
    store.next_attach += 1
    for b in (b1, b2):
        if b is not None:
            joint.world.bodies.joint_lists[b.index].append(joint)
    if b1 is not None:
        joint.set_relative_values()


def dJointGetBody(j: Joint, index: int) -> Body | None:
    """Body ``index`` (0 or 1) as given to dJointAttach; None for the environment."""
    joint = joint_of(j, "dJointGetBody")
    k = checks.integer(index, "dJointGetBody", "index")
    if k not in (0, 1):
        raise ODEError("dJointGetBody", "index", f"must be 0 or 1, got {k}")
    if joint.reversed:
        k = 1 - k
    row = int(joint.world.joints.body[joint.index, k])
    return None if row < 0 else joint.world.bodies.handles[row]


def dJointGetNumBodies(j: Joint) -> int:
    joint = joint_of(j, "dJointGetNumBodies")
    return int(np.count_nonzero(joint.world.joints.body[joint.index] >= 0))


def dJointEnable(j: Joint) -> None:
    joint = joint_of(j, "dJointEnable")
    joint.world.joints.flags[joint.index] |= JF_ENABLED


def dJointDisable(j: Joint) -> None:
    joint = joint_of(j, "dJointDisable")
    joint.world.joints.flags[joint.index] &= ~JF_ENABLED


def dJointIsEnabled(j: Joint) -> int:
    joint = joint_of(j, "dJointIsEnabled")
    return int(bool(joint.world.joints.flags[joint.index] & JF_ENABLED))


def dJointGetType(j: Joint) -> int:
    return joint_of(j, "dJointGetType").TYPE


def dJointSetData(j: Joint, data) -> None:
    joint_of(j, "dJointSetData").data = data


def dJointGetData(j: Joint):
    return joint_of(j, "dJointGetData").data


def dJointSetFeedback(j: Joint, feedback: dJointFeedback | None) -> None:
    """Ask the step to write this joint's forces into ``feedback`` (None stops it)."""
    joint = joint_of(j, "dJointSetFeedback")
    if feedback is not None and not isinstance(feedback, dJointFeedback):
        raise ODEError("dJointSetFeedback", "feedback", f"expected a dJointFeedback, "
                       f"got {feedback!r}")
    joint.feedback = feedback
    store = joint.world.joints
    if feedback is None:
        store.flags[joint.index] &= ~JF_FEEDBACK
        joint.world.feedback_joints.pop(joint.index, None)
    else:
        store.flags[joint.index] |= JF_FEEDBACK
        joint.world.feedback_joints[joint.index] = joint


def dJointGetFeedback(j: Joint) -> dJointFeedback | None:
    return joint_of(j, "dJointGetFeedback").feedback


# ----------------------------------------------------------------------------- connectivity
def joints_of_body(body: Body) -> list[Joint]:
    """The body's joints, newest attachment first (ODE's list order)."""
    adopt_body(body.world, body.index)
    return body.world.bodies.joint_lists[body.index][::-1]


def _other(joint: Joint, body: Body) -> int:
    b = joint.world.joints.body[joint.index]
    return int(b[1]) if b[0] == body.index else int(b[0])


def dConnectingJoint(body1: Body, body2: Body | None) -> Joint | None:
    """A joint linking the two bodies (body2 None: to the environment), or None."""
    b1 = body_of(body1, "dConnectingJoint", "body1")
    target = -1 if body2 is None else body_of(body2, "dConnectingJoint", "body2").index
    for joint in joints_of_body(b1):
        if _other(joint, b1) == target:
            return joint
    return None


def dConnectingJointList(body1: Body, body2: Body | None) -> list[Joint]:
    """Every joint linking the two bodies."""
    b1 = body_of(body1, "dConnectingJointList", "body1")
    target = -1 if body2 is None else body_of(body2, "dConnectingJointList", "body2").index
    return [j for j in joints_of_body(b1) if _other(j, b1) == target]


def dAreConnected(body1: Body, body2: Body) -> int:
    """1 if a joint (enabled or not) links the two bodies."""
    b1 = body_of(body1, "dAreConnected", "body1")
    b2 = body_of(body2, "dAreConnected", "body2")
    if any(_other(j, b1) == b2.index for j in b1.world.bodies.joint_lists[b1.index]):
        return 1
    return int(_pending_link(b1, b2, None))


def dAreConnectedExcluding(body1: Body, body2: Body, joint_type: int) -> int:
    """1 if a joint not of type ``joint_type`` links the two bodies."""
    b1 = body_of(body1, "dAreConnectedExcluding", "body1")
    b2 = body_of(body2, "dAreConnectedExcluding", "body2")
    t = checks.integer(joint_type, "dAreConnectedExcluding", "joint_type")
    for joint in b1.world.bodies.joint_lists[b1.index]:
        if joint.TYPE != t and _other(joint, b1) == b2.index:
            return 1
    return int(_pending_link(b1, b2, t))


def _pending_link(b1: Body, b2: Body, excluded_type: int | None) -> bool:
    """True if a batch row not yet in the joint lists links b1 and b2 (and
    is not of ``excluded_type``)."""
    world = b1.world
    rows = pending_rows(world, b1.index)
    if rows.size == 0:
        return False
    store = world.joints
    links = (store.body[rows, 0] == b2.index) | (store.body[rows, 1] == b2.index)
    if excluded_type is not None:
        links &= store.type[rows] != excluded_type
    return bool(links.any())


__all__ = ["Joint", "JointGroup", "LM_SIZE", "joint_of", "create_joint"]
