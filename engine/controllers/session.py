"""One robot's controller as the host sees it: its process, devices and the
lock-step bookkeeping.

States: ``starting`` (process launched, no request yet), ``computing``
(answered; the host waits for its next request), ``waiting`` (blocked in
``step``: its answer is due at world step ``due_step``), ``ended`` (the
process exited, crashed or was stopped; never waited for again).
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

from engine.controllers.device_records import RobotDevice
from engine.controllers.discovery import ControllerProgram
from engine.controllers.process import ControllerProcess
from engine.world import Node

STARTING = "starting"
COMPUTING = "computing"
WAITING = "waiting"
ENDED = "ended"


@dataclass
class Session:
    """A robot, its controller program and process, and its step state."""

    robot: Node
    name: str
    program: ControllerProgram
    process: ControllerProcess
    devices: list[RobotDevice]
    synchronous: bool
    state: str = STARTING
    due_step: int = 0
    commands: list = field(default_factory=list)
    values: dict = field(default_factory=dict)
    packets: dict = field(default_factory=dict)
    keyboard_period: int = 0
    battery_period_steps: int = 0
    battery_next: int = 0
    #: monotonic time since when the host waits for this controller (late detection)
    waiting_since: float = field(default_factory=time.monotonic)
    late_reported: bool = False
    ending: bool = False

    @property
    def running(self) -> bool:
        """True until the process ended."""
        return self.state != ENDED

    def device(self, tag: int) -> RobotDevice | None:
        """The device with number ``tag``, or None."""
        return self.devices[tag] if 0 <= tag < len(self.devices) else None
