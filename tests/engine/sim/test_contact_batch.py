"""The batched default contacts make exactly the per-pair near callback's joints.

`ContactHandler` takes the batched pass when no collide hook is set; with
``batched = False`` it walks the pairs one by one (dSpaceCollide, dCollide,
dJointCreateContact, dJointAttach). Both are run on one world that has every
rule and surface case: ContactProperties with two friction coefficients (a
friction direction per contact), maxContactJoints trimming, a Group
boundingObject (a nested space), a mesh (a pair left to dCollide), a hinge
between overlapping Solids, a Robot without selfCollision and two
overlapping static Solids.
"""

from __future__ import annotations

import numpy as np
import pytest

from engine import ode
from engine.sim.contact_batch import ContactBatch
from tests.engine.sim.helpers import make_sim

PROPS = ('contactProperties [ ContactProperties { material1 "floor" material2 "rubber" '
         "coulombFriction [ 0.3 0.9 ] frictionRotation 0.2 0 bounce 0.2 maxContactJoints 2 } "
         'ContactProperties { material1 "floor" material2 "slippery" '
         "coulombFriction 0.1 forceDependentSlip [ 0.01 ] softCFM 0.0005 } ]")

#: the bodies both this test and test_judged_contacts use
BODIES = """
DEF TILTED Solid { translation 0 0 0.045 rotation 1 1 0 0.08 contactMaterial "rubber"
  boundingObject Box { size 0.3 0.3 0.1 } physics Physics { } }
DEF CAPSULE Solid { translation 0 1 0.09 rotation 0 1 0 1.5708
  boundingObject Capsule { radius 0.1 height 0.3 } physics Physics { } }
DEF CYLINDER Solid { translation 0 -1 0.09 boundingObject Cylinder { radius 0.1 height 0.2 }
  physics Physics { } }
DEF HINGED Solid { translation 1 1 0.2 boundingObject Sphere { radius 0.2 } physics Physics { }
  children [ HingeJoint { endPoint Solid { translation 0.1 0 0
    boundingObject Sphere { radius 0.2 } physics Physics { } } } ] }
Robot { translation -1 -1 0.3 selfCollision FALSE children [
  Solid { boundingObject Sphere { radius 0.2 } physics Physics { } }
  HingeJoint { endPoint Solid { translation 0.1 0 0 boundingObject Sphere { radius 0.2 }
    physics Physics { } } } ]
  boundingObject Box { size 0.1 0.1 0.1 } physics Physics { } }
"""

FLOOR = 'DEF FLOOR Solid { contactMaterial "floor" boundingObject Plane { size 10 10 } }\n'

WORLD = FLOOR + """
Solid { translation 3 3 0.2 boundingObject Box { size 1 1 1 } }
Solid { translation 3 3.2 0.2 boundingObject Sphere { radius 0.5 } }
DEF MESH Solid { translation -2 0 0 boundingObject IndexedFaceSet {
  coord Coordinate { point [ -1 -1 0.05  1 -1 0.05  1 1 0.05  -1 1 0.05 ] }
  coordIndex [ 0 1 2 -1 0 2 3 -1 ] } }
DEF GROUPED Solid { translation 1 0 0.09 contactMaterial "slippery"
  boundingObject Group { children [ Box { size 0.2 0.2 0.2 }
    Pose { translation 0.15 0 0 children [ Sphere { radius 0.1 } ] } ] }
  physics Physics { } }
DEF ON_MESH Solid { translation -2 0 0.14 boundingObject Sphere { radius 0.1 }
  physics Physics { } }
""" + BODIES


def _sim(batched: bool):
    sim = make_sim(WORLD, PROPS)
    sim.record_contact_feedback = True
    sim._handler.batched = batched
    return sim


def _joint_records(sim) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(data, mode, body rows) of the contact group's joints, in creation order."""
    store = sim.model.ode_world.joints
    rows = np.array([j.index for j in sim.contact_group.joints], dtype=np.int64)
    return store.data[rows], store.idata[rows, 0], store.body[rows]


def _state(sim) -> np.ndarray:
    return np.concatenate([np.concatenate([ode.dBodyGetPosition(r.body),
                                           ode.dBodyGetQuaternion(r.body),
                                           ode.dBodyGetLinearVel(r.body),
                                           ode.dBodyGetAngularVel(r.body)])
                           for r in sim.model.bodies])


