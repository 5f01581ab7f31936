"""WorldInfo -> ODE world parameters."""

from __future__ import annotations

import numpy as np
import pytest

from engine import ode
from tests.engine.sim.helpers import make_sim


def test_defaults() -> None:
    sim = make_sim("")
    w = sim.model.ode_world
    assert np.allclose(ode.dWorldGetGravity(w), [0, 0, -9.81])
    assert ode.dWorldGetERP(w) == 0.2
    assert ode.dWorldGetCFM(w) == 1e-5
    assert sim.basic_time_step == 32.0 and sim.dt == pytest.approx(0.032)
    assert ode.dWorldGetAutoDisableFlag(w) == 1
    assert ode.dWorldGetAutoDisableTime(w) == 1.0
    assert ode.dWorldGetAutoDisableSteps(w) == 0
    assert sim.stepper == "step"


def test_fields_are_applied() -> None:
    sim = make_sim("", "gravity 3 ERP 0.4 CFM 0.001 basicTimeStep 8 physicsDisableTime 2 "
                   "physicsDisableLinearThreshold 0.2 physicsDisableAngularThreshold 0.3 "
                   'stepper "quickstep" randomSeed 42')
    w = sim.model.ode_world
    assert np.allclose(ode.dWorldGetGravity(w), [0, 0, -3])
    assert ode.dWorldGetERP(w) == 0.4
    assert ode.dWorldGetCFM(w) == 0.001
    assert sim.dt == pytest.approx(0.008)
    assert ode.dWorldGetAutoDisableTime(w) == 2.0
    assert ode.dWorldGetAutoDisableLinearThreshold(w) == pytest.approx(0.2)
    assert ode.dWorldGetAutoDisableAngularThreshold(w) == pytest.approx(0.3)
    assert sim.stepper == "quickstep"
    assert ode.dRandGetSeed() == 42


def test_out_of_range_values_are_reset_with_warnings() -> None:
    sim = make_sim("", "ERP 2 CFM -1 basicTimeStep 0")
    w = sim.model.ode_world
    assert ode.dWorldGetERP(w) == 0.2
    assert ode.dWorldGetCFM(w) == 1e-5
    assert sim.basic_time_step == 32.0
    texts = " ".join(t for _, t in sim.console.lines)
    assert "WorldInfo.ERP" in texts and "WorldInfo.CFM" in texts and "basicTimeStep" in texts


def test_nue_gravity_is_along_minus_y() -> None:
    sim = make_sim("", 'coordinateSystem "NUE"')
    assert np.allclose(ode.dWorldGetGravity(sim.model.ode_world), [0, -9.81, 0])


def test_negative_disable_time_turns_auto_disable_off() -> None:
    sim = make_sim("", "physicsDisableTime -1")
    assert ode.dWorldGetAutoDisableFlag(sim.model.ode_world) == 0


def test_stepper_override() -> None:
    sim = make_sim("", stepper="quickstep")
    assert sim.stepper == "quickstep"
