"""The controller process's end of its link to the simulation.

The simulation starts the controller with ``ODEON_CONTROLLER_FDS="<read>,<write>"``:
two inherited pipe descriptors. `connect` opens them once per process.
"""

from __future__ import annotations

import os
import sys

from . import _orphan_guard
from ._wire import ConnectionClosed, read_frame, write_frame

ENV_FDS = "ODEON_CONTROLLER_FDS"


class Connection:
    """Blocking request/answer over the two pipes."""

    def __init__(self, read_fd: int, write_fd: int) -> None:
        self._read_fd = read_fd
        self._write_fd = write_fd

    def request(self, message: dict) -> dict:
        """Send ``message`` and wait for the simulation's answer. When the
        simulation is gone the process exits quietly (Webots does the same)."""
        try:
            write_frame(self._write_fd, message)
            return read_frame(self._read_fd)
        except (ConnectionClosed, BrokenPipeError, OSError):
            sys.stdout.flush()
            os._exit(0)


_connection: Connection | None = None


def connect() -> Connection | None:
    """The process's connection, or None (with Webots-style error text on
    stderr) when the controller was not started by Odeon."""
    global _connection
    if _connection is None:
        fds = os.environ.get(ENV_FDS, "")
        try:
            read_fd, write_fd = (int(v) for v in fds.split(","))
        except ValueError:
            sys.stderr.write("Error: this controller was not started by Odeon: open its world "
                             "in Odeon (or run `odeon run <world>`) to run it.\n")
            return None
        _connection = Connection(read_fd, write_fd)
        _orphan_guard.start()
    return _connection
