"""TouchSensor: bumper, force and force-3d (docs/sensors.md, "TouchSensor").

Forces come from a fixed joint, as in Webots: a TouchSensor with Physics is
never merged into its parent's body (engine/sim/builder.py,
``OWN_BODY_TYPES``); it has its own body, fixed to its parent's body (or to
the static world under a static parent) by a joint whose dJointFeedback this
module switches on. The force read is the one that joint applies to the
**parent** [N, world]: the load the sensor passes on, without the sensor's
own weight when the sensor is below its parent (a robot box of mass m
resting on its sensor reads m g; Webots' force3d_sensor sample: 78.48 N for
8 kg). Contact forces on the sensor's geoms are not summed: a contact
pushing the sensor and the sensor's weight both reach the parent through
the joint, as in Webots.

* bumper: 1.0 if the sensor's boundingObject was in a contact of any step
  since the last read, else 0.0 (read resets it); no Physics needed;
* force: ``lookup(max(0, -x . f))``, x the sensor's x axis (world): a push on
  the sensor against its x axis;
* force-3d: ``lookup`` of each component of f in the sensor frame.

Without Physics (or without a parent to be fixed to) force and force-3d read
``lookup(0)``. Unknown ``type`` strings read as bumper (as Webots).
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from engine import ode
from engine.ode.kernels.detlinalg import dot
from engine.sim.sensors.lookup import Reading
from engine.sim.sensors.site import DeviceSite, to_device
from engine.world import Node


class TouchSensorDevice:
    """The engine side of one TouchSensor node (`SampledDevice`)."""

    def __init__(self, sim, node: Node, seed: int) -> None:
        self.node = node
        self.site = DeviceSite(sim, node)
        kind = node.get("type")
        self.kind = kind if kind in READERS else "bumper"
        self.reading = Reading.of_node(node, seed)
        self._touched = False
        self._joint_model = None
        self._feedback: ode.dJointFeedback | None = None
        self._sensor_slot = 1
        if self.kind != "bumper":
            self._attach()  # feedback on before the first step

    def post_step(self, dt: float) -> None:
        """Remember a contact of the sensor's geoms in this step (bumper)."""
        if self.kind != "bumper":
            return
        if self.site.restarted():
            self._touched = False
        if self._touched:
            return
        rec = self.site.current()
        arrays = self.site.sim.contact_arrays()
        self._touched = any(r is rec for r in arrays[4]) or any(r is rec for r in arrays[5])

    def read(self) -> float | list[float]:
        """The value Webots' getValue (bumper, force) or getValues (force-3d) returns now."""
        return READERS[self.kind](self)

    # ------------------------------------------------------------ readers
    def _bumper(self) -> float:
        touched, self._touched = self._touched, False
        return 1.0 if touched else 0.0

    def _force(self) -> float:
        f = self.parent_force()
        if f is None:
            return self.reading.table.lookup(0.0, self.reading.rng)
        x = self.site.frame().R[:, 0]
        return self.reading.apply(max(0.0, -dot(x, f)))

    def _force3d(self) -> list[float]:
        f = self.parent_force()
        if f is None:
            return [self.reading.table.lookup(0.0, self.reading.rng) for _ in range(3)]
        return [self.reading.apply(v) for v in to_device(self.site.frame().R, f).tolist()]

    # ------------------------------------------------------------ the joint
    def parent_force(self) -> np.ndarray | None:
        """The force [N] (3,) the sensor's fixed joint applied to the parent in the
        last step (world frame), or None when the sensor has no such joint."""
        if self._joint_model is not self.site.sim.model:
            self._attach()  # the simulation built a new model
        if self._feedback is None:
            return None
        fb = self._feedback
        # a fixed joint's linear rows push the two bodies equally and oppositely
        on_sensor = np.asarray(fb.f2 if self._sensor_slot == 1 else fb.f1, float)
        return -on_sensor

    def _attach(self) -> None:
        """Find the fixed joint holding the sensor's own body and switch its feedback on."""
        rec = self.site.current()
        self._joint_model = self.site.sim.model
        self._feedback = None
        body = rec.body if rec.owner is rec else None
        if body is None:
            return
        for j in self._joint_model.fixed_joints:
            for slot in (0, 1):
                if ode.dJointGetBody(j, slot) is body:
                    self._sensor_slot = slot
                    self._feedback = ode.dJointFeedback()
                    ode.dJointSetFeedback(j, self._feedback)
                    return


#: the reading of each TouchSensor type
READERS: dict[str, Callable[[TouchSensorDevice], float | list[float]]] = {
    "bumper": TouchSensorDevice._bumper,
    "force": TouchSensorDevice._force,
    "force-3d": TouchSensorDevice._force3d,
}
