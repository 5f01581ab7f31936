"""Small fixed dynamics scenes, written against the flat ODE API only.

They rebuild the set-ups whose real-ODE results are stored in
``tests/reference/*.json`` (recorded from ODE 0.16.2, double precision).
Every scene takes the flat-API module it runs on as ``ode``: engine.ode by
default, engine.libode for the real ODE (tests/engine/test_live_ode.py,
scripts/record_reference.py).
"""

from __future__ import annotations

import math
from types import ModuleType

import numpy as np

from engine import ode as odeon

G = 9.81


def new_world(quick_iterations: int | None = None, ode: ModuleType = odeon):
    ode.dRandSetSeed(0)
    w = ode.dWorldCreate()
    ode.dWorldSetGravity(w, 0, 0, -G)
    if quick_iterations is not None:
        ode.dWorldSetQuickStepNumIterations(w, quick_iterations)
    return w


def body(w, pos, mass_fn, R=None, lin_vel=None, ang_vel=None, ode: ModuleType = odeon):
    b = ode.dBodyCreate(w)
    m = ode.dMass()
    mass_fn(m)
    ode.dBodySetMass(b, m)
    ode.dBodySetPosition(b, *pos)
    if R is not None:
        ode.dBodySetRotation(b, R)
    if lin_vel is not None:
        ode.dBodySetLinearVel(b, *lin_vel)
    if ang_vel is not None:
        ode.dBodySetAngularVel(b, *ang_vel)
    return b


def free_fall(steps: int = 1000, dt: float = 0.001,
              ode: ModuleType = odeon) -> dict:
    w = new_world(ode=ode)
    b = body(w, (0, 0, 10), lambda m: ode.dMassSetSphereTotal(m, 1.0, 0.1),
             lin_vel=(1, 0, 2), ang_vel=(0, 0, 1), ode=ode)
    traj = [ode.dBodyGetPosition(b)]
    for _ in range(steps):
        ode.dWorldStep(w, dt)
        traj.append(ode.dBodyGetPosition(b))
    out = {"traj": np.array(traj), "final_linvel": ode.dBodyGetLinearVel(b),
           "final_quat": ode.dBodyGetQuaternion(b)}
    ode.dWorldDestroy(w)
    return out


def _dot3(a: list[float], b: list[float]) -> float:
    """a . b in Python floats, left to right (numpy's matmul and dot may go
    through BLAS, whose rounding depends on the CPU and the numpy version)."""
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]


def _world_inertia_quadratic(R: list[list[float]], I: list[list[float]],
                             w: list[float]) -> float:
    """w^T (R I R^T) w in Python floats, in a fixed order (R, I 3x3 nested lists)."""
    RI = [[_dot3(R[i], [I[0][k], I[1][k], I[2][k]]) for k in range(3)] for i in range(3)]
    world = [[_dot3(RI[i], R[j]) for j in range(3)] for i in range(3)]
    row = [_dot3(w, [world[0][j], world[1][j], world[2][j]]) for j in range(3)]
    return _dot3(row, w)


def pendulum(quick: bool, steps: int = 5000, dt: float = 0.001,
             ode: ModuleType = odeon) -> dict:
    L, width, mass = 1.0, 0.05, 1.0
    w = new_world(ode=ode)
    b = body(w, (L / 2, 0, 0), lambda m: ode.dMassSetBoxTotal(m, mass, L, width, width), ode=ode)
    j = ode.dJointCreateHinge(w, None)
    ode.dJointAttach(j, b, None)
    ode.dJointSetHingeAnchor(j, 0, 0, 0)
    ode.dJointSetHingeAxis(j, 0, 1, 0)
    I = ode.dBodyGetMass(b).I.reshape(3, 4)[:, :3].tolist()

    def energy():
        v = ode.dBodyGetLinearVel(b).tolist()
        wv = ode.dBodyGetAngularVel(b).tolist()
        R = ode.dBodyGetRotation(b).reshape(3, 4)[:, :3].tolist()
        return (0.5 * mass * _dot3(v, v) + 0.5 * _world_inertia_quadratic(R, I, wv)
                + mass * G * float(ode.dBodyGetPosition(b)[2]))

    angles, rates, energies = [ode.dJointGetHingeAngle(j)], [0.0], [energy()]
    drift = 0.0
    for _ in range(steps):
        (ode.dWorldQuickStep if quick else ode.dWorldStep)(w, dt)
        angles.append(ode.dJointGetHingeAngle(j))
        rates.append(ode.dJointGetHingeAngleRate(j))
        energies.append(energy())
        drift = max(drift, float(np.linalg.norm(ode.dBodyGetRelPointPos(b, -L / 2, 0, 0))))
    turns = [0] + [i for i in range(1, len(rates)) if rates[i - 1] * rates[i] < 0]
    halves = [(turns[k + 1] - turns[k]) * dt for k in range(len(turns) - 1)]
    ode.dWorldDestroy(w)
    return {"max_angle": max(angles), "period": 2 * float(np.mean(halves)),
            "energy_final": energies[-1], "energy_min": min(energies),
            "energy_max": max(energies), "anchor_drift": drift}


