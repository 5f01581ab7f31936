"""Plugin errors as console lines and records, and the console rate limit.

A Python exception in a callback is the plugin's segfault: the host turns it
into a `PluginError` (callback, file, line, message, traceback text) and
prints the traceback on the console under source ``"plugin-error"``; the app
can make the ``file:line`` clickable from the record (`PluginHost.errors`).
"""

from __future__ import annotations

import linecache
import os
import traceback
from dataclasses import dataclass

#: The host's own frames (left out of tracebacks shown to the user).
_HOST_FILES = {os.path.join(os.path.dirname(os.path.abspath(__file__)), f)
               for f in ("host.py", "faults.py", "context.py")}

#: Console source of plugin output (dWebotsConsolePrintf).
SOURCE_OUTPUT = "physics"
#: Console source of plugin errors (tracebacks, load failures).
SOURCE_ERROR = "plugin-error"


@dataclass(frozen=True)
class PluginError:
    """One plugin failure. ``file``/``line`` locate the innermost frame in the
    plugin's source (or the syntax error), None when unknown."""

    callback: str
    file: str | None
    line: int | None
    message: str
    text: str

    @property
    def location(self) -> str:
        """``file:line`` (or ``file``, or ``""``)."""
        if self.file is None:
            return ""
        return f"{self.file}:{self.line}" if self.line is not None else self.file


def error_from_exception(exc: BaseException, callback: str, plugin_file: str) -> PluginError:
    """The record of ``exc`` raised by ``callback``: the traceback without the
    host's own frames, located at the deepest frame in ``plugin_file``."""
    if isinstance(exc, SyntaxError):
        file = exc.filename or plugin_file
        message = f"SyntaxError: {exc.msg}"
        text = "".join(traceback.format_exception_only(exc)).rstrip()
        return PluginError(callback, file, exc.lineno, message, text)
    linecache.checkcache()  # the source may have been edited since it was last shown
    frames = traceback.extract_tb(exc.__traceback__)
    user = [f for f in frames if os.path.abspath(f.filename) not in _HOST_FILES]
    file, line = None, None
    for frame in user:
        if frame.filename == plugin_file:
            file, line = frame.filename, frame.lineno
    if file is None and user:
        file, line = user[-1].filename, user[-1].lineno
    body = "".join(traceback.format_list(user))
    message = "".join(traceback.format_exception_only(exc)).strip()
    text = f"Traceback (most recent call last):\n{body}{message}"
    return PluginError(callback, file, line, message, text)


class RateLimiter:
    """At most ``limit`` plugin lines per window (one simulation step, or one
    init/cleanup); the rest are counted and reported as one line
    ``"... N lines suppressed"`` when the window ends."""

    def __init__(self, console, limit: int = 200) -> None:
        self.console = console
        self.limit = limit
        self._count = 0
        self._suppressed = 0

    def print(self, source: str, text: str) -> None:
        """Print one line unless the window's budget is spent (clears always pass)."""
        if text == "\f":
            self.console.print(source, text)
            return
        if self._count >= self.limit:
            self._suppressed += 1
            return
        self._count += 1
        self.console.print(source, text)

    def end_window(self) -> None:
        """Report suppressed lines (if any) and start a new window."""
        if self._suppressed:
            self.console.print(SOURCE_OUTPUT, f"... {self._suppressed} lines suppressed "
                               f"(more than {self.limit} lines in one step)")
        self._count = 0
        self._suppressed = 0
