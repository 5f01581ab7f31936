"""Small scenes whose results must be the same bits on every x86-64 machine.

Run as ``python -m tests.engine.determinism_scenes`` it prints the final
states of every scene as JSON (floats as ``float.hex``);
tests/engine/test_determinism_portable.py runs it in subprocesses under
different OpenBLAS kernels, numba CPU targets, numpy SIMD features and glibc
libm variants and compares with tests/reference/determinism_portable.json.
``--record`` rewrites that file (only when a change of results is intended).

The scenes: the bit-identity scenes of test_step_bit_identity (smaller),
a collision scene (sphere, box, capsule, cylinder and trimesh geoms on a
plane through dSpaceCollide) and a Webots world run by engine.sim.Simulation
(axis-angle rotations, damping, a hinge).
"""

from __future__ import annotations

import json
import pathlib
import sys

import numpy as np

from engine import ode
from tests.engine import test_step_bit_identity as bit

REF = pathlib.Path(__file__).resolve().parents[1] / "reference" / "determinism_portable.json"

# a unit cube as a triangle mesh: 8 vertices (m), 12 triangles
_CUBE_V = np.array([[x, y, z] for x in (-0.05, 0.05) for y in (-0.05, 0.05)
                    for z in (-0.05, 0.05)])
_CUBE_T = np.array([[0, 1, 3], [0, 3, 2], [4, 6, 7], [4, 7, 5], [0, 4, 5], [0, 5, 1],
                    [2, 3, 7], [2, 7, 6], [0, 2, 6], [0, 6, 4], [1, 5, 7], [1, 7, 3]],
                   dtype=np.int32)


def _near(world, group, surface):
    def near(data, o1, o2) -> None:
        b1, b2 = ode.dGeomGetBody(o1), ode.dGeomGetBody(o2)
        if b1 is not None and b2 is not None and b1 == b2:
            return
        for cg in ode.dCollide(o1, o2, 8):
            j = ode.dJointCreateContact(world, group, ode.dContact(surface=surface, geom=cg))
            ode.dJointAttach(j, b1, b2)
    return near


def collision_scene(steps: int = 40, dt: float = 0.01) -> list[float]:
    """Geoms of five classes fall, tilted, on a plane and on each other."""
    ode.dRandSetSeed(0)
    w = ode.dWorldCreate()
    ode.dWorldSetGravity(w, 0, 0, -bit.G)
    space = ode.dSimpleSpaceCreate(None)
    group = ode.dJointGroupCreate(0)
    ode.dCreatePlane(space, 0.0, 0.0, 1.0, 0.0)
    data = ode.dGeomTriMeshDataCreate()
    ode.dGeomTriMeshDataBuildDouble(data, _CUBE_V, 3 * 8, len(_CUBE_V), _CUBE_T.ravel(),
                                    _CUBE_T.size, 3 * 4)
    makers = [
        (lambda: ode.dCreateSphere(space, 0.05), lambda m: ode.dMassSetSphereTotal(m, 1, 0.05)),
        (lambda: ode.dCreateBox(space, 0.1, 0.08, 0.06),
         lambda m: ode.dMassSetBoxTotal(m, 1, 0.1, 0.08, 0.06)),
        (lambda: ode.dCreateCapsule(space, 0.03, 0.08),
         lambda m: ode.dMassSetCapsuleTotal(m, 1, 3, 0.03, 0.08)),
        (lambda: ode.dCreateCylinder(space, 0.04, 0.08),
         lambda m: ode.dMassSetCylinderTotal(m, 1, 3, 0.04, 0.08)),
        (lambda: ode.dCreateTriMesh(space, data), lambda m: ode.dMassSetBoxTotal(m, 1, .1, .1, .1)),
    ]
    bodies = []
    for i in range(10):
        make_geom, set_mass = makers[i % len(makers)]
        b = ode.dBodyCreate(w)
        m = ode.dMass()
        set_mass(m)
        ode.dBodySetMass(b, m)
        ode.dBodySetPosition(b, 0.07 * (i % 4), 0.06 * (i // 4), 0.06 + 0.09 * (i % 3))
        ode.dBodySetRotation(b, ode.dRFromAxisAndAngle(1.0, 0.3 * i, 0.5, 0.2 + 0.15 * i))
        ode.dGeomSetBody(make_geom(), b)
        bodies.append(b)
    surface = ode.dSurfaceParameters(mode=ode.dContactApprox1, mu=0.6)
    near = _near(w, group, surface)
    for _ in range(steps):
        ode.dJointGroupEmpty(group)
        ode.dSpaceCollide(space, None, near)
        ode.dWorldQuickStep(w, dt)
    out = bit._state(bodies)
    ode.dJointGroupDestroy(group)
    ode.dSpaceDestroy(space)
    ode.dWorldDestroy(w)
    return out


_WBT = """#VRML_SIM R2025a utf8
WorldInfo {
  basicTimeStep 8
  defaultDamping Damping {
    linear 0.3
    angular 0.4
  }
}
Viewpoint {
}
Solid {
  boundingObject Plane {
    size 4 4
  }
}
Solid {
  translation 0 0 0.3
  rotation 0.3 -0.5 0.8 0.7
  children [
    HingeJoint {
      jointParameters HingeJointParameters {
        axis 0.2 1 0.1
        anchor 0.1 0 0
      }
      endPoint Solid {
        translation 0.2 0 0
        rotation 1 1 0 2.1
        boundingObject Capsule {
          radius 0.03
          height 0.1
        }
        physics Physics {
        }
      }
    }
  ]
  boundingObject Box {
    size 0.1 0.1 0.1
  }
  physics Physics {
  }
}
Solid {
  translation 0.4 0.1 0.2
  rotation -0.2 0.9 0.3 -1.3
  boundingObject Cylinder {
    radius 0.05
    height 0.1
  }
  physics Physics {
    damping Damping {
      linear 0.05
      angular 0.9
    }
  }
}
"""


def webots_scene(steps: int = 40) -> list[float]:
    """A .wbt world through engine.sim.Simulation; the Solids' translation and
    rotation fields (written back every step) and the bodies' states."""
    from engine.sim import Simulation
    from engine.world import parse_world

    ode.dRandSetSeed(0)
    sim = Simulation(parse_world(_WBT))
    for _ in range(steps):
        sim.step()
    out: list[float] = []
    bodies = [rec.ode_body for rec in sim.model.solids if rec.ode_body is not None]
    out.extend(bit._state(bodies))
    for rec in sim.model.solids:
        node = rec.node
        out.extend(float(v) for v in node.get("translation"))
        out.extend(float(v) for v in node.get("rotation"))
    return out


SCENES = {
    "contacts_quick": lambda: bit.contact_scene(True, 16, 8),
    "contacts_step": lambda: bit.contact_scene(False, 9, 6),
    "joints_quick": lambda: bit.joint_scene(True, steps=40),
    "joints_step": lambda: bit.joint_scene(False, steps=40),
    "collision": collision_scene,
    "webots_world": webots_scene,
}


def run_all() -> dict[str, list[str]]:
    """Every scene's results as float.hex strings."""
    return {name: [float(x).hex() for x in fn()] for name, fn in SCENES.items()}


if __name__ == "__main__":
    results = run_all()
    if "--record" in sys.argv:
        REF.write_text(json.dumps(results, indent=0) + "\n")
        print(f"wrote {REF}")
    else:
        print(json.dumps(results))
