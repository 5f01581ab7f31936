"""`LED`: a colour index (or intensity, or 0xRRGGBB for an RGB LED)."""

from __future__ import annotations

from .device import Device


class LED(Device):
    """An LED; the value is shown by the app (the LED's first child's colour)."""

    def __init__(self, name, sampling_period=None, _built: bool = False) -> None:
        super().__init__(name, sampling_period, _built)
        self._value_set = 0

    def set(self, value: int) -> None:
        self._value_set = int(value)
        self._command("set", self._value_set)

    def get(self) -> int:
        return self._value_set

    @property
    def value(self) -> int:
        return self.get()

    @value.setter
    def value(self, value: int) -> None:
        self.set(value)
