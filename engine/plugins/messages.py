"""Emitter/Receiver buffers between the physics plugin and robots
(docs/webots-behaviour.md, "Plugin utility functions").

- Robots -> plugin: the plugin listens on channel 0 only; every packet is
  appended to one byte buffer (messages of a step concatenated).
  `Inbox.receive` returns the buffer (or None when empty) and raises a
  "read" flag; the buffer is then cleared at the next `receive`, at the start
  of the next step (`Inbox.start_step`), or when new data arrives. So a second
  receive in the same step returns None and unread data accumulates.
- Plugin -> robots: `Outbox.send(channel, data)` queues ``(channel, bytes)``
  for the Receivers whose channel equals ``channel``; the controllers' side
  takes them with `Outbox.take`.
"""

from __future__ import annotations

from engine.sim.channels import PLUGIN_CHANNEL


class Inbox:
    """Bytes sent to the plugin on channel 0."""

    def __init__(self) -> None:
        self._data = bytearray()
        self._read = False

    def deliver(self, channel: int, data: bytes) -> bool:
        """Append ``data`` if ``channel`` is 0; True when it was taken."""
        if channel != PLUGIN_CHANNEL:
            return False
        if self._read:
            self._data.clear()
            self._read = False
        self._data += bytes(data)
        return True

    def receive(self) -> bytes | None:
        """The concatenated messages, or None when there is nothing (again)."""
        if self._read:
            self._data.clear()
            self._read = False
        if not self._data:
            return None
        self._read = True
        return bytes(self._data)

    def start_step(self) -> None:
        """Start of a step: drop what was read in the previous step."""
        if self._read:
            self._data.clear()
            self._read = False

    def clear(self) -> None:
        """Forget everything (plugin unloaded)."""
        self._data.clear()
        self._read = False

    @property
    def pending(self) -> int:
        """Bytes waiting (read or not)."""
        return len(self._data)


class Outbox:
    """Messages the plugin sent to robots' Receivers."""

    def __init__(self) -> None:
        self._queue: list[tuple[int, bytes]] = []

    def send(self, channel: int, data: bytes) -> None:
        """Queue ``data`` for the Receivers on ``channel``."""
        self._queue.append((int(channel), bytes(data)))

    def take(self) -> list[tuple[int, bytes]]:
        """Every queued ``(channel, bytes)``, oldest first; the queue is emptied."""
        out, self._queue = self._queue, []
        return out
