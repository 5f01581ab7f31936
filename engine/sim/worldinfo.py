"""WorldInfo -> ODE world parameters (docs/webots-behaviour.md, "World files").

gravity (a magnitude along -up: -Z in ENU, -Y in NUE and EUN), ERP (reset to
0.2 outside [0, 1]), CFM (reset to 1e-5 when <= 0), basicTimeStep [ms]
(reset to 32 when <= 0; below `MIN_TIME_STEP` a BuildError), auto-disable
(physicsDisableTime [s] > 0 turns it on, auto-disable steps 0, linear/angular
thresholds [m/s, rad/s]), defaultDamping (per second, converted per step: 1 - (1 - d)^(dt)),
randomSeed (dRandSetSeed; -1 = time based), contactProperties, stepper.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

from engine import ode
from engine.ode.kernels import detmath
from engine.sim.errors import BuildError

#: smallest basicTimeStep [ms] built: 1 µs (one simulated second = 1e6 steps).
MIN_TIME_STEP = 0.001

_UP = {"ENU": (0.0, 0.0, 1.0), "NUE": (0.0, 1.0, 0.0), "EUN": (0.0, 1.0, 0.0)}


@dataclass
class WorldSettings:
    """Values read from WorldInfo, already corrected as Webots does."""

    gravity: tuple[float, float, float] = (0.0, 0.0, -9.81)
    erp: float = 0.2
    cfm: float = 1e-5
    basic_time_step: float = 32.0
    disable_time: float = 1.0
    disable_linear: float = 0.01
    disable_angular: float = 0.01
    default_damping: tuple[float, float] | None = None
    random_seed: int = 0
    stepper: str = "step"
    physics: str = "<none>"
    contact_properties: list = field(default_factory=list)

    @property
    def dt(self) -> float:
        """The ODE step [s]."""
        return self.basic_time_step * 0.001

    def apply(self, w) -> None:
        """Set the ODE world's parameters and seed ODE's random generator."""
        ode.dWorldSetGravity(w, *self.gravity)
        ode.dWorldSetERP(w, self.erp)
        ode.dWorldSetCFM(w, self.cfm)
        ode.dWorldSetLinearDampingThreshold(w, 0.0)
        ode.dWorldSetAngularDampingThreshold(w, 0.0)
        if self.disable_time > 0.0:
            ode.dWorldSetAutoDisableFlag(w, 1)
            ode.dWorldSetAutoDisableTime(w, self.disable_time)
            ode.dWorldSetAutoDisableSteps(w, 0)
            ode.dWorldSetAutoDisableLinearThreshold(w, self.disable_linear)
            ode.dWorldSetAutoDisableAngularThreshold(w, self.disable_angular)
        ode.dRandSetSeed(self.random_seed)


def read_world_info(info, warn) -> WorldSettings:
    """Settings of a WorldInfo node (defaults when None)."""
    s = WorldSettings()
    if info is None:
        warn("the world has no WorldInfo node; using Webots' defaults")
        return s
    up = _UP[info.get("coordinateSystem")]
    g = float(info.get("gravity"))
    s.gravity = (-g * up[0], -g * up[1], -g * up[2])
    s.erp = float(info.get("ERP"))
    if not 0.0 <= s.erp <= 1.0:
        warn(f"WorldInfo.ERP {s.erp} is outside [0, 1]; using 0.2")
        s.erp = 0.2
    s.cfm = float(info.get("CFM"))
    if s.cfm <= 0.0:
        warn(f"WorldInfo.CFM {s.cfm} must be positive; using 1e-05")
        s.cfm = 1e-5
    s.basic_time_step = float(info.get("basicTimeStep"))
    if s.basic_time_step <= 0.0:
        warn(f"WorldInfo.basicTimeStep {s.basic_time_step} must be positive; using 32")
        s.basic_time_step = 32.0
    elif s.basic_time_step < MIN_TIME_STEP:
        raise BuildError(f"WorldInfo.basicTimeStep {s.basic_time_step:g} ms is below the "
                         f"minimum {MIN_TIME_STEP:g} ms (a run would never end)", info)
    s.disable_time = float(info.get("physicsDisableTime"))
    s.disable_linear = float(info.get("physicsDisableLinearThreshold"))
    s.disable_angular = float(info.get("physicsDisableAngularThreshold"))
    damping = info.get("defaultDamping")
    if damping is not None:
        s.default_damping = (float(damping.get("linear")), float(damping.get("angular")))
    seed = int(info.get("randomSeed"))
    s.random_seed = int(time.time()) & 0x7FFFFFFF if seed == -1 else seed
    s.stepper = info.get("stepper")
    s.physics = info.get("physics")
    s.contact_properties = list(info.get("contactProperties"))
    return s


def per_step(d: float, dt: float) -> float:
    """A per-second damping ratio ``d`` in [0, 1] as ODE's per-step scale."""
    d = min(max(d, 0.0), 1.0)
    # pow written by us: libm's pow differs in the last bit between CPUs
    return 1.0 - detmath.pow(1.0 - d, dt)


def apply_damping(body, damping_node, settings: WorldSettings) -> None:
    """The body's Damping (its Physics.damping, else WorldInfo.defaultDamping)."""
    if damping_node is not None:
        lin, ang = float(damping_node.get("linear")), float(damping_node.get("angular"))
    elif settings.default_damping is not None:
        lin, ang = settings.default_damping
    else:
        return
    ode.dBodySetLinearDamping(body, per_step(lin, settings.dt))
    ode.dBodySetAngularDamping(body, per_step(ang, settings.dt))
    ode.dBodySetLinearDampingThreshold(body, 0.0)
    ode.dBodySetAngularDampingThreshold(body, 0.0)
