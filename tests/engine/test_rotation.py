"""Tests of engine.ode.rotation (the manual's rotation functions).

Numbers marked "ODE 0.16.2" were produced by the real libode (double
precision) through the team's ctypes harness and are hard-coded here.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.ode.errors import ODEError
from engine.ode.rotation import (
    R_to_q,
    as_rotation3,
    as_vector,
    dDQfromW,
    dQFromAxisAndAngle,
    dQfromR,
    dQMultiply0,
    dQMultiply1,
    dQMultiply2,
    dQMultiply3,
    dQSetIdentity,
    dQtoR,
    dRFrom2Axes,
    dRFromAxisAndAngle,
    dRFromEulerAngles,
    dRfromQ,
    dRFromZAxis,
    dRSetIdentity,
    dRtoQ,
    dWtoDQ,
    q_mul0,
    q_normalize,
    q_to_R,
    rotation12,
    w_to_dq,
)

TOL = 1e-15

finite = st.floats(-10.0, 10.0, allow_nan=False, allow_infinity=False)
angles = st.floats(-2 * math.pi, 2 * math.pi, allow_nan=False)
axes = st.tuples(finite, finite, finite).filter(lambda v: sum(x * x for x in v) > 1e-6)
quats = st.tuples(finite, finite, finite, finite).filter(lambda v: sum(x * x for x in v) > 1e-6)


def unit(q) -> np.ndarray:
    q = np.asarray(q, dtype=float)
    return q / np.linalg.norm(q)


def R3(R12: np.ndarray) -> np.ndarray:
    return np.asarray(R12).reshape(3, 4)[:, :3]


def conj(q) -> np.ndarray:
    q = np.array(q, dtype=float)
    q[1:] = -q[1:]
    return q


# --------------------------------------------------------------------------- recorded ODE values
def test_euler_angles_match_ode():
    # ODE 0.16.2: dRFromEulerAngles(0.1, 0.2, 0.3)
    expected = [0.9362933635841992, 0.28962947762551555, -0.19866933079506122, 0.0,
                -0.2750958473182437, 0.9564250858492325, 0.09784339500725571, 0.0,
                0.21835066314633444, -0.03695701352462508, 0.975170327201816, 0.0]
    np.testing.assert_allclose(dRFromEulerAngles(0.1, 0.2, 0.3), expected, rtol=0, atol=TOL)


def test_axis_angle_matches_ode():
    # ODE 0.16.2: dRFromAxisAndAngle(1, 2, 3, 0.7) and dQFromAxisAndAngle(0.3, -1, 0.5, 1.3)
    expected = [0.781639173907025, -0.4829292842142122, 0.3947397981737998, 0.0,
                0.5501172307043584, 0.8320301337746345, -0.07139249941787584, 0.0,
                -0.29395787843858057, 0.27295633888831433, 0.9160150668873173, 0.0]
    np.testing.assert_allclose(dRFromAxisAndAngle(1, 2, 3, 0.7), expected, rtol=0, atol=TOL)
    q = [0.7960837985490559, 0.1568404282519304, -0.5228014275064347, 0.26140071375321733]
    np.testing.assert_allclose(dQFromAxisAndAngle(0.3, -1, 0.5, 1.3), q, rtol=0, atol=TOL)


def test_two_axes_and_z_axis_match_ode():
    # ODE 0.16.2: dRFrom2Axes(1, 0.2, 0.1, 0.3, 1, 0.4), dRFromZAxis(0.2, -0.5, 1)
    two = [0.9759000729485331, -0.21731828379595783, -0.019794220040889016, 0.0,
           0.19518001458970663, 0.9098392148257436, -0.3661930707564471, 0.0,
           0.09759000729485331, 0.3535044083080915, 0.9303283419217844, 0.0]
    np.testing.assert_allclose(dRFrom2Axes(1, 0.2, 0.1, 0.3, 1, 0.4), two, rtol=0, atol=TOL)
    z = [0.0, 0.9843740386976974, 0.17609018126512477, 0.0,
         -0.894427190999916, 0.07874992309581579, -0.4402254531628119, 0.0,
         -0.447213595499958, -0.15749984619163157, 0.8804509063256238, 0.0]
    np.testing.assert_allclose(dRFromZAxis(0.2, -0.5, 1.0), z, rtol=0, atol=TOL)
    # the other branch of dPlaneSpace (|z| small)
    z2 = [-0.447213595499958, -0.15749984619163157, 0.8804509063256238, 0.0,
          0.894427190999916, -0.07874992309581579, 0.4402254531628119, 0.0,
          0.0, 0.9843740386976974, 0.17609018126512477, 0.0]
    np.testing.assert_allclose(dRFromZAxis(1.0, 0.5, 0.2), z2, rtol=0, atol=TOL)


def test_quaternion_products_match_ode():
    qa, qb = [0.5, 0.1, -0.7, 0.3], [-0.2, 0.9, 0.4, 0.1]
    # ODE 0.16.2
    expected = {
        dQMultiply0: [0.05999999999999997, 0.24, 0.6, 0.66],
        dQMultiply1: [-0.26, 0.66, -0.19999999999999998, -0.56],
        dQMultiply2: [-0.26, -0.28, -0.32000000000000006, -0.78],
        dQMultiply3: [0.05999999999999997, -0.62, -0.07999999999999996, 0.68],
    }
    for f, e in expected.items():
        np.testing.assert_allclose(f(qa, qb), e, rtol=0, atol=TOL, err_msg=f.__name__)


@pytest.mark.parametrize("R, q", [
    # ODE 0.16.2: each branch of dRtoQ (trace >= 0, then largest diagonal x, y, z)
    (dRFromAxisAndAngle(1, 2, 3, 0.7),
     [0.9393727128473789, 0.0916432938695913, 0.1832865877391826, 0.2749298816087739]),
    ([1, 0, 0, 0, 0, -1, 0, 0, 0, 0, -1, 0], [0.0, 1.0, 0.0, 0.0]),
    ([-0.9710401871090123, 0.1619792896823037, 0.17562364514298762, 0.0,
      0.21706690014635252, 0.905238452542836, 0.36527428721264404, 0.0,
      -0.09981440717725637, 0.3928180924446684, -0.9141832586347138, 0.0],
     [0.0707372016677029, 0.09734554301926927, 0.9734554301926928, 0.19469108603853855]),
    ([-0.8958740445724631, -0.19594137754424942, 0.3987689466689176, 0.0,
      0.27102549812137666, -0.9521871350053086, 0.14101361387625552, 0.0,
      0.35207225910235496, 0.23440698900938076, 0.9061448492785908, 0.0],
     [0.12050276936736663, 0.19375773607410787, 0.09687886803705394, 0.9687886803705391]),
])
def test_rtoq_branches_match_ode(R, q):
    np.testing.assert_allclose(dRtoQ(R), q, rtol=0, atol=TOL)
    np.testing.assert_allclose(dQfromR(R), q, rtol=0, atol=TOL)


def test_wtodq_matches_ode():
    # ODE 0.16.2: dWtoDQ((0.3, -1.2, 2.0), (0.5, 0.1, -0.7, 0.3))
    expected = [-0.735, 0.595, -0.24499999999999997, 0.455]
    np.testing.assert_allclose(dWtoDQ([0.3, -1.2, 2.0], [0.5, 0.1, -0.7, 0.3]), expected,
                               rtol=0, atol=TOL)
    np.testing.assert_array_equal(dDQfromW([0.3, -1.2, 2.0], [0.5, 0.1, -0.7, 0.3]),
                                  dWtoDQ([0.3, -1.2, 2.0], [0.5, 0.1, -0.7, 0.3]))


# --------------------------------------------------------------------------- shapes, identities
def test_identities_and_layout():
    R = dRSetIdentity()
    assert R.shape == (12,) and R.dtype == np.float64
    np.testing.assert_array_equal(R, [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0])
    np.testing.assert_array_equal(dQSetIdentity(), [1, 0, 0, 0])
    np.testing.assert_array_equal(dQtoR(dQSetIdentity()), R)
    np.testing.assert_array_equal(dRFromAxisAndAngle(0, 0, 0, 1.0), R)  # zero axis
    np.testing.assert_array_equal(dQFromAxisAndAngle(0, 0, 0, 1.0), [1, 0, 0, 0])
    # the 4th column of every returned dMatrix3 is zero
    for M in (dRFromEulerAngles(1, 2, 3), dRFrom2Axes(1, 2, 3, 4, 5, 7), dRFromZAxis(1, 2, 3)):
        assert M.shape == (12,)
        np.testing.assert_array_equal(M[3::4], 0.0)


def test_rotation12_and_as_rotation3_layouts():
    A = np.arange(9.0).reshape(3, 3)
    R = rotation12(A)
    np.testing.assert_array_equal(R, [0, 1, 2, 0, 3, 4, 5, 0, 6, 7, 8, 0])
    np.testing.assert_array_equal(as_rotation3(R, "f", "R"), A)
    np.testing.assert_array_equal(as_rotation3(A.reshape(-1).tolist(), "f", "R"), A)
    np.testing.assert_array_equal(as_rotation3(A, "f", "R"), A)
    padded = R.copy()
    padded[3::4] = 99.0  # C padding is ignored
    np.testing.assert_array_equal(as_rotation3(padded, "f", "R"), A)


@pytest.mark.parametrize("bad", [np.zeros(10), [1, 2, 3], "abc", [np.nan] + [0.0] * 8,
                                 [np.inf] + [0.0] * 11])
def test_as_rotation3_rejects(bad):
    with pytest.raises(ODEError, match=r"dFoo: argument 'R'"):
        as_rotation3(bad, "dFoo", "R")


def test_as_vector():
    np.testing.assert_array_equal(as_vector([1, 2, 3, 9], 3, "f", "v"), [1, 2, 3])
    with pytest.raises(ODEError, match="dBar: argument 'q'"):
        as_vector([1, 2, 3, 4, 5], 4, "dBar", "q")
    with pytest.raises(ODEError, match="finite"):
        as_vector([1, np.nan, 3], 3, "dBar", "v")
    with pytest.raises(ODEError):
        dQtoR([1, 0, 0])
    with pytest.raises(ODEError, match="dRFromAxisAndAngle: argument 'angle'"):
        dRFromAxisAndAngle(1, 0, 0, float("nan"))


def test_two_axes_degenerate_raise():
    with pytest.raises(ODEError, match="dRFrom2Axes"):
        dRFrom2Axes(0, 0, 0, 0, 1, 0)
    with pytest.raises(ODEError, match="dRFrom2Axes"):
        dRFrom2Axes(1, 0, 0, 2, 0, 0)
    with pytest.raises(ODEError, match="dRFromZAxis"):
        dRFromZAxis(0, 0, 0)


# --------------------------------------------------------------------------- properties
def assert_rotation(M: np.ndarray) -> None:
    m = R3(M)
    np.testing.assert_allclose(m @ m.T, np.eye(3), atol=1e-13)
    assert np.linalg.det(m) == pytest.approx(1.0, abs=1e-13)


@settings(deadline=None)  # the first call may compile numba kernels
@given(axes, angles)
def test_axis_angle_quaternion_is_unit_and_matches_matrix(axis, angle):
    q = dQFromAxisAndAngle(*axis, angle)
    assert np.linalg.norm(q) == pytest.approx(1.0, abs=1e-14)
    R = dRFromAxisAndAngle(*axis, angle)
    assert_rotation(R)
    np.testing.assert_array_equal(R, dQtoR(q))
    # the axis is fixed by the rotation; the angle is recovered from the trace
    a = unit(axis)
    np.testing.assert_allclose(R3(R) @ a, a, atol=1e-13)
    tr = np.trace(R3(R))
    assert tr == pytest.approx(1.0 + 2.0 * math.cos(angle), abs=1e-12)


@settings(deadline=None)  # the first call may compile numba kernels
@given(quats)
def test_q_to_r_to_q_round_trip(q):
    q = unit(q)
    R = dQtoR(q)
    assert_rotation(R)
    back = dRtoQ(R)
    # q and -q are the same rotation
    sign = 1.0 if np.dot(back, q) >= 0 else -1.0
    np.testing.assert_allclose(sign * back, q, atol=1e-13)
    np.testing.assert_allclose(dQtoR(back), R, atol=1e-13)
    np.testing.assert_array_equal(dRfromQ(q), R)


@settings(deadline=None)  # the first call may compile numba kernels
@given(finite, finite, finite)
def test_euler_angles_convention(phi, theta, psi):
    # ODE's convention: the transpose of Rz(psi) Ry(theta) Rx(phi)
    rx = R3(dRFromAxisAndAngle(1, 0, 0, phi))
    ry = R3(dRFromAxisAndAngle(0, 1, 0, theta))
    rz = R3(dRFromAxisAndAngle(0, 0, 1, psi))
    np.testing.assert_allclose(R3(dRFromEulerAngles(phi, theta, psi)), (rz @ ry @ rx).T,
                               atol=1e-13)


@settings(deadline=None)  # the first call may compile numba kernels
@given(quats, quats, quats)
def test_quaternion_product_associative_and_matches_matrices(a, b, c):
    a, b, c = unit(a), unit(b), unit(c)
    left = dQMultiply0(dQMultiply0(a, b), c)
    right = dQMultiply0(a, dQMultiply0(b, c))
    np.testing.assert_allclose(left, right, atol=1e-13)
    # qb * qc is "rotation qc followed by rotation qb"
    np.testing.assert_allclose(R3(dQtoR(dQMultiply0(a, b))), R3(dQtoR(a)) @ R3(dQtoR(b)),
                               atol=1e-13)


@settings(deadline=None)  # the first call may compile numba kernels
@given(quats, quats)
def test_quaternion_product_variants_are_conjugations(b, c):
    b, c = np.asarray(b, float), np.asarray(c, float)
    np.testing.assert_array_equal(dQMultiply1(b, c), dQMultiply0(conj(b), c))
    np.testing.assert_array_equal(dQMultiply2(b, c), dQMultiply0(b, conj(c)))
    np.testing.assert_array_equal(dQMultiply3(b, c), dQMultiply0(conj(b), conj(c)))
    # q * inverse(q) is the identity (times |q|^2)
    n2 = float(np.dot(b, b))
    np.testing.assert_allclose(dQMultiply2(b, b), [n2, 0, 0, 0], atol=1e-12 * max(1.0, n2))
    np.testing.assert_allclose(dQMultiply1(b, b), [n2, 0, 0, 0], atol=1e-12 * max(1.0, n2))


@settings(deadline=None)  # the first call may compile numba kernels
@given(st.tuples(finite, finite, finite, finite, finite, finite))
def test_two_axes_columns(v):
    a, b = np.array(v[:3]), np.array(v[3:])
    na, nb = np.linalg.norm(a), np.linalg.norm(b)
    # (nearly) parallel axes lose accuracy in Gram-Schmidt as ODE does it: skip them
    if na < 1e-3 or nb < 1e-3 or np.linalg.norm(np.cross(a, b)) < 1e-2 * na * nb:
        return
    R = R3(dRFrom2Axes(*a, *b))
    assert_rotation(rotation12(R))
    np.testing.assert_allclose(R[:, 0], unit(a), atol=1e-13)
    # column 1 lies in the plane of a and b, on b's side
    assert np.dot(R[:, 1], b) > 0
    np.testing.assert_allclose(np.dot(R[:, 2], b), 0.0, atol=1e-12 * np.linalg.norm(b))


@settings(deadline=None)  # the first call may compile numba kernels
@given(axes)
def test_z_axis_column(axis):
    R = dRFromZAxis(*axis)
    assert_rotation(R)
    np.testing.assert_allclose(R3(R)[:, 2], unit(axis), atol=1e-14)


@settings(max_examples=50, deadline=None)
@given(quats, st.tuples(finite, finite, finite))
def test_wtodq_is_the_derivative(q, w):
    q = unit(q)
    w = np.array(w)
    h = 1e-6
    wn = np.linalg.norm(w)
    step = dQFromAxisAndAngle(*w, wn * h) if wn > 0 else dQSetIdentity()
    numeric = (dQMultiply0(step, q) - q) / h
    np.testing.assert_allclose(dWtoDQ(w, q), numeric, atol=1e-5 * max(1.0, wn * wn))


# --------------------------------------------------------------------------- kernels
def test_kernels_in_place():
    q = np.array([0.0, 0.0, 0.0, 0.0])
    assert not q_normalize(q)
    np.testing.assert_array_equal(q, [1, 0, 0, 0])
    q = np.array([2.0, 0.0, 0.0, 0.0])
    assert q_normalize(q)
    np.testing.assert_array_equal(q, [1, 0, 0, 0])
    a, b = unit([1, 2, 3, 4]), unit([-1, 0.5, 2, 0.1])
    out = np.empty(4)
    q_mul0(a, b, out)
    np.testing.assert_array_equal(out, dQMultiply0(a, b))
    R = np.empty((3, 3))
    q_to_R(a, R)
    np.testing.assert_array_equal(rotation12(R), dQtoR(a))
    back = np.empty(4)
    R_to_q(R, back)
    np.testing.assert_array_equal(back, dRtoQ(R))
    dq = np.empty(4)
    w_to_dq(np.array([1.0, 2.0, 3.0]), a, dq)
    np.testing.assert_array_equal(dq, dWtoDQ([1, 2, 3], a))
