"""The records of a robot's devices on the simulation side: `RobotDevice`
(one device: tag, node, description, sampler, command handlers, sampling
schedule) and `DeviceContext` (what building one needs)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from engine.world import Node


class Sampler:
    """What the host needs from an engine-side sensor (see `engine.sim.sensors`)."""

    def post_step(self, dt: float) -> None:  # pragma: no cover - protocol
        """After every world step."""

    def read(self):  # pragma: no cover - protocol
        """The value now."""


@dataclass
class RobotDevice:
    """One device of one robot.

    ``tag`` is the device's number in its robot's list; ``info`` the static
    description sent to the controller; ``sampler`` gives values when a
    sample is due (None: the device measures nothing); ``handlers`` map a
    command name to a function of the command's arguments; ``period_steps``
    (0 = disabled) and ``next_sample`` (a world step count) schedule samples.
    """

    tag: int
    node: Node
    name: str
    type_name: str
    info: dict
    sampler: Sampler | None = None
    handlers: dict[str, Callable[..., None]] = field(default_factory=dict)
    period_steps: int = 0
    next_sample: int = 0
    extra_values: Callable[[], dict] | None = None
    #: what a device without a sampler keeps (an LED's value)
    state: object = None


@dataclass(frozen=True)
class DeviceContext:
    """What building a device needs: the simulation, a warning sink (the
    robot's console), the device's noise seed and the radio."""

    sim: object
    warn: Callable[[str], None]
    seed: int
    radio: object
    robot_name: str


DeviceBuilder = Callable[[DeviceContext, RobotDevice], None]
