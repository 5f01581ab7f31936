"""Null joint: it connects bodies but adds no rows."""

from __future__ import annotations

import numpy as np
import pytest

from engine import ode
from engine.ode.joints import null
from tests.engine.joints.setup_helpers import body_state, info1_counts, seeded_world, step_fn


def free_fall(with_joint: bool, quick: bool):
    w = seeded_world(ode, (0.3, -0.5, -9.81))
    b1 = ode.dBodyCreate(w)
    b2 = ode.dBodyCreate(w)
    ode.dBodySetPosition(b2, 1, 0, 0)
    ode.dBodySetLinearVel(b1, 1, 2, 3)
    ode.dBodySetAngularVel(b2, 0.4, -0.2, 1.0)
    j = None
    if with_joint:
        j = ode.dJointCreateNull(w, None)
        ode.dJointAttach(j, b1, b2)
    for _ in range(50):
        step_fn(quick)(w, 0.01)
    st = np.concatenate([body_state(ode, b) for b in (b1, b2)])
    return w, j, (b1, b2), st


def test_rows_and_type():
    w, j, (b1, b2), _ = free_fall(True, False)
    assert ode.dJointGetType(j) == ode.dJointTypeNull
    assert info1_counts(null, j) == (0, 0)
    assert ode.dJointGetNumBodies(j) == 2
    assert ode.dJointGetBody(j, 0) is b1 and ode.dJointGetBody(j, 1) is b2


@pytest.mark.parametrize("quick", [False, True])
def test_bodies_move_as_if_free(quick):
    *_, with_joint = free_fall(True, quick)
    *_, without = free_fall(False, quick)
    np.testing.assert_array_equal(with_joint, without)


def test_it_connects_bodies():
    w, j, (b1, b2), _ = free_fall(True, False)
    assert ode.dAreConnected(b1, b2) == 1
    assert ode.dAreConnectedExcluding(b1, b2, ode.dJointTypeNull) == 0
    assert ode.dConnectingJoint(b1, b2) is j


def test_feedback_is_zero():
    w = seeded_world(ode, (0, 0, -9.81))
    b = ode.dBodyCreate(w)
    j = ode.dJointCreateNull(w, None)
    ode.dJointAttach(j, b, None)
    # a second joint makes sure the island has rows
    h = ode.dJointCreateHinge(w, None)
    ode.dJointAttach(h, b, None)
    fb = ode.dJointFeedback()
    ode.dJointSetFeedback(j, fb)
    ode.dWorldStep(w, 0.01)
    for v in (fb.f1, fb.t1, fb.f2, fb.t2):
        np.testing.assert_array_equal(v, 0)


def test_errors():
    with pytest.raises(ode.ODEError, match="dJointCreateNull"):
        ode.dJointCreateNull(None, None)
    with pytest.raises(ode.ODEError, match="dJointCreateNull"):
        ode.dJointCreateNull(ode.dWorldCreate(), "group")
