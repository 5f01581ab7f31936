"""`SimBody`: one simulated body of a `Simulator`, in Klamp't's conventions.

A SimBody is a Solid with an ID (`engine.klampt.world_index`). Its frame is
the Solid's own frame (translation/rotation fields), not the centre of mass
the ODE body sits at; rotations are 9-lists in **column-major** order (as
Klamp't's so3), velocities are (w, v) with the angular one first and v the
velocity of the frame's origin, all in world coordinates (m, rad, s).

A static Solid (terrain) has a SimBody too: it reads its frame, zero
velocity, and its surface and padding can be set; moving it, changing its
velocity or pushing it is a ValueError. Forces added by `applyForceAtPoint`,
`applyForceAtLocalPoint` and `applyWrench` act during every sub-step of the
next `Simulator.simulate` call and are then dropped.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from typing import NamedTuple

import numpy as np

from engine import ode
from engine.contact.surface import SurfaceParameters as EngineSurface
from engine.ode.kernels.detlinalg import matmul
from engine.sim.poses import Frame


@dataclass
class SurfaceParameters:
    """Klamp't's SurfaceParameters: kFriction, kRestitution (dimensionless),
    kStiffness [N/m] and kDamping [N·s/m] (math.inf: rigid)."""

    kFriction: float = 0.5
    kRestitution: float = 0.0
    kStiffness: float = math.inf
    kDamping: float = math.inf

    @staticmethod
    def of(surface: EngineSurface) -> SurfaceParameters:
        return SurfaceParameters(surface.k_friction, surface.k_restitution,
                                 surface.k_stiffness, surface.k_damping)

    def engine(self) -> EngineSurface:
        """The engine's (checked) surface of these values."""
        return EngineSurface(self.kFriction, self.kRestitution, self.kStiffness, self.kDamping)


class Wrench(NamedTuple):
    """A force held over the next simulate call: ``force (3,)`` N, ``torque (3,)``
    N·m, applied at ``point (3,)`` (world m) when ``at_world``, or at ``point``
    in the Solid's frame when ``at_local``, else at the centre of mass."""

    force: np.ndarray
    torque: np.ndarray
    point: np.ndarray
    at_world: bool
    at_local: bool


def _vec3(name: str, value) -> np.ndarray:
    try:
        v = np.array([float(x) for x in value], dtype=np.float64)
    except TypeError:
        raise ValueError(f"{name}: expected 3 numbers, got {value!r}") from None
    if v.shape != (3,) or not np.all(np.isfinite(v)):
        raise ValueError(f"{name}: expected 3 finite numbers, got {value!r}")
    return v


def column_major(R: np.ndarray) -> list[float]:
    """A (3, 3) rotation as Klamp't's 9-list (column after column)."""
    return np.asarray(R, dtype=float).T.reshape(9).tolist()


def from_column_major(name: str, R) -> np.ndarray:
    """A Klamp't 9-list rotation as a (3, 3) matrix (checked orthonormal)."""
    try:
        values = [float(x) for x in R]
    except TypeError:
        raise ValueError(f"{name}: expected a 9-list rotation, got {R!r}") from None
    if len(values) != 9 or not all(math.isfinite(v) for v in values):
        raise ValueError(f"{name}: expected 9 finite numbers (column-major), got {R!r}")
    M = np.array(values).reshape(3, 3).T
    err = np.abs(np.asarray(matmul(M.T, M)) - np.eye(3)).max()
    if err > 1e-6:
        raise ValueError(f"{name}: the rotation is not orthonormal (R^T R differs from I "
                         f"by {err:.2g})")
    return M


