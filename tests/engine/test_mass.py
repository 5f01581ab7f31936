"""Tests of engine.ode.mass (dMass and the dMass* functions).

Numbers marked "ODE 0.16.2" were produced by the real libode (double
precision) and are hard-coded here.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.ode.errors import ODEError
from engine.ode.mass import (
    dMass,
    dMassAdd,
    dMassAdjust,
    dMassCheck,
    dMassRotate,
    dMassSetBox,
    dMassSetBoxTotal,
    dMassSetCappedCylinder,
    dMassSetCappedCylinderTotal,
    dMassSetCapsule,
    dMassSetCapsuleTotal,
    dMassSetCylinder,
    dMassSetCylinderTotal,
    dMassSetParameters,
    dMassSetSphere,
    dMassSetSphereTotal,
    dMassSetZero,
    dMassTranslate,
)
from engine.ode.rotation import dRFromAxisAndAngle

pos = st.floats(0.05, 5.0, allow_nan=False)
coord = st.floats(-3.0, 3.0, allow_nan=False)
direction = st.integers(1, 3)


def I3(m: dMass) -> np.ndarray:
    return m.I.reshape(3, 4)[:, :3]


def flat(m: dMass) -> list[float]:
    return [m.mass, *m.c.tolist(), *m.I.tolist()]


def made(f, *args) -> dMass:
    m = dMass()
    f(m, *args)
    return m


# --------------------------------------------------------------------------- recorded ODE values
@pytest.mark.parametrize("f, args, expected", [
    # ODE 0.16.2: [mass, c (3), I (12)]
    (dMassSetCapsule, (2.0, 2, 0.3, 1.1),
     [0.8482300164692441, 0, 0, 0, 0.18127617929743822, 0, 0, 0, 0, 0.0361345987015898,
      0, 0, 0, 0, 0.18127617929743822, 0]),
    (dMassSetCapsuleTotal, (3.0, 1, 0.3, 1.1),
     [3.0, 0, 0, 0, 0.1278, 0, 0, 0, 0, 0.6411333333333332, 0, 0, 0, 0, 0.6411333333333332, 0]),
    (dMassSetCylinder, (2.0, 3, 0.4, 1.5),
     [1.5079644737231008, 0, 0, 0, 0.34306191777200545, 0, 0, 0, 0, 0.34306191777200545,
      0, 0, 0, 0, 0.1206371578978481, 0]),
    (dMassSetBox, (500.0, 0.2, 0.3, 0.5),
     [15.0, 0, 0, 0, 0.42499999999999993, 0, 0, 0, 0, 0.36250000000000004, 0, 0, 0, 0,
      0.1625, 0]),
    (dMassSetSphere, (1000.0, 0.25),
     [65.44984694978736, 0, 0, 0, 1.636246173744684, 0, 0, 0, 0, 1.636246173744684, 0, 0,
      0, 0, 1.636246173744684, 0]),
])
def test_shapes_match_ode(f, args, expected):
    np.testing.assert_allclose(flat(made(f, *args)), expected, rtol=1e-15, atol=0)


def test_transform_and_add_match_ode():
    m = made(dMassSetBoxTotal, 2.0, 1.0, 0.5, 0.25)
    dMassTranslate(m, 0.1, -0.2, 0.3)
    dMassRotate(m, dRFromAxisAndAngle(1, 1, 0, 0.5))
    m2 = made(dMassSetSphereTotal, 1.0, 0.3)
    dMassTranslate(m2, -0.5, 0, 0.2)
    dMassAdd(m, m2)
    # ODE 0.16.2
    expected = [3.0, -0.04444073392675375, -0.18889259940657957, 0.1743821691605322,
                0.3592822840677628, 0.09311991896939613, 0.08983357688388015, 0.0,
                0.09311991896939613, 0.6256445446601117, 0.08485670504191008, 0.0,
                0.08983357688388015, 0.08485670504191008, 0.7005731712721255, 0.0]
    np.testing.assert_allclose(flat(m), expected, rtol=1e-14, atol=1e-16)


def test_mass_check_matches_ode():
    # ODE 0.16.2: dMassCheck after dMassSetParameters -> 1, then a centre of
    # mass too far out for that inertia -> 0
    m = dMass()
    dMassSetParameters(m, 2, 0.1, 0.2, 0.3, 1, 2, 3, 0.1, 0.2, 0.3)
    assert dMassCheck(m) == 1
    np.testing.assert_array_equal(I3(m), [[1, 0.1, 0.2], [0.1, 2, 0.3], [0.2, 0.3, 3]])
    np.testing.assert_array_equal(m.c, [0.1, 0.2, 0.3])
    m.c = [5.0, 0.0, 0.0]
    assert dMassCheck(m) == 0
    with pytest.raises(ODEError, match="dMassSetParameters: argument 'cgx, cgy, cgz'"):
        dMassSetParameters(dMass(), 2, 5, 0, 0, 1, 2, 3, 0.1, 0.2, 0.3)
    assert dMassCheck(dMass()) == 0  # zero mass
    bad = dMass()
    bad.mass = 1.0
    bad.I = -np.eye(3)
    assert dMassCheck(bad) == 0


# --------------------------------------------------------------------------- the struct
def test_dmass_struct():
    m = dMass()
    assert m.mass == 0.0 and m.c.shape == (3,) and m.I.shape == (12,)
    assert not m.I.any() and not m.c.any()
    m.I = np.arange(9.0).reshape(3, 3)
    np.testing.assert_array_equal(m.I, [0, 1, 2, 0, 3, 4, 5, 0, 6, 7, 8, 0])
    m.I = list(range(9))
    np.testing.assert_array_equal(m.I, [0, 1, 2, 0, 3, 4, 5, 0, 6, 7, 8, 0])
    m.I = np.ones(12)
    assert m.I.shape == (12,)
    m.c = [1, 2, 3, 0]  # a padded dVector3
    np.testing.assert_array_equal(m.c, [1, 2, 3])
    with pytest.raises(ODEError):
        m.I = np.zeros(5)
    r = repr(made(dMassSetSphereTotal, 2.0, 1.0))
    assert r.startswith("dMass(mass=2.0") and "c=" in r and "I=" in r
    m2 = made(dMassSetBoxTotal, 1, 1, 2, 3)
    cp = m2.copy()
    cp.I[0] = 99.0
    assert m2.I[0] != 99.0
    dMassSetZero(m2)
    assert m2.mass == 0.0 and not m2.I.any() and not m2.c.any()


# --------------------------------------------------------------------------- closed forms
@settings(deadline=None)  # the first call may compile numba kernels
@given(pos, pos)
def test_sphere_closed_form(rho, r):
    m = made(dMassSetSphere, rho, r)
    mass = 4.0 / 3.0 * math.pi * r ** 3 * rho
    assert m.mass == pytest.approx(mass, rel=1e-14)
    np.testing.assert_allclose(I3(m), 0.4 * mass * r * r * np.eye(3), rtol=1e-14)
    t = made(dMassSetSphereTotal, 7.0, r)
    assert t.mass == 7.0
    np.testing.assert_allclose(I3(t), 0.4 * 7.0 * r * r * np.eye(3), rtol=1e-14)


@settings(deadline=None)  # the first call may compile numba kernels
@given(pos, pos, pos, pos)
def test_box_closed_form(rho, lx, ly, lz):
    m = made(dMassSetBox, rho, lx, ly, lz)
    mass = rho * lx * ly * lz
    assert m.mass == pytest.approx(mass, rel=1e-14)
    expected = mass / 12.0 * np.diag([ly ** 2 + lz ** 2, lx ** 2 + lz ** 2, lx ** 2 + ly ** 2])
    np.testing.assert_allclose(I3(m), expected, rtol=1e-13)
    np.testing.assert_array_equal(m.c, 0.0)
    t = made(dMassSetBoxTotal, 3.0, lx, ly, lz)
    assert t.mass == 3.0
    np.testing.assert_allclose(I3(t), expected * (3.0 / mass), rtol=1e-13)


@settings(deadline=None)  # the first call may compile numba kernels
@given(pos, direction, pos, pos)
def test_cylinder_closed_form(rho, d, r, length):
    m = made(dMassSetCylinder, rho, d, r, length)
    mass = rho * math.pi * r * r * length
    assert m.mass == pytest.approx(mass, rel=1e-14)
    diag = np.full(3, mass * (r * r / 4 + length ** 2 / 12))
    diag[d - 1] = mass * r * r / 2
    np.testing.assert_allclose(I3(m), np.diag(diag), rtol=1e-13)
    t = made(dMassSetCylinderTotal, 2.0, d, r, length)
    assert t.mass == 2.0
    np.testing.assert_allclose(I3(t), np.diag(diag) * (2.0 / mass), rtol=1e-13)


def capsule_by_slices(rho: float, r: float, length: float) -> tuple[float, float, float]:
    """(mass, I about the axis, I across) of a capsule along z by integrating
    thin discs numerically (independent of the closed form)."""
    half = length / 2 + r
    z = np.linspace(-half, half, 400_001)
    rad2 = np.where(np.abs(z) <= length / 2, r * r, r * r - (np.abs(z) - length / 2) ** 2)
    rad2 = np.clip(rad2, 0.0, None)
    dm = rho * math.pi * rad2  # mass per unit length
    mass = np.trapezoid(dm, z)
    along = np.trapezoid(dm * rad2 / 2, z)
    across = np.trapezoid(dm * (rad2 / 4 + z * z), z)
    return float(mass), float(along), float(across)


@settings(max_examples=20, deadline=None)
@given(pos, direction, st.floats(0.1, 2.0), st.floats(0.0, 3.0))
def test_capsule_against_integration(rho, d, r, length):
    m = made(dMassSetCapsule, rho, d, r, length)
    mass, along, across = capsule_by_slices(rho, r, length)
    assert m.mass == pytest.approx(mass, rel=1e-6)
    diag = np.full(3, across)
    diag[d - 1] = along
    np.testing.assert_allclose(I3(m), np.diag(diag), rtol=1e-6)
    t = made(dMassSetCapsuleTotal, 4.0, d, r, length)
    assert t.mass == pytest.approx(4.0, rel=1e-15)
    np.testing.assert_allclose(I3(t), np.diag(diag) * (4.0 / mass), rtol=1e-6)


def test_capped_cylinder_aliases():
    assert flat(made(dMassSetCappedCylinder, 2, 1, 0.3, 1)) == \
        flat(made(dMassSetCapsule, 2, 1, 0.3, 1))
    assert flat(made(dMassSetCappedCylinderTotal, 2, 3, 0.3, 1)) == \
        flat(made(dMassSetCapsuleTotal, 2, 3, 0.3, 1))


# --------------------------------------------------------------------------- transforms
@settings(deadline=None)  # the first call may compile numba kernels
@given(pos, pos, pos, coord, coord, coord)
def test_translate_round_trip_and_parallel_axis(lx, ly, lz, x, y, z):
    m = made(dMassSetBoxTotal, 2.0, lx, ly, lz)
    I0 = I3(m).copy()
    dMassTranslate(m, x, y, z)
    t = np.array([x, y, z])
    np.testing.assert_allclose(m.c, t, atol=1e-15)
    # parallel axis theorem: I + m (|t|^2 E - t t')
    np.testing.assert_allclose(I3(m), I0 + 2.0 * (t @ t * np.eye(3) - np.outer(t, t)),
                               atol=1e-12)
    np.testing.assert_array_equal(I3(m), I3(m).T)
    dMassTranslate(m, -x, -y, -z)
    np.testing.assert_allclose(m.c, 0.0, atol=1e-15)
    np.testing.assert_allclose(I3(m), I0, atol=1e-12)


@settings(deadline=None)  # the first call may compile numba kernels
@given(pos, pos, pos, coord, coord, coord, st.floats(-3, 3))
def test_rotate_round_trip(lx, ly, lz, ax, ay, az, angle):
    if ax * ax + ay * ay + az * az < 1e-3:
        return
    m = made(dMassSetBoxTotal, 1.5, lx, ly, lz)
    dMassTranslate(m, 0.3, -0.2, 0.1)
    before = (I3(m).copy(), m.c.copy())
    R = dRFromAxisAndAngle(ax, ay, az, angle)
    R3 = R.reshape(3, 4)[:, :3]
    dMassRotate(m, R)
    np.testing.assert_allclose(I3(m), R3 @ before[0] @ R3.T, atol=1e-12)
    np.testing.assert_allclose(m.c, R3 @ before[1], atol=1e-14)
    np.testing.assert_array_equal(I3(m), I3(m).T)
    dMassRotate(m, R3.T)  # a (3, 3) rotation is accepted
    np.testing.assert_allclose(I3(m), before[0], atol=1e-12)
    np.testing.assert_allclose(m.c, before[1], atol=1e-14)


@settings(deadline=None)  # the first call may compile numba kernels
@given(pos, pos, pos, pos)
def test_two_halves_make_the_box(mass, lx, ly, lz):
    whole = made(dMassSetBoxTotal, mass, lx, ly, lz)
    a = made(dMassSetBoxTotal, mass / 2, lx / 2, ly, lz)
    b = made(dMassSetBoxTotal, mass / 2, lx / 2, ly, lz)
    dMassTranslate(a, -lx / 4, 0, 0)
    dMassTranslate(b, lx / 4, 0, 0)
    dMassAdd(a, b)
    assert a.mass == pytest.approx(whole.mass, rel=1e-15)
    np.testing.assert_allclose(a.c, 0.0, atol=1e-14 * lx)
    np.testing.assert_allclose(I3(a), I3(whole), rtol=1e-12, atol=1e-14)


@settings(deadline=None)  # the first call may compile numba kernels
@given(pos, pos, st.floats(0.1, 10.0))
def test_adjust_scales_inertia(r, length, newmass):
    m = made(dMassSetCylinder, 3.0, 2, r, length)
    dMassTranslate(m, 0.5, 0.0, -0.25)
    I0, c0, m0 = I3(m).copy(), m.c.copy(), m.mass
    dMassAdjust(m, newmass)
    assert m.mass == newmass
    np.testing.assert_allclose(I3(m), I0 * (newmass / m0), rtol=1e-14)
    np.testing.assert_array_equal(m.c, c0)


def test_zero_mass_may_be_transformed():
    m = dMass()
    dMassTranslate(m, 1, 2, 3)  # allowed, as in ODE (no inertia to move)
    np.testing.assert_array_equal(m.c, [1, 2, 3])
    dMassRotate(m, dRFromAxisAndAngle(0, 0, 1, math.pi / 2))
    np.testing.assert_allclose(m.c, [-2, 1, 3], atol=1e-15)
    total = dMass()
    dMassAdd(total, made(dMassSetSphereTotal, 2.0, 1.0))
    assert total.mass == 2.0


# --------------------------------------------------------------------------- misuse
@pytest.mark.parametrize("call, match", [
    (lambda m: dMassSetSphere(m, -1.0, 1.0), "dMassSetSphere: argument 'density'"),
    (lambda m: dMassSetSphere(m, 1.0, -1.0), "dMassSetSphere: argument 'radius'"),
    (lambda m: dMassSetSphere(m, 1.0, 0.0), "dMassSetSphere: argument 'radius'"),
    (lambda m: dMassSetSphereTotal(m, 0.0, 1.0), "dMassSetSphereTotal: argument 'total_mass'"),
    (lambda m: dMassSetBox(m, 1.0, 1.0, -2.0, 1.0), "dMassSetBox: argument 'ly'"),
    (lambda m: dMassSetBoxTotal(m, float("nan"), 1, 1, 1), "argument 'total_mass'"),
    (lambda m: dMassSetCapsule(m, 1.0, 0, 1.0, 1.0), "dMassSetCapsule: argument 'direction'"),
    (lambda m: dMassSetCapsuleTotal(m, 1.0, 4, 1.0, 1.0), "argument 'direction'"),
    (lambda m: dMassSetCylinder(m, 1.0, 2, 1.0, -1.0), "dMassSetCylinder: argument 'length'"),
    (lambda m: dMassSetCylinderTotal(m, -3.0, 2, 1.0, 1.0), "argument 'total_mass'"),
    (lambda m: dMassSetParameters(m, 1, 0, 0, 0, 1, 1, -1, 0, 0, 0), "dMassSetParameters"),
    (lambda m: dMassSetParameters(m, 0, 0, 0, 0, 1, 1, 1, 0, 0, 0), "argument 'themass'"),
    (lambda m: dMassAdjust(m, 0.0), "dMassAdjust: argument 'newmass'"),
    (lambda m: dMassTranslate(m, float("inf"), 0, 0), "dMassTranslate: argument 'x'"),
    (lambda m: dMassRotate(m, [1, 0, 0]), "dMassRotate: argument 'R'"),
    (lambda m: dMassRotate(m, np.zeros(9)), "dMassRotate: argument 'R'"),
])
def test_misuse_raises_and_leaves_mass_unchanged(call, match):
    m = made(dMassSetBoxTotal, 2.0, 1.0, 2.0, 3.0)
    dMassTranslate(m, 0.1, 0.2, 0.3)
    before = flat(m)
    with pytest.raises(ODEError, match=match):
        call(m)
    assert flat(m) == before


def test_null_and_wrong_types():
    with pytest.raises(ODEError, match="dMassSetSphere: argument 'm'.*None"):
        dMassSetSphere(None, 1.0, 1.0)
    with pytest.raises(ODEError, match="dMassCheck"):
        dMassCheck("mass")
    with pytest.raises(ODEError, match="dMassAdd: argument 'b'"):
        dMassAdd(dMass(), None)
    with pytest.raises(ODEError, match="dMassAdd"):
        dMassAdd(dMass(), dMass())  # total mass zero
    with pytest.raises(ODEError, match="dMassAdjust"):
        dMassAdjust(dMass(), 1.0)  # cannot rescale a zero mass
