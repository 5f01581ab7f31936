"""The dynamics world: global parameters, body and joint storage, dWorld* API.

Defaults are ODE 0.16.2's (double build): gravity 0, ERP 0.2, CFM 1e-10,
QuickStep 20 iterations with SOR w 1.3, contact max correcting velocity
infinite, contact surface layer 0, auto-disable off (thresholds 0.01,
10 steps, 0 s, 1 sample), no damping (thresholds 0.01), no angular speed cap.
"""

from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np

from engine.ode import checks
from engine.ode.bodystore import BodyStore
from engine.ode.errors import ODEError
from engine.ode.jointstore import JointStore
from engine.ode.lifetime import note_destroyed

#: largest dWorldSetQuickStepNumIterations accepted (ODE takes any int; 1e9
#: iterations make one step run for hours, 1e300 does not fit the solver's counter)
MAX_QUICKSTEP_ITERATIONS = 100_000


class AutoDisableParams:
    """Auto-disable settings (thresholds in m/s and rad/s; time in s)."""

    __slots__ = ("flag", "lin_thr", "ang_thr", "steps", "time", "samples")

    def __init__(self) -> None:
        self.flag = False
        self.lin_thr = 0.01
        self.ang_thr = 0.01
        self.steps = 10
        self.time = 0.0
        self.samples = 1


class World:
    """A dynamics world (ODE's dWorldID).

    Attributes: ``gravity (3,)`` m/s², ``erp``, ``cfm``, ``qs_iterations``,
    ``qs_w``, ``max_correcting_vel`` m/s, ``surface_layer`` m,
    ``autodisable``, ``lin_damp``/``ang_damp`` scales with their
    thresholds (m/s, rad/s), ``max_ang_speed`` rad/s, ``bodies`` and
    ``joints`` storage, ``data`` (user data).
    """

    def __init__(self) -> None:
        self.gravity = np.zeros(3)
        self.erp = 0.2
        self.cfm = 1e-10
        self.qs_iterations = 20
        self.qs_w = 1.3
        self.qs_warm_start = False
        self.max_correcting_vel = math.inf
        self.surface_layer = 0.0
        self.autodisable = AutoDisableParams()
        self.lin_damp = 0.0
        self.ang_damp = 0.0
        self.lin_damp_thr = 0.01
        self.ang_damp_thr = 0.01
        self.max_ang_speed = math.inf
        self.bodies = BodyStore()
        self.joints = JointStore()
        self.feedback_joints: dict = {}   # joint row -> joint with a dJointFeedback
        self.moved_callbacks: dict = {}   # body row -> body with a moved callback
        self.invI_world = np.zeros((0, 3, 3))  # step scratch: world-frame inverse inertia
        self.step_args: tuple = ()             # cached kernel arguments (see step.stepper)
        self.step_args_key: tuple | None = None
        self.step_settings: tuple = ()         # cached step config and world parameters
        self.step_settings_key: tuple | None = None
        self.step_entry = None                 # step_kernel's compiled entry for them
        self.step_entry_for: tuple = ((), ())  # the (settings, arrays) it was chosen for
        self.alive = True
        self.data = None
        #: Odeon extension: called (no arguments) before a joint is created one by
        #: one in this world (engine.sim makes the default contacts of the pairs
        #: judged so far first, so joint order is the per-pair order)
        self.before_joint_creation = None

    def __repr__(self) -> str:
        return f"<World bodies={self.bodies.count - len(self.bodies.free)}>"


def world_of(w, function: str, argument: str = "world") -> World:
    """``w`` checked to be a live World."""
    if not isinstance(w, World):
        raise ODEError(function, argument, f"expected a dWorldID, got {w!r}")
    if not w.alive:
        raise ODEError(function, argument, "the world has been destroyed")
    return w


# --------------------------------------------------------------------------- lifetime
#: Teardown order of dWorldDestroy: the joints go before the bodies they attach.
TEARDOWN_JOINTS = 0
TEARDOWN_BODIES = 1

#: order -> ``destroy(world)``: what dWorldDestroy calls, lowest order first. The
#: modules that put objects into a world (bodies, joints) register how to free
#: them, so the world needs no import of theirs.
_TEARDOWN: dict[int, Callable[[World], None]] = {}


def register_teardown(order: int, destroy: Callable[[World], None]) -> None:
    """Have dWorldDestroy call ``destroy(world)`` at position ``order`` (``TEARDOWN_*``)."""
    _TEARDOWN[order] = destroy


#: ``settle(world, body_row)``: puts every joint attached to the body into its
#: joint list (joints made in bulk join them only when asked: engine.ode.joints.bulk,
#: which registers itself; the body functions call `settle_body_joints`).
_BODY_JOINT_SETTLERS: list[Callable[[World, int], None]] = []


def register_body_joint_settler(settle: Callable[[World, int], None]) -> None:
    """Have `settle_body_joints` call ``settle(world, body_row)``."""
    if settle not in _BODY_JOINT_SETTLERS:
        _BODY_JOINT_SETTLERS.append(settle)


