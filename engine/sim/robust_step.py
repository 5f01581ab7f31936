"""One basic time step under the robust contact model: sub-steps, rollback, correction.

`RobustStepper.advance` replaces "world step" in `Simulation.step` when the
world uses the robust model (docs/robust-contacts.md, "Adaptive time
stepping"). The plugin's hooks and its own contacts run once per basic
step, before it; then, until ``dt`` is covered:

1. with adaptive time stepping, the state is saved (bodies, joints, RNG:
   `engine.sim.state`) with the actuators' state;
2. the forces applied before the step (plugin, springs) are put back on the
   bodies (ODE clears them after each world step), then the actuators and
   joint frictions add theirs for the sub-step ``h``;
3. the robust contacts of the current poses become contact joints
   (`engine.contact.pipeline`), the world steps by ``h``, the contact
   forces are kept and the joints removed;
4. with adaptive time stepping, the contacts are detected again: if a pair
   newly penetrates or lost more than half its margin
   (`engine.contact.adaptive.MarginTracker`), the state is restored and
   the sub-step retried at h/2 (down to ``minimum_time_step``; a bad step
   at the minimum is kept, status ContactUnreliable); else it is kept, the
   new detection serves the next sub-step, and h doubles back towards dt;
5. instability correction slows a body whose kinetic energy jumped.

The status of the basic step is the worst seen (Normal,
AdaptiveTimeStepping, ContactUnreliable, Unstable).
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from engine import ode
from engine.contact.adaptive import InstabilityMonitor, MarginTracker, SimStatus
from engine.contact.pipeline import (
    CandidatePairs,
    Detection,
    PairGeoms,
    RobustContacts,
    detect,
    make_robust_contacts,
    pair_margins,
)
from engine.sim import state as snapshots
from engine.sim.robust_actuators import RobustActuators
from engine.sim.robust_contacts import RobustPairs

#: Time [s] below which what is left of a basic step counts as done.
_TIME_EPS = 1e-12


class RobustStepper:
    """The sub-step loop of the robust model for one `Simulation`.

    ``pairs`` the model's per-Solid values and pair builder; ``group`` the
    contact joint group the robust contacts go in; ``actuators`` the PID
    actuators and joint frictions applied every sub-step."""

    def __init__(self, pairs: RobustPairs, group, actuators: RobustActuators) -> None:
        self.pairs = pairs
        self.group = group
        self.actuators = actuators
        self.options = pairs.pipeline_options
        self.tracker = MarginTracker()
        self.monitor = InstabilityMonitor()
        #: the worst status of the last basic step
        self.status = SimStatus.NORMAL
        #: the contacts of the last accepted sub-step
        self.contacts = RobustContacts()
        #: sub-steps taken and retried in the last basic step
        self.substeps = 0
        self.rollbacks = 0
        #: geom pairs the plugin's collide hook handled this basic step (id pairs)
        self.handled: set[tuple[int, int]] = set()
        self._detection: Detection | None = None
        self._detected_pose: np.ndarray | None = None

    # ---------------------------------------------------------------- pairs
    def _detect(self) -> Detection:
        """The detection of the space's robust pairs now (less those the plugin handled)."""
        found = self.pairs.space_pairs()
        if self.handled:
            keep = [k for k, p in enumerate(found.pairs)
                    if (id(p.g1), id(p.g2)) not in self.handled
                    and (id(p.g2), id(p.g1)) not in self.handled]
            found = CandidatePairs([found.pairs[k] for k in keep],
                                   PairGeoms(found.where.arrays,
                                             found.where.index[np.array(keep, dtype=np.int64)]))
        return detect(found.pairs, found.where)

    def _pose_key(self, world) -> np.ndarray:
        store = world.bodies
        n = store.count
        return np.concatenate([store.pos[:n].ravel(), store.q[:n].ravel()])

    def _current_detection(self, world) -> Detection:
        """The detection of the current poses (the last one when nothing moved)."""
        key = self._pose_key(world)
        if (self._detection is not None and self._detected_pose is not None
                and self._detected_pose.shape == key.shape
                and np.array_equal(self._detected_pose, key)):
            return self._detection
        return self._remember(self._detect(), key)

    def _remember(self, detection: Detection, key: np.ndarray) -> Detection:
        self._detection = detection
        self._detected_pose = key
        return detection

    def forget(self) -> None:
        """Drop the cached detection and the step history (after a state load,
        a reset or an edit)."""
        self._detection = None
        self._detected_pose = None
        self.tracker.clear()
        self.monitor.clear()
        self.contacts = RobustContacts()
        self.status = SimStatus.NORMAL

    def contact_pass(self, world, h: float) -> int:
        """The contacts a sub-step of ``h`` [s] would make now (the detection
        of the current poses, less the pairs the plugin handled) and their
        pair margins, made and dropped again: nothing moves
        (`Simulation.collision_pass`). Returns how many contacts were made."""
        detection = self._current_detection(world)
        made = len(make_robust_contacts(world, self.group, detection, h, self.options))
        pair_margins(detection)
        ode.dJointGroupEmpty(self.group)
        return made

    # ---------------------------------------------------------------- step
    def advance(self, world, dt: float, world_step: Callable[[object, float], None],
                body_rows: np.ndarray) -> None:
        """Cover ``dt`` [s] with robust sub-steps (module docstring);
        ``world_step(world, h)`` is dWorldStep or dWorldQuickStep; ``body_rows``
        the rows of the Solids' bodies (for instability correction)."""
        options = self.pairs.options
        store = world.bodies
        n = store.count
        applied_force = store.facc[:n].copy()
        applied_torque = store.tacc[:n].copy()
        status = SimStatus.NORMAL
        self.substeps = self.rollbacks = 0
        remaining = dt
        h = dt
        while remaining > _TIME_EPS:
            h = min(h, remaining)
            if options.adaptive_time_stepping:  # a sub-step may have to be undone
                saved = snapshots.capture(world, 0.0)
                saved_actuators = self.actuators.state()
            detection = self._current_detection(world)
            store.facc[:n] = applied_force
            store.tacc[:n] = applied_torque
            self.actuators.apply(h)
            contacts = make_robust_contacts(world, self.group, detection, h, self.options)
            world_step(world, h)
            contacts.capture_forces(world)
            ode.dJointGroupEmpty(self.group)
            if options.adaptive_time_stepping:
                after = self._detect()
                margins = pair_margins(after)
                if self.tracker.should_roll_back(margins):
                    if h > options.minimum_time_step * (1.0 + 1e-9):
                        snapshots.restore(world, saved)
                        self.actuators.restore(saved_actuators)
                        h = max(0.5 * h, options.minimum_time_step)
                        status = max(status, SimStatus.ADAPTIVE_TIME_STEPPING)
                        self.rollbacks += 1
                        continue
                    status = max(status, SimStatus.CONTACT_UNRELIABLE)
                self.tracker.accept(margins)
                self._remember(after, self._pose_key(world))
            else:
                self._detection = None
            self.contacts = contacts
            if options.instability_correction and body_rows.size:
                if self.monitor.correct(world, body_rows):
                    status = max(status, SimStatus.UNSTABLE)
            remaining -= h
            self.substeps += 1
            h = min(2.0 * h, dt)
        self.status = status
