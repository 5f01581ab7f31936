"""A small stand-in for engine.klampt's Simulator (the names the batch uses),
for tests of the batch machinery that need no physics: one robot whose joints
follow q'' = kP (qd - q) + kD (dqd - dq) exactly per sub-step, rigid objects
that move at their world velocity. Module-level, so workers can import it."""

from __future__ import annotations

import os
import time

from engine.klampt import access
from engine.klampt.world_index import index_world
from engine.world.model import World

STATUS_NAMES = ("normal", "adaptive time stepping", "contact unreliable", "unstable", "error")


class FakeController:
    def __init__(self, sim: FakeSimulator, i: int) -> None:
        self.sim, self.i = sim, i

    def getSensedConfig(self) -> list[float]:
        return list(self.sim.q[self.i])

    def getSensedVelocity(self) -> list[float]:
        return list(self.sim.dq[self.i])

    def getCommandedConfig(self) -> list[float]:
        return list(self.sim.qd[self.i])

    def getCommandedVelocity(self) -> list[float]:
        return list(self.sim.dqd[self.i])

    def setPIDCommand(self, q, dq) -> None:
        self.sim.qd[self.i] = [float(v) for v in q]
        self.sim.dqd[self.i] = [float(v) for v in dq]

    def setPIDGains(self, kP, kI, kD) -> None:
        self.sim.gains[self.i] = (list(kP), list(kI), list(kD))


class FakeBody:
    def __init__(self, sim: FakeSimulator, body_id: int) -> None:
        self.sim, self.id = sim, body_id

    def getTransform(self):
        R, t = self.sim.poses[self.id]
        return list(R), list(t)

    def setTransform(self, R, t) -> None:
        self.sim.poses[self.id] = (list(R), list(t))

    def getVelocity(self):
        w, v = self.sim.twists[self.id]
        return list(w), list(v)

    def setVelocity(self, w, v) -> None:
        self.sim.twists[self.id] = (list(w), list(v))


class FakeSimulator:
    """Sub-steps of 1 ms; ``sleep`` seconds of wall time per simulate call."""

    sleep = 0.0

    def __init__(self, world: World) -> None:
        self.world = world
        self.index = index_world(world)
        self.time = 0.0
        self.q = [access.get_item(world, f"robots[{i}].config") for i in
                  range(len(self.index.robots))]
        self.dq = [[0.0] * len(r.axes) for r in self.index.robots]
        self.qd = [list(q) for q in self.q]
        self.dqd = [[0.0] * len(r.axes) for r in self.index.robots]
        self.gains = [([1.0] * len(r.axes), [0.0] * len(r.axes), [1.0] * len(r.axes))
                      for r in self.index.robots]
        self.poses = [access.get_item(world, f"bodies[{i}].transform")
                      for i in range(len(self.index.bodies))]
        self.twists = [access.get_item(world, f"bodies[{i}].velocity")
                       for i in range(len(self.index.bodies))]
        self.status = 0

    def controller(self, i: int) -> FakeController:
        return FakeController(self, i)

    def body(self, body_id: int) -> FakeBody:
        return FakeBody(self, body_id)

    def setRobotVelocity(self, i: int, dq) -> None:
        self.dq[i] = [float(v) for v in dq]

    def getTime(self) -> float:
        return self.time

    def getStatus(self) -> int:
        return self.status

    def getStatusString(self, s: int = -1) -> str:
        return STATUS_NAMES[self.status if s < 0 else s]

    def simulate(self, dt: float) -> None:
        steps = max(1, round(dt / 0.001))
        h = dt / steps
        for _ in range(steps):
            for i, (kP, _kI, kD) in enumerate(self.gains):
                for j in range(len(self.q[i])):
                    a = kP[j] * (self.qd[i][j] - self.q[i][j]) + kD[j] * (
                        self.dqd[i][j] - self.dq[i][j])
                    self.dq[i][j] += h * a
                    self.q[i][j] += h * self.dq[i][j]
            for k, (pose, twist) in enumerate(zip(self.poses, self.twists, strict=True)):
                pose[1][:] = [p + h * v for p, v in zip(pose[1], twist[1], strict=True)]
                self.poses[k] = pose
            self.time += h
        if self.sleep:
            time.sleep(self.sleep)


class SlowFakeSimulator(FakeSimulator):
    """20 ms of wall time per simulate call."""

    sleep = 0.02


def pid_init(sim, target: float = 0.0) -> None:
    """The seed's controller: PID towards ``target`` (rad), kP 20, kI 8, kD 5."""
    c = sim.controller(0)
    c.setPIDCommand([target], [0.0])
    c.setPIDGains([20.0], [8.0], [5.0])


def fail_when_negative(sim, target: float = 0.0) -> None:
    """simInit that raises for a negative start angle."""
    pid_init(sim, target)
    if sim.controller(0).getSensedConfig()[0] < 0:
        raise ZeroDivisionError("negative start")


def stop_after_half_second(sim, *args) -> bool:
    return sim.getTime() >= 0.5 - 1e-9


def record_pid(sim, *args) -> None:
    """simStep that writes the worker's pid on the sim (to see where runs ran)."""
    sim.pid = os.getpid()


def exit_when_negative(sim, *args) -> None:
    """simInit that ends its worker process for a negative start angle."""
    if sim.controller(0).getSensedConfig()[0] < 0:
        os._exit(3)


def numba_cache_dir() -> str | None:
    """The NUMBA_CACHE_DIR of the process running this."""
    return os.environ.get("NUMBA_CACHE_DIR")