def settle_body_joints(world: World, body_row: int) -> None:
    """Make body ``body_row``'s joint list complete (see `register_body_joint_settler`)."""
    for settle in _BODY_JOINT_SETTLERS:
        settle(world, body_row)


def dWorldCreate() -> World:
    """A new, empty world."""
    return World()


def dWorldDestroy(w: World) -> None:
    """Destroy the world and every body and joint in it."""
    w = world_of(w, "dWorldDestroy")
    for order in sorted(_TEARDOWN):
        _TEARDOWN[order](w)
    w.alive = False
    note_destroyed()


# --------------------------------------------------------------------------- parameters
def dWorldSetGravity(w: World, x: float, y: float, z: float) -> None:
    """Set the gravity vector (m/s²)."""
    world_of(w, "dWorldSetGravity").gravity = checks.xyz(x, y, z, "dWorldSetGravity")


def dWorldGetGravity(w: World) -> np.ndarray:
    """The gravity vector, shape (3,)."""
    return world_of(w, "dWorldGetGravity").gravity.copy()


def dWorldSetERP(w: World, erp: float) -> None:
    """Set the global error reduction parameter (typically 0.1-0.8)."""
    world_of(w, "dWorldSetERP").erp = checks.real(erp, "dWorldSetERP", "erp")


def dWorldGetERP(w: World) -> float:
    return world_of(w, "dWorldGetERP").erp


def dWorldSetCFM(w: World, cfm: float) -> None:
    """Set the global constraint force mixing value (typically 1e-9 to 1)."""
    world_of(w, "dWorldSetCFM").cfm = checks.real(cfm, "dWorldSetCFM", "cfm")


def dWorldGetCFM(w: World) -> float:
    return world_of(w, "dWorldGetCFM").cfm


def dWorldSetQuickStepNumIterations(w: World, num: int) -> None:
    """Set the number of SOR iterations of dWorldQuickStep (default 20, at
    most `MAX_QUICKSTEP_ITERATIONS`: more would make one step run for minutes)."""
    n = checks.integer(num, "dWorldSetQuickStepNumIterations", "num")
    if not 0 <= n <= MAX_QUICKSTEP_ITERATIONS:
        raise ODEError("dWorldSetQuickStepNumIterations", "num",
                       f"must be in [0, {MAX_QUICKSTEP_ITERATIONS}], got {n}")
    world_of(w, "dWorldSetQuickStepNumIterations").qs_iterations = n


def dWorldGetQuickStepNumIterations(w: World) -> int:
    return world_of(w, "dWorldGetQuickStepNumIterations").qs_iterations


def dWorldSetQuickStepW(w: World, over_relaxation: float) -> None:
    """Set the SOR over-relaxation parameter of dWorldQuickStep (default 1.3)."""
    world_of(w, "dWorldSetQuickStepW").qs_w = checks.real(
        over_relaxation, "dWorldSetQuickStepW", "over_relaxation")


def dWorldGetQuickStepW(w: World) -> float:
    return world_of(w, "dWorldGetQuickStepW").qs_w


def dWorldSetContactMaxCorrectingVel(w: World, vel: float) -> None:
    """Cap the velocity contacts may use to correct penetration (m/s)."""
    v = checks.real_or_inf(vel, "dWorldSetContactMaxCorrectingVel", "vel")
    world_of(w, "dWorldSetContactMaxCorrectingVel").max_correcting_vel = v


def dWorldGetContactMaxCorrectingVel(w: World) -> float:
    return world_of(w, "dWorldGetContactMaxCorrectingVel").max_correcting_vel


def dWorldSetContactSurfaceLayer(w: World, depth: float) -> None:
    """Depth (m) by which contacts may sink in without correction."""
    d = checks.real(depth, "dWorldSetContactSurfaceLayer", "depth")
    world_of(w, "dWorldSetContactSurfaceLayer").surface_layer = d


def dWorldGetContactSurfaceLayer(w: World) -> float:
    return world_of(w, "dWorldGetContactSurfaceLayer").surface_layer


# --------------------------------------------------------------------------- auto-disable
def dWorldSetAutoDisableFlag(w: World, do_auto_disable: int) -> None:
    world_of(w, "dWorldSetAutoDisableFlag").autodisable.flag = bool(do_auto_disable)


def dWorldGetAutoDisableFlag(w: World) -> int:
    return int(world_of(w, "dWorldGetAutoDisableFlag").autodisable.flag)


def dWorldSetAutoDisableLinearThreshold(w: World, threshold: float) -> None:
    t = checks.real(threshold, "dWorldSetAutoDisableLinearThreshold", "threshold")
    world_of(w, "dWorldSetAutoDisableLinearThreshold").autodisable.lin_thr = t