def chain(links: int = 20, steps: int = 2000, dt: float = 0.001,
          ode: ModuleType = odeon) -> dict:
    r, clen, seg, z0 = 0.05, 0.2, 0.3, 2.0
    w = new_world(quick_iterations=20, ode=ode)
    Ry = ode.dRFromAxisAndAngle(0, 1, 0, math.pi / 2)
    bodies = [body(w, (seg * (i + 0.5), 0, z0),
                   lambda m: ode.dMassSetCapsuleTotal(m, 1.0, 3, r, clen), R=Ry, ode=ode)
              for i in range(links)]
    j = ode.dJointCreateBall(w, None)
    ode.dJointAttach(j, bodies[0], None)
    ode.dJointSetBallAnchor(j, 0, 0, z0)
    for i in range(1, links):
        j = ode.dJointCreateBall(w, None)
        ode.dJointAttach(j, bodies[i - 1], bodies[i])
        ode.dJointSetBallAnchor(j, seg * i, 0, z0)

    def ends(b):
        return ode.dBodyGetRelPointPos(b, 0, 0, -seg / 2), ode.dBodyGetRelPointPos(b, 0, 0, seg / 2)

    def gap():
        g = float(np.linalg.norm(ends(bodies[0])[0] - (0, 0, z0)))
        for i in range(1, links):
            g = max(g, float(np.linalg.norm(ends(bodies[i - 1])[1] - ends(bodies[i])[0])))
        return g

    end_z, gaps = [], []
    trajectory = []
    for _ in range(steps):
        ode.dWorldQuickStep(w, dt)
        end = ends(bodies[-1])[1]
        end_z.append(end[2])
        gaps.append(gap())
        trajectory.append(np.concatenate([ode.dBodyGetPosition(b) for b in bodies]))
    out = {"final_end": ends(bodies[-1])[1], "min_end_z": min(end_z), "max_gap": max(gaps),
           "trajectory": np.array(trajectory)}
    ode.dWorldDestroy(w)
    return out


def hinge_motor(case: str, steps: int = 3000, dt: float = 0.001,
                ode: ModuleType = odeon) -> dict:
    w = new_world(ode=ode)
    if case == "vertical_axis":
        dims, pos, anchor, axis = (0.5, 0.1, 0.1), (0, 0, 1), (0, 0, 1), (0, 0, 1)
    else:
        dims, pos, anchor, axis = (1.0, 0.1, 0.1), (0.5, 0, 1), (0, 0, 1), (0, 1, 0)
    b = body(w, pos, lambda m: ode.dMassSetBoxTotal(m, 1.0, *dims), ode=ode)
    j = ode.dJointCreateHinge(w, None)
    ode.dJointAttach(j, b, None)
    ode.dJointSetHingeAnchor(j, *anchor)
    ode.dJointSetHingeAxis(j, *axis)
    ode.dJointSetHingeParam(j, ode.dParamVel, 1.0)
    ode.dJointSetHingeParam(j, ode.dParamFMax, 10.0)
    rates, angles = [ode.dJointGetHingeAngleRate(j)], [ode.dJointGetHingeAngle(j)]
    for _ in range(steps):
        ode.dWorldStep(w, dt)
        rates.append(ode.dJointGetHingeAngleRate(j))
        angles.append(ode.dJointGetHingeAngle(j))
    reach = next((i for i, v in enumerate(rates) if v >= 1.0 - 1e-6), None)
    ode.dWorldDestroy(w)
    return {"rates": rates, "final_angle": angles[-1], "reach": reach}


def slider_motor(case: str, steps: int = 3000, dt: float = 0.001,
                 ode: ModuleType = odeon) -> dict:
    w = new_world(ode=ode)
    v0 = (2.0, 0.0, 0.0) if case == "unpowered_v0" else None
    b = body(w, (0, 0, 1), lambda m: ode.dMassSetBoxTotal(m, 1.0, 0.2, 0.2, 0.2), lin_vel=v0,
             ode=ode)
    j = ode.dJointCreateSlider(w, None)
    ode.dJointAttach(j, b, None)
    ode.dJointSetSliderAxis(j, 1, 0, 0)
    ode.dJointSetSliderParam(j, ode.dParamLoStop, -0.5)
    ode.dJointSetSliderParam(j, ode.dParamHiStop, 0.5)
    ode.dJointSetSliderParam(j, ode.dParamBounce, 0.5)
    if case == "motor":
        ode.dJointSetSliderParam(j, ode.dParamVel, 1.0)
        ode.dJointSetSliderParam(j, ode.dParamFMax, 1.0)
    pos = [ode.dJointGetSliderPosition(j)]
    rate = [ode.dJointGetSliderPositionRate(j)]
    for _ in range(steps):
        ode.dWorldStep(w, dt)
        pos.append(ode.dJointGetSliderPosition(j))
        rate.append(ode.dJointGetSliderPositionRate(j))
    reversals = [(i, rate[i]) for i in range(1, len(rate))
                 if (rate[i - 1] > 0) != (rate[i] > 0) and abs(rate[i - 1]) > 1e-3]
    ode.dWorldDestroy(w)
    return {"max": max(pos), "min": min(pos), "final": pos[-1], "reversals": reversals}
