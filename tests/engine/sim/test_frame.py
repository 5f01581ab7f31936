"""The simulation's bulk-read API and its snapshot (engine/sim/frame.py):
every Solid's pose as arrays against closed-form compositions of a nested
Solid tree, the contacts as arrays, and the Frame built from them."""

from __future__ import annotations

import math

import numpy as np
import pytest

from engine import ode
from engine.sim.frame import NO_CONTACTS, ContactInfo, ContactSet, Frame, contact_set
from engine.sim.poses import Frame as Transform
from engine.sim.poses import solid_world_poses
from tests.engine.sim.helpers import make_sim

#: Static ROOT (turned 90 deg about z) > Pose > static MID > hinge > moving ARM,
#: which carries TIP (a Solid without physics: merged into ARM's body).
TREE = ("DEF ROOT Solid { translation 1 2 0.5 rotation 0 0 1 1.5707963267948966 children [ "
        "Pose { translation 0 0.5 0 children [ "
        "DEF MID Solid { translation 0.3 0 0 rotation 1 0 0 0.4 children [ "
        "HingeJoint { jointParameters HingeJointParameters { axis 0 1 0 } "
        "endPoint DEF ARM Solid { translation 0 0 -0.6 rotation 0 1 0 0.25 children [ "
        "DEF TIP Solid { translation 0.2 0 -0.1 rotation 0 0 1 -0.7 "
        "boundingObject Sphere { radius 0.02 } } ] "
        "boundingObject Box { size 0.1 0.1 0.1 } physics Physics { } } } ] "
        "name \"mid\" } ] } ] name \"root\" }")

BOX_ON_FLOOR = ("DEF FLOOR Solid { boundingObject Plane { } } "
                "DEF BOX Solid { translation 0 0 0.1 boundingObject Box { size 0.2 0.2 0.2 } "
                "physics Physics { density -1 mass 1 } }")


def rotation(axis: tuple[float, float, float], angle: float) -> np.ndarray:
    """(3, 3) rotation about a unit ``axis`` by ``angle`` [rad] (Rodrigues, closed form)."""
    k = np.asarray(axis, float)
    K = np.array([[0.0, -k[2], k[1]], [k[2], 0.0, -k[0]], [-k[1], k[0], 0.0]])
    return np.eye(3) + math.sin(angle) * K + (1.0 - math.cos(angle)) * (K @ K)


def pose(t: tuple[float, float, float], axis=(0.0, 0.0, 1.0), angle: float = 0.0) -> np.ndarray:
    """(4, 4) homogeneous transform of a translation ``t`` [m] and a rotation."""
    M = np.eye(4)
    M[:3, :3] = rotation(axis, angle)
    M[:3, 3] = t
    return M


def expected_tree() -> dict[str, np.ndarray]:
    """World (4, 4) transforms of TREE's Solids, composed by hand parent by parent."""
    root = pose((1, 2, 0.5), (0, 0, 1), math.pi / 2)
    mid = root @ pose((0, 0.5, 0)) @ pose((0.3, 0, 0), (1, 0, 0), 0.4)
    arm = mid @ pose((0, 0, -0.6), (0, 1, 0), 0.25)
    tip = arm @ pose((0.2, 0, -0.1), (0, 0, 1), -0.7)
    return {"ROOT": root, "MID": mid, "ARM": arm, "TIP": tip}


def rows_by_def(poses) -> dict[str, int]:
    return {node.def_name: i for i, node in enumerate(poses.nodes) if node.def_name}


def test_the_poses_of_a_nested_tree_are_the_closed_form_compositions() -> None:
    sim = make_sim(TREE, "gravity 0")
    poses = sim.solid_poses()
    rows = rows_by_def(poses)
    assert set(rows) == {"ROOT", "MID", "ARM", "TIP"} and len(poses.nodes) == 4
    assert poses.t.shape == (4, 3) and poses.R.shape == (4, 3, 3) and poses.v.shape == (4, 3)
    for name, M in expected_tree().items():
        np.testing.assert_allclose(poses.t[rows[name]], M[:3, 3], atol=1e-12)
        np.testing.assert_allclose(poses.R[rows[name]], M[:3, :3], atol=1e-12)
    assert poses.labels[rows["TIP"]] == "Solid (DEF TIP)"
    assert not (poses.t.flags.writeable or poses.R.flags.writeable or poses.v.flags.writeable)