class SimBody:
    """One body of a Simulator (module docstring). Made by `Simulator.body`."""

    def __init__(self, simulator, body_id: int, record) -> None:
        self._simulator = simulator
        self._id = body_id
        self.record = record
        self.wrenches: list[Wrench] = []

    # ------------------------------------------------------------ identity
    def getID(self) -> int:
        return self._id

    @property
    def _body(self):
        return self.record.ode_body

    def _moving(self, what: str):
        body = self._body
        if body is None:
            raise ValueError(f"SimBody.{what}: body {self._id} ({self.record.label}) is static "
                             f"(terrain): it has no dynamics to change")
        return body

    # ------------------------------------------------------------ enable
    def enable(self, enabled: bool = True) -> None:
        """Take the body (and its geoms) out of the simulation, or back in."""
        body = self._moving("enable")
        if enabled:
            ode.dBodyEnable(body)
        else:
            ode.dBodyDisable(body)
        for leaf in self.record.geoms.leaves:
            (ode.dGeomEnable if enabled else ode.dGeomDisable)(leaf.geom)

    def isEnabled(self) -> bool:
        body = self._body
        return True if body is None else bool(ode.dBodyIsEnabled(body))

    def enableDynamics(self, enabled: bool = True) -> None:
        """False: the body moves only by its velocity (kinematic), forces do nothing."""
        body = self._moving("enableDynamics")
        if enabled:
            ode.dBodySetDynamic(body)
        else:
            ode.dBodySetKinematic(body)

    def isDynamicsEnabled(self) -> bool:
        body = self._body
        return body is not None and not ode.dBodyIsKinematic(body)

    # ------------------------------------------------------------ pose
    def _frame(self):
        return self._simulator.simulation.solid_world_frame(self.record)

    def getTransform(self) -> tuple[list[float], list[float]]:
        """(R 9-list column-major, t 3-list m) of the Solid's frame in the world."""
        f = self._frame()
        return column_major(f.R), np.asarray(f.t, dtype=float).tolist()

    def setTransform(self, R, t) -> None:
        """Place the Solid's frame at rotation ``R`` (9-list column-major) and ``t`` [m]."""
        body = self._moving("setTransform")
        Rs = from_column_major("SimBody.setTransform: R", R)
        ts = _vec3("SimBody.setTransform: t", t)
        off = self.record.body_offset or Frame.identity()
        # solid = body o offset  =>  body = solid o offset^-1
        Rb = np.asarray(matmul(Rs, np.asarray(off.R).T))
        tb = ts - np.asarray(matmul(Rb, np.asarray(off.t, dtype=float)))
        ode.dBodySetPosition(body, *tb.tolist())
        ode.dBodySetRotation(body, Rb)

    def getVelocity(self) -> tuple[list[float], list[float]]:
        """(w, v): angular velocity [rad/s] and the velocity of the frame's origin [m/s]."""
        body = self._body
        if body is None:
            return [0.0, 0.0, 0.0], [0.0, 0.0, 0.0]
        w = np.asarray(ode.dBodyGetAngularVel(body), dtype=float)
        v = np.asarray(ode.dBodyGetLinearVel(body), dtype=float)
        arm = np.asarray(self._frame().t, dtype=float) - np.asarray(ode.dBodyGetPosition(body))
        return w.tolist(), (v + np.cross(w, arm)).tolist()

    def setVelocity(self, w, v) -> None:
        """Set the angular velocity ``w`` [rad/s] and the frame origin's velocity ``v`` [m/s]."""
        body = self._moving("setVelocity")
        wv = _vec3("SimBody.setVelocity: w", w)
        vv = _vec3("SimBody.setVelocity: v", v)
        arm = np.asarray(ode.dBodyGetPosition(body)) - np.asarray(self._frame().t, dtype=float)
        ode.dBodySetAngularVel(body, *wv.tolist())
        ode.dBodySetLinearVel(body, *(vv + np.cross(wv, arm)).tolist())

    # ------------------------------------------------------------ surface
    def _contact(self):
        return self._simulator.simulation.robust_pairs.contact_of(self.record)

    def getSurface(self) -> SurfaceParameters:
        """The body's surface (a copy: give it back with `setSurface`)."""
        return SurfaceParameters.of(self._contact().surface)

    def setSurface(self, params: SurfaceParameters) -> None:
        """Use ``params`` for this body's contacts from the next step on."""
        if not isinstance(params, SurfaceParameters):
            raise ValueError(f"SimBody.setSurface: expected a SurfaceParameters, got {params!r}")
        pairs = self._simulator.simulation.robust_pairs
        pairs.set_contact(self.record, replace(self._contact(), surface=params.engine()),
                          apply_padding=False)

    def getCollisionPadding(self) -> float:
        """The boundary layer [m]."""
        return float(self._contact().padding)

    def setCollisionPadding(self, margin: float) -> None:
        """Set the boundary layer [m] (finite, >= 0)."""
        value = float(margin)
        if not (math.isfinite(value) and value >= 0.0):
            raise ValueError(f"SimBody.setCollisionPadding: the padding must be finite and "
                             f">= 0 (m), got {margin!r}")
        pairs = self._simulator.simulation.robust_pairs
        pairs.set_contact(self.record, replace(self._contact(), padding=value))

    # ------------------------------------------------------------ forces
    def applyForceAtPoint(self, fw, pw) -> None:
        """Push with world force ``fw`` [N] at world point ``pw`` [m] during the next simulate."""
        self._moving("applyForceAtPoint")
        self.wrenches.append(Wrench(_vec3("applyForceAtPoint: fw", fw), np.zeros(3),
                                    _vec3("applyForceAtPoint: pw", pw), True, False))

    def applyForceAtLocalPoint(self, fw, pl) -> None:
        """Push with world force ``fw`` [N] at ``pl`` [m] in the Solid's frame."""
        self._moving("applyForceAtLocalPoint")
        self.wrenches.append(Wrench(_vec3("applyForceAtLocalPoint: fw", fw), np.zeros(3),
                                    _vec3("applyForceAtLocalPoint: pl", pl), False, True))

    def applyWrench(self, f, t) -> None:
        """Force ``f`` [N] at the centre of mass and torque ``t`` [N·m] during the next simulate."""
        self._moving("applyWrench")
        self.wrenches.append(Wrench(_vec3("applyWrench: f", f), _vec3("applyWrench: t", t),
                                    np.zeros(3), False, False))

    def push(self) -> None:
        """Add the held forces to the ODE body (before each sub-step)."""
        body = self._body
        if body is None:
            return
        off = self.record.body_offset or Frame.identity()
        for w in self.wrenches:
            if w.at_world:
                ode.dBodyAddForceAtPos(body, *w.force.tolist(), *w.point.tolist())
            elif w.at_local:
                # the point in the body frame: offset maps the Solid's frame into it
                p = np.asarray(matmul(np.asarray(off.R), w.point)) + np.asarray(off.t, dtype=float)
                ode.dBodyAddForceAtRelPos(body, *w.force.tolist(), *p.tolist())
            else:
                ode.dBodyAddForce(body, *w.force.tolist())
            if np.any(w.torque != 0.0):
                ode.dBodyAddTorque(body, *w.torque.tolist())
