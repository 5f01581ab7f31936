"""Joint axis setters at the edge of double precision (decision 0014).

A component above ~1.3e154 used to overflow the squared length: the axis
was stored as zeros or kept unnormalised and every later step failed with
ZeroDivisionError. Such axes are now normalised by their largest component
first (as ODE's dSafeNormalize3); the zero vector and non-finite components
are an ODEError naming the function and argument; ordinary axes are stored
bit for bit as before.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pytest

from engine import ode
from engine.ode.errors import ODEError

HUGE = 2e154    # squared: inf
TINY = 3e-170   # squared: 0


def _two_bodies():
    w = ode.dWorldCreate()
    ode.dWorldSetGravity(w, 0.0, 0.0, -9.81)
    bodies = []
    for x in (0.0, 1.0):
        b = ode.dBodyCreate(w)
        m = ode.dMass()
        ode.dMassSetBox(m, 1000.0, 0.2, 0.2, 0.2)
        ode.dBodySetMass(b, m)
        ode.dBodySetPosition(b, x, 0.0, 1.0)
        bodies.append(b)
    return w, bodies


# (create, setter name, getter name, one body only?) for each axis setter
SETTERS: list[tuple[Callable, str, str]] = [
    (ode.dJointCreateHinge, "dJointSetHingeAxis", "dJointGetHingeAxis"),
    (ode.dJointCreateSlider, "dJointSetSliderAxis", "dJointGetSliderAxis"),
    (ode.dJointCreateUniversal, "dJointSetUniversalAxis1", "dJointGetUniversalAxis1"),
    (ode.dJointCreateUniversal, "dJointSetUniversalAxis2", "dJointGetUniversalAxis2"),
    (ode.dJointCreatePiston, "dJointSetPistonAxis", "dJointGetPistonAxis"),
    (ode.dJointCreatePR, "dJointSetPRAxis1", "dJointGetPRAxis1"),
    (ode.dJointCreatePR, "dJointSetPRAxis2", "dJointGetPRAxis2"),
    (ode.dJointCreatePU, "dJointSetPUAxis1", "dJointGetPUAxis1"),
    (ode.dJointCreatePU, "dJointSetPUAxisP", "dJointGetPUAxisP"),
    (ode.dJointCreateHinge2, "dJointSetHinge2Axis1", "dJointGetHinge2Axis1"),
]


def _joint(create, static_second: bool):
    w, (b0, b1) = _two_bodies()
    j = create(w, None)
    ode.dJointAttach(j, b0, None if static_second else b1)
    return w, j


@pytest.mark.parametrize("create, setter, getter", SETTERS, ids=[s[1] for s in SETTERS])
@pytest.mark.parametrize("scale", [HUGE, TINY])
def test_axes_beyond_squared_range_are_normalised(create, setter, getter, scale) -> None:
    static = create is not ode.dJointCreateHinge2   # hinge-2 needs two bodies
    for one_body in ([True, False] if static else [False]):
        w, j = _joint(create, one_body)
        if create is ode.dJointCreateHinge2:
            # hinge-2's default axes are +x and +y: move axis 2 off the line of the
            # new axis 1 (+y) first
            ode.dJointSetHinge2Axis2(j, 0.0, 0.0, 1.0)
        getattr(ode, setter)(j, 0.0, scale, 0.0)
        axis = np.asarray(getattr(ode, getter)(j))
        assert np.allclose(axis, [0.0, 1.0, 0.0], atol=1e-12), (setter, one_body, axis)
        # the stored data stays finite and a step goes through
        ode.dWorldStep(w, 0.01)
        assert not np.isnan(j.d).any()  # stops may be infinite, never NaN


@pytest.mark.parametrize("create, setter, getter", SETTERS, ids=[s[1] for s in SETTERS])
def test_zero_and_non_finite_axes_name_function_and_argument(create, setter, getter) -> None:
    _, j = _joint(create, False)
    for bad in ((0.0, 0.0, 0.0), (np.nan, 1.0, 0.0), (np.inf, 0.0, 0.0)):
        with pytest.raises(ODEError) as info:
            getattr(ode, setter)(j, *bad)
        assert str(info.value).startswith(f"{setter}: argument ")


def test_ordinary_axis_is_stored_bit_for_bit_as_before() -> None:
    """The plain path divides by the length: same bits as axis / |axis|."""
    w, j = _joint(ode.dJointCreateHinge, True)
    v = np.array([0.3, -1.7, 2.9])
    ode.dJointSetHingeAxis(j, *v)
    expected = v / np.sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2])
    assert np.array_equal(ode.dJointGetHingeAxis(j), expected)


def test_lmotor_and_amotor_take_huge_axes() -> None:
    w, (b0, b1) = _two_bodies()
    lm = ode.dJointCreateLMotor(w, None)
    ode.dJointAttach(lm, b0, b1)
    ode.dJointSetLMotorNumAxes(lm, 1)
    ode.dJointSetLMotorAxis(lm, 0, 0, HUGE, HUGE, 0.0)
    assert np.allclose(ode.dJointGetLMotorAxis(lm, 0), [2 ** -0.5, 2 ** -0.5, 0.0])
    am = ode.dJointCreateAMotor(w, None)
    ode.dJointAttach(am, b0, b1)
    ode.dJointSetAMotorNumAxes(am, 1)
    ode.dJointSetAMotorAxis(am, 0, 1, 0.0, 0.0, HUGE)
    assert np.allclose(ode.dJointGetAMotorAxis(am, 0), [0.0, 0.0, 1.0])
    ode.dWorldStep(w, 0.01)
    assert not np.isnan(lm.d).any() and not np.isnan(am.d).any()


@pytest.mark.parametrize("num", [1e300, 1e9, 100_001, -1, 2.5])
def test_absurd_quickstep_iterations_are_refused(num) -> None:
    w = ode.dWorldCreate()
    with pytest.raises(ODEError, match=r"^dWorldSetQuickStepNumIterations: argument 'num'"):
        ode.dWorldSetQuickStepNumIterations(w, num)
    assert ode.dWorldGetQuickStepNumIterations(w) == 20


def test_largest_quickstep_iteration_count_is_accepted() -> None:
    w = ode.dWorldCreate()
    ode.dWorldSetQuickStepNumIterations(w, 100_000)
    assert ode.dWorldGetQuickStepNumIterations(w) == 100_000
