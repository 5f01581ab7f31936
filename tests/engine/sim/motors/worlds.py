"""Worlds of the motor tests: a free hinge, a gravity arm and a slider on a static base.

Free hinge: a 2 kg sphere (radius 0.05 m) whose centre sits 0.1 m out along x
from a vertical hinge (axis z), so gravity exerts no torque about the axis and
I = m d² + 2/5 m r² = 0.022 kg·m².
"""

from __future__ import annotations

from pathlib import Path

from tests.engine.sim.helpers import make_sim

WORLDS = Path(__file__).parent / "worlds"

MASS = 2.0
ARM = 0.1
RADIUS = 0.05
#: the free hinge's inertia about its axis [kg·m²]
INERTIA = MASS * ARM * ARM + 0.4 * MASS * RADIUS * RADIUS


def hinge(device: str = "RotationalMotor { }", params: str = "", axis: str = "0 0 1",
          info: str = "basicTimeStep 8 CFM 1e-10 physicsDisableTime 0", **kw):
    """A Simulation of the free hinge (module docstring) with ``device`` in its
    device field; ``axis`` "0 1 0" makes it a gravity arm (τ = m g d at 0)."""
    return make_sim(f"""
Robot {{ children [
  HingeJoint {{
    jointParameters HingeJointParameters {{ axis {axis} {params} }}
    device [ {device} ]
    endPoint Solid {{ translation {ARM} 0 0 boundingObject Sphere {{ radius {RADIUS} }}
      physics Physics {{ density -1 mass {MASS} }} }}
  }}
] controller "<none>" }}
""", info, **kw)


def slider(device: str = "LinearMotor { }", params: str = "",
           info: str = "basicTimeStep 8 CFM 1e-10 physicsDisableTime 0"):
    """A Simulation of a 2 kg box on a vertical slider (axis z: gravity pulls it down)."""
    return make_sim(f"""
Robot {{ children [
  SliderJoint {{
    jointParameters JointParameters {{ axis 0 0 1 {params} }}
    device [ {device} ]
    endPoint Solid {{ boundingObject Box {{ size 0.1 0.1 0.1 }}
      physics Physics {{ density -1 mass {MASS} }} }}
  }}
] controller "<none>" }}
""", info)
