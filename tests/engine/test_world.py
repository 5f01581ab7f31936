"""dWorld* functions: defaults, setters/getters, argument checks."""

from __future__ import annotations

import math

import numpy as np
import pytest

from engine import ode


@pytest.fixture
def w():
    world = ode.dWorldCreate()
    yield world
    ode.dWorldDestroy(world)


def test_defaults_are_ode_double_defaults(w):
    assert np.array_equal(ode.dWorldGetGravity(w), [0, 0, 0])
    assert ode.dWorldGetERP(w) == 0.2
    assert ode.dWorldGetCFM(w) == 1e-10
    assert ode.dWorldGetQuickStepNumIterations(w) == 20
    assert ode.dWorldGetQuickStepW(w) == 1.3
    assert ode.dWorldGetContactMaxCorrectingVel(w) == math.inf
    assert ode.dWorldGetContactSurfaceLayer(w) == 0.0
    assert ode.dWorldGetAutoDisableFlag(w) == 0
    assert ode.dWorldGetAutoDisableLinearThreshold(w) == 0.01
    assert ode.dWorldGetAutoDisableAngularThreshold(w) == 0.01
    assert ode.dWorldGetAutoDisableSteps(w) == 10
    assert ode.dWorldGetAutoDisableTime(w) == 0.0
    assert ode.dWorldGetAutoDisableAverageSamplesCount(w) == 1
    assert ode.dWorldGetLinearDamping(w) == 0.0
    assert ode.dWorldGetAngularDamping(w) == 0.0
    assert ode.dWorldGetLinearDampingThreshold(w) == 0.01
    assert ode.dWorldGetAngularDampingThreshold(w) == 0.01
    assert ode.dWorldGetMaxAngularSpeed(w) == math.inf


@pytest.mark.parametrize("setter,getter,value", [
    ("dWorldSetERP", "dWorldGetERP", 0.5),
    ("dWorldSetCFM", "dWorldGetCFM", 1e-5),
    ("dWorldSetQuickStepNumIterations", "dWorldGetQuickStepNumIterations", 50),
    ("dWorldSetQuickStepW", "dWorldGetQuickStepW", 1.0),
    ("dWorldSetContactMaxCorrectingVel", "dWorldGetContactMaxCorrectingVel", 0.5),
    ("dWorldSetContactSurfaceLayer", "dWorldGetContactSurfaceLayer", 0.001),
    ("dWorldSetAutoDisableFlag", "dWorldGetAutoDisableFlag", 1),
    ("dWorldSetAutoDisableLinearThreshold", "dWorldGetAutoDisableLinearThreshold", 0.2),
    ("dWorldSetAutoDisableAngularThreshold", "dWorldGetAutoDisableAngularThreshold", 0.3),
    ("dWorldSetAutoDisableSteps", "dWorldGetAutoDisableSteps", 7),
    ("dWorldSetAutoDisableTime", "dWorldGetAutoDisableTime", 1.5),
    ("dWorldSetAutoDisableAverageSamplesCount", "dWorldGetAutoDisableAverageSamplesCount", 4),
    ("dWorldSetLinearDamping", "dWorldGetLinearDamping", 0.01),
    ("dWorldSetAngularDamping", "dWorldGetAngularDamping", 0.02),
    ("dWorldSetLinearDampingThreshold", "dWorldGetLinearDampingThreshold", 0.1),
    ("dWorldSetAngularDampingThreshold", "dWorldGetAngularDampingThreshold", 0.2),
    ("dWorldSetMaxAngularSpeed", "dWorldGetMaxAngularSpeed", 12.0),
])
def test_set_get_round_trip(w, setter, getter, value):
    getattr(ode, setter)(w, value)
    assert getattr(ode, getter)(w) == value


