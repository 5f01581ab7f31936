"""The steppers give bit-identical results to the recorded ones.

Performance work on the step pipeline (row assembly, SOR, integration) must
not change a single bit of the results: QuickStep's row order and its use of
ODE's generator, the association order of the arithmetic, everything. The
scenes below exercise contacts of every surface mode (one- and two-body,
reversed attachments, friction indices, bounce, soft ERP/CFM, fdir1, slip,
motion, rolling), many joint types with limits and motors, feedback, and the
per-body options of the integrator, with both steppers. Their final states
were recorded before the performance work (``tests/reference/
step_bit_identity.json``, floats as ``float.hex``); collision detection is not
involved (contacts are synthetic), so only the dynamics can change them.
They were re-recorded when BLAS and libm left the engine (decision 0012: the
old values depended on the CPU's OpenBLAS and libm variants); the scenes'
inputs use no BLAS or libm either (uniform deviates, our own norm), so the
same values must come out on every x86-64 machine
(test_determinism_portable checks that in subprocesses).

Record (only when a change of results is intended and understood):
``python -m tests.engine.test_step_bit_identity --record``.
"""

from __future__ import annotations

import json
import math
import pathlib
import sys

import numpy as np
import pytest

from engine import ode
from engine.ode.kernels.detlinalg import norm

REF = pathlib.Path(__file__).resolve().parents[1] / "reference" / "step_bit_identity.json"
G = 9.81


def _rotation(rng: np.random.Generator) -> np.ndarray:
    axis = rng.uniform(-1.0, 1.0, size=3)
    return ode.dRFromAxisAndAngle(*map(float, axis), float(rng.uniform(0.0, 0.6)))


def _surfaces() -> list:
    """One surface per contact flavour (cycled over the contacts)."""
    S = ode.dSurfaceParameters
    return [
        S(mode=ode.dContactApprox1, mu=0.5),
        S(mode=0, mu=0.5),
        S(mode=ode.dContactApprox1 | ode.dContactBounce, mu=ode.dInfinity, bounce=0.3,
          bounce_vel=0.05),
        S(mode=ode.dContactSoftERP | ode.dContactSoftCFM, mu=0.3, soft_erp=0.5,
          soft_cfm=1e-4),
        S(mode=ode.dContactMu2 | ode.dContactFDir1 | ode.dContactApprox1, mu=0.4, mu2=0.2),
        S(mode=0, mu=0.0),
        S(mode=ode.dContactRolling | ode.dContactApprox1, mu=0.5, rho=0.01),
        S(mode=(ode.dContactSlip1 | ode.dContactSlip2 | ode.dContactMotion1
                | ode.dContactMotion2 | ode.dContactMotionN | ode.dContactApprox1),
          mu=0.6, slip1=1e-3, slip2=2e-3, motion1=0.01, motion2=-0.02, motionN=0.001),
        S(mode=ode.dContactRolling | ode.dContactAxisDep | ode.dContactApprox1, mu=0.5,
          mu2=0.3, rho=0.01, rho2=0.0, rhoN=0.02),
    ]


