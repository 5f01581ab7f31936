"""The process's one `Robot` (or `Supervisor`), for device objects built by
name (``DistanceSensor("ds")``) and the keyboard."""

from __future__ import annotations

_robot = None


def robot():
    """The Robot of this process, or None before it is created."""
    return _robot


def set_robot(instance) -> None:
    """Record the Robot of this process (its constructor calls this once)."""
    global _robot
    _robot = instance
