"""Physics node -> dMass in the Solid's frame (Webots' rules).

- ``inertiaMatrix`` given (2 vectors): ``I11 I22 I33, I12 I13 I23`` is the
  inertia about the centre of mass, in the Solid frame's axes (Webots'
  Physics documentation); the centre is ``centerOfMass`` or the origin. The
  dMass is built at the origin and translated there. Needs ``mass > 0``.
- otherwise the mass comes from the boundingObject's primitives: each
  primitive's dMass at ``density`` (1 when density is -1) is rotated and
  translated into the Solid frame and summed (overlaps ignored); a positive
  ``mass`` then rescales the sum (``dMassAdjust``, density ignored, with a
  warning when both are positive). Both -1: warning, density 1000.
- no volume at all (no boundingObject): a sphere of radius 0.1 m carrying
  ``mass`` (or 1 kg) — our choice, with a warning.
- ``centerOfMass`` given (1 vector): the summed mass is moved so its centre is
  there (the inertia about the centre is kept).
"""

from __future__ import annotations

import numpy as np

from engine import ode
from engine.sim.geometry import BuildError, Primitive, primitive_mass

#: Radius [m] of the sphere used for a Physics without any volume to weigh.
FALLBACK_RADIUS = 0.1


def solid_mass(physics, leaves: list[Primitive], label: str, warn) -> ode.dMass:
    """The dMass of one Solid (not merged) in its own frame."""
    mass = float(physics.get("mass"))
    density = float(physics.get("density"))
    com = physics.get("centerOfMass")
    inertia = physics.get("inertiaMatrix")
    if len(inertia) not in (0, 2):
        raise BuildError(f"{label}: Physics.inertiaMatrix needs 0 or 2 vectors, got {len(inertia)}")
    if len(com) > 1:
        raise BuildError(f"{label}: Physics.centerOfMass holds at most 1 vector, got {len(com)}")
    m = ode.dMass()
    if inertia:
        if not mass > 0.0:
            raise BuildError(f"{label}: Physics.inertiaMatrix requires a positive Physics.mass")
        (i11, i22, i33), (i12, i13, i23) = inertia
        try:
            # Webots: inertiaMatrix is about the centre of mass (Solid frame axes),
            # so it is set at the origin, then moved to centerOfMass (parallel axes)
            ode.dMassSetParameters(m, mass, 0.0, 0.0, 0.0, i11, i22, i33, i12, i13, i23)
        except ValueError as exc:
            raise BuildError(f"{label}: Physics.inertiaMatrix: {exc}") from None
        if not ode.dMassCheck(m):
            raise BuildError(f"{label}: Physics.inertiaMatrix is not positive definite")
        if com:
            ode.dMassTranslate(m, *com[0])
        return m
    if mass > 0.0 and density > 0.0:
        warn(f"{label}: Physics has both 'mass' and 'density'; the 'density' will be ignored")
    if not mass > 0.0 and not density > 0.0:
        warn(f"{label}: Physics 'mass' and 'density' are both -1; using density 1000 kg/m^3")
        density = 1000.0
    parts = [p for p in (primitive_mass(leaf, density if density > 0 else 1.0)
                         for leaf in leaves) if p is not None]
    if parts:
        for part in parts:
            if m.mass == 0.0:
                m = part
            else:
                ode.dMassAdd(m, part)
        if mass > 0.0:
            ode.dMassAdjust(m, mass)
    else:
        warn(f"{label}: no boundingObject volume to compute the inertia from; using a "
             f"sphere of radius {FALLBACK_RADIUS} m")
        ode.dMassSetSphereTotal(m, mass if mass > 0.0 else 1.0, FALLBACK_RADIUS)
    if com:
        c = np.asarray(m.c, dtype=np.float64)[:3]
        target = np.asarray(com[0], dtype=np.float64)
        ode.dMassTranslate(m, *(target - c))
        # dMassTranslate shifts the inertia by the parallel-axis theorem about
        # the reference point; the centre-of-mass inertia is unchanged
    return m


def transformed(m: ode.dMass, R: np.ndarray, t: np.ndarray) -> ode.dMass:
    """A copy of ``m`` rotated by ``R`` (3, 3) then translated by ``t`` (3,)."""
    out = ode.dMass()
    out.mass = m.mass
    out.c = np.array(m.c, dtype=np.float64).copy()
    out.I = np.array(m.I, dtype=np.float64).copy()
    ode.dMassRotate(out, R)
    ode.dMassTranslate(out, *t)
    return out
