"""Double hinge joint: a distance joint whose bodies share one hinge axis.

Numbers marked "ODE" come from the same set-ups run on the real ODE 0.16.2
(Debian libode8, double precision), hard-coded here.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from engine import ode
from engine.ode.joints import dhinge
from tests.engine.joints.setup_helpers import (
    G,
    H,
    box,
    kernel_rows,
    seeded_world,
    step_fn,
)


def test_four_unbounded_rows():
    w = seeded_world()
    b1 = box(ode, w, (0, 0, 0))
    b2 = box(ode, w, (1, 0, 0))
    j = ode.dJointCreateDHinge(w, None)
    ode.dJointAttach(j, b1, b2)
    ode.dJointSetDHingeAxis(j, 0, 0, 2)
    (m, nub), (J, c, cfm, _, _, _) = kernel_rows(dhinge, j)
    assert (m, nub) == (4, 4)
    assert np.allclose(J[0], [-1, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0])      # distance
    # rows 1, 2: angular only, normal to the axis, opposite on the two bodies
    for k in (1, 2):
        assert np.allclose(J[k, :3], 0) and np.allclose(J[k, 6:9], 0)
        assert abs(J[k, 5]) < 1e-15 and np.allclose(J[k, 3:6], -J[k, 9:12])
    # row 3: along the axis, torque-free about the midpoint of the centres
    assert np.allclose(J[3], [0, 0, 1, 0, -0.5, 0, 0, 0, -1, 0, -0.5, 0])
    assert np.allclose(c, 0)
    # misplace anchor 2 along the axis: row 3 corrects erp of the gap per step
    ode.dBodySetPosition(b2, 1, 0, 0.1)
    c = kernel_rows(dhinge, j)[1][1]
    assert c[3] == pytest.approx(-1 / H * 0.2 * (-0.1))


def test_unset_axis_leaves_only_the_distance_row_active():
    """ODE 0.16.2 starts with a zero axis and aborts on the NaN it makes;
    here the angular and axial rows stay empty until an axis is set."""
    w = seeded_world(gravity=(0, 0, -G))
    b1 = box(ode, w, (0, 0, 1))
    b2 = box(ode, w, (1, 0, 1))
    j = ode.dJointCreateDHinge(w, None)
    ode.dJointAttach(j, b1, b2)
    assert np.all(ode.dJointGetDHingeAxis(j) == 0)
    J = kernel_rows(dhinge, j)[1][0]
    assert np.allclose(J[1:], 0)
    for _ in range(10):
        ode.dWorldStep(w, H)
    assert np.all(np.isfinite(ode.dBodyGetPosition(b2)))


def _pair(quick):
    """Body 1 on a ball joint to the world, body 2 on a double hinge about y."""
    w = seeded_world(gravity=(0, 0, -G))
    b1 = box(ode, w, (0, 0, 2))
    b2 = box(ode, w, (1, 0, 2), mass=0.5)
    j0 = ode.dJointCreateBall(w, None)
    ode.dJointAttach(j0, b1, None)
    ode.dJointSetBallAnchor(j0, -0.2, 0, 2)
    j = ode.dJointCreateDHinge(w, None)
    ode.dJointAttach(j, b1, b2)
    ode.dJointSetDHingeAxis(j, 0, 1, 0)
    ode.dJointSetDHingeAnchor1(j, 0.2, 0, 2)
    ode.dJointSetDHingeAnchor2(j, 0.8, 0, 2)
    ode.dBodySetAngularVel(b2, 0, 0, 0.5)
    traj = []
    for _ in range(200):
        step_fn(quick)(w, H)
        traj.append(np.concatenate([ode.dBodyGetPosition(b1), ode.dBodyGetPosition(b2),
                                    ode.dBodyGetQuaternion(b2), ode.dJointGetDHingeAxis(j),
                                    ode.dJointGetDHingeAnchor1(j),
                                    ode.dJointGetDHingeAnchor2(j)]))
    return np.array(traj), j, b1, b2


@pytest.mark.parametrize("quick", [False, True])
def test_pair_keeps_distance_and_axis_and_matches_ode(quick):
    traj, j, b1, b2 = _pair(quick)
    assert ode.dJointGetDHingeDistance(j) == pytest.approx(0.6, abs=1e-12)
    a1, a2, axis = traj[:, 13:16], traj[:, 16:19], traj[:, 10:13]
    assert np.abs(np.linalg.norm(a1 - a2, axis=1) - 0.6).max() < 0.04   # ODE: 0.029
    # anchors in one plane normal to the axis; both bodies keep the axis
    assert np.abs(np.einsum("ij,ij->i", a1 - a2, axis)).max() < 0.01
    ax2 = ode.dBodyGetRotation(b2).reshape(3, 4)[:, :3] @ [0, 1, 0]
    assert float(ax2 @ ode.dJointGetDHingeAxis(j)) > 0.9999
    # the pair swings through a large angle
    assert traj[:, 3].min() < -1.0
    ref = {99: [-0.399659739598, -0.000314095186786, 2.01966474771, -1.33863083017,
                -0.00180992552915, 1.76315633449, 0.325214440936, -0.000750603928942,
                0.945639969426, 0.000228525163716, -0.00157600809889, 0.999998756656,
                -5.37142394417e-05, -0.598674143828, -0.000626678815788, 2.03949324237,
                -1.18093682857, -0.00155573297193, 1.88617071269],
           199: [-0.0927065474677, -2.72860364734e-06, 1.83111770067, 0.745342470834,
                 0.00380401413914, 1.59959582606, 0.944603970458, -0.000759221518183,
                 -0.328196017777, 0.0031837859517, -0.00551407750322, 0.999978602562,
                 -0.00351985327733, 0.0145488067684, -5.49526319181e-06, 1.66230926196,
                 0.588431575866, 0.00250137800716, 1.47559068835]}
    for k, row in ref.items():
        if quick and k != 199:
            continue
        assert np.allclose(traj[k], row, atol=1e-8)


@pytest.mark.parametrize("quick, reverse, ref", [
    (False, False, [0.286140869607, -0.286140869607, 0.847945081546, 0.95913755238,
                    0.195563272382, 0.144211359328, 0.144959463127]),
    (True, False, [0.28614086963, -0.286140869629, 0.847945081546, 0.959137552361,
                   0.195563272445, 0.144211359374, 0.144959463124]),
    (False, True, [1.0251646847, -0.0251646847172, -0.135366792688, 0.988316863724,
                   0.0243924091755, 0.0179873370017, 0.149369484708]),
    (True, True, [1.03714971385, -0.037157604763, -0.132759473459, 0.987851468221,
                  0.0347063491389, 0.0255927556393, 0.149298214734]),
])
def test_one_body_matches_ode(quick, reverse, ref):
    """ODE: one body on a double hinge to a world point, both attachments."""
    w = seeded_world(gravity=(0, 0, -G))
    b = box(ode, w, (0.5, 0.0, 1.0))
    ode.dBodySetRotation(b, ode.dRFromAxisAndAngle(0, 0, 1, 0.3))
    j = ode.dJointCreateDHinge(w, None)
    ode.dJointAttach(j, *((None, b) if reverse else (b, None)))
    ode.dJointSetDHingeAxis(j, 1, 1, 0)
    ode.dJointSetDHingeAnchor1(j, 0.4, 0.1, 1.0)
    ode.dJointSetDHingeAnchor2(j, 0.0, 0.0, 1.5)
    assert ode.dJointGetDHingeDistance(j) == pytest.approx(0.648074069841, abs=1e-11)
    for _ in range(200):
        step_fn(quick)(w, H)
    got = np.concatenate([ode.dBodyGetPosition(b), ode.dBodyGetQuaternion(b)])
    assert np.allclose(got, ref, atol=1e-8)
    assert np.allclose(ode.dJointGetDHingeAxis(j), [math.sqrt(0.5), math.sqrt(0.5), 0],
                       atol=1e-3)


def test_params_and_errors():
    w = seeded_world(gravity=(0, 0, -G))
    ode.dWorldSetERP(w, 0.35)
    j = ode.dJointCreateDHinge(w, None)
    assert ode.dJointGetType(j) == ode.dJointTypeDHinge
    assert ode.dJointGetDHingeParam(j, ode.dParamERP) == 0.35
    ode.dJointSetDHingeParam(j, ode.dParamCFM, 1e-4)
    assert ode.dJointGetDHingeParam(j, ode.dParamCFM) == 1e-4
    b = box(ode, w, (0, 0, 0))
    db = ode.dJointCreateDBall(w, None)
    bad = [
        (ode.dJointSetDHingeAxis, (j, 0, 0, 1)),            # not attached yet
        (ode.dJointSetDHingeParam, (j, ode.dParamFMax, 1.0)),
        (ode.dJointGetDHingeParam, (j, 0x10d)),
        (ode.dJointSetDHingeParam, (j, ode.dParamERP, math.nan)),
        (ode.dJointSetDHingeAnchor1, (j, math.nan, 0, 0)),
        (ode.dJointGetDHingeDistance, (db,)),
        (ode.dJointSetDHingeAxis, (db, 0, 0, 1)),
    ]
    for fn, args in bad:
        with pytest.raises(ode.ODEError):
            fn(*args)
    ode.dJointAttach(j, b, None)
    for args in ((0, 0, 0), (0, math.nan, 1)):
        with pytest.raises(ode.ODEError):
            ode.dJointSetDHingeAxis(j, *args)
    ode.dJointSetDHingeAxis(j, 0, 0, -3)
    assert np.allclose(ode.dJointGetDHingeAxis(j), [0, 0, -1])