def contact_scene(quick: bool, n: int, steps: int, dt: float = 0.01) -> list[float]:
    """``n`` boxes/spheres on a grid with synthetic ground and neighbour contacts
    rebuilt every step; returns the final state of every body."""
    ode.dRandSetSeed(0)
    rng = np.random.default_rng(7)
    w = ode.dWorldCreate()
    ode.dWorldSetGravity(w, 0, 0, -G)
    ode.dWorldSetContactSurfaceLayer(w, 0.001)
    ode.dWorldSetQuickStepNumIterations(w, 20)
    group = ode.dJointGroupCreate(0)
    side = max(1, round(math.sqrt(n)))
    bodies = []
    for i in range(n):
        b = ode.dBodyCreate(w)
        m = ode.dMass()
        if i % 2 == 0:
            ode.dMassSetBoxTotal(m, 1.0 + 0.1 * (i % 5), 0.1, 0.1, 0.1)
        else:
            ode.dMassSetSphereTotal(m, 1.0, 0.05)
        ode.dBodySetMass(b, m)
        ode.dBodySetPosition(b, 0.11 * (i % side), 0.11 * (i // side), 0.05)
        ode.dBodySetRotation(b, _rotation(rng))
        ode.dBodySetLinearVel(b, *map(float, rng.uniform(-0.3, 0.3, size=3)))
        ode.dBodySetAngularVel(b, *map(float, rng.uniform(-1.5, 1.5, size=3)))
        if i % 7 == 3:
            ode.dBodySetFiniteRotationMode(b, 1)
        if i % 11 == 5:
            ode.dBodySetFiniteRotationMode(b, 1)
            ode.dBodySetFiniteRotationAxis(b, 0.0, 0.0, 1.0)
        if i % 13 == 4:
            ode.dBodySetDamping(b, 0.01, 0.02)
        if i % 17 == 6:
            ode.dBodySetMaxAngularSpeed(b, 0.5)
        if i % 19 == 7:
            ode.dBodySetGyroscopicMode(b, 0)
        bodies.append(b)
    surfaces = _surfaces()
    fbs = []
    for step in range(steps):
        ode.dJointGroupEmpty(group)
        fbs = []
        k = 0
        pos = [ode.dBodyGetPosition(b) for b in bodies]
        for i, b in enumerate(bodies):
            # ground contacts (some attached (None, b): reversed)
            if i % 3 != 2:
                for p in range(1 + (i + step) % 3):
                    s = surfaces[k % len(surfaces)]
                    off = np.array([0.02 * (p - 1), 0.01 * ((p * 5) % 3 - 1), -0.05])
                    nrm = np.array([0.02 * ((i % 5) - 2), 0.01 * ((i % 3) - 1), 1.0])
                    nrm /= norm(nrm)
                    depth = 0.001 + 0.002 * ((i * 7 + step + p) % 5) / 5
                    if i % 4 == 1:
                        nrm = -nrm       # normal into geom 1 (the ground)
                    cg = ode.dContactGeom(pos=pos[i] + off, normal=nrm, depth=depth)
                    c = ode.dContact(surface=s, geom=cg, fdir1=(1.0, 0.0, -nrm[0] / nrm[2]))
                    if s.mode & ode.dContactFDir1:
                        f = np.array([nrm[2], 0.0, -nrm[0]])
                        c.fdir1 = f / norm(f)
                    j = ode.dJointCreateContact(w, group, c)
                    if i % 4 == 1:
                        ode.dJointAttach(j, None, b)
                    else:
                        ode.dJointAttach(j, b, None)
                    if k % 5 == 0:
                        fb = ode.dJointFeedback()
                        ode.dJointSetFeedback(j, fb)
                        fbs.append(fb)
                    k += 1
            # neighbour contacts along x and y
            for o in (i + 1, i + side):
                if o >= n or (o == i + 1 and (i + 1) % side == 0) or (i + o + step) % 4 == 0:
                    continue
                d = pos[i] - pos[o]
                nrm = d / norm(d)
                for p in range(1 + (i + o) % 2):
                    s = surfaces[k % len(surfaces)]
                    mid = 0.5 * (pos[i] + pos[o]) + np.array([0.0, 0.0, 0.01 * p])
                    cg = ode.dContactGeom(pos=mid, normal=nrm,
                                          depth=0.0005 * (1 + (i * 3 + o + step) % 4))
                    c = ode.dContact(surface=s, geom=cg)
                    if s.mode & ode.dContactFDir1:
                        f = np.cross(nrm, [0.0, 0.0, 1.0])
                        c.fdir1 = f / norm(f)
                    j = ode.dJointCreateContact(w, group, c)
                    ode.dJointAttach(j, bodies[i], bodies[o])
                    k += 1
        (ode.dWorldQuickStep if quick else ode.dWorldStep)(w, dt)
    out = _state(bodies)
    for fb in fbs:
        for v in (fb.f1, fb.t1, fb.f2, fb.t2):
            out.extend(map(float, v))
    ode.dJointGroupDestroy(group)
    ode.dWorldDestroy(w)
    return out


def _state(bodies) -> list[float]:
    out: list[float] = []
    for b in bodies:
        for v in (ode.dBodyGetPosition(b), ode.dBodyGetQuaternion(b),
                  ode.dBodyGetLinearVel(b), ode.dBodyGetAngularVel(b)):
            out.extend(map(float, v))
    return out


def joint_scene(quick: bool, steps: int = 200, dt: float = 0.005) -> list[float]:
    """A tree of bodies held by most joint types, with limits and motors."""
    ode.dRandSetSeed(0)
    rng = np.random.default_rng(3)
    w = ode.dWorldCreate()
    ode.dWorldSetGravity(w, 0, 0, -G)
    bodies = []
    for i in range(16):
        b = ode.dBodyCreate(w)
        m = ode.dMass()
        ode.dMassSetBoxTotal(m, 1.0 + 0.2 * i, 0.2, 0.1, 0.05)
        ode.dBodySetMass(b, m)
        ode.dBodySetPosition(b, 0.3 * i, 0.05 * (i % 3), 2.0 - 0.02 * i)
        ode.dBodySetRotation(b, _rotation(rng))
        ode.dBodySetAngularVel(b, *map(float, rng.uniform(-0.8, 0.8, size=3)))
        bodies.append(b)
    B = bodies
    fbs = []

    def anchor(i: int) -> tuple[float, float, float]:
        p = 0.5 * (ode.dBodyGetPosition(B[i]) + ode.dBodyGetPosition(B[i + 1]))
        return float(p[0]), float(p[1]), float(p[2])

    j = ode.dJointCreateBall(w, None)
    ode.dJointAttach(j, B[0], None)
    ode.dJointSetBallAnchor(j, -0.15, 0.0, 2.0)
    j = ode.dJointCreateHinge(w, None)
    ode.dJointAttach(j, B[0], B[1])
    ode.dJointSetHingeAnchor(j, *anchor(0))
    ode.dJointSetHingeAxis(j, 0.0, 1.0, 0.2)
    ode.dJointSetHingeParam(j, ode.dParamLoStop, -0.3)
    ode.dJointSetHingeParam(j, ode.dParamHiStop, 0.4)
    ode.dJointSetHingeParam(j, ode.dParamBounce, 0.3)
    j = ode.dJointCreateSlider(w, None)
    ode.dJointAttach(j, B[1], B[2])
    ode.dJointSetSliderAxis(j, 1.0, 0.1, 0.0)
    ode.dJointSetSliderParam(j, ode.dParamLoStop, -0.05)
    ode.dJointSetSliderParam(j, ode.dParamHiStop, 0.05)
    ode.dJointSetSliderParam(j, ode.dParamVel, 0.2)
    ode.dJointSetSliderParam(j, ode.dParamFMax, 5.0)
    j = ode.dJointCreateUniversal(w, None)
    ode.dJointAttach(j, B[2], B[3])
    ode.dJointSetUniversalAnchor(j, *anchor(2))
    ode.dJointSetUniversalAxis1(j, 0.0, 1.0, 0.0)
    ode.dJointSetUniversalAxis2(j, 0.0, 0.0, 1.0)
    ode.dJointSetUniversalParam(j, ode.dParamLoStop, -0.2)
    ode.dJointSetUniversalParam(j, ode.dParamHiStop, 0.2)
    j = ode.dJointCreateHinge2(w, None)
    ode.dJointAttach(j, B[3], B[4])
    ode.dJointSetHinge2Anchor(j, *anchor(3))
    ode.dJointSetHinge2Axes(j, np.array([0.0, 0.0, 1.0]), np.array([0.0, 1.0, 0.0]))
    ode.dJointSetHinge2Param(j, ode.dParamVel2, 1.0)
    ode.dJointSetHinge2Param(j, ode.dParamFMax2, 2.0)
    j = ode.dJointCreateFixed(w, None)
    ode.dJointAttach(j, B[4], B[5])
    ode.dJointSetFixed(j)
    j = ode.dJointCreateBall(w, None)
    ode.dJointAttach(j, B[5], B[6])
    ode.dJointSetBallAnchor(j, *anchor(5))
    fb = ode.dJointFeedback()
    ode.dJointSetFeedback(j, fb)
    fbs.append(fb)
    j = ode.dJointCreateAMotor(w, None)
    ode.dJointAttach(j, B[5], B[6])
    ode.dJointSetAMotorNumAxes(j, 2)
    ode.dJointSetAMotorAxis(j, 0, 1, 1.0, 0.0, 0.0)
    ode.dJointSetAMotorAxis(j, 1, 2, 0.0, 0.0, 1.0)
    ode.dJointSetAMotorParam(j, ode.dParamVel, 0.5)
    ode.dJointSetAMotorParam(j, ode.dParamFMax, 1.0)
    j = ode.dJointCreatePiston(w, None)
    ode.dJointAttach(j, B[6], B[7])
    ode.dJointSetPistonAnchor(j, *anchor(6))
    ode.dJointSetPistonAxis(j, 1.0, 0.0, 0.0)
    ode.dJointSetPistonParam(j, ode.dParamLoStop, -0.05)
    ode.dJointSetPistonParam(j, ode.dParamHiStop, 0.05)
    j = ode.dJointCreatePR(w, None)
    ode.dJointAttach(j, B[7], B[8])
    ode.dJointSetPRAnchor(j, *anchor(7))
    ode.dJointSetPRAxis1(j, 0.0, 1.0, 0.0)
    ode.dJointSetPRAxis2(j, 1.0, 0.0, 0.0)
    j = ode.dJointCreatePU(w, None)
    ode.dJointAttach(j, B[8], B[9])
    ode.dJointSetPUAnchor(j, *anchor(8))
    j = ode.dJointCreateDBall(w, None)
    ode.dJointAttach(j, B[9], B[10])
    j = ode.dJointCreateBall(w, None)
    ode.dJointAttach(j, B[9], B[10])
    ode.dJointSetBallAnchor(j, *anchor(9))
    j = ode.dJointCreateDHinge(w, None)
    ode.dJointAttach(j, B[10], B[11])
    j = ode.dJointCreateHinge(w, None)
    ode.dJointAttach(j, B[11], B[12])
    ode.dJointSetHingeAnchor(j, *anchor(11))
    ode.dJointSetHingeAxis(j, 0.0, 0.0, 1.0)
    ode.dJointSetHingeParam(j, ode.dParamVel, 2.0)
    ode.dJointSetHingeParam(j, ode.dParamFMax, 3.0)
    j = ode.dJointCreateLMotor(w, None)
    ode.dJointAttach(j, B[12], B[13])
    ode.dJointSetLMotorNumAxes(j, 1)
    ode.dJointSetLMotorAxis(j, 0, 1, 0.0, 0.0, 1.0)
    ode.dJointSetLMotorParam(j, ode.dParamVel, 0.1)
    ode.dJointSetLMotorParam(j, ode.dParamFMax, 2.0)
    j = ode.dJointCreateBall(w, None)
    ode.dJointAttach(j, B[12], B[13])
    ode.dJointSetBallAnchor(j, *anchor(12))
    j = ode.dJointCreatePlane2D(w, None)
    ode.dJointAttach(j, B[14], None)
    j = ode.dJointCreateNull(w, None)
    ode.dJointAttach(j, B[15], None)
    for _ in range(steps):
        (ode.dWorldQuickStep if quick else ode.dWorldStep)(w, dt)
    out = _state(bodies)
    for fb in fbs:
        for v in (fb.f1, fb.t1, fb.f2, fb.t2):
            out.extend(map(float, v))
    ode.dWorldDestroy(w)
    return out


SCENES = {
    "contacts_quick": lambda: contact_scene(True, 150, 30),
    "contacts_step": lambda: contact_scene(False, 30, 20),
    "joints_quick": lambda: joint_scene(True),
    "joints_step": lambda: joint_scene(False),
}


@pytest.mark.parametrize("name", list(SCENES))
def test_step_results_are_bit_identical_to_the_recording(name: str) -> None:
    want = [float.fromhex(x) for x in json.loads(REF.read_text())[name]]
    got = SCENES[name]()
    assert len(got) == len(want)
    bad = [i for i, (a, b) in enumerate(zip(got, want, strict=True))
           if not (a == b or (math.isnan(a) and math.isnan(b)))]
    worst = max((abs(got[i] - want[i]) for i in bad), default=0.0)
    assert not bad, f"{len(bad)} of {len(got)} values differ (largest by {worst:.3g})"


def _record() -> None:
    out = {name: [float(x).hex() for x in fn()] for name, fn in SCENES.items()}
    REF.write_text(json.dumps(out, indent=0) + "\n")
    print(f"wrote {REF} ({', '.join(f'{k}: {len(v)}' for k, v in out.items())})")


if __name__ == "__main__":
    if "--record" in sys.argv:
        _record()
