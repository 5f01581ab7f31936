"""`Simulator`: Klamp't's Simulator over an Odeon world (docs/scripting.md).

``Simulator(world_or_path)`` builds an `engine.sim.Simulation` of the world
with the robust contact model on (Klamp't's default) and no physics plugin or
controller process: only `SimRobotController`s drive the motors. Names and
argument orders are Klamp't's.

* `simulate(dt)` advances ``dt`` seconds in ``ceil(dt / simStep)`` equal
  sub-steps (so none exceeds `setSimStep`'s value, 0.001 s by default); each
  sub-step is one robust step (adaptive halving inside it when contacts
  demand). Before each sub-step the controllers update their commands and
  the forces held by `SimBody.apply*` are added; after it the contact
  feedback records the sub-step. `getStatus` is the worst status of the
  last call (Klamp't's codes: 0 normal, 1 adaptive time stepping, 2 contact
  unreliable, 3 unstable, 4 error — an engine failure pauses the simulation
  and gives 4).
* `getState` returns a string (`engine.klampt.state_codec`) holding the ODE
  stores and RNG, time, actuators, controllers, held forces, contact
  feedback and the adaptive stepper's history (`engine.klampt.step_history`;
  Klamp't drops the latter): `setState` on this or a fresh Simulator of the same world
  continues bit for bit. A state of another world or a damaged string raises
  `StateError` and changes nothing. `reset` restores the state taken when the
  Simulator was made.
"""

from __future__ import annotations

import hashlib
import json
import math
import os

import numpy as np

from engine import ode
from engine.contact.actuators import ActuatorMode, ActuatorSetState, ActuatorState
from engine.contact.adaptive import SimStatus
from engine.klampt.controller import SimRobotController
from engine.klampt.feedback import ContactFeedback, PairContacts
from engine.klampt.robot_joints import RobotJoints
from engine.klampt.simbody import SimBody, Wrench
from engine.klampt.state_codec import StateError, decode, encode
from engine.klampt.step_history import check_history, history_record, restore_history
from engine.klampt.world_index import WorldIndex, body_name, index_world, joint_params
from engine.sim import state as snapshots
from engine.sim.simulation import Simulation
from engine.world import read_world
from engine.world.model import World
from engine.world.node import Node

#: Klamp't's default simulation sub-step [s].
DEFAULT_SIM_STEP = 0.001
#: getStatusString's words, by status code.
STATUS_STRINGS = {SimStatus.NORMAL: "normal",
                  SimStatus.ADAPTIVE_TIME_STEPPING: "adaptive time stepping",
                  SimStatus.CONTACT_UNRELIABLE: "contact unreliable",
                  SimStatus.UNSTABLE: "unstable",
                  SimStatus.ERROR: "error"}
#: Version of what getState writes.
STATE_FORMAT = 3
_BODY_META = ("capacity", "count", "next_seq", "free")
_JOINT_META = ("capacity", "count", "next_seq", "next_attach", "free_count")


def _finite_time(what: str, value: float) -> float:
    try:
        t = float(value)
    except (TypeError, ValueError):
        raise ValueError(f"{what}: expected a time in seconds, got {value!r}") from None
    if not (math.isfinite(t) and t >= 0.0):
        raise ValueError(f"{what}: the time must be finite and >= 0 (s), got {value!r}")
    return t


