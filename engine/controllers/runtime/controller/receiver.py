"""`Receiver`: the packets that reached this device, oldest first.

Each packet arrives with its channel, signal strength (1/d², NaN from the
physics plugin) and the unit direction towards the emitter in the device
frame (NaN from the plugin)."""

from __future__ import annotations

import math
import struct

from . import _errors
from .device import Sensor


class Receiver(Sensor):
    """A radio, serial or infra-red receiver."""

    CHANNEL_BROADCAST = -1

    def __init__(self, name, sampling_period=None, _built: bool = False) -> None:
        super().__init__(name, sampling_period, _built)
        self._channel = self._info.get("channel", 0)

    def _queue(self) -> list:
        if self._robot is None or self._tag < 0:
            return []
        return self._robot._packets.setdefault(self._tag, [])

    def _head(self, function: str):
        queue = self._queue()
        if not queue:
            _errors.error(f"{function}(): the receiver queue is empty.")
            return None
        return queue[0]

    def getQueueLength(self) -> int:
        return len(self._queue())

    def nextPacket(self) -> None:
        queue = self._queue()
        if not queue:
            _errors.error("wb_receiver_next_packet(): the receiver queue is empty.")
            return
        queue.pop(0)

    def getBytes(self) -> bytes:
        head = self._head("wb_receiver_get_data")
        return b"" if head is None else bytes(head[0])

    def getString(self) -> str:
        return self.getBytes().decode()

    def getData(self) -> str:
        _errors.deprecated("Receiver.getData", "Receiver.getString")
        return self.getString()

    def getFloats(self) -> list:
        data = self.getBytes()
        return list(struct.unpack(f"{len(data) // 8}d", data[:len(data) // 8 * 8]))

    def getInts(self) -> list:
        data = self.getBytes()
        return list(struct.unpack(f"{len(data) // 4}i", data[:len(data) // 4 * 4]))

    def getBools(self) -> list:
        data = self.getBytes()
        return list(struct.unpack(f"{len(data)}?", data))

    def getDataSize(self) -> int:
        head = self._head("wb_receiver_get_data_size")
        return -1 if head is None else len(head[0])

    def getSignalStrength(self) -> float:
        head = self._head("wb_receiver_get_signal_strength")
        return math.nan if head is None else head[2]

    def getEmitterDirection(self) -> list:
        head = self._head("wb_receiver_get_emitter_direction")
        return [math.nan] * 3 if head is None else list(head[3])

    def getChannel(self) -> int:
        return self._channel

    def setChannel(self, channel: int) -> None:
        checked = self._allowed_channel(channel, "wb_receiver_set_channel")
        if checked is not None:
            self._channel = checked
            self._command("channel", checked)

    @property
    def queue_length(self) -> int:
        return self.getQueueLength()

    @property
    def data_size(self) -> int:
        return self.getDataSize()

    @property
    def signal_strength(self) -> float:
        return self.getSignalStrength()

    @property
    def emitter_direction(self) -> list:
        return self.getEmitterDirection()

    @property
    def channel(self) -> int:
        return self.getChannel()

    @channel.setter
    def channel(self, channel: int) -> None:
        self.setChannel(channel)
