"""The simulation console: the newest ``(source, text)`` lines, with listeners.

Sources are short tags such as ``"odeon"`` (the simulator), ``"physics"``
(plugins) or ``"parsing"``. The text ``"\\f"`` clears the console (as
dWebotsConsolePrintf does). Listeners ``fn(source, text)`` hear every line,
clears included.

Bounded memory over long runs: a line longer than ``max_line_chars`` is cut
(with a marker saying how much was cut) before it is kept or heard, and only
the newest lines are kept, at most ``max_lines`` of them and ``max_chars``
characters in all; `dropped` counts the older lines and characters let go,
and `dropped_text` says so in one line.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import NamedTuple

Listener = Callable[[str, str], None]

#: Lines kept by default.
MAX_LINES = 10_000
#: Characters kept by default (all lines; about 4 MB of ASCII).
MAX_CHARS = 4 * 1024 * 1024
#: Longest line [characters] kept or heard by default (64 KiB).
MAX_LINE_CHARS = 64 * 1024


class Dropped(NamedTuple):
    """Older lines let go to keep the console bounded (and their characters)."""

    lines: int
    chars: int


def cut_line(text: str, limit: int) -> str:
    """``text`` cut to at most ``limit`` characters plus a marker naming how
    many were cut (``text`` itself when short enough)."""
    if len(text) <= limit:
        return text
    return f"{text[:limit]} ... [{len(text) - limit} more characters cut]"


class Console:
    """Lines printed by the simulator and plugins (see module docstring)."""

    def __init__(self, max_lines: int = MAX_LINES, max_chars: int = MAX_CHARS,
                 max_line_chars: int = MAX_LINE_CHARS) -> None:
        self.max_lines = max_lines
        self.max_chars = max_chars
        self.max_line_chars = max_line_chars
        self.lines: list[tuple[str, str]] = []
        self._chars = 0
        self._dropped_lines = 0
        self._dropped_chars = 0
        self._listeners: list[Listener] = []
        self._lock = threading.Lock()  # the engine and the plugin watchdog both print

    def print(self, source: str, text: str) -> None:
        """Add one line (``"\\f"`` clears the lines first and is not kept)."""
        with self._lock:
            if text == "\f":
                self.lines.clear()
                self._chars = 0
                self._dropped_lines = self._dropped_chars = 0
            else:
                text = cut_line(text, self.max_line_chars)
                self.lines.append((source, text))
                self._chars += len(text)
                self._trim()
        for listener in list(self._listeners):
            listener(source, text)

    def _trim(self) -> None:
        lines = self.lines
        cut, chars = 0, self._chars
        while len(lines) - cut > 1 and (len(lines) - cut > self.max_lines
                                        or chars > self.max_chars):
            chars -= len(lines[cut][1])
            cut += 1
        if cut:
            self._dropped_lines += cut
            self._dropped_chars += self._chars - chars
            self._chars = chars
            del lines[:cut]

    @property
    def kept_chars(self) -> int:
        """Characters in the kept lines."""
        return self._chars

    @property
    def dropped(self) -> Dropped:
        """Older lines (and characters) let go since the last clear."""
        return Dropped(self._dropped_lines, self._dropped_chars)

    def dropped_text(self) -> str:
        """``"... 12 older lines (3.4 MB) dropped"`` ("" when none were)."""
        lines, chars = self.dropped
        if not lines:
            return ""
        return f"... {lines} older lines ({chars / 1e6:.1f} MB) dropped"

    def warn(self, text: str) -> None:
        """A simulator warning (source ``"odeon"``)."""
        self.print("odeon", f"WARNING: {text}")

    def add_listener(self, listener: Listener) -> None:
        """Call ``listener(source, text)`` for every new line."""
        self._listeners.append(listener)

    def remove_listener(self, listener: Listener) -> None:
        """Stop calling ``listener``."""
        self._listeners.remove(listener)

    def clear(self) -> None:
        """Remove every line."""
        self.print("odeon", "\f")
