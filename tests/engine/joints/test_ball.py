"""Ball joint: anchors, rows, ERP/CFM parameters, re-setting the anchor is a no-op."""

from __future__ import annotations

import numpy as np
import pytest

from engine import ode


def _body(w, pos):
    b = ode.dBodyCreate(w)
    m = ode.dMass()
    ode.dMassSetSphereTotal(m, 1.0, 0.1)
    ode.dBodySetMass(b, m)
    ode.dBodySetPosition(b, *pos)
    return b


def test_anchor_follows_bodies_and_gap_closes():
    w = ode.dWorldCreate()
    ode.dWorldSetGravity(w, 0, 0, -9.81)
    b = _body(w, (1, 0, 0))
    j = ode.dJointCreateBall(w, None)
    ode.dJointAttach(j, b, None)
    ode.dJointSetBallAnchor(j, 0, 0, 0)
    assert np.allclose(ode.dJointGetBallAnchor(j), [0, 0, 0])
    for _ in range(500):
        ode.dWorldStep(w, 0.001)
    # anchor 1 (on the body) stays on anchor 2 (the world point)
    assert np.linalg.norm(ode.dJointGetBallAnchor(j) - ode.dJointGetBallAnchor2(j)) < 1e-4
    assert np.linalg.norm(ode.dBodyGetPosition(b)) == pytest.approx(1.0, abs=1e-4)
    ode.dWorldDestroy(w)


def test_resetting_anchor_to_its_value_changes_nothing():
    """ODE's joints/ball.cpp: two identical pairs of rotated bodies; re-setting
    one joint's anchor to its current value leaves the motion identical."""
    w = ode.dWorldCreate()
    ode.dWorldSetGravity(w, 0, 0, -9.81)
    pairs = []
    for k in range(2):
        a = _body(w, (0, 5 * k, 0))
        b = _body(w, (1, 5 * k, 0.2))
        for body, ang in ((a, 0.3), (b, -0.7)):
            ode.dBodySetRotation(body, ode.dRFromAxisAndAngle(1, 2, 3, ang))
        j = ode.dJointCreateBall(w, None)
        ode.dJointAttach(j, a, b)
        ode.dJointSetBallAnchor(j, 0.5, 5 * k, 0.1)
        pairs.append((a, b, j))
    for _ in range(4):
        ode.dWorldStep(w, 0.5)
    anchor = ode.dJointGetBallAnchor(pairs[1][2])
    ode.dJointSetBallAnchor(pairs[1][2], *anchor)
    for _ in range(4):
        ode.dWorldStep(w, 0.5)
    for k in (0, 1):
        q0 = ode.dBodyGetQuaternion(pairs[0][k])
        q1 = ode.dBodyGetQuaternion(pairs[1][k])
        assert np.allclose(q0, q1, atol=1e-10)
    ode.dWorldDestroy(w)


def test_erp_cfm_params_and_errors():
    w = ode.dWorldCreate()
    j = ode.dJointCreateBall(w, None)
    assert ode.dJointGetBallParam(j, ode.dParamERP) == 0.2
    assert ode.dJointGetBallParam(j, ode.dParamCFM) == 1e-10
    ode.dJointSetBallParam(j, ode.dParamCFM, 1e-3)
    assert ode.dJointGetBallParam(j, ode.dParamCFM) == 1e-3
    with pytest.raises(ode.ODEError, match="dJointSetBallParam.*parameter"):
        ode.dJointSetBallParam(j, ode.dParamVel, 1.0)
    with pytest.raises(ode.ODEError, match="dJointSetBallAnchor.*x, y, z"):
        ode.dJointSetBallAnchor(j, float("nan"), 0, 0)
    ode.dWorldDestroy(w)


def test_soft_ball_sags_by_cfm():
    """A ball joint with CFM acts as a spring of stiffness k = ERP / (h CFM)."""
    h = 0.01
    w = ode.dWorldCreate()
    ode.dWorldSetGravity(w, 0, 0, -10)
    b = _body(w, (0, 0, 0))
    j = ode.dJointCreateBall(w, None)
    ode.dJointAttach(j, b, None)
    ode.dJointSetBallAnchor(j, 0, 0, 0)
    ode.dJointSetBallParam(j, ode.dParamCFM, 1e-4)
    ode.dJointSetBallParam(j, ode.dParamERP, 0.5)
    for _ in range(2000):
        ode.dWorldStep(w, h)
    # at rest the row's velocity c - cfm·λ is 0 with c = erp·z_err/h and λ = m g:
    # z_err = cfm·m·g·h / erp
    assert ode.dBodyGetPosition(b)[2] == pytest.approx(-1e-4 * 10 * h / 0.5, rel=1e-6)
    ode.dWorldDestroy(w)
