"""Contact joints made in bulk (NativeCollider) behave as joints made one by one.

Their handles and body-list entries are made on demand
(``engine.ode.joints.bulk``); every flat-API query must show what
dJointCreateContact + dJointAttach per contact would have shown.
"""

from __future__ import annotations

import io

import numpy as np
import pytest

from engine import ode


def _surface() -> ode.dSurfaceParameters:
    return ode.dSurfaceParameters(mode=ode.dContactApprox1, mu=0.5)


def _stack():
    """A world with a plane and three bodies resting in contact: box A on the
    plane, box B on A, sphere C beside A touching it; a hinge joins B and C."""
    world = ode.dWorldCreate()
    space = ode.dSimpleSpaceCreate(None)
    ode.dCreatePlane(space, 0, 0, 1, 0)
    bodies, geoms = [], []
    for pos, make in (((0, 0, 0.049), lambda: ode.dCreateBox(space, 0.1, 0.1, 0.1)),
                      ((0, 0, 0.148), lambda: ode.dCreateBox(space, 0.1, 0.1, 0.1)),
                      ((0.099, 0, 0.05), lambda: ode.dCreateSphere(space, 0.05))):
        b = ode.dBodyCreate(world)
        ode.dBodySetPosition(b, *pos)
        g = make()
        ode.dGeomSetBody(g, b)
        bodies.append(b)
        geoms.append(g)
    hinge = ode.dJointCreateHinge(world, None)
    ode.dJointAttach(hinge, bodies[1], bodies[2])
    return world, space, bodies, geoms, hinge


def _one_by_one(world, group, space, maxc: int) -> None:
    def near(_data, o1, o2):
        b1, b2 = ode.dGeomGetBody(o1), ode.dGeomGetBody(o2)
        if b1 is not None and b2 is not None and ode.dAreConnectedExcluding(
                b1, b2, ode.dJointTypeContact):
            return
        for cg in ode.dCollide(o1, o2, maxc):
            j = ode.dJointCreateContact(world, group, ode.dContact(_surface(), cg))
            ode.dJointAttach(j, b1, b2)

    ode.dSpaceCollide(space, None, near)


@pytest.fixture
def twins():
    """(bulk side, one-by-one side): each (world, space, bodies, geoms, hinge, group)."""
    out = []
    for bulk in (True, False):
        world, space, bodies, geoms, hinge = _stack()
        group = ode.dJointGroupCreate(0)
        if bulk:
            ode.NativeCollider(world, group, 4, _surface()).collide(space)
        else:
            _one_by_one(world, group, space, 4)
        out.append((world, space, bodies, geoms, hinge, group))
    return out


def _joint_list(body) -> list[tuple[int, int]]:
    return [(j.index, ode.dJointGetType(j)) for j in
            (ode.dBodyGetJoint(body, i) for i in range(ode.dBodyGetNumJoints(body)))]


def test_connectivity_without_handles(twins):
    (w, _s, bodies, _g, _h, _grp), (_w2, _s2, bodies2, _g2, _h2, _grp2) = twins
    a, b, c = bodies
    # no contact joint has a handle yet
    assert w.joints.batches and not any(h is not None and h.TYPE == ode.dJointTypeContact
                                        for h in w.joints.handles[:w.joints.count])
    # contacts only (A-B, A-C): connected, but not once contacts are excluded
    for x, y in ((a, b), (b, a), (a, c)):
        assert ode.dAreConnected(x, y) == 1
        assert ode.dAreConnectedExcluding(x, y, ode.dJointTypeContact) == 0
        assert ode.dAreConnectedExcluding(x, y, ode.dJointTypeHinge) == 1
    # the hinge joins B and C
    assert ode.dAreConnectedExcluding(b, c, ode.dJointTypeContact) == 1
    assert ode.dAreConnectedExcluding(b, c, ode.dJointTypeHinge) == 0
    # the same answers as the twin made one by one, before any list was asked for
    a2, b2, c2 = bodies2
    for (x, y), (x2, y2) in zip(((a, b), (a, c), (b, c)), ((a2, b2), (a2, c2), (b2, c2)),
                                strict=True):
        assert ode.dAreConnected(x, y) == ode.dAreConnected(x2, y2)


def test_body_lists_match_one_by_one(twins):
    (w, _s, bodies, _g, _h, group), (w2, _s2, bodies2, _g2, _h2, group2) = twins
    assert w.joints.count == w2.joints.count
    for x, y in zip(bodies, bodies2, strict=True):
        assert _joint_list(x) == _joint_list(y)
    handles = group.joints
    assert [j.index for j in handles] == [j.index for j in group2.joints]
    for j, j2 in zip(handles, group2.joints, strict=True):
        assert j.alive and ode.dJointGetType(j) == ode.dJointTypeContact
        assert (j.g1.CLASS, j.g2.CLASS) == (j2.g1.CLASS, j2.g2.CLASS)
        assert ode.dJointGetBody(j, 0) is not None or ode.dJointGetBody(j, 1) is not None
    # a handle is made once: asking again gives the same object
    assert [id(j) for j in handles] == [id(j) for j in group.joints]