class Simulator:
    """A Klamp't Simulator of an Odeon world (module docstring)."""

    STATUS_NORMAL = int(SimStatus.NORMAL)
    STATUS_ADAPTIVE_TIME_STEPPING = int(SimStatus.ADAPTIVE_TIME_STEPPING)
    STATUS_CONTACT_UNRELIABLE = int(SimStatus.CONTACT_UNRELIABLE)
    STATUS_UNSTABLE = int(SimStatus.UNSTABLE)
    STATUS_ERROR = int(SimStatus.ERROR)

    def __init__(self, world: str | os.PathLike | World) -> None:
        if isinstance(world, (str, os.PathLike)):
            world = read_world(os.fspath(world))
        if not isinstance(world, World):
            raise ValueError(f"Simulator: expected a World or a .wbt path, got {world!r}")
        self._world = world
        self.simulation = Simulation(world, contacts="robust")
        self.simulation.publish_poses = False  # updateWorld writes them
        self.index: WorldIndex = index_world(world)
        model = self.simulation.model
        self._records = []
        for ref in self.index.bodies:
            rec = model.record_of(ref.node)
            if rec is None:
                raise ValueError(f"Simulator: {ref.node.label()} was not built (is it under "
                                 f"a non-Solid node the simulation skips?)")
            self._records.append(rec)
        self._geom_ids = {id(geom): self.index.id_of(rec.node)
                          for geom, rec in model.geom_solid.items()}
        self._geoms = list(model.geom_solid)   # the table order names geoms in states
        self._bodies: dict[int, SimBody] = {}
        self._controllers = [SimRobotController(self, i, RobotJoints(self.simulation, robot))
                             for i, robot in enumerate(self.index.robots)]
        self.feedback = ContactFeedback(len(self.index.bodies))
        self._sim_step = DEFAULT_SIM_STEP
        self._time = 0.0
        self._status = SimStatus.NORMAL
        self.simulation.before_step = self._before_substep
        self._fingerprint = self._world_fingerprint()
        self._initial = self.getState()

    # ------------------------------------------------------------ world
    def getWorld(self) -> World:
        """The world this simulator runs (its node fields follow `updateWorld`)."""
        return self._world

    def updateWorld(self) -> None:
        """Write the current poses into the Solids' translation/rotation fields and
        each robot's joint positions into its JointParameters' ``position``."""
        self.simulation.write_poses()
        for robot, c in zip(self.index.robots, self._controllers, strict=True):
            for ref, q in zip(robot.axes, c.getSensedConfig(), strict=True):
                params = joint_params(ref.joint, ref.params_field)
                if params is not None:
                    params.set("position", float(q))

    def numIDs(self) -> int:
        """How many bodies have IDs."""
        return len(self.index.bodies)

    def getID(self, name: str | Node) -> int:
        """The ID of a body by DEF path, name or node; -1 when none has it."""
        if isinstance(name, Node):
            return self.index.id_of(name)
        node = self._world.find_solid_by_def(str(name)) if name else None
        if node is not None and self.index.id_of(node) >= 0:
            return self.index.id_of(node)
        for i, ref in enumerate(self.index.bodies):
            if body_name(ref.node) == name:
                return i
        return -1

    def getName(self, body_id: int) -> str:
        """The name of body ``body_id`` (DEF name, else its name field)."""
        i = self.feedback.check_id("getName", "id", body_id, False)
        return body_name(self.index.bodies[i].node)

    def body(self, which: int | str | Node) -> SimBody:
        """The SimBody of an ID, a DEF path (or name) or a Solid node."""
        i = which if isinstance(which, int) and not isinstance(which, bool) else \
            self.getID(which)
        if not isinstance(i, int) or not 0 <= i < self.numIDs():
            raise ValueError(f"Simulator.body: {which!r} is not a body of this world (IDs 0 ... "
                             f"{self.numIDs() - 1}, DEF names, or Solid nodes with physics or "
                             f"a boundingObject)")
        got = self._bodies.get(i)
        if got is None:
            got = self._bodies[i] = SimBody(self, i, self._records[i])
        return got

    def controller(self, which: int | str | Node) -> SimRobotController:
        """The controller of robot ``which``: its index (tree order), DEF name or node."""
        for i, c in enumerate(self._controllers):
            node = c.joints.node
            if which is node or which == i or (isinstance(which, str) and which in (
                    node.def_name, node.get("name"))):
                return c
        raise ValueError(f"Simulator.controller: {which!r} is not a robot of this world "
                         f"({len(self._controllers)} robot(s))")

    def setRobotVelocity(self, which: int | str | Node, dq) -> None:
        """Set robot ``which``'s joint rates to ``dq`` (moving its links' bodies)."""
        c = self.controller(which)
        rates = [float(v) for v in dq]
        if len(rates) != len(c.joints):
            raise ValueError(f"setRobotVelocity: expected {len(c.joints)} rates, got {len(rates)}")
        c.joints.set_rates(rates, "setRobotVelocity")

    # ------------------------------------------------------------ settings
    def setGravity(self, g) -> None:
        """Gravity (3,) [m/s²]."""
        try:
            v = [float(x) for x in g]
        except (TypeError, ValueError):
            v = []
        if len(v) != 3 or not all(math.isfinite(x) for x in v):
            raise ValueError(f"setGravity: expected 3 finite numbers (m/s²), got {g!r}")
        ode.dWorldSetGravity(self.simulation.model.ode_world, *v)

    def getGravity(self) -> list[float]:
        return np.asarray(ode.dWorldGetGravity(self.simulation.model.ode_world)).tolist()

    def setSimStep(self, dt: float) -> None:
        """The longest sub-step of `simulate` [s]."""
        step = _finite_time("setSimStep", dt)
        if step <= 0.0:
            raise ValueError(f"setSimStep: the step must be > 0 (s), got {dt!r}")
        self._sim_step = step

    def getSimStep(self) -> float:
        return self._sim_step

    # ------------------------------------------------------------ time
    def getTime(self) -> float:
        """Simulated time [s]."""
        return self._time

    def getStatus(self) -> int:
        """The worst status of the last simulate call (Klamp't's codes)."""
        return int(self._status)

    def getStatusString(self, s: int = -1) -> str:
        """The words of status ``s`` (the last call's when -1)."""
        code = self._status if s == -1 else s
        try:
            return STATUS_STRINGS[SimStatus(int(code))]
        except ValueError:
            raise ValueError(f"getStatusString: unknown status {s!r} (0 ... 4, or -1)") from None

    def _before_substep(self) -> None:
        t = self.simulation.time_ms / 1000.0
        for c in self._controllers:
            c.update(t)
        for b in self._bodies.values():
            b.push()

    def simulate(self, dt: float) -> None:
        """Advance ``dt`` seconds (module docstring)."""
        dt = _finite_time("simulate", dt)
        self.feedback.begin()
        self._status = SimStatus.NORMAL
        n = math.ceil(dt / self._sim_step - 1e-9) if dt > 0.0 else 0
        h = dt / n if n else 0.0
        start = self._time
        for k in range(n):
            # the simulation counts time in ms; the sub-step's time for the controllers
            self.simulation.time_ms = (start + k * h) * 1000.0
            if not self.simulation.step(h):
                self._status = SimStatus.ERROR
                break
            self._status = max(self._status, self.simulation.contact_status)
            self.feedback.record(self._touching())
        else:
            self._time = start + dt
        if self._status == SimStatus.ERROR:
            self._time = self.simulation.time_ms / 1000.0
        self.simulation.time_ms = self._time * 1000.0
        for b in self._bodies.values():
            b.wrenches = []

    def fakeSimulate(self, dt: float) -> None:
        """Advance time by ``dt`` without physics: the controllers run and each robot
        is put at its commanded config, moving at its commanded velocity."""
        dt = _finite_time("fakeSimulate", dt)
        self._time += dt
        for c in self._controllers:
            c.update(self._time)
            c.joints.set_config(c.getCommandedConfig(), "fakeSimulate")
            c.joints.set_rates(c.getCommandedVelocity(), "fakeSimulate")
        self.simulation.time_ms = self._time * 1000.0
        self.simulation.write_poses()

    def _touching(self) -> dict[tuple[int, int], PairContacts]:
        """The last sub-step's robust contacts by ID pair (a < b), oriented for a."""
        contacts = self.simulation.robust.contacts
        if not len(contacts) or contacts.forces is None:
            return {}
        ids = self._geom_ids
        out: dict[tuple[int, int], list] = {}
        f1 = contacts.forces[:, 0:3]
        for k, pair in enumerate(contacts.pairs):
            a, b = ids.get(id(pair.g1), -1), ids.get(id(pair.g2), -1)
            if a < 0 or b < 0 or a == b:
                continue
            rows = np.flatnonzero(contacts.pair_of == k)
            # feedback f1 is on g1's body, or on g2's when g1 is static (ODE swaps)
            on_g1 = f1[rows] if pair.g1.body is not None else -f1[rows]
            normal = contacts.normal[rows]          # into g1: from g2 into g1
            flip = a > b
            key = (b, a) if flip else (a, b)
            part = (contacts.pos[rows], -normal if flip else normal, contacts.mu[rows],
                    -on_g1 if flip else on_g1, bool(contacts.penetrating[k]))
            out.setdefault(key, []).append(part)
        return {key: PairContacts(np.concatenate([p[0] for p in parts]),
                                  np.concatenate([p[1] for p in parts]),
                                  np.concatenate([p[2] for p in parts]),
                                  np.concatenate([p[3] for p in parts]),
                                  any(p[4] for p in parts))
                for key, parts in out.items()}

    # ------------------------------------------------------------ contact feedback
    def enableContactFeedbackAll(self) -> None:
        self.feedback.enable_all()

    def enableContactFeedback(self, id1: int, id2: int) -> None:
        a = self.feedback.check_id("enableContactFeedback", "id1", id1, False)
        b = self.feedback.check_id("enableContactFeedback", "id2", id2, False)
        self.feedback.enable(a, b)

    def _ids(self, what: str, a: int, b: int, allow_any: bool) -> tuple[int, int]:
        return (self.feedback.check_id(what, "aid", a, allow_any),
                self.feedback.check_id(what, "bid", b, allow_any))

    def inContact(self, aid: int, bid: int) -> bool:
        """True if a and b touch at the end of the last sub-step (-1: any)."""
        return self.feedback.in_contact(*self._ids("inContact", aid, bid, True))

    def hadContact(self, aid: int, bid: int) -> bool:
        """True if a and b touched in a sub-step of the last simulate (feedback enabled)."""
        return self.feedback.had_contact(*self._ids("hadContact", aid, bid, True))

    def hadSeparation(self, aid: int, bid: int) -> bool:
        """True if a and b were apart in a sub-step of the last simulate (feedback enabled)."""
        return self.feedback.had_separation(*self._ids("hadSeparation", aid, bid, True))

    def hadPenetration(self, aid: int, bid: int) -> bool:
        """True if a and b's unpadded shapes overlapped during the last simulate."""
        return self.feedback.had_penetration(*self._ids("hadPenetration", aid, bid, True))

    def getContacts(self, aid: int, bid: int) -> list[list[float]]:
        """The last sub-step's contacts of a and b: [px, py, pz, nx, ny, nz, kFriction]
        rows, the normal pointing from b into a."""
        c = self.feedback.oriented(*self._ids("getContacts", aid, bid, False))
        if c is None:
            return []
        return np.column_stack([c.pos, c.normal, c.mu]).tolist()

    def getContactForces(self, aid: int, bid: int) -> list[list[float]]:
        """The force [N] on a at each contact of `getContacts`."""
        c = self.feedback.oriented(*self._ids("getContactForces", aid, bid, False))
        return [] if c is None else c.force.tolist()

    def contactForce(self, aid: int, bid: int) -> list[float]:
        """The total contact force [N] on a from b at the end of the last sub-step."""
        c = self.feedback.oriented(*self._ids("contactForce", aid, bid, False))
        return [0.0, 0.0, 0.0] if c is None else c.force.sum(axis=0).tolist()

    def contactTorque(self, aid: int, bid: int) -> list[float]:
        """The contact torque [N·m] on a from b about a's frame origin."""
        a, b = self._ids("contactTorque", aid, bid, False)
        c = self.feedback.oriented(a, b)
        if c is None:
            return [0.0, 0.0, 0.0]
        origin = np.asarray(self.body(a)._frame().t, dtype=float)
        return np.cross(c.pos - origin, c.force).sum(axis=0).tolist()

    def meanContactForce(self, aid: int, bid: int) -> list[float]:
        """The contact force [N] on a from b averaged over the last simulate's sub-steps."""
        return self.feedback.mean_force(*self._ids("meanContactForce", aid, bid, False)).tolist()

    # ------------------------------------------------------------ state
    def _world_fingerprint(self) -> str:
        model = self.simulation.model
        shape = {"bodies": [[body_name(b.node), b.kind, b.robot] for b in self.index.bodies],
                 "robots": [[r.node.type_name, len(r.axes)] for r in self.index.robots],
                 "joints": [r.kind for r in model.joints],
                 "ode": [model.ode_world.bodies.count, len(model.joints)]}
        return hashlib.sha256(json.dumps(shape).encode()).hexdigest()

    def getState(self) -> str:
        """Everything a bit-identical continuation needs, as a string."""
        snap = snapshots.capture(self.simulation.model.ode_world, self.simulation.time_ms)
        actuators = self.simulation.robust.actuators.state()
        return encode({
            "format": STATE_FORMAT, "world": self._fingerprint,
            "time": self._time, "status": int(self._status), "sim_step": self._sim_step,
            "gravity": self.getGravity(),
            "ode": {"bodies": snap.bodies, "joints": snap.joints,
                    "body_meta": {k: snap.body_meta[k] for k in _BODY_META},
                    "joint_meta": {k: snap.joint_meta[k] for k in _JOINT_META},
                    "seed": snap.seed, "time_ms": snap.time_ms},
            "actuators": [[int(s.mode), s.target_position, s.target_velocity, s.torque,
                           s.locked_velocity, s.integral, s.holds_motor]
                          for s in actuators.actuators],
            "controllers": [c.state_record() for c in self._controllers],
            "feedback": self.feedback.state_record(),
            "history": history_record(self.simulation.robust, self._geoms),
            "wrenches": [[i, w.force, w.torque, w.point, w.at_world, w.at_local]
                         for i, b in sorted(self._bodies.items()) for w in b.wrenches],
            "disabled_geoms": [i for i, rec in enumerate(self._records)
                               if any(not leaf.geom.enabled for leaf in rec.geoms.leaves)],
        })

    def _world_state(self, ode_part: dict) -> snapshots.WorldState:
        """A WorldState of ``ode_part`` with this world's handles; StateError when
        the arrays do not fit this world."""
        w = self.simulation.model.ode_world
        parts = []
        for store, arrays, meta in ((w.bodies, ode_part["bodies"], ode_part["body_meta"]),
                                    (w.joints, ode_part["joints"], ode_part["joint_meta"])):
            live = {k: v for k, v in vars(store).items() if isinstance(v, np.ndarray)}
            if set(arrays) != set(live):
                raise StateError("the state's engine arrays are not this engine's "
                                 "(another Odeon version?)")
            capacity = int(meta["capacity"])
            for name, arr in arrays.items():
                if arr.dtype != live[name].dtype or arr.shape[:1] != (capacity,) and \
                        live[name].shape[:1] == (store.capacity,):
                    raise StateError(f"the state's '{name}' array does not fit this world")
            alive_saved = set(np.flatnonzero(arrays["seq"] >= 0).tolist())
            alive_live = set(np.flatnonzero(store.seq >= 0).tolist())
            if alive_saved != alive_live:
                raise StateError("the state belongs to another world (its bodies or joints "
                                 "differ from this simulator's)")
            handles = [store.handles[r] if r < len(store.handles) else None
                       for r in range(capacity)]
            parts.append((dict(arrays), {**{k: (list(v) if k == "free" else int(v))
                                            for k, v in meta.items()}, "handles": handles}))
        (bodies, body_meta), (joints, joint_meta) = parts
        return snapshots.WorldState(bodies, body_meta, joints, joint_meta,
                                    int(ode_part["seed"]), float(ode_part["time_ms"]))

    def setState(self, state: str) -> None:
        """Continue from a `getState` string of this world (module docstring)."""
        record = decode(state)
        try:
            if record.get("format") != STATE_FORMAT:
                raise StateError(f"the state has format {record.get('format')!r}; this Odeon "
                                 f"reads {STATE_FORMAT}")
            if record["world"] != self._fingerprint:
                raise StateError("the state belongs to another world (its bodies, robots or "
                                 "joints differ from this simulator's)")
            world_state = self._world_state(record["ode"])
            actuator_set = self.simulation.robust.actuators.actuators
            saved = record["actuators"]
            if len(saved) != len(actuator_set.actuators) or len(record["controllers"]) != \
                    len(self._controllers):
                raise StateError("the state's actuators or controllers are not this world's")
            actuators = ActuatorSetState(tuple(
                ActuatorState(ActuatorMode(int(s[0])), float(s[1]), float(s[2]), float(s[3]),
                              float(s[4]), float(s[5]), bool(s[6])) for s in saved))
            for c, r in zip(self._controllers, record["controllers"], strict=True):
                c.check_record(r)
            wrenches = [(int(i), Wrench(np.asarray(f, dtype=float), np.asarray(t, dtype=float),
                                        np.asarray(p, dtype=float), bool(aw), bool(al)))
                        for i, f, t, p, aw, al in record["wrenches"]]
            if any(not 0 <= i < self.numIDs() for i, _w in wrenches):
                raise StateError("the state's held forces name bodies this world lacks")
            gravity = [float(g) for g in record["gravity"]]
            sim_step = float(record["sim_step"])
            disabled = {int(i) for i in record["disabled_geoms"]}
            history = check_history(record["history"], self._geoms,
                                    len(self.simulation.model.bodies))
        except (KeyError, TypeError, ValueError, IndexError) as exc:
            if isinstance(exc, StateError):
                raise
            raise StateError(f"the state is not a simulator state of this kind ({exc})") from None
        # everything checked: apply
        self.simulation.load_state(world_state)   # the stepper forgets its history
        restore_history(self.simulation.robust, history)
        actuator_set.restore(actuators)
        for c, r in zip(self._controllers, record["controllers"], strict=True):
            c.restore_record(r)
        self.feedback.restore_record(record["feedback"])
        for b in self._bodies.values():
            b.wrenches = []
        for i, w in wrenches:
            self.body(i).wrenches.append(w)
        for i, rec in enumerate(self._records):
            for leaf in rec.geoms.leaves:
                (ode.dGeomDisable if i in disabled else ode.dGeomEnable)(leaf.geom)
        ode.dWorldSetGravity(self.simulation.model.ode_world, *gravity)
        self._sim_step = sim_step
        self._time = float(record["time"])
        self._status = SimStatus(int(record["status"]))

    def reset(self) -> None:
        """Back to the state the Simulator was made in (time 0)."""
        self.setState(self._initial)
