"""The simulation console: a list of ``(source, text)`` lines with listeners.

Sources are short tags such as ``"odeon"`` (the simulator), ``"physics"``
(plugins) or ``"parsing"``. The text ``"\\f"`` clears the console (as
dWebotsConsolePrintf does). Listeners ``fn(source, text)`` hear every line,
clears included.
"""

from __future__ import annotations

from collections.abc import Callable

Listener = Callable[[str, str], None]


class Console:
    """Lines printed by the simulator and plugins."""

    def __init__(self) -> None:
        self.lines: list[tuple[str, str]] = []
        self._listeners: list[Listener] = []

    def print(self, source: str, text: str) -> None:
        """Add one line (``"\\f"`` clears the lines first and is not kept)."""
        if text == "\f":
            self.lines.clear()
        else:
            self.lines.append((source, text))
        for listener in list(self._listeners):
            listener(source, text)

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