def dWorldGetAutoDisableLinearThreshold(w: World) -> float:
    return world_of(w, "dWorldGetAutoDisableLinearThreshold").autodisable.lin_thr


def dWorldSetAutoDisableAngularThreshold(w: World, threshold: float) -> None:
    t = checks.real(threshold, "dWorldSetAutoDisableAngularThreshold", "threshold")
    world_of(w, "dWorldSetAutoDisableAngularThreshold").autodisable.ang_thr = t


def dWorldGetAutoDisableAngularThreshold(w: World) -> float:
    return world_of(w, "dWorldGetAutoDisableAngularThreshold").autodisable.ang_thr


def dWorldSetAutoDisableSteps(w: World, steps: int) -> None:
    n = checks.integer(steps, "dWorldSetAutoDisableSteps", "steps")
    world_of(w, "dWorldSetAutoDisableSteps").autodisable.steps = n


def dWorldGetAutoDisableSteps(w: World) -> int:
    return world_of(w, "dWorldGetAutoDisableSteps").autodisable.steps


def dWorldSetAutoDisableTime(w: World, time: float) -> None:
    t = checks.real(time, "dWorldSetAutoDisableTime", "time")
    world_of(w, "dWorldSetAutoDisableTime").autodisable.time = t


def dWorldGetAutoDisableTime(w: World) -> float:
    return world_of(w, "dWorldGetAutoDisableTime").autodisable.time


def dWorldSetAutoDisableAverageSamplesCount(w: World, average_samples_count: int) -> None:
    n = checks.integer(average_samples_count, "dWorldSetAutoDisableAverageSamplesCount",
                       "average_samples_count")
    world_of(w, "dWorldSetAutoDisableAverageSamplesCount").autodisable.samples = max(n, 0)


def dWorldGetAutoDisableAverageSamplesCount(w: World) -> int:
    return world_of(w, "dWorldGetAutoDisableAverageSamplesCount").autodisable.samples


# --------------------------------------------------------------------------- damping
def dWorldSetLinearDamping(w: World, scale: float) -> None:
    """Default linear damping scale of new bodies (0 = none)."""
    s = checks.real(scale, "dWorldSetLinearDamping", "scale")
    world_of(w, "dWorldSetLinearDamping").lin_damp = s


def dWorldGetLinearDamping(w: World) -> float:
    return world_of(w, "dWorldGetLinearDamping").lin_damp


def dWorldSetAngularDamping(w: World, scale: float) -> None:
    s = checks.real(scale, "dWorldSetAngularDamping", "scale")
    world_of(w, "dWorldSetAngularDamping").ang_damp = s


def dWorldGetAngularDamping(w: World) -> float:
    return world_of(w, "dWorldGetAngularDamping").ang_damp


def dWorldSetDamping(w: World, linear_scale: float, angular_scale: float) -> None:
    dWorldSetLinearDamping(w, linear_scale)
    dWorldSetAngularDamping(w, angular_scale)


def dWorldSetLinearDampingThreshold(w: World, threshold: float) -> None:
    t = checks.real(threshold, "dWorldSetLinearDampingThreshold", "threshold")
    world_of(w, "dWorldSetLinearDampingThreshold").lin_damp_thr = t


def dWorldGetLinearDampingThreshold(w: World) -> float:
    return world_of(w, "dWorldGetLinearDampingThreshold").lin_damp_thr


def dWorldSetAngularDampingThreshold(w: World, threshold: float) -> None:
    t = checks.real(threshold, "dWorldSetAngularDampingThreshold", "threshold")
    world_of(w, "dWorldSetAngularDampingThreshold").ang_damp_thr = t


def dWorldGetAngularDampingThreshold(w: World) -> float:
    return world_of(w, "dWorldGetAngularDampingThreshold").ang_damp_thr


def dWorldSetMaxAngularSpeed(w: World, max_speed: float) -> None:
    """Default angular speed cap of new bodies (rad/s; inf = none)."""
    s = checks.real_or_inf(max_speed, "dWorldSetMaxAngularSpeed", "max_speed")
    world_of(w, "dWorldSetMaxAngularSpeed").max_ang_speed = s


def dWorldGetMaxAngularSpeed(w: World) -> float:
    return world_of(w, "dWorldGetMaxAngularSpeed").max_ang_speed


# --------------------------------------------------------------------------- helpers
def dWorldImpulseToForce(w: World, stepsize: float, ix: float, iy: float,
                         iz: float) -> np.ndarray:
    """The force (N) that applied over the next step of ``stepsize`` s gives
    the impulse (N·s) ``(ix, iy, iz)``: impulse / stepsize, shape (3,)."""
    world_of(w, "dWorldImpulseToForce")
    h = checks.real(stepsize, "dWorldImpulseToForce", "stepsize")
    if h <= 0:
        raise ODEError("dWorldImpulseToForce", "stepsize", f"must be > 0, got {h}")
    return checks.xyz(ix, iy, iz, "dWorldImpulseToForce", "ix, iy, iz") / h
