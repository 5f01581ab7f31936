"""The small C structs of the ODE API as Python classes with C field names.

Vectors are numpy float64 arrays shaped like the C data: dVector3 -> (3,).
(``dMass`` lives in :mod:`engine.ode.mass`.)
"""

from __future__ import annotations

import numpy as np

SURFACE_FIELDS = ("mode", "mu", "mu2", "rho", "rho2", "rhoN", "bounce", "bounce_vel",
                  "soft_erp", "soft_cfm", "motion1", "motion2", "motionN", "slip1", "slip2")


class dSurfaceParameters:
    """Contact surface parameters; every field 0 when created (as C's zeroed struct)."""

    __slots__ = SURFACE_FIELDS

    def __init__(self, **fields: float) -> None:
        for name in SURFACE_FIELDS:
            setattr(self, name, 0)
        for name, value in fields.items():
            setattr(self, name, value)

    def copy(self) -> dSurfaceParameters:
        """A field-by-field copy."""
        return dSurfaceParameters(**{n: getattr(self, n) for n in SURFACE_FIELDS})

    def __repr__(self) -> str:
        inner = ", ".join(f"{n}={getattr(self, n)!r}" for n in SURFACE_FIELDS)
        return f"dSurfaceParameters({inner})"


class dContactGeom:
    """One contact point: pos (3,) m, normal (3,) unit, depth m, g1, g2, side1, side2."""

    __slots__ = ("pos", "normal", "depth", "g1", "g2", "side1", "side2")

    def __init__(self, pos=(0.0, 0.0, 0.0), normal=(0.0, 0.0, 0.0), depth: float = 0.0,
                 g1=None, g2=None, side1: int = -1, side2: int = -1) -> None:
        self.pos = np.array(pos, dtype=np.float64)
        self.normal = np.array(normal, dtype=np.float64)
        self.depth = float(depth)
        self.g1 = g1
        self.g2 = g2
        self.side1 = side1
        self.side2 = side2

    def __repr__(self) -> str:
        return (f"dContactGeom(pos={self.pos!r}, normal={self.normal!r}, depth={self.depth!r}, "
                f"g1={self.g1!r}, g2={self.g2!r}, side1={self.side1}, side2={self.side2})")


class dContact:
    """surface (dSurfaceParameters), geom (dContactGeom), fdir1 (3,)."""

    __slots__ = ("surface", "geom", "fdir1")

    def __init__(self, surface: dSurfaceParameters | None = None,
                 geom: dContactGeom | None = None, fdir1=(0.0, 0.0, 0.0)) -> None:
        self.surface = dSurfaceParameters() if surface is None else surface
        self.geom = dContactGeom() if geom is None else geom
        self.fdir1 = np.array(fdir1, dtype=np.float64)

    def __repr__(self) -> str:
        return f"dContact(surface={self.surface!r}, geom={self.geom!r}, fdir1={self.fdir1!r})"


class dJointFeedback:
    """Force/torque a joint applied to body 1 (f1, t1) and body 2 (f2, t2) in the
    last step, N and N·m in world coordinates; each a (3,) array."""

    __slots__ = ("f1", "t1", "f2", "t2")

    def __init__(self) -> None:
        self.f1 = np.zeros(3)
        self.t1 = np.zeros(3)
        self.f2 = np.zeros(3)
        self.t2 = np.zeros(3)

    def __repr__(self) -> str:
        return f"dJointFeedback(f1={self.f1!r}, t1={self.t1!r}, f2={self.f2!r}, t2={self.t2!r})"
