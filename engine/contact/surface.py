"""Surface parameters of bodies and their blend for a contact pair.

Each body (or static Solid) has :class:`SurfaceParameters`: a friction
coefficient, a restitution coefficient, a contact stiffness (N/m) and a
contact damping (N·s/m). Infinite stiffness and damping mean a rigid
surface. A contact pair uses the blend of its two bodies' surfaces:

- restitution: the arithmetic mean;
- friction, stiffness, damping: the harmonic mean ``2xy / (x + y)`` (0 when
  either is 0), as the Klamp't simulation documentation states, so 0.5 and
  0.3 give 0.375. Klamp't's code differs in two ways we do not follow: it
  uses half the harmonic mean for stiffness and damping (two springs in
  series) and multiplies the friction by 0.707 (to shrink its friction
  pyramid). Our blended friction is the friction the contact has;
- where one side's stiffness (or damping) is infinite, the other side's
  value is used; both infinite stay infinite (a rigid contact).

A soft contact (finite stiffness) becomes ODE's soft ERP/CFM for the step h
(:func:`soft_erp_cfm`), which makes the contact a spring-damper of stiffness
kP and damping kD.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import NamedTuple


@dataclass(frozen=True)
class SurfaceParameters:
    """One body's surface.

    k_friction: Coulomb friction coefficient (dimensionless, >= 0);
    k_restitution: restitution coefficient (dimensionless, >= 0);
    k_stiffness: contact stiffness (N/m, > 0 or math.inf for rigid);
    k_damping: contact damping (N·s/m, >= 0 or math.inf for rigid).
    """

    k_friction: float
    k_restitution: float
    k_stiffness: float
    k_damping: float

    def __post_init__(self) -> None:
        for name in ("k_friction", "k_restitution", "k_stiffness", "k_damping"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, (int, float)):
                raise ValueError(f"SurfaceParameters: {name} must be a number, got {value!r}")
            if math.isnan(value) or value < 0:
                raise ValueError(f"SurfaceParameters: {name} must be >= 0 (not NaN), "
                                 f"got {value!r}")
            object.__setattr__(self, name, float(value))
        if math.isinf(self.k_friction) or math.isinf(self.k_restitution):
            raise ValueError("SurfaceParameters: k_friction and k_restitution must be finite, "
                             f"got {self.k_friction!r}, {self.k_restitution!r}")


#: terrain and static Solids (Klamp't's terrain default): soft ground
STATIC_SURFACE = SurfaceParameters(0.3, 0.1, 8e5, 2e5)
#: rigid objects (Klamp't's rigid-object default)
BODY_SURFACE = SurfaceParameters(0.5, 0.0, math.inf, math.inf)
#: robot links (Klamp't's robot default)
ROBOT_LINK_SURFACE = SurfaceParameters(1.0, 0.1, math.inf, math.inf)


class BlendedSurface(NamedTuple):
    """The surface of one contact pair.

    mu: friction coefficient; restitution: restitution coefficient;
    stiffness: N/m (math.inf: rigid); damping: N·s/m (math.inf: rigid).
    """

    mu: float
    restitution: float
    stiffness: float
    damping: float

    @property
    def rigid(self) -> bool:
        """True when the contact has no finite stiffness (world ERP/CFM apply)."""
        return math.isinf(self.stiffness)


class SoftConstraint(NamedTuple):
    """ODE's soft contact parameters for one step: erp (dimensionless, in
    (0, 1]) and cfm (m/N per unit of step, ODE's constraint force mixing)."""

    erp: float
    cfm: float


def harmonic_mean(x: float, y: float) -> float:
    """``2xy / (x + y)``, 0 when either is 0; an infinite side gives the
    other side's value, both infinite give infinity."""
    if x == 0.0 or y == 0.0:
        return 0.0
    if math.isinf(x):
        return y
    if math.isinf(y):
        return x
    return 2.0 * x * y / (x + y)


def blend(a: SurfaceParameters, b: SurfaceParameters) -> BlendedSurface:
    """The pair surface of bodies with surfaces ``a`` and ``b`` (module docstring)."""
    return BlendedSurface(
        mu=harmonic_mean(a.k_friction, b.k_friction),
        restitution=0.5 * (a.k_restitution + b.k_restitution),
        stiffness=harmonic_mean(a.k_stiffness, b.k_stiffness),
        damping=harmonic_mean(a.k_damping, b.k_damping),
    )


def soft_erp_cfm(blended: BlendedSurface, h: float) -> SoftConstraint | None:
    """ERP and CFM that make a contact a spring (kP, N/m) and damper (kD,
    N·s/m) for the step ``h`` (s): ``erp = h·kP / (h·kP + kD)``,
    ``cfm = 1 / (h·kP + kD)``. None for a rigid contact (infinite stiffness).
    An infinite damping with finite stiffness gives erp 0 and cfm 0.
    """
    if not h > 0.0 or math.isinf(h):
        raise ValueError(f"soft_erp_cfm: the step h must be a positive finite time (s), got {h!r}")
    if blended.rigid:
        return None
    kp, kd = blended.stiffness, blended.damping
    denominator = h * kp + kd
    if denominator == 0.0:
        raise ValueError("soft_erp_cfm: stiffness and damping are both 0 (no contact force)")
    if math.isinf(denominator):
        return SoftConstraint(0.0, 0.0)
    return SoftConstraint(h * kp / denominator, 1.0 / denominator)
