"""`Simulation`: a world built into ODE objects and its step loop
(docs/simulation.md, "Step order").

One ``step()`` (``dt = basicTimeStep / 1000`` s):

0. ``robots.ready()`` (engine.controllers): the synchronous controllers'
   requests are in (False: the wait was interrupted, no step);
1. ``before_step()`` hook (the plugin host clearing its receive buffer),
   ``robots.act(dt)`` (controllers' commands, Emitter packets), the motors'
   control (`engine.sim.motors`), then explicit joint springs;
2. ``before_collide()`` hook, then `dSpaceCollide` with ``collide_hook(g1, g2)``
   first for every candidate pair, default contacts otherwise;
3. ``after_collide()`` hook (the plugin's webots_physics_step);
4. the world step (``dWorldStep``, or ``dWorldQuickStep`` when
   ``WorldInfo.stepper`` is "quickstep"), then the motors' position readback;
5. ``after_step()`` hook (webots_physics_step_end: joint feedback of this
   step is readable);
6. the contact joint groups are emptied, bodies are checked for NaN or
   runaway values (pause + message naming the Solid), poses are written back
   into the Solid nodes' translation/rotation fields, time += basicTimeStep,
   then ``robots.answer(dt)`` (sensors sampled, due controllers answered).

Hooks are plain attributes (None = nothing), set by the plugin host and the
controller host.

Pause state is the simulation's own: `pause` (with the reason shown to the
user) and `resume`; ``paused`` and ``pause_message`` are read-only.

Bulk reads for viewers (arrays, no per-body calls): `solid_poses` (every
Solid's world pose and origin velocity), `contact_set` (the last step's
contacts), `colliding_solids`, and `frame`, the immutable snapshot built from
them (`engine.sim.frame`).
"""

from __future__ import annotations

from collections.abc import Callable
from contextlib import AbstractContextManager
from dataclasses import replace
from types import MappingProxyType

import numpy as np

from engine import ode
from engine.contact.adaptive import SimStatus
from engine.ode.body_bounds import first_out_of_bounds
from engine.sim import state as snapshots
from engine.sim.baseline import Baseline
from engine.sim.builder import Model, SolidRecord, build
from engine.sim.console import Console
from engine.sim.contact_batch import stored_feedback
from engine.sim.contact_columns import DefaultContactArrays
from engine.sim.contacts import ContactHandler, ContactPoint
from engine.sim.frame import (
    ContactSet,
    Frame,
    SolidPoses,
    SolidPoseTable,
    colliding_solids,
    contact_set,
)
from engine.sim.motors import MotorSet
from engine.sim.pose_writer import PoseWriter
from engine.sim.poses import Frame as Transform
from engine.sim.poses import solid_world_poses
from engine.sim.robust_actuators import build_actuators
from engine.sim.robust_contacts import (
    RobustPairs,
    SolidContact,
    robust_contact_arrays,
    solid_contact,
)
from engine.sim.robust_step import RobustStepper
from engine.sim.step_errors import STEP_FAILURES, step_failure_message
from engine.world import Node, World, read_world
from engine.world.odeon_settings import (
    CONTACT_MODELS,
    SolidContactSettings,
    read_odeon_settings,
    with_contact_model,
    with_solid_settings,
    write_odeon_settings,
)

#: |position| [m] or |velocity| [m/s, rad/s] beyond which a body is "exploding".
EXPLOSION_BOUND = 1e6

Hook = Callable[[], None] | None


