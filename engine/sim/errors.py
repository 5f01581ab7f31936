"""The error of a world that cannot be built, located in its file.

`BuildError` is the one exception `engine.sim.builder.build` raises for a
world it cannot simulate (a `WorldError`, so callers that handle world
files handle it too). ``str(error)`` reads ``file:line:column: message``
where the position is that of the node at fault (or of its closest ancestor
read from the file) and the message names the node, the field and the
reason, e.g. ``robot.wbt:12:9: HingeJoint (DEF H): jointParameters.axis:
dJointSetHingeAxis: argument 'x, y, z': the axis must not be the zero vector``.

`located(node, filename)` turns any build failure raised inside it (an
unlocated BuildError, an `ODEError`, an arithmetic or memory error) into a
located BuildError naming ``node``.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import numpy as np

from engine.ode.errors import ODEError
from engine.world.errors import WorldError

#: what `located` converts into a BuildError (anything else is a bug and propagates)
BUILD_FAILURES = (ODEError, ArithmeticError, MemoryError, np.linalg.LinAlgError)


class BuildError(WorldError, ValueError):
    """A world that cannot be simulated; the message names the node and field.

    ``reason`` is the message without the position; ``filename``, ``line``
    and ``column`` locate the node (None when unknown); ``node`` is the node
    at fault (None when not located yet).
    """

    def __init__(self, reason: str, node=None, filename: str | None = None) -> None:
        self.reason = reason
        self.node = node
        self.filename = filename
        position = source_position(node) if node is not None else None
        self.line = position.line if position is not None else None
        self.column = position.column if position is not None else None
        super().__init__(_format(reason, filename, position))


def source_position(node):
    """The `SourcePosition` of ``node``, else of its closest ancestor read from
    a file (a node added by an edit has none), else None."""
    while node is not None:
        position = getattr(node, "source", None)
        if position is not None:
            return position
        node = node.parent
    return None


def node_label(node) -> str:
    """``HingeJoint (DEF H)`` or ``HingeJoint`` (its type) for messages."""
    return node.label()


def _format(reason: str, filename: str | None, position) -> str:
    if position is None:
        return f"{filename}: {reason}" if filename else reason
    return f"{filename or '<world>'}:{position.line}:{position.column}: {reason}"


@contextmanager
def located(node, filename: str | None, label: str | None = None,
            field: str | None = None) -> Iterator[None]:
    """Locate failures raised inside at ``node`` of the world file ``filename``.

    A `BuildError` keeps its reason (it already names the node) and the
    innermost node it was located at (``filename`` None: only the node is
    recorded, an outer `located` adds the file); another build failure becomes
    ``label: field: <error>`` with ``label`` defaulting to the node's label.
    """
    try:
        yield
    except BuildError as exc:
        if exc.filename is not None or (filename is None and exc.node is not None):
            raise
        # keep the innermost node that was named; add the file name
        raise BuildError(exc.reason, exc.node if exc.node is not None else node,
                         filename) from None
    except BUILD_FAILURES as exc:
        where = label if label is not None else node_label(node)
        if field:
            where = f"{where}: {field}"
        raise BuildError(f"{where}: {_describe(exc)}", node, filename) from None


def _describe(exc: BaseException) -> str:
    """The text of a build failure: ODEErrors name function and argument already."""
    if isinstance(exc, ODEError):
        return str(exc)
    text = str(exc) or "no details"
    return f"{type(exc).__name__}: {text}"
