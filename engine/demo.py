"""A small text demo of the engine: a hinged pendulum and a motor, printed."""

from __future__ import annotations

import math
from typing import TextIO

from engine import ode


def run_demo(out: TextIO, seconds: float = 2.0, dt: float = 0.001) -> int:
    """Simulate a 1 m pendulum released horizontally and a hinge motor spinning
    a bar up to 1 rad/s; print a line every 0.25 s. Returns 0."""
    w = ode.dWorldCreate()
    ode.dWorldSetGravity(w, 0, 0, -9.81)
    arm = ode.dBodyCreate(w)
    m = ode.dMass()
    ode.dMassSetBoxTotal(m, 1.0, 1.0, 0.05, 0.05)
    ode.dBodySetMass(arm, m)
    ode.dBodySetPosition(arm, 0.5, 0, 0)
    pivot = ode.dJointCreateHinge(w, None)
    ode.dJointAttach(pivot, arm, None)
    ode.dJointSetHingeAnchor(pivot, 0, 0, 0)
    ode.dJointSetHingeAxis(pivot, 0, 1, 0)

    bar = ode.dBodyCreate(w)
    ode.dMassSetBoxTotal(m, 1.0, 0.5, 0.1, 0.1)
    ode.dBodySetMass(bar, m)
    ode.dBodySetPosition(bar, 0, 2, 0)
    ode.dBodySetGravityMode(bar, 0)
    motor = ode.dJointCreateHinge(w, None)
    ode.dJointAttach(motor, bar, None)
    ode.dJointSetHingeAnchor(motor, 0, 2, 0)
    ode.dJointSetHingeAxis(motor, 0, 0, 1)
    ode.dJointSetHingeParam(motor, ode.dParamVel, 1.0)
    ode.dJointSetHingeParam(motor, ode.dParamFMax, 10.0)

    out.write("Odeon engine demo: pendulum (dWorldStep) and hinge motor\n")
    out.write("   t [s]   pendulum angle [deg]   motor rate [rad/s]\n")
    steps = int(round(seconds / dt))
    every = int(round(0.25 / dt))
    for n in range(1, steps + 1):
        ode.dWorldStep(w, dt)
        if n % every == 0:
            angle = math.degrees(ode.dJointGetHingeAngle(pivot))
            rate = ode.dJointGetHingeAngleRate(motor)
            out.write(f"{n * dt:8.2f}   {angle:20.2f}   {rate:18.4f}\n")
    ode.dWorldDestroy(w)
    out.write("The desktop app comes with a later release; see README.md.\n")
    return 0
