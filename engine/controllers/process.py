"""One controller process: started, talked to over two pipes, stopped.

The process runs ``python -u <name>.py <controllerArgs>`` in the controller's
folder with Odeon's `controller` package first on ``PYTHONPATH`` and, as
Webots sets them, ``WEBOTS_ROBOT_NAME`` and ``PYTHONIOENCODING=UTF-8``.
Messages go over two pipes whose descriptors are passed in
``ODEON_CONTROLLER_FDS``; stdout and stderr are pipes read without blocking
by the host's own loop (`drain_output`), and always before a request is
handled: what a controller printed before calling ``step`` is printed
before that step runs, whatever the machine's load.

No orphans: the controller side exits when its pipe closes or its parent
process changes (a watchdog thread in the `controller` package), so closing
the world, killing the app or a crash leaves no process behind.
"""

from __future__ import annotations

import os
import select
import subprocess
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from engine.controllers.runtime.controller._wire import (
    ConnectionClosed,
    FrameReader,
    write_frame,
)

#: The folder holding the `controller` package controllers import.
RUNTIME_DIR = Path(__file__).resolve().parent / "runtime"
#: Seconds a controller gets to exit after its last answer before it is killed (Webots: 1 s).
EXIT_GRACE = 1.0


@dataclass(frozen=True)
class OutputLine:
    """A line a controller printed: ``stream`` is "stdout" or "stderr"."""

    stream: str
    text: str


class ControllerProcess:
    """A running controller program (see module docstring)."""

    def __init__(self, source: Path, args: Sequence[str], robot_name: str,
                 extra_env: dict | None = None) -> None:
        self.source = Path(source)
        to_child_read, to_child_write = os.pipe()
        from_child_read, from_child_write = os.pipe()
        env = dict(os.environ)
        env.update(extra_env or {})
        path = env.get("PYTHONPATH", "")
        env["PYTHONPATH"] = str(RUNTIME_DIR) + (os.pathsep + path if path else "")
        env["ODEON_CONTROLLER_FDS"] = f"{to_child_read},{from_child_write}"
        env["WEBOTS_ROBOT_NAME"] = robot_name
        env["PYTHONIOENCODING"] = "UTF-8"
        env["PYTHONUNBUFFERED"] = "1"
        try:
            self.popen = subprocess.Popen(
                [sys.executable, "-u", str(self.source), *args], cwd=str(self.source.parent),
                env=env, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                stderr=subprocess.PIPE, pass_fds=(to_child_read, from_child_write))
        finally:
            os.close(to_child_read)
            os.close(from_child_write)
        self._write_fd = to_child_write
        self.read_fd = from_child_read
        self._reader = FrameReader()
        self._output: list[OutputLine] = []
        #: output pipe descriptor -> (stream name, bytes of an unfinished line)
        self._streams: dict[int, tuple[str, bytearray]] = {}
        for stream, name in ((self.popen.stdout, "stdout"), (self.popen.stderr, "stderr")):
            fd = stream.fileno()
            os.set_blocking(fd, False)
            self._streams[fd] = (name, bytearray())
        self.closed = False

    # ------------------------------------------------------------ messages
    def send(self, message: dict) -> bool:
        """Write one message; False when the process is gone."""
        if self.closed:
            return False
        try:
            write_frame(self._write_fd, message)
            return True
        except OSError:
            return False

    def poll_message(self, timeout: float) -> object | None:
        """The next message, waiting at most ``timeout`` s (0: do not wait);
        None when nothing came. `ConnectionClosed` when the process closed
        its end (exited)."""
        message = self._reader.next_message()
        if message is not None:
            return message
        if self.closed:
            raise ConnectionClosed("controller closed")
        ready, _, _ = select.select([self.read_fd], [], [], timeout)
        if not ready:
            return None
        self.feed()
        return self._reader.next_message()

    def feed(self) -> None:
        """Read what the pipe holds now (call when select says it is readable)."""
        data = os.read(self.read_fd, 1 << 16)
        if not data:
            raise ConnectionClosed("controller closed")
        self._reader.feed(data)

    # -------------------------------------------------------------- output
    @property
    def output_fds(self) -> list[int]:
        """The stdout and stderr pipes still open (for ``select``)."""
        return list(self._streams)

    def drain_output(self, fd: int | None = None) -> None:
        """Read what stdout and stderr (or only ``fd``) hold now, without blocking,
        into whole lines; a pipe at its end is closed."""
        for stream_fd in ([fd] if fd is not None else list(self._streams)):
            entry = self._streams.get(stream_fd)
            if entry is None:
                continue
            name, partial = entry
            while True:
                try:
                    data = os.read(stream_fd, 1 << 16)
                except BlockingIOError:
                    break
                except OSError:
                    data = b""
                if not data:
                    self._finish_stream(stream_fd)
                    break
                partial += data
                *lines, rest = partial.split(b"\n")
                for raw in lines:
                    self._output.append(OutputLine(name, raw.decode("utf-8", "replace")))
                partial[:] = rest

    def _finish_stream(self, fd: int) -> None:
        """The stream reached its end: keep its last unfinished line (`stop` closes it)."""
        name, partial = self._streams.pop(fd)
        if partial:
            self._output.append(OutputLine(name, partial.decode("utf-8", "replace")))

    def take_output(self) -> list[OutputLine]:
        """Lines read since the last call, in order per stream."""
        out, self._output = self._output, []
        return out

    def drain_to_end(self, timeout: float = 1.0) -> None:
        """Read both output streams to their end (the process has exited)."""
        end = time.monotonic() + timeout
        while self._streams and time.monotonic() < end:
            ready, _, _ = select.select(list(self._streams), [], [], 0.05)
            for fd in ready:
                self.drain_output(fd)

    # ------------------------------------------------------------ life cycle
    def close_pipes(self) -> None:
        """Close our ends: the controller's next ``step`` exits it."""
        if not self.closed:
            self.closed = True
            for fd in (self._write_fd, self.read_fd):
                try:
                    os.close(fd)
                except OSError:
                    pass

    def stop(self, grace: float = EXIT_GRACE) -> int | None:
        """Close the pipes, give the controller ``grace`` s to exit, then kill
        it. Returns its exit status."""
        self.close_pipes()
        try:
            return self.popen.wait(max(grace, 0.0))
        except subprocess.TimeoutExpired:
            self.popen.kill()
            return self.popen.wait()
        finally:
            self.drain_to_end()
            self._streams.clear()
            for stream in (self.popen.stdout, self.popen.stderr):
                stream.close()
