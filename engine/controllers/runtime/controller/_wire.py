"""Frames between a controller process and the simulation (both sides use this module).

A frame is a 4-byte little-endian length followed by a `marshal` payload
(dicts, lists, tuples, str, bytes, int, float, None: what the protocol
needs, an order of magnitude faster than pickle and unable to run code).
Reads and writes go straight to file descriptors: the simulation side waits
on several of them with ``select``; the controller side blocks.

Messages (dicts with an ``"op"`` key), controller -> simulation:

``{"op": "init"}``                      first message; answered by the configuration
``{"op": "step", "ms": int, "cmds": [...]}``  latched commands, then wait ``ms``
``{"op": "query", "q": str, "args": [...]}``   a Supervisor getter or other
                                        immediate call, answered at once

simulation -> controller: the configuration (``{"op": "config", ...}``), step
answers (``{"op": "answer", "t": s, "status": 0 or -1, "values": {...},
"packets": {...}, "keys": [...], "messages": [...]}``) and query results
(``{"op": "result", "value": ...}``). `engine/controllers/protocol.md`-style
details live in the docstrings of `engine.controllers.session` (simulation
side) and `controller.robot` (controller side).
"""

from __future__ import annotations

import marshal
import os
import struct

_LENGTH = struct.Struct("<I")


class ConnectionClosed(EOFError):
    """The other side closed its end (process exited or simulation gone)."""


def encode(message: object) -> bytes:
    """One frame: length prefix + marshal payload."""
    payload = marshal.dumps(message)
    return _LENGTH.pack(len(payload)) + payload


def write_frame(fd: int, message: object) -> None:
    """Write one whole frame to ``fd`` (blocking)."""
    data = memoryview(encode(message))
    while data:
        written = os.write(fd, data)
        data = data[written:]


def _read_exactly(fd: int, n: int) -> bytes:
    chunks = []
    while n:
        chunk = os.read(fd, n)
        if not chunk:
            raise ConnectionClosed("connection closed")
        chunks.append(chunk)
        n -= len(chunk)
    return b"".join(chunks)


def read_frame(fd: int) -> object:
    """Read one whole frame from ``fd`` (blocking); `ConnectionClosed` at EOF."""
    (length,) = _LENGTH.unpack(_read_exactly(fd, _LENGTH.size))
    return marshal.loads(_read_exactly(fd, length))


class FrameReader:
    """Incremental reader for a non-blocking simulation side: feed it bytes,
    take whole messages out."""

    def __init__(self) -> None:
        self._buffer = bytearray()

    def feed(self, data: bytes) -> None:
        """Append bytes read from the pipe."""
        self._buffer += data

    def next_message(self) -> object | None:
        """The next whole message, or None until more bytes arrive."""
        if len(self._buffer) < _LENGTH.size:
            return None
        (length,) = _LENGTH.unpack_from(self._buffer)
        end = _LENGTH.size + length
        if len(self._buffer) < end:
            return None
        message = marshal.loads(bytes(self._buffer[_LENGTH.size:end]))
        del self._buffer[:end]
        return message
