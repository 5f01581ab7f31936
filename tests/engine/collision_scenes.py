"""Dynamics scenes driven by collision detection, written against the flat
API only; real-ODE results for the same set-ups are in tests/reference/.
Every scene takes the flat-API module it runs on as ``ode`` (engine.ode by
default, engine.libode for the real ODE)."""

from __future__ import annotations

import math
from types import ModuleType

import numpy as np

from engine import ode as odeon

G = 9.81


class Sim:
    """A world, a space, a contact group and ODE's standard near callback."""

    def __init__(self, space: str = "simple", surface_layer: float | None = None,
                 quick_iterations: int | None = None, ode: ModuleType = odeon) -> None:
        self.ode = ode
        self.ode.dRandSetSeed(0)
        self.world = self.ode.dWorldCreate()
        self.ode.dWorldSetGravity(self.world, 0, 0, -G)
        if surface_layer is not None:
            self.ode.dWorldSetContactSurfaceLayer(self.world, surface_layer)
        if quick_iterations is not None:
            self.ode.dWorldSetQuickStepNumIterations(self.world, quick_iterations)
        self.space = (self.ode.dHashSpaceCreate(None) if space == "hash"
                      else self.ode.dSimpleSpaceCreate(None))
        self.group = self.ode.dJointGroupCreate(0)
        self.contacts = 0
        self.feedbacks: list | None = None

    def set_contacts(self, max_contacts: int, surface: dict) -> None:
        self.max_contacts = max_contacts
        self.surface = self.ode.dSurfaceParameters(**surface)

    def near(self, data, o1, o2) -> None:
        b1 = self.ode.dGeomGetBody(o1)
        b2 = self.ode.dGeomGetBody(o2)
        if b1 is not None and b2 is not None and \
                self.ode.dAreConnectedExcluding(b1, b2, self.ode.dJointTypeContact):
            return
        for cg in self.ode.dCollide(o1, o2, self.max_contacts):
            c = self.ode.dContact(surface=self.surface, geom=cg)
            j = self.ode.dJointCreateContact(self.world, self.group, c)
            self.ode.dJointAttach(j, b1, b2)
            if self.feedbacks is not None:
                fb = self.ode.dJointFeedback()
                self.ode.dJointSetFeedback(j, fb)
                self.feedbacks.append(fb)
            self.contacts += 1

    def collide(self) -> int:
        self.ode.dJointGroupEmpty(self.group)
        self.contacts = 0
        if self.feedbacks is not None:
            self.feedbacks = []
        self.ode.dSpaceCollide(self.space, None, self.near)
        return self.contacts

    def body(self, pos, mass_fn, R=None, geom=None):
        b = self.ode.dBodyCreate(self.world)
        m = self.ode.dMass()
        mass_fn(m)
        self.ode.dBodySetMass(b, m)
        self.ode.dBodySetPosition(b, *pos)
        if R is not None:
            self.ode.dBodySetRotation(b, R)
        if geom is not None:
            self.ode.dGeomSetBody(geom, b)
        return b

    def destroy(self) -> None:
        self.ode.dJointGroupDestroy(self.group)
        self.ode.dSpaceDestroy(self.space)
        self.ode.dWorldDestroy(self.world)


def bounce(steps: int = 2000, dt: float = 0.001,
           ode: ModuleType = odeon) -> dict:
    r = 0.1
    sim = Sim("simple", ode=ode)
    sim.set_contacts(4, {"mode": ode.dContactBounce, "mu": ode.dInfinity, "bounce": 0.5,
                         "bounce_vel": 0.1})
    ode.dCreatePlane(sim.space, 0, 0, 1, 0)
    g = ode.dCreateSphere(sim.space, r)
    b = sim.body((0, 0, 1.0), lambda m: ode.dMassSetSphereTotal(m, 1.0, r), geom=g)
    zs, vzs, ncs = [1.0], [0.0], [0]
    for _ in range(steps):
        ncs.append(sim.collide())
        ode.dWorldStep(sim.world, dt)
        zs.append(ode.dBodyGetPosition(b)[2])
        vzs.append(ode.dBodyGetLinearVel(b)[2])
    apexes = [zs[i] for i in range(1, len(vzs)) if vzs[i - 1] > 0 >= vzs[i]]
    first = next((i for i, n in enumerate(ncs) if n > 0), None)
    sim.destroy()
    return {"first_contact_step": first, "apexes": apexes, "final_z": zs[-1], "radius": r}