def test_one_pass_makes_the_same_joint_records() -> None:
    batched, per_pair = _sim(True), _sim(False)
    batched._handler.run(0.0)
    per_pair._handler.run(0.0)
    assert isinstance(batched._handler._batch, ContactBatch)
    assert per_pair._handler._batch is None
    a, b = _joint_records(batched), _joint_records(per_pair)
    assert len(a[0]) > 10
    for x, y in zip(a, b, strict=True):
        assert np.array_equal(x, y)
    # the cases are there: trimmed pair, friction directions, a mesh contact
    assert any("keeping the deepest 2" in t for _, t in batched.console.lines)
    assert np.abs(a[0][:, 21:24]).sum() > 0.0
    pairs = [{c.solid1.node.def_name, c.solid2.node.def_name} for c in batched.contacts]
    assert {"MESH", "ON_MESH"} in pairs and {"GROUPED", "FLOOR"} in pairs

def test_contact_points_match() -> None:
    batched, per_pair = _sim(True), _sim(False)
    batched.step()
    per_pair.step()
    ca, cb = batched.contacts, per_pair.contacts
    assert len(ca) == len(cb) > 10
    for p, q in zip(ca, cb, strict=True):
        assert np.array_equal(p.pos, q.pos) and np.array_equal(p.normal, q.normal)
        assert p.depth == q.depth
        assert p.solid1 is not None and p.solid1.node is not None
        assert (p.solid1.node.path(), p.solid2.node.path()) == (q.solid1.node.path(),
                                                               q.solid2.node.path())
        for f in ("f1", "t1", "f2", "t2"):
            assert np.array_equal(getattr(p.feedback, f), getattr(q.feedback, f))
    assert any(np.abs(p.feedback.f1).sum() > 0.0 for p in ca)


@pytest.mark.parametrize("props", [PROPS, "plain"], ids=["friction directions", "one call"])
def test_trajectories_are_bit_identical(props: str) -> None:
    make = _plain_sim if props == "plain" else _sim
    batched, per_pair = make(True), make(False)
    for _ in range(120):
        batched.step()
        per_pair.step()
    assert np.array_equal(_state(batched), _state(per_pair))
    assert [t for _, t in batched.console.lines] == [t for _, t in per_pair.console.lines]


def test_contacts_listed_before_the_step_get_the_forces_after_it() -> None:
    sim = _sim(True)
    sim._handler.record_feedback = True
    sim._handler.run(0.0)
    listed = sim.contacts
    assert listed and all(np.array_equal(p.feedback.f1, np.zeros(3)) for p in listed)
    ode.dWorldStep(sim.model.ode_world, sim.dt)
    sim._handler.capture_forces()
    assert any(np.abs(p.feedback.f1).sum() > 0.0 for p in listed)


def test_a_collide_hook_takes_the_per_pair_path() -> None:
    sim = _sim(True)
    seen = []
    sim.collide_hook = lambda g1, g2: seen.append((g1, g2)) or 0
    sim.step()
    assert seen and sim._handler._batch is None and sim.contacts


@pytest.mark.parametrize("batched", [True, False])
def test_without_feedback_the_contacts_carry_none(batched: bool) -> None:
    sim = _sim(batched)
    sim.record_contact_feedback = False
    sim.step()
    assert sim.contacts and all(p.feedback is None for p in sim.contacts)


#: the same world with rules that need no friction direction: the rule lookup,
#: the choice of points and the joints are one compiled call
PLAIN_PROPS = ('contactProperties [ ContactProperties { material1 "floor" material2 "rubber" '
               "coulombFriction 0.3 bounce 0.2 maxContactJoints 2 } "
               'ContactProperties { material1 "floor" material2 "slippery" '
               "coulombFriction 0.1 forceDependentSlip [ 0.01 ] softCFM 0.0005 } ]")


def _plain_sim(batched: bool):
    sim = make_sim(WORLD, PLAIN_PROPS)
    sim.record_contact_feedback = True
    sim._handler.batched = batched
    return sim


def test_the_one_call_pass_makes_the_per_pair_joints(monkeypatch) -> None:
    import engine.sim.contact_batch as contact_batch

    made = []

    def spy(*args, **kwargs):
        result = real(*args, **kwargs)
        made.append(result)
        return result

    real = contact_batch.make_selected_joints
    monkeypatch.setattr(contact_batch, "make_selected_joints", spy)
    batched, per_pair = _plain_sim(True), _plain_sim(False)
    batched._handler.run(0.0)  # pairs met for the first time: decided, then made
    per_pair._handler.run(0.0)
    assert [m.known for m in made] == [False, True]
    assert made[0].owners.shape[0] > 0 and made[0].joint_rows.shape[0] == 0
    a, b = _joint_records(batched), _joint_records(per_pair)
    assert len(a[0]) > 10
    for x, y in zip(a, b, strict=True):
        assert np.array_equal(x, y)
    assert any("keeping the deepest 2" in t for _, t in batched.console.lines)
