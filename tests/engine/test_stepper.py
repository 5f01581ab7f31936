"""Stepper-level behaviour: islands, joint groups, disabled joints, feedback,
QuickStep converging to dWorldStep, determinism across processes."""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest

from engine import ode
from tests.engine import scenes


def _pendulum(w, y, length=1.0):
    b = ode.dBodyCreate(w)
    m = ode.dMass()
    ode.dMassSetBoxTotal(m, 1.0, length, 0.05, 0.05)
    ode.dBodySetMass(b, m)
    ode.dBodySetPosition(b, length / 2, y, 0)
    j = ode.dJointCreateHinge(w, None)
    ode.dJointAttach(j, b, None)
    ode.dJointSetHingeAnchor(j, 0, y, 0)
    ode.dJointSetHingeAxis(j, 0, 1, 0)
    return b, j


def test_independent_islands_step_as_if_alone():
    """Two pendulums in one world move exactly as each alone (separate islands)."""
    alone = []
    for length in (1.0, 0.5):
        w = scenes.new_world()
        b, _ = _pendulum(w, 0.0, length)
        for _ in range(300):
            ode.dWorldStep(w, 0.001)
        alone.append(ode.dBodyGetPosition(b))
        ode.dWorldDestroy(w)
    w = scenes.new_world()
    b1, _ = _pendulum(w, 0.0, 1.0)
    b2, _ = _pendulum(w, 0.0, 0.5)
    for _ in range(300):
        ode.dWorldStep(w, 0.001)
    assert np.array_equal(ode.dBodyGetPosition(b1), alone[0])
    assert np.array_equal(ode.dBodyGetPosition(b2), alone[1])
    ode.dWorldDestroy(w)


def test_joint_group_empty_destroys_its_joints():
    w = scenes.new_world()
    group = ode.dJointGroupCreate(0)
    b = ode.dBodyCreate(w)
    joints = [ode.dJointCreateBall(w, group) for _ in range(3)]
    for j in joints:
        ode.dJointAttach(j, b, None)
    ode.dJointDestroy(joints[0])          # a grouped joint only dies with its group
    assert ode.dBodyGetNumJoints(b) == 3
    ode.dJointGroupEmpty(group)
    assert ode.dBodyGetNumJoints(b) == 0
    with pytest.raises(ode.ODEError, match="destroyed"):
        ode.dJointGetType(joints[1])
    again = ode.dJointCreateBall(w, group)          # the group is reusable
    ode.dJointGroupDestroy(group)
    assert not again.alive
    with pytest.raises(ode.ODEError, match="dJointCreateBall.*group"):
        ode.dJointCreateBall(w, group)
    ode.dWorldDestroy(w)


def test_disabled_joint_is_ignored_and_reenabled():
    w = scenes.new_world()
    b, j = _pendulum(w, 0.0)
    ode.dJointDisable(j)
    assert ode.dJointIsEnabled(j) == 0
    ode.dWorldStep(w, 0.1)
    assert ode.dBodyGetLinearVel(b)[2] == pytest.approx(-0.981)   # free fall
    ode.dJointEnable(j)
    assert ode.dJointIsEnabled(j) == 1
    ode.dWorldDestroy(w)


def test_feedback_of_a_two_body_joint_is_equal_and_opposite():
    w = scenes.new_world()
    # b hangs at rest below a, which hangs from the world
    a = ode.dBodyCreate(w)
    b = ode.dBodyCreate(w)
    ode.dBodySetPosition(b, 0, 0, -1)
    j0 = ode.dJointCreateBall(w, None)
    ode.dJointAttach(j0, a, None)
    j = ode.dJointCreateBall(w, None)
    ode.dJointAttach(j, a, b)
    ode.dJointSetBallAnchor(j, 0, 0, -0.5)
    fb = ode.dJointFeedback()
    ode.dJointSetFeedback(j, fb)
    assert ode.dJointGetFeedback(j) is fb
    ode.dWorldStep(w, 0.01)
    assert np.allclose(fb.f1, -fb.f2, atol=1e-12)
    assert fb.f2[2] == pytest.approx(9.81, rel=1e-6)    # holds b's weight (1 kg)
    ode.dJointSetFeedback(j, None)
    assert ode.dJointGetFeedback(j) is None
    ode.dWorldDestroy(w)


