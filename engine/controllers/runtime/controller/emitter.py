"""`Emitter`: packets to other robots' Receivers (and, on channel 0, to the
physics plugin). A packet sent now travels with the next step request; the
simulation delivers it during that step."""

from __future__ import annotations

import struct

from . import _errors
from .device import Device


def packet_bytes(message) -> bytes | None:
    """Webots' Python encoding of a message: bytes as they are, str as UTF-8,
    a list/tuple of numbers as doubles when the first is a float, else ints."""
    if isinstance(message, (bytes, bytearray, memoryview)):
        return bytes(message)
    if isinstance(message, str):
        return message.encode()
    if isinstance(message, (list, tuple)) and message:
        code = "d" if isinstance(message[0], float) else "i"
        return struct.pack(f"{len(message)}{code}", *message)
    return None


class Emitter(Device):
    """A radio, serial or infra-red emitter."""

    CHANNEL_BROADCAST = -1

    def __init__(self, name, sampling_period=None, _built: bool = False) -> None:
        super().__init__(name, sampling_period, _built)
        self._channel = self._info.get("channel", 0)
        self._range = self._info.get("range", -1.0)

    def send(self, message, length: int | None = None) -> int:
        data = packet_bytes(message)
        if data is None or not data:
            _errors.error("wb_emitter_send(): invalid argument: data is NULL or empty.")
            return 0
        if length is not None:
            data = data[:int(length)]
        buffer_size = self._info.get("buffer_size", -1)
        if buffer_size != -1 and len(data) > buffer_size:
            _errors.error(f"wb_emitter_send(): packet of {len(data)} bytes exceeds the "
                          f"bufferSize of {buffer_size} bytes.")
            return 0
        self._command("send", data, self._channel, self._range)
        return 1

    def getChannel(self) -> int:
        return self._channel

    def setChannel(self, channel: int) -> None:
        checked = self._allowed_channel(channel, "wb_emitter_set_channel")
        if checked is not None:
            self._channel = checked

    def getRange(self) -> float:
        return self._range

    def setRange(self, range: float) -> None:
        value = float(range)
        max_range = self._info.get("max_range", -1.0)
        if value < 0.0 and value != -1.0:
            _errors.error("wb_emitter_set_range(): negative range.")
            return
        if max_range != -1.0 and (value == -1.0 or value > max_range):
            value = max_range
        self._range = value

    def getBufferSize(self) -> int:
        return self._info.get("buffer_size", -1)

    @property
    def channel(self) -> int:
        return self.getChannel()

    @channel.setter
    def channel(self, channel: int) -> None:
        self.setChannel(channel)

    @property
    def range(self) -> float:
        return self.getRange()

    @range.setter
    def range(self, value: float) -> None:
        self.setRange(value)

    @property
    def buffer_size(self) -> int:
        return self.getBufferSize()