def test_group_empty_after_some_lists_were_asked(twins):
    (w, _s, bodies, _g, hinge, group), _ = twins
    a, b, c = bodies
    assert ode.dBodyGetNumJoints(a) > 0        # A's contacts join the lists now
    made = group.joints
    ode.dJointGroupEmpty(group)
    assert not any(j.alive for j in made)
    assert ode.dBodyGetNumJoints(a) == 0
    assert _joint_list(b) == [(hinge.index, ode.dJointTypeHinge)]
    assert _joint_list(c) == [(hinge.index, ode.dJointTypeHinge)]
    assert not w.joints.batches and (w.joints.bulk[:w.joints.count] == -1).all()


def test_reattached_batch_joint_moves_to_the_lists(twins):
    (_w, _s, bodies, _g, _h, group), _ = twins
    a, b, c = bodies
    j = group.joints[0]
    ode.dJointAttach(j, b, c)
    assert ode.dBodyGetJoint(b, 0) is j and ode.dBodyGetJoint(c, 0) is j
    assert j not in [ode.dBodyGetJoint(a, i) for i in range(ode.dBodyGetNumJoints(a))]
    ode.dJointGroupEmpty(group)
    assert not j.alive
    assert ode.dBodyGetNumJoints(b) == ode.dBodyGetNumJoints(c) == 1      # the hinge


def test_body_destroy_detaches_batch_joints(twins):
    (_w, _s, bodies, _g, _h, group), (_w2, _s2, bodies2, _g2, _h2, group2) = twins
    ode.dBodyDestroy(bodies[0])
    ode.dBodyDestroy(bodies2[0])
    for x, y in zip(bodies[1:], bodies2[1:], strict=True):
        assert _joint_list(x) == _joint_list(y)
    ode.dJointGroupEmpty(group)
    ode.dJointGroupEmpty(group2)
    for x in bodies[1:]:
        assert ode.dBodyGetNumJoints(x) == 1


def test_world_destroy_and_export_with_batch_joints(twins):
    (w, _s, _b, _g, _h, group), (w2, _s2, _b2, _g2, _h2, _group2) = twins
    out, out2 = io.StringIO(), io.StringIO()
    ode.dWorldExportDIF(w, out, "w")
    ode.dWorldExportDIF(w2, out2, "w")
    assert out.getvalue() == out2.getvalue() and "contact_joint" in out.getvalue()
    ode.dWorldDestroy(w)
    ode.dJointGroupEmpty(group)     # joints of a destroyed world: nothing left to do
    assert group.joints == []


def test_groupless_batch_joints_are_listed_at_once():
    world, space, bodies, _geoms, _hinge = _stack()
    made = ode.NativeCollider(world, None, 4, _surface()).collide(space)
    assert made > 0 and not world.joints.batches
    contacts = [j for b in bodies for j in (ode.dBodyGetJoint(b, i)
                for i in range(ode.dBodyGetNumJoints(b))) if ode.dJointGetType(j) == ode.dJointTypeContact]
    assert contacts and all(j.alive for j in contacts)
    ode.dJointDestroy(contacts[0])
    assert not contacts[0].alive


def test_freed_rows_are_clear_after_emptying_a_batch_group():
    """A contact batch's rows are cleared only up to the contact record's floats
    when its group empties: the rest of each row must still be zero, so every
    free row is all zeros (what dJointCreate* of any type relies on)."""
    world, space, bodies, _geoms, _hinge = _stack()
    ode.dWorldSetGravity(world, 0, 0, -9.81)
    group = ode.dJointGroupCreate(0)
    collider = ode.NativeCollider(world, group, 4, _surface())
    # a hinge destroyed first leaves a row with a full record behind for reuse
    extra = ode.dJointCreateHinge(world, None)
    ode.dJointAttach(extra, bodies[0], None)
    ode.dJointSetHingeAnchor(extra, 0.1, 0.2, 0.3)
    ode.dJointDestroy(extra)
    store = world.joints
    for _ in range(20):
        ode.dJointGroupEmpty(group)
        assert collider.collide(space) > 0
        ode.dWorldQuickStep(world, 0.01)
        free = np.array(store.free, dtype=np.int64)
        assert not store.data[free].any() and not store.lam[free].any()
    ode.dJointGroupEmpty(group)
    free = np.array(store.free, dtype=np.int64)
    assert free.size and not store.data[free].any() and not store.idata[free].any()