def test_gravity_and_damping_pair(w):
    ode.dWorldSetGravity(w, 1, -2, 3)
    g = ode.dWorldGetGravity(w)
    assert g.shape == (3,) and g.dtype == np.float64 and list(g) == [1, -2, 3]
    g[0] = 99
    assert ode.dWorldGetGravity(w)[0] == 1   # a new array each time
    ode.dWorldSetDamping(w, 0.1, 0.2)
    assert (ode.dWorldGetLinearDamping(w), ode.dWorldGetAngularDamping(w)) == (0.1, 0.2)


def test_impulse_to_force(w):
    assert np.allclose(ode.dWorldImpulseToForce(w, 0.01, 1, 2, 3), [100, 200, 300])
    with pytest.raises(ode.ODEError, match="dWorldImpulseToForce.*stepsize"):
        ode.dWorldImpulseToForce(w, 0.0, 1, 2, 3)


@pytest.mark.parametrize("call,arg", [
    (lambda w: ode.dWorldSetGravity(w, math.nan, 0, 0), "x, y, z"),
    (lambda w: ode.dWorldSetERP(w, math.inf), "erp"),
    (lambda w: ode.dWorldSetCFM(w, "x"), "cfm"),
    (lambda w: ode.dWorldSetQuickStepNumIterations(w, -1), "num"),
    (lambda w: ode.dWorldStep(w, 0.0), "stepsize"),
    (lambda w: ode.dWorldQuickStep(w, math.nan), "stepsize"),
    (lambda w: ode.dWorldStep(w, -0.01), "stepsize"),
])
def test_misuse_names_function_and_argument(w, call, arg):
    with pytest.raises(ode.ODEError) as info:
        call(w)
    assert f"'{arg}'" in str(info.value)
    assert isinstance(info.value, ValueError)
    ode.dWorldStep(w, 0.01)      # the world is still usable


def test_null_and_destroyed_world_rejected():
    with pytest.raises(ode.ODEError, match="dWorldGetERP.*world"):
        ode.dWorldGetERP(None)
    w = ode.dWorldCreate()
    ode.dWorldDestroy(w)
    with pytest.raises(ode.ODEError, match="destroyed"):
        ode.dWorldStep(w, 0.01)


def test_destroy_world_destroys_bodies_and_joints():
    w = ode.dWorldCreate()
    b = ode.dBodyCreate(w)
    j = ode.dJointCreateBall(w, None)
    ode.dJointAttach(j, b, None)
    ode.dWorldDestroy(w)
    with pytest.raises(ode.ODEError):
        ode.dBodyGetPosition(b)
    with pytest.raises(ode.ODEError):
        ode.dJointGetType(j)


def test_new_bodies_take_world_defaults(w):
    ode.dWorldSetAutoDisableFlag(w, 1)
    ode.dWorldSetAutoDisableSteps(w, 3)
    ode.dWorldSetLinearDamping(w, 0.05)
    ode.dWorldSetMaxAngularSpeed(w, 4.0)
    b = ode.dBodyCreate(w)
    assert ode.dBodyGetAutoDisableFlag(b) == 1
    assert ode.dBodyGetAutoDisableSteps(b) == 3
    assert ode.dBodyGetLinearDamping(b) == 0.05
    assert ode.dBodyGetMaxAngularSpeed(b) == 4.0


def test_export_dif_writes_bodies_and_joints(w, tmp_path):
    b = ode.dBodyCreate(w)
    ode.dBodySetPosition(b, 1, 2, 3)
    j = ode.dJointCreateHinge(w, None)
    ode.dJointAttach(j, b, None)
    ode.dJointSetHingeAxis(j, 0, 0, 1)
    path = tmp_path / "w.dif"
    ode.dWorldExportDIF(w, str(path), "t_")
    text = path.read_text()
    assert "t_world = dynamics.world" in text
    assert "pos = {1.0,2.0,3.0}" in text
    assert "dynamics.hinge_joint" in text and "Axis = {0.0,0.0,1.0}" in text