def _chain_end(quick, iterations):
    w = scenes.new_world(quick_iterations=iterations)
    ode.dWorldSetQuickStepW(w, 1.0)
    # a zig-zag chain of boxes with very different masses: a stiff problem for SOR
    bodies = []
    points = [(0.3 * i, 0.2 * (i % 2), 2 - 0.25 * i) for i in range(7)]
    for i in range(6):
        b = ode.dBodyCreate(w)
        m = ode.dMass()
        ode.dMassSetBoxTotal(m, 10.0 ** (i % 3 - 1), 0.3, 0.1, 0.05)
        ode.dBodySetMass(b, m)
        ode.dBodySetPosition(b, *np.mean([points[i], points[i + 1]], axis=0))
        bodies.append(b)
    prev = None
    for i, b in enumerate(bodies):
        j = ode.dJointCreateBall(w, None)
        ode.dJointAttach(j, b, prev)
        ode.dJointSetBallAnchor(j, *points[i])
        prev = b
    for _ in range(5):
        (ode.dWorldQuickStep if quick else ode.dWorldStep)(w, 0.01)
    out = ode.dBodyGetLinearVel(bodies[-1])
    ode.dWorldDestroy(w)
    return out


def test_quickstep_converges_to_world_step_as_iterations_grow():
    exact = _chain_end(False, 20)
    errors = [np.linalg.norm(_chain_end(True, n) - exact) for n in (2, 20, 200, 2000)]
    assert errors[0] > errors[1] > errors[2] > errors[3]
    assert errors[0] > 1e-3 * np.linalg.norm(exact)       # few iterations: visibly off
    assert errors[3] < 1e-6 * np.linalg.norm(exact)       # many: the exact solution


def test_bit_identical_in_two_processes():
    code = ("from tests.engine import scenes; import numpy as np, sys; "
            "t = scenes.chain(steps=200)['trajectory']; "
            "sys.stdout.write(t.tobytes().hex()[:4000] + str(hash(t.tobytes())))")
    runs = [subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                           env={"PYTHONHASHSEED": "0", **__import__("os").environ})
            for _ in range(2)]
    assert runs[0].returncode == 0, runs[0].stderr
    assert runs[0].stdout == runs[1].stdout
    here = scenes.chain(steps=200)["trajectory"]
    assert runs[0].stdout.startswith(here.tobytes().hex()[:4000])


def _stiff_chain_gap(warm: bool) -> float:
    w = scenes.new_world(quick_iterations=4)
    ode.dWorldSetQuickStepWarmStarting(w, warm)
    assert ode.dWorldGetQuickStepWarmStarting(w) == int(warm)
    prev = None
    bodies = []
    for i in range(15):
        b = ode.dBodyCreate(w)
        m = ode.dMass()
        ode.dMassSetSphereTotal(m, 1.0 if i < 14 else 50.0, 0.05)
        ode.dBodySetMass(b, m)
        ode.dBodySetPosition(b, 0, 0, -0.1 * (i + 1))
        j = ode.dJointCreateBall(w, None)
        ode.dJointAttach(j, b, prev)
        ode.dJointSetBallAnchor(j, 0, 0, -0.1 * i)
        bodies.append(b)
        prev = b
    # largest stretch of the chain under the heavy end mass (m): 0 when every joint holds
    stretch = 0.0
    for _ in range(300):
        ode.dWorldQuickStep(w, 0.01)
        stretch = max(stretch, abs(-ode.dBodyGetPosition(bodies[-1])[2] - 1.5))
    ode.dWorldDestroy(w)
    return stretch


def test_warm_starting_tightens_a_stiff_chain_with_few_iterations():
    cold = _stiff_chain_gap(False)
    warm = _stiff_chain_gap(True)
    assert cold > 0.01                 # 4 cold iterations cannot hold 50 kg on 1 kg links
    assert warm < 0.5 * cold