def test_moving_a_body_moves_its_merged_solids_rigidly_and_not_the_static_ones() -> None:
    """ARM's body is put at T * (its pose): ARM and TIP (merged into it) move by T
    in closed form; ROOT and MID stay; the Solids' origins move at the body's
    point velocity v + w x (p - com)."""
    sim = make_sim(TREE, "gravity 0")
    before = sim.solid_poses()
    rows = rows_by_def(before)
    body = sim.body_from_def("ARM")
    T = pose((0.1, -0.2, 0.3), (0.6, 0.0, 0.8), 1.1)
    com = np.asarray(ode.dBodyGetPosition(body), float)
    R_body = np.asarray(ode.dBodyGetRotation(body)).reshape(3, 4)[:, :3]
    new_R = T[:3, :3] @ R_body
    new_com = T[:3, :3] @ com + T[:3, 3]
    ode.dBodySetPosition(body, *new_com)
    ode.dBodySetRotation(body, np.hstack([new_R, np.zeros((3, 1))]).reshape(12))
    lvel, avel = np.array([0.5, -1.0, 2.0]), np.array([3.0, 0.25, -1.5])
    ode.dBodySetLinearVel(body, *lvel)
    ode.dBodySetAngularVel(body, *avel)
    after = sim.solid_poses()
    assert after.nodes is before.nodes  # one tuple per model
    for name in ("ARM", "TIP"):
        i = rows[name]
        np.testing.assert_allclose(after.t[i], T[:3, :3] @ before.t[i] + T[:3, 3], atol=1e-12)
        np.testing.assert_allclose(after.R[i], T[:3, :3] @ before.R[i], atol=1e-12)
        np.testing.assert_allclose(after.v[i], lvel + np.cross(avel, after.t[i] - new_com),
                                   atol=1e-12)
    for name in ("ROOT", "MID"):
        i = rows[name]
        assert np.array_equal(after.t[i], before.t[i]) and np.array_equal(after.R[i],
                                                                          before.R[i])
        assert not after.v[i].any()


def test_solid_poses_are_the_bits_of_solid_world_frame_after_steps() -> None:
    sim = make_sim(TREE)  # gravity on: the arm swings
    for _ in range(20):
        sim.step()
    poses = sim.solid_poses()
    for i, rec in enumerate(sim.model.solids):
        world = sim.solid_world_frame(rec)
        assert np.array_equal(poses.t[i], world.t) and np.array_equal(poses.R[i], world.R)


def test_solid_world_poses_composes_body_then_offset() -> None:
    rng = np.random.default_rng(7)
    body_R = np.stack([rotation(a / np.linalg.norm(a), x) for a, x in
                       zip(rng.normal(size=(5, 3)), rng.uniform(-3, 3, 5), strict=True)])
    off_R = np.stack([rotation(a / np.linalg.norm(a), x) for a, x in
                      zip(rng.normal(size=(5, 3)), rng.uniform(-3, 3, 5), strict=True)])
    body_pos, off_t = rng.normal(size=(5, 3)), rng.normal(size=(5, 3))
    R, t = solid_world_poses(body_R, body_pos, off_R, off_t)
    np.testing.assert_allclose(R, body_R @ off_R, atol=1e-14)
    np.testing.assert_allclose(t, (body_R @ off_t[:, :, None])[:, :, 0] + body_pos, atol=1e-14)
    for k in range(5):  # the same bits as composing one Transform
        one = Transform(body_R[k], body_pos[k]).compose(Transform(off_R[k], off_t[k]))
        assert np.array_equal(R[k], one.R) and np.array_equal(t[k], one.t)