def contact_feedback(quick: bool, steps: int = 1000, dt: float = 0.001,
                     ode: ModuleType = odeon) -> dict:
    sim = Sim("simple", ode=ode)
    sim.set_contacts(4, {"mode": ode.dContactApprox1, "mu": 1.0})
    sim.feedbacks = []
    ode.dCreatePlane(sim.space, 0, 0, 1, 0)
    g = ode.dCreateBox(sim.space, 1, 1, 1)
    sim.body((0, 0, 0.5), lambda m: ode.dMassSetBoxTotal(m, 2.0, 1, 1, 1), geom=g)
    n = 0
    for _ in range(steps):
        n = sim.collide()
        (ode.dWorldQuickStep if quick else ode.dWorldStep)(sim.world, dt)
    fz = sum(fb.f1[2] for fb in sim.feedbacks)
    sim.destroy()
    return {"normal_force_final": fz, "contacts_final": n}


def box_stack(n: int = 10, steps: int = 300, dt: float = 0.01,
              ode: ModuleType = odeon) -> dict:
    sim = Sim("simple", surface_layer=0.001, quick_iterations=20, ode=ode)
    sim.set_contacts(4, {"mode": ode.dContactApprox1, "mu": 1.0})
    ode.dCreatePlane(sim.space, 0, 0, 1, 0)
    bodies, init = [], []
    for i in range(n):
        g = ode.dCreateBox(sim.space, 1, 1, 1)
        pos = (0.01 * (-1) ** i, 0.0, i + 0.5)
        R = ode.dRFromAxisAndAngle(0, 0, 1, 0.05 * i)
        bodies.append(sim.body(pos, lambda m: ode.dMassSetBoxTotal(m, 1.0, 1, 1, 1), R=R, geom=g))
        init.append(pos)
    for _ in range(steps):
        sim.collide()
        ode.dWorldQuickStep(sim.world, dt)
    drift = ode.dBodyGetPosition(bodies[-1]) - np.array(init[-1])
    sim.destroy()
    return {"top_drift": drift}


class _LCG:
    """The pile's generator: 64-bit LCG with Knuth's MMIX constants;
    uniform = (state >> 11) / 2^53 mapped to [lo, hi)."""

    def __init__(self, seed: int) -> None:
        self.s = seed & 0xFFFFFFFFFFFFFFFF

    def uniform(self, lo: float, hi: float) -> float:
        self.s = (6364136223846793005 * self.s + 1442695040888963407) & 0xFFFFFFFFFFFFFFFF
        return lo + (hi - lo) * ((self.s >> 11) / 9007199254740992.0)


def pile(n: int = 100, steps: int = 500, dt: float = 0.01,
         ode: ModuleType = odeon) -> dict:
    """N objects (even: box edge 0.1 tilted <= 0.2 rad; odd: sphere r 0.05),
    grid pitch 0.15 from z 0.3, jitter ±0.02, dropped on a plane."""
    sim = Sim("hash", surface_layer=0.001, quick_iterations=20, ode=ode)
    sim.set_contacts(4, {"mode": ode.dContactApprox1, "mu": 0.5})
    ode.dCreatePlane(sim.space, 0, 0, 1, 0)
    side = max(1, round(n ** (1.0 / 3.0)))
    rng = _LCG(12345)
    off = (side - 1) * 0.15 / 2
    kinds, bodies = [], []
    for i in range(n):
        k, rem = divmod(i, side * side)
        jy, ix = divmod(rem, side)
        pos = (ix * 0.15 - off + rng.uniform(-0.02, 0.02),
               jy * 0.15 - off + rng.uniform(-0.02, 0.02), 0.3 + k * 0.15)
        if i % 2 == 0:
            axis = (rng.uniform(-1, 1), rng.uniform(-1, 1), rng.uniform(-1, 1))
            ang = rng.uniform(0, 0.2)
            g = ode.dCreateBox(sim.space, 0.1, 0.1, 0.1)
            R = ode.dRFromAxisAndAngle(*axis, ang)
            bodies.append(sim.body(pos, lambda m: ode.dMassSetBoxTotal(m, 1, 0.1, 0.1, 0.1),
                                   R=R, geom=g))
            kinds.append("box")
        else:
            g = ode.dCreateSphere(sim.space, 0.05)
            bodies.append(sim.body(pos, lambda m: ode.dMassSetSphereTotal(m, 1, 0.05), geom=g))
            kinds.append("sphere")
    contacts = 0
    for _ in range(steps):
        contacts = sim.collide()
        ode.dWorldQuickStep(sim.world, dt)
    pos = np.array([ode.dBodyGetPosition(b) for b in bodies])
    vel = np.array([ode.dBodyGetLinearVel(b) for b in bodies])
    box_speeds = sorted(float(np.linalg.norm(v)) for v, k in zip(vel, kinds, strict=True) if k == "box")
    p95 = box_speeds[min(len(box_speeds) - 1, math.ceil(0.95 * len(box_speeds)) - 1)]
    sim.destroy()
    return {"contacts_final": contacts, "box_speed_p95": p95,
            "max_abs_vz": float(np.max(np.abs(vel[:, 2]))), "min_z": float(pos[:, 2].min())}