class Simulation:
    """A running world. ``Simulation("worlds/x.wbt")`` or ``Simulation(world)``."""

    def __init__(self, world: str | World, console: Console | None = None,
                 stepper: str | None = None, contacts: str | None = None) -> None:
        self.console = console if console is not None else Console()
        self._path = world if isinstance(world, str) else None
        self.world: World = read_world(world) if isinstance(world, str) else world
        self._stepper_override = stepper
        if contacts is not None and contacts not in CONTACT_MODELS:
            raise ValueError(f"Simulation: contacts must be one of {', '.join(CONTACT_MODELS)}, "
                             f"got {contacts!r}")
        self._contacts_override = contacts
        self.before_step: Hook = None
        self.before_collide: Hook = None
        self.collide_hook: Callable[[object, object], int] | None = None
        #: optional: a context manager factory giving the per-pair hook to use
        #: for one whole collision pass (the plugin host's, cheaper per pair)
        self.collide_session: Callable[[], AbstractContextManager] | None = None
        self.after_collide: Hook = None
        self.after_step: Hook = None
        self.before_reset: Hook = None
        self.after_reset: Hook = None
        #: the robots' controllers (engine.controllers.ControllerHost) or None:
        #: ``ready()`` before a step (False: no step), ``act(dt)`` after the
        #: before_step hook, ``answer(dt)`` once the step is done
        self.robots = None
        self.record_contact_feedback = False
        #: write the Solids' poses into their node fields after every step (the app
        #: shows them); a scripting caller that reads bodies sets it False
        self.publish_poses = True
        self._modified = False
        self._pose_table: SolidPoseTable | None = None
        self._pose_writer: PoseWriter | None = None
        self._setup()
        #: the loaded field values (reload of an in-memory world)
        self._loaded = Baseline.capture(self.world)

    # ------------------------------------------------------------- building
    def _setup(self) -> None:
        for text in self.world.warnings:
            self.console.print("parsing", f"WARNING: {text}")
        self.model: Model = build(self.world, self.console.warn)
        stepper = self._stepper_override or self.model.settings.stepper
        if stepper not in ("step", "quickstep"):
            raise ValueError(f"unknown stepper {stepper!r} (expected 'step' or 'quickstep')")
        self.stepper = stepper
        self.contact_group = ode.dJointGroupCreate(0)
        self.plugin_contact_group = ode.dJointGroupCreate(0)
        self.plugin_contacts: list[ContactPoint] = []
        self.time_ms = 0.0
        self._paused = False
        self._pause_message = ""
        self.steps = 0
        self._handler = ContactHandler(self.model, self.contact_group, self.console.warn)
        self._setup_contact_model()
        #: the motors, brakes and joint positions, run as Webots runs them (engine.sim.motors)
        self.motors = MotorSet(self)
        #: what reset returns to and save writes: loaded values + user edits
        self.baseline = Baseline.capture(self.world)
        self._initial_state = snapshots.capture(self.model.ode_world, 0.0)
        if self.robots is not None:  # new ODE objects and drives: the devices follow
            self.robots.rebind()

    def _setup_contact_model(self) -> None:
        """The robust stepper when the world (or the constructor) chooses the
        robust contact model, else None; settings lines that cannot be read
        are reported on the console."""
        settings = read_odeon_settings(self.world)
        for problem in settings.problems:
            self.console.warn(problem)
        if self._contacts_override is not None:
            settings = with_contact_model(settings, self._contacts_override)
        self.odeon_settings = settings
        #: per-Solid paddings and surfaces (the robust model's, and a plugin's robust pairs)
        self.robust_pairs = RobustPairs(self.model, settings, self.console.warn)
        self._robust: RobustStepper | None = None
        if settings.contacts.robust:
            actuators = build_actuators(self.model, settings, self.console.warn)
            self._robust = RobustStepper(self.robust_pairs, self.contact_group, actuators)

    @property
    def contact_model(self) -> str:
        """"robust" (Klamp't's contacts) or "default" (Webots')."""
        return "robust" if self._robust is not None else "default"

    @property
    def robust(self) -> RobustStepper | None:
        """The robust model's stepper (paddings, surfaces, actuators, status), or None."""
        return self._robust

    @property
    def contact_status(self) -> SimStatus:
        """The robust model's status of the last step (Normal under the default model)."""
        return self._robust.status if self._robust is not None else SimStatus.NORMAL

    def set_contact_model(self, model: str) -> None:
        """Use ``model`` ("default" or "robust") from the next step on; the world's
        ``odeon: contacts`` line says it (saved with the world)."""
        if model not in CONTACT_MODELS:
            raise ValueError(f"set_contact_model: model must be one of "
                             f"{', '.join(CONTACT_MODELS)}, got {model!r}")
        write_odeon_settings(self.world, with_contact_model(read_odeon_settings(self.world),
                                                            model))
        self._contacts_override = None
        if self._robust is not None:
            self._robust.pairs.clear_paddings()
        ode.dJointGroupEmpty(self.contact_group)
        self._setup_contact_model()

    def solid_contact(self, node: Node) -> SolidContact:
        """The padding [m] and surface a Solid's robust contacts use now (its
        ``odeon: solid`` values over the defaults; a plugin's changes included)."""
        rec = self.model.record_of(node)
        if rec is None:
            raise ValueError(f"solid_contact: {node.label()} is not a Solid of this simulation")
        return self.robust_pairs.contact_of(rec)

    def set_solid_contact(self, node: Node, own: SolidContactSettings) -> None:
        """Give a Solid its own robust-contact values (None fields: the defaults),
        from the next step on; the world's ``odeon: solid`` line says them (saved
        with the world)."""
        rec = self.model.record_of(node)
        if rec is None:
            raise ValueError(f"set_solid_contact: {node.label()} is not a Solid of this "
                             "simulation")
        settings = with_solid_settings(read_odeon_settings(self.world), node, own)
        write_odeon_settings(self.world, settings)
        self.odeon_settings = replace(self.odeon_settings, solids=settings.solids)
        self.robust_pairs.set_contact(rec, solid_contact(rec, own),
                                      apply_padding=self._robust is not None)
        if self._robust is not None:
            self._robust.forget()

    def solid_paddings(self) -> dict[Node, float]:
        """Each Solid's boundary layer [m] under the robust model (Solids with 0
        left out); empty under the default model."""
        if self._robust is None:
            return {}
        return {rec.node: c.padding for rec in self.model.solids
                if (c := self.robust_pairs.contact_of(rec)).padding > 0.0}

    # ---------------------------------------------------------------- pause
    @property
    def paused(self) -> bool:
        """True while stepping is suspended (`pause`; `step` does nothing)."""
        return self._paused

    @property
    def pause_message(self) -> str:
        """Why the simulation is paused (the `pause` reason; "" when running)."""
        return self._pause_message

    def pause(self, reason: str) -> None:
        """Suspend stepping; ``reason`` is the message shown to the user (kept
        until `resume`; `load_state`, `reset`, `rebuild` and `reload` resume)."""
        self._paused = True
        self._pause_message = reason

    def resume(self) -> None:
        """Carry on stepping after a pause; the reason is cleared."""
        self._paused = False
        self._pause_message = ""

    @property
    def dt(self) -> float:
        """The step [s]."""
        return self.model.settings.dt

    @property
    def basic_time_step(self) -> float:
        """The step [ms]."""
        return self.model.settings.basic_time_step

    @property
    def contacts(self) -> list:
        """Default contacts made in the last step (`ContactPoint`s)."""
        return self._handler.contacts

    def contact_arrays(self) -> DefaultContactArrays:
        """The default contacts of the last step as arrays (`ContactHandler.contact_arrays`):
        pos (m, 3), normal (m, 3), depth (m,), force on Solid 1 (m, 3) or None,
        Solid records 1 and 2 (lists of m); the robust contacts under the robust model."""
        if self._robust is not None:
            return robust_contact_arrays(self.model, self._robust.contacts,
                                         self.record_contact_feedback)
        return self._handler.contact_arrays()

    # plugin_contacts: the contact joints the plugin made in the last step
    # (ContactPoints), recorded when record_contact_feedback is True

    @property
    def colliding_geoms(self) -> set:
        """Geoms a collide hook reported as colliding (returned 2) in the last step."""
        return self._handler.colliding

    def body_from_def(self, path: str):
        """dWebotsGetBodyFromDEF semantics."""
        return self.model.body_from_def(path)

    def geom_from_def(self, path: str):
        """dWebotsGetGeomFromDEF semantics."""
        return self.model.geom_from_def(path)

    # ----------------------------------------------------------------- step
    def step(self, dt: float | None = None) -> bool:
        """Advance one basicTimeStep (or ``dt`` seconds, for callers that sub-step:
        engine.klampt); False (and nothing done) when paused.

        An engine failure during the step (`STEP_FAILURES`: a division by
        zero, an overflow, memory, an ODEError) pauses the simulation with a
        message naming the world file and, when found, the Solid at fault."""
        if self.paused:
            return False
        if self.robots is not None and not self.robots.ready():
            return False
        try:
            return self._step(self.dt if dt is None else float(dt))
        except STEP_FAILURES as exc:
            self.pause(step_failure_message(self.model, self.world.filename, self.time_ms, exc))
            self.console.warn(self.pause_message)
            return False

    def _step(self, dt: float) -> bool:
        _call(self.before_step)
        if self.robots is not None:
            self.robots.act(dt)
        self.motors.pre_step(dt)
        for joint in self.model.joints:
            if joint.explicit_springs:
                joint.apply_spring()
        _call(self.before_collide)
        w = self.model.ode_world
        world_step = ode.dWorldQuickStep if self.stepper == "quickstep" else ode.dWorldStep
        self._collide()
        _call(self.after_collide)
        if self._robust is not None:
            self._robust.advance(w, dt, world_step, self._body_rows())
        else:
            world_step(w, dt)
            self._handler.capture_forces()
        self.motors.post_step(dt)
        _call(self.after_step)
        self.plugin_contacts = (_plugin_contact_points(self.model, self.plugin_contact_group)
                                if self.record_contact_feedback else [])
        ode.dJointGroupEmpty(self.contact_group)
        ode.dJointGroupEmpty(self.plugin_contact_group)
        bad = self._find_exploded()
        if bad is not None:
            self.pause(bad)
            self.console.warn(bad)
            return False
        if self.publish_poses:
            self.write_poses()
        self.time_ms += self.basic_time_step if dt == self.dt else dt * 1000.0
        self.steps += 1
        if self.robots is not None:
            self.robots.answer(dt)
        return True

    def collision_pass(self) -> int:
        """Stage 2 of a step alone, as if a step began now: the collide hook and
        the default contacts (with robust contacts: the hook, then the robust
        contacts of a sub-step of `dt`), then the contact groups are emptied.
        Nothing moves and the time stays. Returns the number of contacts
        made (`contacts` lists the default ones). `engine.warmup` compiles
        the collision kernels this way, in a process of its own."""
        self._collide()
        made = (self._handler.contact_count() if self._robust is None
                else self._robust.contact_pass(self.model.ode_world, self.dt))
        ode.dJointGroupEmpty(self.contact_group)
        ode.dJointGroupEmpty(self.plugin_contact_group)
        return made

    def _collide(self) -> None:
        """The collide hook for every candidate pair, then default contacts into
        `contact_group` (the hook alone with robust contacts: their contacts
        are made by the robust stepper)."""
        if self._robust is not None:
            self._robust.handled = self._handler.run_hook_only(self.collide_hook)
            return
        self._handler.collide_hook = self.collide_hook
        self._handler.collide_session = self.collide_session
        self._handler.record_feedback = self.record_contact_feedback
        self._handler.run(self.time_ms)

    def run(self, duration_s: float) -> int:
        """Step until ``duration_s`` of simulated time has passed or a pause; steps done."""
        n = 0
        end = self.time_ms + duration_s * 1000.0
        while self.time_ms < end - 1e-9 and self.step():
            n += 1
        return n

    def _body_rows(self) -> np.ndarray:
        """Store rows (n,) of the bodies of the model's Solids."""
        return self.model.body_rows()

    def _find_exploded(self) -> str | None:
        rows = self._body_rows()
        if not rows.size:
            return None
        store = self.model.ode_world.bodies
        k = first_out_of_bounds(rows, EXPLOSION_BOUND, store.pos, store.lvel, store.avel, store.q)
        if k < 0:
            return None
        b = rows[k]
        finite = bool(np.isfinite(store.pos[b]).all() and np.isfinite(store.lvel[b]).all()
                      and np.isfinite(store.avel[b]).all() and np.isfinite(store.q[b]).all())
        bodies = self.model.bodies
        if not finite:
            return (f"{bodies[k].label}: the simulation became unstable (NaN or infinite "
                    "values); paused")
        return (f"{bodies[k].label}: the simulation exploded (position or velocity beyond "
                f"{EXPLOSION_BOUND:g}); paused")

    # ---------------------------------------------------------------- poses
    def solid_world_frame(self, rec: SolidRecord) -> Transform:
        """The current world frame of a Solid (from its body when it has one)."""
        body = rec.ode_body
        if body is None:
            return rec.frame
        R_body = np.asarray(ode.dBodyGetRotation(body)).reshape(3, 4)[:, :3]
        R, t = solid_world_poses(R_body, np.asarray(ode.dBodyGetPosition(body)),
                                 rec.body_offset.R, rec.body_offset.t)
        return Transform(R[0], t[0])

    def solid_poses(self) -> SolidPoses:
        """Every Solid's world pose (static ones included) and origin velocity now,
        as read-only arrays in the model's Solid order (`SolidPoses`). Per-model
        lookups are kept between calls (rebuilt when the model's records change)."""
        return self._table().read_poses()

    def contact_set(self) -> ContactSet:
        """The last step's contacts as arrays (`ContactSet`): the default ones, then
        the contact joints a plugin made (recorded when ``record_contact_feedback``)."""
        robust = self._robust
        if robust is None:
            return contact_set(self.contact_arrays(), self.plugin_contacts)
        return contact_set(self.contact_arrays(), self.plugin_contacts,
                           robust.contacts.states(), robust.contacts.cluster_size)

    def colliding_solids(self) -> frozenset[Node]:
        """The Solid `Node`s whose geoms a collide hook marked as colliding (returned 2)
        in the last step."""
        return colliding_solids(self.model, self.colliding_geoms, self._table().record_of_body)

    def frame(self, *, mode: str, running: bool, speed: float) -> Frame:
        """The immutable snapshot of the simulation now (`engine.sim.frame.Frame`), for a
        viewer in another thread; call it between steps. ``mode`` is the runner's
        "realtime", "fast" or "paused", ``running`` whether it is stepping, ``speed``
        simulated time / wall time; a paused simulation reports mode "paused"."""
        table = self._table()
        poses = table.read_poses()
        paused = self._paused or not running
        return Frame(time_ms=float(self.time_ms), steps=int(self.steps),
                     poses=table.pose_mapping(poses), pose_nodes=poses.nodes,
                     pose_t=poses.t, pose_R=poses.R, pose_v=poses.v,
                     contacts=self.contact_set(), colliding=self.colliding_solids(),
                     paused=paused, pause_message=self._pause_message, speed=float(speed),
                     running=bool(running) and not self._paused,
                     mode="paused" if paused else mode, contact_model=self.contact_model,
                     contact_status=self.contact_status.label,
                     paddings=MappingProxyType(self.solid_paddings()))

    def _table(self) -> SolidPoseTable:
        """The per-model pose lookups (`solid_poses` builds them)."""
        table = self._pose_table
        if table is None or not table.valid_for(self.model):
            table = self._pose_table = SolidPoseTable(self.model)
        return table

    def write_poses(self) -> None:
        """Write each moving Solid's pose into its translation/rotation fields
        (`engine.sim.pose_writer.PoseWriter`, prepared once per model)."""
        writer = self._pose_writer
        if writer is None or not writer.valid_for(self.model):
            writer = self._pose_writer = PoseWriter(self.model)
        writer.write()

    # -------------------------------------------------------- reset / state
    def save_state(self) -> snapshots.WorldState:
        """A snapshot to resume from bit-identically with `load_state` (bodies,
        joints, the random seed and the motors' control state)."""
        return replace(snapshots.capture(self.model.ode_world, self.time_ms),
                       motors=self.motors.state())

    def load_state(self, state: snapshots.WorldState) -> None:
        """Go back to ``state`` (same world); Solid fields are updated."""
        ode.dJointGroupEmpty(self.contact_group)
        ode.dJointGroupEmpty(self.plugin_contact_group)
        snapshots.restore(self.model.ode_world, state)
        if state.motors is not None:
            self.motors.restore(state.motors)
        if self._robust is not None:
            self._robust.forget()
        self.time_ms = state.time_ms
        self.resume()
        self.write_poses()

    def reset(self) -> None:
        """Everything back to its initial state: ``before_reset`` (plugin cleanup),
        node fields (the `baseline`: loaded values plus the user's edits), bodies,
        joints, RNG and time, then ``after_reset`` (plugin init). ODE handles stay
        the same objects unless the world was edited (`mark_modified`): then it
        is built again from the baseline fields."""
        _call(self.before_reset)
        if self._modified:  # edited: build the edited world again
            self.baseline.restore()
            self.model.destroy()
            self._setup()
            self._modified = False
        else:
            self.load_state(self._initial_state)
            self.baseline.restore()
            self.motors.reset()
        self.steps = 0
        self.plugin_contacts = []
        self._handler.contacts = []
        self._handler.colliding = set()
        _call(self.after_reset)

    def mark_modified(self) -> None:
        """An edit changed the ODE objects (engine.sim.edits): the next `reset`
        builds the world again instead of restoring the saved state."""
        self._modified = True

    def set_stepper(self, stepper: str) -> None:
        """Use ``"step"`` (dWorldStep) or ``"quickstep"`` from the next step on
        (a stepper given to the constructor wins)."""
        stepper = self._stepper_override or stepper
        if stepper not in ("step", "quickstep"):
            raise ValueError(f"unknown stepper {stepper!r} (expected 'step' or 'quickstep')")
        self.stepper = stepper

    def rebuild_contact_table(self) -> None:
        """Read the ContactProperties nodes again (after one was edited)."""
        self._handler = ContactHandler(self.model, self.contact_group, self.console.warn)

    def rebuild(self) -> None:
        """Build the ODE objects again from the *current* fields (an edit that
        cannot be applied live), keeping the time and step count: ``before_reset``
        (plugin cleanup), rebuild, ``after_reset`` (plugin init). Bodies start
        at rest at their current poses. A later `reset` goes back to the
        baseline, which now also holds the fields of inserted nodes."""
        _call(self.before_reset)
        baseline = self.baseline
        initial_state = self._initial_state
        time_ms, steps = self.time_ms, self.steps
        self.model.destroy()
        self._setup()
        self.baseline = baseline
        baseline.add_new_nodes(self.world)
        self._initial_state = initial_state
        self._modified = True
        self.time_ms, self.steps = time_ms, steps
        _call(self.after_reset)

    def reload(self) -> None:
        """Destroy the ODE objects and build again from a fresh parse of the file
        (from the in-memory world, its fields back to their initial values, when
        the Simulation was given a World)."""
        self.model.destroy()
        if self._path is not None:
            self.world = read_world(self._path)
        else:
            self._loaded.restore()
        self._modified = False
        self._setup()
        self._loaded = Baseline.capture(self.world)