def test_contacts_as_arrays_with_their_forces() -> None:
    sim = make_sim(BOX_ON_FLOOR, "basicTimeStep 10")
    sim.record_contact_feedback = True
    for _ in range(100):
        sim.step()
    contacts = sim.contact_set()
    k = len(contacts)
    assert k >= 3
    assert contacts.pos.shape == (k, 3) and contacts.normal.shape == (k, 3)
    assert contacts.depth.shape == (k,) and contacts.force.shape == (k, 3)
    assert contacts.has_force.all() and not contacts.plugin.any()
    assert not (contacts.pos.flags.writeable or contacts.force.flags.writeable)
    box, floor = sim.world.find_by_def("BOX"), sim.world.find_by_def("FLOOR")
    assert {frozenset((a, b)) for a, b in zip(contacts.solid1, contacts.solid2,
                                               strict=True)} == {frozenset((box, floor))}
    np.testing.assert_allclose(np.abs(contacts.pos[:, 2]), 0.0, atol=2e-3)  # on the floor
    np.testing.assert_allclose(np.abs(contacts.normal[:, 2]), 1.0, atol=1e-9)
    # the force on the box (+ where it is Solid 1, - where Solid 2) carries its weight
    sign = np.array([1.0 if s is box else -1.0 for s in contacts.solid1])
    on_box = (contacts.force * sign[:, None]).sum(axis=0)
    np.testing.assert_allclose(on_box, [0.0, 0.0, 9.81], atol=0.05 * 9.81)
    pos, normal, depth = sim.contact_arrays()[:3]
    assert np.array_equal(contacts.pos, pos) and np.array_equal(contacts.normal, normal)
    assert np.array_equal(contacts.depth, depth)
    item = contacts[0]
    assert isinstance(item, ContactInfo) and np.array_equal(item.force, contacts.force[0])


def test_contacts_without_recorded_feedback_have_no_force() -> None:
    sim = make_sim(BOX_ON_FLOOR, "basicTimeStep 10")
    for _ in range(20):
        sim.step()
    contacts = sim.contact_set()
    assert len(contacts) and not contacts.has_force.any()
    assert np.isnan(contacts.force).all() and contacts[0].force is None


def test_no_contacts_before_a_step_and_contact_set_of_items() -> None:
    sim = make_sim(BOX_ON_FLOOR)
    assert sim.contact_set() is NO_CONTACTS
    assert contact_set((np.zeros((0, 3)), np.zeros((0, 3)), np.zeros(0), None, [], []),
                       []) is NO_CONTACTS
    a, b = object(), object()
    items = [ContactInfo(np.array([1.0, 2, 3]), np.array([0, 0, 1.0]), 0.01, None, a, b),
             ContactInfo(np.zeros(3), np.array([1.0, 0, 0]), 0.02, np.array([0, 0, 5.0]), b,
                         None, plugin=True)]
    contacts = ContactSet.of(items)
    assert isinstance(contacts, ContactSet) and len(contacts) == 2
    assert contacts.has_force.tolist() == [False, True]
    assert contacts.plugin.tolist() == [False, True]
    assert contacts.solid1 == (a, b) and contacts.solid2 == (b, None)
    assert contacts[1].force.tolist() == [0.0, 0.0, 5.0] and contacts[0].force is None
    assert ContactSet.of([]) is NO_CONTACTS


def test_frame_is_built_from_the_bulk_reads() -> None:
    sim = make_sim(BOX_ON_FLOOR, "basicTimeStep 10")
    sim.record_contact_feedback = True
    for _ in range(30):
        sim.step()
    frame = sim.frame(mode="fast", running=True, speed=2.0)
    poses = sim.solid_poses()
    assert isinstance(frame, Frame)
    assert (frame.time_ms, frame.steps, frame.speed) == (300.0, 30, 2.0)
    assert (frame.mode, frame.running, frame.paused, frame.pause_message) == (
        "fast", True, False, "")
    assert frame.pose_nodes is poses.nodes
    assert np.array_equal(frame.pose_t, poses.t) and np.array_equal(frame.pose_R, poses.R)
    assert np.array_equal(frame.pose_v, poses.v)
    for i, node in enumerate(frame.pose_nodes):
        assert np.array_equal(frame.poses[node][0], poses.t[i])
        assert np.array_equal(frame.poses[node][1], poses.R[i])
    with pytest.raises(TypeError):
        frame.poses[frame.pose_nodes[0]] = (np.zeros(3), np.eye(3))  # read-only view
    assert np.array_equal(frame.contacts.force, sim.contact_set().force)
    assert frame.colliding == frozenset()
    sim.pause("a reason")
    stopped = sim.frame(mode="fast", running=True, speed=2.0)
    assert (stopped.mode, stopped.running, stopped.paused, stopped.pause_message) == (
        "paused", False, True, "a reason")
    idle = sim.frame(mode="realtime", running=False, speed=0.0)
    assert idle.mode == "paused" and idle.paused and not idle.running
