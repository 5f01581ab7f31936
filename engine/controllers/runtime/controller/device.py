"""`Device` and `Sensor`: what every device object shares.

A device object holds its robot, its ``tag`` (the simulation's number for
the device) and the static description the simulation sent at start-up
(``info``: the node's field values the API exposes). Values measured by the
simulation live in the robot (``robot._values[tag]``), so two objects for
the same device (``getDevice`` and ``DistanceSensor("ds")``) agree.
"""

from __future__ import annotations

import math

from . import _current, _errors
from .node_types import node_type_number


class Device:
    """A device of this controller's robot, by name (``Device("name")``) or
    as `Robot.getDevice` builds it."""

    def __init__(self, name, sampling_period=None, _built: bool = False) -> None:
        robot = _current.robot()
        description = robot._description_of(name) if robot is not None else None
        if description is None:
            if robot is not None:
                _errors.error(f'Device "{name}" was not found on robot "{robot.getName()}".')
            self._robot = robot
            self._tag = -1
            self._info = {"name": str(name), "type": "", "model": ""}
            return
        self._robot = robot
        self._tag = description["tag"]
        self._info = description

    # -- Webots' device API
    def getName(self) -> str:
        return self._info["name"]

    def getModel(self) -> str:
        return self._info.get("model", "")

    def getNodeType(self) -> int:
        return node_type_number(self._info["type"])

    @property
    def name(self) -> str:
        return self.getName()

    @property
    def model(self) -> str:
        return self.getModel()

    @property
    def node_type(self) -> int:
        return self.getNodeType()

    # -- helpers for subclasses
    def _command(self, method: str, *args) -> None:
        if self._robot is not None and self._tag >= 0:
            self._robot._queue_command(self._tag, method, args)

    def _allowed_channel(self, channel, function: str) -> int | None:
        """``channel`` as an int when the node's ``allowedChannels`` permits it
        (empty: every channel), else None with Webots' error line."""
        channel = int(channel)
        allowed = self._info.get("allowed_channels", ())
        if allowed and channel not in allowed:
            _errors.error(f"{function}(): channel {channel} is not in allowedChannels.")
            return None
        return channel

    def _value(self):
        """The latest sample (NaN, or a list of NaN, before the first one)."""
        components = self._info.get("components", 0)
        missing = [math.nan] * components if components else math.nan
        if self._robot is None or self._tag < 0:
            return missing
        value = self._robot._values.get(self._tag, missing)
        return list(value) if isinstance(value, (list, tuple)) else value


class Sensor(Device):
    """A device with a sampling period. Built by name it enables itself with
    the basic time step (Webots does the same)."""

    def __init__(self, name, sampling_period=None, _built: bool = False) -> None:
        super().__init__(name, sampling_period, _built)
        if not _built and self._robot is not None and self._tag >= 0:
            period = sampling_period
            if period is None:
                period = int(self._robot.getBasicTimeStep())
            self.enable(period)

    def enable(self, samplingPeriod: int) -> None:
        period = int(samplingPeriod)
        if period < 0:
            _errors.error(f"{type(self).__name__}.enable() called with negative sampling "
                          f"period: {period}.")
            return
        if self._robot is not None and self._tag >= 0:
            self._robot._periods[self._tag] = period
            self._command("enable", period)

    def disable(self) -> None:
        self.enable(0)

    def getSamplingPeriod(self) -> int:
        if self._robot is None or self._tag < 0:
            return 0
        return self._robot._periods.get(self._tag, 0)

    @property
    def sampling_period(self) -> int:
        return self.getSamplingPeriod()

    @sampling_period.setter
    def sampling_period(self, period: int) -> None:
        self.enable(period)

    def _sample(self, function: str):
        """The latest value, or NaN with Webots' error when disabled."""
        if self.getSamplingPeriod() <= 0:
            _errors.error(f"{function}() called for a disabled device! Please use: "
                          f"{function.rsplit('_get_', 1)[0]}_enable().")
            info_len = self._info.get("components", 0)
            return [math.nan] * info_len if info_len else math.nan
        return self._value()