def _plugin_contact_points(model: Model, group) -> list[ContactPoint]:
    """The contact joints a plugin made in ``group`` this step, as `ContactPoint`s
    (Solid records from the geoms, else from the bodies; the plugin's
    dJointFeedback, else the forces read from the joint store, so a contact
    the plugin made without one still has its force). ODE has no getter for a
    contact joint's point: the joint handle's ``position``/``normal``/``depth``
    (Odeon extension) read it."""
    joints = getattr(group, "joints", ())
    if not joints:
        return []  # most steps: no plugin contacts (and no body table to build)
    by_body = {id(r.body): r for r in model.bodies}
    out = []
    for joint in joints:
        if ode.dJointGetType(joint) != ode.dJointTypeContact:
            continue
        recs = []
        for k, geom in enumerate((getattr(joint, "g1", None), getattr(joint, "g2", None))):
            rec = model.geom_solid.get(geom) if geom is not None else None
            if rec is None:
                body = ode.dJointGetBody(joint, k)
                rec = by_body.get(id(body)) if body is not None else None
            recs.append(rec)
        out.append(ContactPoint(joint.position, joint.normal, joint.depth, recs[0], recs[1],
                                joint.feedback if joint.feedback is not None
                                else stored_feedback(joint)))
    return out


def _call(hook: Hook) -> None:
    if hook is not None:
        hook()
