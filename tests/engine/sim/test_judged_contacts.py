"""With a collide hook, the batched pass (the hook judges every pair, default
contacts in bulk for the pairs it leaves) makes exactly the per-pair path's
joints, in the same order, also when the hook makes joints of its own."""

from __future__ import annotations

import numpy as np

from engine import ode
from engine.ode.joints.layout import JF_FEEDBACK
from tests.engine.sim.helpers import make_sim
from tests.engine.sim.test_contact_batch import BODIES, FLOOR, PROPS

# test_contact_batch's bodies and a box of the "slippery" material, without its
# Group boundingObject (a nested space sends the pass down the per-pair path)
WORLD = FLOOR + """
DEF SLIPPERY Solid { translation 1 0 0.09 contactMaterial "slippery"
  boundingObject Box { size 0.2 0.2 0.2 } physics Physics { } }
""" + BODIES


def _sim(batched: bool):
    sim = make_sim(WORLD, PROPS)
    sim.record_contact_feedback = True
    sim._handler.batched = batched
    capsule = sim.model.record_of(sim.world.find_solid_by_def("CAPSULE"))
    cylinder = sim.model.record_of(sim.world.find_solid_by_def("CYLINDER"))
    surface = ode.dSurfaceParameters(mode=ode.dContactApprox1, mu=0.8)
    seen = []

    def hook(g1, g2) -> int:
        solids = (sim.model.geom_solid.get(g1), sim.model.geom_solid.get(g2))
        seen.append(tuple(r.label for r in solids))
        if capsule in solids:
            # the plugin makes this pair's contacts itself
            for cg in ode.dCollide(g1, g2, 3):
                j = ode.dJointCreateContact(sim.model.ode_world, sim.plugin_contact_group,
                                            ode.dContact(surface, cg))
                ode.dJointAttach(j, ode.dGeomGetBody(g1), ode.dGeomGetBody(g2))
            return 1
        return 2 if cylinder in solids else 0

    sim.collide_hook = hook
    return sim, seen


def _all_joints(sim) -> tuple:
    """Every joint row's records; the flags without JF_FEEDBACK (batched default
    contacts carry no dJointFeedback: decision 0010)."""
    store = sim.model.ode_world.joints
    n = store.count
    flags = store.flags[:n] & ~JF_FEEDBACK
    return (flags.tobytes(), *(getattr(store, name)[:n].tobytes() for name in
                               ("type", "body", "seq", "attach_seq", "data", "idata")))


def _state(sim) -> bytes:
    return b"".join(np.concatenate([ode.dBodyGetPosition(r.body), ode.dBodyGetQuaternion(r.body),
                                    ode.dBodyGetLinearVel(r.body),
                                    ode.dBodyGetAngularVel(r.body)]).tobytes()
                    for r in sim.model.bodies)


def test_judged_batch_equals_the_per_pair_path() -> None:
    (per_pair, seen1), (judged, seen2) = _sim(False), _sim(True)
    records: list = []
    # compare the joints right after the collision pass, before the step
    per_pair.after_collide = lambda: records.append(_all_joints(per_pair))
    judged.after_collide = lambda: records.append(_all_joints(judged))
    for step in range(25):
        records.clear()
        assert per_pair.step() and judged.step()
        assert records[0] == records[1], f"joints differ at step {step}"
        assert seen1 == seen2
        assert len(per_pair.colliding_geoms) == len(judged.colliding_geoms)
        assert [(c.solid1.label, c.solid2.label, c.depth) for c in per_pair.contacts] == \
            [(c.solid1.label, c.solid2.label, c.depth) for c in judged.contacts]
        assert _state(per_pair) == _state(judged)
    # default contacts, the hook's own joints and its colliding verdicts were all exercised
    assert judged.contacts and len(judged.plugin_contact_group.joints) == 0
    assert judged.colliding_geoms and any("CAPSULE" in a or "CAPSULE" in b for a, b in seen2)
