"""`Keyboard`: keys pressed while the app's 3D view has focus."""

from __future__ import annotations

from . import _current, _errors


class Keyboard:
    """``getKey()`` returns the pressed keys one per call, then -1."""

    END = 312
    HOME = 313
    LEFT = 314
    UP = 315
    RIGHT = 316
    DOWN = 317
    PAGEUP = 366
    PAGEDOWN = 367
    NUMPAD_HOME = 375
    NUMPAD_LEFT = 376
    NUMPAD_UP = 377
    NUMPAD_RIGHT = 378
    NUMPAD_DOWN = 379
    NUMPAD_END = 382
    KEY = 0xFFFF
    SHIFT = 0x10000
    CONTROL = 0x20000
    ALT = 0x40000

    def __init__(self, sampling_period=None) -> None:
        self._read = 0
        self._period = 0
        if sampling_period is not None:
            self.enable(sampling_period)

    def enable(self, samplingPeriod: int) -> None:
        robot = _current.robot()
        self._period = int(samplingPeriod)
        if robot is not None:
            robot._queue_command(-3, "enable", (self._period,))

    def disable(self) -> None:
        self.enable(0)

    def getSamplingPeriod(self) -> int:
        return self._period

    def getKey(self) -> int:
        robot = _current.robot()
        if self._period <= 0:
            _errors.error("wb_keyboard_get_key() called for a disabled device! Please use: "
                          "wb_keyboard_enable().")
            return -1
        if robot is None:
            return -1
        keys = robot._keys
        if robot._keys_read_at != robot.getTime():
            robot._keys_read_at = robot.getTime()
            self._read = 0
        if self._read >= len(keys):
            return -1
        key = keys[self._read]
        self._read += 1
        return key

    @property
    def sampling_period(self) -> int:
        return self.getSamplingPeriod()
